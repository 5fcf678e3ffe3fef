"""`/run_code`, `/run` and `/v1/ping` on a live service (uvicorn) with the real Docker sandbox.

verl's own SandboxFusion scorer (`verl.utils.reward_score.sandbox_fusion.compute_score`, verl
0.9.1) is pointed at `<base>/run_code` and scores right, wrong, sleeping and crashing stdio
programs under its own concurrency (a shared semaphore of 64); the hostile runs (output flood,
fork bomb, sleeping forever, memory hog) each get their status in bounded time, and the run
after each is a clean success.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from rlvr.adapters.trl import make_run_python
from rlvr.client import AsyncVerifierClient, VerifierClient
from tests.support.server import running_service

pytestmark = pytest.mark.docker

SF_KEYS = {"status", "message", "compile_result", "run_result", "executor_pod_name", "files"}
RESULT_KEYS = {"status", "execution_time", "return_code", "stdout", "stderr"}
ADD = "a, b = map(int, input().split())\nprint(a + b)\n"


@pytest.fixture(scope="module")
def run_url(docker_engine: None) -> Iterator[str]:
    env = {
        "VERIFIER_CODE__POOL_SIZE": "2",
        "VERIFIER_LEAN__IS_ENABLED": "false",
        "VERIFIER_CODE__SANDBOX__LABEL": "rlvr-run-tests",
    }
    with running_service(env) as url:
        yield url


def run_code(url: str, timeout_s: float = 60, **fields: Any) -> dict[str, Any]:
    body = {"language": "python", **fields}
    response = httpx.post(f"{url}/run_code", json=body, timeout=timeout_s)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert set(answer) >= SF_KEYS
    for name in ("compile_result", "run_result"):
        if answer[name] is not None:
            assert set(answer[name]) == RESULT_KEYS
            assert isinstance(answer[name]["stdout"], str)
            assert isinstance(answer[name]["stderr"], str)
    return answer


def assert_clean_run_after(url: str) -> None:
    """The next run in the pool: a plain success (nothing left by the one before)."""
    for _ in range(2):  # both containers of the pool
        answer = run_code(url, code="import os\nprint(sorted(os.listdir('.')))")
        assert answer["status"] == "Success", answer
        assert answer["run_result"]["stdout"] == "['solution.py']\n"


# ---------------------------------------------------------------- verl's own scorer


def _add_cases(n: int) -> dict[str, list[str]]:
    return {
        "inputs": [f"{i} {2 * i}\n" for i in range(1, n + 1)],
        "outputs": [f"{3 * i}\n" for i in range(1, n + 1)],
    }


def test_verls_sandbox_fusion_scorer_scores_right_wrong_timeouts_and_crashes(
    run_url: str,
) -> None:
    from verl.utils.reward_score.sandbox_fusion import compute_score

    semaphore = threading.Semaphore(64)  # verl's default sandbox_fusion max_concurrent
    endpoint = f"{run_url}/run_code"
    fence = "```python\n{}\n```"
    cases = {
        "right": (fence.format(ADD), _add_cases(48), 10),
        "wrong": (fence.format(ADD.replace("a + b", "a - b")), _add_cases(48), 10),
        "sleeps": (fence.format("import time\ntime.sleep(60)"), _add_cases(4), 2),
        "crashes": (fence.format("raise SystemExit(3)"), _add_cases(16), 10),
        "segfaults": (fence.format("import os\nos.kill(os.getpid(), 11)"), _add_cases(8), 10),
    }

    def score(name: str) -> tuple[str, float, list[dict[str, Any]]]:
        completion, tests, timeout = cases[name]
        got, metadata = compute_score(endpoint, semaphore, 1024, completion, tests, timeout=timeout)
        return name, got, metadata

    started = time.monotonic()
    with ThreadPoolExecutor(len(cases)) as pool:  # verl's scorers run side by side
        scored = {name: (s, m) for name, s, m in pool.map(score, list(cases))}
    elapsed_s = time.monotonic() - started
    assert {name: s for name, (s, _) in scored.items()} == {
        "right": 1.0,
        "wrong": 0.0,
        "sleeps": 0.0,
        "crashes": 0.0,
        "segfaults": 0.0,
    }
    every = [meta for _, metadata in scored.values() for meta in metadata]
    assert not [m for m in every if m["api_request_error"] or m["status"] == "sandbox_error"]
    assert {m["status"] for m in scored["right"][1]} == {"success"}
    assert {m["status"] for m in scored["wrong"][1]} == {"wrong_answer"}
    assert {m["status"] for m in scored["sleeps"][1]} == {"timeout"}
    assert {m["status"] for m in scored["crashes"][1]} == {"runtime_error"}
    assert {m["exit_code"] for m in scored["crashes"][1]} == {3}
    assert {m["exit_code"] for m in scored["segfaults"][1]} == {-11}
    assert elapsed_s < 60


# ---------------------------------------------------------------- the answer's shape


def test_a_success_answers_sandboxfusions_shape_with_stdin(run_url: str) -> None:
    answer = run_code(run_url, code=ADD, stdin="2 3\n", run_timeout=5)
    assert answer["status"] == "Success" and answer["message"] == ""
    assert answer["compile_result"] is None  # python has no compile step
    assert answer["run_result"]["status"] == "Finished"
    assert answer["run_result"]["return_code"] == 0
    assert answer["run_result"]["stdout"] == "5\n" and answer["run_result"]["stderr"] == ""
    assert answer["files"] == {} and answer["executor_pod_name"]
    assert answer["verdict"] == "ok" and answer["memory_exceeded"] is False


def test_a_null_stdin_and_a_traceback(run_url: str) -> None:
    answer = run_code(run_url, code="print('before')\n1/0", stdin=None)
    assert answer["status"] == "Failed" and answer["verdict"] == "runtime_error"
    assert answer["run_result"]["status"] == "Finished"
    assert answer["run_result"]["return_code"] == 1
    assert answer["run_result"]["stdout"] == "before\n"
    assert "ZeroDivisionError" in answer["run_result"]["stderr"]


def test_numpy_and_sympy_import_as_tool_integrated_reasoning_uses_them(run_url: str) -> None:
    """The image's numpy and sympy are on a run's `sys.path` (not its site machinery), and
    nothing a run could write is: every entry is root's, unwritable."""
    code = (
        "import os, sys, numpy, sympy\n"
        "x = sympy.symbols('x')\n"
        "print(sympy.factor(x**2 - 1), int(numpy.arange(5).sum()))\n"
        "print(all(os.stat(p).st_uid != os.getuid() and not os.access(p, os.W_OK)\n"
        "          for p in sys.path if os.path.isdir(p)))\n"
    )
    answer = run_code(run_url, code=code, run_timeout=20)
    assert answer["status"] == "Success", answer
    assert answer["run_result"]["stdout"] == "(x - 1)*(x + 1) 10\nTrue\n"


def test_an_unsupported_language_gets_the_shape_and_a_clear_message(run_url: str) -> None:
    answer = run_code(run_url, code="<?php echo 1;", language="php")
    assert answer["status"] == "SandboxError" and answer["verdict"] == "unsupported_language"
    assert "php" in answer["message"] and "python" in answer["message"]
    assert answer["run_result"] is None and answer["compile_result"] is None


def test_cpp_compiles_and_runs_and_a_compile_error_sits_on_compile_result(run_url: str) -> None:
    source = '#include <cstdio>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a*b);}'
    answer = run_code(run_url, code=source, language="cpp", stdin="6 7")
    assert answer["status"] == "Success", answer
    assert answer["compile_result"]["status"] == "Finished"
    assert answer["compile_result"]["return_code"] == 0
    assert answer["run_result"]["stdout"] == "42\n"
    broken = run_code(run_url, code="int main() { return x; }", language="cpp")
    assert broken["status"] == "Failed" and broken["verdict"] == "compile_error"
    assert broken["run_result"] is None
    assert broken["compile_result"]["status"] == "Finished"
    assert broken["compile_result"]["return_code"] != 0
    assert "x" in broken["compile_result"]["stderr"]


def test_a_header_in_files_is_seen_by_the_compiler_and_keys_the_compiled_program(
    run_url: str,
) -> None:
    """As SandboxFusion compiles: the job's files sit beside the source. The same source with
    another header is another program (never the first one's cached binary)."""
    main = '#include <iostream>\n#include "util.h"\nint main() { std::cout << VALUE << "\\n"; }'
    for value in ("41", "42"):
        header = base64.b64encode(f"#define VALUE {value}\n".encode()).decode()
        answer = run_code(run_url, code=main, language="cpp", files={"util.h": header})
        assert answer["status"] == "Success", answer
        assert answer["run_result"]["stdout"] == f"{value}\n"


def test_nodejs_is_our_javascript(run_url: str) -> None:
    answer = run_code(run_url, code="console.log(6 * 7)", language="nodejs")
    assert answer["status"] == "Success", answer
    assert answer["run_result"]["stdout"] == "42\n"


def test_code_that_is_not_unicode_is_the_programs_failure(run_url: str) -> None:
    body = '{"language": "python", "code": "print(1) \\ud800"}'
    response = httpx.post(
        f"{run_url}/run_code",
        content=body,
        headers={"content-type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "Failed"


# ---------------------------------------------------------------- files


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_files_go_into_the_work_dir_and_fetch_files_come_back(run_url: str) -> None:
    code = (
        "nums = open('data/in.txt').read().split()\n"
        "open('out.txt', 'w').write(str(sum(map(int, nums))))\n"
        "open('raw.bin', 'wb').write(bytes(range(256)))\n"
        "print('done')\n"
    )
    answer = run_code(
        run_url,
        code=code,
        files={"data/in.txt": _b64(b"1 2 3 4")},
        fetch_files=["out.txt", "raw.bin", "missing.txt"],
    )
    assert answer["status"] == "Success", answer
    assert answer["files"] == {"out.txt": _b64(b"10"), "raw.bin": _b64(bytes(range(256)))}
    assert_clean_run_after(run_url)


def test_fetch_files_never_follow_a_link_out_of_the_work_dir(run_url: str) -> None:
    code = "import os\nos.symlink('/etc/passwd', 'p')\nos.symlink('/proc/1', 'pid1')\n"
    answer = run_code(run_url, code=code, fetch_files=["p", "pid1/environ"])
    assert answer["status"] == "Success", answer
    assert answer["files"] == {}


def test_a_file_path_outside_the_work_dir_is_refused_with_a_message(run_url: str) -> None:
    answer = run_code(run_url, code="print(1)", files={"../../etc/x": _b64(b"x")})
    assert answer["status"] == "SandboxError" and answer["verdict"] == "bad_files"
    assert "relative path" in answer["message"]


def test_a_user_file_never_replaces_the_program(run_url: str) -> None:
    answer = run_code(run_url, code="print('mine')", files={"solution.py": _b64(b"print(0)")})
    assert answer["run_result"]["stdout"] == "mine\n"


# ---------------------------------------------------------------- hostile programs


def test_an_output_flood_is_stopped_as_an_error_with_its_flag(run_url: str) -> None:
    started = time.monotonic()
    answer = run_code(run_url, code="while True:\n    print('x' * 10000)", run_timeout=10)
    assert time.monotonic() - started < 10
    assert answer["status"] == "Failed" and answer["output_limit_exceeded"] is True
    assert answer["run_result"]["status"] == "Error"
    assert_clean_run_after(run_url)


def test_sleeping_forever_is_a_time_limit_with_a_null_return_code(run_url: str) -> None:
    started = time.monotonic()
    answer = run_code(run_url, code="import time\ntime.sleep(10**6)", run_timeout=1)
    assert time.monotonic() - started < 8
    assert answer["status"] == "Failed" and answer["verdict"] == "timed_out"
    assert answer["run_result"]["status"] == "TimeLimitExceeded"
    assert answer["run_result"]["return_code"] is None
    assert_clean_run_after(run_url)


def test_a_fork_bomb_fails_in_bounded_time_and_leaves_nothing(run_url: str) -> None:
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    started = time.monotonic()
    answer = run_code(run_url, code=code, run_timeout=2)
    assert time.monotonic() - started < 20
    assert answer["status"] == "Failed", answer
    assert_clean_run_after(run_url)


def test_eating_memory_is_a_distinct_flag(run_url: str) -> None:
    code = "chunks = []\nwhile True:\n    chunks.append(bytearray(16 << 20))"
    answer = run_code(run_url, code=code, memory_limit_MB=128)
    assert answer["status"] == "Failed" and answer["memory_exceeded"] is True
    assert answer["verdict"] == "memory_exceeded"
    assert answer["run_result"]["status"] == "Finished"
    assert answer["run_result"]["return_code"] != 0
    assert_clean_run_after(run_url)


# ---------------------------------------------------------------- /run, ping, the client, TRL


def test_run_batches_in_order_with_ids(run_url: str) -> None:
    items = [{"id": str(i), "language": "python", "code": f"print({i} * {i})"} for i in range(12)]
    items.insert(5, {"id": "bad", "language": "cobol", "code": "x"})
    response = httpx.post(f"{run_url}/run", json={"items": items}, timeout=60)
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["id"] for r in results] == [item["id"] for item in items]
    assert results[5]["status"] == "SandboxError"  # one bad item does not fail its batch
    good = [r for r in results if r["id"] != "bad"]
    assert [r["run_result"]["stdout"] for r in good] == [f"{i * i}\n" for i in range(12)]


def test_ping_answers_pong(run_url: str) -> None:
    response = httpx.get(f"{run_url}/v1/ping", timeout=5)
    assert response.status_code == 200 and response.json() == "pong"


def test_the_sync_client_runs_code_and_batches(run_url: str) -> None:
    with VerifierClient(run_url) as client:
        one = client.run_code("import sys\nprint(sys.stdin.read().upper())", stdin="hi")
        assert one.status == "Success" and one.run_result is not None
        assert one.run_result.stdout == "HI\n"
        many = client.run([{"code": f"print({i})", "language": "python"} for i in range(5)])
        assert [r.run_result.stdout for r in many if r.run_result] == [f"{i}\n" for i in range(5)]


async def test_the_async_client_runs_code_and_batches(run_url: str) -> None:
    async with AsyncVerifierClient(run_url) as client:
        slow = await client.run_code("while True: pass", run_timeout=1)
        assert slow.verdict == "timed_out" and slow.run_result is not None
        assert slow.run_result.return_code is None
        many = await client.run([{"code": "print(7)", "language": "python"}] * 3)
        assert [r.status for r in many] == ["Success"] * 3


def test_the_trl_tool_returns_what_the_model_should_see(run_url: str) -> None:
    tool = make_run_python(base_url=run_url, timeout_s=2, max_chars=300)
    assert tool("print(sum(range(10)))") == "45"
    assert "ZeroDivisionError" in tool("1/0")
    assert "time limit" in tool("import time\ntime.sleep(60)")
    long = tool("print('a' * 5000)")
    assert len(long) <= 300 and "characters cut" in long


def test_the_trl_tool_is_a_tool_schema_transformers_can_build() -> None:
    from transformers.utils import get_json_schema

    from rlvr.adapters.trl import run_python

    schema = get_json_schema(run_python)
    function = schema["function"]
    assert function["name"] == "run_python"
    assert function["parameters"]["required"] == ["code"]
    assert function["parameters"]["properties"]["code"]["type"] == "string"
    assert "Python" in function["description"]
    json.dumps(schema)  # plain JSON, as it goes into the chat template


# ---------------------------------------------------------------- admission and the key


@pytest.fixture(scope="module")
def tight_url(docker_engine: None) -> Iterator[str]:
    env = {
        "VERIFIER_CODE__POOL_SIZE": "1",
        "VERIFIER_CODE__MAX_QUEUE_ITEMS": "1",
        "VERIFIER_API_KEY": "sekret",
        "VERIFIER_LEAN__IS_ENABLED": "false",
        "VERIFIER_CODE__SANDBOX__LABEL": "rlvr-run-tests-tight",
    }
    with running_service(env) as url:
        yield url


def test_the_api_key_guards_run_code_and_ping_stays_open(tight_url: str) -> None:
    body = {"code": "print(1)", "language": "python"}
    assert httpx.post(f"{tight_url}/run_code", json=body, timeout=30).status_code == 401
    assert httpx.post(f"{tight_url}/run", json={"items": [body]}, timeout=30).status_code == 401
    assert httpx.get(f"{tight_url}/v1/ping", timeout=5).json() == "pong"
    ok = httpx.post(f"{tight_url}/run_code", json=body, headers={"x-api-key": "sekret"}, timeout=30)
    assert ok.status_code == 200 and ok.json()["status"] == "Success"


def test_a_full_queue_is_a_504_to_retry_for_run_code_and_a_503_for_run(tight_url: str) -> None:
    headers = {"x-api-key": "sekret"}
    slow = {"code": "import time\ntime.sleep(3)", "language": "python", "run_timeout": 5}
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(
            httpx.post, f"{tight_url}/run_code", json=slow, headers=headers, timeout=30
        )
        time.sleep(1.0)  # the first one holds the only place in the queue
        busy = httpx.post(f"{tight_url}/run_code", json=slow, headers=headers, timeout=30)
        batch = httpx.post(f"{tight_url}/run", json={"items": [slow]}, headers=headers, timeout=30)
        assert first.result().status_code == 200
    assert busy.status_code == 504 and busy.headers["retry-after"]
    assert batch.status_code == 503 and batch.headers["retry-after"]
