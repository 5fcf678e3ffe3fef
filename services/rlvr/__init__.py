"""rlvr: verifiable rewards for RL on reasoning models.

    from rlvr import VerifierClient                 # the HTTP client (httpx, pydantic, tenacity)
    from rlvr.adapters.trl import math_reward       # ready-made reward functions for trainers
    from rlvr.schemas import MathItem, VerifyResult  # the wire contract

The service itself lives in `rlvr.verifier` (`rlvr-verifier serve`) and the trainer in the
separate package `rlvr_train` (`rlvr-train`). Importing `rlvr` imports no server code.
"""

__version__ = "0.1.0"  # first: rlvr.verifier reads it while the client's imports run

from rlvr.client import AsyncVerifierClient, VerifierClient

__all__ = ["AsyncVerifierClient", "VerifierClient", "__version__"]
