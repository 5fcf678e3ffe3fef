"""Imported by the pool's forkserver: grade a few answers once so every forked worker starts warm.

The first parse and simplify in a fresh process build parser tables and SymPy caches (about
0.3 s); doing that once in the forkserver means a worker replaced after a kill does not spend its
next item's deadline on it.
"""

from __future__ import annotations

import contextlib
import logging

from latex2sympy2_extended import latex2sympy

from rlvr.verifier.domains.math.grade import grade
from rlvr.verifier.domains.math.parsing import to_sympy
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob

# parse() warns on every call that we run it without its own (signal-based) timeout: the pool's
# kill is our timeout
logging.getLogger("math_verify").setLevel(logging.ERROR)
logging.getLogger("latex2sympy2_extended").setLevel(logging.ERROR)

_WARM_CASES = (
    ("(x+1)^2", "x^2+2x+1"),
    ("\\{1,2\\}", "\\{2,1\\}"),
    ("\\frac{\\sqrt{2}}{2}", "\\sqrt{2}/2"),
    ("x \\geq 5", "5 \\leq x"),
    ("\\begin{pmatrix}1&2\\end{pmatrix}", "\\begin{pmatrix}1&2\\end{pmatrix}"),
    ("[1,2)", "(1,2]"),
    # solveset (first use imports SymPy's solvers: ~1 s a fresh worker must not pay)
    ("1 \\le |z| \\le 2", "z \\in [-2, -1] \\cup [1, 2]"),
)

# Shapes that only the ANTLR parser reads: its prediction caches (DFA) are per process and
# start empty, so a fresh worker parses these slowly the first time. Parsing them here, once,
# lets every forked worker inherit warm caches.
_FULL_PARSER_SHAPES = (
    "[-1,-\\frac{1}{2})\\cup(-\\frac{1}{2},0)",
    "\\{1\\pm\\sqrt{5},-2\\}",
    "|x|",
    "f(x) = x^2",
    "x \\in [-2,7]",
    "-2 \\le x \\le 7",
    "1 \\leq |z| \\leq \\frac{3}{2}",
    "(2,1),(1,2),(-1,-20),(-20,-1)",
    "AB=4,CD=5",
    "S_{MBCN}:S=7:32",
    "\\frac{NO}{BO}=\\frac{1}{\\sqrt{6}}",
    "(p,q)=(3,2)",
    "1/3 \\approx 1.3",
    "-[0,1)",
    "\\begin{pmatrix}\\frac{1}{3\\sqrt[3]{x}^2}&0\\\\-\\sin(x)&0\\end{pmatrix}",
    "F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}",
    "\\int_0^1 x^2 \\, dx",
    "\\lim_{x \\to 0} \\frac{\\sin x}{x}",
    "\\sqrt[3]{2}",
    "\\log_{2} 8 + \\ln e",
    "\\{x \\mid x > 0\\}",
    "\\emptyset",
    "\\mathbb{R}",
    "a_{n} = 2^{n} - 1",
    "\\overline{AB}",
    "\\angle ABC = 90",
    "x^2 + y^2 = r^2",
    "\\frac{d}{dx} x^2",
    "\\cos^{-1}(\\frac{1}{2})",
    "10 \\choose 3",
    # shapes of the adversarial families (issue 12): a fresh worker must not spend an item's
    # quick attempt warming the parser on them
    "\\frac{1}{|x| - \\sqrt{x^2}}",
    "(\\frac{1}{|x| - \\sqrt{x^2}}, \\frac{t}{\\sqrt{t^2} - |t|})",
    "\\{\\frac{1}{|x| - \\sqrt{x^2}}, 2\\}",
    "[\\frac{1}{|x| - \\sqrt{x^2}}, 1)",
    "y = \\frac{1}{|x| - \\sqrt{x^2}}",
    "\\begin{pmatrix}|x| & 2\\end{pmatrix}",
    "\\frac{1}{\\lceil x \\rceil - \\lfloor x \\rfloor - 1}",
    "\\mathbb{R} \\setminus \\{2\\}",
    "(-\\infty, 2) \\cup (2, \\infty)",
    "\\sum_{n=1}^{\\infty} n",
    "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}^{-1}",
    "x = -2, x = 3",
    "\\{1, \\{2\\}\\}",
)

for _gold, _pred in _WARM_CASES:
    grade(SlowJob(_gold, _pred, False, False, None, None), Conventions())
for _shape in _FULL_PARSER_SHAPES:
    with contextlib.suppress(Exception):
        to_sympy(_shape)
    with contextlib.suppress(Exception):
        latex2sympy(_shape)  # the full parser itself, even where ours reads the shape
    with contextlib.suppress(Exception):
        grade(SlowJob(_shape, "1", False, False, None, None), Conventions())
