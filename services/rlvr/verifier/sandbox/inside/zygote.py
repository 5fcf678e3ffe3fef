"""The candidate's side of a run, in the zygote and its children (stdlib only; in sandboxes).

The zygote is forked by PID 1 before any job arrives, so its memory never holds a test; it forks
one child per run, which makes its own session, takes its pipes and rlimits, reads the source
from its work dir and becomes the program: `python-main` (stdio tests), `python-serve` (answers
call requests with plain data) or `exec` (the compiler, a compiled binary).

Native runs (`exec`) are started by PID 1 through the image's launcher where it has one
(`launcher.py`); the zygote forks them otherwise, and always forks judges' binaries and
candidates beside an interactor.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import os
import signal
import socket
import sys
import traceback
import types
from collections.abc import Sequence
from typing import Any

from rlvr.verifier.sandbox.inside.procs import (
    CATCHABLE_SIGNALS,
    apply_rlimits,
    close_fds_but,
    install_exit_builtins,
    install_seccomp,
    open_own_oom_score_adj,
    place_fds,
    seccomp_program,
    send_line,
    signal_filter_program,
)
from rlvr.verifier.sandbox.wire.codec import CodecError, decode_value, encode_value
from rlvr.verifier.sandbox.wire.protocol import FAIL_EXIT_CODE

WORK_ROOT = "/tmp"
SOURCE_NAME = "solution"
_DATA_NAME_LIMIT = 1 << 20
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


def _new_stdio() -> tuple[io.TextIOWrapper, io.TextIOWrapper, io.TextIOWrapper]:
    stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)))
    stderr = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)), line_buffering=True
    )
    return stdin, stdout, stderr


# Made once in the zygote, never used there: each run's fork gets them untouched (building them
# in every fresh copy-on-write child costs ~0.3 ms, the codec lookup included).
_UNUSED_STDIO: tuple[io.TextIOWrapper, io.TextIOWrapper, io.TextIOWrapper] | None = None


def _fresh_stdio() -> None:
    """The run's own sys.stdin/stdout/stderr on its descriptors 0, 1, 2."""
    global _UNUSED_STDIO
    stdio, _UNUSED_STDIO = _UNUSED_STDIO or _new_stdio(), None
    sys.stdin, sys.stdout, sys.stderr = stdio
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = stdio  # type: ignore[misc]


def _load_module(path: str, name: str) -> types.ModuleType:
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    module = types.ModuleType(name)
    module.__file__ = path
    module.__builtins__ = builtins  # type: ignore[attr-defined]
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def candidate_traceback(exc: BaseException) -> str:
    """The traceback without the executor's own frames (they only confuse the reader)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename.startswith("<rlvr."):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))[-1500:]


def _flush_quietly() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def run_python_main(path: str, args: list[str], is_judge: bool = False) -> None:
    """Run a program as `__main__` reading stdin (stdio tests, a Python checker or interactor).

    A candidate's MemoryError exits 3; a judge's uncaught exception (MemoryError included) exits
    `FAIL_EXIT_CODE` (testlib's `_fail`): the judge failed, which the host reports as `error`.
    """
    _fresh_stdio()
    if is_judge:
        # An interactor's stdin is the candidate's output: bytes that are not UTF-8 read as
        # U+FFFD (a wrong answer to any judge) instead of raising in the judge's first
        # readline, which would be the judge's crash (`error`) at the candidate's will.
        sys.stdin = io.TextIOWrapper(
            io.BufferedReader(io.FileIO(0, "r", closefd=False)), errors="replace"
        )
    sys.argv = [path, *args]
    crash_code = FAIL_EXIT_CODE if is_judge else 1
    code = 0
    try:
        _load_module(path, "__main__")
        import atexit

        atexit._run_exitfuncs()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except MemoryError:
        code = crash_code if is_judge else 3
        with contextlib.suppress(BaseException):
            sys.stderr.write("MemoryError\n")
    except BaseException as exc:
        code = crash_code
        with contextlib.suppress(BaseException):
            sys.stderr.write(candidate_traceback(exc))
    _flush_quietly()
    os._exit(code & 0xFF)


def _describe_names(namespace: dict[str, Any]) -> dict[str, Any]:
    """What the harness may see of the candidate's module: callables, modules, plain data."""
    names: dict[str, Any] = {}
    for name, value in list(namespace.items()):
        if name.startswith("__") or hasattr(builtins, name):
            continue
        if isinstance(value, types.ModuleType):
            names[name] = {"module": value.__name__}
        elif callable(value):
            names[name] = {"callable": True}
        else:
            with contextlib.suppress(Exception):
                encoded = encode_value(value)
                if len(encoded) <= _DATA_NAME_LIMIT:
                    names[name] = {"data": encoded}
    return names


def _resolve(namespace: dict[str, Any], name: str) -> Any:
    """`add`, or `Solution.two_sum` (LeetCode style: a fresh `Solution()` per call)."""
    owner, _, method = name.partition(".")
    target = namespace.get(owner)
    if not method:
        return target
    return getattr(target(), method) if isinstance(target, type) else None


def _call_response(namespace: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    try:
        args, kwargs = decode_value(request["args"])
        function = _resolve(namespace, str(request["fn"]))
        if not callable(function):
            return {"raised": "NameError", "message": f"name {request['fn']!r} is not defined"}
        result = function(*args, **kwargs)
    except MemoryError:
        return {"memory": True}
    except RecursionError as exc:
        return {"raised": "RecursionError", "message": str(exc)[:300]}
    except BaseException as exc:
        try:
            message = str(exc)[:300]
            kind = type(exc).__name__
        except BaseException:
            message, kind = "", "Exception"
        return {"raised": kind, "message": message}
    try:
        reply: dict[str, Any] = {"value": encode_value(result)}
        if request.get("track_args"):
            reply["args"] = encode_value(list(args))
        return reply
    except CodecError as exc:
        return {"unplain": str(exc)[:200]}


def run_python_serve(path: str, describe: bool) -> None:
    """Load the candidate as a module, then answer call requests (fd 3) on fd 4 as plain data."""
    _fresh_stdio()
    sys.argv = [path]
    try:
        module = _load_module(path, SOURCE_NAME)
        names = _describe_names(module.__dict__) if describe else {}
        ready: dict[str, Any] = {"ready": names}
    except MemoryError:
        ready = {"load": "memory"}
    except BaseException as exc:
        ready = {"load": "error", "detail": candidate_traceback(exc)}
    _flush_quietly()
    send_line(4, ready)
    if "ready" not in ready:
        os._exit(1)
    requests = os.fdopen(3, "rb")
    for line in requests:
        reply = _call_response(module.__dict__, json.loads(line))
        _flush_quietly()
        send_line(4, reply)
    os._exit(0)


def child_main(request: dict[str, Any], fds: list[int]) -> None:
    """In the zygote's child: own session, fds, rlimits, cwd; then become the run.

    Each step here runs in a fresh copy-on-write image, where every page it touches costs a
    fault: what is the same for every run (signal dispositions, the environment) is set in the
    zygote instead."""
    try:
        os.setsid()
        place_fds(fds)  # the zygote holds nothing else (closed at its start)
        os.chdir(request["cwd"])
        os.umask(0o077)
        sys.path[:] = [p for p in sys.path if p and not p.startswith(WORK_ROOT)]
        if os.environ != request["env"]:  # the zygote set it before the fork (the usual case)
            os.environ.clear()
            os.environ.update(request["env"])
        apply_rlimits(request["rlimits"])
        if request.get("confine_signals"):
            # beside a judge (an interactor): no signal to any process but its own group
            install_seccomp(signal_filter_program(os.uname().machine, os.getpid()))
        mode = request["mode"]
        if mode == "exec" and request.get("exec_fd"):  # the binary is fd 3, a sealed memfd
            os.set_inheritable(3, False)  # the program must not keep a handle on its binary
            os.execve(3, request["argv"], request["env"])
        elif mode == "exec":
            os.execve(request["argv"][0], request["argv"], request["env"])
        elif mode == "exec-fd":  # a judge's binary, execute-only in a memfd: non-dumpable
            os.execve(int(request["fd"]), request["argv"], request["env"])
        elif mode == "python-main":
            args = [str(a) for a in request.get("args", [])]
            run_python_main(request["path"], args, bool(request.get("is_judge")))
        elif mode == "python-serve":
            run_python_serve(request["path"], bool(request.get("describe")))
    except BaseException:
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc(limit=-2).encode()[-2000:])
    # not started (exec failed...): for a judge that is its own failure, never a rejection
    os._exit(FAIL_EXIT_CODE if request.get("is_judge") else 127)


def zygote_main(sock: socket.socket) -> None:
    """Confine itself with seccomp, say ready; then fork one child per spawn request and
    report its pid, then its wait status."""
    # Nothing but stdin, stdout (/dev/null), stderr and the socket to PID 1: every child then
    # holds only the descriptors it is given (`place_fds` relies on it).
    close_fds_but({0, 1, 2, sock.fileno()})
    for name in _PREIMPORT:
        with contextlib.suppress(ImportError):
            __import__(name)
    install_exit_builtins()
    global _UNUSED_STDIO
    _UNUSED_STDIO = _new_stdio()
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
    global _OOM_FD
    _OOM_FD = open_own_oom_score_adj()
    # Every run is forked from here, so the filter binds them all (and what they exec): a
    # candidate of the same uid can then not change another process's rlimits, nice value,
    # affinity or scheduling, nor make IPC objects that outlive it. Fail closed: no filter,
    # no sandbox.
    try:
        install_seccomp(seccomp_program(os.uname().machine))
    except Exception as exc:
        sock.send(json.dumps({"error": f"seccomp: {type(exc).__name__}: {exc}"}).encode())
        os._exit(1)
    sock.send(json.dumps({"ready": True}).encode())
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 1 << 16, 16)
        except OSError:
            os._exit(0)
        if not message:
            os._exit(0)
        request = json.loads(message)
        if "group" in request:
            _spawn_group(sock, request["group"], request["counts"], fds)
            continue
        pid = _fork_child(sock, request, fds)
        # the child is running: every page this process writes now is copied (a fault), so
        # the reply is formatted without the json module's objects
        sock.send(b'{"pid": %d}' % pid)
        _, status = os.waitpid(pid, 0)
        sock.send(json.dumps({"status": status, "pid": pid}).encode())


# The zygote's own /proc/self/oom_score_adj, open for writing (see `open_own_oom_score_adj`).
_OOM_FD = -1


def _fork_child(
    sock: socket.socket, request: dict[str, Any], fds: list[int], others: Sequence[int] = ()
) -> int:
    """Fork one run on `fds`; `others` are descriptors the zygote holds for processes it has
    not forked yet (a group's), which this child must not keep.

    A candidate's run is forked with the OOM killer's highest score (`oom_score_adj` 1000, the
    zygote's for the instant of the fork, inherited): whatever memory a run holds, it dies
    before PID 1 or the zygote. It cannot lower it: it is non-dumpable (its /proc files are
    root's) and the filter refuses PR_SET_DUMPABLE. A judge keeps the zygote's score: an
    interactor is never chosen over the candidate it talks to."""
    if os.environ != request["env"]:  # the child then inherits it instead of writing it
        os.environ.clear()
        os.environ.update(request["env"])
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
        if _OOM_FD >= 0:
            os.close(_OOM_FD)
        for fd in others:
            os.close(fd)
        child_main(request, fds)
    for fd in fds:
        os.close(fd)
    return pid


def _spawn_group(
    sock: socket.socket, requests: list[dict[str, Any]], counts: list[int], fds: list[int]
) -> None:
    """Fork each request in order with its share of `fds`; report the pids, then each exit."""
    pids: list[int] = []
    for request, count in zip(requests, counts, strict=True):
        mine, fds = fds[:count], fds[count:]
        pids.append(_fork_child(sock, request, mine, fds))
    sock.send(json.dumps({"pids": pids}).encode())
    left = set(pids)
    while left:
        pid, status = os.waitpid(-1, 0)
        if pid in left:
            left.discard(pid)
            sock.send(json.dumps({"status": status, "pid": pid}).encode())
