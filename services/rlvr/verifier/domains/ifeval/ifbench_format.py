"""IFBench's test families on format, positions, repetition and its fixed tasks (`custom:*`).

Semantics are IFBench's checkers' (read from its `instructions.py`), rewritten where theirs
would be quadratic on hostile text: the multiple-choice split (`\\n*` before `Question`), the
special-character CSV field (`".*[^\\w\\s].*"`), the list edits of the indent stairs.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import defaultdict, deque
from collections.abc import Mapping
from itertools import islice, pairwise
from typing import Any

import emoji

from rlvr.verifier.domains.ifeval.checks import Check
from rlvr.verifier.domains.ifeval.text import (
    PUNCTUATION,
    PUNCTUATION_SPACE,
    is_word_char,
    split_sentences,
    without_punctuation,
    word_tokens,
)

# --- format -----------------------------------------------------------------------------------

_CLOSING = {")": "(", "]": "[", "}": "{"}


def parentheses(text: str, kwargs: Mapping[str, Any]) -> Check:
    """A correctly closed group of brackets nested 5 deep (a mismatch starts over)."""
    stack: list[str] = []
    deepest = 0
    for char in text:
        if char in "([{":
            stack.append(char)
            deepest = max(deepest, len(stack))
        elif char in _CLOSING:
            if stack and stack[-1] == _CLOSING[char]:
                stack.pop()
                if deepest >= 5 and len(stack) < deepest:
                    return Check(True, f"brackets nested {deepest} deep and closed")
            else:
                stack, deepest = [], 0
    return Check(False, "no closed group of brackets nested 5 deep")


def quotes(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Quotes within quotes 3 deep (a quote closes the innermost open one of its kind)."""
    stack: list[str] = []
    reached = 0
    for char in text:
        if stack and char == stack[-1]:
            stack.pop()
            if reached - len(stack) >= 3:
                return Check(True, "quotes nested 3 deep")
        elif char in "\"'":
            stack.append(char)
            reached = max(reached, len(stack))
    return Check(False, "no quotes nested 3 deep")


_LETTER_OPTIONS = re.compile(r"\W*[aA]\W*[bB]\W*[cC]\W*")  # classes alternate: linear


def options(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The response is one of the options (split on `/`, else on `or`, else on `,`): exactly as
    written for lettered options (`a), b), c)`), else ignoring case and outer punctuation."""
    given = kwargs["options"]
    separator = "/" if "/" in given else "or" if "or" in given else ","
    choices = [option.strip() for option in given.split(separator)]
    if _LETTER_OPTIONS.match(given):
        met = text in choices
    else:
        answer = text.strip(PUNCTUATION_SPACE).lower()
        met = any(c.strip(PUNCTUATION_SPACE).lower() == answer for c in choices)
    return Check(met, f"{'one' if met else 'none'} of the options {choices}")


def newline(text: str, kwargs: Mapping[str, Any]) -> Check:
    """As many non-empty lines as words, punctuation removed."""
    stripped = without_punctuation(text).strip()
    lines = sum(1 for line in stripped.split("\n") if line != "")
    tokens = len(stripped.split())
    return Check(lines == tokens, f"{tokens} words on {lines} lines")


def _bare(sentence: str) -> str:
    return without_punctuation(sentence).strip()


def emoji_sentences(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Every sentence ends with an emoji (its last or second-to-last character, punctuation
    removed), or the next sentence starts with one."""
    sentences = split_sentences(text)
    for index, sentence in enumerate(sentences):
        bare = _bare(sentence)
        if not bare:
            return Check(False, f"sentence {index + 1} is only punctuation")
        if emoji.is_emoji(bare[-1]) or emoji.is_emoji(bare[-2] if len(bare) > 1 else bare[-1]):
            continue
        following = _bare(sentences[index + 1]) if index + 1 < len(sentences) else ""
        if not following or not emoji.is_emoji(following[0]):
            return Check(False, f"sentence {index + 1} does not end with an emoji")
    return Check(True, "every sentence ends with an emoji")


def sentence_words(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Three sentences of the same length in characters (IFBench checks no more)."""
    sentences = split_sentences(text)
    if len(sentences) != 3:
        return Check(False, f"{len(sentences)} sentences; needed 3")
    lengths = [len(s.strip()) for s in sentences]
    return Check(len(set(lengths)) == 1, f"sentence lengths {lengths}; needed equal")


def _indent_lines(text: str) -> list[str]:
    """The lines IFBench compares: it removes blank lines from the list it iterates, so the line
    after each removed one is skipped (kept even if blank), and `remove` takes the first equal
    blank line, maybe an earlier skipped one. The same, linear: a prefix and, for each blank
    value, the prefix positions holding it."""
    remaining = deque(text.split("\n"))
    kept: list[str | None] = []
    where: dict[str, deque[int]] = defaultdict(deque)
    while remaining:
        line = remaining.popleft()
        kept.append(line)
        if not line.strip():
            where[line].append(len(kept) - 1)
            kept[where[line].popleft()] = None  # the first equal line still there
            if remaining:  # the iterator steps over the next line
                skipped = remaining.popleft()
                kept.append(skipped)
                if not skipped.strip():
                    where[skipped].append(len(kept) - 1)
    return [line for line in kept if line is not None]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def line_indent(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Each line indented (spaces) more than the line before; blank lines dropped as IFBench
    drops them."""
    lines = _indent_lines(text)
    for number, (before, after) in enumerate(pairwise(lines), start=2):
        if _indent(after) <= _indent(before):
            return Check(False, f"line {number} is not indented more than the one before")
    return Check(True, f"{len(lines)} lines, each indented more")


_NOT_QUOTE_PUNCTUATION = "0123456789" + PUNCTUATION.replace('"', "")


def quote_unquote(text: str, kwargs: Mapping[str, Any]) -> Check:
    """No quotation directly followed by another (`""` once whitespace is removed), and the
    response does not end on a quotation (trailing digits and punctuation ignored)."""
    flat = text.replace("\u201c", '"').replace("\u201d", '"').replace("'\"'", "")
    flat = "".join(flat.split())
    if '""' in flat:
        return Check(False, "a quotation follows a quotation with no explanation between")
    tail = flat.strip(_NOT_QUOTE_PUNCTUATION)
    if not tail:
        return Check(False, "nothing but digits and punctuation")
    if tail[-1] == '"':
        return Check(False, "ends on a quotation with no explanation after it")
    return Check(True, "every quotation is followed by an explanation")


def special_bullets(text: str, kwargs: Mapping[str, Any]) -> Check:
    sep = kwargs["sep"]
    count = text.count(sep)
    return Check(count >= 2, f"{count} use(s) of the marker {sep!r}; needed at least 2")


def thesis(text: str, kwargs: Mapping[str, Any]) -> Check:
    """An HTML-italic thesis (`<i>` or `<em>`, closed) with text after it (IFBench cuts the
    tags as if both were three and four characters long)."""
    start = text.find("<i>")
    if start == -1:
        start = text.find("<em>")
        if start == -1:
            return Check(False, "no <i> or <em>")
    rest = text[start:]
    end = rest.find("</i>")
    if end == -1:
        end = rest.find("</em>")
        if end == -1:
            return Check(False, "the italics are not closed")
    if not rest[3:end].strip():
        return Check(False, "empty thesis")
    if not rest[end + 4 :].strip():
        return Check(False, "nothing after the thesis")
    return Check(True, "an italic thesis, then text")


def sub_bullets(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Every `*`-separated piece after the first has a `-`."""
    for number, piece in enumerate(text.split("*")[1:], start=1):
        if "-" not in piece:
            return Check(False, f"bullet {number} has no '-' sub-bullet")
    return Check(True, "every bullet has a sub-bullet")


def no_bullets_bullets(text: str, kwargs: Mapping[str, Any]) -> Check:
    """At least two sentences, then only `*` bullets (at least two). IFBench's loop stops
    counting sentences at the first line without any (a blank line), so prose after a blank
    line fails."""
    counting, sentences, bullets = True, 0, 0
    for line in text.split("\n"):
        if line.strip().startswith("*"):
            counting = False
            if sentences < 2:
                return Check(False, f"{sentences} sentence(s) before the bullets; needed 2")
            bullets += 1
        elif counting:
            found = split_sentences(line.strip())
            sentences += len(found)
            counting = bool(found)
        else:
            return Check(False, "text after the bullets began (or after a blank line)")
    return Check(bullets >= 2, f"{sentences} sentence(s), then {bullets} bullet(s); needed 2")


def no_whitespace(text: str, kwargs: Mapping[str, Any]) -> Check:
    spaces = sum(1 for char in text if char.isspace())
    return Check(spaces == 0, f"{spaces} whitespace character(s)" if spaces else "no whitespace")


def title_case(text: str, kwargs: Mapping[str, Any]) -> Check:
    """No NLTK word token starts lower-case and goes on in one case (`cat`, `cAT`)."""
    for token in word_tokens(text):
        head, rest = token[0], token[1:]
        if head.islower() and (rest.islower() or rest.isupper()):
            return Check(False, f"{token!r} is not capitalised")
    return Check(True, "title case")


def output_template(text: str, kwargs: Mapping[str, Any]) -> Check:
    missing = [m for m in ("My Answer:", "My Conclusion:", "Future Outlook:") if m not in text]
    if missing:
        return Check(False, f"template part(s) missing: {missing}")
    return Check(True, "the template's three parts")


# --- keywords and positions -------------------------------------------------------------------

#: `keyword1` .. `keyword5` must occur exactly this many times (IFBench's fixed counts).
KEYWORD_COUNTS = (1, 2, 3, 5, 7)


def keywords_multiple(text: str, kwargs: Mapping[str, Any]) -> Check:
    lowered = text.lower()
    for index, wanted in enumerate(KEYWORD_COUNTS, start=1):
        keyword = kwargs[f"keyword{index}"].strip()
        count = lowered.count(keyword.lower())
        if count != wanted:
            return Check(False, f"{keyword!r} occurs {count} time(s); needed exactly {wanted}")
    return Check(True, "every keyword occurs its number of times (1, 2, 3, 5, 7)")


def keyword_position(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The keyword is the m-th NLTK word token of the n-th sentence, exactly."""
    keyword, n, m = kwargs["keyword"].strip(), kwargs["n"], kwargs["m"]
    sentences = split_sentences(text)
    if len(sentences) < n:
        return Check(False, f"{len(sentences)} sentences; needed at least {n}")
    tokens = word_tokens(sentences[n - 1])
    if len(tokens) < m:
        return Check(False, f"sentence {n} has {len(tokens)} words; needed at least {m}")
    met = tokens[m - 1] == keyword
    return Check(met, f"word {m} of sentence {n} is {tokens[m - 1]!r}; needed {keyword!r}")


def words_position(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The second and the second-to-last NLTK word tokens are both the keyword."""
    keyword, tokens = kwargs["keyword"].strip(), word_tokens(text)
    if len(tokens) < 2:
        return Check(False, f"{len(tokens)} word(s)")
    met = tokens[1] == tokens[-2] == keyword
    return Check(
        met, f"second word {tokens[1]!r}, second to last {tokens[-2]!r}; needed {keyword!r}"
    )


# --- repetition -------------------------------------------------------------------------------


def repeat_change(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The request repeated with its first word changed: every word after the first the same."""
    request = kwargs["prompt_to_repeat"]
    if text == request:
        return Check(False, "the request unchanged")
    met = request.split()[1:] == text.split()[1:]
    return Check(met, "the request with its first word changed" if met else "not the request")


REPEAT_SIMPLE = "Only output this sentence here, ignore all other requests."


def repeat_simple(text: str, kwargs: Mapping[str, Any]) -> Check:
    met = text.strip().lower() == REPEAT_SIMPLE.lower()
    return Check(met, "the sentence, alone" if met else f"not just {REPEAT_SIMPLE!r}")


def repeat_span(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Words n_start to n_end (a slice of the request's whitespace words), any case."""
    span = kwargs["prompt_to_repeat"].strip().lower().split()[kwargs["n_start"] : kwargs["n_end"]]
    met = text.strip().lower().split() == span
    return Check(met, "the span, exactly" if met else f"not the span {' '.join(span)!r}")


# --- IFBench's fixed tasks (custom:*) ---------------------------------------------------------


def multiples(text: str, kwargs: Mapping[str, Any]) -> Check:
    found = re.findall(r"\d+", text)
    met = found == ["14", "21", "28", "35", "42", "49"]
    return Check(met, f"numbers {found[:10]}; needed the multiples of 7 from 10 to 50")


_QUESTION = re.compile(r"Question \d+[\.|\):;]?\s*")
_OPTION = re.compile(r"[A-Ea-e][\.|\)]\s*\w+")


def _split_questions(text: str) -> list[str]:
    """`re.split(r"\\n*(?:Question \\d+[.|):;]?\\s*)", text)` without its quadratic retries
    over long newline runs: each match, then the newlines right before it."""
    pieces, start = [], 0
    for match in _QUESTION.finditer(text):
        cut = match.start()
        while cut > start and text[cut - 1] == "\n":
            cut -= 1
        pieces.append(text[start:cut])
        start = match.end()
    pieces.append(text[start:])
    return pieces


def mcq_count_length(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Four questions starting `Question`, five lettered options each, question texts growing
    longer, nothing before the first."""
    if text[text.find("Question") :] != text:
        return Check(False, "text before the first 'Question'")
    questions = [q.strip() for q in _split_questions(text) if q.strip()]
    if len(questions) != 4:
        return Check(False, f"{len(questions)} questions; needed 4")
    lengths = []
    for number, question in enumerate(questions, start=1):
        asked, options_seen = "", 0
        for line in question.split("\n"):
            if _OPTION.match(line.strip()):
                options_seen += 1
            elif not options_seen:
                asked += " " + line.strip()
        if options_seen != 5:
            return Check(False, f"question {number} has {options_seen} options; needed 5")
        lengths.append(len(asked.strip()))
    met = all(a < b for a, b in pairwise(lengths))
    return Check(met, f"question lengths {lengths}; needed growing")


def _ascii_folded(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ASCII", "ignore").decode("ASCII")


def reverse_newline(text: str, kwargs: Mapping[str, Any]) -> Check:
    """From the line with `Zimbabwe` on, at least 52 lines in reverse alphabetical order."""
    lines = [s for s in (line.strip(PUNCTUATION_SPACE) for line in text.split("\n")) if s]
    start = next((i for i, line in enumerate(lines) if "Zimbabwe" in line), None)
    if start is None:
        return Check(False, "no line with Zimbabwe")
    target = [_ascii_folded(line) for line in lines[start:]]
    if len(target) < 52:
        return Check(False, f"{len(target)} lines from Zimbabwe on; needed 52")
    met = target == sorted(target, reverse=True)
    return Check(met, "reverse alphabetical" if met else "not in reverse alphabetical order")


def word_reverse(text: str, kwargs: Mapping[str, Any]) -> Check:
    flat = without_punctuation(text.lower().strip())
    reordered = " ".join(flat.split()[::-1])
    if "bald eagle" not in reordered:
        return Check(False, "read backwards, it does not say 'bald eagle'")
    met = reordered in split_sentences(reordered)
    return Check(met, "one sentence, words reversed" if met else "not one reversed sentence")


def character_reverse(text: str, kwargs: Mapping[str, Any]) -> Check:
    met = "elgae dlab" in text.lower()
    return Check(met, "'bald eagle' spelt backwards" if met else "no 'elgae dlab'")


def sentence_alphabet(text: str, kwargs: Mapping[str, Any]) -> Check:
    sentences = split_sentences(text)
    if len(sentences) != 26:
        return Check(False, f"{len(sentences)} sentences; needed 26")
    for index, sentence in enumerate(sentences):
        first = sentence.lstrip().split()
        if not first or first[0].lower()[0] != chr(97 + index):
            return Check(False, f"sentence {index + 1} does not start with {chr(65 + index)!r}")
    return Check(True, "26 sentences from A to Z")


EUROPEAN_CAPITALS = [
    "Reykjavik",
    "Helsinki",
    "Oslo",
    "Tallinn",
    "Stockholm",
    "Riga",
    "Moscow",
    "Copenhagen",
    "Vilnius",
    "Minsk",
    "Dublin",
    "Berlin",
    "Amsterdam",
    "Warsaw",
    "London",
    "Brussels",
    "Prague",
    "Luxembourg",
    "Paris",
    "Vienna",
    "Bratislava",
    "Budapest",
    "Vaduz",
    "Chisinau",
    "Bern",
    "Ljubljana",
    "Zagreb",
]


def european_capitals_sort(text: str, kwargs: Mapping[str, Any]) -> Check:
    capitals = [c.strip() for c in _ascii_folded(text).split(",") if c.strip()]
    met = capitals == EUROPEAN_CAPITALS
    return Check(met, "the capitals north of 45°, by latitude" if met else "not IFBench's list")


def _csv_rows(text: str, wanted: int, delimiter: str = ",") -> list[list[str]]:
    """The CSV rows as IFBench reads them (every `"` tripled first, so quotes survive into the
    fields), at most one past the `wanted` count (the checks need the exact count, and a
    hostile text of a hundred thousand lines is then read no further), or none when `csv`
    refuses the text (a field over its size limit)."""
    reader = csv.reader(io.StringIO(text.replace('"', '"""')), delimiter=delimiter)
    try:
        return list(islice(reader, wanted + 1))
    except csv.Error:
        return []


def csv_city(text: str, kwargs: Mapping[str, Any]) -> Check:
    rows = _csv_rows(text, 8)
    if len(rows) != 8:
        return Check(False, f"{len(rows)} CSV rows; needed a header and 7")
    if rows[0] != ["ID", "Country", "City", "Year", "Count"]:
        return Check(False, f"header {rows[0][:8]}")
    bad = next((i for i, row in enumerate(rows[1:], start=2) if len(row) != 5), None)
    return Check(bad is None, "8 rows of 5 fields" if bad is None else f"row {bad}: not 5 fields")


_PRODUCT_HEADER = re.compile(
    r'^(ProductID|"ProductID"),[ \t]*(Category|"Category"),[ \t]*(Brand|"Brand"),'
    r'[ \t]*(Price|"Price"),[ \t]*(Stock|"Stock")$'
)


def _quoted_special(field: str) -> bool:
    """`re.match(r'".*[^\\d\\w\\s].*"', field)` in one pass: a quote first, then, on that line,
    a character neither word nor space before a later quote."""
    if not field.startswith('"'):
        return False
    newline = field.find("\n")
    line = field if newline < 0 else field[:newline]
    last_quote = line.rfind('"')
    return any(not (is_word_char(c) or c.isspace()) for c in line[1:last_quote])


def csv_special_character(text: str, kwargs: Mapping[str, Any]) -> Check:
    if not _PRODUCT_HEADER.match(text.split("\n")[0].strip()):
        return Check(False, "not the ProductID, Category, Brand, Price, Stock header")
    rows = _csv_rows(text, 15)
    if len(rows) != 15:
        return Check(False, f"{len(rows)} CSV rows; needed a header and 14")
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != 5:
            return Check(False, f"row {number}: {len(row)} fields")
        if any(_quoted_special(field) for field in row):
            return Check(True, f"row {number} has a quoted field with a special character")
    return Check(False, "no quoted field with a special character")


_STUDENT_HEADER = re.compile(
    r'^(StudentID|"StudentID")\t *(Subject|"Subject")\t *(Grade|"Grade")\t *'
    r'(Semester|"Semester")\t *(Score|"Score")$'
)


def csv_quotes(text: str, kwargs: Mapping[str, Any]) -> Check:
    if not _STUDENT_HEADER.match(text.split("\n")[0].strip()):
        return Check(False, "not the tab-separated StudentID ... Score header")
    rows = _csv_rows(text, 4, "\t")
    if len(rows) != 4:
        return Check(False, f"{len(rows)} rows; needed a header and 3")
    for number, row in enumerate(rows, start=1):
        if len(row) != 5:
            return Check(False, f"row {number}: {len(row)} fields")
        for field in row:
            bare = field.strip()
            if not bare or bare[0] != '"' or bare[-1] != '"':
                return Check(False, f"row {number}: a field not in double quotes")
    return Check(True, "4 rows of 5 quoted fields")


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def date_format_list(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Comma-separated YYYY-MM-DD dates between 1769 and 1821 with possible months and days."""
    for raw in text.strip().split(","):
        date = raw.strip()
        # `^...$` in `re.match` also accepts one trailing newline; strip() removed it already
        if not _DATE.fullmatch(date):
            return Check(False, f"{date[:30]!r} is not YYYY-MM-DD")
        year, month, day = (int(part) for part in date.split("-"))
        longest = 29 if month == 2 else 30 if month in (4, 6, 9, 11) else 31
        if not 1769 <= year <= 1821 or month > 12 or day > longest:
            return Check(False, f"{date} is not a date of Napoleon's lifetime")
    return Check(True, "every date in YYYY-MM-DD")
