"""rlvr verifier service: math, code and Lean rewards over HTTP."""

from rlvr import __version__

__all__ = ["__version__"]
