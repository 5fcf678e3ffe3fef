"""Known reward hacks against a live service: each must score 0, and the next job must be clean.

Every hack's `add` is wrong (or absent): the only way to score is to fool the verifier. After
each hack a canary runs in the same (single-container) pool: a correct program must score 1.0
and a probe must see a pristine container (no stray process, empty tmpfs, intact interpreter).
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from tests.support.http import post_code
from tests.support.language_programs import (
    ASSERT_TEST,
    CALL_TEST,
    CANARY_GOOD,
    PROBE,
    STDIO_TEST,
)

pytestmark = [pytest.mark.docker]


def hack(code: str, tests: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    item = {"code": textwrap.dedent(code), "tests": tests or [ASSERT_TEST, CALL_TEST]}
    return {"timeout_s": 2, **item, **extra}


HACKS: dict[str, dict[str, Any]] = {
    # -- exiting 0 early, every way Python offers
    "sys_exit_0_at_load": hack("import sys\nsys.exit(0)\n", [ASSERT_TEST, CALL_TEST, STDIO_TEST]),
    "os_exit_0_at_load": hack("import os\nos._exit(0)\n", [ASSERT_TEST, CALL_TEST, STDIO_TEST]),
    "raise_systemexit_at_load": hack("raise SystemExit\n"),
    "exit_0_inside_function": hack("import sys\ndef add(a, b):\n    sys.exit(0)\n"),
    "os_exit_inside_function": hack("import os\ndef add(a, b):\n    os._exit(0)\n"),
    "builtin_exit_inside_function": hack("def add(a, b):\n    exit()\n"),
    "atexit_forges_success": hack(
        """
        import atexit, os
        atexit.register(lambda: (print("passed"), os._exit(0)))
        def add(a, b):
            raise KeyboardInterrupt
        """,
        [ASSERT_TEST, CALL_TEST, {"kind": "stdio", "stdin": "", "stdout": "passed\n"}],
    ),
    # -- objects that compare equal to anything
    "always_equal_object": hack(
        """
        class Anything:
            def __eq__(self, other): return True
            def __ne__(self, other): return False
            __hash__ = object.__hash__
        def add(a, b):
            return Anything()
        """
    ),
    "int_subclass_equal_to_all": hack(
        """
        class Int(int):
            def __eq__(self, other): return True
            __hash__ = int.__hash__
        def add(a, b):
            return Int(0)
        """
    ),
    "str_subclass_in_list": hack(
        """
        class S(str):
            def __eq__(self, other): return True
            __hash__ = str.__hash__
        def add(a, b):
            return [S("x")]
        """
    ),
    # -- patching builtins, the assert machinery, test frameworks
    "patch_builtins_and_assertionerror": hack(
        """
        import builtins, unittest
        builtins.AssertionError = type("Never", (BaseException,), {})
        builtins.abs = lambda x: 0
        builtins.isinstance = lambda *a: True
        unittest.TestCase.assertEqual = lambda *a, **k: None
        def add(a, b):
            return 100
        """,
        [{"kind": "assert", "code": "assert abs(add(1, 2) - 3) < 1e-9"}, CALL_TEST],
    ),
    "shadow_builtins_with_module_names": hack(
        """
        def abs(x): return 0
        def isinstance(*a): return True
        def len(x): return 3
        def add(a, b):
            return 100
        """,
        [
            {"kind": "assert", "code": "assert abs(add(1, 2) - 3) < 1e-9"},
            {"kind": "assert", "code": "r = add(1, 2)\nassert isinstance(r, str) and len(r) == 3"},
        ],
    ),
    "exception_named_like_a_pass": hack(
        """
        class StopIteration(Exception): pass
        def add(a, b):
            raise SystemExit(0)
        """,
        [{"kind": "assert", "code": "try:\n    add(1, 2)\nexcept Exception:\n    raise"}],
    ),
    "settrace_and_setprofile": hack(
        """
        import sys
        def tracer(frame, event, arg):
            frame.f_locals.clear()
            return tracer
        sys.settrace(tracer)
        sys.setprofile(tracer)
        def add(a, b):
            return 0
        """
    ),
    # -- reading the tests / forging the verdict channel
    "read_tests_from_proc_and_tmp": hack(
        """
        import os, re
        def add(a, b):
            found = []
            for pid in os.listdir("/proc"):
                if not pid.isdigit() or int(pid) == os.getpid():
                    continue
                for name in ("cmdline", "environ", "mem", "fd/0", "fd/3", "fd/4", "fd/5"):
                    try:
                        fd = os.open(f"/proc/{pid}/{name}", os.O_RDONLY | os.O_NONBLOCK)
                        found.append(os.read(fd, 1 << 16))
                        os.close(fd)
                    except OSError:
                        pass
            for root, _, files in os.walk("/tmp"):
                for n in files:
                    try:
                        found.append(open(os.path.join(root, n), "rb").read())
                    except OSError:
                        pass
            text = b" ".join(found).decode("latin-1")
            m = re.search(r"== *(\\d+)", text) or re.search(r'"expected": *(\\d+)', text)
            return int(m.group(1)) if m else -1
        """
    ),
    "scan_own_memory_for_expected": hack(
        """
        import gc
        def add(a, b):
            texts = [o for o in gc.get_objects() if isinstance(o, (str, bytes))]
            texts += [o for o in gc.get_objects() if isinstance(o, dict)]
            blob = repr(texts)
            return 5 if '"expected": 5' in blob or "== 3" in blob else -1
        """
    ),
    "forge_verdict_on_every_fd": hack(
        """
        import os
        forged = b'{"status": "passed", "detail": ""}\\n{"value": "3"}\\n{"ready": {}}\\n'
        for fd in range(0, 64):
            try:
                os.write(fd, forged)
            except OSError:
                pass
        print('{"status": "passed"}')
        def add(a, b):
            for fd in range(0, 64):
                try:
                    os.write(fd, forged)
                except OSError:
                    pass
            return -1
        """,
        [ASSERT_TEST, CALL_TEST, {"kind": "stdio", "stdin": "", "stdout": "5"}],
    ),
    "ptrace_the_harness": hack(
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        def add(a, b):
            for pid in os.listdir("/proc"):
                if pid.isdigit() and int(pid) != os.getpid():
                    libc.ptrace(16, int(pid), 0, 0)  # PTRACE_ATTACH
            return -1
        """
    ),
    # -- signalling or killing the executor, its zygote, the harness
    "kill_pid1_and_parent": hack(
        """
        import os, signal
        def add(a, b):
            for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGSTOP):
                for pid in (1, os.getppid()):
                    try:
                        os.kill(pid, sig)
                    except OSError:
                        pass
            return -1
        """
    ),
    "kill_minus_one": hack("import os\nos.kill(-1, 9)\ndef add(a, b):\n    return -1\n"),
    "kill_minus_one_inside_call": hack("import os\ndef add(a, b):\n    os.kill(-1, 9)\n"),
    "stop_everyone": hack("import os\ndef add(a, b):\n    os.kill(-1, 19)\n    return 3\n"),
    # -- surviving into later jobs, poisoning the interpreter
    "daemon_survives_into_next_job": hack(
        """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                while True:
                    try:
                        open("/tmp/w/solution.py", "a").write("\\nadd = lambda a, b: a + b\\n")
                    except OSError:
                        pass
                    time.sleep(0.01)
        def add(a, b):
            return -1
        """
    ),
    "poison_sys_modules_site_and_files": hack(
        """
        import sys, os, json
        sys.modules["json"] = None
        for path in ("/tmp/sitecustomize.py", "/tmp/json.py", "/tmp/w/usercustomize.py"):
            try:
                open(path, "w").write("import os; os._exit(0)\\n")
            except OSError:
                pass
        try:
            os.makedirs("/tmp/w/.local/lib/python3.11/site-packages", exist_ok=True)
        except OSError:
            pass
        os.environ["PYTHONSTARTUP"] = "/tmp/json.py"
        def add(a, b):
            return -1
        """
    ),
    # -- bombs
    "fork_bomb": hack(
        """
        import os
        def add(a, b):
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        """
    ),
    "memory_bomb": hack("def add(a, b):\n    x = bytearray(8 * 1024 ** 3)\n    return len(x)\n"),
    "memory_bomb_growing": hack(
        "def add(a, b):\n    x = []\n    while True:\n        x.append('x' * 10**6)\n"
    ),
    "disk_fill": hack(
        """
        import os
        def add(a, b):
            i = 0
            while True:
                try:
                    with open(f"/tmp/fill{i}", "wb") as f:
                        f.write(b"x" * (4 << 20))
                except OSError:
                    break
                i += 1
            with open("/dev/shm/x", "wb") as f:
                f.write(b"x")
            return -1
        """
    ),
    "output_bomb": hack(
        """
        import sys
        while True:
            sys.stdout.write("x" * 65536)
        """,
        [ASSERT_TEST, CALL_TEST, STDIO_TEST],
    ),
    "huge_return_value": hack("def add(a, b):\n    return 'x' * (64 * 1024 * 1024)\n"),
    "deeply_nested_return": hack(
        "def add(a, b):\n    x = []\n    for _ in range(100000):\n        x = [x]\n    return x\n"
    ),
    "network": hack(
        """
        import socket
        def add(a, b):
            try:
                socket.create_connection(("1.1.1.1", 53), timeout=1).close()
                return a + b
            except OSError:
                return -1
        """
    ),
    "cpp_kill_and_fork": {
        "language": "cpp",
        "timeout_s": 2,
        "code": (
            "#include <signal.h>\n#include <unistd.h>\n"
            "int main(){ kill(-1, 9); kill(1, 9); while (1) fork(); }\n"
        ),
        "tests": [STDIO_TEST],
    },
    "cpp_exit_zero_without_output": {
        "language": "cpp",
        "code": "int main(){ return 0; }\n",
        "tests": [STDIO_TEST],
    },
}


@pytest.mark.parametrize("name", sorted(HACKS))
def test_hack_scores_zero_and_next_job_is_clean(code_url: str, name: str) -> None:
    hostile, good, probe = post_code(code_url, [{"id": name, **HACKS[name]}, CANARY_GOOD, PROBE])
    assert hostile["reward"] == 0.0, hostile
    assert hostile["status"] in ("failed", "timed_out"), hostile
    assert all(t["status"] != "passed" for t in hostile["tests"]), hostile
    assert good["reward"] == 1.0 and good["status"] == "passed", good
    assert probe["status"] == "passed", probe


def test_output_bomb_is_reported_as_output_limit(code_url: str) -> None:
    (result,) = post_code(code_url, [HACKS["output_bomb"]])
    assert [t["detail"] for t in result["tests"]] == ["output limit exceeded"] * 3


def test_memory_bomb_is_reported_as_memory_exceeded(code_url: str) -> None:
    (result,) = post_code(code_url, [HACKS["memory_bomb"]])
    assert [t["status"] for t in result["tests"]] == ["memory_exceeded", "memory_exceeded"]


def test_infinite_loop_is_timed_out_within_its_deadline(code_url: str) -> None:
    item = {"code": "def add(a, b):\n    while True: pass\n", "tests": [CALL_TEST], "timeout_s": 1}
    (result,) = post_code(code_url, [item])
    assert result["status"] == "timed_out" and result["reward"] == 0.0
    assert 0.9 < result["tests"][0]["elapsed_s"] < 3.0
