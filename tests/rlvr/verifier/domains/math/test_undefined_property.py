"""Property: an expression built from constructs undefined on the reals equals no ground truth.

`1/(|x| - \\sqrt{x^2})` is undefined at every real point; an identity test that skips undefined
points and then finds nothing to disagree with would call it equal to anything (issue 12).
Hypothesis builds such expressions (zero denominators in disguise, a set where a construct is
undefined that is dense, `0` to a negative power), wraps them in every structure the grader
compares element by element, and checks that none is graded equal to a random ground truth.
Runs the real pipeline in-process (extraction, fast path, SymPy grading).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.math_judge import judge_in_process

VARIABLES = st.sampled_from(["x", "y", "t", "n"])


@st.composite
def zero_in_disguise(draw: st.DrawFn) -> str:
    """An expression that is 0 wherever it is defined, without SymPy seeing it as 0."""
    v = draw(VARIABLES)
    k = draw(st.integers(1, 5))
    return draw(
        st.sampled_from(
            [
                f"|{v}| - \\sqrt{{{v}^2}}",
                f"\\sqrt{{{v}^2}} - |{v}|",
                f"{k}|{v}| - \\sqrt{{{k * k}{v}^2}}",
                f"({v}-{k})({v}+{k}) - {v}^2 + {k * k}",
                f"({v}+{k})^2 - {v}^2 - {2 * k}{v} - {k * k}",
                f"\\lceil {v} \\rceil - \\lfloor {v} \\rfloor - 1",  # 0 off the integers
            ]
        )
    )


@st.composite
def numerator(draw: st.DrawFn) -> str:
    v = draw(VARIABLES)
    c = draw(st.integers(-9, 9).filter(bool))
    return draw(st.sampled_from([str(c), v, f"{v}^2 + {abs(c)}", "\\pi", f"{c}{v} - 1", "1"]))


@st.composite
def undefined_expression(draw: st.DrawFn) -> str:
    """Undefined at every real point (or off a set of measure zero)."""
    core = draw(
        st.one_of(
            st.builds(lambda n, d: f"\\frac{{{n}}}{{{d}}}", numerator(), zero_in_disguise()),
            st.builds(lambda v: f"0^{{-{v}^2}}", VARIABLES),
        )
    )
    c = draw(st.integers(-9, 9))
    return draw(
        st.sampled_from(
            [core, f"{core} + {c}", f"{c} + {core}", f"{abs(c) + 1}{core}", f"({core})^2"]
        )
    )


@st.composite
def pair(draw: st.DrawFn) -> tuple[str, str]:
    """(a response built on undefined expressions, a ground truth of the same shape or not)."""
    a, b = draw(undefined_expression()), draw(undefined_expression())
    c = draw(st.integers(-20, 20))
    d = draw(st.integers(1, 9))
    scalar_golds = [
        str(c),
        f"\\frac{{{c}}}{{{d + 1}}}",
        f"{d}\\sqrt{{{d + 1}}}",
        f"x^2 + {d}",
        "\\pi",
        f"{c} + {d}i",
        f"{d}x - {abs(c)}",
    ]
    shapes = [
        (a, draw(st.sampled_from(scalar_golds))),
        (f"\\{{{a}, {b}\\}}", f"\\{{{c}, {c + d}\\}}"),
        (f"{a}, {b}", f"{c}, {c + d}"),
        (f"({a}, {b})", f"({c}, {c + d})"),
        (f"[{a}, {b})", f"[{c}, {c + d})"),
        (f"y = {a}", f"y = {d}x + {c}"),
        (f"x > {a}", f"x > {c}"),
        (
            f"\\begin{{pmatrix}}{a} & {b}\\end{{pmatrix}}",
            f"\\begin{{pmatrix}}{c} & {d}\\end{{pmatrix}}",
        ),
    ]
    return draw(st.sampled_from(shapes))


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(pair())
def test_expressions_undefined_on_the_reals_equal_no_ground_truth(case: tuple[str, str]) -> None:
    response, answer = case
    is_equal, detail = judge_in_process(f"The result is $\\boxed{{{response}}}$.", answer)
    assert is_equal is False, (response, answer, detail)
