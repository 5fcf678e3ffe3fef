"""Refuse LaTeX the SymPy front end would misread: a token it does not understand must not vanish.

latex2sympy2 (and Math-Verify's extraction around it) drops what it cannot read: `7 \\bmod 3`
became 3, `3 \\approx 4` became 3, `\\boxed{3} 4` became 3, `3'` became 3. An answer like that
is not a value we can grade, so it is refused before that parser sees it. The check is a
whitelist (commands and characters we know the parser reads with their meaning) plus a few
shape rules on relations and bars; pure string work, linear in the answer's length.
"""

from __future__ import annotations

import re

from rlvr.verifier.domains.commas import split_top_level

_GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu "
    "xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma "
    "Upsilon Phi Psi Omega"
)
_ALLOWED_COMMANDS = frozenset(
    (
        "frac sqrt pi infty cdot times div pm mp le leq ge geq lt gt ne neq leqslant geqslant "
        "in cup cap setminus emptyset mathbb sin cos tan cot sec csc arcsin arccos arctan "
        "sinh cosh tanh ln log exp lim sum prod int binom choose begin end lfloor rfloor "
        "lceil rceil overline partial ell gcd max min text mathrm operatorname vert lvert "
        "rvert " + _GREEK
    ).split()
)
_COMMAND_RE = re.compile(r"\\([A-Za-z]+)|\\(.)")
# characters that read as themselves; anything else (`?`, `'`, `;`, `"`, `~`, `@`, `#`, `%`,
# `$`, unicode symbols) is not part of an answer the parser understands
_ALLOWED_CHARS = frozenset(
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ +-*/^_=<>()[]{}|,.!:&"
)
_ESCAPES = frozenset("{}\\,;: !|")  # `\{`, `\}`, row break `\\`, spacing, `\|`
_LIMIT_SUB_RE = re.compile(r"\\lim\s*_\s*\{[^{}]*\}")
_RELATION_RE = re.compile(
    r"\\(?:leqslant|geqslant|leq|geq|neq|le|ge|lt|gt|ne|in)(?![A-Za-z])|<=|>=|!=|[=<>]"
)
_BAR_RE = re.compile(r"\|")
_NUMBER_SCRIPT_RE = re.compile(r"[\d.)]\s*_")  # `3_{4}`: the parser dropped the subscript
_SCRIPT_RE = re.compile(r"[_^]\s*\{[^{}]*\}")  # `\sum_{k=0}`: a relation inside a bound


def unreadable(latex: str) -> str | None:
    """Why `latex` cannot be read faithfully by the full parser, or None if it can."""
    text = latex.replace("\\\\", " \\\\ ")
    lim_free = _LIMIT_SUB_RE.sub(" ", text)  # `\lim_{x \to 0}`: the arrow is part of the limit
    for match in _COMMAND_RE.finditer(lim_free):
        name, escaped = match.group(1), match.group(2)
        if name is not None and name not in _ALLOWED_COMMANDS:
            return f"unknown command \\{name}"
        if escaped is not None and escaped not in _ESCAPES:
            return f"unknown symbol \\{escaped}"
    stripped = _COMMAND_RE.sub(" ", lim_free)
    for char in stripped:
        if char not in _ALLOWED_CHARS and not char.isspace():
            return f"unknown symbol {char!r}"
    if _NUMBER_SCRIPT_RE.search(stripped):
        return "a subscript on a number"
    bars = len(_BAR_RE.findall(stripped)) + len(re.findall(r"\\[lr]?vert(?![A-Za-z])", text))
    if bars % 2:
        return "an unmatched |"
    return _relation_shape(_SCRIPT_RE.sub(" ", text))


def _relation_shape(text: str) -> str | None:
    """Each comma-separated part: at most one `=`, no relation at either end, no `=` mixed with
    an inequality, at most two inequalities (`a < x \\le b`)."""
    for part in split_top_level(text):
        relations = list(_RELATION_RE.finditer(part))
        if not relations:
            continue
        if not part[: relations[0].start()].strip() or not part[relations[-1].end() :].strip():
            return "a relation with a missing side"
        kinds = [m.group() for m in relations]
        equals = sum(k == "=" for k in kinds)
        if equals > 1 or (equals and len(kinds) > 1) or len(kinds) > 2:
            return "a chain of relations"
    return None
