"""The zygote: PID 1's warm process spawner (its loop, and PID 1's handle on it, `Zygote`).

The zygote is forked by PID 1 before any job arrives, so its memory never holds a test; it forks
one child per run, which makes its own session, takes its pipes and rlimits, and becomes the
program: `exec` (the compiler, a compiled binary) or, through `candidate.py`, `python-main`
(stdio tests) and `python-serve` (answers call requests with plain data).

Native runs (`exec`) are started by PID 1 through the image's launcher where it has one
(`launcher.py`); the zygote forks them otherwise, and always forks judges' binaries and
candidates beside an interactor.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

from rlvr.verifier.sandbox.inside.candidate import (
    installed_package_dirs,
    prepare_stdio,
    run_python_main,
    run_python_serve,
)
from rlvr.verifier.sandbox.inside.fds import close_fds_but, place_fds
from rlvr.verifier.sandbox.inside.namespaces import CapabilityDrop
from rlvr.verifier.sandbox.inside.procs import (
    CATCHABLE_SIGNALS,
    ContainerPids,
    apply_rlimits,
    install_exit_builtins,
    open_own_oom_score_adj,
)
from rlvr.verifier.sandbox.inside.seccomp import (
    PreparedFilter,
    install_seccomp,
    job_filter_program,
    seccomp_program,
    signal_filter_program,
)
from rlvr.verifier.sandbox.inside.session_kernel import run_session_kernel
from rlvr.verifier.sandbox.wire.protocol import FAIL_EXIT_CODE

if TYPE_CHECKING:
    from rlvr.verifier.sandbox.inside.jobspace import JobSpaces

WORK_ROOT = "/tmp"


# -- PID 1 -> zygote: what to spawn (one JSON message, the run's descriptors alongside)


class _SpawnBase(TypedDict):
    cwd: str
    rlimits: dict[str, int]
    env: dict[str, str]
    is_judge: NotRequired[bool]  # a checker or interactor: its failures are its own (exit 3)
    confine_signals: NotRequired[bool]  # beside an interactor: signals to its own group only


class ExecRequest(_SpawnBase):
    """A native program (a compiler, a compiled binary, the JVM, Node) by its argv."""

    mode: Literal["exec"]
    argv: list[str]
    exec_fd: NotRequired[bool]  # the binary is fd 3, a sealed memfd


class ExecFdRequest(_SpawnBase):
    """A judge's binary, execute-only in a memfd (`fd`)."""

    mode: Literal["exec-fd"]
    fd: int
    argv: list[str]


class PythonMainRequest(_SpawnBase):
    """A Python program reading stdin (stdio tests, a Python judge)."""

    mode: Literal["python-main"]
    path: str
    args: NotRequired[list[str]]


class PythonServeRequest(_SpawnBase):
    """The candidate's module, answering call requests (call and assert sessions)."""

    mode: Literal["python-serve"]
    path: str
    describe: NotRequired[bool]  # (assert sessions) describe its names to the harness


class PythonSessionRequest(_SpawnBase):
    """A session's kernel: cells on fd 3, replies on fd 4, one namespace for its life
    (`session_kernel.py`)."""

    mode: Literal["python-session"]


class LaunchRequest(_SpawnBase):
    """A native run through the image's launcher (`launcher.py`), started by the zygote
    inside the job's namespaces; its descriptors: stdin, stdout, stderr, the filter, the binary."""

    mode: Literal["launch"]
    path: str
    argv: list[str]


SpawnRequest = (
    ExecRequest
    | ExecFdRequest
    | PythonMainRequest
    | PythonServeRequest
    | PythonSessionRequest
    | LaunchRequest
)


class SessionSpawnerOptions(TypedDict):
    tmpfs_mb: int  # the session's own /tmp
    private_net: NotRequired[bool]  # a network namespace too


class SessionSpawnerRequest(TypedDict):
    """Clone a session's spawner (`session_space.py`) on the socket sent alongside."""

    session_space: SessionSpawnerOptions


class EnterOptions(TypedDict):
    tmpfs_mb: int  # the job's own /tmp


class EnterRequest(TypedDict):
    """Enter a fresh job space (`jobspace.py`); its init's pid and work dir come back."""

    enter: EnterOptions


class LeaveRequest(TypedDict):
    """Leave the job space (its processes are killed) for the zygote's home namespaces."""

    leave: bool


class GroupRequest(TypedDict):
    """Several runs at once (an interactor beside the candidate): `counts[i]` of the descriptors
    sent alongside are `group[i]`'s, in order."""

    group: list[SpawnRequest]
    counts: list[int]


# What PID 1 asks of a spawner: one run (by `mode`), a group of runs, to enter or leave a job's
# space, or a session's spawner.
ZygoteRequest = SpawnRequest | GroupRequest | SessionSpawnerRequest | EnterRequest | LeaveRequest
# What namespaces a zygote makes: none; a job space per `/code` job, which it enters itself
# (`jobspace.py`); a spawner per session (`session_space.py`).
Namespaces = Literal["none", "jobs", "sessions"]
# Modules candidates commonly import, imported once in the zygote so that no run pays for them.
# Not `dataclasses` (it brings `inspect`, `ast`, `dis`: 2 MB of heap) nor `hashlib` (OpenSSL,
# 0.5 MB): every run's fork copies the page tables of this heap and every exit frees them, and
# few programs import those two.
_PREIMPORT = [
    "atexit",
    "fcntl",
    "resource",
    "abc",
    "array",
    "bisect",
    "collections",
    "copy",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "heapq",
    "io",
    "itertools",
    "json",
    "math",
    "operator",
    "random",
    "re",
    "statistics",
    "string",
    "textwrap",
    "typing",
    "unicodedata",
]


def child_main(request: SpawnRequest, fds: list[int]) -> None:
    """In the zygote's child: own session, fds, rlimits, cwd; then become the run.

    Each step here runs in a fresh copy-on-write image, where every page it touches costs a
    fault: what is the same for every run (signal dispositions, the environment, `sys.path`,
    the capability drop and filter's structures) is set or made in the zygote instead."""
    try:
        if _RUN_CONFINEMENT is not None:  # the zygote's capabilities, and the job's rules
            capability_drop, run_filter = _RUN_CONFINEMENT
            capability_drop.apply()
            run_filter.install()
        os.setsid()
        place_fds(fds)  # the zygote holds nothing else (closed at its start)
        os.chdir(request["cwd"])
        os.umask(0o077)
        apply_rlimits(request["rlimits"])
        if request.get("confine_signals"):
            # beside a judge (an interactor): no signal to any process but its own group
            install_seccomp(signal_filter_program(os.uname().machine, os.getpid()))
        if request["mode"] == "exec" and request.get("exec_fd"):  # the binary: fd 3, a memfd
            os.set_inheritable(3, False)  # the program must not keep a handle on its binary
            os.execve(3, request["argv"], request["env"])
        elif request["mode"] == "exec":
            os.execve(request["argv"][0], request["argv"], request["env"])
        elif request["mode"] == "exec-fd":  # a judge's binary, execute-only: non-dumpable
            os.execve(int(request["fd"]), request["argv"], request["env"])
        elif request["mode"] == "python-main":
            args = [str(a) for a in request.get("args", [])]
            run_python_main(request["path"], args, bool(request.get("is_judge")))
        elif request["mode"] == "python-serve":
            run_python_serve(request["path"], bool(request.get("describe")))
        elif request["mode"] == "python-session":
            run_session_kernel()
    except BaseException:
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc(limit=-2).encode()[-2000:])
    # not started (exec failed...): for a judge that is its own failure, never a rejection
    os._exit(FAIL_EXIT_CODE if request.get("is_judge") else 127)


def zygote_main(
    sock: socket.socket, namespaces: Namespaces = "none", job_init: bool = True
) -> None:
    """Confine itself with seccomp, say ready; then fork one child per spawn request and
    report its pid, then its wait status (and, by `namespaces`, enter and leave job spaces or
    clone sessions' spawners)."""
    # Nothing but stdin, stdout (/dev/null), stderr and the socket to PID 1: every child then
    # holds only the descriptors it is given (`place_fds` relies on it).
    close_fds_but({0, 1, 2, sock.fileno()})
    for name in _PREIMPORT:
        with contextlib.suppress(ImportError):
            __import__(name)
    install_exit_builtins()
    prepare_stdio()
    # no path entry for the current or a work directory, for every run (set once, here); the
    # image's installed packages (not imported here: a run that imports none pays nothing)
    sys.path[:] = [p for p in sys.path if p and not p.startswith(WORK_ROOT)]
    sys.path += installed_package_dirs()
    # as judges do: no cap on int <-> decimal str (big answers); a slow conversion only spends
    # the candidate's own time limit
    sys.set_int_max_str_digits(0)
    import gc

    gc.freeze()  # keep the warm heap out of the children's collections (fewer copied pages)
    # Every run starts with every signal at its default: what PID 1 ignores, and Python's own
    # SIGINT, SIGPIPE and SIGXFSZ settings (set here once, inherited by every fork).
    for sig in CATCHABLE_SIGNALS:
        if sig == signal.SIGINT or signal.getsignal(sig) is signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)
    try:
        # (jobs: this process is the zygote's parent, gone)
        _prepare_namespaces(namespaces, job_init)
    except Exception as exc:
        sock.send(json.dumps({"error": f"namespaces: {type(exc).__name__}: {exc}"}).encode())
        os._exit(1)
    global _OOM_FD
    _OOM_FD = open_own_oom_score_adj()
    _PRIVATE_FDS.append(_OOM_FD)
    # Every run is forked from here, so the filter binds them all (and what they exec): a
    # candidate of the same uid can then not change another process's rlimits, nice value,
    # affinity or scheduling, nor make IPC objects that outlive it. Fail closed: no filter,
    # no sandbox.
    try:
        install_seccomp(seccomp_program(os.uname().machine, namespaces != "none"))
    except Exception as exc:
        sock.send(json.dumps({"error": f"seccomp: {type(exc).__name__}: {exc}"}).encode())
        os._exit(1)
    own = _PIDS.own if _PIDS is not None else os.getpid()
    sock.send(json.dumps({"ready": True, "pid": own}).encode())
    serve(sock)


def serve(sock: socket.socket) -> None:
    """The spawn loop (the zygote's, and each session spawner's): one request at a time."""
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 1 << 16, 16)
        except OSError:
            os._exit(0)
        if not message:
            os._exit(0)
        request: ZygoteRequest = json.loads(message)  # PID 1's: trusted
        if "enter" in request or "leave" in request:
            _enter_or_leave(sock, cast(EnterRequest | LeaveRequest, request))
            continue
        if "session_space" in request:
            options = cast(SessionSpawnerRequest, request)["session_space"]
            _clone_session_spawner(sock, options, fds)
            continue
        if _JOB_SPACES is not None and _JOB_SPACES.init is None:
            # a zygote that enters jobs' spaces runs nothing at home (its home mount namespace
            # holds the container's /tmp): PID 1 reads the silence as a lost zygote
            for fd in fds:
                os.close(fd)
            sock.send(b'{"error": "no job space entered"}')
            continue
        if "group" in request:
            group = cast(GroupRequest, request)
            _spawn_group(sock, group["group"], group["counts"], fds)
            continue
        pid = _fork_child(sock, request, fds)
        # the child is running: every page this process writes now is copied (a fault), so
        # the reply is formatted without the json module's objects
        outer = _outer(pid)
        sock.send(b'{"pid": %d}' % outer)
        sock.send(b'{"status": %d, "pid": %d}' % (_wait(pid), outer))


# What the zygote last set `os.environ` to (nothing else here changes it): compared with each
# request's as a plain dict, not through `os.environ`, which decodes every entry to compare.
_ENVIRONMENT: dict[str, str] | None = None
# The zygote's own /proc/self/oom_score_adj, open for writing (see `open_own_oom_score_adj`).
_OOM_FD = -1
# Descriptors this process holds for itself, which no child keeps: the OOM score file; in a
# zygote that enters jobs' spaces, its home namespaces and the container's /proc; in a session's
# spawner, the container's /proc.
_PRIVATE_FDS: list[int] = []
# In a zygote that enters jobs' spaces (the first process of its home PID namespace) and in a
# session's spawner (its namespace's init): its children's pids as PID 1 names them.
_PIDS: ContainerPids | None = None
# In a zygote that enters jobs' spaces: its home and the job it is in; and what each of its
# children does before anything else, prepared here: drop the capabilities, add the job filter.
_JOB_SPACES: JobSpaces | None = None
_RUN_CONFINEMENT: tuple[CapabilityDrop, PreparedFilter] | None = None


def _enter_or_leave(sock: socket.socket, request: EnterRequest | LeaveRequest) -> None:
    if _JOB_SPACES is None:
        sock.send(b'{"entered": false, "left": false, "error": "no job spaces here"}')
    elif "enter" in request:
        tmpfs_mb = int(cast(EnterRequest, request)["enter"]["tmpfs_mb"])
        _JOB_SPACES.enter(sock, tmpfs_mb, [sock.fileno(), *_PRIVATE_FDS], _outer)
    else:
        try:
            _JOB_SPACES.leave()
            sock.send(b'{"left": true}')
        except OSError:  # not home again: no other job may be run from here
            sock.send(b'{"left": false}')


def _prepare_namespaces(namespaces: Namespaces, job_init: bool) -> None:
    """What the zygote makes once for `namespaces`: its home (jobs), the job filter; `job_init`:
    jobs' inits from the image's binary where it is there."""
    global _JOB_SPACES, _RUN_CONFINEMENT
    if namespaces == "sessions":
        from rlvr.verifier.sandbox.inside.session_space import prepare_session_spawners

        prepare_session_spawners()
    elif namespaces == "jobs":
        from rlvr.verifier.sandbox.inside.jobspace import JobSpaces, trusted_job_init
        from rlvr.verifier.sandbox.inside.namespaces import HomeNamespaces, enter_home_namespaces

        init_path = trusted_job_init() if job_init else None
        # The zygote is the first process of its home PID namespace: this one forks it and
        # exits (PID 1 then adopts it); its pids are the home namespace's, reported to PID 1
        # as the container's (`_outer`).
        enter_home_namespaces(os.getuid(), os.getgid())
        if os.fork() != 0:
            os._exit(0)
        home = HomeNamespaces()
        global _PIDS
        _PIDS = ContainerPids()
        _PRIVATE_FDS.extend([*home.fds.values(), _PIDS.proc_fd])
        _JOB_SPACES = JobSpaces(home, init_path)
        _RUN_CONFINEMENT = (
            CapabilityDrop(),
            PreparedFilter(job_filter_program(os.uname().machine)),
        )


def _outer(pid: int) -> int:
    """`pid` as PID 1 names it (the container's namespace)."""
    return pid if _PIDS is None else _PIDS.of(pid)


def _wait(pid: int) -> int:
    """The wait status of `pid`, this process's child; a session's spawner, its namespace's
    init, also reaps whatever the session orphaned meanwhile (they are its children now)."""
    while True:
        done, status = os.waitpid(-1, 0)
        if done == pid:
            return status


def _clone_session_spawner(
    sock: socket.socket, options: SessionSpawnerOptions, fds: list[int]
) -> None:
    """Clone a session's spawner on the socket in `fds`, into the session's fresh namespaces
    and as PID 1's child (PID 1 waits for it and kills it at the session's end;
    `session_space.py`). It reports itself on its socket; this process only says it was
    made."""
    from rlvr.verifier.sandbox.inside.namespaces import CLONE_NEWNET, clone_into_job_namespaces
    from rlvr.verifier.sandbox.inside.session_space import session_spawner_main

    ids = os.getuid(), os.getgid()  # in the new user namespace, unmapped until it maps them
    try:
        pid = clone_into_job_namespaces(CLONE_NEWNET if options.get("private_net") else 0)
    except OSError:
        pid = -1
    if pid == 0:
        try:
            sock.close()
            for fd in _PRIVATE_FDS:
                os.close(fd)
            session_spawner_main(socket.socket(fileno=fds[0]), int(options["tmpfs_mb"]), ids)
        finally:
            os._exit(1)
    for fd in fds:
        os.close(fd)
    sock.send(b'{"forked": true}' if pid > 0 else b'{"forked": false}')


def _fork_child(
    sock: socket.socket, request: SpawnRequest, fds: list[int], others: Sequence[int] = ()
) -> int:
    """Fork one run on `fds`; `others` are descriptors the zygote holds for processes it has
    not forked yet (a group's), which this child must not keep.

    A candidate's run is forked with the OOM killer's highest score (`oom_score_adj` 1000, the
    zygote's for the instant of the fork, inherited): whatever memory a run holds, it dies
    before PID 1 or the zygote. It cannot lower it: it is non-dumpable (its /proc files are
    root's) and the filter refuses PR_SET_DUMPABLE. A judge keeps the zygote's score: an
    interactor is never chosen over the candidate it talks to."""
    global _ENVIRONMENT
    if request["env"] != _ENVIRONMENT:  # the child inherits it (`child_main` never sets it)
        os.environ.clear()
        os.environ.update(request["env"])
        _ENVIRONMENT = dict(request["env"])
    if request["mode"] == "launch":  # no fork of this interpreter: the launcher sets it all
        from rlvr.verifier.sandbox.inside.launcher import spawn_launcher

        try:
            return spawn_launcher(request, fds)
        finally:
            for fd in fds:
                os.close(fd)
    is_candidate = not request.get("is_judge") and _OOM_FD >= 0
    if is_candidate:
        os.pwrite(_OOM_FD, b"1000", 0)
    try:
        pid = os.fork()
    except OSError:
        if is_candidate:
            os.pwrite(_OOM_FD, b"0", 0)
        raise
    if pid != 0 and is_candidate:  # the zygote's own score back (the child keeps 1000)
        os.pwrite(_OOM_FD, b"0", 0)
    if pid == 0:
        sock.close()
        for fd in (*_PRIVATE_FDS, *others):
            os.close(fd)
        child_main(request, fds)
    for fd in fds:
        os.close(fd)
    return pid


def _spawn_group(
    sock: socket.socket, requests: list[SpawnRequest], counts: list[int], fds: list[int]
) -> None:
    """Fork each request in order with its share of `fds`; report the pids, then each exit."""
    pids: list[int] = []
    for request, count in zip(requests, counts, strict=True):
        mine, fds = fds[:count], fds[count:]
        pids.append(_fork_child(sock, request, mine, fds))
    outer = {pid: _outer(pid) for pid in pids}
    sock.send(json.dumps({"pids": [outer[pid] for pid in pids]}).encode())
    left = set(pids)
    while left:
        pid, status = os.waitpid(-1, 0)
        if pid in left:
            left.discard(pid)
            sock.send(json.dumps({"status": status, "pid": outer[pid]}).encode())


class ZygoteLost(Exception):
    """The zygote stopped answering (a candidate killed or stopped it): retire the container."""


class Zygote:
    """PID 1's handle on a spawner: the zygote (`start`), or a session's spawner
    (`session_space.py`), which speaks the same protocol."""

    def __init__(self, sock: socket.socket, pid: int) -> None:
        self.pid = pid
        self.sock = sock
        self.is_alive = True

    @classmethod
    def start(cls, namespaces: Namespaces = "none", job_init: bool = True) -> Zygote:
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            parent.close()
            try:
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)
                os.dup2(null, 1)
                zygote_main(child, namespaces, job_init)
            finally:
                os._exit(1)
        child.close()
        zygote = cls(parent, pid)
        ready = zygote.receive(timeout_s=30)
        if ready is None or not ready.get("ready"):
            detail = (ready or {}).get("error", "no answer")
            raise RuntimeError(f"the process spawner did not start: {detail}")
        if int(ready.get("pid", pid)) != pid:  # forked from the one started (`jobs`), which exited
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            zygote.pid = int(ready["pid"])
        return zygote

    def fork_session_spawner(
        self, job_sock: socket.socket, tmpfs_mb: int, private_net: bool = False
    ) -> None:
        """Ask for a session's spawner on `job_sock` (the other end is the caller's);
        `private_net`: a network namespace of its own too (a session's)."""
        request: SessionSpawnerRequest = {
            "session_space": {"tmpfs_mb": tmpfs_mb, "private_net": private_net}
        }
        self._send(request, [job_sock.fileno()])
        job_sock.close()
        reply = self.receive(timeout_s=5)
        if reply is None or not reply.get("forked"):
            self.is_alive = False
            raise ZygoteLost("the sandbox's process spawner did not clone a session spawner")

    def _send(self, message: ZygoteRequest, fds: list[int]) -> None:
        """A request to the zygote; a zygote that is gone (a candidate killed it: the socket's
        other end is closed, BrokenPipeError, ECONNRESET...) is `ZygoteLost`, whose meaning
        the job knows (the candidate loses its own remaining tests), never a fault."""
        try:
            socket.send_fds(self.sock, [json.dumps(message).encode()], fds)
        except OSError as exc:
            self.is_alive = False
            raise ZygoteLost("the sandbox's process spawner was killed or stopped") from exc

    def send_request(self, message: ZygoteRequest, fds: list[int]) -> None:
        self._send(message, fds)

    def receive_with_fds(self, timeout_s: float) -> tuple[dict[str, Any] | None, list[int]]:
        """A reply and the descriptors sent with it (a job space's work dir)."""
        self.sock.settimeout(timeout_s)
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, 1 << 16, 4)
        except (TimeoutError, OSError):
            return None, []
        finally:
            self.sock.settimeout(None)
        if not data:
            self.is_alive = False
            return None, fds
        message: dict[str, Any] = json.loads(data)
        return message, fds

    def spawn(self, request: SpawnRequest, fds: list[int]) -> int:
        self._send(request, fds)
        reply = self.receive(timeout_s=5)
        if reply is None or "pid" not in reply:
            self.is_alive = False
            raise ZygoteLost("the sandbox's process spawner was killed or stopped")
        return int(reply["pid"])

    def spawn_group(self, requests: list[SpawnRequest], fds: list[list[int]]) -> list[int]:
        """Several processes at once (an interactor beside the candidate), in order; the
        zygote then reports each exit as it happens."""
        group: GroupRequest = {"group": requests, "counts": [len(f) for f in fds]}
        self._send(group, [fd for f in fds for fd in f])
        reply = self.receive(timeout_s=5)
        if reply is None or "pids" not in reply:
            self.is_alive = False
            raise ZygoteLost("the sandbox's process spawner was killed or stopped")
        return [int(pid) for pid in reply["pids"]]

    def receive(self, timeout_s: float) -> dict[str, Any] | None:
        """A reply that carries no descriptor (any sent are closed)."""
        message, fds = self.receive_with_fds(timeout_s)
        for fd in fds:
            os.close(fd)
        return message
