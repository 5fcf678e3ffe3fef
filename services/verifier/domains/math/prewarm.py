"""Imported by the pool's forkserver: grade a few answers once so every forked worker starts warm.

The first parse and simplify in a fresh process build parser tables and SymPy caches (about
0.3 s); doing that once in the forkserver means a worker replaced after a kill does not spend its
next item's deadline on it.
"""

from __future__ import annotations

import logging

from services.verifier.domains.math.grade import grade
from services.verifier.domains.math.verdict import Conventions

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
)

for _gold, _pred in _WARM_CASES:
    grade(_gold, _pred, False, False, None, None, Conventions())
