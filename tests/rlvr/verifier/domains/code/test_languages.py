"""Every language against a live service: pass, wrong answer, compile error, runtime error,
timeout, memory; and a compile done once for identical sources (the host's cache)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.host.docker import DockerBackend
from tests.support.http import post_code
from tests.support.language_programs import (
    ADD,
    COMPILE_ERROR,
    COMPILED,
    INFINITE_LOOP,
    MEMORY_BOMB,
    RUNTIME_ERROR,
)

pytestmark = [pytest.mark.docker]

ADD_TESTS = [
    {"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"},
    {"kind": "stdio", "stdin": "-7 1000000000000\n", "stdout": "999999999993\n"},
    {"kind": "stdio", "stdin": "1 1\n", "stdout": "3\n"},  # a wrong expected value: fails
]


def statuses(result: dict[str, Any]) -> list[str]:
    return [test["status"] for test in result["tests"]]


@pytest.mark.parametrize("language", ["c", "go", "java", "javascript", "rust"])
def test_a_language_passes_fails_and_breaks_each_its_own_way(code_url: str, language: str) -> None:
    items = [
        {"id": "add", "language": language, "code": ADD[language], "tests": ADD_TESTS},
        {"id": "bad", "language": language, "code": COMPILE_ERROR[language], "tests": ADD_TESTS},
        {
            "id": "crash",
            "language": language,
            "code": RUNTIME_ERROR[language],
            "tests": ADD_TESTS[:1],
        },
        {
            "id": "loop",
            "language": language,
            "code": INFINITE_LOOP[language],
            "tests": ADD_TESTS[:1],
            "timeout_s": 1,
        },
        {
            "id": "memory",
            "language": language,
            "code": MEMORY_BOMB[language],
            "tests": ADD_TESTS[:1],
            "memory_mb": 256,
            "timeout_s": 10,
        },
    ]
    add, bad, crash, loop, memory = post_code(code_url, items)
    assert statuses(add) == ["passed", "passed", "failed"], add
    assert add["reward"] == pytest.approx(2 / 3) and add["status"] == "failed"
    if language in COMPILED:
        assert statuses(bad) == ["compile_error"] * 3 and bad["reward"] == 0.0, bad
        assert bad["tests"][0]["detail"], bad  # the compiler's diagnostics
    else:
        assert statuses(bad) == ["runtime_error"] * 3, bad  # a syntax error, when it runs
    assert statuses(crash) == ["runtime_error"], crash
    assert loop["status"] == "timed_out" and statuses(loop) == ["timed_out"], loop
    assert 0.9 < loop["tests"][0]["elapsed_s"] < 4.0, loop
    # C sees a failed malloc (RLIMIT_AS) and does what it does with it: its own failure
    allowed = {"memory_exceeded", "runtime_error"} if language == "c" else {"memory_exceeded"}
    assert set(statuses(memory)) <= allowed and memory["reward"] == 0.0, memory


def test_python_and_cpp_are_unchanged(code_url: str) -> None:
    items = [
        {"language": "python", "code": ADD["python"], "tests": ADD_TESTS},
        {"language": "cpp", "code": ADD["cpp"], "tests": ADD_TESTS},
        {"language": "cpp", "code": COMPILE_ERROR["cpp"], "tests": ADD_TESTS[:1]},
    ]
    python, cpp, bad = post_code(code_url, items)
    assert statuses(python) == statuses(cpp) == ["passed", "passed", "failed"]
    assert statuses(bad) == ["compile_error"]


def test_a_program_too_large_to_carry_is_a_compile_error(code_url: str) -> None:
    code = "char data[40 << 20] = {1};\nint main(void) { return data[7]; }\n"
    (result,) = post_code(code_url, [{"language": "c", "code": code, "tests": ADD_TESTS[:1]}])
    # the run's file-size limit stops the assembler first (else: "too large" to carry)
    assert statuses(result) == ["compile_error"], result
    detail = result["tests"][0]["detail"]
    assert "File size limit exceeded" in detail or "too large" in detail, result


def test_a_java_program_in_a_package_with_helper_classes_runs(code_url: str) -> None:
    code = (
        "package contest.round1;\n\nimport java.util.Scanner;\n\n"
        "class Helper { static long add(long a, long b) { return a + b; } }\n\n"
        "public class Answer {\n"
        "    static class Pair { long a, b; }\n"
        "    public static void main(String[] args) {\n"
        "        Scanner in = new Scanner(System.in);\n"
        "        Runnable r = () -> System.out.println(Helper.add(in.nextLong(), in.nextLong()));\n"
        "        r.run();\n"
        "    }\n"
        "}\n"
    )
    (result,) = post_code(code_url, [{"language": "java", "code": code, "tests": ADD_TESTS[:2]}])
    assert result["status"] == "passed", result


def test_identical_sources_compile_once_for_the_whole_batch(code_url: str) -> None:
    source = ADD["rust"].replace("fn main", "// a source of this test only\nfn main")
    before = httpx.get(f"{code_url}/health").json()["domains"]["code"]["stats"]["compile_cache"]
    # the same program with different tests: six items to run (none is a copy of another)
    items = [
        {
            "language": "rust",
            "code": source,
            "tests": [{"kind": "stdio", "stdin": f"{n} 1\n", "stdout": f"{n + 1}\n"}],
        }
        for n in range(6)
    ]
    results = post_code(code_url, items)
    assert [r["status"] for r in results] == ["passed"] * 6
    after = httpx.get(f"{code_url}/health").json()["domains"]["code"]["stats"]["compile_cache"]
    assert after["misses"] == before["misses"] + 1  # one compile
    assert after["hits"] + after["shared"] == before["hits"] + before["shared"] + 5
    (again,) = post_code(code_url, items[:1])  # a later batch: from the cache
    assert again["status"] == "passed"
    final = httpx.get(f"{code_url}/health").json()["domains"]["code"]["stats"]["compile_cache"]
    assert final["misses"] == after["misses"] and final["hits"] == after["hits"] + 1


async def test_a_sandbox_asks_again_for_an_artefact_it_does_not_hold(docker_engine: None) -> None:
    """The host sends a known artefact as its key alone; a container that does not hold it
    (new, or evicted) answers `missing_artefact` without running anything, and runs the item
    once the bytes come; later items of the program go as the key alone."""
    settings = CodeSettings()
    item = CodeItem(language="c", code=ADD["c"], tests=ADD_TESTS[:1])  # type: ignore[arg-type]
    job = build_job(item, ADD["c"], settings)
    backend = DockerBackend(settings.sandbox)
    sandbox = await backend.start()
    try:
        compiled = await sandbox.run({**job, "tests": [], "return_artefact": True}, 60)
        artefact = compiled["compile"]["artefact"]
        keyed = {**job, "artefact_key": "k1"}
        missing = await sandbox.run(keyed, 60)
        assert missing.get("missing_artefact") and missing["tests"] == [], missing
        full = await sandbox.run({**keyed, "artefact": artefact}, 60)
        assert full["tests"][0]["stdout"] == "5\n", full
        again = await sandbox.run(keyed, 60)  # no bytes: PID 1 kept them
        assert again["tests"][0]["stdout"] == "5\n" and not again.get("missing_artefact")
    finally:
        await backend.remove(sandbox)
        await backend.close()
