"""The plain-data codec: exact types round-trip; anything else is refused on both sides."""

from __future__ import annotations

import math
from typing import Any

import pytest

from rlvr.verifier.sandbox.wire.codec import CodecError, decode_value, encode_value
from tests.support.packages import require_packages

ROUND_TRIPS: list[Any] = [
    None,
    True,
    False,
    0,
    -(10**40),
    7**20000,  # past the decimal conversion limit
    -(7**20000),
    1.5,
    float("inf"),
    "héllo\n",
    b"\x00\xff",
    [1, [2, (3, 4)]],
    (1, "a", None),
    {"a": 1, 2: [3], (1, 2): {"x"}},
    {1, 2, 3},
    frozenset({"a"}),
    complex(1, -2),
    [],
    (),
    {},
]


@pytest.mark.parametrize("value", ROUND_TRIPS, ids=lambda v: type(v).__name__)
def test_plain_values_round_trip_with_exact_types(value: Any) -> None:
    back = decode_value(encode_value(value))
    assert back == value
    assert type(back) is type(value)


def test_nan_round_trips() -> None:
    assert math.isnan(decode_value(encode_value(float("nan"))))


def test_bool_and_int_stay_distinct() -> None:
    assert decode_value(encode_value([True, 1])) == [True, 1]
    assert [type(v) for v in decode_value(encode_value([True, 1]))] == [bool, int]


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True


class Str(str):
    pass


@pytest.mark.parametrize(
    "value",
    [AlwaysEqual(), Str("x"), [Str("x")], {"k": AlwaysEqual()}, print, iter(()), object()],
    ids=repr,
)
def test_non_plain_values_are_refused(value: Any) -> None:
    with pytest.raises(CodecError):
        encode_value(value)


def test_too_deep_values_are_refused() -> None:
    deep: list[Any] = []
    for _ in range(1000):
        deep = [deep]
    with pytest.raises(CodecError):
        encode_value(deep)


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"$t": "tuple"}',
        '{"$t": "evil", "v": []}',
        '{"$t": "dict", "v": [[[1], 2]]}',
        '{"$t": "bytes", "v": "zz"}',
        '{"a": 1}',
        "[" * 5000 + "]" * 5000,
    ],
)
def test_malformed_encodings_are_refused(text: str) -> None:
    with pytest.raises(CodecError):
        decode_value(text)


def test_numpy_scalars_are_encoded_as_the_builtin_values_they_hold() -> None:
    (numpy,) = require_packages("numpy")  # the trainer's stack has it (CI: a failure if not)
    value = [numpy.int64(7), numpy.float64(0.5), numpy.bool_(True), numpy.str_("a"), numpy.array(3)]
    back = decode_value(encode_value(value))
    assert back == [7, 0.5, True, "a", 3]
    assert [type(v) for v in back] == [int, float, bool, str, int]


def test_numpy_arrays_and_lookalikes_stay_refused() -> None:
    (numpy,) = require_packages("numpy")

    class NotNumpy:  # says numpy and 0-d, yet only what it returns is encoded: never itself
        __module__ = "numpy"
        ndim = 0

        def item(self) -> object:
            return AlwaysEqual()

    for value in (numpy.array([1, 2]), numpy.zeros((2, 2)), NotNumpy()):
        with pytest.raises(CodecError):
            encode_value(value)
