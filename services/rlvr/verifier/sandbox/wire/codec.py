"""Plain-data codec for values that cross the sandbox boundary (stdlib only, exact types).

Only None, bool, int, float, complex, str, bytes, list, tuple, set, frozenset and dict survive
(a numpy scalar is encoded as the builtin value it holds); anything else (an always-equal object,
a generator, a class instance, a numpy array) is refused on encoding, so no candidate-defined
`__eq__` ever reaches the comparing side. Decoding builds fresh builtin
objects from JSON, never calling code chosen by the sender.

This module is also sent into the sandbox containers (it must stay stdlib-only and standalone).
"""

from __future__ import annotations

import json
from typing import Any

_TAG = "$t"
_MAX_DEPTH = 200
_BIG_INT = 10**1000


class CodecError(ValueError):
    """A value is not plain data, or an encoded value is malformed."""


def _to_tree(value: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(value)  # exact types: subclasses (e.g. a str subclass with __eq__) are refused
    if kind is int and not -_BIG_INT < value < _BIG_INT:
        # hex: decimal conversion of huge ints is capped (sys.get_int_max_str_digits)
        return {_TAG: "int", "v": hex(value)}
    if value is None or kind is bool or kind is int or kind is str or kind is float:
        return value
    if kind is list:
        return [_to_tree(item, depth + 1) for item in value]
    if kind is tuple:
        return {_TAG: "tuple", "v": [_to_tree(item, depth + 1) for item in value]}
    if kind is dict:
        pairs = [[_to_tree(k, depth + 1), _to_tree(v, depth + 1)] for k, v in value.items()]
        return {_TAG: "dict", "v": pairs}
    if kind is set or kind is frozenset:
        items = [_to_tree(item, depth + 1) for item in value]
        return {_TAG: kind.__name__, "v": items}
    if kind is bytes:
        return {_TAG: "bytes", "v": value.hex()}
    if kind is complex:
        return {_TAG: "complex", "v": [value.real, value.imag]}
    if kind.__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        # A numpy scalar (`arr.sum()` is an np.int64) or a 0-d array: its plain value, what `==`
        # in a reference harness compares. Made in the process that holds the value (the
        # candidate's), so the comparing side still receives builtin types only.
        return _to_tree(value.item(), depth + 1)
    raise CodecError(f"not plain data: {kind.__name__}")


def encode_value(value: Any) -> str:
    """JSON text for a plain value; raises CodecError for anything else."""
    try:
        return json.dumps(_to_tree(value, 0), separators=(",", ":"), allow_nan=True)
    except RecursionError as exc:
        raise CodecError("value nested too deeply") from exc


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError as exc:
        raise CodecError("unhashable key or set member") from exc
    return value


def _from_tree(tree: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(tree)
    if tree is None or kind in (bool, int, float, str):
        return tree
    if kind is list:
        return [_from_tree(item, depth + 1) for item in tree]
    if kind is not dict or set(tree) != {_TAG, "v"}:
        raise CodecError("malformed value")
    tag, body = tree[_TAG], tree["v"]
    if tag == "tuple" and type(body) is list:
        return tuple(_from_tree(item, depth + 1) for item in body)
    if tag == "dict" and type(body) is list:
        out = {}
        for pair in body:
            if type(pair) is not list or len(pair) != 2:
                raise CodecError("malformed dict entry")
            out[_hashable(_from_tree(pair[0], depth + 1))] = _from_tree(pair[1], depth + 1)
        return out
    if tag in ("set", "frozenset") and type(body) is list:
        members = [_hashable(_from_tree(item, depth + 1)) for item in body]
        return set(members) if tag == "set" else frozenset(members)
    if tag == "bytes" and type(body) is str:
        try:
            return bytes.fromhex(body)
        except ValueError as exc:
            raise CodecError("malformed bytes") from exc
    if tag == "int" and type(body) is str:
        try:
            return int(body, 16)
        except ValueError as exc:
            raise CodecError("malformed int") from exc
    if tag == "complex" and type(body) is list and len(body) == 2:
        real, imag = body
        if type(real) in (int, float) and type(imag) in (int, float):
            return complex(real, imag)
    raise CodecError("malformed value")


def decode_value(text: str) -> Any:
    """The plain value encoded by `encode_value`; raises CodecError on anything malformed."""
    try:
        return _from_tree(json.loads(text), 0)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, CodecError):
            raise
        raise CodecError(f"malformed value: {exc}") from exc
