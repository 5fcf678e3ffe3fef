"""Tools the policy may call during GRPO (`rlvr-train grpo --tools python`), on TRL's own tool
loop: the environment for `GRPOTrainer(environment_factory=...)`, a chat template TRL can parse
tool calls from, and a preflight that opens one session before any model loads.

Chat template: TRL reads a tool call out of the generated text with a response parser it ships
for a fixed list of chat templates, matched by exact text (`trl.chat_template_utils.
add_response_schema`). A tokenizer whose own template is on that list keeps it. Any other gets
TRL's copy of Qwen2.5's template: ChatML turns (`<|im_start|>role ... <|im_end|>`, SmolLM2's
own turn format and special tokens, so its prompts tokenize as before), the tool schemas in the
system turn, and calls written as `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`:
JSON arguments, which TRL parses without guessing types, and the format most open
tool-calling models were trained on.
"""

from __future__ import annotations

from typing import Any

from rlvr_train.errors import UsageError

TOOL_NAMES = ("python",)


def check_tools(names: list[str]) -> list[str]:
    unknown = [name for name in names if name not in TOOL_NAMES]
    if unknown:
        raise UsageError(f"unknown tool(s) {unknown}; --tools takes {', '.join(TOOL_NAMES)}")
    return list(dict.fromkeys(names))


def environment_factory(
    url: str | None, timeout_s: float, memory_mb: int | None, max_chars: int
) -> Any:
    """`PythonSandbox` configured for this run (TRL instantiates it with no arguments)."""
    from rlvr.adapters.trl import PythonSandbox

    return PythonSandbox.configured(
        base_url=url, timeout_s=timeout_s, memory_mb=memory_mb, max_chars=max_chars
    )


def tool_chat_template() -> str:
    from trl.chat_template_utils import qwen2_5_chat_template

    return str(qwen2_5_chat_template)


def can_parse_tool_calls(tokenizer: Any) -> bool:
    """Whether TRL has a response parser for this tokenizer's chat template (or it has its own)."""
    import copy

    from trl.chat_template_utils import add_response_schema

    if getattr(tokenizer, "response_template", None) or getattr(tokenizer, "response_schema", None):
        return True
    try:
        add_response_schema(copy.copy(tokenizer))
    except ValueError:
        return False
    return True


def with_tool_template(tokenizer: Any) -> tuple[Any, bool]:
    """(tokenizer, whether its template was replaced): TRL's Qwen2.5 template when TRL cannot
    parse tool calls from the tokenizer's own (see the module docstring)."""
    if can_parse_tool_calls(tokenizer):
        return tokenizer, False
    tokenizer.chat_template = tool_chat_template()
    return tokenizer, True


def preflight_tools(url: str | None) -> str:
    """Open a session, run a cell, close it: the tool service works before a model loads."""
    from rlvr.client import VerifierClient, VerifierClientError

    try:
        with VerifierClient(url) as client, client.session() as session:
            result = session.run("6 * 7")
    except VerifierClientError as exc:
        raise UsageError(f"--tools python: cannot open a Python session: {exc}") from exc
    if result.value != "42":
        raise UsageError(
            f"--tools python: a session at {session.url} answered {result.status.value}: "
            f"{result.error or result.value}"
        )
    return f"tools: python sessions at {session.url} answer"
