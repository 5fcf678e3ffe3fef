"""Correct answers as models write them, across answer types; at most 2 % may be refused.

Each row is (answer type, response, ground truth). The responses are in the styles of the
policies we train (Qwen/DeepSeek-style `<think>` blocks, MATH-style `\\boxed{}`, GSM8K `####`,
"Final Answer:" lines, bold markdown, trailing end-of-sequence tokens), with the spellings a
correct solution uses (units, named values, words for sets, `\\pm`).
"""

from __future__ import annotations


def _think(answer_line: str) -> str:
    return (
        "<think>\nLet me work through this carefully. First I set up the equation, then I "
        "solve it and check the result.\n</think>\n\n" + answer_line
    )


def _math(value: str) -> str:
    return f"We simplify step by step.\n\nTherefore, the final answer is $\\boxed{{{value}}}$."


INTEGERS = [
    ("integer", _math("42"), "42"),
    ("integer", "The total is 18 apples.\n#### 18", "18"),
    ("integer", "So she has 7 left.\n\n#### 7", "7"),
    ("integer", _think("The answer is $\\boxed{120}$."), "120"),
    ("integer", "**Final Answer**\n\\[\n\\boxed{2016}\n\\]", "2016"),
    ("integer", "Final Answer: The final answer is $5$. I hope it is correct.", "5"),
    ("integer", "The answer is: 36", "36"),
    ("integer", _math("-3"), "-3"),
    ("integer", _math("1,000,000"), "1000000"),
    ("integer", _math("10^6"), "1000000"),
    ("integer", "Thus the correct answer is $12$.", "12"),
    ("integer", _math("12") + "</s>", "12"),
    ("integer", _math("12") + "<｜end▁of▁sentence｜>", "12"),
    ("integer", _math("12") + "<|im_end|>", "12"),
    ("integer", "So there are $\\boxed{15}$ handshakes in total.", "15"),
    ("integer", "Hence $n = \\boxed{9}$.", "9"),
    ("integer", "The answer is \\(\\boxed{64}\\).", "64"),
    ("integer", _math("\\text{twelve}"), "12"),
    ("integer", _math("\\text{twenty-one}"), "21"),
]

FRACTIONS_DECIMALS = [
    ("fraction", _math("\\frac{3}{4}"), "\\frac34"),
    ("fraction", _math("\\dfrac{5}{12}"), "\\frac{5}{12}"),
    ("fraction", _math("0.75"), "\\frac{3}{4}"),
    ("fraction", _math("\\frac{1}{3}"), "0.333"),
    ("fraction", _math("-\\frac{2}{3}"), "-\\frac23"),
    ("fraction", _math("2.5"), "\\frac{5}{2}"),
    ("fraction", "The probability is $\\frac{1}{6}$.\n\nFinal Answer: $\\frac{1}{6}$", "1/6"),
    ("decimal", _math("3.14159"), "3.14159"),
    ("decimal", _math("18.90"), "18.9"),
    ("decimal", _math("\\$18.90"), "18.90"),
]

RADICALS_CONSTANTS = [
    ("radical", _math("2\\sqrt{3}"), "2\\sqrt3"),
    ("radical", _math("\\frac{\\sqrt{2}}{2}"), "\\frac{\\sqrt2}{2}"),
    ("radical", _math("\\frac{\\sqrt{2}}{2}"), "\\frac{1}{\\sqrt{2}}"),
    ("radical", _math("3\\sqrt{2}"), "\\sqrt{18}"),
    ("radical", _math("\\frac{1+\\sqrt{5}}{2}"), "\\frac{1 + \\sqrt 5}{2}"),
    ("radical", _math("\\frac{1}{2} + \\frac{\\sqrt{5}}{2}"), "\\frac{1+\\sqrt5}{2}"),
    ("constant", _math("\\frac{\\pi}{3}"), "\\frac{\\pi}{3}"),
    ("constant", _math("4\\pi"), "4\\pi"),
    ("constant", _math("\\pi r^2"), "\\pi r^2"),
    ("constant", _math("e^2"), "e^{2}"),
    ("constant", _math("2^{100}"), "2^{100}"),
    ("constant", _math("\\frac{3\\pi}{2}"), "\\frac{3}{2}\\pi"),
    ("constant", _math("\\frac{1}{3}\\sqrt{3}"), "\\frac{\\sqrt3}{3}"),
    ("constant", _math("2^{100}"), "4^{50}"),
    ("constant", _math("5\\sqrt{2}"), "5\\sqrt2"),
    ("constant", _math("\\pi^2"), "\\pi^{2}"),
    ("complex", _math("\\frac{3}{5} + \\frac{4}{5}i"), "\\frac{3+4i}{5}"),
    ("complex", _math("-i"), "-i"),
    ("constant", _math("\\sqrt{2}+\\sqrt{3}"), "\\sqrt{5+2\\sqrt{6}}"),
    ("complex", _math("3+4i"), "3+4i"),
    ("complex", _math("-1 + 2i"), "2i - 1"),
]

EXPRESSIONS = [
    ("expression", _math("(x+2)(x+3)"), "(x+3)(x+2)"),
    ("expression", _math("x^2+5x+6"), "x^2 + 5x + 6"),
    ("expression", _math("6x^2"), "6x^2"),
    ("expression", _math("3x + 2"), "2 + 3x"),
    ("expression", _math("\\frac{x+1}{x-1}"), "\\frac{x+1}{x-1}"),
    ("expression", _math("2(x+1)"), "2(x+1)"),
    ("expression", _math("(x-1)^2"), "(x - 1)^2"),
    ("expression", _math("a^2 - b^2"), "a^2-b^2"),
    ("expression", _math("\\frac{1}{2}at^2"), "\\frac{a t^2}{2}"),
    ("expression", _math("\\sin^2 x"), "\\sin^2 x"),
    ("expression", _math("\\sec^2 y"), "\\tan^2 y + 1"),
    ("expression", _math("\\frac{x}{7}+\\frac{2}{7}"), "\\frac{x+2}{7}"),
    ("expression", _math("2x+2"), "2(x+1)"),
    ("expression", _math("|x|"), "\\sqrt{x^2}"),
    ("expression", _math("4^{50}"), "2^{100}"),
    ("expression", _math("x^2 + K"), "x^2 + C"),
    ("expression", _math("\\sin x + D"), "\\sin x + C"),
    ("expression", _math("3x + C_1"), "3x + C"),
    ("expression", _math("2x+1"), "2x+1"),
    ("expression", _math("(x+1)^2"), "(x+1)(x+1)"),
    ("expression", _math("\\frac{3x}{2}"), "\\frac{3}{2}x"),
    ("expression", _math("x\\sqrt{x}"), "x^{3/2}"),
    ("expression", _math("2\\sin x \\cos x"), "\\sin(2x)"),
    ("expression", _math("\\frac{x}{2} + \\frac{1}{2}"), "\\frac{x+1}{2}"),
    ("expression", _math("6x"), "6x"),
]

NAMED_VALUES = [
    ("named", _math("x = 3"), "3"),
    ("named", _math("x = 3"), "x = 3"),
    ("named", _math("3"), "x = 3"),
    ("named", _math("AB = 5"), "5"),
    ("named", _math("\\angle A = 60^\\circ"), "60"),
    ("named", _math("f'(x) = 6x^2"), "6x^2"),
    ("named", _math("\\frac{dy}{dx} = 2x"), "2x"),
    ("named", _math("f^{-1}(x) = \\frac{x-3}{2}"), "\\frac{x-3}{2}"),
    ("named", _math("3 = x"), "3"),
    ("named", _math("a_{10} = 29"), "29"),
    ("named", _math("m\\angle ABC = 45^\\circ"), "45"),
    ("named", _math("y = 2x + 3"), "y = 2x + 3"),
    ("named", _math("k = \\frac{1}{2}"), "\\frac12"),
    ("named", _math("x + y = 10"), "10"),
    ("named", _math("m + n = 25"), "25"),
]

UNITS = [
    ("unit", _math("5 \\text{ cm}"), "5"),
    ("unit", _math("15 \\text{ cm}^2"), "15"),
    ("unit", _math("12 \\text{ meters}"), "12"),
    ("unit", _math("45^\\circ"), "45"),
    ("unit", _math("30 \\text{ degrees}"), "30^\\circ"),
    ("unit", _math("7 \\text{ hours}"), "7"),
    ("unit", _math("20 \\text{ square units}"), "20"),
    ("unit", _math("6 \\text{ km}"), "6 \\text{ km}"),
    ("unit", "The area is $\\boxed{48}$ square feet.", "48"),
    ("unit", _math("18 \\text{ cookies}"), "18"),
    ("unit", _math("\\$25"), "25"),
    ("unit", _math("25\\%"), "25\\%"),
    ("unit", _math("25\\%"), "25"),
    ("unit", _math("0.25"), "25\\%"),
    ("unit", _math("10\\pi \\text{ cm}^2"), "10\\pi"),
    ("unit", _math("6000 \\text{ m}"), "6 \\text{ km}"),
    ("unit", _math("1.5 \\text{ kg}"), "1500 \\text{ g}"),
    ("unit", _math("120 \\text{ minutes}"), "2 \\text{ hours}"),
    ("unit", _math("30000 \\text{ cm}^2"), "3 \\text{ m}^2"),
    ("unit", _math("5 \\text{ m/s}"), "18 \\text{ km/h}"),
    ("unit", _math("12 \\text{ inches}"), "1 \\text{ foot}"),
    ("unit", _math("75\\text{ cents}"), "\\$0.75"),
    ("unit", _math("\\$0.25"), "25 \\text{ cents}"),
    ("unit", _math("20"), "20^\\circ\\text{C}"),
    ("unit", _math("\\frac{\\pi}{4} \\text{ radians}"), "\\frac{\\pi}{4}"),
    ("unit", _math("1\\text{ hour } 15\\text{ minutes}"), "75 \\text{ minutes}"),
    ("unit", _math("1\\text{ m } 20\\text{ cm}"), "1.2\\text{ m}"),
    ("unit", _math("6 \\text{ distinct triangles}"), "6"),
    ("unit", _math("5 \\text{ thousand}"), "5000"),
    ("unit", _math("2 \\text{ dozen}"), "24"),
    ("unit", _math("7 \\text{ square centimeters}"), "7 \\text{ square centimeters}"),
    ("unit", _math("700 \\text{ mm}^2"), "7 \\text{ square centimeters}"),
    ("unit", _math("6"), "6 \\text{ cubic inches}"),
    ("unit", _math("5 \\text{ dollars}"), "\\$5"),
]

SETS_INTERVALS = [
    ("set", _math("\\pm 3"), "3, -3"),
    ("set", _math("x = \\pm 3"), "\\{3, -3\\}"),
    ("set", _math("-3, 3"), "3, -3"),
    ("set", _math("x = -2 \\text{ or } x = 3"), "\\{3, -2\\}"),
    ("set", _math("\\{1, 2, 3\\}"), "\\{3,2,1\\}"),
    ("set", _math("\\emptyset"), "\\varnothing"),
    ("set", _math("\\text{no solution}"), "\\emptyset"),
    ("set", _math("\\text{all real numbers}"), "(-\\infty, \\infty)"),
    ("set", _math("\\mathbb{R}"), "(-\\infty,\\infty)"),
    ("set", _math("\\{x \\mid x > 3\\}"), "(3, \\infty)"),
    ("set", _math("x \\neq 3"), "(-\\infty, 3) \\cup (3, \\infty)"),
    ("set", "The solution is $x != 5$", "x \\neq 5"),
    ("set", _math("x = 1, 2"), "\\{1, 2\\}"),
    ("set", _math("\\mathbb{R} \\setminus \\{2\\}"), "(-\\infty, 2) \\cup (2, \\infty)"),
    ("interval", _math("|x| \\le 2"), "[-2, 2]"),
    ("interval", _math("x > 0 \\text{ and } x < 5"), "(0, 5)"),
    ("interval", _math("0 < x < 5"), "(0, 5)"),
    ("interval", _math("[-2, 2]"), "[-2,2]"),
    ("interval", _math("x \\ge 3"), "[3, \\infty)"),
    (
        "interval",
        _math("(-\\infty, -\\sqrt{2}) \\cup (\\sqrt{2}, \\infty)"),
        "(-\\infty,-\\sqrt2)\\cup(\\sqrt2,+\\infty)",
    ),
    ("interval", _math("(-\\infty, -\\sqrt{2}]"), "(-\\infty,-\\sqrt2]"),
    ("interval", _math("x < -1 \\text{ or } x > 1"), "(-\\infty,-1)\\cup(1,\\infty)"),
    ("set", _math("\\{x \\mid x \\neq 3\\}"), "(-\\infty,3)\\cup(3,\\infty)"),
    ("set", _math("\\{x : x \\ne -1\\}"), "(-\\infty,-1)\\cup(-1,\\infty)"),
]

TUPLES_MATRICES = [
    ("tuple", _math("(3, 4)"), "(3,4)"),
    ("tuple", _math("x = 3, y = 4"), "(3, 4)"),
    ("tuple", _math("(1, -2, 3)"), "(1,-2,3)"),
    ("tuple", _math("1, 2"), "(1, 2)"),
    ("set", _math("\\{-5, 5\\}"), "\\pm 5"),
    ("set", _math("5, -5"), "\\{-5, 5\\}"),
    ("tuple", _math("\\left( \\frac{1}{2}, 3 \\right)"), "(\\frac12, 3)"),
    (
        "matrix",
        _math("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
    ),
    (
        "matrix",
        _math("\\begin{bmatrix} 2 \\\\ -1 \\end{bmatrix}"),
        "\\begin{pmatrix}2\\\\-1\\end{pmatrix}",
    ),
]

EQUATIONS_MULTIPLE = [
    ("equation", _math("y = -\\frac{1}{2}x + 4"), "y = -\\frac{x}{2} + 4"),
    ("equation", _math("x^2 + y^2 = 25"), "x^2 + y^2 = 25"),
    ("equation", "The line is $y = 3x - 2$.\n\nFinal Answer: $y = 3x - 2$", "y = 3x - 2"),
    ("equation", _think("So the circle is $\\boxed{(x-1)^2 + (y+2)^2 = 9}$."), "(x-1)^2+(y+2)^2=9"),
    ("equation", _math("y = 2x - 1"), "2x - y = 1"),
    ("multiple", _math("x = 2 \\text{ or } x = -3"), "2, -3"),
    ("multiple", _math("-3, 2"), "2, -3"),
    ("multiple", _math("x = \\pm 2"), "2, -2"),
    (
        "multiple",
        "The solutions are $x = 1$ and $x = 4$.\n\n**Final Answer:** $\\boxed{1, 4}$",
        "1, 4",
    ),
    (
        "multiple",
        _think("Both roots work, so the answer is $\\boxed{\\frac{1}{2}, 3}$."),
        "3, \\frac12",
    ),
    ("multiple", _math("x = 0, x = 5"), "0, 5"),
    ("text", _math("\\text{No}"), "\\text{no}"),
    (
        "text",
        "The pattern repeats every week, so it lands on a Tuesday.\n\nAnswer: Tuesday",
        "Tuesday",
    ),
    ("text", _math("\\text{odd}"), "\\text{odd}"),
    ("text", _math("\\text{no solution}"), "\\emptyset"),
]

CHOICES_TEXT_TIMES = [
    ("choice", _math("\\text{(B)}"), "B"),
    ("choice", "The correct option is (C).\n\nAnswer: C", "C"),
    ("text", _math("\\text{even}"), "\\text{even}"),
    ("text", _math("\\text{Yes}"), "yes"),
    ("time", _math("12:30"), "12:30"),
    ("base", _math("204_5"), "204_5"),
]

NATURAL = [
    *INTEGERS,
    *FRACTIONS_DECIMALS,
    *RADICALS_CONSTANTS,
    *EXPRESSIONS,
    *NAMED_VALUES,
    *UNITS,
    *SETS_INTERVALS,
    *TUPLES_MATRICES,
    *EQUATIONS_MULTIPLE,
    *CHOICES_TEXT_TIMES,
]
