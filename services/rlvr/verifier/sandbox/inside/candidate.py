"""What a forked child of the zygote becomes for a Python run: `python-main` (a program reading
stdin: stdio tests, a Python checker or interactor) or `python-serve` (the candidate's module,
answering call requests with plain data over pipes)."""

from __future__ import annotations

import atexit
import builtins
import contextlib
import io
import json
import os
import sys
import traceback
import types
from typing import Any

from rlvr.verifier.sandbox.inside.fds import send_line
from rlvr.verifier.sandbox.wire.codec import CodecError, decode_value, encode_value
from rlvr.verifier.sandbox.wire.protocol import FAIL_EXIT_CODE

SOURCE_NAME = "solution"


_DATA_NAME_LIMIT = 1 << 20


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
_INTERPRETER_STDIO: tuple[Any, ...] = ()


def _fresh_stdio() -> None:
    """The run's own sys.stdin/stdout/stderr on its descriptors 0, 1, 2."""
    global _UNUSED_STDIO
    stdio, _UNUSED_STDIO = _UNUSED_STDIO or _new_stdio(), None
    sys.stdin, sys.stdout, sys.stderr = stdio
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = stdio  # type: ignore[misc]


def _load_module(path: str, name: str) -> types.ModuleType:
    """`path` run as module `name`. Its bytes go to `compile` as `python file.py` reads them
    (a coding cookie or BOM honoured; invalid UTF-8 is the program's SyntaxError), and without
    a file object: every object made in a fresh fork costs copied pages."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    source = b"".join(chunks)
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


def prepare_stdio() -> None:
    """In the zygote, once: the stdio objects each forked run takes over (see `_UNUSED_STDIO`);
    and a hold on the interpreter's own, which each run replaces: never freed in a fork, where
    freeing them would write every page they span."""
    global _UNUSED_STDIO, _INTERPRETER_STDIO
    _UNUSED_STDIO = _new_stdio()
    _INTERPRETER_STDIO = (sys.stdin, sys.stdout, sys.stderr)


def installed_package_dirs() -> list[str]:
    """The image's installed-package directories (numpy and sympy, which tool-integrated
    reasoning imports, where the image has them): what `site` would put on `sys.path`, without
    running `site` (the interpreter starts with -S: no `.pth` file is executed, no user
    directory is added). Only directories root owns and no one else may write: in a read-only
    root nothing a run leaves there can reach the next. Called in the zygote before it enters
    a user namespace, where root's files show the overflow uid."""
    import site  # under -S, importing it only defines its functions (`site.main` does not run)

    found = []
    for path in site.getsitepackages():
        try:
            status = os.stat(path)
        except OSError:
            continue
        if status.st_uid == 0 and not status.st_mode & 0o022 and path not in sys.path:
            found.append(path)
    return found
