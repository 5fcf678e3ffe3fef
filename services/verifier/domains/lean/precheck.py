"""Refuse, before Lean runs, source text that could bypass the kernel or the trusted check.

What is refused: `import`/`prelude`; `#exit`, `#eval`, `#guard_msgs`, `#guard`; any `debug.*`
option (`debug.skipKernelTC` turns the kernel off); `unsafe`; `extern`/`implemented_by`;
`native_decide`/`ofReduceBool`; everything that runs the submission's own meta code or changes how
later text parses and elaborates (`run_cmd`, `run_tac`, `run_elab`, `run_meta`, `by_elab`, `elab`,
`elab_rules`, `macro`, `macro_rules`, `syntax`, `notation`, `infix`…, `initialize`, `simproc`,
`declare_*`, `register_*`, `unif_hint`); and any attribute outside a short allow-list (an
attribute such as `command_elab`, `tactic`, `init` or `norm_num` registers code that Lean then
runs).

How: this is a word search on a normalised copy of the text, NOT a Lean parser. Guillemets
(`«#exit»`), zero-width characters and compatibility forms are removed first, so spelling tricks
still match, and comments and strings are searched too, because a comment-aware scanner is what a
clever submission would try to fool. The price is that a forbidden word inside a comment is refused
as well; the `detail` names the word and its line so that is easy to see.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_ID_CHARS = r"\w'!?"
# Characters that render as nothing; removed so `#e\u200bxit` still reads `#exit` to us.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)


@dataclass(frozen=True)
class Refusal:
    construct: str
    line: int
    reason: str

    @property
    def detail(self) -> str:
        return f"refused before running Lean: `{self.construct}` (line {self.line}): {self.reason}"


def _word(word: str) -> str:
    """A regex for `word` as a whole Lean identifier/keyword (not part of a longer name)."""
    return rf"(?<![{_ID_CHARS}.]){re.escape(word)}(?![{_ID_CHARS}])"


_META = "runs or installs the submission's own meta code, which can rewrite the environment"
_SYNTAX = "changes how later text parses or elaborates (it could capture the trusted check)"

_RULES: tuple[tuple[str, str, str], ...] = (
    ("import", _word("import"), "imports belong in the item's `header`"),
    ("prelude", _word("prelude"), "`prelude` drops the core library and its axioms' meaning"),
    ("#exit", r"#\s*exit", "stops elaboration early (the trusted check must always run)"),
    ("#eval", r"#\s*eval", _META),
    ("#guard_msgs", r"#\s*guard_msgs", "rewrites which messages are reported"),
    ("#guard", r"#\s*guard", "evaluates compiled code"),
    ("debug option", r"(?<![\w'.])debug\s*\.", "`debug.*` options can switch the kernel off"),
    ("skipKernelTC", r"skipKernelTC", "switches the kernel off"),
    ("unsafe", _word("unsafe"), "unsafe code is not checked by the kernel"),
    ("extern", _word("extern"), "replaces a definition's code with foreign code"),
    ("implemented_by", _word("implemented_by"), "replaces a definition's code"),
    ("native_decide", _word("native_decide"), "trusts the compiler (axiom Lean.ofReduceBool)"),
    ("ofReduceBool", r"(?:ofReduceBool|reduceBool|trustCompiler)", "trusts the compiler"),
    ("run_cmd", _word("run_cmd"), _META),
    ("run_tac", _word("run_tac"), _META),
    ("run_elab", _word("run_elab"), _META),
    ("run_meta", _word("run_meta"), _META),
    ("by_elab", _word("by_elab"), _META),
    ("elab", _word("elab"), _META),
    ("elab_rules", _word("elab_rules"), _META),
    ("macro", _word("macro"), _SYNTAX),
    ("macro_rules", _word("macro_rules"), _SYNTAX),
    ("syntax", _word("syntax"), _SYNTAX),
    ("notation", r"(?<![\w'.])notation\d*(?![\w'!?])", _SYNTAX),
    ("infix", r"(?<![\w'.])infix[lr]?(?![\w'!?])", _SYNTAX),
    ("prefix", _word("prefix"), _SYNTAX),
    ("postfix", _word("postfix"), _SYNTAX),
    ("binder_predicate", _word("binder_predicate"), _SYNTAX),
    ("unif_hint", _word("unif_hint"), _SYNTAX),
    ("initialize", r"(?<![\w'.])(?:builtin_)?initialize(?![\w'!?])", _META),
    ("simproc", r"(?<![\w'.])(?:builtin_)?d?simproc(?:_decl|_pattern)?(?![\w'!?])", _META),
    ("declare_*", r"(?<![\w'.])declare_\w+", _SYNTAX),
    ("register_*", r"(?<![\w'.])register_\w+", _META),
    ("add_aesop_rules", _word("add_aesop_rules"), _META),
    ("export", _word("export"), "creates root aliases that could stand in for trusted names"),
)
_COMPILED = tuple((name, re.compile(pattern), reason) for name, pattern, reason in _RULES)
# A literal every match of a rule contains: a fast `in` test skips most regex scans.
_NEEDLES = {
    "#exit": "#",
    "#eval": "#",
    "#guard_msgs": "#",
    "#guard": "#",
    "debug option": "debug",
    "ofReduceBool": "e",
    "notation": "notation",
    "infix": "infix",
    "initialize": "initialize",
    "simproc": "simproc",
    "declare_*": "declare_",
    "register_*": "register_",
}
# Attribute names that install code, refused wherever they appear, not only inside `@[...]`.
_CODE_ATTRIBUTE = re.compile(
    r"(?<![\w'.])(?:\w*_elab|\w*_parser|\w*unexpander|\w*delab|csimp|env_linter"
    r"|code_action|builtin_\w+)(?![\w'!?])"
)

#: Attributes a proof may use: they only tag declarations for tactics that build proof terms the
#: kernel checks. Anything else (`command_elab`, `tactic`, `init`, `csimp`, `norm_num`,
#: `positivity`, parser attributes, ...) is refused.
ALLOWED_ATTRIBUTES = frozenset(
    {
        "simp",
        "reducible",
        "irreducible",
        "semireducible",
        "instance",
        "inline",
        "noinline",
        "specialize",
        "ext",
        "norm_cast",
        "push_cast",
        "elab_as_elim",
        "elab_without_expected_type",
        "induction_eliminator",
        "cases_eliminator",
        "refl",
        "symm",
        "trans",
        "congr",
        "nolint",
        "simps",
        "mono",
        "gcongr",
        "continuity",
        "measurability",
        "fun_prop",
        "bound",
        "aesop",
        "to_additive",
        "class",
        "default_instance",
        "match_pattern",
        "deprecated",
        "local",
        "scoped",
        "grind",
        "field_simps",
        "zify_simps",
        "qify_simps",
        "mfld_simps",
        "integral_simps",
        "algebraize",
        "coe",
        "nontriviality",
        "pp_nodot",
        "inherit_doc",
    }
)

# Unicode category Cc except tab, newline and carriage return.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ATTR_START = re.compile(r"@\[|(?<![\w'.])attribute\s*\[")
_ENTRY_NAME = re.compile(r"[^\W\d][\w'.]*")


def normalize(source: str) -> str:
    """The text as we search it: NFKC, no invisible characters, no identifier guillemets."""
    text = unicodedata.normalize("NFKC", source)
    text = _INVISIBLE.sub("", text)
    return text.replace("«", "").replace("»", "")


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


_MAX_ATTRIBUTE_CHARS = 20_000


def _matching_bracket(text: str, open_index: int, *, literals: bool) -> int:
    """Index of the `]` closing the `[` at `open_index` (len(text) if none).

    The scan stops after `_MAX_ATTRIBUTE_CHARS` (the caller refuses such a list), so a text made
    of unclosed `@[` costs linear time, not quadratic.

    With `literals`, brackets inside string literals and character literals (a `'` that does not
    continue an identifier) are skipped, as Lean's scanner skips them.
    """
    depth, i = 0, open_index
    end = min(len(text), open_index + _MAX_ATTRIBUTE_CHARS)
    while i < end:
        char = text[i]
        if literals and char == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif literals and char == "'" and not (i and re.match(r"[\w'!?.]", text[i - 1])):
            end = text.find("'", i + 2 if text[i + 1 : i + 2] == "\\" else i + 1)
            if 0 < end - i <= 12:
                i = end
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) if end == len(text) else -1


def _split_top_level(body: str) -> list[str]:
    """Split at commas outside brackets and string literals (`"a, b"` stays whole)."""
    parts, depth, start, in_string, escaped = [], 0, 0, False, False
    for i, char in enumerate(body):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts


def attribute_names(body: str) -> list[str]:
    """The attribute names of one `@[...]` body: `local simp, -foo, instance 100` -> names."""
    names = []
    for entry in _split_top_level(body):
        words = entry.strip().lstrip("-").strip()
        # `local`/`scoped` are modifiers: the attribute is the next word.
        while True:
            match = _ENTRY_NAME.match(words)
            if match and match.group(0) in {"local", "scoped"}:
                words = words[match.end() :].strip()
                continue
            break
        if match:
            names.append(match.group(0))
        elif words:
            names.append(words.split()[0])
    return names


def _check_attributes(text: str) -> Refusal | None:
    for match in _ATTR_START.finditer(text):
        open_index = match.end() - 1
        line = _line_of(text, match.start())
        end = _matching_bracket(text, open_index, literals=True)
        if end < 0:
            return Refusal("@[...]", line, "attribute list too long to read")
        if end != _matching_bracket(text, open_index, literals=False):
            return Refusal("@[...]", line, "attribute list with brackets inside literals")
        body = text[open_index + 1 : end]
        for name in attribute_names(body):
            if name not in ALLOWED_ATTRIBUTES:
                return Refusal(
                    f"@[{name}]", line, "attribute not on the allow-list (it may register code)"
                )
        if re.search(_word("tactic"), body):
            return Refusal("@[... tactic]", line, "registers a tactic written by the submission")
    return None


def precheck(source: str, *, allow_imports: bool = False) -> Refusal | None:
    """The first forbidden construct in `source`, or None when it may be sent to Lean."""
    control = _CONTROL.search(source)
    if control:
        char = control.group(0)
        return Refusal(
            repr(char), _line_of(source, control.start()), "control characters are refused"
        )
    text = normalize(source)
    for name, pattern, reason in _COMPILED:
        if allow_imports and name == "import":
            continue
        if _NEEDLES.get(name, name) not in text:
            continue
        found = pattern.search(text)
        if found:
            return Refusal(name, _line_of(text, found.start()), reason)
    refusal = _check_attributes(text)
    if refusal:
        return refusal
    found = _CODE_ATTRIBUTE.search(text)
    if found:
        return Refusal(found.group(0), _line_of(text, found.start()), "installs code Lean runs")
    return None
