"""Round two of hostile candidates against a live service (real Docker engine, one container).

Families: changing attributes of processes a candidate does not own (rlimits, nice, affinity,
scheduling, I/O priority of PID 1, the zygote, the harness), state that outlives a job (SysV
IPC, POSIX message queues, files anywhere writable), leftovers that used to turn a wrong answer
into `error` (deep trees, unparsable replies), exceptions that end the test's iteration, and
compile-time busy-work. After each attack the next jobs run in the same pool (one container, or
its replacement when the attack got it retired) and must be unaffected.
"""

from __future__ import annotations

import textwrap
from typing import Any

import httpx
import pytest

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import COMPILE_FLOOR_S, compile_timeout_s
from rlvr.verifier.sandbox.wire.protocol import CHANNEL_DIR
from tests.support.http import post_code
from tests.support.server import running_service

pytestmark = [pytest.mark.docker]


def item(code: str, tests: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"code": textwrap.dedent(code), "tests": tests, **extra}


def call(fn: str, expected: Any, args: list[Any] | None = None) -> dict[str, Any]:
    return {"kind": "call", "fn": fn, "args": args or [], "expected": expected}


def assert_test(code: str) -> dict[str, Any]:
    return {"kind": "assert", "code": textwrap.dedent(code)}


# -- what a healthy container looks like from a candidate's seat

PROBE_CODE = """
import os, resource
def limits(pid):
    with open(f"/proc/{pid}/limits") as handle:
        return handle.read()
def attributes():
    # in its job's namespaces a run sees its init as pid 1 and no parent (the spawner is
    # outside them: getppid() is 0); in a shared container, PID 1 and the zygote
    zygote = os.getppid() or 1
    return {
        "processes": {int(p) for p in os.listdir("/proc") if p.isdigit()}
        == {1, zygote, os.getpid()},
        "tmp": sorted(os.listdir("/tmp")),
        "work": sorted(os.listdir(".")),
        "mqueue": sorted(os.listdir("/dev/mqueue")),
        "sysv": [open(f"/proc/sysvipc/{k}").read().count("\\n") - 1 for k in ("shm", "msg", "sem")],
        "limits_1": limits(1),
        "limits_zygote": limits(zygote),
        "nice": [os.getpriority(os.PRIO_PROCESS, p) for p in (1, zygote, 0)],
        "policy": [os.sched_getscheduler(p) for p in (1, zygote, 0)],
        # where each may run: alike, and how many CPUs (containers are pinned each to a CPU
        # of its own, so which CPU it is depends on the container that ran the job)
        "affinity": [os.sched_getaffinity(p) == os.sched_getaffinity(0) for p in (1, zygote)]
        + [len(os.sched_getaffinity(0))],
        "nproc": resource.getrlimit(resource.RLIMIT_NPROC)[0],
    }
"""
CANARY_PY = item(
    "def double(x):\n    return 2 * x\n",
    [
        call("double", 4, [2]),
        assert_test("assert double(3) == 6"),
        assert_test("assert all(map(lambda a: double(a) == a * 2, range(5)))"),
    ],
)
CANARY_CPP = {
    "language": "cpp",
    "code": "#include <iostream>\n#include <vector>\n"
    "int main(){ long long a, b; std::cin >> a >> b;"
    " std::vector<long long> v(1 << 20, 1); std::cout << a + b + v[5] - 1 << '\\n'; }\n",
    "tests": [{"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"}],
}


def assert_next_jobs_unaffected(url: str, baseline: dict[str, Any]) -> None:
    """A correct Python and C++ item score 1.0, and the container looks fresh."""
    good_py, good_cpp = post_code(url, [CANARY_PY, CANARY_CPP])
    assert good_py["reward"] == 1.0, good_py
    assert good_cpp["reward"] == 1.0, good_cpp
    assert pristine(url) == baseline


PRISTINE_CODE = (
    PROBE_CODE
    + """
import hashlib, json
def digest():
    return hashlib.sha256(json.dumps(attributes(), sort_keys=True).encode()).hexdigest()
def view():
    a = attributes()
    keys = ("processes", "tmp", "work", "mqueue", "sysv", "nice", "policy", "nproc")
    return {k: a[k] for k in keys}
"""
)


def pristine(url: str) -> dict[str, Any]:
    """What the next candidate sees: the plain fields, and a digest of limits and affinity."""
    expected_view = {
        "processes": True,
        "tmp": ["w"],
        "work": ["solution.py"],
        "mqueue": [],
        "sysv": [0, 0, 0],
        "nice": [0, 0, 0],
        "policy": [0, 0, 0],
        "nproc": CodeSettings().max_processes,
    }
    view, digest = post_code(
        url,
        [
            item(PRISTINE_CODE, [call("view", expected_view)]),
            item(PRISTINE_CODE, [call("digest", "?")]),
        ],
    )
    assert view["reward"] == 1.0, view
    detail = digest["tests"][0]["detail"]
    return {"digest": detail.rsplit("got ", 1)[-1]}


@pytest.fixture(scope="module")
def fresh(code_url: str) -> dict[str, Any]:
    return pristine(code_url)


# -- 4. attributes of processes the candidate does not own


ATTEMPTS_PY = """
import ctypes, os, resource
libc = ctypes.CDLL(None, use_errno=True)

class SchedAttr(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_uint32), ("policy", ctypes.c_uint32), ("flags", ctypes.c_uint64),
        ("nice", ctypes.c_int32), ("priority", ctypes.c_uint32), ("runtime", ctypes.c_uint64),
        ("deadline", ctypes.c_uint64), ("period", ctypes.c_uint64),
    ]

def ok(fn, *args):
    try:
        fn(*args)
        return True
    except OSError:
        return False

def attempts():
    \"\"\"What succeeded of everything tried against every other process (PID 1, the zygote,
    the harness) and against the uid as a whole.\"\"\"
    done = []
    me = os.getpid()
    for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me):
        who = "pid1" if pid == 1 else ("zygote" if pid == os.getppid() else "other")
        one_cpu = {min(os.sched_getaffinity(0))}
        tries = {
            "prlimit_nproc": ok(resource.prlimit, pid, resource.RLIMIT_NPROC, (40, 40)),
            "prlimit_nofile": ok(resource.prlimit, pid, resource.RLIMIT_NOFILE, (6, 6)),
            "prlimit_as": ok(resource.prlimit, pid, resource.RLIMIT_AS, (1 << 24, 1 << 24)),
            "prlimit_cpu": ok(resource.prlimit, pid, resource.RLIMIT_CPU, (1, 1)),
            "nice": ok(os.setpriority, os.PRIO_PROCESS, pid, 19),
            "nice_pgrp": ok(os.setpriority, os.PRIO_PGRP, os.getpgid(pid), 19),
            "affinity": ok(os.sched_setaffinity, pid, one_cpu),
            "sched_idle": ok(os.sched_setscheduler, pid, os.SCHED_IDLE, os.sched_param(0)),
            "sched_batch": ok(os.sched_setscheduler, pid, os.SCHED_BATCH, os.sched_param(0)),
            "sched_param": ok(os.sched_setparam, pid, os.sched_param(0)),
            "sched_setattr": libc.syscall(314, pid, ctypes.byref(SchedAttr(48, 5, 0, 19)), 0) == 0,
            "ioprio_idle": libc.syscall(251, 1, pid, 3 << 13) == 0,
            "process_vm_writev": libc.syscall(311, pid, 0, 0, 0, 0, 0) == 0,
        }
        done += [f"{who}:{key}" for key, succeeded in tries.items() if succeeded]
    uid_wide = {
        "nice_user_0": ok(os.setpriority, os.PRIO_USER, 0, 19),
        "nice_user_uid": ok(os.setpriority, os.PRIO_USER, os.getuid(), 19),
        "shmget": libc.shmget(0x5EED, 1 << 20, 0o1600) >= 0,
        "msgget": libc.msgget(0x5EED, 0o1600) >= 0,
        "semget": libc.semget(0x5EED, 1, 0o1600) >= 0,
        "mq_open": libc.mq_open(b"/q", 0o102, 0o600, None) >= 0,
        "add_key": libc.syscall(248, b"user", b"k", b"v", 1, -3) >= 0,
    }
    return done + [key for key, succeeded in uid_wide.items() if succeeded]
"""
# The same from a compiled program, with the 32-bit (`int 0x80`) and x32 entry points too.
ATTEMPTS_CPP = r"""
#include <cstdio>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sched.h>
#include <unistd.h>
static long int80(long nr, long a, long b, long c) {
    long ret;
    asm volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
    return ret;
}
int main() {
    // getppid() is 0 in a job's namespaces (its spawner is outside them): pid 1 twice then
    pid_t targets[2] = {getppid() ? getppid() : 1, 1};
    int done = 0;
    for (pid_t pid : targets) {
        struct rlimit low = {40, 40};
        if (prlimit(pid, RLIMIT_NPROC, &low, nullptr) == 0) { puts("prlimit"); done++; }
        if (setpriority(PRIO_PROCESS, pid, 19) == 0) { puts("setpriority"); done++; }
        cpu_set_t set; CPU_ZERO(&set); CPU_SET(0, &set);
        if (sched_setaffinity(pid, sizeof set, &set) == 0) { puts("affinity"); done++; }
        if (int80(97, PRIO_PROCESS, pid, 19) == 0) { puts("i386 setpriority"); done++; }
        long x32 = 0x40000000L + SYS_setpriority;
        if (syscall(x32, PRIO_PROCESS, pid, 19) == 0) { puts("x32"); done++; }
    }
    if (setpriority(PRIO_USER, 0, 19) == 0) { puts("setpriority user"); done++; }
    printf("%d\n", done);
}
"""


def test_attributes_of_other_processes_cannot_be_changed(
    code_url: str, fresh: dict[str, Any]
) -> None:
    tests = [call("attempts", []), assert_test("assert attempts() == [], attempts()")]
    python, cpp = post_code(
        code_url,
        [
            item(ATTEMPTS_PY, tests, timeout_s=5),
            {
                "language": "cpp",
                "code": ATTEMPTS_CPP,
                "tests": [{"kind": "stdio", "stdin": "", "stdout": "0\n"}],
            },
        ],
    )
    assert python["reward"] == 1.0, python  # every attempt refused, seen from inside
    assert cpp["reward"] == 1.0, cpp
    assert_next_jobs_unaffected(code_url, fresh)


@pytest.mark.parametrize(
    "attack",
    [
        "resource.prlimit(os.getppid(), resource.RLIMIT_NPROC, (40, 40))",
        "resource.prlimit(1, resource.RLIMIT_NOFILE, (6, 6))",
        "os.setpriority(os.PRIO_PROCESS, os.getppid(), 19)",
        "os.setpriority(os.PRIO_USER, os.getuid(), 19)",
        "os.sched_setaffinity(os.getppid(), {0})",
        "os.sched_setscheduler(os.getppid(), os.SCHED_IDLE, os.sched_param(0))",
    ],
)
def test_issue_attacks_leave_the_next_jobs_unaffected(
    code_url: str, fresh: dict[str, Any], attack: str
) -> None:
    code = f"import os, resource\ndef add(a, b):\n    try:\n        {attack}\n    except OSError:\n"
    code += "        pass\n    return -1\n"
    tests = [call("add", 5, [2, 3]), call("add", 5, [2, 3]), assert_test("assert add(1, 2) == 3")]
    (hostile,) = post_code(code_url, [item(code, tests)])
    assert hostile["status"] == "failed" and hostile["reward"] == 0.0, hostile
    assert_next_jobs_unaffected(code_url, fresh)
    # nine of twelve later C++ items failed to compile in the issue's report
    results = post_code(code_url, [CANARY_CPP] * 4)
    assert [r["reward"] for r in results] == [1.0] * 4, results


# -- 5. state that outlives a job

LEAVE_STATE = """
import ctypes, os, socket, time
libc = ctypes.CDLL(None, use_errno=True)
def leave():
    for action in (
        lambda: open("/tmp/state-42", "w").write("42"),
        lambda: os.makedirs("/tmp/.hidden/deeper"),
        lambda: open("/tmp/.hidden/deeper/state", "w").write("42"),
        lambda: open("/tmp/w/state", "w").write("42"),
        lambda: os.mkfifo("/tmp/fifo-42"),
        lambda: socket.socket(socket.AF_UNIX).bind("/tmp/sock-42"),
        lambda: os.close(os.open("/dev/mqueue/state-42", os.O_CREAT | os.O_RDWR, 0o600)),
        lambda: open("/dev/shm/state-42", "w").write("42"),
        lambda: libc.shmget(42, 256 << 20, 0o1666),
        lambda: libc.msgget(42, 0o1666),
        lambda: libc.semget(42, 1, 0o1666),
        lambda: libc.mq_open(b"/state-42", 0o102, 0o600, None),
    ):
        try:
            action()
        except OSError:
            pass
    if os.fork() == 0:  # a daemon holding an abstract socket with the state
        os.setsid()
        server = socket.socket(socket.AF_UNIX)
        server.bind(b"\\0state-42")
        server.listen()
        while True:
            time.sleep(1)
    return -1
"""
FIND_STATE = """
import ctypes, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def find():
    found = []
    for root in ("/tmp", "/dev/mqueue", "/dev/shm"):
        for path, dirs, files in os.walk(root):
            found += [os.path.join(path, n) for n in dirs + files if n not in ("w", "solution.py")]
    for kind in ("shm", "msg", "sem"):
        rows = open(f"/proc/sysvipc/{kind}").read().splitlines()[1:]
        found += [f"sysv {kind}"] * len(rows)
    if libc.shmget(42, 0, 0) >= 0:
        found.append("shm key 42")
    try:
        socket.socket(socket.AF_UNIX).connect(b"\\0state-42")
        found.append("abstract socket")
    except OSError:
        pass
    return found
"""


def test_nothing_a_job_leaves_reaches_the_next_job(code_url: str, fresh: dict[str, Any]) -> None:
    hostile, finder = post_code(
        code_url,
        [item(LEAVE_STATE, [call("leave", 0)]), item(FIND_STATE, [call("find", [])])],
    )
    assert hostile["status"] == "failed", hostile
    assert finder["reward"] == 1.0, finder
    assert_next_jobs_unaffected(code_url, fresh)


LEARNER = """
import os
PLACES = ("/tmp", "/dev/mqueue", "/dev/shm")
def _has(name):
    return any(os.path.exists(f"{place}/{name}") for place in PLACES)
def _mark(name):
    for place in PLACES:
        try:
            os.close(os.open(f"{place}/{name}", os.O_CREAT | os.O_RDWR, 0o600))
        except OSError:
            pass
def _unmark(name):
    for place in PLACES:
        try:
            os.unlink(f"{place}/{name}")
        except OSError:
            pass
_guesses = []
def is_prime(n):
    # No logic. The harness calls again only after a passing assert, so a guess followed by
    # another call was right; a guess left pending was wrong: a later job answers the opposite.
    if _guesses:
        _unmark(f"pending{_guesses.pop()}")
    if _has(f"pending{n}"):
        return False
    _mark(f"pending{n}")
    _guesses.append(n)
    return True
"""


def learning_rounds(url: str, code: str, rounds: int = 6) -> list[float]:
    """The learner's rewards over consecutive jobs, one request each (identical items of one
    request would share the first one's verdict, and the learner would never get its turns)."""
    test = assert_test("for n in (4, 6, 8, 9):\n    assert is_prime(n) == (n in (2, 3, 5, 7))")
    return [post_code(url, [item(code, [test])])[0]["reward"] for _ in range(rounds)]


def test_a_candidate_cannot_learn_answers_across_jobs(code_url: str) -> None:
    assert learning_rounds(code_url, LEARNER) == [0.0] * 6


def test_a_candidate_cannot_learn_answers_through_the_job_channels_directory(
    code_url: str,
) -> None:
    """The one host directory a container has (`host/channel.py`): given back to root and
    removed before the first job, so nothing can be made in it (the learner never remembers)."""
    through_channel = LEARNER.replace(
        'PLACES = ("/tmp", "/dev/mqueue", "/dev/shm")', f"PLACES = ({CHANNEL_DIR!r},)"
    )
    assert through_channel != LEARNER
    assert learning_rounds(code_url, through_channel) == [0.0] * 6


def test_a_candidate_cannot_learn_answers_through_the_import_path(code_url: str) -> None:
    """Every directory a run imports from (the standard library's, the image's numpy and sympy:
    `candidate.installed_package_dirs`) is root's, in the read-only root: a module or mark left
    there would reach every later job's imports, so none can be made."""
    through_path = LEARNER.replace(
        'import os\nPLACES = ("/tmp", "/dev/mqueue", "/dev/shm")',
        "import os, sys\nPLACES = tuple(p for p in sys.path if p)",
    )
    assert through_path != LEARNER
    assert learning_rounds(code_url, through_path) == [0.0] * 6


WRITABLE_SCAN = """
import os, stat
def writable():
    me = {str(os.getpid()), "self", "thread-self"}
    found = []
    for root, dirs, files in os.walk("/"):
        parts = root.split("/")
        if root == "/proc":
            dirs[:] = [d for d in dirs if d not in me]
        if root in ("/tmp", "/proc/pressure"):
            dirs[:] = []  # /tmp is wiped after every run; PSI triggers live only with their fd
            continue
        if len(parts) > 3 and parts[1] == "proc" and parts[2].isdigit():
            dirs[:] = [d for d in dirs if d in ("attr",)]
        for name in dirs + files:
            path = os.path.join(root, name)
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode) or stat.S_ISCHR(mode):
                continue  # character devices (null, zero, tty, ...) keep nothing
            if os.access(path, os.W_OK) and (not path.startswith("/proc/") or writes(path)):
                found.append(path)
    return sorted(found)

def writes(path):
    # /proc/PID files of other processes answer W_OK to access() (mode 0666), yet the kernel
    # refuses the write itself: try it, writing back what is there
    try:
        with open(path, "rb") as handle:
            data = handle.read(4096) or b"0"
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        try:
            return os.write(fd, data) > 0
        finally:
            os.close(fd)
    except OSError:
        return False
"""


def test_the_only_writable_places_are_the_wiped_ones(code_url: str) -> None:
    """Every place a candidate can write must be on the wipe list (a new one needs a wipe)."""
    tests = [call("writable", ["/dev/mqueue", "/tmp"])]
    (result,) = post_code(code_url, [item(WRITABLE_SCAN, tests, timeout_s=20)])
    assert result["reward"] == 1.0, result


# -- 6. leftovers and replies that used to become `error`

LEFTOVERS = {
    "deep_tree_1500": """
        import os
        def add(a, b):
            os.chdir("/tmp")
            for _ in range(1500):
                os.mkdir("d")
                os.chdir("d")
            return -1
        """,
    "deep_tree_past_path_max": """
        import os
        def add(a, b):
            os.chdir("/tmp")
            for i in range(3000):
                os.mkdir("x" * 200)
                os.chdir("x" * 200)
            os.mkfifo("fifo")
            return -1
        """,
    "unreadable_dirs_fifos_sockets_links": """
        import os, socket
        def add(a, b):
            os.makedirs("/tmp/a/b/c")
            for path in ("/tmp/a/b/c/f", "/tmp/a/f"):
                open(path, "w").write("x")
            os.mkfifo("/tmp/a/b/fifo")
            socket.socket(socket.AF_UNIX).bind("/tmp/a/b/sock")
            os.symlink("/tmp/a", "/tmp/a/b/c/loop")
            os.symlink("/etc/passwd", "/tmp/link")
            os.symlink("/tmp", "/tmp/a/up")
            for path in ("/tmp/a/b/c", "/tmp/a/b", "/tmp/a"):
                os.chmod(path, 0)
            os.chmod("/tmp/w", 0o500)
            return -1
        """,
    "many_files": """
        import os
        def add(a, b):
            os.mkdir("/tmp/many")
            for i in range(20000):
                os.close(os.open(f"/tmp/many/{i}", os.O_CREAT | os.O_WRONLY, 0))
            return -1
        """,
    "names_like_the_wipe": """
        import os
        def add(a, b):
            for i in range(50):
                os.makedirs(f"/tmp/.wipe{i}/.wipe{i + 1}/.wipe0")
                open(f"/tmp/.wipe{i}_", "w").write("x")
            return -1
        """,
    "reply_nested_too_deep_for_json": """
        import os
        def add(a, b):
            os.write(4, b"[" * 200000 + b"\\n")
            return -1
        """,
    "reply_junk_bytes": """
        import os
        def add(a, b):
            os.write(4, b"\\xff\\xfe{\\"value\\": \\n")
            return -1
        """,
    "huge_int_in_assert_message": """
        def add(a, b):
            return 10 ** 5000
        """,
}


@pytest.mark.parametrize("name", sorted(LEFTOVERS))
def test_leftovers_are_the_candidates_verdict_not_an_error(
    code_url: str, fresh: dict[str, Any], name: str
) -> None:
    tests = [
        assert_test("r = add(1, 2)\nassert r == 3, r"),
        {"kind": "stdio", "stdin": "", "stdout": "5\n"},
    ]
    if not name.startswith("huge_int"):  # the host's side of huge values is another item's
        tests.insert(0, call("add", 5, [2, 3]))
    code = textwrap.dedent(LEFTOVERS[name]) + "\nif __name__ == '__main__':\n    add(1, 2)\n"
    (hostile,) = post_code(code_url, [item(code, tests, timeout_s=10)])
    assert hostile["status"] == "failed" and hostile["reward"] == 0.0, hostile
    assert all(t["status"] != "passed" for t in hostile["tests"]), hostile
    assert_next_jobs_unaffected(code_url, fresh)


# -- 8. exceptions that would end the test's iteration, and `__main__`

ITERATION_TESTS = [
    "assert all(map(lambda a: f(a) == a * 2, [1, 2, 3]))",
    "for got, want in zip(map(f, [1, 2, 3]), [2, 4, 6]):\n    assert got == want",
    "xs = iter([1, 2, 3])\nassert list(iter(lambda: f(next(xs)), 6)) == [2, 4]",
    "assert next(map(f, [1]), 2) == 2",
    "assert 0 not in map(f, [1, 2, 3])",
    "assert min(map(f, [1, 2, 3]), default=2) == 2",
    "import itertools\nassert list(itertools.starmap(f, [(1,), (2,)])) in ([2, 4], [])",
    """
    class Cases:
        def __init__(self):
            self.left = [1, 2, 3]
        def __iter__(self):
            return self
        def __next__(self):
            if not self.left:
                raise StopIteration
            a = self.left.pop()
            assert f(a) == a * 2
            return a
    assert len(list(Cases())) >= 0
    """,
    """
    import asyncio
    class Cases:
        def __init__(self):
            self.left = [1, 2, 3]
        def __aiter__(self):
            return self
        async def __anext__(self):
            if not self.left:
                raise StopAsyncIteration
            a = self.left.pop()
            assert f(a) == a * 2
            return a
    async def main():
        return [a async for a in Cases()]
    assert asyncio.run(main()) is not None
    """,
    "import unittest\nclass T(unittest.TestCase):\n    def test(self):\n"
    "        self.assertEqual(f(1), 2)\nif __name__ == '__main__':\n    unittest.main()",
    "def check(candidate):\n    assert candidate(1) == 2\nif __name__ == '__main__':\n    check(f)",
]
RAISERS = [
    "StopIteration",
    "StopAsyncIteration",
    "GeneratorExit",
    "KeyboardInterrupt",
    "SystemExit(0)",
    "AssertionError",
    "type('StopIteration', (StopIteration,), {})",
    "type('ValueError', (StopIteration,), {})",
]


@pytest.mark.parametrize("raiser", RAISERS)
def test_candidate_exceptions_cannot_end_an_iteration_or_the_test(
    code_url: str, raiser: str
) -> None:
    code = f"def f(a):\n    raise {raiser}\n"
    tests = [assert_test(test) for test in ITERATION_TESTS]
    (result,) = post_code(code_url, [item(code, tests)])
    assert result["reward"] == 0.0, result
    verdicts = zip(ITERATION_TESTS, result["tests"], strict=True)
    passed = [test for test, verdict in verdicts if verdict["status"] == "passed"]
    assert passed == [], result


def test_correct_candidates_pass_the_same_tests_and_errors_stay_catchable(code_url: str) -> None:
    tests = [assert_test(test) for test in ITERATION_TESTS]
    tests.append(
        assert_test("try:\n    g(-1)\nexcept ValueError as e:\n    assert 'negative' in str(e)")
    )
    code = "def f(a):\n    return 2 * a\ndef g(a):\n    raise ValueError('negative')\n"
    (result,) = post_code(code_url, [item(code, tests)])
    assert result["reward"] == 1.0, result


def test_the_test_runs_as_main(code_url: str) -> None:
    guarded = "if __name__ == '__main__':\n    assert f(1) == 2\nelse:\n    assert False, __name__"
    wrong, right = post_code(
        code_url,
        [
            item("def f(a):\n    return 0\n", [assert_test(guarded)]),
            item("def f(a):\n    return 2 * a\n", [assert_test(guarded)]),
        ],
    )
    assert wrong["reward"] == 0.0 and right["reward"] == 1.0, (wrong, right)


def test_unittest_main_failures_fail_and_passes_pass(code_url: str) -> None:
    suite = (
        "import unittest\nclass T(unittest.TestCase):\n    def test(self):\n"
        "        self.assertEqual(f(3), 6)\nunittest.main()\n"
    )
    wrong, right = post_code(
        code_url,
        [
            item("def f(a):\n    return 0\n", [assert_test(suite)]),
            item("def f(a):\n    return 2 * a\n", [assert_test(suite)]),
        ],
    )
    assert wrong["status"] == "failed" and wrong["reward"] == 0.0, wrong
    assert right["reward"] == 1.0, right


# -- 10. compile time bounded by the item's budget

# Sixteen evaluations, each stopped by g++'s own constexpr operation limit after ~9 s here:
# minutes of compiling in all, however fast the machine.
CONSTEXPR_BUSY = (
    """
constexpr long long spin(int k) {
    long long s = 0;
    for (int i = 0; i < 200000; ++i)
        for (int j = 0; j < 200000; ++j) s += (i ^ j) + k;
    return s;
}
"""
    + "".join(f"constexpr long long v{k} = spin({k});\n" for k in range(16))
    + """
int main() { return v0 == v15; }
"""
)


def test_compile_time_is_bounded_by_the_items_budget(code_url: str) -> None:
    busy = {
        "language": "cpp",
        "code": CONSTEXPR_BUSY,
        "timeout_s": 1,
        "tests": [{"kind": "stdio", "stdin": "", "stdout": "0\n"}],
    }
    result, after = post_code(code_url, [busy, CANARY_CPP])
    assert after["reward"] == 1.0, after
    assert result["tests"][0]["status"] == "compile_error", result
    assert "timed out" in result["tests"][0]["detail"], result
    # held for the floor, not for the server's 30 s compile deadline
    assert result["elapsed_s"] < CodeSettings().compile_timeout_s - 5, result


def test_compile_deadline_follows_the_item() -> None:
    settings = CodeSettings(compile_timeout_s=30, max_timeout_s=30)

    def deadline(timeout_s: float, tests: int) -> float:
        stdio = {"kind": "stdio", "stdin": "", "stdout": ""}
        cpp = {"language": "cpp", "code": "x", "timeout_s": timeout_s, "tests": [stdio] * tests}
        return compile_timeout_s(CodeItem.model_validate(cpp), settings)

    assert deadline(1, 1) == COMPILE_FLOOR_S
    assert deadline(4, 5) == 20
    assert deadline(30, 10) == 30


# -- the checks themselves must not retire containers that served honest jobs


def test_honest_jobs_keep_their_container(docker_engine: None) -> None:
    """A service of its own: the shared one's container may reach `max_jobs_per_sandbox`."""
    env = {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_LEAN__IS_ENABLED": "false"}
    with running_service(env) as url:
        for _ in range(3):
            good_py, good_cpp = post_code(url, [CANARY_PY, CANARY_CPP])
            assert good_py["reward"] == 1.0 and good_cpp["reward"] == 1.0
        pool = httpx.get(f"{url}/health").json()["domains"]["code"]["stats"]
    # one container started, none retired (jobs cannot tell containers apart from inside:
    # each job has its own init as pid 1)
    assert (pool["started_total"], pool["retired_total"]) == (1, 0), pool


@pytest.mark.parametrize(
    "program",
    [
        "import sys\nsys.stdout.write('\\x01' * ((1 << 20) - 8))\n",  # 6 bytes each in JSON
        "import sys\nsys.stdout.buffer.write(b'\\xff' * ((1 << 20) - 8))\n",  # U+FFFD each
        "def add(a, b):\n    return '\\x01' * ((1 << 20) - 64)\n",
    ],
)
def test_outputs_that_would_overflow_the_answer_frame_are_the_candidates(
    code_url: str, program: str
) -> None:
    """Each output is under the per-run limit; all of them, escaped, are past what one answer
    from the container may carry: the candidate fails, the item is not an `error`."""
    if "def add" in program:
        tests = [call("add", 3, [1, 2]) for _ in range(60)]
    else:
        tests = [{"kind": "stdio", "stdin": "", "stdout": "5\n"} for _ in range(60)]
    (result,) = post_code(code_url, [item(program, tests, timeout_s=5)])
    assert result["status"] == "failed" and result["reward"] == 0.0, result
    good = post_code(code_url, [CANARY_PY])[0]
    assert good["reward"] == 1.0, good


@pytest.mark.parametrize("raiser", ["GeneratorExit", "KeyboardInterrupt", "SystemExit(0)"])
def test_interrupts_from_the_candidate_are_not_swallowed_by_except_exception(
    code_url: str, raiser: str
) -> None:
    """In plain Python these are no `Exception`: a test that tolerates errors with `except
    Exception:` still fails when the candidate raises one (and passes for a ValueError)."""
    tolerant = assert_test("try:\n    f(1)\nexcept Exception:\n    pass")
    interrupted, errored = post_code(
        code_url,
        [
            item(f"def f(a):\n    raise {raiser}\n", [tolerant]),
            item("def f(a):\n    raise ValueError('no')\n", [tolerant]),
        ],
    )
    assert interrupted["reward"] == 0.0, interrupted
    assert errored["reward"] == 1.0, errored


# -- round three: kernel state a job could leave for the next (docs/limits.md, the threat model)

# Loopback TCP in TIME_WAIT outlives its owner for 60 s with the ports it chose, readable in
# /proc/net/tcp: a store no sweep of processes, files or IPC removes. Sockets of any family but
# AF_UNIX are refused to runs.
NET_STATE = """
import os, socket
def leave():
    made = []
    for family, kind in ((socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET6, socket.SOCK_DGRAM),
                         (socket.AF_INET, socket.SOCK_RAW), (socket.AF_NETLINK, socket.SOCK_RAW),
                         (socket.AF_PACKET, socket.SOCK_RAW)):
        try:
            socket.socket(family, kind).close()
            made.append(int(family))
        except OSError:
            pass
    try:
        server = socket.socket()
        server.bind(("127.7.7.7", 4242))
        server.listen()
        client = socket.create_connection(("127.7.7.7", 4242))
        client.close()
        made.append("time_wait")
    except OSError:
        pass
    return made
def seen():
    rows = []
    for name in ("tcp", "tcp6", "udp", "udp6", "raw", "raw6"):
        try:
            with open(f"/proc/net/{name}") as handle:
                rows += handle.read().splitlines()[1:]
        except OSError:
            pass
    return rows
"""


def test_no_socket_of_a_network_family_and_no_network_state_for_the_next_job(
    code_url: str, fresh: dict[str, Any]
) -> None:
    hostile, finder = post_code(
        code_url,
        [item(NET_STATE, [call("leave", [])]), item(NET_STATE + "\n", [call("seen", [])])],
    )
    assert hostile["reward"] == 1.0, hostile  # nothing made: every network family refused
    assert finder["reward"] == 1.0, finder
    assert_next_jobs_unaffected(code_url, fresh)


TCP_LEARNER = """
import socket
def _port(n):
    return 20000 + n
def _has(n):
    needle = f":{_port(n):04X} "
    for name in ("tcp", "tcp6"):
        try:
            with open(f"/proc/net/{name}") as handle:
                if needle in handle.read():
                    return True
        except OSError:
            pass
    return False
def _mark(n):
    try:  # a connection closed by its client first: TIME_WAIT, owned by no process
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.9", _port(n)))
        server.listen()
        client = socket.create_connection(("127.0.0.9", _port(n)))
        peer, _ = server.accept()
        client.close()
        peer.close()
        server.close()
    except OSError:
        pass
_guesses = []
def is_prime(n):
    # As LEARNER, with TIME_WAIT sockets as the store: a marked number was a wrong guess.
    if _guesses:
        _guesses.pop()
    if _has(n):
        return False
    _mark(n)
    _guesses.append(n)
    return True
"""


def test_a_candidate_cannot_learn_answers_through_network_state(code_url: str) -> None:
    """Seen before the fix: 0.0 four times, then 1.0 (all four facts learnt, one per job)."""
    assert learning_rounds(code_url, TCP_LEARNER) == [0.0] * 6


# The job's kept binary (a sealed memfd, /proc/self/exe of every run of the program) outlives
# the job: extended attributes are refused, its times and mode are reset before every run.
BINARY_METADATA = r"""
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
int main() {
    char mode[8] = {0};
    if (scanf("%7s", mode) != 1) return 1;
    if (strcmp(mode, "write") == 0) {
        int xattr = setxattr("/proc/self/exe", "user.store", "1", 1, 0) == 0;
        struct timespec times[2] = {{12345, 0}, {12345, 0}};
        utimensat(AT_FDCWD, "/proc/self/exe", times, 0);
        chmod("/proc/self/exe", 0755);
        printf("xattr %d\n", xattr);
        return 0;
    }
    char value[8];
    struct stat info;
    if (stat("/proc/self/exe", &info) != 0) return 1;
    long found = getxattr("/proc/self/exe", "user.store", value, sizeof value);
    // the atime is this run's exec (relatime), never the one a run set
    int atime_set = info.st_atime == 12345;
    printf("%ld %ld %d %o\n", found > 0 ? found : 0L, (long)info.st_mtime, atime_set,
           info.st_mode & 0777);
}
"""


def test_the_kept_binary_carries_nothing_from_one_job_to_the_next(code_url: str) -> None:
    def run(stdin: str, stdout: str) -> dict[str, Any]:
        test = {"kind": "stdio", "stdin": stdin, "stdout": stdout}
        return {"language": "cpp", "code": BINARY_METADATA, "tests": [test]}

    writer, reader = post_code(code_url, [run("write\n", "xattr 0\n"), run("read\n", "?")])
    assert writer["reward"] == 1.0, writer
    # launched from the kept memfd: "0 0 0 100" (times and mode reset); copied into each
    # run's fresh work dir (job namespaces: no launcher): this run's own copy, mode 700
    seen = reader["tests"][0]["detail"].rsplit("got ", 1)[1].strip("'")
    xattr, mtime, atime_set, mode = seen.split()
    assert (xattr, atime_set) == ("0", "0") and mtime != "12345" and mode in ("100", "700"), seen


# The PID counter, the open row of the threat model: a wrong guess is written as the residue of
# the next pid modulo 256 (fork until it is reached), read back by the next job's getpid().
PID_LEARNER = """
import os
_M, _BASE, _STEP, _NUMBERS = 256, 128, 8, (4, 6, 8, 9)
def _decode():
    slot = (os.getpid() % _M) - _BASE
    if not 0 <= slot < 16 * _STEP:
        return set()
    mask = slot // _STEP
    return {n for i, n in enumerate(_NUMBERS) if mask >> i & 1}
_wrong = _decode()
def _store(wrong):
    mask = sum(1 << i for i, n in enumerate(_NUMBERS) if n in wrong)
    target = _BASE + mask * _STEP
    for _ in range(2 * _M):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        if pid % _M == target:
            return
def is_prime(n):
    if n in _wrong:
        return False
    _store(_wrong | {n})
    return True
"""


def test_a_candidate_cannot_learn_answers_through_the_pid_counter(code_url: str) -> None:
    """Seen before job namespaces: 0.0 four times, then 1.0 for every later job (each job's
    first pid told the next one the last wrong guess)."""
    assert learning_rounds(code_url, PID_LEARNER) == [0.0] * 6
