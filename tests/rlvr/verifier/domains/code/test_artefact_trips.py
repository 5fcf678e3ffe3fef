"""How a compiled program reaches a container, counted on real containers: compiled once, kept by
the container that compiled it, and never sent back into the container that holds it."""

from __future__ import annotations

from typing import Any

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.verifier import open_code_verifier
from rlvr.verifier.sandbox.host.docker import DockerBackend
from tests.support.docker_engine import sandbox_settings

pytestmark = [pytest.mark.docker]

C_PROGRAM = '#include <stdio.h>\nint main(void){int x; scanf("%d",&x); printf("%d\\n",2*x);}\n'


def c_item(n: int) -> CodeItem:
    return CodeItem.model_validate(
        {
            "id": f"c{n}",
            "language": "c",
            "code": C_PROGRAM,
            "tests": [{"kind": "stdio", "stdin": str(n), "stdout": str(2 * n)}],
        }
    )


class CountingBackend(DockerBackend):
    """The real backend; every job a container is sent and its answer are recorded."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    async def start(self) -> Any:
        sandbox = await super().start()
        run = sandbox.run

        async def counted(job: Any, timeout_s: float) -> Any:
            result = await run(job, timeout_s)
            self.sent.append((sandbox.name, dict(job), dict(result)))
            return result

        sandbox.run = counted  # type: ignore[method-assign]
        return sandbox


def one_container() -> tuple[CodeSettings, CountingBackend]:
    """A pool of one container, without verdict reuse (every item runs)."""
    settings = CodeSettings.model_validate(
        {"pool_size": 1, "is_dedup_enabled": False, "sandbox": {"label": "artefact-trips"}}
    )
    return settings, CountingBackend(sandbox_settings(label="artefact-trips"))


async def test_a_compiled_program_crosses_the_stream_once_per_container(
    docker_engine: None,
) -> None:
    settings, backend = one_container()
    async with open_code_verifier(settings, backend) as verifier:
        for n in range(1, 5):
            [result] = await verifier.verify_batch([c_item(n)])
            assert result.status is Status.passed, result
        stats = verifier.health().stats
    jobs = [job for _, job, _ in backend.sent]
    assert len(jobs) == 5  # one compile, four runs: no missing_artefact round trip
    assert jobs[0]["return_artefact"] and jobs[0]["artefact_key"]
    assert not any("artefact" in job for job in jobs)  # the bytes never went back in
    assert {job["artefact_key"] for job in jobs} == {jobs[0]["artefact_key"]}
    assert not any(result.get("missing_artefact") for _, _, result in backend.sent)
    assert stats["artefacts"] == {"with_bytes": 0, "by_key": 4, "missing": 0}


async def test_a_container_that_no_longer_holds_it_gets_the_bytes_without_a_round_trip(
    docker_engine: None,
) -> None:
    # 20 programs through one container: more than it keeps; the first one again
    settings, backend = one_container()
    programs = [C_PROGRAM.replace("2*x", f"2*x+{k}-{k}") for k in range(20)]
    async with open_code_verifier(settings, backend) as verifier:
        for code in [*programs, programs[0]]:
            item = c_item(3).model_copy(update={"code": code})
            [result] = await verifier.verify_batch([item])
            assert result.status is Status.passed, result
        stats = verifier.health().stats["artefacts"]
    assert not any(result.get("missing_artefact") for _, _, result in backend.sent)
    assert stats["missing"] == 0
    kept = backend.sent[-1][2]["artefact_keys"]
    assert 1 <= len(kept) < 20  # PID 1 bounds what it keeps; the host followed its list


@pytest.mark.parametrize("kept", [0, 2])
async def test_a_container_keeps_as_many_artefacts_as_the_settings_say(
    docker_engine: None, kept: int
) -> None:
    # one number, the host's setting, sent to PID 1 at its start; the host follows its reports
    label = "artefact-trips"
    settings = CodeSettings.model_validate(
        {"pool_size": 1, "is_dedup_enabled": False,
         "sandbox": {"label": label, "kept_artefacts": kept}}
    )  # fmt: skip
    backend = CountingBackend(sandbox_settings(label=label, kept_artefacts=kept))
    programs = [C_PROGRAM.replace("2*x", f"2*x+{k}-{k}") for k in range(3)]
    async with open_code_verifier(settings, backend) as verifier:
        for n, code in enumerate(programs * 2):  # other inputs: no verdict copied from a cache
            item = c_item(n).model_copy(update={"code": code})
            [result] = await verifier.verify_batch([item])
            assert result.status is Status.passed, result
        stats = verifier.health().stats["artefacts"]
    held = [result["artefact_keys"] for _, _, result in backend.sent]
    assert max(len(keys) for keys in held) == kept
    assert stats["missing"] == 0  # never sent by key to a container that dropped it
    if kept == 0:
        assert stats["by_key"] == 0 and stats["with_bytes"] == 6
    else:
        assert stats["by_key"] >= 1
