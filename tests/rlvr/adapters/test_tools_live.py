"""The session tools against the real service (uvicorn + the Docker sandbox): TRL's
`PythonSandbox` and verl's `PythonSessionTool`, loaded by verl's registry. Needs the session
endpoints of issue 23 on the server; the adapters' logic on a fake is `test_trl_sandbox.py`'s
and `test_verl_tools.py`'s."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rlvr.adapters.trl import PythonSandbox
from tests.support.packages import require_packages
from tests.support.server import service_fixture

pytestmark = [pytest.mark.docker]

sessions_url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_MATH__WORKERS": "1"}, needs_docker=True
)


def test_python_sandbox_keeps_state_per_rollout_and_says_when_a_cell_ended_it(
    sessions_url: str,
) -> None:
    env = PythonSandbox.configured(base_url=sessions_url, timeout_s=2)()
    env.reset()
    assert env.python("total = sum(range(10))\nprint(total)") == "45"
    assert env.python("total * 2") == "90"
    stopped = env.python("while True: pass")
    assert "time limit" in stopped and "variables are gone" in stopped
    fresh = env.python("'total' in globals()")
    assert "fresh interpreter" in fresh and fresh.endswith("False")
    env.reset()
    assert "NameError" in env.python("total")


def test_verl_tool_from_its_registry_runs_cells_in_one_session(
    sessions_url: str, tmp_path: Path
) -> None:
    require_packages("verl")
    from verl.tools.tool_registry import initialize_tools_from_config

    config = tmp_path / "tools.yaml"
    config.write_text(
        "tools:\n  - class_name: rlvr.adapters.verl_tools.PythonSessionTool\n"
        f"    config:\n      type: native\n      base_url: {sessions_url}\n      timeout_s: 5\n"
    )
    (tool,) = initialize_tools_from_config(str(config))

    async def main() -> list[str]:
        instance_id, _ = await tool.create()
        texts = [
            (await tool.execute(instance_id, {"code": c}))[0].text for c in ("a = 2", "a ** 10")
        ]
        await tool.release(instance_id)
        return texts

    assert asyncio.run(main()) == ["(no output)", "1024"]
