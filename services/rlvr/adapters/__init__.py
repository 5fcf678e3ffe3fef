"""Framework adapters over the client: `trl` (reward functions), `verl` (compute_score).

OpenRLHF needs no Python adapter: point `--remote_rm_url` at the service's `/openrlhf` endpoint.
Each adapter is its own module so importing one never imports another framework.
"""
