"""The session table: which sessions are open, where, with what limits; what is due to expire;
and why a session that is gone is gone (so a 404 can say it). Pure bookkeeping: no I/O."""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import math
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rlvr.schemas.sessions import OpenSessionRequest, SessionLimits
from rlvr.verifier.domains.sessions.config import SessionSettings

# Ids of sessions that are gone, remembered with why (a bounded memory: a 404's message).
_GONE_KEPT = 65536


class SessionState(StrEnum):
    open = "open"
    dead = "dead"  # its process ended (a timeout, memory, output): the reason is kept
    lost = "lost"  # its container died: the next call is told once, then it is forgotten


@dataclass
class SessionRecord:
    id: str
    container: Any  # a `SessionContainerLike`
    limits: SessionLimits
    opened_at: float
    last_used_at: float
    state: SessionState = SessionState.open
    why: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def is_busy(self) -> bool:
        return self.lock.locked()


class SessionsFull(Exception):
    """The host holds as many sessions as it may (a 503 with Retry-After)."""


class BadFiles(ValueError):
    """A session's `files` are not plain relative paths with base64 contents, or too big."""


def resolve_limits(request: OpenSessionRequest, settings: SessionSettings) -> SessionLimits:
    """The request's limits, defaults filled in, each capped by the server's settings."""

    def pick(asked: float | None, default: float, cap: float) -> float:
        return min(default if asked is None else asked, cap)

    return SessionLimits(
        memory_mb=int(pick(request.memory_mb, settings.default_memory_mb, settings.max_memory_mb)),
        timeout_s=pick(request.timeout_s, settings.default_timeout_s, settings.max_timeout_s),
        idle_ttl_s=pick(request.idle_ttl_s, settings.default_idle_ttl_s, settings.max_idle_ttl_s),
        max_lifetime_s=pick(
            request.max_lifetime_s, settings.default_max_lifetime_s, settings.max_lifetime_cap_s
        ),
    )


def cell_timeout_s(asked: float | None, limits: SessionLimits, cap_s: float) -> float:
    """A cell's wall seconds: its own, or the session's, never past the server's cap."""
    return min(limits.timeout_s if asked is None else asked, cap_s)


def check_files(files: dict[str, str], max_bytes: int) -> None:
    """Relative plain paths (no `..`, no absolute, no empty part), base64 contents, at most
    `max_bytes` decoded. PID 1 checks the paths again."""
    total = 0
    for name, data in files.items():
        parts = name.split("/")
        if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise BadFiles(f"files: {name[:100]!r} is not a plain relative path")
        if "\x00" in name or len(name) > 1024:
            raise BadFiles(f"files: {name[:100]!r} is not a usable file name")
        try:
            total += len(base64.b64decode(data, validate=True))
        except (binascii.Error, ValueError) as exc:
            raise BadFiles(f"files[{name[:100]!r}] is not base64") from exc
        if total > max_bytes:
            raise BadFiles(f"files hold more than {max_bytes} bytes (max_files_bytes)")


def replica_tag(host: str, pid: int) -> str:
    """What starts every session id this process makes (8 hex characters): a call that reaches
    another process (another uvicorn worker, another replica) is told where the session is."""
    return hashlib.sha256(f"{host}:{pid}".encode()).hexdigest()[:8]


class SessionTable:
    def __init__(self, max_sessions: int, tag: str = "") -> None:
        self.max_sessions = max_sessions
        self.tag = tag
        self.records: dict[str, SessionRecord] = {}
        self.opening = 0
        self._gone: OrderedDict[str, str] = OrderedDict()

    @property
    def open_count(self) -> int:
        return sum(r.state is SessionState.open for r in self.records.values())

    def held(self) -> int:
        """Places taken: every record (a dead one holds its place until it is closed or
        expires: it still has a record the client may ask about) and every open in flight."""
        return len(self.records) + self.opening

    def reserve(self) -> None:
        """Take a place for a session being opened, or raise SessionsFull."""
        if self.held() >= self.max_sessions:
            raise SessionsFull(
                f"this host holds {self.held()} sessions, its limit "
                f"(sessions.max_sessions={self.max_sessions}): close one, or retry later"
            )
        self.opening += 1

    def unreserve(self) -> None:
        self.opening -= 1

    def add(self, record: SessionRecord) -> None:
        self.records[record.id] = record

    def get(self, sid: str) -> SessionRecord | None:
        return self.records.get(sid)

    def forget(self, sid: str, why: str) -> SessionRecord | None:
        record = self.records.pop(sid, None)
        if record is not None:
            self._gone[sid] = why
            while len(self._gone) > _GONE_KEPT:
                self._gone.popitem(last=False)
        return record

    def missing_message(self, sid: str) -> str:
        why = self._gone.get(sid)
        shown = sid[:64]
        if why is None and self.tag and not sid.startswith(f"{self.tag}-"):
            return (
                f"no session {shown!r} here: session ids of this process start with "
                f"{self.tag!r}; send a session's calls to the replica (and worker process) "
                "that opened it"
            )
        if why is None:
            return f"no session {shown!r} (never opened here, or long gone): open a new one"
        return f"session {shown!r} is {why}: open a new one"

    def due(self, now: float) -> list[tuple[SessionRecord, str]]:
        """Records to close now, with why: idle past their TTL (not while a cell runs), or
        older than their lifetime (even mid-cell: a lifetime is a hard bound)."""
        found = []
        for record in self.records.values():
            age_s = now - record.opened_at
            if age_s >= record.limits.max_lifetime_s:
                found.append(
                    (record, f"expired (its lifetime of {_s(record.limits.max_lifetime_s)} passed)")
                )
            elif not record.is_busy and now - record.last_used_at >= record.limits.idle_ttl_s:
                found.append((record, f"expired (idle for {_s(record.limits.idle_ttl_s)})"))
        return found

    def in_container(self, container: Any) -> list[SessionRecord]:
        return [r for r in self.records.values() if r.container is container]


def _s(seconds: float) -> str:
    return f"{seconds:g} s" if math.isfinite(seconds) else "ever"
