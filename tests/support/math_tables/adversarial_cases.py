"""Wrong answers a policy would try, one table per family of issue 27; every row must fail.

Written as probes against the rules a grader states ("the left side is compared", "units are
data", "a hedge is not an answer"), in the spellings a model would find, not read off the
implementation. Each row is (response, ground truth); none of them is a correct answer.
"""

from __future__ import annotations


def _box(text: str) -> str:
    return f"Putting it together, the answer is $\\boxed{{{text}}}$."


LEFT_SIDES = [
    (_box("y = 3"), "x = 3"),
    (_box("y=3"), "x=3"),
    (_box("b = 7"), "a = 7"),
    (_box("x_2 = 5"), "x_1 = 5"),
    (_box("g(x) = 2x+1"), "f(x) = 2x+1"),
    (_box("BC = 5"), "AB = 5"),
    (_box("y = 2x + 3"), "y = 3x + 2"),
    (_box("x = 4 = 3"), "3"),
    (_box("4 = 3"), "3"),
    (_box("n = 12"), "m = 12"),
    # a stated value is its right side, compared as such,
    (_box("a + b = 8"), "7"),
    (_box("x + y = 10"), "12"),
    (_box("2x = 6"), "3"),
    # a left side in one unknown is an equation to solve, not a value stated,
    (_box("x + 2 = 9"), "9"),
    (_box("4y = 20"), "20"),
    (_box("x_1 - 3 = 1"), "1"),
    # a renamed constant of integration only where the ground truth's C is one,
    (_box("x^2 + K"), "x^3 + C"),
    (_box("a + b + d"), "a + b + c"),
    (_box("A + B + D"), "A + B + C"),
]

UNITS_AND_WORDS = [
    (_box("3 \\text{ below zero}"), "3"),
    (_box("5 \\text{ maybe}"), "5"),
    (_box("3m^3"), "3m^2"),
    (_box("6\\text{ km}"), "6\\text{ m}"),
    (_box("2x+3s"), "2x+3m"),
    (_box("5 \\text{ or so}"), "5"),
    (_box("7 \\text{ approximately}"), "7"),
    (_box("10 \\text{ thousand}"), "10"),
    (_box("4 \\text{ or fewer}"), "4"),
    (_box("12 \\text{ cm}"), "12 \\text{ kg}"),
    (_box("15\\text{ cm}^2"), "15\\text{ cm}^3"),
    (_box("9 \\text{ (not sure)}"), "9"),
    (_box("8 \\text{ plus change}"), "8"),
    (_box("20 \\text{ square units}"), "20 \\text{ units}"),
    # a word after a number the reader does not know: not that number,
    (_box("7 \\text{ ish}"), "7"),
    (_box("12 \\text{ max}"), "12"),
    (_box("8 \\text{ minimum}"), "8"),
    # number words multiply the number they follow,
    (_box("4 \\text{ fifths}"), "4"),
    (_box("3 \\text{ score}"), "3"),
    (_box("7 \\text{ hundredths}"), "7"),
    # a whole answer in number words is that number,
    (_box("\\text{thirteen}"), "12"),
    (_box("\\text{twenty-one}"), "12"),
    (_box("\\text{one hundred}"), "10"),
]

DIGIT_SPACES = [
    (_box("1 \\quad 2"), "12"),
    (_box("1~2"), "12"),
    (_box("1 \\; 2"), "12"),
    (_box("1\\ 2\\ 3"), "123"),
    (_box("4 \\qquad 5"), "45"),
    (_box("1 2"), "12"),
    (_box("3 \\quad 4"), "4"),
]

AND_OF_INEQUALITIES = [
    (_box("x \\ge -1 \\text{ and } x \\le 3"), "(-\\infty, \\infty)"),
    (_box("x > 0 \\text{ and } x < 5"), "(-\\infty, \\infty)"),
    (_box("x < 1 \\text{ and } x > 4"), "(-\\infty, 1) \\cup (4, \\infty)"),
    (_box("x \\le 2 \\text{ and } x \\ge 2"), "(-\\infty, \\infty)"),
    (_box("x > 0 \\land x < 5"), "(-\\infty, \\infty)"),
    (_box("x \\geq -2 \\text{ and } x \\leq 2"), "(-\\infty, -2] \\cup [2, \\infty)"),
]

QUALIFIERS = [
    ("The answer is not $5$.", "5"),
    ("The answer is at least $3$.", "3"),
    ("The answer is at most $3$.", "3"),
    ("The answer is approximately $7$.", "7"),
    ("The answer is more than $10$.", "10"),
    ("The answer is $3$ if $n$ is odd, $4$ if even.", "3"),
    ("So the answer is not \\boxed{5}.", "5"),
    ("Hence at least $\\boxed{3}$ students.", "3"),
    (_box("\\text{at least } 3"), "3"),
    (_box("\\text{not } 5"), "5"),
    (_box("\\geq 3"), "3"),
    ("Final answer: about $12$", "12"),
    ("The final answer is $\\boxed{3}$ if $n$ is odd and $4$ otherwise.", "3"),
]

HEDGES = [
    ("Answer: $5$\nor $7$", "5"),
    ("Answer: $5$\nor $7$", "7"),
    (_box("5 \\lor 7"), "5"),
    ("The answer is $5$ versus $7$", "5"),
    ("The answer is $5$, else $7$", "5"),
    ("The answer is $5$ or maybe $7$.", "5"),
    ("Final Answer: $5$\n\nAlternatively, $7$.", "5"),
    ("\\boxed{5} \\lor \\boxed{7}", "5"),
    ("\\boxed{5} vs \\boxed{7}", "7"),
    ("The answer is $5$ unless $n = 2$, when it is $7$.", "5"),
    ("The answer is $5$ / $7$.", "5"),
]

REVISIONS = [
    ("So $\\boxed{5}$. Wait, that's wrong. It is actually 7.", "5"),
    ("So $\\boxed{5}$. Wait, that's wrong. The answer should be 7.", "5"),
    ("We get $\\boxed{5}$. Hmm, I made a mistake: the count is $7$.", "5"),
    ("$\\boxed{5}$\n\nActually, recalculating gives $7$.", "5"),
    ("The answer is $\\boxed{5}$. However, the correct answer is 7.", "5"),
    # the same rule after a marker's value, not only after a box
    ("The answer is $5$. Actually, no: it is $4$.", "5"),
    ("Answer: $5$\n\nWait, that's wrong. It is 4.", "5"),
    ("Final answer: 5. Oops, I forgot a case, so it is 6.", "5"),
]

SAMPLING = [
    (_box("\\min(x,100)"), "x"),
    (_box("\\max(x,-100)"), "x"),
    (_box("x+\\lfloor x^2/200\\rfloor"), "x"),
    (_box("x + \\lfloor \\frac{x^2}{1000} \\rfloor"), "x"),
    (_box("x^2 + (x-1)(x-2)(x-3)(x-4)(x-5)(x-6)(x-7)(x-8)"), "x^2"),
    (
        _box("x + (7x+97)(14x-95)(31x+2)(10x-33)(x)(19x+40)(8x+61)(25x-17)"),
        "x",
    ),
    (_box("|x|"), "x"),
    (_box("\\sqrt{x^2}"), "x"),
    (_box("x + \\lfloor \\frac{1}{x^2 + 1000} \\rfloor"), "x + 1"),
    (_box("\\min(x, 10^6)"), "x"),
    (_box("\\max(x, -10^{9})"), "x"),
    (_box("\\max(x, -10^{100})"), "x"),
    (_box("x + 0 \\cdot y"), "x"),
    (_box("\\frac{x^3}{x^2}"), "x"),
    (_box("e^{\\ln x}"), "x"),
    # a power of zero is 1 where its exponent vanishes: sampled at 0, 1 and -1 as well,
    (_box("x + 0^{x^4}"), "x"),
    (_box("x - 0^{x^6}"), "x"),
    (_box("x^2 + 5 \\cdot 0^{x^2}"), "x^2"),
]

EXACT_TOLERANCE = [
    (_box("\\pi + 10^{-45}"), "\\pi"),
    (_box("x + 10^{-50}"), "x"),
    (_box("\\sqrt{2} + 10^{-60}"), "\\sqrt{2}"),
    (_box("\\pi(1 + 10^{-42})"), "\\pi"),
    (_box("e + 10^{-100}"), "e"),
    (_box("\\frac{1}{3} + 10^{-70}"), "\\frac{1}{3}"),
    (_box("2x + 10^{-45}x"), "2x"),
    (_box("\\ln 2 + 10^{-41}"), "\\ln 2"),
    # an exact ground truth is matched exactly: no decimal stands for it,
    (_box("1.414214"), "\\sqrt{2}"),
    (_box("0.6666667"), "\\frac{2}{3}"),
    (_box("(0.333333, 1)"), "(\\frac{1}{3}, 1)"),
]

FORMS_EXPRESSIONS = [
    (_box("x^2+5x+6"), "(x+2)(x+3)"),
    (_box("(x+2)(x+3)"), "x^2+5x+6"),
    (_box("x^2-9"), "(x-3)(x+3)"),
    (_box("(x-3)(x+3)"), "x^2-9"),
    (_box("(x+1)^2"), "x^2+2x+1"),
    (_box("x^3-1"), "(x-1)(x^2+x+1)"),
    (_box("x^2+3x+2"), "(x+1)(x+2)"),
    (_box("x(x+1)"), "x^2+x"),
    (_box("\\frac{x^2-4}{x-2}"), "x+2"),
    # a factored ground truth: as many factors with unknowns as it has,
    (_box("1\\cdot(x^2-9)"), "(x-3)(x+3)"),
    (_box("-(9-x^2)"), "(x-3)(x+3)"),
    (_box("x(x^2-1)"), "x(x-1)(x+1)"),
    # a quotient whose numerator shares a factor with its integer denominator,
    (_box("\\frac{6x}{3}"), "2x"),
    (_box("\\frac{2x+4}{2}"), "x+2"),
    (_box("\\frac{9x^2}{6}"), "\\frac{3x^2}{2}"),
]

FORMS_RADICALS = [
    (_box("\\frac{1}{\\sqrt2}"), "\\frac{\\sqrt2}{2}"),
    (_box("\\frac{1}{\\sqrt{3}}"), "\\frac{\\sqrt{3}}{3}"),
    (_box("\\sqrt{50}+\\sqrt{18}"), "8\\sqrt2"),
    (_box("\\sqrt{12}"), "2\\sqrt{3}"),
    (_box("\\sqrt{8}"), "2\\sqrt{2}"),
    (_box("\\frac{2}{\\sqrt{2}}"), "\\sqrt{2}"),
    (_box("\\sqrt{2}\\sqrt{3}"), "\\sqrt{6}"),
    (_box("\\frac{3}{\\sqrt{3}}"), "\\sqrt{3}"),
]

FORMS_OPERATIONS = [
    (_box("2^{10}\\cdot2^{90}"), "2^{100}"),
    (_box("3^{5} \\cdot 3^{5}"), "3^{10}"),
    (_box("(2^{50})^2"), "2^{100}"),
    (_box("\\{1,2,3\\}\\cap\\{2,3,4\\}"), "\\{2,3\\}"),
    (_box("\\{1,2\\}\\cup\\{3\\}"), "\\{1,2,3\\}"),
    (_box("\\{1,2,3\\}\\setminus\\{1\\}"), "\\{2,3\\}"),
    (
        _box("\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
    ),
    (
        _box("2\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
        "\\begin{pmatrix}2&4\\\\6&8\\end{pmatrix}",
    ),
    (
        _box("\\begin{pmatrix}1&3\\\\2&4\\end{pmatrix}^T"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
    ),
    (_box("\\frac{d}{dx} x^3"), "3x^2"),
    (_box("\\frac{d}{dx} x^3"), "x^2"),
    # a union of pieces that overlap or touch is a union left to do,
    (_box("[0,1]\\cup[1,2]"), "[0,2]"),
    (_box("(0,3)\\cup(2,5)"), "(0,5)"),
    (_box("(-\\infty,1]\\cup[0,\\infty)"), "(-\\infty,\\infty)"),
]

KIND_CONFUSION = [
    (_box("y = 4, x = 3"), "(4, 3)"),
    (_box("x=1, x=2"), "(1, 2)"),
    (_box("x = 1 \\text{ or } x = 2"), "(1, 2)"),
    (_box("x = 1, 2"), "(1, 2)"),
    (_box("1.2"), "1,2"),
    (_box("0.4"), "12:30"),
    (_box("\\frac{12}{30}"), "12:30"),
    (
        _box("\\begin{vmatrix}1&2\\\\3&4\\end{vmatrix}"),
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
    ),
    (_box("\\begin{vmatrix}1&2\\\\3&4\\end{vmatrix}"), "-2"),
    (_box("\\frac{22}{7}"), "3.14"),
    (_box("0.5\\%"), "0.5"),
    (_box("0.25\\%"), "\\frac{1}{4}"),
    (_box("\\{1, 2\\}"), "(1, 2)"),
]

# units convert only within a dimension, and only to the ground truth's exact value
UNIT_CONVERSIONS = [
    (_box("600 \\text{ m}"), "6 \\text{ km}"),
    (_box("300 \\text{ cm}^2"), "3 \\text{ m}^2"),
    (_box("2 \\text{ hours}"), "120 \\text{ seconds}"),
    (_box("5 \\text{ kg}"), "5000 \\text{ mg}"),
    (_box("1 \\text{ L}"), "100 \\text{ mL}"),
    (_box("60 \\text{ km/h}"), "60 \\text{ m/s}"),
    (_box("12 \\text{ ft}"), "12 \\text{ in}"),
    (_box("6 \\text{ km}"), "6000 \\text{ m}^2"),
    (_box("5\\sqrt{2} \\text{ km}"), "5\\sqrt{2} \\text{ m}"),
    (_box("1 \\text{ mile}"), "1 \\text{ km}"),
    # money converts to its cents, angles and temperature scales never convert,
    (_box("25 \\text{ cents}"), "\\$25"),
    (_box("75\\text{ cents}"), "\\$75"),
    (_box("\\$3"), "3 \\text{ cents}"),
    (_box("3 \\text{ rad}"), "3^\\circ"),
    (_box("45^\\circ"), "45 \\text{ radians}"),
    (_box("2 \\text{ radians}"), "2^{\\circ}"),
    (_box("20^\\circ F"), "20^\\circ C"),
    (_box("30^\\circ\\text{C}"), "30^\\circ\\text{F}"),
    (_box("100 \\text{ degrees Fahrenheit}"), "100^\\circ C"),
    # a compound quantity is summed in its first unit,
    (_box("2\\text{ hours } 15\\text{ minutes}"), "2.5 \\text{ hours}"),
    (_box("1\\text{ m } 2\\text{ cm}"), "1.2 \\text{ m}"),
    (_box("3\\text{ minutes } 3\\text{ seconds}"), "3.3 \\text{ minutes}"),
]

# the ground truth's form has carried out an operation the answer leaves to do, whatever
# constructs the ground truth itself uses (a power, a product, a radical, i)
FORMS_LEFT_TO_DO = [
    # like terms not collected,
    (_box("\\sqrt{3} + 2\\sqrt{3}"), "3\\sqrt3"),
    (_box("5y - 2y"), "3y"),
    (_box("3(x-1) + 3"), "3x"),
    (_box("a^2 + 2a^2"), "3a^2"),
    # powers of one base not combined,
    (_box("9 \\cdot 3^{8}"), "3^{10}"),
    (_box("\\frac{5^{12}}{25}"), "5^{10}"),
    (_box("y^{4} \\cdot y"), "y^5"),
    (_box("\\pi^{3} \\cdot \\pi"), "\\pi^4"),
    # a product of numbers not evaluated,
    (_box("3\\pi \\cdot 4"), "12\\pi"),
    (_box("5 \\cdot 2y"), "10y"),
    (_box("\\frac{1}{2} \\cdot \\frac{1}{3} x"), "\\frac{x}{6}"),
    # a product of sums of numbers not expanded,
    (_box("(1+i)(2+i)"), "1+3i"),
    (_box("(2+\\sqrt{3})(1+\\sqrt{3})"), "5+3\\sqrt3"),
    (_box("(1-i)(1-2i)"), "-1-3i"),
    # i in a denominator,
    (_box("\\frac{2}{i}"), "-2i"),
    (_box("\\frac{1}{1+i}"), "\\frac{1}{2}-\\frac{i}{2}"),
    (_box("\\frac{i}{1-i}"), "-\\frac{1}{2}+\\frac{i}{2}"),
    # a fraction with a common factor, whatever else the product has,
    (_box("\\frac{6\\pi}{2}"), "3\\pi"),
    (_box("6 \\cdot \\frac{\\pi}{2}"), "3\\pi"),
    (_box("\\frac{10\\sqrt{3}}{4}"), "\\frac{5\\sqrt3}{2}"),
    # an operation with no effect,
    (_box("x + 0"), "x"),
    (_box("1 \\cdot y"), "y"),
    (_box("\\frac{2x}{1}"), "2x"),
]

# a tuple is ordered: never the set, the listing or the `\\pm` it has the values of
TUPLES_FOR_SETS = [
    (_box("(5, -5)"), "\\{-5, 5\\}"),
    (_box("\\left(0, 3\\right)"), "0, 3"),
    (_box("(4, -4)"), "\\pm 4"),
    (_box("(2, 7, 9)"), "\\{9, 7, 2\\}"),
    (_box("(-1, 6)"), "-1, 6"),
]

# the ground truth's unit, written in words, is data too; a percentage is no quantity in a unit
UNITS_OF_THE_GROUND_TRUTH = [
    (_box("12 \\text{ square yards}"), "12 \\text{ square feet}"),
    (_box("3 \\text{ cubic centimeters}"), "3 \\text{ square centimeters}"),
    (_box("8 \\text{ ft}^2"), "8 \\text{ cubic feet}"),
    (_box("8 \\text{ feet}"), "8 \\text{ square feet}"),
    (_box("20\\%"), "\\$20"),
    (_box("15\\%"), "15 \\text{ cm}"),
    (_box("\\$40"), "40\\%"),
    # degrees are no measure in radians (a ground truth that is a multiple of pi),
    (_box("\\frac{\\pi}{4} \\text{ degrees}"), "\\frac{\\pi}{4}"),
    (_box("2\\pi \\text{ deg}"), "2\\pi"),
    (_box("\\frac{3\\pi}{2}^\\circ"), "\\frac{3\\pi}{2}"),
    # a money ground truth is not answered by coins counted or another currency,
    (_box("12 \\text{ quarters}"), "\\$12"),
    (_box("3 \\text{ pesos}"), "\\$3"),
    (_box("3\\text{ lb}"), "\\$3"),
    # a word after the box, in prose, is read with the value,
    ("So the answer is $\\boxed{3}$ dozen.", "3"),
    ("We get $\\boxed{2}$ thirds of the cake.", "2"),
    ("The answer is $\\boxed{7}$ hundred.", "7"),
]

FAMILIES = {
    "left_sides": LEFT_SIDES,
    "units_and_words": UNITS_AND_WORDS,
    "digit_spaces": DIGIT_SPACES,
    "and_of_inequalities": AND_OF_INEQUALITIES,
    "qualifiers": QUALIFIERS,
    "hedges": HEDGES,
    "revisions": REVISIONS,
    "sampling": SAMPLING,
    "exact_tolerance": EXACT_TOLERANCE,
    "forms_expressions": FORMS_EXPRESSIONS,
    "forms_radicals": FORMS_RADICALS,
    "forms_operations": FORMS_OPERATIONS,
    "kind_confusion": KIND_CONFUSION,
    "unit_conversions": UNIT_CONVERSIONS,
    "forms_left_to_do": FORMS_LEFT_TO_DO,
    "tuples_for_sets": TUPLES_FOR_SETS,
    "units_of_the_ground_truth": UNITS_OF_THE_GROUND_TRUTH,
}
ADVERSARIAL = [(family, r, a) for family, rows in FAMILIES.items() for r, a in rows]

# (problem, response, ground truth): the answer restates an expression of the problem
RESTATEMENTS = [
    ("Simplify $\\frac{6x}{3}$.", _box("\\frac{6x}{3}"), "2x"),
    ("Simplify $\\frac{x^2 y}{x}$ for $x \\neq 0$.", _box("\\frac{x^2 y}{x}"), "xy"),
    ("Write $3x + 2x$ as a single term.", _box("3x+2x"), "5x"),
    ("Solve $2x = 10$ for $x$.", _box("2x"), "5"),
    ("Find $f(3)$ where $f(x) = x^2 + 1$.", _box("x^2 + 1"), "10"),
    ("Rewrite $\\sqrt{x^2}$ without a radical.", _box("\\sqrt{x^2}"), "|x|"),
]
# (problem, response, ground truth): correct answers that happen to appear in the problem
NOT_RESTATEMENTS = [
    ("Is $7$ the largest prime below $10$? Give the largest prime below $10$.", _box("7"), "7"),
    ("Factor $x^2 - 1$ and write it as $(x-1)(x+1)$.", _box("(x-1)(x+1)"), "(x-1)(x+1)"),
    ("What is $\\frac{1}{2}$ of $\\frac{1}{2}$?", _box("\\frac{1}{4}"), "\\frac14"),
]
