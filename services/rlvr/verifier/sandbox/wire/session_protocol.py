"""The messages between the host and a session container's executor (stdlib only; shipped).

A session container's PID 1 (`inside/session_executor.py`) holds many sessions at once, each a
long-lived Python process in namespaces of its own. The host sends requests tagged by `kind`
and numbered by `seq`; PID 1 answers each with a report carrying the same `seq` (answers may
come in any order: cells of different sessions run side by side), and may send an `ended`
report of its own when a session's process dies between cells.

What a report carries is partly the session's own doing (its stdout, stderr, the `repr` it
returned, an error it may have forged on its reply pipe): the host decodes every report with
`decode_session_report` (tag, fields, types) and trusts nothing else about it.
"""

# (No `from __future__ import annotations`: the decoder reads the shapes' keys at run time.)
from typing import Literal, NotRequired, TypedDict, get_args

from rlvr.verifier.sandbox.wire.protocol import ExecutorConfig

# -- host -> PID 1


class SessionExecutorConfig(ExecutorConfig):
    """What a session container's PID 1 is told at its start, besides the sandbox's own."""

    max_sessions: int  # sessions it holds at once
    session_tmpfs_mb: int  # each session's own /tmp


class SessionKeys(TypedDict):
    """The keys `SessionExecutorConfig` adds (what the host's session pool passes in)."""

    max_sessions: int
    session_tmpfs_mb: int


class OpenSession(TypedDict):
    """Make a session: its namespaces, its tmpfs with `files` in it, its process."""

    kind: Literal["open"]
    seq: int
    session: str
    memory_mb: int
    nproc: int
    file_size_mb: int
    cpu_s: int  # CPU seconds of each of its processes, all its cells together (RLIMIT_CPU)
    files: dict[str, str]  # relative path -> base64 (the host checked the paths)


class RunCell(TypedDict):
    kind: Literal["cell"]
    seq: int
    session: str
    code: str
    timeout_s: float


class CloseSession(TypedDict):
    kind: Literal["close"]
    seq: int
    session: str


SessionRequest = OpenSession | RunCell | CloseSession

# -- PID 1 -> host

# How a cell ended, as PID 1 tells it (the host's `CellStatus` takes the same words).
CellOutcome = Literal["ok", "error", "timed_out", "memory_exceeded", "output_limit_exceeded"]
CELL_OUTCOMES: frozenset[str] = frozenset(get_args(CellOutcome))


class Opened(TypedDict):
    kind: Literal["opened"]
    seq: int
    session: str
    ok: bool
    detail: str  # why not, when not ok (the engine refused a namespace, no room...)
    phases_ms: NotRequired[dict[str, float]]


class CellReport(TypedDict):
    kind: Literal["cell"]
    seq: int
    session: str
    status: str  # one of CELL_OUTCOMES
    stdout: str
    stderr: str
    value: str | None
    error: str | None
    elapsed_s: float
    alive: bool  # whether the session's process takes further cells


class Closed(TypedDict):
    kind: Literal["closed"]
    seq: int
    session: str
    was_open: bool


class Ended(TypedDict):
    """Unasked: a session's process died between cells (the OOM killer chose it)."""

    kind: Literal["ended"]
    session: str
    why: str


SessionReport = Opened | CellReport | Closed | Ended

_SHAPES: dict[str, type] = {
    get_args(shape.__annotations__["kind"])[0]: shape for shape in (Opened, Closed, Ended)
}
_SHAPES["cell"] = CellReport


def _is_str(value: object) -> bool:
    return type(value) is str


def _is_bool(value: object) -> bool:
    return type(value) is bool


def _is_seq(value: object) -> bool:
    return type(value) is int and value >= 0


def _is_str_or_none(value: object) -> bool:
    return value is None or type(value) is str


def _is_seconds(value: object) -> bool:
    return type(value) in (int, float) and 0 <= value < 1e9  # type: ignore[operator]


def _is_phases(value: object) -> bool:
    return type(value) is dict and all(
        type(k) is str and type(v) in (int, float) for k, v in value.items()
    )


def _is_outcome(value: object) -> bool:
    return type(value) is str and value in CELL_OUTCOMES


_CHECKS = {
    "seq": _is_seq,
    "session": _is_str,
    "ok": _is_bool,
    "detail": _is_str,
    "phases_ms": _is_phases,
    "status": _is_outcome,
    "stdout": _is_str,
    "stderr": _is_str,
    "value": _is_str_or_none,
    "error": _is_str_or_none,
    "elapsed_s": _is_seconds,
    "alive": _is_bool,
    "was_open": _is_bool,
    "why": _is_str,
}


def decode_session_report(obj: object) -> SessionReport:
    """A report as PID 1 sent it (parsed JSON), checked against its kind's shape: the tag,
    every required field, no unknown one, each of its type. ValueError otherwise."""
    if type(obj) is not dict:
        raise ValueError(f"a session report is a {type(obj).__name__}, not an object")
    kind = obj.get("kind")
    shape = _SHAPES.get(kind) if type(kind) is str else None
    if shape is None:
        shown = repr(kind[:40]) if type(kind) is str else f"of type {type(kind).__name__}"
        raise ValueError(f"a session report of unknown kind {shown}")
    required: frozenset[str] = shape.__required_keys__  # type: ignore[attr-defined]
    declared: frozenset[str] = required | shape.__optional_keys__  # type: ignore[attr-defined]
    missing = required - obj.keys()
    if missing:
        raise ValueError(f"a {kind!r} report lacks {', '.join(sorted(missing))}")
    for name, value in obj.items():
        if name not in declared:
            raise ValueError(f"a {kind!r} report has an unknown field {str(name)[:40]!r}")
        if name != "kind" and not _CHECKS[name](value):
            raise ValueError(f"a {kind!r} report has a malformed {name!r}")
    return obj  # type: ignore[return-value]
