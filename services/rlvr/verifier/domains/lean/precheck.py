"""Refuse, before Lean runs, source text that could bypass the kernel or the trusted check.

Lean elaboration can run code, and code that runs inside a REPL can forge the REPL's replies
(it reads our commands on stdin). The REPL's container (`container.py`) makes an escape gain
nothing outside; this pre-check is what keeps the *verdict* honest, by refusing every construct
that evaluates, compiles or installs the submission's own code at elaboration time, or that
changes how later text parses or is checked:

- commands that evaluate: `#eval`, `#reduce`, `#exit`, `#guard*`, `#html`, `#widget`, `#test`,
  `#sample`, `#time`, `#count_heartbeats`, `run_cmd`/`run_tac`/`run_elab`/`run_meta`, `by_elab`,
  `initialize`, `compile_inductive%`, `test_extern`;
- tactics that evaluate compiled code: `native_decide`, `decide +native`,
  `decide (config := {native := true})` (any `native`), `plausible`/`slim_check`, `bv_decide`;
- meta code and the way to IO from pure code: `Lean`, `Elab`, `Meta`, `Parser`, the monads
  (`MetaM`, `TacticM`, `CommandElabM`, ...), `IO`/`EIO`/`BaseIO`/`EStateM`/`RealWorld`,
  `evalExpr`/`evalConst`, `unsafe`, `extern`, `implemented_by`, `ofReduceBool`;
- syntax that rewrites later text: `macro`, `macro_rules`, `syntax`, `elab`, `elab_rules`,
  `notation`, `infix`/`prefix`/`postfix` commands, `declare_syntax_cat` and the other
  `declare_*` meta commands, `register_*`, `binder_predicate`, `unif_hint`, `simproc`,
  `add_aesop_rules`, `export`, `import`/`prelude`, `debug.*` options;
- evaluated arguments: a `(config := …)` term may not name anything the submission defines
  (Lean evaluates config terms);
- attributes outside a short allow-list, wherever an attribute list stands: `@[…]`,
  `attribute […]` and the nested `(attr := …)` lists of `to_additive`/`simps`/`reassoc`. An
  extension attribute (`positivity`, `norm_num`) is allowed bare only: with an argument it
  registers the tagged declaration as code its tactic later runs.

How: a word search, NOT a Lean parser, on the code Lean will read: comments and string/char
literals are blanked first by `lexer.visible_code`, which follows Lean's scanner and gives up
where its reading could differ from Lean's; then the whole text is searched, literals and
comments included (the strict mode of earlier versions). Guillemets (`«#exit»`), zero-width
characters and compatibility forms are normalised away before the search, so spelling tricks
still match. The `detail` names the construct and its line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rlvr.verifier.domains.commas import split_top_level
from rlvr.verifier.domains.lean.lexer import visible_code

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

_EVAL = "evaluates code at elaboration time (code run in the REPL can forge its replies)"
_COMPILER = "trusts compiled code instead of the kernel (axiom Lean.ofReduceBool)"
# What follows `infixl`/`prefix`/`postfix` in the command: a precedence (`:65`, `:max+1`,
# `:(65)`, `:(max)`), `(name := …)` / `(priority := …)`, then the notation's string.
_SYNTAX_COMMAND = (
    r"(?:\s*:\s*(?:\([^()\"]*\)|[\w.]+)(?:\s*[+-]\s*\w+)?)?"
    r"(?:\s*\(\s*\w+\s*:=[^()]*\))*\s*\""
)

_RULES: tuple[tuple[str, str, str], ...] = (
    ("import", _word("import"), "imports belong in the item's `header`"),
    ("prelude", _word("prelude"), "`prelude` drops the core library and its axioms' meaning"),
    ("#exit", r"#\s*exit", "stops elaboration early (the trusted check must always run)"),
    ("#eval", r"#\s*eval", _META),
    ("#guard_msgs", r"#\s*guard_msgs", "rewrites which messages are reported"),
    ("#guard", r"#\s*guard", "evaluates compiled code"),
    (
        "#command",
        r"#\s*(?:reduce|html|widget|test|sample|plausible|time|count_heartbeats|run|exec|compile)",
        _EVAL,
    ),
    ("debug option", r"(?<![\w'.])debug\s*\.", "`debug.*` options can switch the kernel off"),
    ("skipKernelTC", r"skipKernelTC", "switches the kernel off"),
    ("unsafe", _word("unsafe"), "unsafe code is not checked by the kernel"),
    ("extern", _word("extern"), "replaces a definition's code with foreign code"),
    ("implemented_by", _word("implemented_by"), "replaces a definition's code"),
    ("native_decide", _word("native_decide"), _COMPILER),
    ("native", _word("native"), "`decide +native` / `native := true` " + _COMPILER),
    ("ofReduceBool", r"(?:ofReduceBool|reduceBool|trustCompiler)", "trusts the compiler"),
    ("test_extern", _word("test_extern"), _EVAL),
    ("plausible", r"(?<![\w'.])(?:plausible|slim_check)(?![\w'!?])", _EVAL),
    ("bv_decide", r"(?<![\w'.])bv_(?:decide|check)(?![\w'!?])", _COMPILER),
    ("compile%", r"(?<![\w'.])(?:compile_\w+|\w*eval\w*)\s*%", _EVAL),
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
    ("infix", r"(?<![\w'.])infix[lr]?(?![\w'!?])" + _SYNTAX_COMMAND, _SYNTAX),
    ("prefix", _word("prefix") + _SYNTAX_COMMAND, _SYNTAX),
    ("postfix", _word("postfix") + _SYNTAX_COMMAND, _SYNTAX),
    ("binder_predicate", _word("binder_predicate"), _SYNTAX),
    ("unif_hint", _word("unif_hint"), _SYNTAX),
    ("initialize", r"(?<![\w'.])(?:builtin_)?initialize(?![\w'!?])", _META),
    ("simproc", r"(?<![\w'.])(?:builtin_)?d?simproc(?:_decl|_pattern)?(?![\w'!?])", _META),
    (
        "declare_*",
        r"(?<![\w'.])declare_(?:syntax_cat|simp_like_tactic|\w*config_elab|aesop_rule_sets"
        r"|\w*_ext|\w*attr\w*|\w*tactic\w*|\w*elab\w*|\w*syntax\w*|\w*command\w*|\w*option\w*)"
        r"(?![\w'!?])",
        _SYNTAX,
    ),
    ("register_*", r"(?<![\w'.])register_\w+", _META),
    ("add_aesop_rules", _word("add_aesop_rules"), _META),
    ("export", _word("export"), "creates root aliases that could stand in for trusted names"),
    (
        "meta code",
        r"(?<![\w'.])(?:Lean|Elab|Meta|Parser|Compiler|MetaM|TacticM|TermElabM|CommandElabM"
        r"|CoreM|MacroM|DelabM|AttrM|IO|EIO|BaseIO|EStateM|RealWorld|evalExpr|evalConst|evalDecl"
        r"|unsafeCast|unsafeBaseIO|unsafeIO|unsafeEIO|ptrAddrUnsafe)(?![\w'!?])",
        "meta code or IO, which only does anything when evaluated at elaboration time",
    ),
)
_COMPILED = tuple((name, re.compile(pattern), reason) for name, pattern, reason in _RULES)
[(_, _META_CODE, _META_CODE_REASON)] = [rule for rule in _COMPILED if rule[0] == "meta code"]
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
    "#command": "#",
    "plausible": "",
    "bv_decide": "bv_",
    "compile%": "%",
    "meta code": "",
    "initialize": "initialize",
    "simproc": "simproc",
    "declare_*": "declare_",
    "register_*": "register_",
}

#: Extension attributes: allowed bare (harmless), refused with an argument, with which they
#: register the tagged declaration as meta code that their tactic runs.
BARE_ONLY_ATTRIBUTES = frozenset({"positivity", "norm_num"})

#: Attributes a proof may use: they only tag declarations for tactics that build proof terms the
#: kernel checks, or give the compiler a hint. Anything else (`command_elab`, `tactic`, `init`,
#: `csimp`, `extern`, `implemented_by`, parser and delaborator attributes, ...) is refused.
ALLOWED_ATTRIBUTES = frozenset(
    {
        *BARE_ONLY_ATTRIBUTES,
        "reassoc",
        "always_inline",
        "macro_inline",
        "elementwise",
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
_ENTRY_NAME = re.compile(r"[^\W\d][\w'.]*")


def normalize(source: str) -> str:
    """The text as we search it: NFKC, no invisible characters, no identifier guillemets."""
    text = unicodedata.normalize("NFKC", source)
    text = _INVISIBLE.sub("", text)
    return text.replace("«", "").replace("»", "")


def _line_of(text: str, index: int) -> int:
    """1-based line of `index`. Called only to word a refusal (once per check), never per
    match: counting from the start for every match made repeated `@[simp]` quadratic."""
    return text.count("\n", 0, index) + 1


_MAX_ATTRIBUTE_CHARS = 20_000


class _ScanBudget:
    """Bracket-scan steps left for one text (each step is one bracket, quote or literal)."""

    def __init__(self, text_chars: int) -> None:
        self.left = 4 * text_chars + 10_000

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


# What a bracket scan stops at: brackets, and with `literals` the starts of literals.
_BRACKETS = re.compile(r"[\[\]()]")
_BRACKETS_OR_LITERALS = re.compile(r"[\[\]()\"']")
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"?', re.DOTALL)
_CONTINUES_NAME = re.compile(r"[\w'!?.]")


def _matching_bracket(
    text: str, open_index: int, *, literals: bool, budget: _ScanBudget | None = None
) -> int:
    """Index of the `]` closing the `[` at `open_index` (len(text) if none).

    The scan stops after `_MAX_ATTRIBUTE_CHARS`, or when the shared `budget` is spent (-1: the
    caller refuses such a list), and jumps from bracket to bracket with a regex, so a text made
    of unclosed or deep `@[` costs linear time, not quadratic.

    With `literals`, brackets inside string literals and character literals (a `'` that does not
    continue an identifier) are skipped, as Lean's scanner skips them.
    """
    budget = budget or _ScanBudget(len(text))
    depth, i = 0, open_index
    end = min(len(text), open_index + _MAX_ATTRIBUTE_CHARS)
    stops = _BRACKETS_OR_LITERALS if literals else _BRACKETS
    while True:
        found = stops.search(text, i, end)
        if found is None:
            break
        if not budget.spend():
            return -1
        i = found.start()
        char = text[i]
        if char == '"':
            i = _STRING_REST.match(text, i + 1).end() - 1  # type: ignore[union-attr]
        elif char == "'":
            if not (i and _CONTINUES_NAME.match(text[i - 1])):
                close = text.find("'", i + 2 if text[i + 1 : i + 2] == "\\" else i + 1)
                if 0 < close - i <= 12:
                    i = close
        elif char in "[(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) if end == len(text) else -1


def attribute_entries(body: str) -> list[tuple[str, str]]:
    """`(name, arguments)` of each entry of one attribute list: `local simp, -foo, instance 100`
    -> `[("simp", ""), ("foo", ""), ("instance", "100")]`."""
    entries = []
    for entry in split_top_level(body, strings=True):
        words = entry.strip().lstrip("-").strip()
        # `local`/`scoped` are modifiers: the attribute is the next word.
        while True:
            match = _ENTRY_NAME.match(words)
            if match and match.group(0) in {"local", "scoped"}:
                words = words[match.end() :].strip()
                continue
            break
        if match:
            entries.append((match.group(0), words[match.end() :].strip()))
        elif words:
            entries.append((words.split()[0], " ".join(words.split()[1:])))
    return entries


def attribute_names(body: str) -> list[str]:
    """The attribute names of one attribute list (see `attribute_entries`)."""
    return [name for name, _ in attribute_entries(body)]


# Where an attribute list stands: `@[`, `attribute [`, and a nested `(attr := ` list.
_ATTR_START = re.compile(r"@\[|(?<![\w'.])attribute\s*\[|\(\s*attr\s*:=")


def _check_attribute_list(body: str, line: int) -> Refusal | None:
    for name, arguments in attribute_entries(body):
        if name not in ALLOWED_ATTRIBUTES:
            return Refusal(
                f"@[{name}]", line, "attribute not on the allow-list (it may register code)"
            )
        if name in BARE_ONLY_ATTRIBUTES and arguments:
            return Refusal(
                f"@[{name} …]",
                line,
                "with an argument it registers the declaration as code its tactic runs",
            )
    if re.search(_word("tactic"), body):
        return Refusal("@[... tactic]", line, "registers a tactic written by the submission")
    return None


def _check_attributes(text: str) -> Refusal | None:
    """Every attribute list, nested ones included (each `(attr := …)` is found on its own).

    The bracket scans share one budget proportional to the text: many unclosed or deep lists
    cost linear time in all, not 20,000 steps each."""
    budget = _ScanBudget(len(text))
    for match in _ATTR_START.finditer(text):
        nested = match.group(0).startswith("(")
        open_index = match.start() if nested else match.end() - 1
        end = _matching_bracket(text, open_index, literals=True, budget=budget)
        if end < 0:
            line = _line_of(text, match.start())
            return Refusal("@[...]", line, "attribute list too long to read")
        if end != _matching_bracket(text, open_index, literals=False, budget=budget):
            line = _line_of(text, match.start())
            return Refusal("@[...]", line, "attribute list with brackets inside literals")
        body = text[match.end() : end] if nested else text[open_index + 1 : end]
        refusal = _check_attribute_list(body, 0)
        if refusal:
            line = _line_of(text, match.start())
            return Refusal(refusal.construct, line, refusal.reason)
    return None


# What a submission defines that Lean could run: computational definitions. A theorem's value is
# a proof, erased before any evaluation, so naming a helper lemma (`(h := my_lemma)`) is fine.
_DEFINES = re.compile(
    r"(?<![\w'.])(?:def|abbrev|instance|opaque|structure|class|inductive"
    r"|partial\s+def|noncomputable\s+def)\s+(?:\([^)]*\)\s*)?([^\s:({\[⦃]+)"
)
# `(config := t)`, and every `(item := t)`: Lean 4 tactics take their configuration as
# `(maxSteps := f)`-style items too (and a named argument looks the same to a word search), and
# Lean evaluates a configuration term while it elaborates.
_CONFIG = re.compile(r"\(\s*[^\W\d][\w'.]*\s*:=")
_IDENT = re.compile(r"[^\W\d][\w'!?.]*")
_GROUPING = re.compile(r"[()\[\]{}]")
# aesop's rule clauses that name a tactic to run: `aesop (add safe tactic t)`.
_AESOP_TACTIC = re.compile(r"\(\s*(?:add|rule_sets)\b[^()]*?(?<![\w'.])tactic(?![\w'!?])")


def _term_end(text: str, start: int, budget: _ScanBudget) -> int:
    """End of the term that starts at `start` (the first unbalanced closing bracket), by
    jumping from bracket to bracket; -1 once the shared budget is spent."""
    depth = 0
    limit = min(len(text), start + _MAX_ATTRIBUTE_CHARS)
    for found in _GROUPING.finditer(text, start, limit):
        if not budget.spend():
            return -1
        if found.group(0) in "([{":
            depth += 1
        elif depth == 0:
            return found.start()
        else:
            depth -= 1
    return limit


def _check_config_terms(text: str) -> Refusal | None:
    """A configuration term is evaluated by Lean: it may not name code the submission defines.
    Every `(name := term)` is read as one (a named argument too); the scans share one budget."""
    found = _AESOP_TACTIC.search(text)
    if found:
        return Refusal(
            "aesop (add … tactic …)",
            _line_of(text, found.start()),
            "runs a tactic the submission names as an aesop rule: " + _EVAL,
        )
    if ":=" not in text:
        return None
    defined = {m.group(1).split(".")[-1] for m in _DEFINES.finditer(text)}
    if not defined:
        return None
    budget = _ScanBudget(len(text))
    for match in _CONFIG.finditer(text):
        end = _term_end(text, match.end(), budget)
        if end < 0:
            return Refusal(
                ":=", _line_of(text, match.start()), "configuration terms too long to read"
            )
        for name in _IDENT.findall(text, match.end(), end):
            if name.split(".")[-1] in defined or name.split(".")[0] in defined:
                return Refusal(
                    "config :=" if "config" in match.group(0) else match.group(0).strip("( "),
                    _line_of(text, match.start()),
                    f"the configuration term names `{name}`, defined by the submission: " + _EVAL,
                )
    return None


_IMPORT_LINE = re.compile(r"^([ \t]*import)([^\n]*)", re.MULTILINE)


# `_root_.IO.println` is `IO.println` resolved from the root namespace: a name is judged as
# Lean resolves it, so the prefix goes before the search (after normalising: `«_root_».IO`).
_ROOT_PREFIX = re.compile(r"(?<![\w'!?.])_root_\.")
# A doc comment's body (up to its first `-/`: never past Lean's own end of it).
_DOC_COMMENT = re.compile(r"/--(?:(?!-/).)*", re.DOTALL)
# Rules whose words are prose in a doc comment and harmless even where Lean's error recovery
# reads a doc comment's body as commands: an `initialize` action runs when a module that
# declares it is imported, never while the file that declares it is elaborated.
_PROSE_IN_DOCS = frozenset({"initialize"})


def _searched(source: str, *, allow_imports: bool) -> tuple[str, bool]:
    """The text the rules search: Lean's code (or all of it, see `visible_code`), normalised,
    with `_root_.` prefixes resolved; and whether comments and literals could be told apart
    from code."""
    code = visible_code(source)
    text = source if code is None else code
    if allow_imports:  # module names (`import Lean.Data`) are not code
        text = _IMPORT_LINE.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    return _ROOT_PREFIX.sub("", normalize(text)), code is not None


def precheck(source: str, *, allow_imports: bool = False) -> Refusal | None:
    """The first forbidden construct in `source`, or None when it may be sent to Lean.

    Linear in the length of `source` (every scan shares a budget proportional to it)."""
    control = _CONTROL.search(source)
    if control:
        char = control.group(0)
        return Refusal(
            repr(char), _line_of(source, control.start()), "control characters are refused"
        )
    text, lexed = _searched(source, allow_imports=allow_imports)
    # Doc comments blanked (their line breaks kept), for the rules that are prose there; only
    # where the lexer could tell literals apart (else a `"/--"` string could hide code).
    undocumented = (
        _DOC_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        if lexed and "/--" in text
        else text
    )
    for name, pattern, reason in _COMPILED:
        if (allow_imports and name == "import") or name == "meta code":
            continue
        if _NEEDLES.get(name, name) not in text:
            continue
        found = pattern.search(undocumented if name in _PROSE_IN_DOCS else text)
        if found:
            return Refusal(name, _line_of(text, found.start()), reason)
    refusal = _check_attributes(text) or _check_config_terms(text)
    if refusal:
        return refusal
    # Last, so that a more specific construct is the one named.
    found = _META_CODE.search(text)
    if found:
        return Refusal("meta code", _line_of(text, found.start()), _META_CODE_REASON)
    return None
