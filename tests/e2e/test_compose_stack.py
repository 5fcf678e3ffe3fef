"""`docker compose up` for real: the verifier container answers /math, /code and /verify from the
host, its sandboxes are siblings on the host engine, the CPU trainer container trains against it,
the production override demands an API key, and `compose down` leaves nothing behind.

The tests run in file order against one compose project (module-scoped `stack`).
"""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.support.compose import ComposeProject, docker_lines
from tests.support.http import verdicts

pytestmark = [pytest.mark.e2e, pytest.mark.docker, pytest.mark.slow, pytest.mark.timeout(1800)]

ADD = "def add(a, b):\n    return a + b\n"
ADD_TESTS = [
    {"kind": "assert", "code": "assert add(1, 2) == 3"},
    {"kind": "call", "fn": "add", "args": [2, 5], "expected": 7},
]
GRPO_STEPS = 2
GENERATIONS = 4


def url(stack: ComposeProject, path: str) -> str:
    return f"http://127.0.0.1:{stack.port}{path}"


def post_to_stack(
    stack: ComposeProject, path: str, items: list[dict], headers: dict[str, str] | None = None
) -> list[dict]:
    return verdicts(url(stack, ""), path, items, timeout_s=120, headers=headers)


def test_verifier_comes_up_healthy_non_root_on_loopback(stack: ComposeProject) -> None:
    started = time.monotonic()
    stack.run("up", "-d", "--no-build", "verifier", timeout_s=300)
    container = stack.wait_healthy("verifier")
    print(f"\nverifier healthy {time.monotonic() - started:.1f}s after `up`")
    user, binding, read_only, cap_drop = docker_lines(
        "inspect",
        "-f",
        "{{.Config.User}}\n{{json .HostConfig.PortBindings}}\n{{.HostConfig.ReadonlyRootfs}}\n"
        "{{json .HostConfig.CapDrop}}",
        container,
    )
    assert user == "10001:10001"
    assert read_only == "true"
    assert json.loads(cap_drop) == ["ALL"]
    assert json.loads(binding)["8000/tcp"] == [{"HostIp": "127.0.0.1", "HostPort": str(stack.port)}]
    health = httpx.get(url(stack, "/health"), timeout=10).json()
    assert health["domains"]["math"]["ok"] is True
    assert health["domains"]["code"]["ok"] is True, health["domains"]["code"]
    # No Lean toolchain in this build (RLVR_INSTALL_LEAN=false): /health must say so, not lie.
    assert health["domains"]["lean"]["ok"] is False
    assert health["domains"]["lean"]["offered"] is False
    assert health["status"] == "ok"  # a domain not offered is not a degradation


def test_math_verdicts_from_the_host(stack: ComposeProject) -> None:
    results = post_to_stack(
        stack,
        "/math",
        [
            {"id": "half", "response": "So \\boxed{\\frac{1}{2}}.", "answer": "0.5"},
            {"id": "wrong", "response": "The answer is \\boxed{7}.", "answer": "8"},
        ],
    )
    assert [(r["id"], r["status"], r["reward"]) for r in results] == [
        ("half", "passed", 1.0),
        ("wrong", "failed", 0.0),
    ]


def test_code_runs_in_sibling_sandboxes_that_see_no_socket(stack: ComposeProject) -> None:
    results = post_to_stack(
        stack,
        "/code",
        [
            {"id": "ok", "code": ADD, "language": "python", "tests": ADD_TESTS},
            {
                "id": "off-by-one",
                "code": ADD.replace("a + b", "a + b + 1"),
                "language": "python",
                "tests": ADD_TESTS,
            },
            {
                "id": "exit-0",
                "code": "import os\nos._exit(0)\n",
                "language": "python",
                "tests": ADD_TESTS,
            },
            {
                "id": "cpp",
                "code": '#include <cstdio>\nint main(){int a,b;scanf("%d %d",&a,&b);'
                'printf("%d\\n",a+b);}',
                "language": "cpp",
                "tests": [{"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"}],
            },
        ],
    )
    verdicts = {r["id"]: (r["status"], r["reward"]) for r in results}
    assert verdicts["ok"] == ("passed", 1.0)
    assert verdicts["off-by-one"] == ("failed", 0.0)
    assert verdicts["exit-0"][1] == 0.0
    assert verdicts["cpp"] == ("passed", 1.0)
    sandboxes = docker_lines("ps", "-q", "--filter", f"label=rlvr.pool={stack.name}")
    assert sandboxes, "the pool's sandboxes should be running as siblings on the host engine"
    for sandbox in sandboxes:
        mounts, network, privileged = docker_lines(
            "inspect",
            "-f",
            "{{json .Mounts}}\n{{.HostConfig.NetworkMode}}\n{{.HostConfig.Privileged}}",
            sandbox,
        )
        assert json.loads(mounts) == [], "nothing from the host (least of all the socket)"
        assert network == "none"
        assert privileged == "false"


def test_mixed_batch_through_verify(stack: ComposeProject) -> None:
    results = post_to_stack(
        stack,
        "/verify",
        [
            {"domain": "math", "response": "\\boxed{42}", "answer": "42"},
            {"domain": "code", "code": ADD, "language": "python", "tests": ADD_TESTS},
            {"domain": "math", "response": "\\boxed{41}", "answer": "42"},
        ],
    )
    assert [(r["domain"], r["status"], r["reward"]) for r in results] == [
        ("math", "passed", 1.0),
        ("code", "passed", 1.0),
        ("math", "failed", 0.0),
    ]


def test_lean_without_a_toolchain_is_an_error_for_every_item(stack: ComposeProject) -> None:
    """This image has no Lean (RLVR_INSTALL_LEAN=false): every item is the verifier's own `error`
    (reward null, so a trainer drops it), a forbidden construct included: the "Lean unavailable"
    answer comes before any pre-check work (issue 21, item 15), and `/health` says Lean is not
    offered rather than degraded."""
    statement = "theorem two : 1 + 1 = 2"
    results = post_to_stack(
        stack,
        "/lean",
        [
            {"id": "honest", "statement": statement, "proof": "rfl"},
            {"id": "exit", "statement": statement, "proof": "by\n  #exit"},
        ],
    )
    verdicts = {r["id"]: r for r in results}
    for item_id in ("honest", "exit"):
        assert verdicts[item_id]["status"] == "error" and verdicts[item_id]["reward"] is None
        assert "no Lean toolchain" in verdicts[item_id]["detail"]


def test_cpu_trainer_container_trains_against_the_verifier(stack: ComposeProject) -> None:
    started = time.monotonic()
    result = stack.run(
        "--profile", "cpu", "run", "--rm", "-T", "trainer-cpu",
        "rlvr-train", "grpo", "--model_name_or_path", "tiny",
        "--datasets", "gym:basic_arithmetic", "--dataset_size", "16", "--eval_size", "0",
        "--max_steps", str(GRPO_STEPS), "--per_device_train_batch_size", str(GENERATIONS),
        "--num_generations", str(GENERATIONS), "--max_completion_length", "16",
        "--reward_funcs", "verify", "format", "--logging_steps", "1", "--save_strategy", "no",
        "--report_to", "none", "--output_dir", "/outputs/grpo",
        timeout_s=900,
    )  # fmt: skip
    print(f"\ntrainer: {GRPO_STEPS} GRPO steps in {time.monotonic() - started:.1f}s (with startup)")
    metrics = stack.run(
        "--profile", "cpu", "run", "--rm", "-T", "--no-deps", "trainer-cpu",
        "cat", "/outputs/grpo/metrics.jsonl",
    ).stdout  # fmt: skip
    steps = [json.loads(line) for line in metrics.splitlines() if line.startswith("{")]
    logged = [s for s in steps if "verify_reward/failed" in s]
    assert len(logged) == GRPO_STEPS, result.stdout[-3000:]
    for step in logged:
        judged = sum(step[f"verify_reward/{s}"] for s in ("passed", "failed", "timed_out"))
        # Every completion got a verdict from the verifier container, none an error.
        assert judged == GENERATIONS
        assert step["verify_reward/error"] == 0


def test_production_override_requires_an_api_key(stack: ComposeProject) -> None:
    prod = ["docker-compose.yml", "docker-compose.prod.yml"]
    refused = stack.run("config", "-q", files=prod, check=False)
    assert refused.returncode != 0
    assert "VERIFIER_API_KEY" in refused.stdout + refused.stderr
    key = {"VERIFIER_API_KEY": "e2e-secret-key"}
    stack.run("up", "-d", "--no-build", "verifier", files=prod, extra_env=key, timeout_s=300)
    stack.wait_healthy("verifier")
    item = [{"response": "\\boxed{3}", "answer": "3"}]
    anonymous = httpx.post(url(stack, "/math"), json={"items": item}, timeout=60)
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "unauthorized"
    results = post_to_stack(stack, "/math", item, headers={"X-API-Key": key["VERIFIER_API_KEY"]})
    assert results[0]["status"] == "passed"


def test_compose_down_leaves_no_container_or_sandbox(stack: ComposeProject) -> None:
    assert docker_lines("ps", "-q", "--filter", f"label=rlvr.pool={stack.name}")
    started = time.monotonic()
    stack.run("--profile", "cpu", "down", "-v", "-t", "30", timeout_s=180)
    print(f"\ncompose down {time.monotonic() - started:.1f}s")
    assert stack.leftovers() == {"containers": [], "sandboxes": [], "networks": [], "volumes": []}
