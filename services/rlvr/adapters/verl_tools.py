"""verl tools backed by the service: `PythonSessionTool`, a persistent Python interpreter per
tool instance (a session, `POST /sessions`), for verl's multi-turn agent loop.

Declared in a verl tool config (`actor_rollout_ref.rollout.multi_turn.tool_config_path`):

    tools:
      - class_name: rlvr.adapters.verl_tools.PythonSessionTool
        config:
          type: native
          base_url: http://127.0.0.1:8000      # default: $VERIFIER_URL
          timeout_s: 10                         # per cell; also memory_mb, idle_ttl_s, ...
          max_chars: 4000
          session_scope: instance               # or: trajectory

verl's `BaseTool` life cycle is `create` -> `execute`... -> `release` per instance id; this tool
opens a session on the first `execute` of an instance and closes it on `release`. verl's stock
`ToolAgentLoop` creates and releases an instance around every single call, so with it each call
would get a fresh interpreter: `session_scope: trajectory` keys the session on the trajectory
(`agent_data.request_id`, which verl passes to `execute`) instead, keeps it across the
trajectory's calls, and leaves its closing to idleness (`idle_ttl_s`, default 120 s here: the
stock loop has no end-of-trajectory hook). An agent loop of your own that keeps its instance id
for the whole trajectory needs neither: the default `instance` scope then does it exactly.

Importing this module imports verl (it subclasses verl's `BaseTool`); `rlvr.adapters.verl`
(rewards) does not.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

from verl.tools.base_tool import BaseTool
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

from rlvr.adapters._cells import DEFAULT_MAX_CHARS, RESTARTED, cell_text
from rlvr.client import AsyncSession, AsyncVerifierClient, ConfigurationError, VerifierClientError

log = logging.getLogger(__name__)

SESSION_OPTIONS = ("memory_mb", "timeout_s", "idle_ttl_s", "max_lifetime_s", "setup_code")
SCOPES = ("instance", "trajectory")
TRAJECTORY_IDLE_TTL_S = 120.0

DEFAULT_SCHEMA = {
    "type": "function",
    "function": {
        "name": "python",
        "description": (
            "Run Python code in a persistent interpreter and return what it shows. Variables, "
            "functions and imports from earlier calls stay defined, as in a notebook; the value "
            "of the last line is shown if it is an expression. Standard library only, no "
            "network; time and memory are limited."
        ),
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "description": "Python statements to run."}},
            "required": ["code"],
        },
    },
}


@dataclass
class _Slot:
    """A session held for one key (an instance id, or a trajectory's request id)."""

    session: AsyncSession | None = None
    last_used: float = 0.0
    has_ended: bool = False  # a session of this key ended: the next call says it is fresh


class PythonSessionTool(BaseTool):
    """A Python interpreter that keeps its state across calls (see the module docstring)."""

    def __init__(self, config: dict[str, Any], tool_schema: OpenAIFunctionToolSchema | None):
        self.scope = str(config.get("session_scope", "instance"))
        if self.scope not in SCOPES:
            raise ConfigurationError(f"session_scope must be one of {SCOPES}, not {self.scope!r}")
        self.max_chars = int(config.get("max_chars", DEFAULT_MAX_CHARS))
        options = {k: config[k] for k in SESSION_OPTIONS if config.get(k) is not None}
        if self.scope == "trajectory":
            options.setdefault("idle_ttl_s", TRAJECTORY_IDLE_TTL_S)
        self.session_options = options
        self._client_options = {
            "base_url": config.get("base_url"),
            "api_key": config.get("api_key"),
        }
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncVerifierClient]
        self._clients = weakref.WeakKeyDictionary()
        self._slots: dict[str, _Slot] = {}
        self._instances: dict[str, dict[str, Any]] = {}
        super().__init__(config, tool_schema or self.get_openai_tool_schema())

    def get_openai_tool_schema(self) -> OpenAIFunctionToolSchema:
        # verl's BaseTool asks for this before `self.tool_schema` exists when the config has none
        schema = getattr(self, "tool_schema", None)
        return schema or OpenAIFunctionToolSchema.model_validate(DEFAULT_SCHEMA)

    async def create(
        self, instance_id: str | None = None, **kwargs: Any
    ) -> tuple[str, ToolResponse]:
        """A new instance; its session is opened on its first `execute` (an instance that is
        never executed costs nothing on the service), with the `setup_code` and `files` of
        `create_kwargs` (verl passes a sample's `tools_kwargs[name]["create_kwargs"]`)."""
        instance_id = instance_id or str(uuid4())
        self._instances[instance_id] = dict(kwargs.get("create_kwargs") or {})
        return instance_id, ToolResponse()

    async def execute(
        self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
    ) -> tuple[ToolResponse, float, dict[str, Any]]:
        """Run `parameters["code"]` in the instance's (or the trajectory's) session; the text is
        what the model sees, the metrics say how the cell ended. Never raises for the cell's or
        the service's faults: a rollout goes on with the error as text."""
        code = parameters.get("code")
        if not isinstance(code, str):
            return ToolResponse(text="Error: `code` must be a string of Python."), 0.0, {}
        key = self._key(instance_id, kwargs.get("agent_data"))
        slot = self._slots.setdefault(key, _Slot())
        slot.last_used = time.monotonic()
        notice = ""
        try:
            if slot.session is None or not slot.session.is_alive:
                if slot.session is not None:
                    await slot.session.close()
                    slot.has_ended = True
                slot.session = await self._client().session(**self._options_for(instance_id))
                notice = RESTARTED + "\n" if slot.has_ended else ""
            result = await slot.session.run(code)
        except VerifierClientError as exc:
            log.warning("python tool: %s", exc)
            text = f"Error: the Python sandbox is unavailable ({type(exc).__name__}: {exc})."
            return ToolResponse(text=text), 0.0, {"status": "unavailable"}
        text = notice + cell_text(result, max(80, self.max_chars - len(notice)))
        metrics = {"status": result.status.value, "elapsed_s": result.elapsed_s}
        await self._sweep()
        return ToolResponse(text=text), 0.0, metrics

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """No reward of its own: the answer is judged by the reward function (`/verify`)."""
        return 0.0

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Close the instance's session (`instance` scope); a trajectory's session outlives the
        instance and closes when idle."""
        self._instances.pop(instance_id, None)
        if self.scope == "instance":
            slot = self._slots.pop(instance_id, None)
            if slot is not None and slot.session is not None:
                await slot.session.close()

    def _options_for(self, instance_id: str) -> dict[str, Any]:
        """The tool's session options, with the sample's own `setup_code` or `files` when its
        `tools_kwargs` gave them (`create_kwargs`: e.g. the data a problem's code should read)."""
        sample = self._instances.get(instance_id, {})
        extra = {k: sample[k] for k in ("setup_code", "files") if sample.get(k) is not None}
        return {**self.session_options, **extra}

    def _key(self, instance_id: str, agent_data: Any) -> str:
        if self.scope == "trajectory":
            request_id = getattr(agent_data, "request_id", None)
            if request_id:
                return f"trajectory:{request_id}"
        return instance_id

    def _client(self) -> AsyncVerifierClient:
        """One async client per event loop (an httpx async client is bound to its loop)."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._clients[loop] = AsyncVerifierClient(**self._client_options)
        return client

    async def _sweep(self) -> None:
        """Forget (and close) trajectory sessions idle past their TTL: the stock agent loop never
        says when a trajectory ends."""
        if self.scope != "trajectory":
            return
        ttl_s = float(self.session_options.get("idle_ttl_s", TRAJECTORY_IDLE_TTL_S))
        now = time.monotonic()
        for key in [k for k, s in self._slots.items() if now - s.last_used > ttl_s]:
            slot = self._slots.pop(key)
            if slot.session is not None:
                await slot.session.close()
