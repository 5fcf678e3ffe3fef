"""rlvr verifier service: math, code and Lean rewards over HTTP."""

__version__ = "0.1.0"
