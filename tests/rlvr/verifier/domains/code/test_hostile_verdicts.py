"""Round three of hostile candidates against a live service (real Docker engine): attacks that
used to turn a wrong answer into `error` (a null reward a policy can aim for) or a time-limit
bypass into a pass. Each must now be the candidate's own verdict, and the next jobs score as
before.

Seen failing before the fix (same engine): the OOM of unmapped memory (PID 1 killed: `error`),
the zygote killed before a Python checker (`error`), the helper thread beside an interactor
(`passed` past the time limit; `error` when it held the interactor's input), the non-UTF-8
output (`error`).
"""

from __future__ import annotations

import textwrap
from typing import Any

import httpx
import pytest

from tests.support.http import post_body, post_code
from tests.support.server import service_fixture

pytestmark = [pytest.mark.docker]


def dedent(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


ECHO_SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
GOOD = {"code": ECHO_SUM, "tests": [{"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"}]}


# -- item 4: memory no rlimit counts, and the OOM killer's choice

# Unix socket buffers filled and never read: kernel memory charged to the container, counted in
# no process's memory, so without scores the OOM killer picks the largest process: PID 1.
SOCKET_HOARDER = dedent(
    r"""
    #include <sys/socket.h>
    #include <unistd.h>
    #include <fcntl.h>
    #include <cstdio>
    static void hoard() {
        static char chunk[1 << 16];
        for (int i = 0; i < 120; i++) {
            int pair[2];
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) break;
            fcntl(pair[0], F_SETFL, O_NONBLOCK);
            while (write(pair[0], chunk, sizeof chunk) > 0) {}
        }
    }
    int main() {
        for (int i = 0; i < 24; i++) if (fork() == 0) { hoard(); pause(); }
        hoard();
        sleep(30);
        puts("5");
    }
    """
)
MEMFD_HOARDER = dedent(
    r"""
    #include <sys/mman.h>
    #include <unistd.h>
    #include <cstdio>
    int main() {
        static char chunk[1 << 20];
        int made = 0;
        for (int i = 0; i < 200; i++) {
            int fd = memfd_create("hoard", 0);
            if (fd < 0) break;
            made++;
            for (int j = 0; j < 15; j++) write(fd, chunk, sizeof chunk);
        }
        printf("%d\n", made);
    }
    """
)


# A container of 256 MB, so the hoarders reach its limit quickly.
small_memory_url = service_fixture(
    {
        "VERIFIER_CODE__POOL_SIZE": "1",
        "VERIFIER_CODE__DEFAULT_TIMEOUT_S": "10",
        "VERIFIER_CODE__SANDBOX__MEMORY_MB": "256",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    },
    needs_docker=True,
)


def test_memory_outside_every_rlimit_kills_the_candidate_not_pid_1(small_memory_url: str) -> None:
    tests = [{"kind": "stdio", "stdin": "", "stdout": "5\n"}]
    hoarder = {"language": "cpp", "code": SOCKET_HOARDER, "tests": tests, "timeout_s": 10}
    memfd = {
        "language": "cpp",
        "code": MEMFD_HOARDER,
        "tests": [
            {"kind": "stdio", "stdin": "", "stdout": "0\n"}  # memfd_create is refused: none made
        ],
    }
    result, refused, good = post_code(small_memory_url, [hoarder, memfd, GOOD])
    assert result["status"] in ("failed", "timed_out"), result
    assert result["reward"] == 0.0, result
    assert refused["reward"] == 1.0, refused
    assert good["reward"] == 1.0, good


OOM_SCORES = dedent(
    r"""
    import ctypes, os
    def score(pid):
        with open(f"/proc/{pid}/oom_score_adj") as handle:
            return int(handle.read())
    def scores():
        mine = score("self")
        try:
            with open("/proc/self/oom_score_adj", "w") as handle:
                handle.write("0")
            lowered = True
        except OSError:
            lowered = False
        dumpable = ctypes.CDLL(None).prctl(4, 1, 0, 0, 0) == 0
        # in a job's namespaces pid 1 is the job's init and the parent is outside (getppid 0)
        return [mine, score(1), score(os.getppid() or 1), lowered, dumpable, score("self")]
    """
)
OOM_SCORES_CPP = dedent(
    r"""
    #include <cstdio>
    #include <sys/prctl.h>
    int main() {
        int mine = -1; FILE* f = fopen("/proc/self/oom_score_adj", "r");
        if (f) { fscanf(f, "%d", &mine); fclose(f); }
        FILE* w = fopen("/proc/self/oom_score_adj", "w");
        int lowered = w != nullptr && fputs("0", w) >= 0 && fclose(w) == 0;
        int dumpable = prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0;
        printf("%d %d %d\n", mine, lowered, dumpable);
    }
    """
)


def test_every_candidate_run_is_the_oom_killers_first_choice(code_url: str) -> None:
    python = {
        "code": OOM_SCORES,
        "tests": [{"kind": "call", "fn": "scores", "expected": [1000, 0, 0, False, False, 1000]}],
    }
    cpp = {
        "language": "cpp",
        "code": OOM_SCORES_CPP,
        "tests": [{"kind": "stdio", "stdin": "", "stdout": "1000 0 0\n"}],
    }
    results = post_code(code_url, [python, cpp, GOOD])
    assert [r["reward"] for r in results] == [1.0, 1.0, 1.0], results


# -- item 5: the zygote killed, then a Python checker

KILL_THE_ZYGOTE = dedent(
    r"""
    #include <dirent.h>
    #include <signal.h>
    #include <unistd.h>
    #include <cstdlib>
    #include <cstdio>
    int main() {
        DIR* proc = opendir("/proc");
        while (dirent* entry = readdir(proc)) {
            int pid = atoi(entry->d_name);
            if (pid > 1 && pid != getpid()) kill(pid, SIGKILL);
        }
        usleep(300 * 1000);  // the zygote is gone, its end of PID 1's socket closed
        puts("5");
    }
    """
)
ACCEPT_ALL_CHECKER = "import sys\nsys.exit(0)\n"


def test_a_candidate_that_kills_the_zygote_loses_its_own_tests(code_url: str) -> None:
    """In a shared container the candidate kills the zygote and loses its own tests; in its
    job's namespaces it sees no process but its own (pid 1 is the job's init, which no signal
    from inside reaches): it kills nothing, and its right answer passes."""
    item = {
        "language": "cpp",
        "code": KILL_THE_ZYGOTE,
        "checker": {"kind": "program", "language": "python", "code": ACCEPT_ALL_CHECKER},
        "tests": [{"kind": "stdio", "stdin": "", "stdout": "5\n"}] * 2,
    }
    result, good = post_code(code_url, [item, GOOD])
    pool = httpx.get(f"{code_url}/health").json()["domains"]["code"]["stats"]
    if pool["job_namespaces_live"]:
        assert result["status"] == "passed", result
    else:
        assert result["status"] == "failed" and result["reward"] == 0.0, result
    assert good["reward"] == 1.0, good


# -- item 6: a helper that outlives the candidate beside an interactor

ANSWER_INTERACTOR = dedent(
    """
    import sys
    line = sys.stdin.readline().strip()
    sys.exit(0 if line == "42" else 1)
    """
)
# The main process exits at once; a forked helper's main thread calls pthread_exit (the helper
# then shows state Z) while a thread answers the interactor later (ANSWERS), or only holds the
# interactor's input open.
LINGERING_HELPER = dedent(
    r"""
    #include <pthread.h>
    #include <unistd.h>
    static void* late(void*) {
        usleep(500 * 1000);
        if (ANSWERS) write(1, "42\n", 3);
        sleep(1000);
        return nullptr;
    }
    int main() {
        if (fork() == 0) {
            pthread_t thread;
            pthread_create(&thread, nullptr, late, nullptr);
            pthread_exit(nullptr);
        }
        return 0;
    }
    """
)
# A helper that keeps moving: each generation forks the next and exits, so a scan of /proc
# always finds a pid that is already gone; the one alive after 0.5 s answers.
HOPPING_HELPER = dedent(
    r"""
    #include <time.h>
    #include <unistd.h>
    static double now() {
        timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return t.tv_sec + t.tv_nsec / 1e9;
    }
    int main() {
        double start = now();
        if (fork() != 0) return 0;
        while (now() - start < 0.5) {
            if (fork() != 0) _exit(0);
        }
        write(1, "42\n", 3);
        sleep(1000);
    }
    """
)
HONEST_BUT_SLOW = dedent(
    r"""
    #include <unistd.h>
    #include <cstdio>
    int main() { sleep(3); puts("42"); fflush(stdout); }
    """
)


def interactive(code: str, secret: str) -> dict[str, Any]:
    return {
        "language": "cpp",
        "code": code,
        "interactor": {"language": "python", "code": ANSWER_INTERACTOR},
        "tests": [{"kind": "interactive", "input": secret}],
        "timeout_s": 1,
    }


def test_a_helper_left_beside_an_interactor_neither_passes_late_nor_makes_an_error(
    code_url: str,
) -> None:
    answering = interactive(LINGERING_HELPER.replace("ANSWERS", "true"), "x")
    holding = interactive(LINGERING_HELPER.replace("ANSWERS", "false"), "x")
    hopping = interactive(HOPPING_HELPER, "x")
    slow = interactive(HONEST_BUT_SLOW, "x")
    late, held, hopped, honest = post_code(code_url, [answering, holding, hopping, slow])
    assert honest["tests"][0]["status"] == "timed_out", honest
    assert hopped["reward"] == 0.0 and hopped["status"] in ("failed", "timed_out"), hopped
    assert late["reward"] == 0.0 and late["status"] in ("failed", "timed_out"), late
    assert held["reward"] == 0.0 and held["status"] in ("failed", "timed_out"), held


# -- item 7: a checker's fault that the candidate's bytes caused

TEXT_CHECKER = dedent(
    """
    import sys
    got = open(sys.argv[2]).read().split()
    want = open(sys.argv[3]).read().split()
    sys.exit(0 if got == want else 1)
    """
)
PARSING_CHECKER = dedent(
    """
    import sys
    got = int(open(sys.argv[2]).read())
    sys.exit(0 if got == int(open(sys.argv[3]).read()) else 1)
    """
)


def checked(code: str, checker: str) -> dict[str, Any]:
    return {
        "code": code,
        "checker": {"kind": "program", "language": "python", "code": checker},
        "tests": [{"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"}],
    }


def test_a_checker_that_fails_on_the_candidates_bytes_fails_the_candidate(code_url: str) -> None:
    not_utf8 = "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe5\\n')\n"
    junk = "print('five')\n"
    results = post_code(
        code_url,
        [
            checked(not_utf8, TEXT_CHECKER),
            checked(junk, PARSING_CHECKER),
            checked(ECHO_SUM, TEXT_CHECKER),
            checked(ECHO_SUM, PARSING_CHECKER),
            checked(junk, "raise RuntimeError('checker bug')\n"),  # its own fault: still error
        ],
    )
    for result in results[:2]:
        assert result["status"] == "failed" and result["reward"] == 0.0, result
        assert "accepts the expected answer" in result["tests"][0]["detail"], result
    assert [r["reward"] for r in results[2:4]] == [1.0, 1.0], results
    assert results[4]["status"] == "error", results[4]


def test_bytes_that_are_not_utf8_sent_to_a_python_interactor_are_a_wrong_answer(
    code_url: str,
) -> None:
    not_utf8 = "import sys\nsys.stdout.buffer.write(b'\\xff42\\n')\nsys.stdout.flush()\n"
    right = "print(42, flush=True)\n"
    item = {
        "interactor": {"language": "python", "code": ANSWER_INTERACTOR},
        "tests": [{"kind": "interactive", "input": "x"}],
        "timeout_s": 2,
    }
    wrong, good = post_code(code_url, [{**item, "code": not_utf8}, {**item, "code": right}])
    assert wrong["status"] == "failed" and wrong["reward"] == 0.0, wrong
    assert good["reward"] == 1.0, good


# -- items 8 and 9: request values the schema used to accept, and verdicts shared across them


def test_a_non_finite_tolerance_or_an_expected_value_nested_too_deep_is_a_422(
    code_url: str,
) -> None:
    call = '{"kind": "call", "fn": "f", "expected": 1.0, "float_tolerance": Infinity}'
    stdio = '{"kind": "stdio", "stdout": "1.0", "float_tolerance": Infinity}'
    deep = '{"kind": "call", "fn": "f", "expected": ' + "[" * 400 + "]" * 400 + "}"
    for test in (call, stdio, deep):
        item = '{"code": "def f(): pass", "tests": [' + test + "]}"
        response = post_body(code_url, "/code", '{"items": [' + item + "]}", timeout_s=120)
        assert response.status_code == 422, response.text
        assert "Traceback" not in response.text


def test_a_pass_against_null_is_not_copied_to_nan_or_the_infinities(code_url: str) -> None:
    """pydantic's JSON mode wrote all four as `null`: one key, one verdict copied to all."""
    test = '{"kind": "call", "fn": "f", "expected": '
    items = [
        '{"code": "def f(): return None", "tests": [' + test + expected + "}]}"
        for expected in ("null", "Infinity", "-Infinity", "NaN")
    ]
    response = post_body(code_url, "/code", '{"items": [' + ", ".join(items) + "]}", timeout_s=120)
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["reward"] for r in results] == [1.0, 0.0, 0.0, 0.0], results
    assert all(r["reused"] is None for r in results), results
