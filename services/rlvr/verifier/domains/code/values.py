"""Compare a candidate's encoded return value with the expected one without rebuilding it.

The candidate controls the bytes of its reply (the sandbox only caps their number), so the host
never turns them into Python sets, dicts or big ints: hashing a million ints that all hash alike
took 10 s of C code holding the GIL, `repr` of `10**5000` raises, `float(10**400)` overflows.
Instead the reply is parsed as JSON (linear, C) and walked side by side with the expected value,
which is plain JSON from the request: the walk follows the expected shape, checks lengths before
looking inside, never hashes a candidate's value, and converts an encoded big int only when it
has no more digits than the expected int. So the work is bounded by the expected value's size
plus one JSON parse of at most `MAX_REPLY_CHARS`. What cannot match is a failure, never an error.

The wire format is `services/rlvr/verifier/sandbox/wire/codec.py`'s (`encode_value` in the sandbox).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

_TAG = "$t"
MAX_REPLY_CHARS = 4 << 20  # above the sandbox's per-session reply cap: a bound, not a policy
MAX_REPLY_DEPTH = 200  # the encoder's own limit (codec._MAX_DEPTH)
_PREVIEW_DEPTH = 12


class ReplyError(ValueError):
    """The reply is not a value the codec could have written (the candidate forged it)."""


def parse_reply(text: str) -> Any:
    """The reply's JSON tree (tags kept); raises ReplyError when it is not JSON or too big/deep.

    `json.loads` refuses decimal ints over 4,300 digits (the encoder writes those in hex) and
    nesting beyond the recursion limit; both are forged replies, hence ReplyError.
    """
    if len(text) > MAX_REPLY_CHARS:
        raise ReplyError(f"reply over {MAX_REPLY_CHARS} characters")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReplyError(f"not a encoded value: {str(exc)[:100]}") from exc


def _tagged(tree: Any, *tags: str) -> Any:
    """The body of `{"$t": tag, "v": body}` when the tag is one of `tags`, else None."""
    if type(tree) is dict and len(tree) == 2 and tree.get(_TAG) in tags and "v" in tree:
        return tree["v"]
    return None


def _as_int(tree: Any, limit_bits: int) -> int | None:
    """A plain or hex-encoded int from the tree; None if it is not one or exceeds `limit_bits`."""
    if type(tree) is int:
        return tree
    body = _tagged(tree, "int")
    if type(body) is not str or len(body) > limit_bits // 4 + 4:
        return None
    try:
        return int(body, 16)
    except ValueError:
        return None


def numbers_close(expected: float | int, got: float | int, tolerance: float) -> bool:
    """Exact for infinities and NaN (they never match a finite number); else absolute-or-relative
    within `tolerance`, computed exactly for ints (no float overflow, no lost digits)."""
    if isinstance(expected, float) and not math.isfinite(expected):
        return isinstance(got, float) and (
            (math.isnan(expected) and math.isnan(got)) or expected == got
        )
    if isinstance(got, float) and not math.isfinite(got):
        return False
    if expected == got:
        return True
    if tolerance <= 0:
        return False
    exact_e, exact_g = Fraction(expected), Fraction(got)
    scale = max(Fraction(1), abs(exact_e))
    return abs(exact_e - exact_g) <= Fraction(tolerance) * scale


def tree_matches(expected: Any, tree: Any, tolerance: float | None = None, depth: int = 0) -> bool:
    """JSON-typed equality of `expected` and an encoded reply: tuple ~ list, bool is not a
    number, an expected int needs an int, an expected float takes an int or float."""
    if depth > MAX_REPLY_DEPTH:
        return False
    if expected is None or isinstance(expected, bool | str):
        return type(tree) is type(expected) and tree == expected
    if isinstance(expected, int):
        got = _as_int(tree, expected.bit_length() + 8)
        return got is not None and got == expected
    if isinstance(expected, float):
        if type(tree) is float:
            return numbers_close(expected, tree, tolerance or 0.0)
        # an int more than ~2**1100 is never within any sane tolerance of a float
        got = _as_int(tree, 1100 + int(math.log2(1 + (tolerance or 0.0))))
        return got is not None and numbers_close(expected, got, tolerance or 0.0)
    if isinstance(expected, list | tuple):
        items = tree if type(tree) is list else _tagged(tree, "tuple")
        return (
            type(items) is list
            and len(items) == len(expected)
            and all(
                tree_matches(e, g, tolerance, depth + 1)
                for e, g in zip(expected, items, strict=True)
            )
        )
    if isinstance(expected, dict):
        return _dict_matches(expected, _tagged(tree, "dict"), tolerance, depth)
    return False


def _dict_matches(
    expected: dict[Any, Any], pairs: Any, tolerance: float | None, depth: int
) -> bool:
    """Same keys (each once) and matching values. Keys are looked up in `expected`, never hashed
    into a container of the candidate's making."""
    if type(pairs) is not list or len(pairs) != len(expected):
        return False
    seen: set[str] = set()
    for pair in pairs:
        if type(pair) is not list or len(pair) != 2:
            return False
        key, value = pair
        if type(key) is not str or key not in expected:  # JSON objects have str keys only
            return False
        if key in seen:  # at most len(expected) keys, all equal to expected's own keys
            return False
        seen.add(key)
        if not tree_matches(expected[key], value, tolerance, depth + 1):
            return False
    return True


# ---------------------------------------------------------------- bounded rendering


def preview(tree: Any, limit: int = 200) -> str:
    """A short, Python-like rendering of an encoded value; never more than ~`limit` characters
    of work, whatever the value's size (a huge int is shown by its digit count)."""
    parts: list[str] = []
    budget = [limit]
    _render(tree, parts, budget, 0, plain=False)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _emit(parts: list[str], budget: list[int], text: str) -> None:
    parts.append(text[: max(budget[0], 0) + 1])
    budget[0] -= len(text)


def _render(tree: Any, parts: list[str], budget: list[int], depth: int, plain: bool) -> None:
    if budget[0] < 0:
        return
    if depth > _PREVIEW_DEPTH:
        _emit(parts, budget, "…")
        return
    kind = type(tree)
    if kind is str:
        _emit(parts, budget, repr(tree[: budget[0] + 2]))
    elif kind is int:
        text = repr(tree) if abs(tree) < 10**60 else f"<int of {tree.bit_length()} bits>"
        _emit(parts, budget, text)
    elif tree is None or kind in (bool, float):
        _emit(parts, budget, repr(tree))
    elif kind is list or (plain and kind is tuple):
        _render_items("[", tree, "]", parts, budget, depth, plain)
    elif plain and kind is dict:
        _render_pairs([list(pair) for pair in tree.items()], parts, budget, depth, plain)
    elif kind is dict and len(tree) == 2 and "v" in tree:
        _render_tagged(tree[_TAG], tree["v"], parts, budget, depth)
    else:
        _emit(parts, budget, "<malformed>")


def _render_items(
    open_: str,
    items: Any,
    close: str,
    parts: list[str],
    budget: list[int],
    depth: int,
    plain: bool = False,
) -> None:
    _emit(parts, budget, open_)
    for index, item in enumerate(items):
        if budget[0] < 0:
            return
        if index:
            _emit(parts, budget, ", ")
        _render(item, parts, budget, depth + 1, plain)
    _emit(parts, budget, close)


def _render_pairs(
    pairs: list[Any], parts: list[str], budget: list[int], depth: int, plain: bool
) -> None:
    _emit(parts, budget, "{")
    for index, pair in enumerate(pairs):
        if budget[0] < 0:
            return
        if index:
            _emit(parts, budget, ", ")
        if type(pair) is list and len(pair) == 2:
            _render(pair[0], parts, budget, depth + 1, plain)
            _emit(parts, budget, ": ")
            _render(pair[1], parts, budget, depth + 1, plain)
        else:
            _emit(parts, budget, "<malformed>")
    _emit(parts, budget, "}")


def _render_tagged(tag: Any, body: Any, parts: list[str], budget: list[int], depth: int) -> None:
    if tag == "int" and type(body) is str:
        digits = len(body.lstrip("-").removeprefix("0x"))
        _emit(parts, budget, f"<int of {digits} hex digits>")
    elif tag in ("tuple", "set", "frozenset") and type(body) is list:
        opening = {"tuple": "(", "set": "{", "frozenset": "frozenset({"}[tag]
        closing = {"tuple": ")", "set": "}", "frozenset": "})"}[tag]
        _render_items(opening, body, closing, parts, budget, depth)
    elif tag == "dict" and type(body) is list:
        _render_pairs(body, parts, budget, depth, plain=False)
    elif tag == "bytes" and type(body) is str:
        _emit(parts, budget, f"bytes.fromhex({body[: budget[0] + 2]!r})")
    elif tag == "complex" and type(body) is list and len(body) == 2:
        _emit(parts, budget, "complex(")
        _render(body[0], parts, budget, depth + 1, plain=False)
        _emit(parts, budget, ", ")
        _render(body[1], parts, budget, depth + 1, plain=False)
        _emit(parts, budget, ")")
    else:
        _emit(parts, budget, "<malformed>")


def preview_expected(value: Any, limit: int = 200) -> str:
    """The expected (plain JSON) value rendered the same bounded way: it may hold a 4,000-digit
    int too, whose `repr` is slow at best."""
    parts: list[str] = []
    _render(value, parts, [limit], 0, plain=True)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"
