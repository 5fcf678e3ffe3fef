"""Ray Serve's routing of a session's calls to the replica that holds the session.

A session is one process in one replica's sandbox: its calls must reach that replica, or they
find nothing (404). Serve's own routers cannot promise that: multiplexed routing learns where
an id lives only after the replica reports it (the first cells after an open may land
elsewhere) and falls back to any replica when the holder is busy; consistent hashing maps an id
to a replica by a ring that moves when replicas come and go, while a session never moves.

So the session id names its holder. Each replica's sessions start with a tag derived from its
Serve replica id (`serve_replica_tag`, set as `sessions.id_tag` when the replica builds its
app); the client sends the id in Serve's session header (`x-session-id`, which the proxy hands
to the router as `metadata.session_id`); this router sends the call to the replica with that
tag, waiting (Serve's backoff) while it is at its `max_ongoing_requests`, never elsewhere. A
call whose holder is gone goes to any replica, which answers that the session is not there.
Every other request is routed as Serve's default does: two random replicas (on this node
first), the one with the shorter queue.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from typing import Protocol, TypeVar

from ray.serve.request_router import (
    FIFOMixin,
    LocalityMixin,
    PendingRequest,
    RequestRouter,
    RunningReplica,
)


def serve_replica_tag(unique_id: str) -> str:
    """The session-id tag of the Serve replica with `unique_id` (8 hex characters, as
    `sessions.id_tag` takes): the replica and every router compute it alike."""
    return hashlib.sha256(f"serve-replica:{unique_id}".encode()).hexdigest()[:8]


def session_tag(session_id: str) -> str:
    """The tag a session id starts with (`<tag>-<random>`)."""
    return session_id.partition("-")[0]


class _HasReplicaId(Protocol):
    @property
    def replica_id(self) -> object: ...


R = TypeVar("R", bound=_HasReplicaId)


def holders_of(session_id: str, replicas: Iterable[R]) -> list[R]:
    """The replicas whose tag starts `session_id` (one while it lives; none once it is gone)."""
    tag = session_tag(session_id)
    return [r for r in replicas if serve_replica_tag(_unique_id(r)) == tag]


def _unique_id(replica: _HasReplicaId) -> str:
    return str(getattr(replica.replica_id, "unique_id", ""))


class SessionOwnerRouter(FIFOMixin, LocalityMixin, RequestRouter):
    """A session's calls to the replica that holds it; the rest by two random choices."""

    async def choose_replicas(
        self,
        candidate_replicas: list[RunningReplica],
        pending_request: PendingRequest | None = None,
    ) -> list[list[RunningReplica]]:
        session_id = pending_request.metadata.session_id if pending_request else ""
        if session_id:
            holders = holders_of(session_id, candidate_replicas)
            if holders:
                # while the holder is at its max_ongoing_requests: back off and ask again
                if pending_request is not None:
                    pending_request.routing_context.should_backoff = True
                return [holders]
        ids = list(self.apply_locality_routing(pending_request=pending_request))
        if not ids:
            return []
        chosen = random.sample(ids, k=min(2, len(ids)))
        return [[self.curr_replicas[replica_id] for replica_id in chosen]]
