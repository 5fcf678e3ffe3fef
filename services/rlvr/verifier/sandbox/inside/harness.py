"""The harness: assert-style tests in a process of their own (stdlib only; in sandboxes).

Forked from PID 1 per item, it executes the test code with the candidate's functions replaced
by proxies that call into the candidate's process over pipes. Arguments and return values cross
as plain data (`codec`), so assertions compare builtin values in a process the candidate cannot
touch; the verdicts go to PID 1 over a pipe only the harness holds.

The test runs as `__main__` (an `if __name__ == "__main__":` block runs, `unittest.main()` finds
its cases). An exception the candidate raised arrives as a `CandidateException`: a subclass of
the builtin type it named when that type is an ordinary error (`except ValueError` still works),
a plain `CandidateError` when the type has a meaning to the interpreter's protocols
(`StopIteration` would silently end `map()` or a `for` loop, `StopAsyncIteration` an `async for`,
`AssertionError` would decide the test), and a `CandidateInterrupt` (a `BaseException`, so
`except Exception:` in a test does not swallow it, as in plain Python) for `SystemExit`,
`KeyboardInterrupt` and `GeneratorExit`, which would end the test. Nothing the candidate sends
can end an iteration of the test or exit it.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import sys
import traceback
import types
from typing import Any

from rlvr.verifier.sandbox.inside.fds import move_fds, send_line, write_all
from rlvr.verifier.sandbox.inside.procs import (
    apply_rlimits,
    install_exit_builtins,
    set_non_dumpable,
)
from rlvr.verifier.sandbox.wire.codec import CodecError, decode_value, encode_value

_LINE_LIMIT = 16 * 1024 * 1024
# Builtin exceptions that steer the interpreter, not just report an error: never re-raised as
# themselves (or a subclass) in the test.
_PROTOCOL_EXCEPTIONS = {"StopIteration", "StopAsyncIteration", "AssertionError", "Exception"}


class CandidateGone(BaseException):
    """The candidate's process ended or broke the protocol (BaseException: tests can't catch it)."""


class CandidateMemory(BaseException):
    """The candidate ran out of memory during a call."""


class NotPlainData(BaseException):
    """The candidate returned something that is not plain data (e.g. an always-equal object)."""


class CandidateException(Exception):
    """Base of every exception the candidate raised, as the test sees it."""


class CandidateError(CandidateException):
    """The candidate raised a non-builtin exception, or one with a protocol meaning."""


class CandidateInterrupt(BaseException):
    """The candidate raised `SystemExit`, `KeyboardInterrupt` or `GeneratorExit`: like those, it
    is no `Exception`, so a test's `except Exception:` does not swallow it (the test fails, as it
    would in plain Python), and it is not the real type, so it cannot end the harness either."""


_INTERRUPTS = frozenset({"SystemExit", "KeyboardInterrupt", "GeneratorExit"})


def _delivered_types() -> dict[str, type[CandidateException]]:
    """`ValueError` -> a `ValueError` that is also a `CandidateException`, for each ordinary
    builtin error type."""
    kinds: dict[str, type[CandidateException]] = {}
    for name, obj in vars(builtins).items():
        if not (isinstance(obj, type) and issubclass(obj, Exception)):
            continue
        if name in _PROTOCOL_EXCEPTIONS or issubclass(obj, (StopIteration, StopAsyncIteration)):
            continue
        with contextlib.suppress(TypeError):
            kinds[name] = type(name, (obj, CandidateException), {"__module__": "candidate"})
    return kinds


_DELIVERED = _delivered_types()


def candidate_exception(kind: object, message: object) -> BaseException:
    """The exception to raise in the test for one the candidate raised (`kind` is its name)."""
    text = f"{kind}: {message}"[:1000]
    if str(kind) in _INTERRUPTS:
        return CandidateInterrupt(text)
    with contextlib.suppress(Exception):
        return _DELIVERED[str(kind)](text)  # e.g. UnicodeDecodeError needs 5 arguments
    return CandidateError(text)


class Channel:
    """Request/response lines to the candidate's process."""

    def __init__(self, request_fd: int, response_fd: int) -> None:
        self.request_fd = request_fd
        self.responses = os.fdopen(response_fd, "rb")

    def read(self) -> dict[str, Any]:
        line = self.responses.readline(_LINE_LIMIT)
        if not line.endswith(b"\n"):
            raise CandidateGone("the candidate's process exited")
        try:
            message = json.loads(line)
        except Exception as exc:  # junk or nesting too deep for the parser: the candidate's
            raise CandidateGone("the candidate's process broke the protocol") from exc
        if type(message) is not dict:
            raise CandidateGone("the candidate's process broke the protocol")
        return message

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        mutable = any(type(a) in (list, dict, set) for a in args)
        request = {"fn": name, "args": encode_value([list(args), kwargs]), "track_args": mutable}
        try:
            send_line(self.request_fd, request)
        except OSError as exc:
            raise CandidateGone("the candidate's process exited") from exc
        reply = self.read()
        try:
            if "value" in reply:
                if mutable and "args" in reply:
                    _copy_back(args, decode_value(reply["args"]))
                return decode_value(reply["value"])
        except CodecError as exc:
            raise NotPlainData(str(exc)) from exc
        if reply.get("memory"):
            raise CandidateMemory("MemoryError")
        if "unplain" in reply:
            raise NotPlainData(f"{name}() returned something that is not plain data")
        if "raised" in reply:
            raise candidate_exception(reply["raised"], reply.get("message", ""))
        raise CandidateGone("the candidate's process broke the protocol")


def _copy_back(args: tuple[Any, ...], after: Any) -> None:
    """Mirror in-place mutations of list/dict/set arguments made by the candidate."""
    if type(after) is not list or len(after) != len(args):
        return
    for before, new in zip(args, after, strict=True):
        if type(before) is list and type(new) is list:
            before[:] = new
        elif (type(before) is dict and type(new) is dict) or (
            type(before) is set and type(new) is set
        ):
            before.clear()
            before.update(new)


def _proxy(channel: Channel, name: str) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        return channel.call(name, args, kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _namespace_from(channel: Channel, names: dict[str, Any]) -> dict[str, Any]:
    """The test's globals: a fresh `__main__` module (registered, as a script's would be)."""
    module = types.ModuleType("__main__")
    sys.modules["__main__"] = module
    namespace: dict[str, Any] = module.__dict__
    namespace["__builtins__"] = builtins
    for name, spec in names.items():
        if type(name) is not str or not name.isidentifier() or name.startswith("__"):
            continue
        if hasattr(builtins, name) or type(spec) is not dict:
            continue  # a candidate must not shadow `abs`, `len`, `isinstance`... in the test
        if spec.get("callable"):
            namespace[name] = _proxy(channel, name)
        elif spec.get("module") == name and name in sys.stdlib_module_names:
            # only `import math` as `math`: a candidate must not rebind a name the test trusts
            with contextlib.suppress(ImportError):
                namespace[name] = __import__(spec["module"])
        elif "data" in spec:
            with contextlib.suppress(CodecError):
                namespace[name] = decode_value(spec["data"])
    return namespace


def _text(exc: BaseException) -> str:
    """str(exc), which may itself raise (a huge int in an assert message...)."""
    try:
        return str(exc)[:600]
    except Exception:
        return "(message not shown)"


def _assert_detail(exc: BaseException, code: str) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    lines = code.splitlines()
    text = _text(exc)
    for frame in reversed(frames):
        if frame.filename == "<test>" and frame.lineno and 0 < frame.lineno <= len(lines):
            source = lines[frame.lineno - 1].strip()
            message = f" ({text})" if text else ""
            return f"assertion failed at test line {frame.lineno}: {source[:300]}{message[:300]}"
    return f"assertion failed: {text}"[:600]


def _exit_verdict(exc: SystemExit) -> dict[str, Any]:
    """The test itself exited (`unittest.main()` does): status 0 passes, anything else fails.

    Only the test's own code can raise SystemExit here: the candidate's arrives as a
    CandidateInterrupt.
    """
    if exc.code is None or exc.code is False or (type(exc.code) is int and exc.code == 0):
        return {"status": "passed", "detail": ""}
    return {"status": "failed", "detail": f"the test exited with status {_text(exc)[:200]}"}


def harness_session(codes: list[str], channel: Channel, verdict_fd: int) -> None:
    """Run the tests one after the other against one candidate process, a verdict line each.

    Stops after a verdict that lost the candidate's process; PID 1 starts a new session for
    the remaining tests. Each test gets a fresh namespace.
    """
    try:
        ready = channel.read()
    except CandidateGone as exc:
        ready = {"load": "error", "detail": str(exc)}
    if ready.get("load") == "memory":
        verdict = {
            "status": "memory_exceeded",
            "detail": "MemoryError while loading the code",
            "load": True,
        }
        write_all(verdict_fd, json.dumps(verdict).encode() + b"\n")
        return
    if "ready" not in ready or type(ready["ready"]) is not dict:
        detail = str(ready.get("detail", "load failed"))
        verdict = {"status": "runtime_error", "detail": detail, "load": True}
        write_all(verdict_fd, json.dumps(verdict).encode() + b"\n")
        return
    for code in codes:
        verdict = harness_verdict(code, channel, ready["ready"])
        write_all(verdict_fd, json.dumps(verdict).encode() + b"\n")
        if verdict.get("lost"):
            return


def harness_verdict(code: str, channel: Channel, names: dict[str, Any]) -> dict[str, Any]:
    try:
        namespace = _namespace_from(channel, names)
        exec(compile(code, "<test>", "exec"), namespace)
    except AssertionError as exc:
        return {"status": "failed", "detail": _assert_detail(exc, code)}
    except SystemExit as exc:
        return _exit_verdict(exc)
    except CandidateMemory:
        return {"status": "memory_exceeded", "detail": "MemoryError in the candidate"}
    except NotPlainData as exc:
        return {"status": "failed", "detail": str(exc)}
    except CandidateGone as exc:
        return {"status": "runtime_error", "detail": str(exc), "lost": True}
    except BaseException as exc:
        return {"status": "runtime_error", "detail": f"{type(exc).__name__}: {_text(exc)}"}
    return {"status": "passed", "detail": ""}


def harness_main(codes: list[str], fds: list[int], rlimits: dict[str, int]) -> None:
    """Forked from PID 1: fds are [request_w, response_r, verdict_w]."""
    try:
        os.setsid()
        set_non_dumpable()
        null = os.open(os.devnull, os.O_RDWR)
        move_fds([null, null, null, *fds])  # 3=requests, 4=responses, 5=verdicts
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (lives until _exit)
        sys.argv = ["test"]
        sys.set_int_max_str_digits(0)  # as in the candidate's process: big answers print
        install_exit_builtins()
        apply_rlimits(rlimits)
        harness_session(codes, Channel(3, 4), 5)
    except BaseException as exc:
        verdict = {"status": "error", "detail": f"harness failed: {type(exc).__name__}: {exc}"}
        with contextlib.suppress(BaseException):
            write_all(5, json.dumps(verdict).encode() + b"\n")
    os._exit(0)
