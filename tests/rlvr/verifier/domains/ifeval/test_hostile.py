"""Every checker stays linear on hostile text: inputs that make IFEval's own patterns backtrack
quadratically (`[[[[…`, blank lines before `*`, `<<<<…`, long whitespace before `p.s`) finish
fast here, at 200,000 characters, and twice the text takes about twice the time."""

from __future__ import annotations

import time

import pytest

from rlvr.schemas.ifeval import normalize_kwargs
from rlvr.verifier.domains.ifeval.registry import CHECKERS

N = 200_000
HOSTILE = {
    "brackets": "[" * N,
    "blank_lines": "\n" * N,
    "spaces_then_star": " \n" * (N // 2) + "*",
    "angles": "<<" * (N // 2),
    "whitespace": " " * N + "p",
    "stars": "*" * N,
    "star_lines": "*\n" * (N // 2),
    "dashes": "-" * N,
    "digits_after_section": "SECTION " + "1" * N,
    "quotes": '"' * N,
    "json_nesting": "[" * N,
    "commas": "," * N,
    "words": "word " * (N // 5),
}
# Punkt and langdetect are linear but slower per character: their own size.
SLOW_IDS = {
    "length_constraints:number_sentences",
    "change_case:capital_word_frequency",
    "language:response_language",
}
KWARGS = {
    "keywords:existence": {"keywords": ["aaab"]},
    "keywords:frequency": {"keyword": "aa", "frequency": 2, "relation": "at least"},
    "keywords:forbidden_words": {"forbidden_words": ["word"]},
    "keywords:letter_frequency": {"letter": "a", "let_frequency": 2, "let_relation": "at least"},
    "language:response_language": {"language": "en"},
    "length_constraints:number_sentences": {"num_sentences": 2, "relation": "at least"},
    "length_constraints:number_paragraphs": {"num_paragraphs": 2},
    "length_constraints:number_words": {"num_words": 2, "relation": "at least"},
    "length_constraints:nth_paragraph_first_word": {
        "num_paragraphs": 2,
        "nth_paragraph": 1,
        "first_word": "a",
    },
    "detectable_content:number_placeholders": {"num_placeholders": 2},
    "detectable_content:postscript": {"postscript_marker": "P.S."},
    "detectable_format:number_bullet_lists": {"num_bullets": 2},
    "detectable_format:constrained_response": {},
    "detectable_format:number_highlighted_sections": {"num_highlights": 2},
    "detectable_format:multiple_sections": {"section_spliter": "SECTION", "num_sections": 2},
    "detectable_format:json_format": {},
    "detectable_format:title": {},
    "combination:two_responses": {},
    "combination:repeat_prompt": {"prompt_to_repeat": "a" * 1000 + "b"},
    "startend:end_checker": {"end_phrase": "bye"},
    "startend:quotation": {},
    "change_case:capital_word_frequency": {"capital_frequency": 2, "capital_relation": "less than"},
    "change_case:english_capital": {},
    "change_case:english_lowercase": {},
    "punctuation:no_comma": {},
    "count:word_count_range": {"min_words": 1, "max_words": 10},
    "count:unique_word_count": {"N": 3},
    "count:numbers": {"N": 2},
    "format:no_whitespace": {},
    "count:keywords_multiple": {f"keyword{i}": "ab" for i in range(1, 6)},
    "words:palindrome": {},
    "count:punctuation": {},
}


def test_every_instruction_is_probed() -> None:
    from rlvr.verifier.domains.ifeval.registry import CHECKERS as ALL

    assert set(KWARGS) == set(ALL)


def _seconds(instruction_id: str, text: str) -> float:
    kwargs = normalize_kwargs(instruction_id, KWARGS[instruction_id])
    started = time.perf_counter()
    CHECKERS[instruction_id](text, kwargs)
    return time.perf_counter() - started


@pytest.mark.parametrize("instruction_id", sorted(KWARGS))
def test_every_checker_is_fast_on_every_hostile_text(instruction_id: str) -> None:
    # generous: the machine is shared; the linear scaling is checked by the test below
    budget_s = 8.0 if instruction_id in SLOW_IDS else 2.0
    worst = max((_seconds(instruction_id, text), name) for name, text in HOSTILE.items())
    assert worst[0] < budget_s, worst


@pytest.mark.parametrize(
    ("instruction_id", "name"),
    [
        ("detectable_content:number_placeholders", "brackets"),
        ("detectable_format:number_bullet_lists", "spaces_then_star"),
        ("detectable_format:number_bullet_lists", "blank_lines"),
        ("detectable_format:title", "angles"),
        ("detectable_content:postscript", "whitespace"),
    ],
)
def test_the_inputs_that_are_quadratic_for_ifeval_scale_linearly(
    instruction_id: str, name: str
) -> None:
    text = HOSTILE[name]
    small = min(_seconds(instruction_id, text[: N // 4]) for _ in range(3))
    large = min(_seconds(instruction_id, text) for _ in range(3))
    # 4x the text: linear is ~4x, quadratic would be ~16x (slack for timer noise on tiny runs)
    assert large < max(8 * small, 0.02), (small, large)
