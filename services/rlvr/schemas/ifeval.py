"""Wire models of `POST /ifeval`: a response, its instruction-following constraints, verdicts.

A constraint is named by the id IFEval (and the datasets built on it) use, with that
instruction's keyword arguments. The ids and argument names/types are data here
(`INSTRUCTION_KWARGS`), so a typo is a 422 naming the item and the constraint, on the client
as on the server, before any work is done.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from rlvr.schemas.common import ItemResult, WireModel

#: Argument kinds: `int` (>= 0), `pos_int` (>= 1), `text` (non-empty string), `texts` (a list
#: of non-empty strings), `relation` ("less than" | "at least"), `letter` (one ASCII letter),
#: `language` (a code langdetect can return), `word` (a non-empty string, or a list whose first
#: string is taken, as IFEvalG does for `first_word`, `last_word` and `keyword`).
KwargKind = Literal["int", "pos_int", "text", "texts", "relation", "letter", "language", "word"]

RELATIONS = ("less than", "at least")

#: The codes langdetect 1.0.9 returns (its profiles). IFEval's own data uses a subset; `zh`
#: alone is not one (langdetect says `zh-cn` or `zh-tw`), so it could never be met.
_LANGDETECT_CODES = (
    "af ar bg bn ca cs cy da de el en es et fa fi fr gu he hi hr hu id it ja kn ko lt lv mk ml "
    "mr ne nl no pa pl pt ro ru sk sl so sq sv sw ta te th tl tr uk ur vi zh-cn zh-tw"
)
LANGUAGES = frozenset(_LANGDETECT_CODES.split())

INSTRUCTION_KWARGS: Mapping[str, Mapping[str, KwargKind]] = {
    # keywords
    "keywords:existence": {"keywords": "texts"},
    "keywords:frequency": {"keyword": "text", "frequency": "int", "relation": "relation"},
    "keywords:forbidden_words": {"forbidden_words": "texts"},
    "keywords:letter_frequency": {
        "letter": "letter",
        "let_frequency": "int",
        "let_relation": "relation",
    },
    # language
    "language:response_language": {"language": "language"},
    # length
    "length_constraints:number_sentences": {"num_sentences": "int", "relation": "relation"},
    "length_constraints:number_paragraphs": {"num_paragraphs": "int"},
    "length_constraints:number_words": {"num_words": "int", "relation": "relation"},
    "length_constraints:nth_paragraph_first_word": {
        "num_paragraphs": "int",
        "nth_paragraph": "pos_int",
        "first_word": "text",
    },
    # detectable content
    "detectable_content:number_placeholders": {"num_placeholders": "int"},
    "detectable_content:postscript": {"postscript_marker": "text"},
    # detectable format
    "detectable_format:number_bullet_lists": {"num_bullets": "int"},
    "detectable_format:constrained_response": {},
    "detectable_format:number_highlighted_sections": {"num_highlights": "int"},
    "detectable_format:multiple_sections": {"section_spliter": "text", "num_sections": "int"},
    "detectable_format:json_format": {},
    "detectable_format:title": {},
    # combination
    "combination:two_responses": {},
    "combination:repeat_prompt": {"prompt_to_repeat": "text"},
    # start / end
    "startend:end_checker": {"end_phrase": "text"},
    "startend:quotation": {},
    # case
    "change_case:capital_word_frequency": {
        "capital_frequency": "int",
        "capital_relation": "relation",
    },
    "change_case:english_capital": {},
    "change_case:english_lowercase": {},
    # punctuation
    "punctuation:no_comma": {},
    # IFBench's test families (IFBench_test's ids and kwargs)
    "count:word_count_range": {"min_words": "int", "max_words": "int"},
    "count:unique_word_count": {"N": "int"},
    "ratio:stop_words": {"percentage": "int"},
    "ratio:sentence_type": {},
    "ratio:sentence_balance": {},
    "count:conjunctions": {"small_n": "int"},
    "count:person_names": {"N": "int"},
    "ratio:overlap": {"reference_text": "text", "percentage": "int"},
    "count:numbers": {"N": "int"},
    "words:alphabet": {},
    "words:vowel": {},
    "words:consonants": {},
    "sentence:alliteration_increment": {},
    "words:palindrome": {},
    "count:punctuation": {},
    "format:parentheses": {},
    "format:quotes": {},
    "words:prime_lengths": {},
    "format:options": {"options": "text"},
    "format:newline": {},
    "format:emoji": {},
    "ratio:sentence_words": {},
    "count:words_japanese": {"N": "pos_int"},
    "words:repeats": {"small_n": "int"},
    "words:start_verb": {},
    "sentence:keyword": {"word": "text", "N": "pos_int"},
    "count:pronouns": {"N": "int"},
    "words:odd_even_syllables": {},
    "words:last_first": {},
    "words:paragraph_last_first": {},
    "sentence:increment": {"small_n": "int"},
    "words:no_consecutive": {},
    "format:line_indent": {},
    "format:quote_unquote": {},
    "format:list": {"sep": "text"},
    "format:thesis": {},
    "format:sub-bullets": {},
    "format:no_bullets_bullets": {},
    "custom:multiples": {},
    "custom:mcq_count_length": {},
    "custom:reverse_newline": {},
    "custom:word_reverse": {},
    "custom:character_reverse": {},
    "custom:sentence_alphabet": {},
    "custom:european_capitals_sort": {},
    "custom:csv_city": {},
    "custom:csv_special_character": {},
    "custom:csv_quotes": {},
    "custom:date_format_list": {},
    "count:keywords_multiple": {f"keyword{i}": "text" for i in range(1, 6)},
    "words:keywords_specific_position": {"keyword": "text", "n": "pos_int", "m": "pos_int"},
    "words:words_position": {"keyword": "text"},
    "repeat:repeat_change": {"prompt_to_repeat": "text"},
    "repeat:repeat_simple": {},
    "repeat:repeat_span": {"prompt_to_repeat": "text", "n_start": "int", "n_end": "int"},
    "format:title_case": {},
    "format:output_template": {},
    "format:no_whitespace": {},
    # open-instruct's IFEvalG additions (IFBench's 29 training families)
    "copy:repeat_phrase": {"phrase": "text", "small_n": "pos_int"},
    "copy:copy": {"prompt_to_repeat": "text"},
    "new:copy_span_idx": {"prompt_to_repeat": "text", "n_start": "int", "n_end": "int"},
    "detectable_format:sentence_hyphens": {},
    "keywords:no_adjacent_consecutive": {},
    "detectable_format:square_brackets": {},
    "keywords:word_once": {"keyword": "text"},
    "keywords:word_count_different_numbers": {
        "keyword": "text",
        "frequency": "int",
        "relation": "relation",
    },
    "keywords:exclude_word_harder": {"keyword": "text"},
    "paragraphs:paragraphs": {},
    "paragraphs:paragraphs2": {},
    "first_word:first_word_sent": {"first_word": "word"},
    "first_word:first_word_answer": {"first_word": "text"},
    "last_word:last_word_sent": {"last_word": "word"},
    "last_word:last_word_answer": {"last_word": "text"},
    "detectable_format:bigram_wrapping": {},
    "copy:copying_simple": {"prompt_to_repeat": "text"},
    "copy:copying_multiple": {"prompt_to_repeat": "text", "N": "pos_int"},
    "punctuation:punctuation_dot": {},
    "punctuation:punctuation_exclamation": {},
    "count:lowercase_counting": {"N": "int"},
    "letters:letter_counting": {"N": "int", "relation": "relation"},
    "letters:letter_counting2": {
        "letter": "letter",
        "let_frequency": "int",
        "let_relation": "relation",
    },
    "count:counting_composition": {"n_sent": "pos_int", "n_words": "pos_int"},
    "count:count_unique": {},
    "count:count_increment_word": {"keyword1": "text", "keyword2": "text"},
    "keywords:palindrome": {},
    "keywords:keyword_specific_position": {"keyword": "word", "n": "pos_int", "m": "pos_int"},
    "keywords:start_end": {},
}

#: Families whose answer is text given in the prompt or the kwargs (a copy, or one of the
#: offered options): a response made of those words is what they ask for, so the "only repeats
#: the prompt" refusal is off for an item holding one (their checks compare exactly).
COPY_FAMILIES = frozenset(
    {
        "format:options",
        "repeat:repeat_change",
        "repeat:repeat_simple",
        "repeat:repeat_span",
        "copy:repeat_phrase",
        "copy:copy",
        "copy:copying_simple",
        "copy:copying_multiple",
        "new:copy_span_idx",
    }
)

#: Longest keyword-like argument: matching stays linear in the response with a bounded needle.
MAX_KWARG_CHARS = 10_000


def _check_value(name: str, kind: KwargKind, value: Any) -> Any:
    if kind in ("int", "pos_int"):
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # datasets stored through pandas turn ints into floats
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{name} must be an integer, got {type(value).__name__}")
        if value < (1 if kind == "pos_int" else 0):
            raise ValueError(f"{name} must be >= {1 if kind == 'pos_int' else 0}, got {value}")
        return value
    if kind == "relation":
        if value not in RELATIONS:
            raise ValueError(f"{name} must be 'less than' or 'at least', got {value!r}")
        return value
    if kind == "letter":
        if not (isinstance(value, str) and len(value) == 1 and value.isascii() and value.isalpha()):
            raise ValueError(f"{name} must be one ASCII letter, got {value!r}")
        return value
    if kind == "language":
        if value not in LANGUAGES:
            raise ValueError(f"{name} must be a language code langdetect knows, got {value!r}")
        return value
    if kind == "word":
        if isinstance(value, list | tuple):
            if not value:
                raise ValueError(f"{name} must be a string or a non-empty list of strings")
            value = value[0]
        return _check_value(name, "text", value).strip()
    if kind == "texts":
        if isinstance(value, str) or not isinstance(value, list | tuple) or not value:
            raise ValueError(f"{name} must be a non-empty list of strings")
        return [_check_value(f"{name}[{i}]", "text", v) for i, v in enumerate(value)]
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string")
    if len(value) > MAX_KWARG_CHARS:
        raise ValueError(f"{name} has {len(value)} characters; at most {MAX_KWARG_CHARS}")
    return value


def normalize_kwargs(instruction_id: str, kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The instruction's arguments checked and normalised, or ValueError saying which and why.

    `None` values are dropped first: IFEval's published data gives every instruction every
    argument name, unused ones as null.
    """
    spec = INSTRUCTION_KWARGS.get(instruction_id)
    if spec is None:
        close = difflib.get_close_matches(instruction_id, INSTRUCTION_KWARGS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown instruction id {instruction_id!r}{hint}")
    if not spec and not kwargs:
        return {}  # most instructions take no arguments: nothing to check
    given = {k: v for k, v in kwargs.items() if v is not None}
    if given.keys() != spec.keys():  # one comparison in the usual case, the sets on a mistake
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise ValueError(
                f"{instruction_id} takes {sorted(spec) or 'no arguments'}; unknown: {unknown}"
            )
        raise ValueError(f"{instruction_id} needs {sorted(set(spec) - set(given))}")
    normalized = {name: _check_value(name, kind, given[name]) for name, kind in spec.items()}
    if (
        instruction_id == "count:word_count_range"
        and normalized["min_words"] > normalized["max_words"]
    ):
        raise ValueError(
            f"min_words ({normalized['min_words']}) must be at most max_words "
            f"({normalized['max_words']})"
        )
    # IFEval replaces an nth_paragraph past num_paragraphs by a random one
    if (
        instruction_id == "length_constraints:nth_paragraph_first_word"
        and normalized["nth_paragraph"] > normalized["num_paragraphs"]
    ):
        raise ValueError(
            f"nth_paragraph ({normalized['nth_paragraph']}) must be at most num_paragraphs "
            f"({normalized['num_paragraphs']})"
        )
    return normalized


class Constraint(WireModel):
    id: str = Field(description="IFEval instruction id, e.g. `keywords:existence`.")
    kwargs: dict[str, Any] = Field(
        default_factory=dict,
        description="That instruction's arguments, as IFEval names them (null ones ignored).",
    )

    @model_validator(mode="after")
    def _known_and_well_formed(self) -> Constraint:
        self.kwargs = normalize_kwargs(self.id, self.kwargs)
        return self


class IfevalItem(WireModel):
    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    response: str = Field(description="The model's output, judged as a whole.")
    constraints: list[Constraint] = Field(
        min_length=1, max_length=64, description="What the response must satisfy."
    )
    prompt: str | None = Field(
        None,
        description=(
            "The prompt, when known: a response that only repeats it (or the constraints' "
            "own words) is not an answer and earns nothing."
        ),
    )
    scoring: Literal["fraction", "all"] = Field(
        "fraction",
        description="`fraction`: reward = share of constraints met; `all`: 1 only if all are.",
    )
    mode: Literal["strict", "loose"] = Field(
        "strict",
        description=(
            "`loose`: a constraint is also met when it holds with the first and/or last line "
            "removed or with markdown `*` removed (IFEval's loose accuracy)."
        ),
    )
    timeout_s: float | None = Field(
        None,
        gt=0,
        description=(
            "Per-item deadline in seconds (default `VERIFIER_IFEVAL__DEFAULT_TIMEOUT_S`), "
            "capped by `VERIFIER_IFEVAL__MAX_TIMEOUT_S`."
        ),
    )


class IfevalRequest(WireModel):
    items: list[IfevalItem] = Field(
        min_length=1, description="The batch; results come back in order."
    )


class ConstraintResult(BaseModel):
    id: str = Field(description="The instruction id.")
    met: bool = Field(description="Whether the response satisfies it.")
    why: str = Field(description="What was counted or found, in words.")


class IfevalResult(ItemResult):
    constraints: list[ConstraintResult] = Field(
        default_factory=list,
        description="One entry per constraint, in order (empty when the item timed out early).",
    )


class IfevalResponse(BaseModel):
    results: list[IfevalResult]
