"""The trusted side of the code sandbox: the pool, the Docker backend, its settings, and what is
shipped into a container (`shipment.py`). Never imported from `wire/` or `inside/`."""
