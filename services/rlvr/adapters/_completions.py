"""The candidate's text from a completion in any of the shapes trainers use (pure functions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rlvr.schemas.template_tokens import strip_end_tokens


def content_text(content: Any) -> str:
    """A message's `content`: a string, or a list of blocks of which the text ones count."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and block.get("type", "text") == "text":
                parts.append(str(block.get("text", "")))
        return "".join(parts)
    return "" if content is None else str(content)


def completion_text(completion: Any) -> str:
    """Plain text of a completion: a string, one message, or a list of chat messages.

    For a conversation, the assistant messages are joined (TRL puts the generated turn in a
    one-message list); messages without a role count as the assistant's. Trailing
    chat-template tokens (`<|im_end|>`, `</s>`: a completion decoded with special tokens kept)
    are dropped: they are not the candidate's text and hide a closing fence.
    """
    return strip_end_tokens(_joined_text(completion))


def _joined_text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        return content_text(completion.get("content"))
    if isinstance(completion, list):
        texts = [
            content_text(m.get("content"))
            for m in completion
            if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"
        ]
        return "\n".join(texts)
    raise TypeError(f"unsupported completion type {type(completion).__name__}")
