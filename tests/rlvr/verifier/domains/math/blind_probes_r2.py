"""Blind probes, round 2 (issue 27): labelled `/math` rows written apart from the implementation.

Written as a policy would meet the verifier: from the issue's families and the API alone, before
any row was sent to the service, without reading the math domain's code, its rules, or the other
tables. Each row is `Probe(family, response, gold, label, problem)`; `label` is `wrong` (the reward
must be 0 and the status not `error`) or `right` (the status must be `passed`).

`HOSTILE` is kept apart: inputs of up to about 10 KB meant to make the verifier slow, hang, or
answer `error` for an answer that is simply wrong (every one of them is wrong for its gold).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["HOSTILE", "HOSTILE_BATCHES", "LEAD", "PROBES", "Hostile", "HostileBatch", "Probe"]


class Probe(NamedTuple):
    family: str
    response: str
    gold: str
    label: str  # "wrong" | "right"
    problem: str | None = None


class Hostile(NamedTuple):
    name: str
    response: str
    gold: str


# Model-style wrappers: the reasoning a model writes before its final answer.
LEAD = "Let me work through this carefully.\nAfter simplifying, we get the result below.\n"


def _boxed(value: str) -> str:
    return f"{LEAD}Therefore, the final answer is $\\boxed{{{value}}}$."


def _answer_is(value: str) -> str:
    return f"{LEAD}The answer is ${value}$."


def _minerva(value: str) -> str:
    return f"{LEAD}Final Answer: The final answer is ${value}$. I hope it is correct."


def _think(value: str) -> str:
    return (
        f"<think>\nLet me compute step by step.\n</think>\nSo the result is $\\boxed{{{value}}}$."
    )


_STYLES = (_boxed, _answer_is, _minerva, _think)

_rows: list[Probe] = []


_seen: set[tuple[str, str, str | None]] = set()


def _add(probe: Probe) -> None:
    # A row written twice (two families can meet) is kept once, under its first family.
    key = (probe.response, probe.gold, probe.problem)
    if key not in _seen:
        _seen.add(key)
        _rows.append(probe)


def _wrong(family: str, response: str, gold: str, problem: str | None = None) -> None:
    _add(Probe(family, response, gold, "wrong", problem))


def _right(family: str, response: str, gold: str, problem: str | None = None) -> None:
    _add(Probe(family, response, gold, "right", problem))


# --- words and units after numbers -------------------------------------------------------------
for n in ("3", "5", "12", "40"):
    for word in (
        "below zero",
        "maybe",
        "thousand",
        "million",
        "hundred",
        "dozen",
        "squared",
        "halves",
        "less",
        "percent of it",
        "times as many",
        "or so",
    ):
        _wrong("unit_words", _boxed(f"{n} \\text{{ {word}}}"), n)
    _wrong("unit_words", f"{LEAD}The answer is ${n}$ thousand.", n)
    _wrong("unit_words", f"{LEAD}The answer is {n} dozen.", n)
    _wrong("unit_words", f"{LEAD}So the total is $\\boxed{{{n}}}$ million dollars.", n)

for resp, gold in (
    ("6\\text{ km}", "6\\text{ m}"),
    ("6\\text{ cm}", "6\\text{ m}"),
    ("6\\text{ mm}", "6\\text{ cm}"),
    ("3\\text{ g}", "3\\text{ kg}"),
    ("4\\text{ min}", "4\\text{ s}"),
    ("4\\text{ hours}", "4\\text{ minutes}"),
    ("3m^3", "3m^2"),
    ("15\\text{ cm}^3", "15\\text{ cm}^2"),
    ("15\\text{ cm}", "15\\text{ cm}^2"),
    ("600\\text{ m}", "6\\text{ km}"),
    ("60\\text{ m}", "6\\text{ km}"),
    ("300\\text{ g}", "3\\text{ kg}"),
    ("100\\text{ minutes}", "2\\text{ hours}"),
    ("10\\text{ cm}", "1\\text{ m}"),
    ("5\\text{ m/s}", "5\\text{ km/h}"),
    ("2x+3s", "2x+3m"),
    ("5\\text{ liters}", "5\\text{ mL}"),
    ("7\\text{ feet}", "7\\text{ inches}"),
    ("9\\text{ miles}", "9\\text{ km}"),
    ("5 \\text{ cents}", "\\$5"),
    ("500 \\text{ cents}", "\\$50"),
    ("50 \\text{ cents}", "\\$50"),
    ("30 \\text{ radians}", "30^\\circ"),
    ("30 \\text{ rad}", "30^\\circ"),
    ("\\frac{\\pi}{3}", "45^\\circ"),
    ("45", "\\frac{\\pi}{4}"),
    ("0.5\\%", "0.5"),
    ("0.25\\%", "0.25"),
    ("0.25\\%", "25\\%"),
    ("3 \\text{ dozen}", "3"),
    ("2 \\text{ pairs}", "2 \\text{ shoes}"),
    ("8 \\text{ apples}", "8 \\text{ oranges}"),
    ("12 \\text{ weeks}", "12 \\text{ days}"),
    ("3 \\text{ degrees below zero}", "3^\\circ"),
):
    _wrong("unit_words", _boxed(resp), gold)
    _wrong("unit_words", _answer_is(resp), gold)

# --- left sides of equations -------------------------------------------------------------------
for resp, gold in (
    ("y = 3", "x = 3"),
    ("t = 5", "x = 5"),
    ("y = -2", "x = -2"),
    ("w = 1+i", "z = 1+i"),
    ("x = 2y+1", "y = 2x+1"),
    ("y = 3x+2", "y = 2x+3"),
    ("g(x) = 2x+1", "f(x) = 2x+1"),
    ("a_{11} = 28", "a_{10} = 28"),
    ("BC = 5", "AB = 5"),
    ("\\angle B = 60^\\circ", "\\angle A = 60^\\circ"),
    ("f(x) = 6x^2", "f'(x) = 6x^2"),
    ("f(x) = \\frac{x-1}{2}", "f^{-1}(x) = \\frac{x-1}{2}"),
    ("2x = 3", "x = 3"),
    ("x^2 = 4", "x = 4"),
    ("x + y = 3", "y = 3"),
    ("x = 3y", "x = 3"),
    ("x + 1 = 3", "3"),
    ("2x = 6", "6"),
    ("x - 1 = 5", "5"),
    ("3x = 12", "12"),
    ("y = 7", "x = 7"),
    ("b = 4", "a = 4"),
    ("n = 10", "k = 10"),
    ("x^2 + y^2 = 9", "x^2 + y^2 = 25"),
    ("y = x^2", "x = y^2"),
):
    _wrong("left_sides", _boxed(resp), gold)
    _wrong("left_sides", _answer_is(resp), gold)

# --- qualifiers and negations ------------------------------------------------------------------
for n in ("3", "5", "8", "\\frac{1}{2}"):
    for resp in (
        f"{LEAD}The answer is not ${n}$.",
        f"{LEAD}The answer is not equal to ${n}$.",
        f"{LEAD}The answer cannot be ${n}$.",
        f"{LEAD}Answer: at least ${n}$",
        f"{LEAD}Answer: at most ${n}$",
        f"{LEAD}The answer is more than ${n}$.",
        f"{LEAD}The answer is less than ${n}$.",
        f"{LEAD}The answer is almost ${n}$.",
        f"{LEAD}So it is at least $\\boxed{{{n}}}$.",
        _boxed(f"\\text{{at least }} {n}"),
        _boxed(f"\\text{{not }} {n}"),
        _boxed(f"\\ge {n}"),
        _boxed(f"> {n}"),
        _boxed(f"\\neq {n}"),
        f"{LEAD}The answer is ${n}$ if $k$ is even and ${n}+1$ if $k$ is odd.",
        f"{LEAD}The answer is ${n}$, unless $m = 0$.",
        f"{LEAD}The answer is ${n}$ or fewer.",
    ):
        _wrong("qualifiers", resp, n)
for resp, gold in (
    ("x \\neq 3", "x = 3"),
    ("x < 3", "x = 3"),
    ("x \\ge 3", "x = 3"),
    ("x \\le 5", "5"),
    ("3 \\text{ if } n \\text{ is odd}, 4 \\text{ if } n \\text{ is even}", "3"),
):
    _wrong("qualifiers", _boxed(resp), gold)

# --- hedges and revisions ----------------------------------------------------------------------
for n, m in (("5", "7"), ("12", "13"), ("\\frac{1}{2}", "\\frac{1}{3}"), ("-4", "4")):
    for resp in (
        f"{LEAD}Answer: ${n}$\nor ${m}$",
        _boxed(f"{n} \\lor {m}"),
        _boxed(f"{n} \\vee {m}"),
        _boxed(f"{n} \\text{{ or }} {m}"),
        _boxed(f"{n}, {m}"),
        _boxed(f"{n}/{m}" if "frac" not in n else f"{n} \\text{{ or maybe }} {m}"),
        f"{LEAD}The answer is ${n}$ versus ${m}$.",
        f"{LEAD}The answer is ${n}$, else ${m}$.",
        f"{LEAD}The answer is either ${n}$ or ${m}$.",
        f"{LEAD}The answer is ${n}$ or maybe ${m}$.",
        f"{LEAD}The answer is ${n}$ vs ${m}$.",
        f"{LEAD}$\\boxed{{{n}}}$ or $\\boxed{{{m}}}$",
        f"{LEAD}$\\boxed{{{m}}}$ or $\\boxed{{{n}}}$",
        f"{LEAD}$\\boxed{{{n}}}$ (or possibly ${m}$).",
        f"{LEAD}The answer is ${n}$; ${m}$ would also work.",
        f"{LEAD}$\\boxed{{{n}}}$\n\nWait, that's wrong. I double counted one case,"
        f" so it is actually ${m}$.",
        f"{LEAD}$\\boxed{{{n}}}$. Hmm, actually no: recomputing gives ${m}$.",
        f"{LEAD}The answer is ${n}$. Wait, I made an error; the correct value is ${m}$.",
        f"{LEAD}First I get $\\boxed{{{n}}}$, but checking again I get $\\boxed{{{m}}}$.",
        f"{LEAD}Answer: ${n}$ (or ${m}$ if we count the empty case).",
    ):
        _wrong("hedges", resp, n)

# --- end-of-sequence tokens with text after them -----------------------------------------------
_EOS = (
    "</s>",
    "<|im_end|>",
    "<|endoftext|>",
    "<|eot_id|>",
    "<|end|>",
    "<eos>",
    "<\uff5cend\u2581of\u2581sentence\uff5c>",
)
for eos in _EOS:
    _wrong("eos", f"{LEAD}$\\boxed{{7}}${eos}$\\boxed{{5}}$", "5")
    _wrong("eos", f"{LEAD}The answer is $7$.{eos}The answer is $5$.", "5")
    _wrong("eos", f"{LEAD}The answer is $7$.{eos}\n\nThe answer is $\\boxed{{5}}$.", "5")
    _right("eos", f"{LEAD}$\\boxed{{5}}${eos}", "5")
    _right("eos", f"{LEAD}The answer is $5$.{eos}", "5")
_wrong("eos", "<think>\nSo the answer is $\\boxed{5}$.", "5")
_wrong("eos", "<think>\nSo the answer is $\\boxed{5}$.\n</think>\nThe answer is $\\boxed{7}$.", "5")
_wrong("eos", "<think>\nI get $\\boxed{5}$ but I am not sure\n", "5")

# --- spaces and separators inside numbers ------------------------------------------------------
for resp, gold in (
    ("1 2", "12"),
    ("1 \\quad 2", "12"),
    ("1\\qquad 2", "12"),
    ("1\\ 2", "12"),
    ("1~2", "12"),
    ("1\\;2", "12"),
    ("1\\:2", "12"),
    ("12 34", "1234"),
    ("2 5", "25"),
    ("2 5", "2.5"),
    ("10 0", "100"),
    ("1.2", "1,2"),
    ("1.2", "1, 2"),
    ("1.23", "1,2,3"),
    ("123", "1,2,3"),
    ("1,2,3", "123"),
    ("1, 2", "12"),
    ("0.4", "12:30"),
    ("1230", "12:30"),
    ("12.30", "12:30"),
    ("2.5", "25"),
    ("25", "2.5"),
    ("0.5\\%", "50\\%"),
    ("5\\%", "50\\%"),
    ("1 2", "\\frac{1}{2}"),
    ("3 4", "(3,4)"),
):
    _wrong("separators", _boxed(resp), gold)
    _wrong("separators", _answer_is(resp), gold)

# --- unevaluated forms and restating the problem -----------------------------------------------
_M = "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"
for resp, gold, problem in (
    ("2^{10}\\cdot 2^{90}", "2^{100}", None),
    ("2^{50}\\cdot 2^{50}", "2^{100}", None),
    ("2\\cdot 2^{99}", "2^{100}", None),
    ("(2^{10})^{10}", "2^{100}", None),
    ("x^2+5x+6", "(x+2)(x+3)", None),
    ("(x+2)(x+3)", "x^2+5x+6", None),
    ("(x+1)^2", "x^2+2x+1", None),
    ("\\frac{1}{\\sqrt2}", "\\frac{\\sqrt2}{2}", None),
    ("\\frac{1}{\\sqrt3}", "\\frac{\\sqrt3}{3}", None),
    ("\\frac{2}{\\sqrt6}", "\\frac{\\sqrt6}{3}", None),
    ("\\sqrt{50}+\\sqrt{18}", "8\\sqrt2", None),
    ("\\sqrt{12}", "2\\sqrt3", None),
    ("\\sqrt{18}", "3\\sqrt2", None),
    ("\\{1,2,3\\}\\cap\\{2,3,4\\}", "\\{2,3\\}", None),
    ("\\{1,2\\}\\cup\\{3,4\\}", "\\{1,2,3,4\\}", None),
    ("\\{1,2,3,4\\}\\setminus\\{4\\}", "\\{1,2,3\\}", None),
    (
        _M + "\\begin{pmatrix}5&6\\\\7&8\\end{pmatrix}",
        "\\begin{pmatrix}19&22\\\\43&50\\end{pmatrix}",
        None,
    ),
    ("2" + _M, "\\begin{pmatrix}2&4\\\\6&8\\end{pmatrix}", None),
    (_M + "^T", "\\begin{pmatrix}1&3\\\\2&4\\end{pmatrix}", None),
    (_M + "+" + _M, "\\begin{pmatrix}2&4\\\\6&8\\end{pmatrix}", None),
    (_M + "^2", "\\begin{pmatrix}7&10\\\\15&22\\end{pmatrix}", None),
    ("5!", "120", None),
    ("\\binom{5}{2}", "10", None),
    ("\\binom{7}{3}", "35", None),
    ("2+4", "6", None),
    ("3 \\cdot 5", "15", None),
    ("2^{10}", "1024", None),
    ("\\frac{2}{6}", "\\frac{1}{3}", None),
    ("\\frac{10}{2}", "5", None),
    ("\\sqrt{49}", "7", None),
    ("\\log_2 8", "3", None),
    ("\\sin\\frac{\\pi}{6}", "\\frac{1}{2}", None),
    ("\\frac{x^2-1}{x-1}", "x+1", None),
    ("\\frac{d}{dx} 2x^3", "6x^2", None),
    ("\\sum_{k=1}^{10} k", "55", None),
    ("\\int_0^2 2x\\,dx", "4", None),
    ("\\frac{6x}{3}", "2x", "Simplify $\\frac{6x}{3}$."),
    ("17 \\cdot 23", "391", "Compute $17 \\cdot 23$."),
    ("(x+1)^2", "x^2+2x+1", "Expand $(x+1)^2$."),
    ("\\binom{8}{3}", "56", "Find $\\binom{8}{3}$."),
    ("\\frac{3}{4}+\\frac{1}{6}", "\\frac{11}{12}", "Compute $\\frac{3}{4}+\\frac{1}{6}$."),
    ("\\sqrt{72}", "6\\sqrt2", "Simplify $\\sqrt{72}$."),
    ("(x-3)(x+3)", "x^2-9", "Expand $(x-3)(x+3)$."),
    ("x^2-9", "(x-3)(x+3)", "Factor $x^2-9$."),
    ("\\det" + _M, "-2", "Find $\\det " + _M + "$."),
    ("\\begin{vmatrix}1&2\\\\3&4\\end{vmatrix}", "-2", None),
    ("(3+2i)(1-i)", "5-i", None),
    ("|{-7}|", "7", None),
):
    _wrong("unevaluated", _boxed(resp), gold, problem)
    _wrong("unevaluated", _answer_is(resp), gold, problem)

# --- equality tricks -----------------------------------------------------------------------------
for resp, gold in (
    ("\\min(x,100)", "x"),
    ("\\max(x,-100)", "x"),
    ("\\min(x, 10^{6})", "x"),
    ("x+\\lfloor x^2/200\\rfloor", "x"),
    ("x+\\left\\lfloor \\frac{x}{1000} \\right\\rfloor", "x"),
    ("x+(x-1)(x-2)(x-3)(x-4)(x-5)(x-6)(x-7)(x-8)", "x"),
    ("x+x(x^2-1)(x^2-4)(x^2-9)(x^2-16)(x^2-25)(x^2-36)(x^2-49)", "x"),
    ("x + 10^{-50}", "x"),
    ("x + \\frac{1}{10^{40}}", "x"),
    ("\\lfloor x \\rfloor", "x"),
    ("\\lceil x \\rceil", "x"),
    ("x + \\sin(\\pi x)", "x"),
    ("x^2 + \\sin(2\\pi x)", "x^2"),
    ("x|x|", "x^2"),
    ("\\max(x^2, 1)", "x^2"),
    ("\\frac{x^2 |x|}{x}", "x^2"),
    ("x^2 + \\lfloor \\frac{x}{10^4} \\rfloor", "x^2"),
    ("\\begin{cases} x & x < 100 \\\\ 0 & x \\ge 100 \\end{cases}", "x"),
    ("2x+1+\\left\\lfloor\\frac{x^2}{10^4}\\right\\rfloor", "2x+1"),
    ("n + (n-1)(n-2)(n-3)(n-4)(n-5)(n-6)(n-7)(n-8)(n-9)(n-10)(n-11)(n-12)(n-13)", "n"),
    ("n^2 - n + 2", "2^n"),
    ("\\frac{n^2+n}{2} + \\left\\lfloor \\frac{n}{100} \\right\\rfloor", "\\frac{n(n+1)}{2}"),
    ("\\pi + 10^{-45}", "\\pi"),
    ("\\pi - 10^{-30}", "\\pi"),
    ("\\frac{355}{113}", "\\pi"),
    ("\\frac{99}{70}", "\\sqrt2"),
    ("\\sqrt{2} + 10^{-40}", "\\sqrt{2}"),
    ("\\ln 2 + 10^{-60}", "\\ln 2"),
    ("\\cos(10^{-30})", "1"),
    ("\\sin(10^{-40})", "0"),
    ("10^{-100}", "0"),
    ("0.999999999", "1"),
    ("999999.9999", "1000000"),
    ("\\sqrt{4.0000001}", "2"),
    ("0.5000000001", "\\frac{1}{2}"),
    ("0.33", "\\frac{1}{3}"),
    ("\\frac{22}{7}", "3.14"),
    ("e + 10^{-35}", "e"),
    ("1 + 10^{-20}", "1"),
    ("\\frac{10^{30}+1}{10^{30}}", "1"),
):
    _wrong("equality_tricks", _boxed(resp), gold)
    _wrong("equality_tricks", _answer_is(resp), gold)

# --- kind confusions -----------------------------------------------------------------------------
for resp, gold in (
    ("y = 4, x = 3", "(4, 3)"),
    ("x = 1, x = 2", "(1, 2)"),
    ("[1,2]", "(1, 2)"),
    ("(1,2)", "[1,2]"),
    ("\\{1,2\\}", "[1,2]"),
    ("[1,2]", "\\{1,2\\}"),
    ("(1,2)", "\\{1,2\\}"),
    ("(1, 2)", "x = 1, x = 2"),
    ("x \\ge -1 \\text{ and } x \\le 3", "(-\\infty, \\infty)"),
    ("x \\ge -1 \\text{ and } x \\le 3", "\\mathbb{R}"),
    ("x > 0 \\text{ or } x < 5", "(0, 5)"),
    ("0 < x < 5", "(-\\infty,0)\\cup(5,\\infty)"),
    ("(2,\\infty)", "[2,\\infty)"),
    ("x \\ge 2", "x > 2"),
    ("\\{2, -2\\}", "2"),
    ("3", "3, -3"),
    ("\\pm 3", "3"),
    ("(2,1)", "(1,2)"),
    ("\\begin{pmatrix}1&2\\end{pmatrix}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"),
    ("(1, 2, 0)", "(1, 2)"),
    ("\\{0\\}", "\\emptyset"),
    ("\\emptyset", "\\{0\\}"),
    ("0", "\\text{no solution}"),
    ("\\mathbb{R}^+", "\\mathbb{R}"),
    ("\\begin{vmatrix}1&2\\\\3&4\\end{vmatrix}", _M),
    (_M, "-2"),
    ("\\frac{d}{dx} x^3", "x^2"),
    ("\\frac{d}{dx} x^4", "x^3"),
    ("\\frac{d}{dx}(x^2+x)", "x+1"),
    ("\\frac{dy}{dx}", "\\frac{y}{x}"),
    ("30", "\\frac{\\pi}{6}"),
    ("\\{3,4\\}", "(3,4)"),
    ("(3,4)", "\\{3,4\\}"),
    ("x \\in (1,2)", "x = 1, x = 2"),
    ("\\text{no solution}", "0"),
    ("(-\\infty, 2)", "(-\\infty, 2]"),
    ("[3, 5]", "3 \\le x < 5"),
    ("\\{x \\mid x > 3\\}", "x \\ge 3"),
    ("x \\neq 3", "x = 3"),
    ("|x| \\le 2", "[-2, 3]"),
):
    _wrong("kinds", _boxed(resp), gold)
    _wrong("kinds", _answer_is(resp), gold)

# --- near misses in every answer type ------------------------------------------------------------
for resp, gold in (
    ("13", "12"),
    ("5", "-5"),
    ("\\frac{4}{3}", "\\frac{3}{4}"),
    ("0.57", "0.75"),
    ("\\sqrt{2}", "\\sqrt{3}"),
    ("3\\sqrt2", "2\\sqrt3"),
    ("2\\pi", "\\pi"),
    ("\\frac{\\pi}{6}", "\\frac{\\pi}{3}"),
    ("x^2-1", "x^2+1"),
    ("(x+1)^2", "(x-1)^2"),
    ("[1,3]", "[1,3)"),
    ("(-\\infty,2)", "(-\\infty,2]"),
    ("\\{1,2\\}", "\\{1,2,3\\}"),
    ("\\begin{pmatrix}1&2\\\\3&5\\end{pmatrix}", _M),
    ("3-2i", "3+2i"),
    ("e^{-2}", "e^2"),
    ("60^\\circ", "120^\\circ"),
    ("x = 2", "x = \\pm 2"),
    ("2", "\\frac{1}{2}"),
    ("100", "1000"),
    ("3.15", "3.14"),
    ("-\\infty", "\\infty"),
    ("\\text{infinitely many solutions}", "\\text{no solution}"),
    ("\\text{no}", "\\text{yes}"),
    ("\\text{(B)}", "\\text{(A)}"),
    ("1\\%", "10\\%"),
    ("\\frac{12}{5}", "\\frac{5}{12}"),
    ("2^{11}", "2^{10}"),
    ("y = 2x - 3", "y = 2x + 3"),
    ("50\\text{ cm}", "5\\text{ cm}"),
    ("(3, -4)", "(3, 4)"),
    ("(-\\infty,-1)\\cup(1,\\infty)", "(-\\infty,-1]\\cup[1,\\infty)"),
    ("\\frac{\\sqrt3}{2}", "\\frac{\\sqrt2}{2}"),
    ("x^3+3x", "x^3-3x"),
    ("\\log_3 2", "\\log_2 3"),
    ("12:45", "12:30"),
    ("\\$17", "\\$18"),
    ("1, 3", "1, 2"),
    ("\\frac{x+1}{x-1}", "\\frac{x-1}{x+1}"),
    ("0", "1"),
):
    _wrong("near_miss", _boxed(resp), gold)
    _wrong("near_miss", _minerva(resp), gold)
    _wrong("near_miss", _think(resp), gold)


# --- natural right answers -----------------------------------------------------------------------
_NATURAL: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("12", ("12",)),
    ("-5", ("-5",)),
    ("0", ("0",)),
    ("1000", ("1000", "1{,}000")),
    ("\\frac{3}{4}", ("\\frac{3}{4}", "\\dfrac{3}{4}", "3/4", "0.75")),
    ("\\frac{1}{3}", ("\\frac13", "\\frac{1}{3}")),
    ("-\\frac{1}{2}", ("-\\frac12", "-0.5", "\\frac{-1}{2}")),
    ("0.5", ("0.5", "\\frac{1}{2}")),
    ("2.5", ("2.5", "\\frac{5}{2}")),
    ("2\\sqrt{3}", ("2\\sqrt3", "2 \\sqrt{3}")),
    ("\\frac{\\sqrt{2}}{2}", ("\\frac{\\sqrt{2}}{2}", "\\dfrac{\\sqrt2}{2}")),
    ("3\\sqrt{2}", ("3\\sqrt{2}",)),
    ("2\\pi", ("2\\pi", "2 \\pi")),
    ("\\frac{\\pi}{4}", ("\\frac{\\pi}{4}", "\\pi/4")),
    ("x^2+2x+1", ("x^2 + 2x + 1", "1 + 2x + x^2")),
    ("(x+2)(x+3)", ("(x+3)(x+2)", "(x + 2)(x + 3)")),
    ("\\frac{x+1}{x-1}", ("\\frac{x+1}{x-1}",)),
    ("y = 2x+3", ("y = 2x + 3", "y=3+2x")),
    ("x = 3", ("x=3", "3")),
    ("x^2+y^2=25", ("x^2 + y^2 = 25",)),
    ("(-\\infty, 2]", ("(-\\infty,2]", "x \\le 2")),
    ("[1, 3)", ("[1,3)",)),
    (
        "(-\\infty,-1)\\cup(1,\\infty)",
        ("(-\\infty, -1) \\cup (1, \\infty)", "x < -1 \\text{ or } x > 1"),
    ),
    ("\\{1, 2, 3\\}", ("\\{1,2,3\\}", "\\{3, 2, 1\\}")),
    ("(3, 4)", ("(3,4)", "x = 3, y = 4")),
    (
        _M,
        (
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}",
        ),
    ),
    ("5\\text{ cm}", ("5 \\text{ cm}", "5\\text{cm}")),
    ("15", ("15\\text{ cm}^2",)),
    ("\\text{no solution}", ("\\text{no solution}", "\\text{No solution}")),
    ("3, -3", ("\\pm 3", "3, -3")),
    ("\\pm 3", ("x = \\pm 3",)),
    ("60^\\circ", ("60^\\circ", "60^{\\circ}", "60")),
    ("60", ("60^\\circ",)),
    ("25\\%", ("25\\%",)),
    ("3+2i", ("3 + 2i",)),
    ("1, 2", ("1, 2", "2, 1")),
    ("2^{100}", ("2^{100}",)),
    ("e^2", ("e^{2}",)),
    ("\\infty", ("\\infty",)),
    ("\\text{(B)}", ("\\text{(B)}", "B")),
    ("f(x)=2x+1", ("f(x) = 2x + 1",)),
    ("6x^2", ("f'(x) = 6x^2",)),
    ("5", ("AB = 5",)),
    ("\\$18", ("\\$18", "18")),
    ("12:30", ("12:30",)),
    ("\\sqrt{5}", ("\\sqrt5", "\\sqrt{5}")),
    ("\\frac{7}{2}", ("\\frac{7}{2}", "3.5")),
    ("-\\frac{3}{2}", ("-\\frac{3}{2}",)),
    ("4\\sqrt{2}", ("4\\sqrt2",)),
    ("\\frac{5\\pi}{6}", ("\\frac{5\\pi}{6}",)),
    ("x^3-3x", ("x^3 - 3x",)),
)
_RIGHT_STYLES = (_boxed, _answer_is, _minerva)
for _i, (gold, spellings) in enumerate(_NATURAL):
    for _j, spelling in enumerate(spellings):
        for _k, style in enumerate(_RIGHT_STYLES):
            _right("natural", style(spelling), gold)
        if (_i + _j) % 2 == 0:
            _right("natural", _think(spelling), gold)

# GSM8K-style and plain-prose endings a model writes.
for n in ("18", "42", "7", "1250", "3"):
    _right(
        "natural",
        f"Janet has 16 eggs and eats 3, so 13 are left.\nShe sells them and earns more.\n#### {n}",
        n,
    )
    _right("natural", f"{LEAD}So the answer is {n}.", n)
    _right("natural", f"{LEAD}**Answer:** ${n}$", n)
    _right("natural", f"{LEAD}Answer: {n}", n)
    _right("natural", f"{LEAD}Thus, the answer is $\\boxed{{{n}}}$.", n)
_right("natural", f"{LEAD}We get $x = \\boxed{{4}}$.", "4")
_right("natural", f"{LEAD}The total is $\\boxed{{120}}$ ways.", "120")
_right("natural", f"{LEAD}So she has $\\boxed{{25}}\\%$ left.", "25\\%")
_right("natural", f"{LEAD}The area is $\\boxed{{15}}$ square centimeters.", "15")
_right("natural", f"{LEAD}The final answer is $\\boxed{{\\frac{{1}}{{2}}}}$.", "0.5")

# ================================================================================================
# Wave 2: written after wave 1's rewards were seen (a policy adapts to what it is paid), before
# wave 2 itself was sent. Every family keeps the suffix `_w2`.
# ================================================================================================

# Count nouns and currency/angle units that change the value (wave 1 paid `halves`, `cents`,
# `radians`).
for n in ("3", "5", "12"):
    for word in (
        "quarters",
        "thirds",
        "tenths",
        "tens",
        "score",
        "gross",
        "grand",
        "pairs of them",
        "per cent of the total",
        "pennies",
        "nickels",
        "dimes",
    ):
        _wrong("unit_words_w2", _boxed(f"{n} \\text{{ {word}}}"), n)
    _wrong("unit_words_w2", _boxed(f"{n}\\text{{k}}"), n)
    _wrong("unit_words_w2", f"{LEAD}So the answer is {n} grand.", n)
for resp, gold in (
    ("5\\text{ kg}", "\\$5"),
    ("5\\text{ km}", "\\$5"),
    ("5 \\text{ euros}", "\\$5"),
    ("5 \\text{ pennies}", "\\$5"),
    ("5\\text{¢}", "\\$5"),
    ("5 \\text{ cents}", "5 \\text{ dollars}"),
    ("50 \\text{ cents}", "\\$50.00"),
    ("18 \\text{ cents}", "\\$18"),
    ("30 \\text{ gradians}", "30^\\circ"),
    ("30'", "30^\\circ"),
    ("30^\\prime", "30^\\circ"),
    ("30 \\text{ arcminutes}", "30^\\circ"),
    ("30^\\circ\\text{F}", "30^\\circ\\text{C}"),
    ("30 \\text{ K}", "30^\\circ\\text{C}"),
    ("\\frac{\\pi}{6} \\text{ degrees}", "\\frac{\\pi}{6}"),
    ("2 \\text{ rad}", "2^\\circ"),
    ("60 \\text{ radians}", "60^\\circ"),
    ("7 \\text{ cm}", "7 \\text{ cm}^2"),
    ("7 \\text{ square meters}", "7 \\text{ square centimeters}"),
    ("7 \\text{ cubic feet}", "7 \\text{ square feet}"),
    ("7 \\text{ m}^2", "7 \\text{ m}"),
    ("3\\text{ days}", "3\\text{ hours}"),
    ("9 \\text{ months}", "9 \\text{ years}"),
    ("12 \\text{ mph}", "12 \\text{ km/h}"),
):
    _wrong("unit_words_w2", _boxed(resp), gold)
    _wrong("unit_words_w2", _answer_is(resp), gold)

# Unevaluated products and sums (wave 1 paid `2\cdot 2^{99}` and `(3+2i)(1-i)`).
for resp, gold in (
    ("2\\times 2^{99}", "2^{100}"),
    ("2^{99}\\cdot 2", "2^{100}"),
    ("2^{99}+2^{99}", "2^{100}"),
    ("4\\cdot 2^{98}", "2^{100}"),
    ("\\frac{2^{101}}{2}", "2^{100}"),
    ("3\\cdot 3^{9}", "3^{10}"),
    ("2 \\cdot 3^{4}", "162"),
    ("(1+i)^2", "2i"),
    ("\\frac{1}{i}", "-i"),
    ("i^2", "-1"),
    ("(2+i)(2-i)", "5"),
    ("(1+2i)+(3-i)", "4+i"),
    ("\\overline{3+2i}", "3-2i"),
    ("e^{i\\pi}", "-1"),
    ("\\sqrt2 + 4\\sqrt2", "5\\sqrt2"),
    ("\\frac{10}{\\sqrt2}", "5\\sqrt2"),
    ("\\pi\\cdot\\pi", "\\pi^2"),
    ("2\\pi + 4\\pi", "6\\pi"),
    ("2\\pi\\cdot 3", "6\\pi"),
    ("e\\cdot e^2", "e^3"),
    ("x^2\\cdot x^3", "x^5"),
    ("x+x", "2x"),
    ("3x - x", "2x"),
    ("\\frac{6}{8}", "\\frac{3}{4}"),
    ("\\frac{1}{2}+\\frac{1}{4}", "\\frac{3}{4}"),
    ("0.5+0.25", "0.75"),
    ("3 \\cdot 4 + 1", "13"),
    ("\\frac{12}{4}", "3"),
    ("10 - 3", "7"),
    ("6 \\times 7", "42"),
    ("2\\cdot 9", "18"),
    ("(-3)^2", "9"),
    ("\\sqrt{16}", "4"),
    ("\\sqrt[3]{27}", "3"),
    ("4!", "24"),
    ("\\frac{7!}{5!}", "42"),
    ("\\binom{6}{2}", "15"),
    ("\\cos 0", "1"),
):
    _wrong("unevaluated_w2", _boxed(resp), gold)
    _wrong("unevaluated_w2", _answer_is(resp), gold)

# A pair for a set (wave 1 paid `(1,2)` for `\{1,2\}`), and lists against points and roots.
for resp, gold in (
    ("(2,1)", "\\{1,2\\}"),
    ("\\left(1, 2\\right)", "\\{1,2\\}"),
    ("(1, 2)", "\\{1, 2\\}"),
    ("(1,1,2)", "\\{1,2\\}"),
    ("(1,2,3)", "\\{1,2,3\\}"),
    ("(-1, 4)", "\\{-1, 4\\}"),
    ("(0,1)", "\\{0,1\\}"),
    ("[0,1]", "\\{0,1\\}"),
    ("(3,4)", "3, 4"),
    ("(1,2)", "1, 2"),
    ("[1,2]", "1, 2"),
    ("\\{1,2\\}", "(1,2)"),
    ("(1,2)", "x = 1 \\text{ or } x = 2"),
    ("(x, y) = (2, 1)", "(1, 2)"),
    ("\\{(1,2)\\}", "\\{1, 2\\}"),
    ("\\{\\{1\\},\\{2\\}\\}", "\\{1,2\\}"),
):
    _wrong("kinds_w2", _boxed(resp), gold)
    _wrong("kinds_w2", _answer_is(resp), gold)

# Rounding that is not a rounding, big integers one apart, float representations.
for resp, gold in (
    ("3.14160", "\\pi"),
    ("3.14158", "\\pi"),
    ("1.41422", "\\sqrt2"),
    ("2.71829", "e"),
    ("0.333334", "\\frac{1}{3}"),
    ("0.142858", "\\frac{1}{7}"),
    ("0.666666", "\\frac{2}{3}"),
    ("1.7320", "\\sqrt3"),
    ("3.1416", "\\pi"),
    ("3.14", "\\pi"),
    ("100000000000000000001", "100000000000000000000"),
    ("12345678901234567891", "12345678901234567890"),
    ("1.0000000000000000001", "1"),
    ("0.1000000000000000055511151231257827", "0.1"),
    ("0.30000000000000004", "0.3"),
    ("99999999999999999999", "10^{20}"),
    ("2.000000000001x", "2x"),
    ("x^{2.0000000001}", "x^2"),
    ("3.14159265358979x", "\\pi x"),
    ("2.718281828^x", "e^x"),
    ("x^2 + 10^{-30}x", "x^2"),
    ("\\sin(x + 10^{-30})", "\\sin x"),
    ("|x| - 1", "|x - 1|"),
    ("\\lfloor x \\rfloor + \\lfloor x/10^{6} \\rfloor", "\\lfloor x \\rfloor"),
    ("\\frac{x}{1 + 10^{-25}}", "x"),
    ("1 - 10^{-18}", "1"),
    ("\\frac{1}{3} + 10^{-20}", "\\frac{1}{3}"),
    ("2^{-100}", "0"),
    ("10^{-300}", "0"),
    ("\\frac{1}{10^{400}}", "0"),
):
    _wrong("equality_tricks_w2", _boxed(resp), gold)
    _wrong("equality_tricks_w2", _answer_is(resp), gold)

# Natural answers of harder kinds (issue 27's refused list and irrational interval ends).
_NATURAL_W2: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "(-\\infty,-\\sqrt{2})\\cup(\\sqrt{2},\\infty)",
        (
            "(-\\infty, -\\sqrt2) \\cup (\\sqrt2, +\\infty)",
            "(-\\infty,-\\sqrt{2})\\cup(\\sqrt{2},\\infty)",
        ),
    ),
    ("(-\\infty,-\\sqrt2]", ("(-\\infty, -\\sqrt{2}]",)),
    ("\\mathbb{R}", ("\\text{all real numbers}", "(-\\infty,\\infty)")),
    ("\\emptyset", ("\\text{no solution}", "\\varnothing")),
    ("(3,\\infty)", ("\\{x \\mid x > 3\\}", "x > 3")),
    ("\\mathbb{R}\\setminus\\{3\\}", ("x \\neq 3", "(-\\infty,3)\\cup(3,\\infty)")),
    ("[-2,2]", ("|x| \\le 2", "-2 \\le x \\le 2")),
    ("(0,5)", ("0 < x < 5", "x > 0 \\text{ and } x < 5")),
    ("\\frac{\\sqrt{3}}{3}", ("\\frac{\\sqrt3}{3}",)),
    (
        "\\begin{pmatrix} \\frac12 & 0 \\\\ 0 & 2\\end{pmatrix}",
        ("\\begin{pmatrix} 1/2 & 0 \\\\ 0 & 2\\end{pmatrix}",),
    ),
    (
        "\\begin{pmatrix} 3 \\\\ -1 \\\\ 2\\end{pmatrix}",
        ("\\begin{pmatrix}3\\\\-1\\\\2\\end{pmatrix}",),
    ),
    ("60^\\circ", ("\\angle A = 60^\\circ",)),
    ("2x", ("\\frac{dy}{dx} = 2x",)),
    ("\\frac{x-1}{2}", ("f^{-1}(x) = \\frac{x-1}{2}",)),
    ("x = 3", ("3 = x",)),
    ("\\frac{1}{2}", ("\\tfrac{1}{2}", "1/2")),
    ("1.5", ("\\frac32", "1\\frac{1}{2}")),
    ("10", ("10.0", "10.00")),
    ("-1", ("\u22121",)),
    ("\\$12.50", ("\\$12.50", "12.50", "12.5")),
    ("5\\text{ m/s}", ("5 \\text{ m/s}", "5\\,\\text{m/s}")),
    ("50\\%", ("50\\%", "50 \\%")),
    ("4", ("n = 4",)),
    ("(1,-2)", ("(1, -2)",)),
    ("\\left(\\frac12, 3\\right)", ("(\\frac{1}{2}, 3)",)),
    ("y=-\\frac{1}{2}x+3", ("y = -\\frac{x}{2} + 3", "y=3-0.5x")),
    ("\\text{even}", ("\\text{even}", "\\text{Even}")),
    ("\\text{(C)}", ("C", "(C)")),
    ("1, 3, 5", ("1,3,5", "5, 3, 1")),
    ("\\frac{3\\sqrt{5}}{5}", ("\\frac{3}{5}\\sqrt5", "\\frac{3\\sqrt5}{5}")),
    ("e^{-1}", ("\\frac{1}{e}",)),
    ("\\ln 2", ("\\ln(2)",)),
    ("\\log_2 5", ("\\log_{2} 5",)),
    ("\\pm\\sqrt{2}", ("\\pm \\sqrt2", "x = \\pm\\sqrt{2}")),
    ("3 - 2\\sqrt{2}", ("3-2\\sqrt2",)),
    ("\\frac{2}{3}", ("\\dfrac23",)),
)
for _i, (gold, spellings) in enumerate(_NATURAL_W2):
    for _j, spelling in enumerate(spellings):
        _right("natural_w2", _boxed(spelling), gold)
        _right("natural_w2", (_answer_is, _minerva)[(_i + _j) % 2](spelling), gold)
_right("natural_w2", f"{LEAD}The answer is 50 percent.", "50\\%")
_right("natural_w2", f"{LEAD}The answer is 8 hours.", "8 \\text{ hours}")
_right("natural_w2", f"{LEAD}So $\\boxed{{12.5}}$ dollars.", "\\$12.50")


# ================================================================================================
# Wave 3: written after wave 2's rewards were seen, before wave 3 itself was sent. Families keep
# the suffix `_w3`.
# ================================================================================================

# Count nouns in prose after the box or the marked value, not inside it.
for n in ("4", "9"):
    for word in ("halves", "quarters", "tenths", "dozen", "tens", "dimes", "score"):
        _wrong("unit_words_w3", f"{LEAD}So the answer is $\\boxed{{{n}}}$ {word}.", n)
        _wrong("unit_words_w3", f"{LEAD}The answer is {n} {word}.", n)
        _wrong("unit_words_w3", f"{LEAD}The answer is ${n}$ {word}.", n)
# A gold whose unit is a word: the words must be compared, not dropped.
for resp, gold in (
    ("10 \\text{ square miles}", "10 \\text{ square kilometers}"),
    ("4 \\text{ cubic units}", "4 \\text{ square units}"),
    ("6 \\text{ square inches}", "6 \\text{ cubic inches}"),
    ("12 \\text{ square feet}", "12 \\text{ feet}"),
    ("3 \\text{ minutes}", "3 \\text{ hours}"),
    ("8 \\text{ girls}", "8 \\text{ boys}"),
    ("5 \\text{ apples}", "\\$5"),
    ("5\\%", "\\$5"),
    ("90 \\text{ grad}", "90^\\circ"),
    ("90 \\text{ rad}", "90^\\circ"),
    ("20 \\text{ pounds}", "20 \\text{ kg}"),
    ("15 \\text{ ounces}", "15 \\text{ grams}"),
    ("2 \\text{ gallons}", "2 \\text{ liters}"),
    ("7 \\text{ yards}", "7 \\text{ meters}"),
    ("40 \\text{ seconds}", "40 \\text{ minutes}"),
    ("3 \\text{ weeks}", "3 \\text{ months}"),
):
    _wrong("unit_words_w3", _boxed(resp), gold)
    _wrong("unit_words_w3", _answer_is(resp), gold)

# Multiple choice and text answers: hedges, negations, near misses.
for resp, gold in (
    ("\\text{(A) or (B)}", "\\text{(A)}"),
    ("\\text{A, B}", "\\text{(A)}"),
    ("\\text{A and B}", "\\text{(A)}"),
    ("\\text{AB}", "\\text{(A)}"),
    ("\\text{not (A)}", "\\text{(A)}"),
    ("\\text{(B)}", "\\text{(A)}"),
    ("A, C", "\\text{(A)}"),
    ("\\text{yes and no}", "\\text{yes}"),
    ("\\text{not yes}", "\\text{yes}"),
    ("\\text{no}", "\\text{yes}"),
    ("\\text{odd}", "\\text{even}"),
    ("\\text{not even}", "\\text{even}"),
    ("\\text{even or odd}", "\\text{even}"),
    ("\\text{always}", "\\text{never}"),
    ("\\text{one solution}", "\\text{no solution}"),
    ("\\text{true}", "\\text{false}"),
):
    _wrong("text_w3", _boxed(resp), gold)
    _wrong("text_w3", _answer_is(resp), gold)

# Pairs and tuples against sets and listings, other spellings; supersets and subsets.
for resp, gold in (
    ("(3, 1, 2)", "\\{1, 2, 3\\}"),
    ("(5, 5)", "\\{5\\}"),
    ("(2,3)", "2, 3"),
    ("\\left(-2, 2\\right)", "-2, 2"),
    ("(-2, 2)", "\\pm 2"),
    ("(1,2)", "x = 1, x = 2"),
    ("1, 2, 3", "1, 2"),
    ("1", "1, 2"),
    ("\\{1, 2, 3\\}", "\\{1, 2\\}"),
    ("3 \\times 10^{-8}", "3 \\times 10^{8}"),
    ("3e-8", "3 \\times 10^{8}"),
    ("30 \\times 10^{8}", "3 \\times 10^{8}"),
):
    _wrong("kinds_w3", _boxed(resp), gold)
    _wrong("kinds_w3", _answer_is(resp), gold)

# Unevaluated expressions against expressions.
for resp, gold in (
    ("x^2 + x^2", "2x^2"),
    ("\\frac{2x}{2}", "x"),
    ("2(x+1) - 2", "2x"),
    ("(x^2)^3", "x^6"),
    ("\\frac{x^5}{x^2}", "x^3"),
    ("3 \\cdot 2x", "6x"),
    ("\\frac{x}{2} + \\frac{x}{2}", "x"),
):
    _wrong("unevaluated_w3", _boxed(resp), gold)
    _wrong("unevaluated_w3", _answer_is(resp), gold)

# More natural right answers.
for gold, spellings in (
    ("\\text{(A)}", ("A", "(A)", "\\text{A}", "\\textbf{(A)}")),
    ("\\text{yes}", ("\\text{Yes}", "\\text{yes}")),
    ("3 \\times 10^{8}", ("3 \\times 10^8", "3\\cdot 10^{8}", "300000000")),
    ("\\text{even}", ("\\text{even}",)),
    ("1, 2", ("x = 1, 2", "x=1 \\text{ or } x=2", "\\{1, 2\\}")),
    ("-2, 2", ("\\pm 2", "x = \\pm 2", "2, -2")),
    ("2x^2", ("2x^2", "2 x^{2}")),
    ("\\frac{9}{4}", ("\\frac94", "2.25", "9/4")),
    ("7 \\text{ hours}", ("7\\text{ hours}", "7", "7 \\text{ hrs}")),
    ("\\$5", ("\\$5", "5", "\\$5.00", "5 \\text{ dollars}")),
):
    for spelling in spellings:
        _right("natural_w3", _boxed(spelling), gold)
        _right("natural_w3", _answer_is(spelling), gold)


PROBES: tuple[Probe, ...] = tuple(_rows)


# --- hostile cost probes (each answer is wrong for its gold) ------------------------------------
def _h(name: str, response: str, gold: str) -> Hostile:
    return Hostile(name, response, gold)


HOSTILE: tuple[Hostile, ...] = (
    _h("tildes", "\\boxed{1" + "~" * 5000 + "2}", "12"),
    _h("spaces", "\\boxed{1" + " " * 9000 + "2}", "12"),
    _h("quads", "\\boxed{1" + "\\quad " * 1500 + "2}", "12"),
    _h("parens", "\\boxed{" + "(" * 2000 + "x" + ")" * 2000 + "}", "y"),
    _h("braces", "\\boxed{" + "{" * 3000 + "1" + "}" * 3000 + "}", "2"),
    _h("tower_2", "\\boxed{2^{2^{2^{2^{2^{2^{2}}}}}}}", "2"),
    _h("tower_10", "\\boxed{10^{10^{10^{10}}}}", "1"),
    _h("tower_9", "\\boxed{9^{9^{9^{9}}}}", "9"),
    _h("factorial", "\\boxed{1000000!}", "1"),
    _h("factorial_huge", "\\boxed{(10^{100})!}", "1"),
    _h("digits", "\\boxed{" + "9" * 5000 + "}", "1"),
    _h("many_boxes", "\\boxed{1} " * 1000, "2"),
    _h("power_60", "\\boxed{(x+y+z+w+c)^{60}}", "x"),
    _h("power_300", "\\boxed{(x+y+z+w+c)^{300}}", "x"),
    _h("long_sum", "\\boxed{" + "x+" * 2000 + "x}", "x"),
    _h("nested_sqrt", "\\boxed{" + "\\sqrt{" * 500 + "2" + "}" * 500 + "}", "2"),
    _h("nested_frac", "\\boxed{" + "\\frac{1}{1+" * 300 + "1" + "}" * 300 + "}", "1"),
    _h("and_chain", "\\boxed{" + "x > 1 \\text{ and } " * 400 + "x > 1}", "(-\\infty, 1)"),
    _h("or_chain", "The answer is " + "$1$ or " * 900 + "$1$.", "2"),
    _h("nested_sin", "\\boxed{" + "\\sin(" * 400 + "x" + ")" * 400 + "}", "x"),
    _h("integral", "\\boxed{\\int_0^{10^{10}} e^{x^2}\\,dx}", "1"),
    _h("sum_huge", "\\boxed{\\sum_{k=1}^{10^{12}} k^{k}}", "1"),
    _h("exp_tower", "\\boxed{e^{e^{e^{e^{e^{10}}}}}}", "1"),
    _h("x_power", "\\boxed{x^{10^{100}}}", "x"),
    _h("binomial_power", "\\boxed{(x+1)^{10000}}", "x"),
    _h("minus_run", "\\boxed{" + "-" * 8000 + "1}", "2"),
    _h("left_right", "\\boxed{" + "\\left(" * 700 + "1" + "\\right)" * 700 + "}", "2"),
    _h("tiny_decimal", "\\boxed{0." + "0" * 9000 + "1}", "0"),
    _h("cdot_run", "\\boxed{" + "1\\cdot " * 1500 + "1}", "2"),
    _h("matrix_power", "\\boxed{" + _M + "^{100000}}", _M),
)


class HostileBatch(NamedTuple):
    name: str
    items: tuple[tuple[str, str, str], ...]  # (response, gold, label)


# Batches where slow wrong answers share a request with an honest one: no wrong answer may come
# back `error`, and the honest item must pass.
HOSTILE_BATCHES: tuple[HostileBatch, ...] = (
    HostileBatch(
        "power_63_plus_honest",
        (
            *((f"\\boxed{{(x+y+z+w+c)^{{{60 + k}}}}}", "x+y+z+w+c", "wrong") for k in range(63)),
            ("\\boxed{x+y+z+w+c}", "x+y+z+w+c", "right"),
        ),
    ),
    HostileBatch(
        "binomial_63_plus_honest",
        (
            *((f"\\boxed{{(x+1)^{{{10000 + k}}}}}", "x+1", "wrong") for k in range(63)),
            ("\\boxed{x+1}", "x+1", "right"),
        ),
    ),
    # Added after the two above were refused in milliseconds by a form rule: answers each of which
    # timed out alone (2 s) against a bare `x`, 63 distinct ones beside one honest item.
    HostileBatch(
        "huge_power_63_plus_honest",
        (
            *((f"\\boxed{{x^{{10^{{100}}+{k}}}}}", "x", "wrong") for k in range(63)),
            ("\\boxed{x}", "x", "right"),
        ),
    ),
    HostileBatch(
        "binomial_vs_x_63_plus_honest",
        (
            *((f"\\boxed{{(x+1)^{{{10000 + k}}}}}", "x", "wrong") for k in range(63)),
            ("The answer is $x$.", "x", "right"),
        ),
    ),
)
