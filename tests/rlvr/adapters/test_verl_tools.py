"""`rlvr.adapters.verl_tools.PythonSessionTool` loaded by verl's own tool registry from a YAML
config (verl 0.9.1, its real `BaseTool`, `ToolResponse` and loader), against the FAKE session
endpoints of `tests.support.session_fake`.

verl's `ToolAgentLoop` itself cannot be imported here (it needs hydra and the GPU stack, which
the `--no-deps` install leaves out), so `_stock_call` replays what its `_call_tool` does around
one tool call (verl/experimental/agent_loop/tool_agent_loop.py): `create(create_kwargs=...)`,
`execute(instance_id, args, agent_data=...)`, then `release(instance_id)` in a `finally`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.packages import require_packages
from tests.support.session_fake import FakeSessions, fake_session_service

require_packages("verl")

CONFIG = """\
tools:
  - class_name: rlvr.adapters.verl_tools.PythonSessionTool
    config:
      type: native
      base_url: {url}
      timeout_s: 10
      max_chars: 4000
      session_scope: {scope}
"""


@pytest.fixture
def fake() -> Iterator[tuple[str, FakeSessions]]:
    with fake_session_service() as served:
        yield served


def load_tool(tmp_path: Path, url: str, scope: str = "instance") -> Any:
    from verl.tools.tool_registry import initialize_tools_from_config

    path = tmp_path / "tools.yaml"
    path.write_text(CONFIG.format(url=url, scope=scope))
    (tool,) = initialize_tools_from_config(str(path))
    return tool


async def _stock_call(tool: Any, code: str, agent_data: Any) -> str:
    """One call as verl's stock ToolAgentLoop makes it: a fresh instance, released after."""
    instance_id, _ = await tool.create(create_kwargs={})
    try:
        response, reward, metrics = await tool.execute(
            instance_id, {"code": code}, agent_data=agent_data
        )
    finally:
        await tool.release(instance_id)
    assert reward == 0.0 and "status" in metrics
    return str(response.text)


def test_verl_loads_it_from_a_tool_config_with_the_python_schema(tmp_path, fake) -> None:
    from verl.tools.base_tool import BaseTool

    url, _ = fake
    tool = load_tool(tmp_path, url)
    assert isinstance(tool, BaseTool) and tool.name == "python"
    schema = tool.get_openai_tool_schema().model_dump()
    assert schema["function"]["parameters"]["required"] == ["code"]
    assert tool.session_options == {"timeout_s": 10}


def test_an_instance_keeps_its_state_across_calls_and_release_closes_it(tmp_path, fake) -> None:
    url, state = fake
    tool = load_tool(tmp_path, url)

    async def main() -> list[str]:
        instance_id, _ = await tool.create()
        texts = []
        for code in ("x = 20", "x += 22", "x"):
            response, _, _ = await tool.execute(instance_id, {"code": code})
            texts.append(response.text)
        await tool.release(instance_id)
        return texts

    assert asyncio.run(main()) == ["(no output)", "(no output)", "42"]
    assert state.opened == 1 and state.closed == 1 and state.sessions == {}


def test_the_stock_loop_gets_a_fresh_interpreter_per_call_in_instance_scope(tmp_path, fake) -> None:
    url, state = fake
    tool = load_tool(tmp_path, url, "instance")
    agent = SimpleNamespace(request_id="traj-1")

    async def main() -> tuple[str, str]:
        await _stock_call(tool, "x = 1", agent)
        return await _stock_call(tool, "x", agent), "done"

    second, _ = asyncio.run(main())
    assert "NameError" in second
    assert state.opened == 2 and state.sessions == {}


def test_trajectory_scope_keeps_state_across_the_stock_loops_calls(tmp_path, fake) -> None:
    url, state = fake
    tool = load_tool(tmp_path, url, "trajectory")
    first, second = SimpleNamespace(request_id="traj-1"), SimpleNamespace(request_id="traj-2")

    async def main() -> list[str]:
        await _stock_call(tool, "x = 'one'", first)
        await _stock_call(tool, "x = 'two'", second)
        return [await _stock_call(tool, "x", first), await _stock_call(tool, "x", second)]

    assert asyncio.run(main()) == ["'one'", "'two'"]
    assert state.opened == 2 and len(state.sessions) == 2  # closed by idleness, not release
    assert tool.session_options["idle_ttl_s"] == 120.0


def test_a_lost_session_is_text_and_the_next_call_is_fresh(tmp_path, fake) -> None:
    url, state = fake
    tool = load_tool(tmp_path, url)

    async def main() -> list[str]:
        instance_id, _ = await tool.create()
        await tool.execute(instance_id, {"code": "v = 1"})
        state.lose(next(iter(state.sessions)))
        texts = [(await tool.execute(instance_id, {"code": "v"}))[0].text for _ in range(2)]
        await tool.release(instance_id)
        return texts

    lost, fresh = asyncio.run(main())
    assert "session was lost" in lost
    assert "fresh interpreter" in fresh and "NameError" in fresh


def test_an_unreachable_service_and_bad_arguments_are_text_not_exceptions(tmp_path) -> None:
    from rlvr.client import RetryPolicy

    tool = load_tool(tmp_path, "http://127.0.0.1:9")
    tool.session_options = {}

    async def main() -> tuple[str, str]:
        instance_id, _ = await tool.create()
        bad = (await tool.execute(instance_id, {"code": 7}))[0].text
        tool._client_options["retry"] = RetryPolicy(max_attempts=1)
        down = (await tool.execute(instance_id, {"code": "1"}))[0].text
        await tool.release(instance_id)
        return bad, down

    bad, down = asyncio.run(main())
    assert "must be a string" in bad
    assert down.startswith("Error: the Python sandbox is unavailable")


def test_a_samples_create_kwargs_set_up_its_session(tmp_path, fake) -> None:
    url, _ = fake
    tool = load_tool(tmp_path, url)

    async def main() -> str:
        instance_id, _ = await tool.create(create_kwargs={"setup_code": "base = 40"})
        response, _, _ = await tool.execute(instance_id, {"code": "base + 2"})
        await tool.release(instance_id)
        return str(response.text)

    assert asyncio.run(main()) == "42"
