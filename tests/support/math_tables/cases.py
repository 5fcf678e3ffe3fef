"""Our own labelled math cases: (category, response, answer, is_correct); shared with the benchmark.

Every category has positives and negatives; the near misses are the cases a policy would learn
to exploit if they passed.
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    category: str
    response: str
    answer: str
    is_correct: bool


def _box(text: str) -> str:
    return f"We work it out step by step. Therefore the result is $\\boxed{{{text}}}$."


INTEGERS = [
    (_box("5"), "5", True),
    (_box("-5"), "-5", True),
    (_box("42"), "42", True),
    (_box("0"), "0", True),
    (_box("100"), "100", True),
    (_box("+7"), "7", True),
    (_box("007"), "7", True),
    (_box("5"), "6", False),
    (_box("-5"), "5", False),
    (_box("42"), "24", False),
    (_box("1000"), "100", False),
    (_box("0"), "1", False),
    (_box("12345678901234567890"), "12345678901234567890", True),
    (_box("12345678901234567891"), "12345678901234567890", False),
    ("The answer is 17.", "17", True),
    ("The answer is 17.", "18", False),
    ("-5", "-5", True),
    ("17", "17", True),
    ("17", "71", False),
    ("Final Answer: 256", "256", True),
    ("Final Answer: 255", "256", False),
    ("Answer: 9", "9", True),
    ("**Answer:** 9", "9", True),
    ("Answer: 8", "9", False),
    ("The final answer is $3$. I hope it is correct.", "3", True),
    ("The final answer is $4$. I hope it is correct.", "3", False),
    (_box("2^{10}"), "1024", False),
    (_box("2^{10}"), "1023", False),
    (_box("3!"), "6", False),
    (_box("\\binom{5}{2}"), "10", False),
    (_box("\\dbinom{5}{2}"), "10", False),
    (_box("\\binom{5}{2}"), "20", False),
]

DECIMALS_FRACTIONS = [
    (_box("0.5"), "\\frac{1}{2}", True),
    (_box("\\frac{1}{2}"), "0.5", True),
    (_box("1/2"), "\\frac12", True),
    (_box("\\dfrac{3}{4}"), "0.75", True),
    (_box("\\tfrac{3}{4}"), "3/4", True),
    (_box("\\frac{6}{8}"), "\\frac{3}{4}", False),
    (_box(".25"), "\\frac{1}{4}", True),
    (_box("0.250"), "1/4", True),
    (_box("1.5"), "\\frac{3}{2}", True),
    (_box("-\\frac{1}{2}"), "-0.5", True),
    (_box("\\frac{-1}{2}"), "-\\frac{1}{2}", True),
    (_box("2.0"), "2", True),
    (_box("3\\frac{1}{2}"), "\\frac{7}{2}", True),
    (_box("0.333"), "\\frac{1}{3}", False),
    (_box("0.6667"), "\\frac{2}{3}", False),
    (_box("0.6666"), "\\frac{2}{3}", False),
    (_box("0.3"), "\\frac{1}{3}", False),
    (_box("0.33"), "\\frac{1}{3}", False),
    (_box("0.5"), "\\frac{1}{3}", False),
    (_box("\\frac{1}{3}"), "\\frac{1}{4}", False),
    (_box("\\frac{2}{3}"), "\\frac{3}{2}", False),
    (_box("0.51"), "0.5", False),
    (_box("0.499"), "0.5", False),
    (_box("1.25"), "1.2", False),
    (_box("-0.5"), "0.5", False),
    (_box("\\frac{10}{9}"), "10/9", True),
    (_box("-\\frac{10}{9}"), "-10/9", True),
    (_box("\\frac{10}{9}"), "-10/9", False),
    (_box("\\frac{22}{7}"), "\\pi", False),
    (_box("3.1416"), "\\pi", False),
    (_box("3.14"), "\\pi", False),
    (_box("3.15"), "\\pi", False),
    (_box("3.1"), "\\pi", False),  # 2 significant digits: too coarse
    (_box("3.142"), "\\pi", False),
    (_box("1.414"), "\\sqrt{2}", False),
    (_box("1.41"), "\\sqrt{2}", False),
    (_box("1.42"), "\\sqrt{2}", False),
    (_box("2.718"), "e", False),  # a bare `e` is Euler's number
    (_box("0.1"), "\\frac{1}{10}", True),
    (_box("0.01"), "\\frac{1}{10}", False),
]

LATEX_VARIANTS = [
    (_box("\\dfrac{1}{2}"), "\\frac{1}{2}", True),
    (_box("\\frac12"), "\\frac{1}{2}", True),
    (_box("\\frac 12"), "1/2", True),
    (_box("\\left(\\frac{1}{2}\\right)"), "\\frac{1}{2}", True),
    (_box("\\!\\frac{1}{2}"), "\\frac{1}{2}", True),
    (_box("1\\,000"), "1000", True),
    (_box("1{,}000"), "1000", True),
    (_box("90^\\circ"), "90", True),
    (_box("90^{\\circ}"), "90^\\circ", True),
    (_box("90°"), "90", True),
    (_box("45^\\circ"), "90^\\circ", False),
    (_box("\\text{5}"), "5", True),
    (_box("\\textbf{5}"), "5", True),
    (_box("\\mathrm{5}"), "5", True),
    (_box("\\displaystyle \\frac{1}{2}"), "\\frac{1}{2}", True),
    (_box("\\sqrt{4}"), "2", False),
    (_box("\\sqrt4"), "2", False),
    (_box("\\sqrt3"), "\\sqrt{3}", True),
    (_box("\\sqrt{3}"), "\\sqrt{2}", False),
    (_box("2\\sqrt{3}"), "\\sqrt{12}", True),
    (_box("3\\sqrt{13}"), "\\sqrt{117}", True),
    (_box("3\\sqrt{13}"), "\\sqrt{118}", False),
    (_box("\\frac{\\sqrt{2}}{2}"), "\\frac{1}{\\sqrt{2}}", True),
    (_box("\\frac{\\sqrt{3}}{2}"), "\\frac{1}{\\sqrt{2}}", False),
    (_box("\\sqrt{2}+\\sqrt{3}"), "\\sqrt{5+2\\sqrt{6}}", True),
    (_box("\\sqrt{2}+\\sqrt{3}"), "\\sqrt{5+2\\sqrt{5}}", False),
    (_box("\\frac{9}{4}\\pi"), "\\frac{9\\pi}{4}", True),
    (_box("\\frac94\\pi"), "\\frac{9\\pi}{4}", True),
    (_box("\\frac{9}{4}\\pi"), "\\frac{4\\pi}{9}", False),
    (_box("2\\pi"), "2\\pi", True),
    (_box("\\pi/2"), "\\frac{\\pi}{2}", True),
    (_box("\\pi"), "2\\pi", False),
    (_box("\\cfrac{1}{3}"), "1/3", True),
    (_box("\\left[ 1, 2 \\right]"), "[1,2]", True),
    # restating the arithmetic instead of its value is refused (domains/math/unevaluated.py)
    (_box("2 \\cdot 3"), "6", False),
    (_box("2 \\times 3"), "6", False),
    (_box("2 \\times 3"), "5", False),
    (_box("e^{i\\pi}"), "-1", False),
    (_box("\\log_2 8"), "3", False),
    (_box("\\ln(e^2)"), "2", False),
    (_box("\\sin\\frac{\\pi}{6}"), "\\frac{1}{2}", False),
    (_box("\\cos 0"), "1", False),
    (_box("\\cos 0"), "0", False),
]

NEAR_MISSES = [
    (_box("\\frac{1}{2^{99}}"), "\\frac{1}{2^{98}}", False),
    (_box("\\frac{1}{2^{98}}"), "\\frac{1}{2^{98}}", True),
    (_box("2^{-99}"), "\\frac{1}{2^{99}}", True),
    (_box("\\frac{1}{2004!}"), "\\frac{1}{2006!}", False),
    (_box("\\frac{1}{2006!}"), "\\frac{1}{2006!}", True),
    (_box("10^{-20}"), "0", False),
    (_box("0"), "10^{-20}", False),
    (_box("10^{50}+1"), "10^{50}", False),
    (_box("100000000000000000001"), "100000000000000000000", False),
    (_box("1.0000001"), "1", False),
    (_box("0.999999"), "1", False),
    (_box("1.000000000001"), "1", False),
    (_box("2^{100}"), "2^{100}+1", False),
    (_box("3^{40}"), "3^{40}", True),
    (_box("3^{40}"), "3^{41}", False),
    (_box("\\frac{1}{3^{50}}"), "\\frac{1}{3^{51}}", False),
    (_box("\\sqrt{2}"), "1.41421356", False),  # the gold is sqrt(2) rounded
    (
        _box("1.41421356"),
        "\\sqrt{2}",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (_box("1.41421357"), "\\sqrt{2}", False),
    (_box("\\pi^2/6"), "1.6449", False),
    (_box("\\pi^{2}/6"), "1.645", False),
    (_box("e^{-100}"), "0", False),
    (_box("1-10^{-30}"), "1", False),
    (_box("\\frac{2^{64}-1}{2^{64}}"), "1", False),
    (_box("2^{64}"), "18446744073709551616", False),
    (_box("2^{64}"), "18446744073709551615", False),
]

STRUCTURES = [
    (_box("\\{1,2\\}"), "\\{2,1\\}", True),
    (_box("\\{1,2,3\\}"), "\\{1,2\\}", False),
    (_box("\\{1,2\\}"), "\\{1,3\\}", False),
    (_box("(1,2)"), "(1,2)", True),
    (_box("(2,1)"), "(1,2)", False),
    (_box("(1, 2, 3)"), "(1,2,3)", True),
    (_box("(1,2,4)"), "(1,2,3)", False),
    (_box("(3, \\frac{\\pi}{2})"), "\\left( 3, \\frac{\\pi}{2} \\right)", True),
    (_box("(3, \\pi)"), "\\left( 3, \\frac{\\pi}{2} \\right)", False),
    (_box("(6,31,-1)"), "(6,31,-1)", True),
    (_box("(6,31,1)"), "(6,31,-1)", False),
    (_box("[0,1)"), "[0,1)", True),
    (_box("(0,1)"), "[0,1)", False),
    (_box("[0,1]"), "[0,1)", False),
    (_box("(-\\infty, 3]"), "(-\\infty,3]", True),
    (_box("(-\\infty, 3)"), "(-\\infty,3]", False),
    (
        _box("[-1, -\\tfrac12) \\cup (-\\tfrac12, 0)"),
        "[-1,-\\frac{1}{2})\\cup(-\\frac{1}{2},0)",
        True,
    ),
    (
        _box("[-1, -\\tfrac12) \\cup (-\\tfrac12, 1)"),
        "[-1,-\\frac{1}{2})\\cup(-\\frac{1}{2},0)",
        False,
    ),
    (_box("(0, \\frac{1}{2^{99}})"), "(0, \\frac{1}{2^{98}})", False),
    (_box("(1,\\infty)"), "(1, \\infty)", True),
    (
        _box("\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
        True,
    ),
    (
        _box("\\begin{pmatrix}1&2\\\\3&5\\end{pmatrix}"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
        False,
    ),
    (
        _box("\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
        True,
    ),
    (
        _box("\\begin{pmatrix}\\frac{1}{2}\\\\0.5\\end{pmatrix}"),
        "\\begin{pmatrix}0.5\\\\\\frac12\\end{pmatrix}",
        True,
    ),
    (_box("\\begin{pmatrix}1\\\\2\\end{pmatrix}"), "\\begin{pmatrix}1&2\\end{pmatrix}", False),
    (_box("\\begin{pmatrix}2\\\\-1\\end{pmatrix}"), "\\begin{pmatrix}2\\\\-1\\end{pmatrix}", True),
    (_box("\\begin{pmatrix}2\\\\1\\end{pmatrix}"), "\\begin{pmatrix}2\\\\-1\\end{pmatrix}", False),
    (_box("-2, 1"), "-2,1", True),
    (_box("1, -2"), "-2,1", True),
    (_box("-2, 2"), "-2,1", False),
    (_box("1 \\pm \\sqrt{19}"), "1 \\pm \\sqrt{19}", True),
    (_box("1 + \\sqrt{19}, 1 - \\sqrt{19}"), "1 \\pm \\sqrt{19}", True),
    (_box("1 \\pm \\sqrt{17}"), "1 \\pm \\sqrt{19}", False),
    (_box("\\{1\\pm\\sqrt{5},-2\\}"), "\\{-2, 1+\\sqrt{5}, 1-\\sqrt{5}\\}", True),
    (_box("\\{-1\\} \\cup [0,7)"), "\\{-1\\} \\cup [0,7)", True),
    (_box("\\{1\\} \\cup [0,7)"), "\\{-1\\} \\cup [0,7)", False),
    (_box("\\emptyset"), "\\emptyset", True),
    (_box("\\{5\\}"), "5", True),
    (_box("z \\in [-\\frac32, -1] \\cup [1, \\frac32]"), "1 \\le |z| \\le \\frac{3}{2}", True),
    (_box("z \\in [-\\frac32, -1] \\cup [1, 2]"), "1 \\le |z| \\le \\frac{3}{2}", False),
    (_box("x \\in [-2, 7]"), "[-2,7]", True),
    (_box("x \\in (-2, 7]"), "[-2,7]", False),
]

ALGEBRA = [
    # flipped (issue 27): not in the ground truth's form
    (_box("x^2+2x+1"), "(x+1)^2", False),
    (_box("x^2+2x+2"), "(x+1)^2", False),
    # flipped (issue 27): not in the ground truth's form
    (_box("(x-1)(x+1)"), "x^2-1", False),
    (_box("(x-1)(x+2)"), "x^2-1", False),
    (_box("2 \\sin b \\cos a"), "2 \\sin b \\cos a", True),
    (_box("2\\cos a \\sin b"), "2 \\sin b \\cos a", True),
    (_box("2\\sin a \\cos b"), "2 \\sin b \\cos a", False),
    (_box("\\frac{\\pi r}{h+r}"), "\\frac{\\pi r}{h+r}", True),
    (_box("\\frac{\\pi r}{r+h}"), "\\frac{\\pi r}{h+r}", True),
    (_box("\\frac{\\pi r}{h-r}"), "\\frac{\\pi r}{h+r}", False),
    (_box("2-2p"), "2-2p", True),
    (_box("-2p+2"), "2-2p", True),
    (_box("2+2p"), "2-2p", False),
    (_box("\\sin^2 x + \\cos^2 x"), "1", False),
    # flipped (issue 27): not in the ground truth's form
    (_box("\\frac{x^2-1}{x-1}"), "x+1", False),
    (_box("\\frac{x^2-1}{x+1}"), "x+1", False),
    # flipped (issue 27): not in the ground truth's form
    (_box("a^2-b^2"), "(a-b)(a+b)", False),
    (_box("a^2+b^2"), "(a-b)(a+b)", False),
    (_box("\\sqrt{x^2}"), "|x|", True),
    (_box("\\sqrt{x^2}"), "x", False),
    # flipped (issue 27): not in the ground truth's form
    (_box("\\frac{1}{x}+\\frac{1}{y}"), "\\frac{x+y}{xy}", False),
    (_box("\\frac{1}{x}+\\frac{1}{y}"), "\\frac{x+y}{x+y}", False),
    (_box("3x+2"), "2+3x", True),
    (_box("3x+2"), "3y+2", False),
    (_box("e^{2x}"), "(e^x)^2", True),
    (_box("x^{3}"), "x^{2}", False),
    (_box("\\frac{n(n+1)}{2}"), "\\frac{n^2+n}{2}", True),
    (_box("\\frac{n(n-1)}{2}"), "\\frac{n^2+n}{2}", False),
]

EQUATIONS = [
    (_box("x = 3"), "3", True),
    (_box("x=3"), "x = 3", True),
    (_box("3"), "x=3", True),
    (_box("x = 4"), "3", False),
    (_box("k = \\frac{1}{3}"), "\\frac13", True),
    (_box("y = 2x+3"), "y=2x+3", True),
    (_box("y = 3+2x"), "y=2x+3", True),
    (_box("y = 2x-3"), "y=2x+3", False),
    (_box("2x+2y=2"), "x+y=1", True),
    (_box("2x+2y=3"), "x+y=1", False),
    (_box("x \\geq 5"), "x \\ge 5", True),
    (_box("5 \\leq x"), "x \\geq 5", True),
    (_box("x \\leq 5"), "x \\geq 5", False),
    (_box("x > 5"), "x < 5", False),
    (_box("x < 3"), "x < 3", True),
    (_box("x \\neq 3"), "x \\ne 3", True),
    (_box("f(x) = x^2"), "x^2", True),
    (_box("a = b = 11"), "11", True),
    ("Since $x<2$, $x = 2-p$. Thus $x-p=\\boxed{2-2p}$.", "2-2p", True),
]

PERCENT_UNITS = [
    (_box("28\\%"), "28\\%", True),
    (_box("28"), "28\\%", True),
    (_box("0.28"), "28\\%", True),
    (_box("28\\%"), "0.28", True),
    (_box("29\\%"), "28\\%", False),
    (_box("2.8\\%"), "28\\%", False),
    (_box("28"), "0.28", False),
    (_box("28 \\text{ percent}"), "28\\%", True),
    (_box("50\\%"), "\\frac{1}{2}", True),
    (_box("12.5\\%"), "\\frac{1}{8}", True),
    (_box("15\\text{ cm}^2"), "15", True),
    (_box("15\\mbox{ cm}^2"), "15", True),
    (_box("16\\text{ cm}^2"), "15", False),
    (_box("125\\textnormal{ miles}"), "125", True),
    (_box("125 \\text{ miles}"), "124", False),
    (_box("\\$18.90"), "18.90", True),
    (_box("\\$18.90"), "18.9", True),
    (_box("\\$18.95"), "18.9", False),
    (_box("5 \\text{ inches}"), "5", True),
    (_box("5\\text{ meters}"), "5", True),
    (_box("5 \\text{ dollars}"), "5", True),
    (_box("6 \\text{ dollars}"), "5", False),
    (_box("30 \\text{ degrees}"), "30^\\circ", True),
    (_box("20 \\text{ square units}"), "20", True),
    (_box("7 \\text{ hours}"), "7", True),
    (_box("10 \\text{ km}"), "10", True),
    (_box("5 \\text{ triangles}"), "5", True),
    (_box("5 \\text{ distinct values}"), "5", True),
    (_box("6 \\text{ triangles}"), "5", False),
    (_box("5 \\text{ or more}"), "5", False),
    (_box("5 \\text{ thousand}"), "5", False),
    (_box("5 \\text{ approximately}"), "5", False),
]

SEPARATORS_SCIENTIFIC = [
    ("7,425,000", "7425000", True),
    (_box("7,425,000"), "7425000", True),
    (_box("7,425,000"), "742500", False),
    (_box("1,000.5"), "1000.5", True),
    (_box("14{,}916"), "14916", True),
    (_box("14{,}916"), "14{,}916", True),
    (_box("14{,}917"), "14{,}916", False),
    (_box("1\\,000\\,000"), "10^6", True),
    (_box("1.5 \\times 10^{3}"), "1500", True),
    (_box("1.5 \\times 10^3"), "1500", True),
    (_box("1.5e3"), "1500", True),
    (_box("1.5e3"), "150", False),
    (_box("2.5\\times10^{-3}"), "0.0025", True),
    (_box("2.5\\times10^{-4}"), "0.0025", False),
    (_box("6.02 \\times 10^{23}"), "6.02\\times10^{23}", True),
    (_box("6.02 \\times 10^{22}"), "6.02\\times10^{23}", False),
    (_box("10^{6}"), "1000000", True),
    (_box("10^{6}"), "100000", False),
    (_box("1 000 000"), "1000000", True),
]

COMPLEX_INFINITY = [
    (_box("3+4i"), "3+4i", True),
    (_box("4i+3"), "3+4i", True),
    (_box("3-4i"), "3+4i", False),
    (_box("i^2"), "-1", False),
    (_box("\\frac{1}{i}"), "-i", False),  # i in a denominator: the division is left to do
    (_box("\\frac{1}{i}"), "i", False),
    (_box("(1+i)^2"), "2i", False),
    (_box("(1+i)^2"), "2", False),
    (_box("\\infty"), "\\infty", True),
    (_box("-\\infty"), "\\infty", False),
    (_box("\\infty"), "+\\infty", True),
    (_box("+\\infty"), "-\\infty", False),
    (_box("(-\\infty, \\infty)"), "(-\\infty,\\infty)", True),
    (_box("1"), "\\infty", False),
]

TEXT_CHOICES = [
    (_box("\\text{Evelyn}"), "\\text{Evelyn}", True),
    (_box("Evelyn"), "\\text{Evelyn}", True),
    (_box("\\text{evelyn}"), "Evelyn", True),
    (_box("\\text{Carla}"), "\\text{Evelyn}", False),
    (_box("\\text{yes}"), "yes", True),
    (_box("\\text{no}"), "yes", False),
    (_box("\\text{odd}"), "\\text{odd}", True),
    (_box("\\text{even}"), "\\text{odd}", False),
    (_box("\\text{Tuesday}"), "Tuesday", True),
    (_box("\\text{Monday}"), "Tuesday", False),
    (_box("B"), "B", True),
    (_box("(B)"), "B", True),
    (_box("\\text{(B)}"), "B", True),
    (_box("\\textbf{(B)}"), "(B)", True),
    (_box("C"), "B", False),
    (_box("(C)"), "(B)", False),
    ("The answer is (D).", "D", True),
    ("The answer is (D).", "A", False),
    ("Answer: C", "C", True),
    ("Answer: B", "C", False),
    (_box("\\text{(E) } 42"), "E", True),
    (_box("\\text{(A) } 42"), "E", False),
    # two choices named is hedging, whatever the first one is
    ("\\boxed{\\text{(A) or (B)}}", "A", False),
    ("\\boxed{(A), (B)}", "A", False),
    ("The answer is (C) / (D).", "C", False),
    ("Option C", "C", True),
]

EXTRACTION = [
    ("The answer is $\\frac{1}{2}$.", "\\frac{1}{2}", True),
    ("So the final answer is 12.", "12", True),
    ("Final Answer: The final answer is $\\frac{14}{3}$. I hope it is correct.", "14/3", True),
    ("Final Answer: $\\frac{14}{3}$", "\\frac{14}{3}", True),
    ("Final answer: 7", "7", True),
    ("Thus the answer is 4 and nothing else.", "4", True),
    ("Thus the answer is 5 and nothing else.", "4", False),
    ("$\\frac{1}{2}$", "\\frac{1}{2}", True),
    ("\\(\\frac{1}{2}\\)", "0.5", True),
    ("$-5$", "-5", True),
    ("x = 3", "3", True),
    (
        "Let us compute. First $a = 2$, then $b = 5$.\n\nThe answer is: $\\boxed{7}$",
        "7",
        True,
    ),
    # flipped (issue 27): not in the ground truth's form
    ("We get \\boxed{\\frac{1}{\\sqrt{2}}} as the result.", "\\frac{\\sqrt{2}}{2}", False),
    # flipped (issue 27): not in the ground truth's form
    ("Nested: \\boxed{\\frac{\\sqrt{3}}{\\sqrt{\\frac{1}{4}}}}", "2\\sqrt{3}", False),
    ("\\fbox{12}", "12", True),
    ("\\boxed 5", "5", True),
    ("\\boxed{5} and then again \\boxed{5}", "5", True),
    ("\\boxed{\\frac{1}{2}} which is \\boxed{0.5}", "0.5", True),
    ("\\boxed{2} or maybe \\boxed{3}", "2", False),
    ("\\boxed{2} or maybe \\boxed{3}", "3", False),
    ("It is either \\boxed{4}, \\boxed{5} or \\boxed{6}.", "5", False),
    ("I am not sure what the answer is.", "5", False),
    ("", "5", False),
    ("Let me think about this problem carefully", "5", False),
    ("The answer is \\boxed{5", "5", False),  # unbalanced braces: not an answer
    ("We found $x=2$ earlier and the result is $\\frac{3}{5}$", "\\frac{3}{5}", False),
    ("Computing gives 3, then 4, and so 19", "19", False),
    ("Computing gives 3, then 4, and so 19", "4", False),
    ("the number is not 10 which is 1,000.99€", "1000.99", False),
    ("Final Answer: The final answer is $28 \\%$. I hope it is correct.", "28", True),
    ("\\boxed{\\boxed{8}}", "8", True),
    ("**Final Answer**\n\\[\n\\boxed{2016}\n\\]", "2016", True),
    ("**Final Answer**\n\\[\n\\boxed{2016}\n\\]", "2017", False),
    ("The answer is $x = 5$.", "5", True),
    ("$\\boxed{x = 5}$", "x=6", False),
]

GOLD_FORMS = [
    (_box("14/3"), "$\\frac{14}{3}$", True),
    (_box("9"), "$9$", True),
    (_box("125"), "$125$ miles", True),
    (_box("\\frac{3}{56}"), "so \\[p(8) = \\boxed{\\frac{3}{56}}.\\]", True),
    (_box("\\frac{3}{57}"), "so \\[p(8) = \\boxed{\\frac{3}{56}}.\\]", False),
    (_box("2"), "\\boxed{2}", True),
    (_box("204_5"), "204_5", True),
    (_box("204_6"), "204_5", False),
]


MIXED_FORMS = [
    ("\\boxed{3.0}", "3", True),
    ("\\boxed{50\\%}", "\\frac{1}{2}", True),
    ("\\boxed{2/4}", "1/2", False),
    ("\\boxed{10\\%}", "0.1", True),
    ("The answer is C", "\\text{(C)}", True),
    ("The answer is C", "\\text{(D)}", False),
    ("\\boxed{5}.", "5", True),
    ("\\boxed{12 \\text{ cm}}", "12", True),
    ("5 dollars", "\\$5", True),
    ("\\boxed{1000}", "1,000", True),
    # flipped (issue 27): not in the ground truth's form
    ("\\boxed{\\sqrt{18}}", "3\\sqrt{2}", False),
    ("\\boxed{x \\cdot x}", "x^2", False),  # powers of one base not combined
    ("\\boxed{\\infty}", "\\infty", True),
    ("\\boxed{2}\\boxed{2}", "2", True),
    ("The answer is $\\boxed{4}$ because 2+2=4.", "4", True),
    ("\\boxed{[1,2]}", "[1, 2]", True),
    ("\\boxed{6.02e23}", "6.02 \\times 10^{23}", True),
    ("\\boxed{3i+2}", "2+3i", True),
    ("\\boxed{0.3333}", "1/3", False),
    ("\\boxed{1/2}", "0.5", True),
    ("\\boxed{x=3, y=2}", "x=3, y=2", True),
    ("\\boxed{x=2, y=3}", "x=3, y=2", False),
    # bare values answer a named system in the order the ground truth names them
    ("\\boxed{(3,2)}", "x=3, y=2", True),
    ("\\boxed{3, 2}", "x=3, y=2", True),
    ("\\boxed{-5, \\frac{14}{3}}", "x = -5,\\ p = \\frac{14}{3}", True),
    ("\\boxed{(2,3)}", "x=3, y=2", False),
    ("\\boxed{2, 3}", "x=3, y=2", False),
    ("\\boxed{3, 2, 1}", "x=3, y=2", False),
    ("\\boxed{3, y=2}", "x=3, y=2", False),
    ("so $x = \\boxed{-\\frac{3}{2}}$", "-1.5", True),
    ("\\boxed{\\frac{3}{-2}}", "-1.5", True),
    ("\\boxed{1.50}", "1.5", True),
    ("\\boxed{\\dfrac{\\pi}{3}}", "\\frac{\\pi}{3}", True),
    ("\\boxed{60^\\circ}", "\\frac{\\pi}{3}", False),
    ("\\boxed{\\sqrt[3]{8}}", "2", False),
    ("\\boxed{e^2}", "e^{2}", True),
    ("\\boxed{\\ln 2}", "\\log 2", True),
    ("\\boxed{n^2}", "n^{2}", True),
    ("\\boxed{2n+1}", "2n-1", False),
    ("\\boxed{\\frac{a+b}{2}}", "\\frac{b+a}{2}", True),
    ("\\boxed{0}", "-0", True),
    ("\\boxed{-0.0}", "0", True),
    ("\\boxed{1e-3}", "0.001", True),
    ("\\boxed{\\text{No solution}}", "\\text{no solution}", True),
    ("\\boxed{None}", "\\text{no solution}", False),
    ("\\boxed{\\emptyset}", "\\varnothing", True),
    ("\\boxed{(-\\infty, 2) \\cup (3, \\infty)}", "(-\\infty,2)\\cup(3,\\infty)", True),
    ("\\boxed{x \\in (-\\infty, 2)}", "(-\\infty, 2)", True),
    ("\\boxed{x < 2}", "(-\\infty, 2)", True),
    ("\\boxed{a=2}", "2", True),
    # flipped (issue 27): not in the ground truth's form
    ("\\boxed{\\frac{1}{\\sqrt{3}}}", "\\frac{\\sqrt{3}}{3}", False),
    ("\\boxed{2\\sqrt{2}}", "\\sqrt{8}", True),
    ("\\boxed{\\sqrt{2}}", "\\sqrt{3}", False),
    ("\\boxed{1{,}000{,}000}", "10^6", True),
    (
        "\\boxed{3.14159}",
        "\\pi",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    ("\\boxed{22/7}", "\\pi", False),
    ("\\boxed{-5}", "5", False),
    ("\\boxed{ 5 }", "5", True),
    ("Answer: $\\frac{3}{4}$", "0.75", True),
    ("\\boxed{75\\%}", "\\frac34", True),
    ("\\boxed{0.75}", "75\\%", True),
    ("\\boxed{2 \\pi r}", "2\\pi r", True),
    ("\\boxed{\\pi r^2}", "2\\pi r", False),
    ("\\boxed{y=x+1}", "y = x + 1", True),
    ("\\boxed{x+1}", "y=x+1", True),
    ("\\boxed{k}", "k", True),
    ("\\boxed{\\textbf{(A)}\\ 5}", "A", True),
    ("\\boxed{A}", "\\textbf{(A)}", True),
    ("\\boxed{B}", "\\textbf{(A)}", False),
]


def _tagged(category: str, rows: list[tuple[str, str, bool]]) -> list[Case]:
    return [Case(category, response, answer, expected) for response, answer, expected in rows]


CASES: list[Case] = [
    *_tagged("integers", INTEGERS),
    *_tagged("decimals_fractions", DECIMALS_FRACTIONS),
    *_tagged("latex_variants", LATEX_VARIANTS),
    *_tagged("near_misses", NEAR_MISSES),
    *_tagged("structures", STRUCTURES),
    *_tagged("algebra", ALGEBRA),
    *_tagged("equations", EQUATIONS),
    *_tagged("percent_units", PERCENT_UNITS),
    *_tagged("separators_scientific", SEPARATORS_SCIENTIFIC),
    *_tagged("complex_infinity", COMPLEX_INFINITY),
    *_tagged("text_choices", TEXT_CHOICES),
    *_tagged("extraction", EXTRACTION),
    *_tagged("gold_forms", GOLD_FORMS),
    *_tagged("mixed_forms", MIXED_FORMS),
]


# --- issue 12: what an adversarial policy finds by itself (each family has our own spellings) ---

_U1 = "\\frac{1}{|x| - \\sqrt{x^2}}"  # undefined at every real point
_U2 = "\\frac{x^2-1}{(x-1)(x+1)-x^2+1}"  # 0/0 wherever it is evaluated
_U3 = "\\frac{1}{\\lceil x \\rceil - \\lfloor x \\rfloor - 1}"  # undefined off the integers
_U4 = "\\frac{t}{\\sqrt{t^2} - |t|}"
_U5 = "0^{-x^2}"
_U6 = "\\frac{1}{(y+1)^2 - y^2 - 2y - 1}"

UNDEFINED_EVERYWHERE = [
    *[
        (_box(_U1), gold, False)
        for gold in (
            "5",
            "\\frac{3}{7}",
            "\\sqrt{2}",
            "x^2+1",
            "\\pi",
            "-12",
            "\\{1, 2\\}",
            "1, 2",
            "[0, 1)",
            "\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}",
            "(1, 2, 3)",
            "y=2x+3",
            "\\text{(B)}",
            "50\\%",
            "2i+1",
            "\\infty",
        )
    ],
    *[(_box(_U2), gold, False) for gold in ("5", "x^2+1", "\\pi", "y=2x+3", "\\frac{3}{7}")],
    *[(_box(u), "x^2+1", False) for u in (_U3, _U4, _U5, _U6)],
    *[(_box(u), "7", False) for u in (_U3, _U4, _U5, _U6)],
    (_box(f"\\{{{_U1}, {_U1}\\}}"), "\\{1, 2\\}", False),
    (_box(f"({_U1}, {_U4})"), "(1, 2)", False),
    (_box(f"[{_U2}, {_U1})"), "[0, 1)", False),
    (_box(f"y = {_U1}"), "y = 2x + 3", False),
    (_box(f"x > {_U1}"), "x > 3", False),
    (
        _box(f"\\begin{{pmatrix}}{_U1} & {_U4}\\end{{pmatrix}}"),
        "\\begin{pmatrix}1 & 2\\end{pmatrix}",
        False,
    ),
    (_box(f"x^2 + 1 + {_U1}"), "x^2+1", False),
    (_box("\\frac{0}{0}"), "0", False),
    (_box("\\infty - \\infty"), "0", False),
    (_box("\\tan\\frac{\\pi}{2}"), "\\infty", False),
    # removable or isolated singularities stay fine
    # flipped (issue 27): not in the ground truth's form
    (_box("\\frac{x^2-1}{x-1}"), "x+1", False),
    (_box("\\frac{|x|}{x}"), "\\frac{x}{|x|}", True),
    (_box("\\frac{1}{x-1}"), "\\frac{1}{x-1}", True),
    (_box("\\frac{1}{1-x}"), "-\\frac{1}{x-1}", True),
    (_box("\\sqrt{x}\\sqrt{x}"), "x", True),
]

RESTATED = [
    *[
        (_box(r), "391", False)
        for r in (
            "(17)(23)",
            "17(23)",
            "17 \\times 23 / 1",
            "\\frac{17\\times23}{1}",
            "17 \\div 1 \\times 23",
            "17 \\times 23^{1}",
            "17 × 23",
            "{17} \\times {23}",
            # ours
            "17 \\cdot 23",
            "17 * 23",
            "17·23",
            "400 - 9",
            "391 + 0",
            "391 \\cdot 1",
            "\\frac{782}{2}",
            "\\sqrt{391^2}",
            "|-391|",
            "\\frac{391x}{x}",
            "x = 17 \\cdot 23",
        )
    ],
    (_box("\\int_0^1 x^2\\,dx"), "\\frac13", False),
    (_box("\\sum_{k=1}^{10} k"), "55", False),
    (_box("\\int_{0}^{1} 3t^{2}\\,dt"), "1", False),
    (_box("\\prod_{k=1}^{4} k"), "24", False),
    (_box("\\lim_{n \\to \\infty} \\frac{n+1}{n}"), "1", False),
    (_box("\\frac{d}{dx} x^3"), "3x^2", False),
    (_box("\\int x\\,dx"), "\\frac{x^2}{2}", False),
    (_box("\\sum_{k=0}^{\\infty} \\frac{1}{2^k}"), "2", False),
    (_box("5!"), "120", False),
    (_box("2^{5}"), "32", False),
    (_box("\\binom{6}{3}"), "20", False),
    (_box("\\{17 \\cdot 23, 2\\}"), "\\{391, 2\\}", False),
    (_box("(1+1, 3)"), "(2, 3)", False),
    (_box("\\begin{pmatrix}1+1 & 0\\end{pmatrix}"), "\\begin{pmatrix}2 & 0\\end{pmatrix}", False),
    (_box("4\\arctan 1"), "\\pi", False),
    (_box("\\frac{5}{1}"), "5", False),
    (_box("9^{9^{9^{9}}}"), "3", False),  # refused as written, never evaluated
    (_box("\\sin\\frac{\\pi}{3}"), "\\frac{\\sqrt{3}}{2}", False),
    (_box("\\sqrt{-4} + 1"), "1 + 2i", False),
    (_box("\\pi"), "3.14", False),
    (_box("\\frac{1}{0}"), "\\infty", False),
    (_box("\\infty - 1"), "\\infty", False),
    # signs on signs: the parser folds them into the number, the text still shows them
    (_box("-(-3)"), "3", False),
    (_box("--3"), "3", False),
    (_box("-\\left(-3\\right)"), "3", False),
    (_box("-\\frac{-3}{4}"), "\\frac{3}{4}", False),
    (_box("+(-3)"), "-3", False),
    (_box("x = -(-2)"), "2", False),
    # functions of numbers the parser evaluates on sight
    (_box("\\max(3, 2)"), "3", False),
    (_box("\\min(2, 5)"), "2", False),
    (_box("\\max\\{7, 1\\}"), "7", False),
    # canonical forms are values
    (_box("-3"), "-3", True),
    (_box("\\frac{-3}{4}"), "-0.75", True),
    (_box("3 \\div 4"), "0.75", True),
    (_box("2^{1/2}"), "\\sqrt{2}", True),
    (_box("0.\\overline{9}"), "1", True),
    (_box("391"), "391", True),
    (_box("(17)(23) = 391"), "391", True),  # a true equation ending in the value
    (_box("x = 391"), "391", True),
    (_box("\\frac{3}{4}"), "0.75", True),
    (_box("-\\frac{3}{4}"), "-0.75", True),
    (_box("2\\sqrt{3}"), "\\sqrt{12}", True),
    (_box("\\frac{\\sqrt{3}}{2}"), "\\frac{1}{2}\\sqrt{3}", True),
    (_box("3 + 4i"), "4i + 3", True),
    (_box("\\frac{\\pi}{3}"), "\\frac{\\pi}{3}", True),
    (_box("2^{-99}"), "\\frac{1}{2^{99}}", True),
    (_box("1.5 \\times 10^{3}"), "1500", True),
    (_box("1 - \\sqrt{2}"), "-\\sqrt{2} + 1", True),
    (_box("\\frac{x^3}{3}"), "\\frac{1}{3}x^3", True),
]

UNKNOWN_TOKENS = [
    (_box("7 \\bmod 3"), "3", False),
    (_box("7 \\bmod 3"), "1", False),
    *[
        (_box(f"3 {op} 4"), "4", False)
        for op in ("\\to", "\\mid", "\\lor", "\\simeq", "\\cong", "\\colon", "?")
    ],
    *[
        (_box(r), "3", False)
        for r in ("3|4", "3 \\approx 4", "\\boxed{3} 4", "\\geq 3", "3'", "3, \\ldots", "4 = 3")
    ],
    ("Final answer: $3$ or $4$", "3", False),
    ("Final answer: $3$ or $4$", "4", False),
    (_box("\\{1,\\{2\\}\\}"), "\\{1,2\\}", False),
    # ours
    *[
        (_box(f"3 {op} 4"), "4", False)
        for op in (
            "\\pmod",
            "\\equiv",
            "\\implies",
            "\\Rightarrow",
            "\\rightarrow",
            "\\land",
            "\\vee",
            "\\sim",
            "\\propto",
            "\\cdots",
            ";",
            "\\circ",
        )
    ],
    *[
        (_box(r), "3", False)
        for r in (
            "3 \\dots",
            "\\approx 3",
            "x \\approx 3",
            "3^{\\prime}",
            "3''",
            "3_{4}",
            "3 \\leq",
            "= 3",
            "\\lvert 3",
            "x = 4 = 3",
            "3 = 3 = 4",
        )
    ],
    (_box("2 + 2 = 5"), "5", False),
    ("The answer is $3$, or maybe $4$.", "4", False),
    ("Answer: $3$, $4$", "3", False),
    (_box("3 \\text{ or } 4"), "3", False),
    (_box("\\{\\{1\\}, 2\\}"), "\\{1, 2\\}", False),
    (_box("(\\{1\\}, 2)"), "(1, 2)", False),
    # what the parser does understand still parses
    (_box("\\lvert x \\rvert"), "|x|", True),
    (_box("|x|"), "\\sqrt{x^2}", True),
    (_box("\\{1, \\{2\\}\\}"), "\\{\\{2\\}, 1\\}", True),
    (_box("2 + 2 = 4"), "4", True),
    (_box("x = 3"), "3", True),
    ("Answer: $3$, $4$", "3, 4", True),
]

TRUNCATED = [
    ("First, 3 \\cdot 4 = 12, and then we need to", "12", False),
    ("So the total is 12 and then we add the", "12", False),
    ("We compute $3 \\cdot 4 = 12$ and next", "12", False),
    ("<think>The sum is 12, so the answer is 12", "12", False),
    ("<think>Let me try \\boxed{12}. Hmm, I should check", "12", False),
    ("Let me compute $a = 12$, then", "12", False),
    ("The first part gives $\\frac{1}{2}$ and we still need the", "\\frac{1}{2}", False),
    ("<think>ok</think>", "12", False),
    ("3 \\cdot 4 = 12 and", "12", False),
    ("12 +", "12", False),
    ("$3 \\cdot 4 = 12$, so", "12", False),
    # marked answers, and a response that is nothing but an answer
    ("The answer is 12.", "12", True),
    ("**Final Answer**\n\\boxed{12}", "12", True),
    ("**Final Answer**\n12", "12", True),
    ("Therefore $x \\geq 5$ is the solution.", "x \\ge 5", True),
    ("Thus $12$ is our answer.", "12", True),
    ("So \\(7\\) is the final answer.", "7", True),
    ("The answer is $3$. Wait: $4$ is the answer.", "4", True),
    ("The answer is $3$. Wait: $4$ is the answer.", "3", False),
    ("We find that $x < 3$.", "x < 3", False),
    ("**Final Answer**: $\\frac{1}{2}$", "0.5", True),
    ("__Final answer__ 7", "7", True),
    ("12", "12", True),
    ("$12$", "12", True),
    ("Answer $12$", "12", True),
    ("$28$ %", "28\\%", True),
    ("<think>3 \\cdot 4 = 12</think>\nThe answer is $12$.", "12", True),
]

DECIMAL_DIGITS = [
    (_box("3.1416"), "\\pi", False),
    (_box("1.732"), "\\sqrt3", False),
    (_box("2.718"), "e", False),
    (
        _box("0.1428571429"),
        "\\frac17",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    # ours
    (
        _box("3.14159"),
        "\\pi",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (_box("3.14158"), "\\pi", False),
    (
        _box("1.73205"),
        "\\sqrt{3}",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (_box("1.7321"), "\\sqrt{3}", False),
    (_box("0.33333"), "\\frac13", False),
    (
        _box("0.333333"),
        "\\frac13",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (_box("0.14286"), "\\frac17", False),
    (
        _box("0.142857"),
        "\\frac17",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (
        _box("2.71828"),
        "e",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (_box("0.6931"), "\\ln 2", False),
    (_box("(0.33, 0.5)"), "(\\frac13, \\frac12)", False),
    (_box("\\{1.4142, 2\\}"), "\\{\\sqrt{2}, 2\\}", False),
    (
        _box("\\{1.414214, 2\\}"),
        "\\{\\sqrt{2}, 2\\}",
        False,
    ),  # an exact ground truth is matched exactly (issue 27; `DECIMAL_FOR_EXACT` relaxes it)
    (_box("0.125"), "\\frac18", True),  # exact
    (_box("0.13"), "\\frac18", False),
    (_box("\\frac{1}{3}"), "0.333", True),  # an exact answer to a rounded ground truth
]

SELF_CORRECTION = [
    (
        "Initially I got \\boxed{8}, but that double counts the pairs; "
        "the correct count is \\boxed{6}.",
        "6",
        True,
    ),
    ("<think>Maybe \\boxed{8}? No, recount.</think>\nThe answer is \\boxed{6}.", "6", True),
    ("<think>Maybe \\boxed{8}? No, recount.</think>\nThe answer is \\boxed{6}.", "8", False),
    ("It is \\boxed{6} or \\boxed{8}.", "6", False),
    ("It is either \\boxed{6} or \\boxed{8}.", "8", False),
    # ours
    ("So \\boxed{10}. Wait, I made an error in step 2. Redoing it: \\boxed{12}.", "12", True),
    ("So \\boxed{10}. Wait, I made an error in step 2. Redoing it: \\boxed{12}.", "10", False),
    ("We get \\boxed{5}. Actually, that is wrong since $x > 0$, so \\boxed{3}.", "3", True),
    (
        "My first try gave \\boxed{7}; however I missed a case, so the total is \\boxed{9}.",
        "9",
        True,
    ),
    ("<think>\\boxed{1}</think>\\boxed{2}", "2", True),
    ("<think>\\boxed{1}</think>\\boxed{2}", "1", False),
    ("The answer is \\boxed{6}, \\boxed{8}.", "6", False),
    ("Possible answers: \\boxed{6} / \\boxed{8}", "8", False),
    ("Either \\boxed{4}, \\boxed{5} or \\boxed{6}.", "6", False),
    ("\\boxed{6} or perhaps \\boxed{8}", "8", False),
    ("\\boxed{2} and \\boxed{3}", "2, 3", True),  # a ground truth with two parts
]

NOTATIONS = [
    (_box("0.\\overline{3}"), "\\frac13", True),
    (_box("0.(3)"), "\\frac13", True),
    (_box("x = -2 \\text{ or } x = 3"), "-2, 3", True),
    (_box("x = -2 \\text{ or } x = 3"), "\\{-2, 3\\}", True),
    (_box("\\mathbb{R} \\setminus \\{2\\}"), "(-\\infty, 2) \\cup (2, \\infty)", True),
    # ours
    (_box("0.1\\overline{6}"), "\\frac16", True),
    (_box("1.\\overline{142857}"), "\\frac87", True),
    (_box("0.\\overline{3}"), "\\frac14", False),
    (_box("0.(6)"), "0.6", False),
    (_box("x=-2 \\quad\\text{or}\\quad x=3"), "\\{3, -2\\}", True),
    (_box("x = -2 \\text{ or } x = 4"), "-2, 3", False),
    (_box("x = -2 \\text{ or } y = 3"), "-2, 3", False),
    (_box("x_1 = -2, x_2 = 3"), "-2, 3", True),
    (_box("\\mathbb{R} \\setminus \\{3\\}"), "(-\\infty, 2) \\cup (2, \\infty)", False),
    (_box("(-\\infty, 2) \\cup (2, \\infty)"), "\\mathbb{R} \\setminus \\{2\\}", True),
    (_box("\\mathbb{R}"), "(-\\infty, \\infty)", True),
    (_box("x \\le -2 \\text{ or } x \\ge 2"), "(-\\infty,-2]\\cup[2,\\infty)", True),
    (_box("x \\le -2 \\text{ or } y \\ge 2"), "(-\\infty,-2]\\cup[2,\\infty)", False),
    (_box("x < -2 \\text{ or } x \\ge 2"), "(-\\infty,-2]\\cup[2,\\infty)", False),
    (_box("\\frac{-1 \\pm \\sqrt{5}}{2}"), "\\frac{-1+\\sqrt5}{2}, \\frac{-1-\\sqrt5}{2}", True),
    (_box("\\frac{-1 \\pm \\sqrt{5}}{2}"), "\\frac{-1+\\sqrt5}{2}", False),
    ("**5**", "5", True),
    (_box("2, 1"), "(1, 2)", False),  # a listing answers an ordered pair only in its order
    (_box("1, 2"), "(1, 2)", True),
    (_box("\\{2, 1\\}"), "(1, 2)", False),
]

ANSWER_FAULTS = [
    (_box("\\sum_{n=1}^{\\infty} n"), "3", False),
    (_box("\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}^{-1}"), "3", False),
    (
        _box("\\begin{pmatrix}1&2\\\\2&4\\end{pmatrix}^{-1}"),
        "\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}",
        False,
    ),
    (_box("\\begin{pmatrix}1&2\\end{pmatrix} + 1"), "2", False),
    (_box("\\int_0^\\infty x\\,dx"), "\\infty", False),
    (_box("\\lim_{x \\to 0} \\frac{1}{x}"), "\\infty", False),
    (_box("x > \\frac{0}{0}"), "x > 3", False),
    (_box("\\sum_{n=1}^{\\infty} n"), "\\sum_{n=1}^{\\infty} n", True),  # the same expression
]

CASES += [
    *_tagged("undefined_everywhere", UNDEFINED_EVERYWHERE),
    *_tagged("restated", RESTATED),
    *_tagged("unknown_tokens", UNKNOWN_TOKENS),
    *_tagged("truncated", TRUNCATED),
    *_tagged("decimal_digits", DECIMAL_DIGITS),
    *_tagged("self_correction", SELF_CORRECTION),
    *_tagged("notations", NOTATIONS),
    *_tagged("answer_faults", ANSWER_FAULTS),
]
