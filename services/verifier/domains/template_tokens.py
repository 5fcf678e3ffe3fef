"""Chat-template tokens around a completion: end-of-sequence tails and beginning-of-text heads.

Trainers that decode with special tokens kept (OpenRLHF's `SingleTurnAgentExecutor`, a raw
`tokenizer.decode`) hand us text like ```` ```\\n<|im_end|> ```` or `<s>prompt…`. Those tokens
are not the candidate's words; left in place they hide a closing fence or a boxed answer.
Both helpers look at a bounded window per token, so they are linear in the text.
"""

from __future__ import annotations

import re

# One special token: `<|im_end|>`, `<|eot_id|>`, `<|im_start|>user` (ChatML, Llama 3, Phi...),
# DeepSeek's full-width `<｜end▁of▁sentence｜>`, and the bracket-free spellings of SentencePiece
# and Gemma tokenizers (`</s>`, `<s>`, `<eos>`, `<bos>`, `<pad>`, `<end_of_turn>`, `<unk>`).
_SPECIAL = (
    r"<\|[A-Za-z0-9_.:\-▁ ]{1,48}\|>"
    r"|<｜[^｜<>\n]{1,48}｜>"
    r"|</?s>|<eos>|<bos>|<pad>|<unk>|<end_of_turn>|<start_of_turn>|\[PAD\]|\[SEP\]|\[CLS\]"
)
# At the end, a token may carry the role of the next turn (`<|im_start|>user`).
_TOKEN = re.compile(rf"(?:{_SPECIAL})\w{{0,16}}")
_HEAD_TOKEN = re.compile(_SPECIAL)
_WINDOW = 72
_MAX_TOKENS = 64


def strip_end_tokens(text: str) -> str:
    """`text` without trailing special tokens (and the whitespace between them).

    Only a tail made entirely of tokens is removed; text that merely ends in `>` is kept.
    """
    for _ in range(_MAX_TOKENS):
        stripped = text.rstrip()
        window = stripped[-_WINDOW:]
        base = len(stripped) - len(window)
        at = window.rfind("<")
        bracket = window.rfind("[")
        at = max(at, bracket)
        if at < 0 or not _TOKEN.fullmatch(window, at):
            return text
        text = stripped[: base + at]
    return text


def strip_start_tokens(text: str) -> str:
    """`text` without leading special tokens (a BOS such as `<s>` or `<|begin_of_text|>`)."""
    for _ in range(_MAX_TOKENS):
        stripped = text.lstrip()
        match = _HEAD_TOKEN.match(stripped[:_WINDOW])
        if match is None:
            return text
        text = stripped[match.end() :]
    return text
