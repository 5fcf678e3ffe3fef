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


def _end_of_text(text: str, end: int) -> int:
    """`end` moved back over trailing whitespace (C-speed, a window at a time)."""
    while end:
        chunk = text[max(0, end - 4096) : end]
        stripped = chunk.rstrip()
        end -= len(chunk) - len(stripped)
        if stripped:
            return end
    return 0


def strip_end_tokens(text: str) -> str:
    """`text` without trailing special tokens (and the whitespace between them).

    Only a tail made entirely of tokens is removed; text that merely ends in `>` is kept. Works
    on an end index (no copy per token), so a tail of a million padding tokens stays linear.
    """
    end = len(text)
    cut = end
    while True:
        end = _end_of_text(text, end)
        window_start = max(0, end - _WINDOW)
        at = max(text.rfind("<", window_start, end), text.rfind("[", window_start, end))
        if at < 0 or not _TOKEN.fullmatch(text, at, end):
            return text[:cut]
        end = cut = at


def strip_start_token(text: str) -> str:
    """`text` without its first special token (and whitespace around it), if it starts with one."""
    start = len(text) - len(text.lstrip())
    match = _HEAD_TOKEN.match(text, start, start + _WINDOW)
    return text if match is None else text[match.end() :]
