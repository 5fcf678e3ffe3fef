"""LaTeX to SymPy for grading, evaluated or as written (evaluation off, for the form rules).

Our fast parser (`latex_fast.py`) first, else latex2sympy2-extended itself behind a whitelist of
what it reads faithfully (`readable.py`: an unknown token fails the parse, never vanishes).
Runs inside a killable worker.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import sympy
from latex2sympy2_extended import latex2sympy
from latex2sympy2_extended.math_normalization import NormalizationConfig
from sympy.core.relational import Relational
from sympy.matrices.expressions import MatrixExpr

from rlvr.verifier.domains.math.latex_fast import Unsupported, parse_answer
from rlvr.verifier.domains.math.readable import unreadable

_NORMALIZATION = NormalizationConfig(basic_latex=True, units=False, nits=False, boxed="none")
_MAX_FULL_PARSE_CHARS = 400
_COMMANDS_RE = re.compile(r"\\[A-Za-z]+")
_PROSE_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{3,}\s+[A-Za-z]{3,}")  # linear: one try per word


def to_sympy(latex: str) -> Any:
    """The SymPy object of a LaTeX answer, or None if it does not parse."""
    if not latex.strip():
        return None
    try:
        return _clean(parse_answer(latex))
    except (Unsupported, AttributeError, IndexError, KeyError):
        pass  # sets, intervals, relations, matrices, text: the full parser below
    except (ArithmeticError, TypeError, ValueError, RecursionError):
        pass
    if len(latex) > _MAX_FULL_PARSE_CHARS or _PROSE_RE.search(_COMMANDS_RE.sub(" ", latex)):
        return None  # prose or a huge blob: the ANTLR parser would only spend the deadline
    if latex.count("\\pm") == 1 and not re.search(r"[,=<>]|\\[lg]e", latex):
        # `\\frac{-1 \\pm \\sqrt{5}}{2}`: the two values, each parsed on its own
        plus, minus = to_sympy(latex.replace("\\pm", "+")), to_sympy(latex.replace("\\pm", "-"))
        return None if plus is None or minus is None else sympy.FiniteSet(plus, minus)
    if unreadable(latex) is not None:
        return None  # a token the parser would drop: not an answer we can read
    try:
        # the parser itself, not Math-Verify's `parse` (an extractor that keeps whatever part
        # of the text it can read: `3 \\approx 4` was 3)
        parsed = latex2sympy(latex, normalization_config=_NORMALIZATION)
    except Exception:
        return None
    if isinstance(parsed, str | list | dict) or parsed is None:
        return None
    if "\\{" in latex and not _has_set(parsed):
        return None  # `(\\{1\\}, 2)` read as the interval (1, 2): the set braces vanished
    try:
        return _clean(parsed)
    except Exception:  # rebuilding `x > nan` raises: not a value we can grade
        return None


def reevaluated(tree: Any) -> Any:
    """The value of a tree parsed as written (rebuilt bottom-up with evaluation on), so an
    answer the full parser reads is parsed once, not twice; falls back to a fresh parse."""
    try:
        return _rebuild(tree)
    except Exception:
        return None


def _rebuild(node: Any) -> Any:
    if isinstance(node, sympy.MatrixBase):
        return node.applyfunc(_rebuild)
    if not isinstance(node, sympy.Basic) or node.is_Atom or not node.args:
        return node
    args = [_rebuild(arg) for arg in node.args]
    if isinstance(node, Relational):
        return node.func(*args, evaluate=False)
    if isinstance(node, sympy.Tuple):
        return sympy.Tuple(*args)
    if isinstance(node, MatrixExpr):
        return node.func(*args).doit()
    return node.func(*args)


@functools.lru_cache(maxsize=4096)
def unevaluated_gold(latex: str) -> Any:
    """A ground truth comes back for every sample of its prompt: parse it as written once."""
    return unevaluated(latex)


def _has_set(tree: Any) -> bool:
    """Whether a listed set `\\{...\\}` survived the parse."""
    if not isinstance(tree, sympy.Basic):
        return False
    kinds = (sympy.FiniteSet, type(sympy.S.EmptySet))
    return any(isinstance(node, kinds) for node in sympy.preorder_traversal(tree))


def unevaluated(latex: str) -> Any:
    """The tree of `latex` as written (`17 \\times 23` stays a product), or None.

    SymPy cannot build some sets unevaluated (a union of intervals with infinite ends raises):
    then the pieces between the set syntax are parsed one by one, as a tuple of their trees,
    which is what the form check needs.
    """
    whole = parse_unevaluated(latex)
    if whole is not None:
        return whole
    pieces = [p for p in _structure_pieces(latex) if p.strip()]
    if not pieces or len(pieces) > 200:
        return None
    trees = [parse_unevaluated(piece) for piece in pieces]
    if any(tree is None for tree in trees):
        return None
    return sympy.Tuple(*trees)


def parse_unevaluated(latex: str) -> Any:
    if "\\infty" in latex and "," in latex:
        # an interval with an irrational end built unevaluated recurses in `expand()` for
        # seconds (`(-\\infty, -\\sqrt{2}]`): its pieces are read one by one instead
        return None
    try:
        with sympy.evaluate(False):
            tree = to_sympy(latex)
    except Exception:  # any failure means "cannot read it as written"
        return None
    return tree


_STRUCTURE_SPLIT_RE = re.compile(
    r"\\cup|\\cap|\\setminus|\\in(?![A-Za-z])|\\mathbb\{[A-Z]\}|\\emptyset|\\[{}]|[()\[\],]"
)


def _structure_pieces(latex: str) -> list[str]:
    """The scalar pieces of a set/interval/tuple answer: the text between its set syntax
    (brackets, `\\cup`, commas) at brace depth 0."""
    pieces, start, depth, index = [], 0, 0, 0
    while index < len(latex):
        char = latex[index]
        if char == "{" and (index == 0 or latex[index - 1] != "\\"):
            depth += 1
        elif char == "}" and (index == 0 or latex[index - 1] != "\\"):
            depth -= 1
        elif depth == 0:
            match = _STRUCTURE_SPLIT_RE.match(latex, index)
            if match:
                if not match.group().startswith("\\in"):
                    pieces.append(latex[start:index])  # `x \\in`: the name is no piece
                start = index = match.end()
                continue
        index += 1
    pieces.append(latex[start:])
    return [piece.strip() for piece in pieces if piece.strip() not in ("", "-")]


def _clean(expr: Any) -> Any:
    """Floats become the exact decimals they were written as; the symbol `i` becomes I."""
    if isinstance(expr, MatrixExpr):
        expr = expr.doit()  # `A + B`, `A B` of explicit matrices: the resulting matrix
    if isinstance(expr, sympy.MatrixBase):
        return expr.applyfunc(_clean)
    if not isinstance(expr, sympy.Basic):
        return expr
    if expr.has(sympy.Float):
        expr = expr.xreplace({f: sympy.Rational(str(f)) for f in expr.atoms(sympy.Float)})
    # one plain symbol per name: the two parsers give `x` different assumptions, and `x`
    # must be the same unknown on both sides; `i` is the imaginary unit
    renamed = {
        s: sympy.I if s.name == "i" else sympy.Symbol(s.name)
        for s in expr.free_symbols
        if isinstance(s, sympy.Symbol) and (s.name == "i" or s.assumptions0)
    }
    if renamed:
        replaced = expr.xreplace(renamed)
        # `Eq(x, Interval(...))` (from `x \\in [a, b]`) would collapse to False when rebuilt
        if not isinstance(replaced, sympy.logic.boolalg.BooleanAtom) or isinstance(
            expr, sympy.logic.boolalg.BooleanAtom
        ):
            expr = replaced
    return expr


@functools.lru_cache(maxsize=4096)
def fast_unevaluated_gold(latex: str) -> Any:
    """The ground truth as written, by our fast parser only (None where it needs the full one).

    The expression form rules (factored, expanded, radicals) concern what the fast parser reads;
    a ground truth it cannot read is not worth an ANTLR parse for them: most are sets, intervals
    or relations, which those rules leave alone.
    """
    try:
        with sympy.evaluate(False):
            return _clean(parse_answer(latex))
    except Exception:  # outside the fast parser's subset, or not buildable as written
        return None
