"""What a session's process becomes (a fork of the zygote, in its session's namespaces): a loop
that runs cells in one persistent namespace, as a notebook kernel does.

Descriptors: 0 an empty stdin (end of file at once: `input()` cannot read the cell stream),
1 and 2 the cell's stdout and stderr (PID 1 captures them per cell), 3 the cell requests (one
JSON line each: `{"code": ...}`), 4 the replies (one JSON line per cell: `value`, `error`,
`memory`). A cell may write on 4 itself: it can only confuse its own session's results, which
the host decodes with checks.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import linecache
import os
import signal
import sys
import traceback
from typing import Any

from rlvr.verifier.sandbox.inside.candidate import _fresh_stdio

# The longest `repr` of a final expression sent back, in characters (the rest is cut).
VALUE_LIMIT_CHARS = 64 * 1024
_COMMANDS_FD, _REPLIES_FD = 3, 4


def split_cell(code: str, filename: str) -> tuple[Any, Any | None]:
    """The cell compiled as (its statements, its final expression or None): a notebook shows
    the value of a last statement that is an expression. SyntaxError propagates."""
    import _ast

    tree: Any = compile(code, filename, "exec", _ast.PyCF_ONLY_AST)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, _ast.Expr):
        tree.body.pop()
        expression: Any = _ast.Expression(body=last.value)
        return compile(tree, filename, "exec"), compile(expression, filename, "eval")
    return compile(tree, filename, "exec"), None


def describe_error(exc: BaseException) -> str:
    try:
        message = str(exc)
    except BaseException:
        message = ""
    name = type(exc).__name__
    return f"{name}: {message}"[:2000] if message else name


def _cell_traceback(exc: BaseException) -> str:
    """The traceback from the cell's own frames on (the kernel's are noise to the reader)."""
    tb = exc.__traceback__
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<cell"):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))[-8000:]


def run_cell(namespace: dict[str, Any], code: str, number: int) -> dict[str, Any]:
    """Run one cell in `namespace`; the reply for PID 1 (`value`, `error`, `memory`)."""
    filename = f"<cell-{number}>"
    # the cell's lines in tracebacks, as IPython shows them
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    try:
        statements, expression = split_cell(code, filename)
        exec(statements, namespace)
        value = None if expression is None else eval(expression, namespace)
        shown = None if value is None else repr(value)
        if shown is not None and len(shown) > VALUE_LIMIT_CHARS:
            shown = shown[:VALUE_LIMIT_CHARS] + "...[truncated]"
        if value is not None:
            namespace["_"] = value
        return {"value": shown, "error": None}
    except MemoryError:
        return {"value": None, "error": "MemoryError", "memory": True}
    except BaseException as exc:  # SystemExit and KeyboardInterrupt too: the session goes on
        with contextlib.suppress(BaseException):
            sys.stderr.write(_cell_traceback(exc))
        return {"value": None, "error": describe_error(exc)}


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def _soften_cpu_limit() -> None:
    """The CPU budget's soft limit a second under its hard one: the kernel then ends the
    session with SIGXCPU, which says why (at an equal pair it sends SIGKILL, which does not)."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY and hard > 1:
        resource.setrlimit(resource.RLIMIT_CPU, (hard - 1, hard))


def run_session_kernel() -> None:
    """Serve cells until the request stream ends (PID 1 closed the session)."""
    _fresh_stdio()
    sys.argv = [""]
    _soften_cpu_limit()
    # as an interpreter of its own would have them: a write past the file size limit or to a
    # closed pipe is the cell's OSError, not the session's death (the zygote resets both)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    requests = os.fdopen(_COMMANDS_FD, "rb")
    kernel = os.getpid()
    for number, line in enumerate(requests, start=1):
        try:
            code = json.loads(line)["code"]
            reply = run_cell(namespace, str(code), number)
        except MemoryError:
            reply = {"value": None, "error": "MemoryError", "memory": True}
        _flush()
        if os.getpid() != kernel:  # a child the cell forked, at the cell's end: it ends here,
            os._exit(0)  # as a forked script's child would (it must not answer or read cells)
        try:
            data = (json.dumps(reply) + "\n").encode()
        except MemoryError:
            data = b'{"value": null, "error": "MemoryError", "memory": true}\n'
        view = memoryview(data)
        while view:
            view = view[os.write(_REPLIES_FD, view) :]
    os._exit(0)
