"""PID 1 of a session container: many stateful Python sessions, each in namespaces of its own.

Where a `/code` container's PID 1 (`executor.py`) runs one job at a time, this one holds up to
`max_sessions` sessions and runs their cells side by side from one event loop: it never runs a
cell itself, it only moves bytes (requests down, output and replies up) and enforces deadlines.

One session is two processes, both made in `session_space.py`: its spawner (a clone of the warm
zygote, PID 1's child and PID 1 of the session's own PID namespace: PID 1 talks to it and kills
it) and its kernel (`session_kernel.py`, the fork that runs the cells). The session has its own
user, PID, mount, IPC, UTS, cgroup and network namespaces, its own tmpfs at `/tmp` (its work
dir, `tmpfs_mb`), the job seccomp filter, no capabilities, and its own rlimits (address space,
processes, file size, CPU). It cannot see, signal or trace another session or PID 1; its
processes are the OOM killer's first choice (`oom_score_adj` 1000). Closing it kills its
spawner, the namespace's init, so the kernel kills everything in its PID namespace, and its
tmpfs goes with the last descriptor.

A cell ends one of five ways (`wire/session_protocol.py::CellOutcome`): `ok` or `error` (the
session lives on), or `timed_out`, `memory_exceeded`, `output_limit_exceeded`, after which the
session's namespaces are torn down (never reset: the host reports the session dead).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import signal
import socket
import time
from typing import Any, cast

from rlvr.verifier.sandbox.inside.fds import write_all
from rlvr.verifier.sandbox.inside.procs import decode_status, reap_all, set_non_dumpable
from rlvr.verifier.sandbox.inside.session_space import SessionSpace
from rlvr.verifier.sandbox.inside.supervisor import Capture, head_and_tail
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT, SpawnRequest, Zygote, ZygoteLost
from rlvr.verifier.sandbox.wire.frames import encode_frame, take_frame
from rlvr.verifier.sandbox.wire.session_protocol import (
    CellReport,
    CloseSession,
    OpenSession,
    RunCell,
    SessionExecutorConfig,
)

# A reply line longer than this is not a reply (the kernel caps a value at 64 K characters).
_REPLY_LIMIT_BYTES = 1 << 20
# Time a session's spawner may take to say its namespaces are made (~10 ms when idle).
_SPACE_TIMEOUT_S = 10.0
# Dead sessions remembered, so a cell sent after a death is told why (the host forgets first).
_DEAD_KEPT = 4096
# The container's OOM-kill counter: cgroup v2's memory.events, or v1's memory.oom_control.
_OOM_COUNTERS = ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control")


def main(config: SessionExecutorConfig) -> None:
    """Serve session requests until stdin closes (the host went away: the container exits)."""
    if os.getpid() != 1:  # it kills what it holds: never on a host
        raise SystemExit("the session executor only runs as PID 1 of a sandbox container")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_IGN)
    set_non_dumpable()
    tmpfs_mb = int(config["session_tmpfs_mb"])
    try:
        zygote = Zygote.start(namespaces="sessions")
        SessionSpace.open(zygote, tmpfs_mb, private_net=True).close()  # refused here: say so now
    except Exception as exc:
        _send({"ready": False, "error": f"{type(exc).__name__}: {exc}"[:1000]})
        return
    executor = SessionExecutor(zygote, config)
    _send({"ready": True, "pid": os.getpid(), "zygote": zygote.pid, "max_sessions": executor.max})
    executor.serve()


def _send(message: object) -> None:
    write_all(1, encode_frame(cast(dict[str, object], message)))


def _oom_kills() -> int:
    """The container's OOM-kill count (-1: unreadable): a session's process killed by SIGKILL
    while it rose was the OOM killer's choice, not its own doing."""
    for path in _OOM_COUNTERS:
        try:
            with open(path, "rb") as handle:
                for line in handle:
                    name, _, value = line.partition(b" ")
                    if name == b"oom_kill":
                        return int(value)
        except (OSError, ValueError):
            continue
    return -1


class Session:
    """PID 1's handle on one session: its space, its kernel's pipes, the running cell."""

    def __init__(self, sid: str, space: SessionSpace, pid: int, fds: dict[str, int]) -> None:
        self.sid, self.space, self.pid = sid, space, pid
        self.commands, self.replies, self.out, self.err = (
            fds["commands"],
            fds["replies"],
            fds["out"],
            fds["err"],
        )
        self.pending = b""  # request bytes not yet written (a stalled kernel)
        self.reply = bytearray()
        self.seq: int | None = None  # the running cell's
        self.started = 0.0
        self.deadline = 0.0
        self.oom_before = -1
        self.stdout: Capture | None = None
        self.stderr: Capture | None = None
        self.idle_bytes = 0  # written between cells (a background thread)
        self.has_exited = False  # its spawner reported the kernel's exit


class SessionExecutor:
    def __init__(self, zygote: Zygote, config: SessionExecutorConfig) -> None:
        self.zygote = zygote
        self.max = int(config["max_sessions"])
        self.output_limit = int(config["output_limit_bytes"])
        self.tmpfs_mb = int(config["session_tmpfs_mb"])
        self.sessions: dict[str, Session] = {}
        # opens whose namespaces are being made: (request, started, spawner's socket, deadline)
        self.opening: dict[str, tuple[OpenSession, float, socket.socket, float]] = {}
        self.dead: dict[str, str] = {}  # session -> why it died (bounded)
        self.selector = selectors.DefaultSelector()
        self.inbox = bytearray()

    # -- the loop

    def serve(self) -> None:
        os.set_blocking(0, False)
        self.selector.register(0, selectors.EVENT_READ, ("host", None))
        while True:
            for key, _ in self.selector.select(self._wait_s()):
                what, session = key.data
                if what == "host":
                    if not self._read_host():
                        return
                elif what == "space":
                    self._finish_open(str(session), ready=True)
                elif isinstance(session, Session) and self.sessions.get(session.sid) is session:
                    self._on_session_event(what, session)
            now = time.monotonic()
            for session in list(self.sessions.values()):
                if session.seq is not None and now >= session.deadline:
                    self._end_cell(session, "timed_out", kill=True)
            for sid, (_, _, _, deadline) in list(self.opening.items()):
                if now >= deadline:
                    self._finish_open(sid, ready=False)

    def _wait_s(self) -> float | None:
        deadlines = [s.deadline for s in self.sessions.values() if s.seq is not None]
        deadlines += [entry[3] for entry in self.opening.values()]
        return max(0.0, min(deadlines) - time.monotonic()) if deadlines else None

    def _read_host(self) -> bool:
        try:
            data = os.read(0, 1 << 20)
        except BlockingIOError:
            return True
        if not data:
            return False
        self.inbox += data
        while True:
            frame = take_frame(self.inbox)
            if frame is None:
                return True
            self._handle(frame)

    def _handle(self, request: dict[str, Any]) -> None:
        kind = request.get("kind")
        try:
            if kind == "open":
                self._open(cast(OpenSession, request))
            elif kind == "cell":
                self._start_cell(cast(RunCell, request))
            elif kind == "close":
                self._close(cast(CloseSession, request))
        except Exception as exc:  # a fault of ours: said on the request, never a crash of PID 1
            detail = f"{type(exc).__name__}: {exc}"[:500]
            sid = str(request.get("session", ""))
            seq = int(request.get("seq", 0))
            if kind == "cell":
                self._kill(sid, f"executor fault: {detail}")
                _send(_cell_report(seq, sid, "error", error=f"executor fault: {detail}"))
            elif kind == "open":
                self._kill(sid, "executor fault")
                _send({"kind": "opened", "seq": seq, "session": sid, "ok": False, "detail": detail})
            else:
                _send({"kind": "closed", "seq": seq, "session": sid, "was_open": False})

    # -- open, close

    def _open(self, request: OpenSession) -> None:
        """Start making the session's namespaces; `_finish_open` goes on once its spawner is
        ready (~10 ms later, during which this loop serves the other sessions)."""
        sid, seq = request["session"], request["seq"]
        if sid in self.sessions or sid in self.opening:
            return _refuse(seq, sid, "a session of that id is open here")
        if len(self.sessions) + len(self.opening) >= self.max:
            return _refuse(seq, sid, f"this container holds its {self.max} sessions")
        started = time.monotonic()
        try:
            ours = SessionSpace.begin(self.zygote, self.tmpfs_mb, private_net=True)
        except (OSError, ZygoteLost) as exc:
            return _refuse(seq, sid, f"the session's namespaces could not be made: {exc}"[:500])
        ours.setblocking(False)
        self.opening[sid] = (request, started, ours, started + _SPACE_TIMEOUT_S)
        self.selector.register(ours, selectors.EVENT_READ, ("space", sid))

    def _finish_open(self, sid: str, ready: bool) -> None:
        entry = self.opening.pop(sid, None)
        if entry is None:  # finished already (its deadline and its answer in one round)
            return
        request, started, ours, _ = entry
        seq = request["seq"]
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(ours)
        if not ready:
            ours.close()
            return _refuse(seq, sid, "the session's namespaces were not made in time")
        try:
            space = SessionSpace.complete(ours)
        except OSError as exc:
            return _refuse(seq, sid, f"the session's namespaces could not be made: {exc}"[:500])
        made = time.monotonic()
        try:
            _write_files(space.work_root, request["files"])
            session = self._spawn_kernel(sid, space, request)
        except Exception as exc:
            space.close()
            reap_all()
            return _refuse(seq, sid, f"the session could not start: {type(exc).__name__}: {exc}")
        self.sessions[sid] = session
        self.dead.pop(sid, None)
        phases = {"space": (made - started) * 1000, "kernel": (time.monotonic() - made) * 1000}
        _send({"kind": "opened", "seq": seq, "session": sid, "ok": True, "detail": "",
               "phases_ms": {k: round(v, 2) for k, v in phases.items()}})  # fmt: skip

    def _spawn_kernel(self, sid: str, space: SessionSpace, request: OpenSession) -> Session:
        stdin_r, stdin_w = os.pipe()
        os.close(stdin_w)  # end of file at once
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        commands_r, commands_w = os.pipe()
        replies_r, replies_w = os.pipe()
        mb = 1024 * 1024
        rlimits = {
            "as": int(request["memory_mb"]) * mb,
            "nproc": int(request["nproc"]),
            "fsize": int(request["file_size_mb"]) * mb,
            "cpu": int(request["cpu_s"]),
            "core": 0,
            "nofile": 256,
        }
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": WORK_ROOT, "LANG": "C.UTF-8"}
        spawn = {"mode": "python-session", "cwd": WORK_ROOT, "rlimits": rlimits, "env": env}
        child = [stdin_r, out_w, err_w, commands_r, replies_w]
        try:
            pid = space.zygote.spawn(cast(SpawnRequest, spawn), child)
        finally:
            for fd in child:
                os.close(fd)  # the spawner closed its copies; these are PID 1's
        fds = {"commands": commands_w, "replies": replies_r, "out": out_r, "err": err_r}
        session = Session(sid, space, pid, fds)
        for name in ("replies", "out", "err"):
            os.set_blocking(fds[name], False)
            self.selector.register(fds[name], selectors.EVENT_READ, (name, session))
        os.set_blocking(commands_w, False)
        self.selector.register(space.zygote.sock, selectors.EVENT_READ, ("exit", session))
        return session

    def _close(self, request: CloseSession) -> None:
        sid = request["session"]
        opening = self.opening.pop(sid, None)
        if opening is not None:  # the host gave up on its open: its spawner goes (no socket)
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(opening[2])
            opening[2].close()
            reap_all()  # its spawner ends at the closed socket (later ones: the next reap)
            _refuse(opening[0]["seq"], sid, "closed while it opened")
        session = self.sessions.get(sid)
        was_open = session is not None
        if session is not None and session.seq is not None:  # its caller is answered first
            self._end_cell(session, "error", error="the session was closed during the cell",
                           kill=True)  # fmt: skip
        self._kill(sid, "closed")
        self.dead.pop(sid, None)
        _send({"kind": "closed", "seq": request["seq"], "session": sid, "was_open": was_open})

    def _kill(self, sid: str, why: str) -> None:
        """Tear the session down: its fds, its namespaces (the kernel kills what is left)."""
        session = self.sessions.pop(sid, None)
        if session is None:
            return
        for fd in (session.replies, session.out, session.err, session.commands):
            with contextlib.suppress(KeyError, ValueError, OSError):
                self.selector.unregister(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(session.space.zygote.sock)
        if not session.has_exited:
            # The kernel first, reaped by its spawner: killed with the init instead, it could
            # be left a zombie of the dying spawner, handed to this PID 1, and the init's
            # exit would wait for it to be reaped (2 s in `SessionSpace.close`).
            with contextlib.suppress(OSError):
                os.kill(session.pid, signal.SIGKILL)
            session.space.zygote.receive(timeout_s=1)
        session.space.close()
        reap_all()
        self.dead[sid] = why
        while len(self.dead) > _DEAD_KEPT:
            self.dead.pop(next(iter(self.dead)))

    # -- cells

    def _start_cell(self, request: RunCell) -> None:
        sid, seq = request["session"], request["seq"]
        session = self.sessions.get(sid)
        if session is None:
            why = self.dead.get(sid, "not open here")
            _send(_cell_report(seq, sid, "error", error=f"the session is dead: {why}"))
            return
        if session.seq is not None:  # the host serialises a session's cells: not expected
            _send(_cell_report(seq, sid, "error", error="a cell of this session is running",
                               alive=True))  # fmt: skip
            return
        session.seq = seq
        session.idle_bytes = 0  # the bound between cells is per gap, not per life
        session.started = time.monotonic()
        session.deadline = session.started + float(request["timeout_s"])
        session.oom_before = _oom_kills()
        session.stdout = Capture(session.out, self.output_limit)
        session.stderr = Capture(session.err, self.output_limit)
        session.reply.clear()
        session.pending = (json.dumps({"code": request["code"]}) + "\n").encode()
        self._write_pending(session)

    def _write_pending(self, session: Session) -> None:
        try:
            written = os.write(session.commands, session.pending[: 1 << 16])
            session.pending = session.pending[written:]
        except BlockingIOError:
            pass
        except OSError:  # the kernel closed its request stream: its death says the rest
            session.pending = b""
        key = self.selector.get_map().get(session.commands)
        if session.pending and key is None:
            self.selector.register(session.commands, selectors.EVENT_WRITE, ("commands", session))
        elif not session.pending and key is not None:
            self.selector.unregister(session.commands)

    def _on_session_event(self, what: str, session: Session) -> None:
        if what == "commands":
            self._write_pending(session)
        elif what in ("out", "err"):
            self._on_output(session, session.out if what == "out" else session.err)
        elif what == "replies":
            self._on_reply(session)
        elif what == "exit":
            self._on_exit(session)

    def _on_output(self, session: Session, fd: int) -> None:
        capture = session.stdout if fd == session.out else session.stderr
        if session.seq is None or capture is None:  # between cells (a background thread)
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:  # the kernel closed it: nothing more will come
                with contextlib.suppress(KeyError, ValueError):
                    self.selector.unregister(fd)
                return
            session.idle_bytes += len(data)
            if session.idle_bytes > self.output_limit:
                self._idle_death(session, "output flood between cells")
            return
        try:
            capture.feed()
        except BlockingIOError:
            return
        if not capture.is_open:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(fd)
        if capture.is_over:
            self._end_cell(session, "output_limit_exceeded", kill=True)

    def _on_reply(self, session: Session) -> None:
        try:
            data = os.read(session.replies, 1 << 16)
        except BlockingIOError:
            return
        if not data:  # the kernel closed its replies: its exit says why
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(session.replies)
            return
        if session.seq is None:  # a reply nobody asked for: the cell's own writing on fd 4
            self._idle_death(session, "wrote on its reply channel between cells")
            return
        session.reply += data
        end = session.reply.find(b"\n")
        if end < 0:
            if len(session.reply) > _REPLY_LIMIT_BYTES:
                self._end_cell(session, "output_limit_exceeded", kill=True)
            return
        try:
            reply = json.loads(bytes(session.reply[:end]))
        except ValueError:
            reply = None
        if type(reply) is not dict:
            self._end_cell(session, "error", error="the session's reply was malformed", kill=True)
            return
        if reply.get("memory"):
            self._end_cell(session, "memory_exceeded", error="MemoryError", kill=True)
            return
        value, error = reply.get("value"), reply.get("error")
        self._end_cell(
            session,
            "ok" if error is None else "error",
            value=value if type(value) is str else None,
            error=error if type(error) is str else (None if error is None else "error"),
        )

    def _on_exit(self, session: Session) -> None:
        """The spawner spoke: the kernel's wait status, or the spawner is gone."""
        if session.seq is not None:  # a reply written just before the exit comes first
            self._on_reply(session)
            if self.sessions.get(session.sid) is not session:
                return
        message = session.space.zygote.receive(timeout_s=1)
        session.has_exited = True
        status = None if message is None else message.get("status")
        if type(status) is int:
            code, sig = decode_status(status)
            how = f"exit code {code}" if sig is None else _signal_name(sig)
        else:
            sig, how = None, "its spawner is gone"
        if session.seq is None:
            self._idle_death(session, f"the session's process ended ({how})")
            return
        oom = session.oom_before >= 0 and _oom_kills() > session.oom_before
        if sig == signal.SIGKILL and oom:
            self._end_cell(session, "memory_exceeded", error="killed for memory", kill=True)
        else:
            why = f"the session's process ended ({how})"
            self._end_cell(session, "error", error=why, kill=True)

    def _idle_death(self, session: Session, why: str) -> None:
        self._kill(session.sid, why)
        _send({"kind": "ended", "session": session.sid, "why": why})

    def _end_cell(
        self,
        session: Session,
        status: str,
        *,
        value: str | None = None,
        error: str | None = None,
        kill: bool = False,
    ) -> None:
        """Report the running cell (after draining what it wrote); `kill`: the session too."""
        seq = session.seq
        if seq is None:
            return
        for capture in (session.stdout, session.stderr):
            _drain(capture)
        stdout = session.stdout.text() if session.stdout else ""
        stderr = head_and_tail(session.stderr.text(), 2000, 6000) if session.stderr else ""
        if status == "timed_out":
            error = f"the cell ran past its {session.deadline - session.started:.3g} s"
        elif status == "output_limit_exceeded":
            error = f"the cell wrote more than {self.output_limit} bytes"
        elapsed_s = time.monotonic() - session.started
        session.seq, session.stdout, session.stderr = None, None, None
        session.reply.clear()
        if kill:
            self._kill(session.sid, f"{status}: {error}" if error else status)
        report = _cell_report(seq, session.sid, status, stdout, stderr, value, error, not kill)
        report["elapsed_s"] = round(elapsed_s, 6)
        _send(report)


def _signal_name(number: int) -> str:
    """`SIGXCPU (its CPU budget is spent)`: a death by signal, in words."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    why = {"SIGXCPU": " (its CPU budget is spent)", "SIGXFSZ": " (a file over its size limit)"}
    return f"{name}{why.get(name, '')}"


def _drain(capture: Capture | None) -> None:
    """What the cell wrote before its reply (already in the pipe)."""
    if capture is None or not capture.is_open:
        return
    with contextlib.suppress(BlockingIOError, OSError):
        while capture.is_open and not capture.is_over:
            capture.feed()


def _refuse(seq: int, sid: str, detail: str) -> None:
    _send({"kind": "opened", "seq": seq, "session": sid, "ok": False, "detail": detail[:500]})


def _cell_report(
    seq: int,
    sid: str,
    status: str,
    stdout: str = "",
    stderr: str = "",
    value: str | None = None,
    error: str | None = None,
    alive: bool = False,
) -> CellReport:
    return {
        "kind": "cell",
        "seq": seq,
        "session": sid,
        "status": status,
        "stdout": stdout,
        "stderr": stderr,
        "value": value,
        "error": error,
        "elapsed_s": 0.0,
        "alive": alive,
    }


def _write_files(root: str, files: dict[str, str]) -> None:
    """The session's starting files, under its tmpfs (paths checked again: relative, plain)."""
    for name, data in files.items():
        parts = name.split("/")
        if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise ValueError(f"not a plain relative path: {name[:100]!r}")
        path = os.path.join(root, name)
        if len(parts) > 1:
            os.makedirs(os.path.dirname(path), 0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            write_all(fd, base64.b64decode(data, validate=True))
        finally:
            os.close(fd)
