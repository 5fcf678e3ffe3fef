"""The session router's parts without a cluster: the tag a replica gives its session ids is the
one the router computes, the deployment asks Serve for the router, and a router picks the holder
of a session (real Serve classes, FAKE replicas: objects with a `replica_id`). The real path,
through Serve's proxy to two replicas, is `tests/scaleout/test_ray_cluster.py`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from importlib import import_module

from prometheus_client import CollectorRegistry

from rlvr.verifier.domains.sessions.config import SessionSettings
from rlvr.verifier.domains.sessions.metrics import SessionMetrics
from rlvr.verifier.domains.sessions.service import SessionService
from rlvr.verifier.scaleout.config import SESSION_ROUTER_CLASS, RayServeSettings
from rlvr.verifier.scaleout.ray_app import with_replica_tag
from rlvr.verifier.scaleout.session_router import (
    SessionOwnerRouter,
    holders_of,
    serve_replica_tag,
    session_tag,
)
from rlvr.verifier.settings import VerifierSettings


@dataclass(frozen=True)
class FakeReplicaId:
    unique_id: str


@dataclass
class FakeReplica:
    """A FAKE stand-in for Serve's RunningReplica: only what the router reads."""

    replica_id: FakeReplicaId
    calls: list[str] = field(default_factory=list)


def _service_tag(settings: SessionSettings) -> str:
    """The tag of the session ids a service with `settings` makes (no container is started:
    the pool is only used to open a session)."""
    return SessionService(settings, None, SessionMetrics(CollectorRegistry())).table.tag


def _replicas(*names: str) -> list[FakeReplica]:
    return [FakeReplica(FakeReplicaId(name)) for name in names]


def test_a_replicas_sessions_start_with_the_tag_the_router_computes() -> None:
    settings = with_replica_tag(VerifierSettings(), "abc123")
    tag = settings.sessions.id_tag
    assert tag == serve_replica_tag("abc123") and len(tag) == 8
    assert serve_replica_tag("abc124") != tag
    assert _service_tag(settings.sessions) == tag
    # without a tag (one uvicorn process) the host name and pid decide it, as before
    untagged = _service_tag(SessionSettings())
    assert untagged != tag and len(untagged) == 8


def test_the_holder_of_a_session_is_the_replica_whose_tag_starts_its_id() -> None:
    replicas = _replicas("r1", "r2", "r3")
    session_id = f"{serve_replica_tag('r2')}-Zm9vYmFy"
    assert session_tag(session_id) == serve_replica_tag("r2")
    assert holders_of(session_id, replicas) == [replicas[1]]
    assert holders_of(f"{serve_replica_tag('gone')}-x", replicas) == []
    assert holders_of("", replicas) == []


def test_the_deployment_asks_serve_for_the_session_router() -> None:
    options = RayServeSettings().deployment_options(needs_docker=True)
    path = options["request_router_config"]["request_router_class"]
    assert path == SESSION_ROUTER_CLASS
    module, _, name = path.partition(":")
    assert getattr(import_module(module), name) is SessionOwnerRouter


@dataclass
class FakeMetadata:
    session_id: str


@dataclass
class FakeContext:
    should_backoff: bool = False


@dataclass
class FakePending:
    """A FAKE PendingRequest: the metadata and routing context the router reads and sets."""

    metadata: FakeMetadata
    routing_context: FakeContext = field(default_factory=FakeContext)


def _route(router: SessionOwnerRouter, replicas: list[FakeReplica], session_id: str) -> list:
    pending = FakePending(FakeMetadata(session_id))
    ranks = asyncio.run(router.choose_replicas(replicas, pending))  # type: ignore[arg-type]
    return [[r.replica_id.unique_id for r in rank] for rank in ranks], pending


def test_the_router_sends_a_sessions_call_to_its_holder_and_waits_for_it() -> None:
    router = object.__new__(SessionOwnerRouter)  # choose_replicas reads no router state here
    replicas = _replicas("r1", "r2", "r3")
    for holder in ("r1", "r2", "r3"):
        ranks, pending = _route(router, replicas, f"{serve_replica_tag(holder)}-abc")
        assert ranks == [[holder]]
        assert pending.routing_context.should_backoff  # a busy holder: back off, never elsewhere
