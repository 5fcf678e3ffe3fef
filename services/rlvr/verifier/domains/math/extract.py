"""Find the final answer in a model's response, in time linear in its length.

Only the answer section counts: the text up to the first end-of-sequence token (`</s>`,
`<|im_end|>`: the completion ended there), after the last `</think>` when there is one (a
response still inside `<think>` has no answer). There, the last `\\boxed{}`/`\\fbox{}` is the
answer: a box after a revision ("but that double counts ... the correct count is") replaces the
earlier ones, while different boxes side by side in one final statement (`\\boxed{6} or
\\boxed{8}`) are hedging and fail; a box is a commitment only standing alone (not an operand of
the math around it, `\\boxed{5}^2`, nor disowned by its sentence, `\\boxed{5} is wrong.`), and a
unit or word attached to it is read with it. Then the last "final answer is" / "the answer is" /
`Answer:` marker outside a supposition, whose statement is the whole rest of its sentence (words
that change the value refuse it: `the answer is twice $5$`), then a response that is nothing but
an answer. Nothing is stripped to make a value appear: what cannot be read as it is is refused.
The lenient fallbacks (the last `$...$` span, the last number of the last line) are settings,
off by default: a response cut off mid-sentence has no answer. Every scan is a single
left-to-right pass or a regex without nested quantifiers, so a 100 KB response or 5,000 nested
braces cost milliseconds.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from rlvr.verifier.domains.math.reading import split_unit

_BOX_RE = re.compile(r"\\(?:boxed|fbox)\b\s*")
_BRACE_RE = re.compile(r"(?<!\\)[{}]")
_MARKER_RE = re.compile(
    r"final\s+answer\s*(?:is|:|：)"
    r"|final\s+answer[ \t]*[*_]{1,3}[ \t]*(?:[:：][ \t]*)?(?=\S|\n)"  # a bold `**Final Answer**`
    r"|the\s+(?:final\s+|correct\s+|right\s+|true\s+)?(?:answer|solution)\s+"
    r"(?:is|should\s+be|would\s+be|must\s+be)\b"
    r"|^[ \t>*#_]*answer[ \t]*(?:[*_]+[ \t]*)?(?:[:：]|(?=\$|\\\[|\\\())"
    r"|^[ \t]*####[ \t]*(?=[-+\d.$\\])",  # GSM8K's `#### 12`
    re.IGNORECASE | re.MULTILINE,
)
# The marker after the value: `$x \geq 5$ is the solution.`, `so $12$ is our final answer`.
_POSTFIX_MARKER_RE = re.compile(
    r"(\$[^$\n]{1,2000}\$|\\\([^\n]{1,2000}?\\\))\s*(?:is|are)\s+(?:the|our)\s+"
    r"(?:final\s+)?(?:answer|solution)s?\b",
    re.IGNORECASE,
)
_DELIM_RE = re.compile(r"\$\$|\\\[|\\\]|\\\(|\\\)|(?<!\\)\$")
# a word starts only after a non-letter: each run is scanned once (linear, not quadratic)
_PROSE_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}[.,;:!?]?\s+[A-Za-z]{2,}")
_NUMBER_RE = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:/\d+)?|-?\.\d+")
_SENTENCE_END_RE = re.compile(r"\.(?=\s|$)|\n")
_TEMPLATE_TOKEN_RE = re.compile(
    r"<\|[a-z_]+\|>\w*|</s>|<eos>|<\|?endoftext\|?>|<｜[^｜<>\n]{1,40}｜>|<\|[a-z_]{1,30}\|>"
)
# the tokens a chat model ends its completion with (ChatML, Llama, Phi, GPT-2, DeepSeek, T5)
_END_OF_SEQUENCE_RE = re.compile(
    r"<\|(?:im_end|endoftext|eot_id|end|end_of_text)\|>|</s>|<eos>|<｜end▁of▁sentence｜>"
)
_JOINER_RE = re.compile(r"\$*\s*(?:,|and|or|,\s*and|,\s*or)?\s*\$*")
_WORD_RE = re.compile(r"[A-Za-z]+")
_THINK_CLOSE = "</think>"
_THINK_OPEN = "<think>"
# a gap between two boxed values that revises the earlier one: the later box replaces it
_REVISION_RE = re.compile(
    r"\b(?:but|wait|actually|correct(?:ed|ion|ly)?|mistakes?|wrong|errors?|instead|however|"
    r"re-?check\w*|re-?examin\w*|re-?calculat\w*|re-?comput\w*|recount\w*|reconsider\w*|"
    r"revis\w*|oops|incorrect\w*|double[- ]?count\w*|overcount\w*|fix\w*|missed|forgot\w*)\b",
    re.IGNORECASE,
)
# a gap that offers alternatives: the boxes around it are one hedged statement
_HEDGE_RE = re.compile(
    r"\b(?:or|either|alternatively|maybe|perhaps|possibly|otherwise|might|could|else|versus|vs|"
    r"unless|if|except)\b|\\(?:lor|vee)(?![A-Za-z])|/",
    re.IGNORECASE,
)
# words just before the committed value that make it another statement (`is not $5$`,
# `at least \boxed{3}`): the value alone is not what was said
_QUALIFIED_BEFORE_RE = re.compile(
    r"\b(?:not|never|no|isn'?t|least|most|than|approximately|approx|about|around|roughly|"
    r"nearly|almost|maybe|perhaps|possibly|probably|over|under|above|below|between|either)"
    r"[\s$*_(\\\[]{0,12}$",
    re.IGNORECASE,
)
# after the last box, a revision that names another value ("Wait, that's wrong ... it's 7")
_VALUE_RE = re.compile(r"\d|\$|\\\(|\\\[")
# what a marked statement may hold besides its values (`_read_statement`)
_SPAN_MARK = "\x00"
_DELIMITER_CHARS_RE = re.compile(r"(?<!\\)\$|\\[()\[\]]")
_EDGE_CHARS = " \t.,;:!?*_\"'"
_NOT_A_VALUE = frozenset(" \t.,;:!?*_\"'")
_PROSE_WORD_RE = re.compile(r"(?<![A-Za-z\\])[A-Za-z]{2,}")
_HARMLESS_LEAD_RE = re.compile(
    r"(?:(?:so|thus|therefore|hence|then|indeed|clearly|simply|just|exactly|precisely|finally|"
    r"option|choice|equal\s+to|given\s+by)(?![A-Za-z])[\s,:]*)*",
    re.IGNORECASE,
)
# (matched on the tail with its edges stripped: no quantifier meets another on a run of spaces)
_HARMLESS_TAIL_RE = re.compile(
    r"and\s+nothing\s+else|in\s+total|in\s+all|altogether|overall", re.IGNORECASE
)
# a justification after the value does not change it (`$4$ because 2+2=4`); a run of
# separators is tried once, from its start
_JUSTIFICATION_RE = re.compile(r"(?<![\s,;(])[\s,;(]+(?:because|since)(?![A-Za-z])", re.IGNORECASE)
# around a box (`_box_context`): what may stand before it, a unit after it, the words after it
_LEAD_COMMANDS = frozenset(
    {"Rightarrow", "Longrightarrow", "implies", "therefore", "quad", "qquad", "displaystyle"}
)
_COMMAND_END_RE = re.compile(r"\\([A-Za-z]+)$")
_TEXT_GROUP_END_RE = re.compile(r"\\(?:text|textbf|mathrm|mbox)\{[^{}]{0,200}\}$")
_SPACING_RE = re.compile(r"(?:\s|\\[,;: !]|~)+")
_UNIT_AFTER_RE = re.compile(
    r"\\(?:text|mathrm|textrm|mbox|operatorname)\b|\\?%|\^\s*\{?\s*\\circ(?![A-Za-z])"
)
# what may follow a box in its math span: a line break, a closing environment, a quad
_END_AFTER_RE = re.compile(r"\\\\|\\(?:end|quad|qquad|hfill|right\.)(?![A-Za-z])")
_POSTFIX_OK_RE = re.compile(
    r"(?:is|are)\s+(?:the|our|my)\s+(?:final\s+|correct\s+)?(?:answer|solution|result)s?"
    r"|is\s+correct",
    re.IGNORECASE,
)
_JOINING_WORDS = frozenset(
    {"and", "which", "because", "since", "as", "so", "hence", "thus", "therefore", "for"}
)
_PREDICATE_WORDS = frozenset(
    {
        "is",
        "are",
        "was",
        "were",
        "would",
        "could",
        "might",
        "may",
        "should",
        "seems",
        "can",
        "will",
        "must",
        "isn",
        "appears",
    }
)
# a marker in a supposition or a doubt (`_last_marker`): the words in its clause before it
_SUPPOSING_RE = re.compile(
    r"\b(?:suppose|supposing|assume|assuming|if|whether|imagine|say|unless|wonder|doubt|"
    r"claims?|claimed|wants?|show|prove|whatever)\b",
    re.IGNORECASE,
)
_CLAUSE_BREAKS = ".!?,;:\n"
_CLAUSE_LOOKBACK = 200
# a second value offered as also valid, in prose after the committed one (`_offers_another`)
_ALSO_VALID_RE = re.compile(
    r"(?:\$[^$\n]{1,40}\$|(?<![\w.])\d[\d.,/]{0,20})\s{0,3}"
    r"(?:(?:would|could|might|may|can)\s{1,3}(?:also\s{1,3})?(?:work|fit|hold|be\s{1,3}"
    r"(?:also\s{1,3})?(?:an?\s{1,3})?(?:valid|correct|right|possible|plausible|fine|answer|"
    r"solution))|(?:is\s{1,3})?also\s{1,3}(?:works|fits|holds|satisfies|(?:an?\s{1,3})?"
    r"(?:valid|correct|right|possible|plausible|answer|solution)))\b"
    r"|\b(?:though|although)\b[^.\n]{0,80}?(?:\$|\d)",
    re.IGNORECASE,
)
# where the sentence of a box ends: a question mark makes it a question
_BOX_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|\n|\?")
_STATEMENT_BREAK_RE = re.compile(r"[.!?](?:\s|$)|\n")
_SIDE_BY_SIDE_WORDS = 6
# a response that stops on a joining word or an operator was cut off mid-sentence
_CUT_OFF_RE = re.compile(
    r"(?:\b(?:and|or|then|so|but|since|because|which|where|we|the|to|is|of|if|with|by|"
    r"thus|hence|therefore)|[=+\-*/,(\\^_{])\s*$",
    re.IGNORECASE,
)
_MAX_SIDE_BY_SIDE = 20  # more boxes side by side than this are hedging whatever they hold
_CLOSERS = {"$$": "$$", "\\[": "\\]", "\\(": "\\)", "$": "$"}

MAX_ANSWER_CHARS = 2000


@dataclass(frozen=True, slots=True)
class Extraction:
    """What was found: `answer` (None if nothing), where it came from, and why it failed."""

    answer: str | None
    source: str
    detail: str = ""
    parts: tuple[str, ...] = ()  # the distinct boxed values when they disagree


def extract_answer(
    response: str,
    fallback: str = "none",
    same_answer: Callable[[str, str], bool] | None = None,
) -> Extraction:
    """The final answer of `response`; `same_answer` says whether two boxed values agree."""
    section = answer_section(_strip_template_tail(_until_end_of_sequence(response)))
    if section is None:
        return Extraction(
            None, "none", "no final answer: the response ends inside <think> (cut off?)"
        )
    spans = _boxed_spans(section)
    marker = _last_marker(section)
    if spans and (marker is None or marker.start() < spans[-1][0]):
        final = _final_statement(section, spans)
        boxed = [_peel_boxes(content) for _, _, content in final]
        distinct = _distinct(boxed, same_answer or (lambda a, b: a.strip() == b.strip()))
        if len(distinct) > 1:
            shown = ", ".join(_clip(b, 40) for b in distinct[:5])
            return Extraction(
                None,
                "boxed",
                f"several different final answers ({len(distinct)} distinct boxed values side "
                f"by side: {shown}); a response must commit to one",
                parts=tuple(d.strip() for d in distinct),
            )
        uncommitted = _uncommitted_box(section, final[0][0], final[-1][1])
        if uncommitted is not None:
            return Extraction(None, "boxed", uncommitted)
        floor = spans[-2][1] if len(spans) > 1 else 0  # boxes side by side: their own rule
        around = _box_context(section, final[-1][0], final[-1][1], floor)
        if isinstance(around, _Refused):
            return Extraction(None, "boxed", around.detail)
        return Extraction(f"{boxed[-1].strip()}{around}", "boxed")
    postfix = _last_postfix_marker(section)
    if postfix is not None and (marker is None or postfix.start() > marker.start()):
        span = postfix.group(1)
        inner = span[1:-1] if span.startswith("$") else span[2:-2]
        return Extraction(inner.strip(), "marker")
    if marker is not None:
        marked = _answer_after(section, marker.end())
        if isinstance(marked, _Refused):
            return Extraction(None, "marker", marked.detail)
        if marked:
            return Extraction(marked, "marker")
    whole = _whole_response_answer(section)
    if whole:
        return Extraction(whole, "whole")
    if fallback == "math_and_number":
        last = _last_math_or_number(section)
        if last:
            return Extraction(last, "last_math_or_number")
    elif fallback == "math":
        math = math_spans(section)
        if math and math[-1].strip():
            return Extraction(_clip(math[-1].strip(), MAX_ANSWER_CHARS), "last_math")
    return Extraction(
        None,
        "none",
        "no final answer found: put it in \\boxed{...} or end with 'The answer is ...'",
    )


def answer_section(response: str) -> str | None:
    """The text after the last `</think>`; the whole response when it has no think block;
    None when a `<think>` is never closed (the response was cut off while reasoning)."""
    close = response.rfind(_THINK_CLOSE)
    if close >= 0:
        return response[close + len(_THINK_CLOSE) :]
    if _THINK_OPEN in response:
        return None
    return response


def _uncommitted_box(text: str, start: int, end: int) -> str | None:
    """Why the final box is not a commitment, or None: a qualifier just before it (`is not
    \\boxed{5}`), a question (`Is it \\boxed{5}?`), a revision word in its own sentence
    (`\\boxed{5}, which is wrong.`), a condition or alternative after it in its sentence
    (`\\boxed{3} if n is odd, 4 if even`), or a revision after it that names another value."""
    if _QUALIFIED_BEFORE_RE.search(text[max(0, start - 40) : start]):
        return "the boxed value is qualified by the words before it: not a committed answer"
    tail = text[end : end + MAX_ANSWER_CHARS]
    sentence_end = _BOX_SENTENCE_END_RE.search(tail)
    if sentence_end is not None and sentence_end.group() == "?":
        return "the boxed value is asked about, not stated (its sentence is a question)"
    if _REVISION_RE.search(tail[: sentence_end.start() if sentence_end else len(tail)]):
        return "the sentence of the boxed value disowns it ('wrong', 'but', ...): not a commitment"
    if _offers_another(tail):
        return "the boxed value comes with a condition or an alternative: not one answer"
    if _revises_afterwards(tail):
        return (
            "the response revises its boxed value afterwards without boxing a new one: "
            "not a committed answer"
        )
    return None


def _box_context(text: str, start: int, end: int, floor: int = 0) -> str | _Refused:
    """What the math and words around the final box make of it: a refusal when the box is an
    operand of the math around it (`-\\boxed{5}`, `2\\boxed{5}`, `\\sqrt{\\boxed{16}}`,
    `\\boxed{5}^2`, `\\boxed{5}!`, `\\boxed{5} - 1`) or when the sentence goes on to say
    something of it (`\\boxed{5} is wrong.`); otherwise the unit or word attached to it
    (`\\boxed{5}\\,\\text{km}`, `$\\boxed{5}$ thousand`), returned to be read with the value
    (the reader knows units and count nouns and refuses any other word), or "".

    Only what touches the box counts: inside its math span, the rest of the span; outside one,
    the rest of its line; never an earlier box (`floor`: boxes side by side are the hedge
    rule's). Each look is bounded (linear time).
    """
    span = next(((a, b) for a, b in math_span_bounds(text) if a <= start and end <= b), None)
    if span is not None:
        left, right = text[max(span[0], floor) : start], text[end : span[1]]
    else:
        line_start = text.rfind("\n", max(0, start - MAX_ANSWER_CHARS), start) + 1
        left = text[max(line_start, floor) : start]
        right = text[end : end + MAX_ANSWER_CHARS].split("\n", 1)[0]
    trimmed = left.rstrip()
    if trimmed and not (
        trimmed[-1] in "=:;,.?&"
        or trimmed.endswith("\\\\")
        or _TEXT_GROUP_END_RE.search(trimmed)
        or (
            (command := _COMMAND_END_RE.search(trimmed)) is not None
            and command.group(1) in _LEAD_COMMANDS
        )
        or (span is None and _outside_math_lead(trimmed, trimmed != left))
    ):
        return _Refused(
            f"the box is an operand of the math before it ({_clip(trimmed[-20:], 20)!r}): "
            "not a standalone answer"
        )
    spacing = _SPACING_RE.match(right)
    following = right[spacing.end() :] if spacing else right
    if following:
        first = following[0]
        if _UNIT_AFTER_RE.match(following):
            return " " + _clip(right.strip(), 200)  # `\\boxed{5}\\,\\text{km}`: read with its unit
        if (
            first in ".,;:?)"
            or (first == "!" and following != right)
            or _END_AFTER_RE.match(following)
        ):
            return ""
        if span is not None or not (first.isalpha() or first in "*$"):
            return _Refused(
                f"the box is an operand of the math after it ({_clip(following, 20)!r}): "
                "not a standalone answer"
            )
        if first in "*$":
            return ""
        return _words_after_box(following)
    if span is None:
        return ""
    close = text[span[1] : span[1] + 2]
    after = span[1] + (2 if close in ("$$", "\\)", "\\]") else 1)
    rest = text[after : after + MAX_ANSWER_CHARS].split("\n", 1)[0].lstrip()
    if not rest or not rest[0].isalpha():
        return ""
    return _words_after_box(rest)


def _outside_math_lead(trimmed: str, spaced: bool) -> bool:
    """Whether what ends the text before a box outside any math span leaves it standing alone:
    prose (`is \\boxed{5}`), bold, an opening parenthesis; not a digit or a letter touching
    it (`2\\boxed{5}`), an operator, a brace or a command (`\\sqrt`, `-`, `\\frac{1}{`)."""
    last = trimmed[-1]
    if last == "*" and (len(trimmed) == 1 or trimmed[-2] in "* \t"):
        return True  # markdown emphasis: `**\\boxed{4}**`
    if last.isdigit() or last in "+-*/^_{[|<>~\\}":
        return False
    if last.isascii() and last.isalpha():
        return spaced and _COMMAND_END_RE.search(trimmed) is None
    return True


def _words_after_box(rest: str) -> str | _Refused:
    """The prose right after a box: a marker (`is the answer`) or a justification leaves it; a
    predicate (`is wrong`, `is not the answer`) is another statement; one word is its unit."""
    end = _SENTENCE_END_RE.search(rest)
    sentence = (rest[: end.start()] if end else rest).strip().rstrip("!.")
    if _POSTFIX_OK_RE.fullmatch(sentence):
        return ""
    word = _WORD_RE.match(sentence)
    if word is None:
        return ""
    name = word.group().lower()
    if name in _JOINING_WORDS:
        return ""
    if name in _PREDICATE_WORDS:
        return _Refused(
            f"the text after the box says something else of it ({_clip(sentence, 40)!r}): "
            "not a committed answer"
        )
    return f" \\text{{ {word.group()}}}"


def _final_statement(text: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The last boxed value and the boxes side by side with it in the same final statement.

    A box followed by a revision (`but`, `wait`, `the correct count is`) or by a new statement
    is superseded; boxes joined by alternatives (`or`, `either`) or a few words are one
    statement, so different values among them are hedging.
    """
    final = [spans[-1]]
    for previous in reversed(spans[-_MAX_SIDE_BY_SIDE:-1]):
        gap = text[previous[1] : final[0][0]]
        if _REVISION_RE.search(gap):
            break
        hedged = _HEDGE_RE.search(gap) is not None
        short = len(
            _WORD_RE.findall(gap)
        ) <= _SIDE_BY_SIDE_WORDS and not _STATEMENT_BREAK_RE.search(gap.strip())
        if not (hedged or short):
            break
        final.insert(0, previous)
    return final


def _peel_boxes(content: str) -> str:
    """`\\boxed{\\boxed{8}}` -> `8`: a box that wraps the whole value means nothing."""
    text = content.strip()
    start, end = 0, len(text)
    pairs: dict[int, int] | None = None
    for _ in range(10):
        match = _BOX_RE.match(text, start)
        if match is None or match.end() >= end or text[match.end()] != "{":
            break
        if pairs is None:
            pairs = matching_braces(text)
        close = pairs.get(match.end())
        if close is None or text[close + 1 : end].strip():
            break
        start, end = match.end() + 1, close
        while start < end and text[start].isspace():
            start += 1
    return text[start:end] if start else content


def extract_gold(answer: str) -> str:
    """The ground truth as a bare expression: its boxed value(s), or the text unwrapped."""
    spans = boxed_spans(answer)
    if len(spans) > 1 and _boxed_listed(answer, spans):
        return ", ".join(b.strip() for _, b in spans)  # `\\boxed{1} and \\boxed{2}`: both parts
    if spans:
        return spans[-1][1].strip()
    text = answer.strip()
    listed = _listed_spans(text)
    if listed:
        return listed
    bounds = math_span_bounds(text)
    if len(bounds) == 1 and len(text) <= 200:
        (start, end), outside = bounds[0], text[: bounds[0][0]] + text[bounds[0][1] :]
        if not re.search(r"\d", outside) and len(_WORD_RE.findall(outside)) <= 3:
            return text[start:end].strip()  # `$125$ miles`: the value and its unit
    if len(text) <= 200 and _is_quantity(strip_math_delimiters(text)):
        return strip_math_delimiters(text)  # `7 \text{ square centimeters}`: a unit, not prose
    if len(text) > 200 or _PROSE_RE.search(re.sub(r"\\[A-Za-z]+|\$[^$]*\$", " ", text[:200])):
        # a worked solution given as the ground truth: read its final answer like a response's
        # (the ground truth is trusted: the lenient fallbacks apply)
        found = extract_answer(text, fallback="math_and_number")
        if found.answer:
            return found.answer
    return strip_math_delimiters(text)


def _is_quantity(text: str) -> bool:
    """A number and the words of a unit the reader knows (`6 \\text{ cubic inches}`): a value
    with its unit, whose words are no worked solution to read an answer out of."""
    quantity = split_unit(text.strip())
    return quantity is not None and quantity.unit is not None and quantity.is_known


def _boxed_listed(text: str, spans: list[tuple[int, str]]) -> bool:
    """Boxed values separated by a few words (`papers and`) are parts of one answer; separated
    by more (`no no no no no`, a paragraph) the last one is the answer."""
    for (start, content), (next_start, _) in itertools.pairwise(spans):
        gap = text[start + len(content) + 8 : next_start]
        if len(_WORD_RE.findall(gap)) > 3:
            return False
    return True


def _until_end_of_sequence(text: str) -> str:
    """The response up to its first end-of-sequence token: the completion ended there, so what
    follows (`\\boxed{7}</s>\\boxed{5}`, a second turn) was never part of it."""
    end = _END_OF_SEQUENCE_RE.search(text)
    return text if end is None else text[: end.start()]


def _strip_template_tail(text: str) -> str:
    """Drop trailing chat-template tokens (`<|im_start|>user`), one at a time from the end."""
    for _ in range(20):
        stripped = text.rstrip()
        at = stripped.rfind("<|")
        if at < 0 or not _TEMPLATE_TOKEN_RE.fullmatch(stripped, at):
            return text
        text = stripped[:at]
    return text


def _listed_spans(text: str) -> str | None:
    """`$1$ and $2$ and $3$` (math spans joined only by `and`/commas) -> `1, 2, 3`."""
    bounds = math_span_bounds(text)
    if len(bounds) < 2:
        return None
    between = [text[end:start] for (_, end), (start, _) in itertools.pairwise(bounds)]
    if not all(_JOINER_RE.fullmatch(gap) for gap in between):
        return None
    if text[: bounds[0][0]].strip("$ ") or text[bounds[-1][1] :].strip("$ ."):
        return None
    return ", ".join(text[start:end].strip() for start, end in bounds)


def boxed_contents(text: str) -> list[str]:
    """Contents of the outermost `\\boxed{...}`/`\\fbox{...}` groups (and `\\boxed 5`), in order."""
    return [content for _, content in boxed_spans(text)]


def boxed_spans(text: str) -> list[tuple[int, str]]:
    """(start, content) of each outermost boxed group, in order."""
    return [(start, content) for start, _, content in _boxed_spans(text)]


def _boxed_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of each outermost boxed group, in order."""
    starts = list(_BOX_RE.finditer(text))
    if not starts:
        return []
    pairs = matching_braces(text)
    found: list[tuple[int, int, str]] = []
    covered_until = -1
    for match in starts:
        if match.start() < covered_until:
            continue  # nested inside a boxed value already taken
        open_at = match.end()
        if open_at < len(text) and text[open_at] == "{":
            close_at = pairs.get(open_at)
            if close_at is None:
                continue  # unbalanced: not an answer
            found.append((match.start(), close_at + 1, text[open_at + 1 : close_at]))
            covered_until = close_at
        else:
            token = re.match(r"[^\s$.,;]+", text[open_at : open_at + 200])
            if token:
                found.append((match.start(), open_at + token.end(), token.group()))
                covered_until = open_at + token.end()
    return found


def matching_braces(text: str) -> dict[int, int]:
    """Position of every unescaped `{` -> its matching `}`; one pass with a stack."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for match in _BRACE_RE.finditer(text):
        if match.group() == "{":
            stack.append(match.start())
        elif stack:
            pairs[stack.pop()] = match.start()
    return pairs


def math_spans(text: str) -> list[str]:
    """Contents of `$...$`, `$$...$$`, `\\(...\\)`, `\\[...\\]` spans, in order (one pass)."""
    return [text[start:end] for start, end in math_span_bounds(text)]


def math_span_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) of each math span's content; a single pass over the delimiters."""
    spans: list[tuple[int, int]] = []
    opener: str | None = None
    opened_at = 0
    for match in _DELIM_RE.finditer(text):
        delim = match.group()
        if opener is None:
            if delim in _CLOSERS:
                opener, opened_at = delim, match.end()
        elif delim == _CLOSERS[opener]:
            # inline math does not span lines (display math `$$`, `\\[` may)
            if opener in ("$$", "\\[") or "\n" not in text[opened_at : match.start()]:
                spans.append((opened_at, match.start()))
            opener = None
    return spans


def strip_math_delimiters(text: str) -> str:
    """`$x$`, `$$x$$`, `\\(x\\)`, `\\[x\\]` -> `x` when the delimiters wrap the whole text."""
    for left, right in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if len(text) >= len(left) + len(right) and text.startswith(left) and text.endswith(right):
            inner = text[len(left) : len(text) - len(right)]
            if left == "$" and "$" in inner.replace("\\$", ""):
                continue  # `$a$ and $b$` is not one span
            return inner.strip()
    return text


def _last_marker(response: str) -> re.Match[str] | None:
    """The last marker that commits: one inside a supposition or a doubt in its own clause
    (`Suppose the answer is 12`, `Nobody knows if the correct answer is 12`) states nothing."""
    last = None
    for match in _MARKER_RE.finditer(response):
        clause = response[max(0, match.start() - _CLAUSE_LOOKBACK) : match.start()]
        clause = clause[max(clause.rfind(c) for c in _CLAUSE_BREAKS) + 1 :]
        if not _SUPPOSING_RE.search(clause):
            last = match
    return last


def _last_postfix_marker(section: str) -> re.Match[str] | None:
    """The last `$value$ is the answer` in the last 4,000 characters (the answer comes last)."""
    matches = list(_POSTFIX_MARKER_RE.finditer(section, max(0, len(section) - 4000)))
    return matches[-1] if matches else None


@dataclass(frozen=True, slots=True)
class _Refused:
    """A marked statement that is not its bare value, and why."""

    detail: str


def _answer_after(response: str, start: int) -> str | _Refused | None:
    rest = response[start : start + MAX_ANSWER_CHARS].lstrip(" \t:*_")
    rest = rest.lstrip()
    if not rest:
        return None
    end = _SENTENCE_END_RE.search(rest)
    sentence = rest[: end.start()] if end else rest
    statement = _read_statement(sentence)
    if isinstance(statement, _Refused):
        return statement
    for left in ("$$", "\\[", "\\(", "$"):
        if rest.startswith(left):
            close = rest.find(_CLOSERS[left], len(left))
            if close > len(left) and left in ("$", "\\(") and "\n" in rest[:close]:
                return None  # inline math does not span lines
            if close > len(left):
                tail = rest[close + len(_CLOSERS[left]) :]
                if _offers_another(tail) or _revises_afterwards(tail):
                    return None  # `$3$ or $4$`, `$3$. Actually, it is $4$`: not one answer
                end = _SENTENCE_END_RE.search(tail)
                listed = _listed_spans(
                    rest[
                        : close + len(_CLOSERS[left]) + (end.start() if end else len(tail))
                    ].rstrip(" .")
                )
                if listed:
                    return listed  # `$3$, $4$`: the answer lists both
                return statement or rest[len(left) : close].strip()
    boxed = boxed_contents(rest)
    if boxed:
        return boxed[0].strip()
    end = _SENTENCE_END_RE.search(rest)
    segment = rest[: end.start()] if end else rest
    if _offers_another(segment) or _revises_afterwards(rest[len(segment) :]):
        return None
    if statement:
        return statement
    spans = math_spans(segment)
    if len(spans) == 1:
        return spans[0].strip()
    segment = segment.strip().rstrip(".,;").strip("*_ \"'\\").strip()
    segment = segment.replace("$", " ").strip()
    return segment or None


def _read_statement(sentence: str) -> str | _Refused | None:
    """The committed statement after a marker: the whole rest of its sentence, read as a unit.

    Math spans and bare numbers are its values; a prose word is harmless only as a known lead
    (`the answer is therefore $5$`), a joiner of a listing (`$3$ and $4$`), a known closing
    (`and nothing else`) or a justification that follows (`because ...`). Any other word before
    or between the values changes what was said (`twice $5$`, `$5$ plus $2$`, `negative $6$`):
    the answer is refused, never the value with the words stripped. Words after the last value
    stay with it as its unit (`$5$ meters`, `$5$ squared`) for the reader to judge. None: a
    statement with no value (a word answer, `B`), read as before. One pass over the sentence.
    """
    sentence = sentence.replace(_SPAN_MARK, " ")  # the mark stands for a span, nothing else
    cut = _JUSTIFICATION_RE.search(sentence)
    if cut is not None:
        sentence = sentence[: cut.start()]
    bounds = [(a, b) for a, b in math_span_bounds(sentence) if sentence[a:b].strip()]
    pieces, contents, at = [], [], 0
    for a, b in bounds:
        pieces.append(sentence[at:a])
        pieces.append(_SPAN_MARK)
        contents.append(sentence[a:b].strip())
        at = b
    pieces.append(sentence[at:])
    outside = _DELIMITER_CHARS_RE.sub(" ", "".join(pieces))
    body = outside.strip(_EDGE_CHARS)
    body = body[_HARMLESS_LEAD_RE.match(body).end() :]  # type: ignore[union-attr]
    words = list(_PROSE_WORD_RE.finditer(body))
    in_word = bytearray(len(body))
    for word in words:
        in_word[word.start() : word.end()] = b"\x01" * (word.end() - word.start())
    value_at = [i for i, c in enumerate(body) if not in_word[i] and c not in _NOT_A_VALUE]
    if not value_at:
        return None
    first, last = value_at[0], value_at[-1]
    before = [w.group() for w in words if w.end() <= first]
    if before:
        return _Refused(
            f"the words before the marked value ({' '.join(before[:4])!r}) change what it "
            "says: not the bare value"
        )
    between = [w.group() for w in words if first < w.start() < last]
    if any(w.lower() not in ("and", "or") for w in between):
        shown = " ".join(w for w in between if w.lower() not in ("and", "or"))
        return _Refused(
            f"the words between the marked values ({shown[:40]!r}) make them another "
            "statement: not one value"
        )
    tail = body[last + 1 :].strip(_EDGE_CHARS)
    if _HARMLESS_TAIL_RE.fullmatch(tail):
        tail = ""
    core = body[: last + 1]
    filled = iter(contents)
    core = "".join(next(filled) if c == _SPAN_MARK else c for c in core)
    if not tail.strip(_EDGE_CHARS):
        return core.strip()
    if contents:
        return f"{core.strip()} \\text{{ {tail.strip(_EDGE_CHARS)}}}"
    return f"{core.strip()} {tail.strip(_EDGE_CHARS)}"


def _revises_afterwards(tail: str) -> bool:
    """Whether the text after a committed value revises it and names another value (`Wait,
    that's wrong ... it is 7`): the same rule for a box and for a marker's value."""
    revision = _REVISION_RE.search(tail[:MAX_ANSWER_CHARS])
    return revision is not None and _VALUE_RE.search(tail, revision.end()) is not None


def _offers_another(text: str) -> bool:
    """Whether the text after the answer offers an alternative value (`or $4$`, `\\lor 7`,
    `, else $7$`, `$3$ if n is odd, $4$ if even`): in its sentence, or on the lines that follow
    it (`Answer: $5$\\nor $7$`). A later revision ends the search (it is its own rule)."""
    window = text[:400]
    revision = _REVISION_RE.search(window)
    if revision is not None:
        window = window[: revision.start()]
    if _ALSO_VALID_RE.search(window):
        return True  # `$7$ would also work`, `(Though $7$ is also plausible.)`
    return any(_VALUE_RE.search(window, hedge.end()) for hedge in _HEDGE_RE.finditer(window))


def _last_math_or_number(text: str) -> str | None:
    """Whichever comes last: the last math span, or the last number on the last line."""
    bounds = [(start, end) for start, end in math_span_bounds(text) if text[start:end].strip()]
    last_span_at = bounds[-1][0] if bounds else -1
    line_start = text.rstrip().rfind("\n") + 1
    tail_from = max(bounds[-1][1] if bounds else 0, line_start)
    number = None
    for number in _NUMBER_RE.finditer(text, tail_from):  # noqa: B007 — we want the last match
        pass
    if number is not None and number.start() > last_span_at:
        return number.group().rstrip(",")
    if bounds:
        start, end = bounds[-1]
        return _clip(text[start:end].strip(), MAX_ANSWER_CHARS)
    return None


def _whole_response_answer(response: str) -> str | None:
    text = response.strip()
    if text.startswith("**") and text.endswith("**"):
        text = text.strip("*").strip()  # `**5**`: the answer in bold
    if not text or len(text) > 200 or "\n" in text or ": " in text:
        return None
    if _CUT_OFF_RE.search(text):
        return None  # `3 \\cdot 4 = 12 and`: a sentence cut off, not an answer
    inner = strip_math_delimiters(text).rstrip(".").strip()
    if inner != text.rstrip(".").strip():
        return inner or None
    bounds = math_span_bounds(text)
    if len(bounds) == 1:
        # `$28$ %`, `$5$ cm`: one math span and at most a unit after it
        outside = text[: bounds[0][0]].strip("$([\\ ") + " " + text[bounds[0][1] :]
        if not re.search(r"\d", outside) and len(_WORD_RE.findall(outside)) <= 2:
            tail = text[bounds[0][1] :].lstrip("$)]\\ ").rstrip(". ")
            if not text[: bounds[0][0]].strip("$([\\ "):
                return (text[bounds[0][0] : bounds[0][1]].strip() + " " + tail).strip() or None
    if bounds:
        return None
    without_commands = re.sub(r"\\[A-Za-z]+", " ", text)
    if _PROSE_RE.search(without_commands):
        return None
    return inner or None


def _distinct(values: list[str], same: Callable[[str, str], bool]) -> list[str]:
    distinct: list[str] = []
    for value in values:
        if not any(same(value, seen) for seen in distinct):
            distinct.append(value)
            if len(distinct) > 5:
                break  # enough to call it hedging; keeps many boxed values linear
    return distinct


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
