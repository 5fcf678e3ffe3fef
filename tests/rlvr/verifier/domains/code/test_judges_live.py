"""Checkers, interactors, the total time budget and big integers against a live service (real
Docker): honest programs pass, hostile ones score 0 (never a pass, never the judge's `error`),
a failing judge is `error`, and the next job in the same container is unaffected."""

from __future__ import annotations

import textwrap
import time
from typing import Any

import pytest

from tests.support.http import post_code
from tests.support.language_programs import PROBE

pytestmark = [pytest.mark.docker]


def dedent(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


# ---------------------------------------------------------------- checkers

# Any proper divisor of n is accepted: an exact comparison could not judge this problem.
DIVISOR_CHECKER_PY = dedent(
    """
    import sys
    n = int(open(sys.argv[1]).read())
    tokens = open(sys.argv[2]).read().split()
    answer = int(open(sys.argv[3]).read())
    assert answer > 1 and n % answer == 0  # the answer file arrives intact
    if len(tokens) != 1 or not tokens[0].isdigit():
        print("wrong answer: one number expected", file=sys.stderr)
        sys.exit(1)
    d = int(tokens[0])
    if 1 < d < n and n % d == 0:
        sys.exit(0)
    print(f"wrong answer: {d} is not a proper divisor of {n}", file=sys.stderr)
    sys.exit(1)
    """
)
DIVISOR_CHECKER_CPP = dedent(
    """
    #include <cstdio>
    int main(int argc, char** argv) {
        long long n = 0, d = 0, a = 0;
        FILE* in = fopen(argv[1], "r"); FILE* out = fopen(argv[2], "r");
        FILE* ans = fopen(argv[3], "r");
        if (!in || !out || !ans) return 3;  // testlib's _fail: the checker's own failure
        if (fscanf(in, "%lld", &n) != 1 || fscanf(ans, "%lld", &a) != 1) return 3;
        if (fscanf(out, "%lld", &d) != 1) {
            fprintf(stderr, "wrong answer: no number\\n");
            return 1;
        }
        char extra[2];
        if (fscanf(out, "%1s", extra) == 1) {
            fprintf(stderr, "wrong answer: extra output\\n");
            return 1;
        }
        if (d > 1 && d < n && n % d == 0) return 0;
        fprintf(stderr, "wrong answer: %lld does not divide %lld\\n", d, n);
        return 1;
    }
    """
)
SMALLEST = "n = int(input())\nprint(next(d for d in range(2, n) if n % d == 0))\n"
LARGEST = "n = int(input())\nprint(next(d for d in range(n - 1, 1, -1) if n % d == 0))\n"
DIVISOR_TESTS = [
    {"kind": "stdio", "stdin": "91\n", "stdout": "7\n"},
    {"kind": "stdio", "stdin": "1000001\n", "stdout": "101\n"},
]


def divisor_item(code: str, checker_code: str = DIVISOR_CHECKER_PY, **extra: Any) -> dict:
    language = "cpp" if "#include" in checker_code else "python"
    checker = {"kind": "program", "language": language, "code": checker_code}
    return {"code": code, "checker": checker, "tests": DIVISOR_TESTS, "timeout_s": 3, **extra}


def test_a_checker_program_accepts_any_valid_answer(code_url: str) -> None:
    items = [
        divisor_item(SMALLEST),
        divisor_item(LARGEST),
        divisor_item(SMALLEST, DIVISOR_CHECKER_CPP),
        divisor_item(LARGEST, DIVISOR_CHECKER_CPP),
        {**divisor_item(LARGEST), "checker": None},  # exact comparison: the largest is wrong
    ]
    results = post_code(code_url, items)
    assert [r["reward"] for r in results] == [1.0, 1.0, 1.0, 1.0, 0.0], results


def test_a_checker_program_rejects_with_its_message(code_url: str) -> None:
    py, cpp = post_code(
        code_url, [divisor_item("print(5)"), divisor_item("print(5)", DIVISOR_CHECKER_CPP)]
    )
    for result in (py, cpp):
        assert result["status"] == "failed" and result["reward"] == 0.0, result
        assert (
            "does not divide" in result["tests"][0]["detail"]
            or "is not a proper" in (result["tests"][0]["detail"])
        )


def test_plain_comparisons_tokens_and_floats(code_url: str) -> None:
    items = [
        {
            "code": "print(1)\nprint(2)",
            "checker": {"kind": "tokens"},
            "tests": [{"kind": "stdio", "stdout": "1 2\n"}],
        },
        {"code": "print(1)\nprint(2)", "tests": [{"kind": "stdio", "stdout": "1 2\n"}]},
        {
            "code": "print('%.7f' % (1 / 3))",
            "checker": {"kind": "float"},
            "tests": [{"kind": "stdio", "stdout": "0.333333333333\n"}],
        },
        {
            "code": "print('%.3f' % (1 / 3))",
            "checker": {"kind": "float"},
            "tests": [{"kind": "stdio", "stdout": "0.333333333333\n"}],
        },
        {
            "code": "print(0.34)",
            "checker": {"kind": "float", "abs_tol": 0.01, "rel_tol": 0},
            "tests": [{"kind": "stdio", "stdout": "0.333\n"}],
        },
    ]
    results = post_code(code_url, items)
    assert [r["reward"] for r in results] == [1.0, 0.0, 1.0, 0.0, 1.0], results


# A judge that fails is the verifier's `error` (reward null), whatever the candidate printed.
FAILING_CHECKERS = {
    "python_raises": ("python", "raise RuntimeError('checker bug')"),
    "python_exit_3": ("python", "import sys\nsys.exit(3)"),
    "python_loops_forever": ("python", "while True:\n    pass"),
    "python_sleeps_forever": ("python", "import time\ntime.sleep(1000)"),
    "python_memory_bomb": ("python", "x = bytearray(1 << 34)"),
    "cpp_segfault": ("cpp", "int main() { volatile int* p = 0; return *p; }"),
    "cpp_abort": ("cpp", "#include <cstdlib>\nint main() { abort(); }"),
    "cpp_does_not_compile": ("cpp", "int main() { return not_declared; }"),
}


@pytest.mark.parametrize("name", sorted(FAILING_CHECKERS))
def test_a_failing_checker_is_an_error_never_a_pass(code_url: str, name: str) -> None:
    language, code = FAILING_CHECKERS[name]
    item = {
        "code": SMALLEST,
        "checker": {"kind": "program", "language": language, "code": code},
        "tests": DIVISOR_TESTS,
    }
    started = time.monotonic()
    result, good = post_code(code_url, [item, divisor_item(SMALLEST)])
    assert result["status"] == "error" and result["reward"] is None, result
    assert "checker" in result["detail"], result
    assert time.monotonic() - started < 60
    assert good["reward"] == 1.0, good


# Candidates against a checker: the checker runs only once no process of theirs exists.
CHECKER_HACKS = {
    "prints_ok_like_testlib": "print('ok')\nprint('accepted')\n",
    "exits_0_without_output": "import os\nos._exit(0)\n",
    "daemon_rewrites_the_checkers_files": """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                for _ in range(400):  # for 2 s: write wherever the checker's files could be
                    for name in ("output.txt", "answer.txt", "input.txt"):
                        for place in ("/tmp/w", "/tmp", "."):
                            try:
                                with open(os.path.join(place, name), "w") as f:
                                    f.write("7")
                            except OSError:
                                pass
                    time.sleep(0.005)
            os._exit(0)
        print(5)
        """,
    "leaves_files_and_symlinks_for_the_checker": """
        import os
        for name in ("output.txt", "answer.txt", "checker", "checker.py"):
            try:
                os.symlink("/proc/self/fd/0", "/tmp/" + name)
                with open("/tmp/w/" + name, "w") as f:
                    f.write("7")
            except OSError:
                pass
        os.mkfifo("/tmp/fifo")
        print(5)
        """,
    "kills_everything_it_can": """
        import os, signal
        for pid in range(2, 200):
            for sig in (signal.SIGKILL, signal.SIGSTOP):
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        print(5)
        """,
    "searches_for_the_answer": """
        import os
        found = None
        for root, dirs, files in os.walk("/tmp"):
            for name in files:
                try:
                    text = open(os.path.join(root, name)).read()
                except OSError:
                    continue
                if text.strip().isdigit() and text.strip() not in ("91", "1000001"):
                    found = text.strip()
        for pid in os.listdir("/proc"):
            for part in ("environ", "cmdline"):
                try:
                    data = open(f"/proc/{pid}/{part}", "rb").read()
                except OSError:
                    continue
                if b"answer" in data:
                    found = "1"
        print(found or 5)
        """,
}


@pytest.mark.parametrize("name", sorted(CHECKER_HACKS))
def test_checker_hack_scores_zero_and_next_job_is_clean(code_url: str, name: str) -> None:
    hostile = divisor_item(dedent(CHECKER_HACKS[name]))
    result, good, probe = post_code(code_url, [hostile, divisor_item(SMALLEST), PROBE])
    assert result["reward"] == 0.0 and result["status"] == "failed", result
    assert good["reward"] == 1.0, good
    assert probe["reward"] == 1.0, probe


# ---------------------------------------------------------------- interactors

# Guess the number in 1..10**6 with at most 30 queries `? x` (answers `<`, `>` or `=`), then
# `! x`. An interactor written the testlib way: whatever the candidate sends, it exits 0 or 1.
GUESS_INTERACTOR_PY = dedent(
    """
    import sys
    secret = int(open(sys.argv[1]).read())
    for _ in range(31):
        line = sys.stdin.readline()
        parts = line.split()
        if len(parts) != 2 or parts[0] not in "?!" or not parts[1].lstrip("-").isdigit():
            print("wrong answer: bad line", repr(line[:40]), file=sys.stderr)
            sys.exit(1)
        x = int(parts[1])
        if parts[0] == "!":
            sys.exit(0 if x == secret else 1)
        print("<" if secret < x else (">" if secret > x else "="), flush=True)
    print("wrong answer: too many queries", file=sys.stderr)
    sys.exit(1)
    """
)
GUESS_INTERACTOR_CPP = dedent(
    """
    #include <cstdio>
    #include <cstring>
    int main(int argc, char** argv) {
        FILE* in = fopen(argv[1], "r");
        long long secret;
        if (!in || fscanf(in, "%lld", &secret) != 1) return 3;
        for (int q = 0; q < 31; q++) {
            char op[4]; long long x;
            if (scanf("%3s %lld", op, &x) != 2) return 1;
            if (strcmp(op, "!") == 0) return x == secret ? 0 : 1;
            if (strcmp(op, "?") != 0) return 1;
            printf("%s\\n", secret < x ? "<" : (secret > x ? ">" : "="));
            fflush(stdout);
        }
        return 1;
    }
    """
)
BINARY_SEARCH_PY = dedent(
    """
    lo, hi = 1, 10**6
    while True:
        mid = (lo + hi) // 2
        print("?", mid, flush=True)
        reply = input().strip()
        if reply == "=":
            print("!", mid, flush=True)
            break
        lo, hi = (lo, mid - 1) if reply == "<" else (mid + 1, hi)
    """
)
BINARY_SEARCH_CPP = dedent(
    """
    #include <cstdio>
    int main() {
        long long lo = 1, hi = 1000000;
        while (true) {
            long long mid = (lo + hi) / 2;
            printf("? %lld\\n", mid); fflush(stdout);
            char r[4]; if (scanf("%3s", r) != 1) return 1;
            if (r[0] == '=') { printf("! %lld\\n", mid); fflush(stdout); return 0; }
            if (r[0] == '<') hi = mid - 1; else lo = mid + 1;
        }
    }
    """
)
SECRETS = ["1", "737373", "1000000"]


def guess_item(
    code: str, interactor: str = GUESS_INTERACTOR_PY, language: str = "python", **extra: Any
) -> dict:
    judge_language = "cpp" if "#include" in interactor else "python"
    return {
        "code": code,
        "language": language,
        "interactor": {"language": judge_language, "code": interactor},
        "tests": [{"kind": "interactive", "input": s} for s in SECRETS],
        "timeout_s": 3,
        **extra,
    }


def test_interactive_problems_in_every_pairing(code_url: str) -> None:
    items = [
        guess_item(BINARY_SEARCH_PY),
        guess_item(BINARY_SEARCH_PY, GUESS_INTERACTOR_CPP),
        guess_item(BINARY_SEARCH_CPP, language="cpp"),
        guess_item(BINARY_SEARCH_CPP, GUESS_INTERACTOR_CPP, language="cpp"),
        guess_item("print('! 737373', flush=True)"),  # right on one test only
    ]
    results = post_code(code_url, items)
    assert [r["reward"] for r in results] == [1.0, 1.0, 1.0, 1.0, pytest.approx(1 / 3)], results
    assert results[4]["tests"][0]["status"] == "failed"


@pytest.mark.parametrize(
    "code",
    [
        "import time\ntime.sleep(1000)",  # never writes
        "import sys\nsys.stdin.read()",  # only reads: the interactor waits for it
        "print('? 1', flush=True)\nimport time\ntime.sleep(1000)",  # stops halfway
        "import os\nos.close(1)\nimport time\ntime.sleep(1000)",  # closes its output, stays
        "while True:\n    print('? 500000', flush=True)",  # floods: the interactor stops reading
        "import os\nos.close(0)\nwhile True:\n    pass",
    ],
)
def test_a_candidate_that_stops_talking_hits_its_deadline_not_a_deadlock(
    code_url: str, code: str
) -> None:
    item = {**guess_item(code), "timeout_s": 1.5}
    started = time.monotonic()
    result, good = post_code(code_url, [item, guess_item(BINARY_SEARCH_PY)])
    assert result["reward"] == 0.0 and result["status"] in ("timed_out", "failed"), result
    assert time.monotonic() - started < 40
    assert good["reward"] == 1.0, good


# What a same-uid candidate could do to an interactor running beside it. Each one would learn
# the secret or silence the interactor; each must score 0 and leave the next job unaffected.
STEAL_SECRET = """
    import os, re, time

    def scan():
        me = os.getpid()
        for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != me]:
            for path in [f"/proc/{pid}/fd/{n}" for n in range(8)] + [
                f"/proc/{pid}/environ", f"/proc/{pid}/cmdline", f"/proc/{pid}/mem",
                f"/proc/{pid}/cwd", f"/proc/{pid}/root/tmp",
            ]:
                try:
                    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                    data = os.read(fd, 64)
                except OSError:
                    continue
                match = re.fullmatch(rb"\\s*(\\d{6})\\s*", data)
                if match:
                    return match.group(1).decode()
        for root, _, files in os.walk("/tmp"):
            for name in files:
                try:
                    data = open(os.path.join(root, name), "rb").read(64).strip()
                except OSError:
                    continue
                if data.isdigit() and len(data) == 6:
                    return data.decode()
        return None

    for _ in range(40):  # the interactor may still be starting
        found = scan()
        if found:
            break
        time.sleep(0.02)
    print("!", found or 0, flush=True)
"""
INTERACTOR_HACKS = {
    "steals_the_secret": STEAL_SECRET,
    "kills_every_process": """
        import os, signal
        for target in [-1] + [int(p) for p in os.listdir("/proc") if p.isdigit()]:
            for sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):
                if target != os.getpid():
                    try:
                        os.kill(target, sig)
                    except OSError:
                        pass
        print("! 2", flush=True)
        """,
    "kills_through_proc_directory_pidfds": """
        import os, signal
        for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]:
            try:  # a /proc/PID directory works as a pidfd for pidfd_send_signal
                fd = os.open(f"/proc/{pid}", os.O_RDONLY | os.O_DIRECTORY)
                signal.pidfd_send_signal(fd, signal.SIGKILL)
            except OSError:
                pass
        print("! 2", flush=True)
        """,
    "signals_through_sigio_ownership": """
        import fcntl, os, sys
        others = [int(p) for p in os.listdir("/proc") if p.isdigit()]
        others = [p for p in others if p not in (1, os.getpid())]
        fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_ASYNC)
        for pid in sorted(others, reverse=True)[:20]:
            try:  # SIGIO (default action: terminate) goes to the owner when a reply arrives
                fcntl.fcntl(0, fcntl.F_SETOWN, pid)
            except OSError:
                pass
            print("? 1", flush=True)
            sys.stdin.readline()
        print("! 2", flush=True)
        """,
    "rewrites_the_interactors_input": """
        import os
        for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]:
            for n in range(8):
                for flags in (os.O_WRONLY, os.O_RDWR | os.O_TRUNC):
                    try:
                        fd = os.open(f"/proc/{pid}/fd/{n}", flags | os.O_NONBLOCK)
                        os.write(fd, b"2\\n")
                    except OSError:
                        pass
        print("! 2", flush=True)
        """,
    "prints_accepted": "print('ok accepted', flush=True)\nprint('! ok', flush=True)\n",
    # the main process ends at once; a daemon holding its stdin/stdout plays on, past the
    # candidate's own time limit (1 s here), while the interactor still waits for a verdict
    "daemon_plays_on_past_the_deadline": """
        import os, time
        if os.fork() == 0:
            os.setsid()
            time.sleep(1.5)
            lo, hi = 1, 10**6
            while True:
                mid = (lo + hi) // 2
                print("?", mid, flush=True)
                reply = input().strip()
                if reply == "=":
                    print("!", mid, flush=True)
                    break
                lo, hi = (lo, mid - 1) if reply == "<" else (mid + 1, hi)
            os._exit(0)
        os._exit(0)
        """,
    "exits_0_at_once": "import os\nos._exit(0)\n",
}
CPP_KILLER = dedent(
    """
    #include <csignal>
    #include <cstdio>
    #include <fcntl.h>
    #include <unistd.h>
    #include <sys/syscall.h>
    int main() {
        kill(-1, SIGKILL);
        for (int pid = 2; pid < 400; pid++) {
            if (pid == getpid()) continue;
            kill(pid, SIGKILL);
            syscall(SYS_tkill, pid, SIGKILL);
            syscall(SYS_tgkill, pid, pid, SIGKILL);
            fcntl(1, F_SETOWN, pid);
            int pidfd = syscall(434, pid, 0);  // pidfd_open
            if (pidfd >= 0) syscall(424, pidfd, SIGKILL, 0, 0);  // pidfd_send_signal
            char path[32];
            snprintf(path, sizeof path, "/proc/%d", pid);
            int dirfd = open(path, O_RDONLY | O_DIRECTORY);  // works as a pidfd too
            if (dirfd >= 0) syscall(424, dirfd, SIGKILL, 0, 0);
        }
        printf("! 3\\n"); fflush(stdout);
        return 0;
    }
    """
)


@pytest.mark.parametrize("name", [*sorted(INTERACTOR_HACKS), "cpp_kills_every_way"])
def test_interactor_hack_scores_zero_and_next_job_is_clean(code_url: str, name: str) -> None:
    if name == "cpp_kills_every_way":
        hostile = guess_item(CPP_KILLER, GUESS_INTERACTOR_CPP, language="cpp")
    else:
        hostile = guess_item(dedent(INTERACTOR_HACKS[name]), timeout_s=1)
    result, good, probe = post_code(code_url, [hostile, guess_item(BINARY_SEARCH_PY), PROBE])
    # 0, and the interactor's own verdict on every test: it was neither robbed, silenced,
    # killed (with the zygote, the run would end without its verdict) nor forged
    assert result["reward"] == 0.0 and result["status"] == "failed", result
    for test in result["tests"]:
        assert test["status"] == "failed" and "interactor" in test["detail"], result
    assert good["reward"] == 1.0, good
    assert probe["reward"] == 1.0, probe


def test_the_secret_thief_works_against_an_interactor_that_exposes_itself(code_url: str) -> None:
    """The control: an interactor that makes itself dumpable again is robbed by the same
    probe, so the probe above is real and non-dumpability is what stops it. (PR_SET_DUMPABLE
    is refused to every run: it re-execs itself from the readable interpreter, which the kernel
    makes dumpable; its input and program descriptors, 3 and 4, survive the exec.)"""
    exposed = dedent(
        """
        import os, sys
        if "EXPOSED" not in os.environ:
            environment = {**os.environ, "EXPOSED": "1"}
            os.execve(sys.executable, [sys.executable, "/dev/fd/4", *sys.argv[1:]], environment)
        """
    ) + GUESS_INTERACTOR_PY.replace(
        "for _ in range(31):", "import time\ntime.sleep(0.5)\nfor _ in range(31):"
    )
    item = {
        "code": dedent(STEAL_SECRET),
        "interactor": {"language": "python", "code": exposed},
        "tests": [{"kind": "interactive", "input": "737373"}],
        "timeout_s": 3,
    }
    (result,) = post_code(code_url, [item])
    assert result["reward"] == 1.0, result


FAILING_INTERACTORS = {
    "python_raises": ("python", "raise RuntimeError('interactor bug')"),
    "python_exit_3": ("python", "import sys\nsys.exit(3)"),
    "hangs_after_the_candidate_ends": ("python", "import time\ninput()\ntime.sleep(1000)"),
    "cpp_segfault": ("cpp", "int main() { volatile int* p = 0; return *p; }"),
    "cpp_does_not_compile": ("cpp", "int main() { return nope; }"),
}


@pytest.mark.parametrize("name", sorted(FAILING_INTERACTORS))
def test_a_failing_interactor_is_an_error_never_a_pass(code_url: str, name: str) -> None:
    language, code = FAILING_INTERACTORS[name]
    item = {
        "code": "print('! 1', flush=True)",
        "interactor": {"language": language, "code": code},
        "tests": [{"kind": "interactive", "input": "1"}],
        "timeout_s": 2,
    }
    result, good = post_code(code_url, [item, guess_item(BINARY_SEARCH_PY)])
    assert result["status"] == "error" and result["reward"] is None, result
    assert "interactor" in result["detail"], result
    assert good["reward"] == 1.0, good


# ---------------------------------------------------------------- total time budget


def test_total_timeout_stops_the_item_and_the_rest_are_timed_out(code_url: str) -> None:
    sleepy_stdio = {
        "code": "import time\ntime.sleep(0.8)\nprint(1)",
        "timeout_s": 3,
        "total_timeout_s": 2.0,
        "tests": [{"kind": "stdio", "stdout": "1"}] * 6,
    }
    sleepy_calls = {
        "code": "import time\ndef f():\n    time.sleep(0.8)\n    return 1",
        "timeout_s": 3,
        "total_timeout_s": 2.0,
        "tests": [{"kind": "call", "fn": "f", "expected": 1}] * 6,
    }
    started = time.monotonic()
    stdio, calls = post_code(code_url, [sleepy_stdio, sleepy_calls])
    for result in (stdio, calls):
        statuses = [t["status"] for t in result["tests"]]
        assert statuses[:2] == ["passed", "passed"], result
        assert statuses[2:] == ["timed_out"] * 4, result
        assert all("total_timeout_s" in t["detail"] for t in result["tests"][2:])
        assert result["reward"] == pytest.approx(2 / 6)
    assert time.monotonic() - started < 30  # not 6 x 0.8 s + 6 x 3 s per item


# ---------------------------------------------------------------- big integers


def test_a_python_candidate_prints_and_parses_integers_of_any_length(code_url: str) -> None:
    big = "7" * 60_000
    items = [
        {  # parse a 60,000-digit number and print its double
            "code": "print(int(input()) * 2)",
            "tests": [{"kind": "stdio", "stdin": big, "stdout": "1" + "5" * 59_999 + "4"}],
        },
        {  # print a 100,000-digit power; tokens and floats compare it digit for digit
            "code": "print(10 ** 99_999 + 1)",
            "checker": {"kind": "float", "abs_tol": 0, "rel_tol": 0},
            "tests": [{"kind": "stdio", "stdout": "1" + "0" * 99_998 + "1"}],
        },
        {
            "code": "print(10 ** 99_999)",
            "checker": {"kind": "float", "abs_tol": 0, "rel_tol": 0},
            "tests": [{"kind": "stdio", "stdout": "1" + "0" * 99_998 + "1"}],
        },
        {  # a big return value, checked against a big expected value inside an assert
            "code": "def f(n):\n    return 3 ** n",
            "tests": [{"kind": "assert", "code": "assert str(f(50_000)) == str(3 ** 50_000)"}],
        },
    ]
    results = post_code(code_url, items)
    assert [r["reward"] for r in results] == [1.0, 1.0, 0.0, 1.0], results
