"""The labelled table: (instruction id, kwargs, response, strict verdict, loose verdict), labelled
by hand from IFEval's instruction text, with natural responses and the edge of every argument.

`REFERENCE_DIFFERS` lists the cases where IFEval's reference code gives another verdict, and
why (each one is a deliberate choice documented in docs/ifeval.md).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Case(NamedTuple):
    instruction_id: str
    kwargs: dict[str, Any]
    response: str
    strict: bool
    loose: bool | None = None  # None: same as strict


LESS, LEAST = "less than", "at least"
ESSAY = (
    "The river runs quietly past the old mill. Children play on its banks in summer. "
    "In winter, the water freezes and the village skates on it."
)

CASES: list[Case] = [
    # keywords:existence — case-insensitive, anywhere (also inside longer words)
    Case("keywords:existence", {"keywords": ["river", "mill"]}, ESSAY, True),
    Case("keywords:existence", {"keywords": ["River", "MILL"]}, ESSAY, True),
    Case("keywords:existence", {"keywords": ["river", "boat"]}, ESSAY, False),
    Case("keywords:existence", {"keywords": ["play"]}, "They were playing outside.", True),
    Case("keywords:existence", {"keywords": ["ice cream"]}, "I love ice  cream.", False),
    # keywords:frequency — non-overlapping occurrences, boundaries of the relation
    Case("keywords:frequency", {"keyword": "the", "frequency": 3, "relation": LEAST}, ESSAY, True),
    Case(
        "keywords:frequency", {"keyword": "water", "frequency": 1, "relation": LESS}, ESSAY, False
    ),
    Case("keywords:frequency", {"keyword": "water", "frequency": 2, "relation": LESS}, ESSAY, True),
    Case("keywords:frequency", {"keyword": "aa", "frequency": 2, "relation": LEAST}, "aaa", False),
    Case("keywords:frequency", {"keyword": "aa", "frequency": 2, "relation": LEAST}, "aaaa", True),
    Case(
        "keywords:frequency", {"keyword": " cat ", "frequency": 1, "relation": LEAST}, "Cats!", True
    ),
    Case("keywords:frequency", {"keyword": "dog", "frequency": 0, "relation": LEAST}, "none", True),
    # keywords:forbidden_words — whole words only, case-insensitive
    Case(
        "keywords:forbidden_words", {"forbidden_words": ["cat"]}, "Concatenate the strings.", True
    ),
    Case("keywords:forbidden_words", {"forbidden_words": ["cat"]}, "My Cat sleeps.", False),
    Case("keywords:forbidden_words", {"forbidden_words": ["cat", "dog"]}, "A dog's life.", False),
    Case("keywords:forbidden_words", {"forbidden_words": ["dog"]}, "hot_dog stand", True),
    Case("keywords:forbidden_words", {"forbidden_words": ["new york"]}, "In New York now.", False),
    # keywords:letter_frequency — letters counted case-insensitively
    Case(
        "keywords:letter_frequency",
        {"letter": "z", "let_frequency": 2, "let_relation": LEAST},
        "Zebras zigzag.",
        True,
    ),
    Case(
        "keywords:letter_frequency",
        {"letter": "Z", "let_frequency": 3, "let_relation": LESS},
        "Zebras zigzag.",
        False,
    ),
    Case(
        "keywords:letter_frequency",
        {"letter": "q", "let_frequency": 1, "let_relation": LESS},
        "No such letter here.",
        True,
    ),
    # language:response_language
    Case("language:response_language", {"language": "en"}, ESSAY, True),
    Case(
        "language:response_language",
        {"language": "fr"},
        "Le chat dort sur le canapé pendant que la pluie tombe doucement sur la ville.",
        True,
    ),
    Case("language:response_language", {"language": "de"}, ESSAY, False),
    Case(
        "language:response_language",
        {"language": "hi"},
        "आज मौसम बहुत अच्छा है और हम पार्क में घूमने जाएंगे।",
        True,
    ),
    Case("language:response_language", {"language": "hi"}, "12345 !!!", False),
    # length_constraints:number_sentences — Punkt: abbreviations do not end sentences
    Case(
        "length_constraints:number_sentences",
        {"num_sentences": 3, "relation": LEAST},
        ESSAY,
        True,
    ),
    Case(
        "length_constraints:number_sentences",
        {"num_sentences": 3, "relation": LESS},
        ESSAY,
        False,
    ),
    Case(
        "length_constraints:number_sentences",
        {"num_sentences": 2, "relation": LESS},
        "Mr. Smith met Dr. Jones at 5 p.m. yesterday.",
        True,
    ),
    Case(
        "length_constraints:number_sentences",
        {"num_sentences": 2, "relation": LEAST},
        "Wow! Really? Yes.",
        True,
    ),
    # length_constraints:number_words — \w+ runs; contractions are two words
    Case(
        "length_constraints:number_words",
        {"num_words": 5, "relation": LESS},
        "I don't know.",
        True,
    ),
    Case(
        "length_constraints:number_words",
        {"num_words": 4, "relation": LEAST},
        "I don't know.",
        True,
    ),
    Case(
        "length_constraints:number_words",
        {"num_words": 5, "relation": LEAST},
        "I don't know.",
        False,
    ),
    Case(
        "length_constraints:number_words",
        {"num_words": 26, "relation": LEAST},
        ESSAY,
        True,
    ),
    Case(
        "length_constraints:number_words",
        {"num_words": 27, "relation": LEAST},
        ESSAY,
        False,
    ),
    Case(
        "length_constraints:number_words",
        {"num_words": 3, "relation": LESS},
        "well-known e-mail",
        False,
    ),
    # length_constraints:number_paragraphs — *** dividers; empty parts only at the ends
    Case("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "One.\n***\nTwo.", True),
    Case("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "One.\n\nTwo.", False),
    Case(
        "length_constraints:number_paragraphs",
        {"num_paragraphs": 2},
        "***\nOne.\n***\nTwo.\n***",
        True,
    ),
    Case(
        "length_constraints:number_paragraphs", {"num_paragraphs": 2}, "One.\n***\n***\nTwo.", False
    ),
    Case("length_constraints:number_paragraphs", {"num_paragraphs": 1}, "Just one.", True),
    # length_constraints:nth_paragraph_first_word
    Case(
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "then"},
        "First part.\n\nThen, the second part.",
        True,
    ),
    Case(
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "then"},
        'First part.\n\n"Then" the second part.',
        True,
    ),
    Case(
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 1, "first_word": "then"},
        "First part.\n\nThen the second.",
        False,
    ),
    Case(
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "then"},
        "First part.\n\nThen the second.",
        False,
    ),
    Case(
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "summer"},
        "**Summer** is here.",
        False,
        True,  # loose: with * removed the first word is "summer"
    ),
    # detectable_content:number_placeholders
    Case(
        "detectable_content:number_placeholders",
        {"num_placeholders": 2},
        "Dear [name], see you at [place].",
        True,
    ),
    Case("detectable_content:number_placeholders", {"num_placeholders": 2}, "Dear [name].", False),
    Case(
        "detectable_content:number_placeholders",
        {"num_placeholders": 1},
        "an open [bracket\non two lines]",
        False,
    ),
    Case(
        "detectable_content:number_placeholders", {"num_placeholders": 1}, "empty [] counts", True
    ),
    Case("detectable_content:number_placeholders", {"num_placeholders": 2}, "[[nested]]", False),
    # detectable_content:postscript
    Case(
        "detectable_content:postscript",
        {"postscript_marker": "P.S."},
        "Main text.\n\nP.S. Bring snacks.",
        True,
    ),
    Case(
        "detectable_content:postscript",
        {"postscript_marker": "P.S."},
        "Main text.\np. s. later",
        True,
    ),
    Case(
        "detectable_content:postscript", {"postscript_marker": "P.S."}, "Main text. PS later", False
    ),
    Case(
        "detectable_content:postscript", {"postscript_marker": "P.P.S"}, "Text.\nP.P.S more", True
    ),
    Case(
        "detectable_content:postscript", {"postscript_marker": "P.P.S"}, "Text.\nP.S. more", False
    ),
    Case("detectable_content:postscript", {"postscript_marker": "Note:"}, "Text.\nNOTE: x", True),
    # detectable_format:number_bullet_lists — * or - at a line start
    Case("detectable_format:number_bullet_lists", {"num_bullets": 2}, "* one\n* two", True),
    Case("detectable_format:number_bullet_lists", {"num_bullets": 2}, "- one\n  - two\n", True),
    Case("detectable_format:number_bullet_lists", {"num_bullets": 3}, "* one\n* two", False),
    Case("detectable_format:number_bullet_lists", {"num_bullets": 1}, "**bold** line\n* one", True),
    Case(
        "detectable_format:number_bullet_lists", {"num_bullets": 2}, "Intro:\n* a\n- b\nEnd", True
    ),
    # detectable_format:constrained_response
    Case("detectable_format:constrained_response", {}, "My answer is yes.", True),
    Case("detectable_format:constrained_response", {}, "Well... My answer is maybe.", True),
    Case("detectable_format:constrained_response", {}, "My answer is Yes.", False),
    Case("detectable_format:constrained_response", {}, "My answer is yes", False),
    # detectable_format:number_highlighted_sections — *x* and **x** both count
    Case(
        "detectable_format:number_highlighted_sections",
        {"num_highlights": 2},
        "*first* and *second*",
        True,
    ),
    Case(
        "detectable_format:number_highlighted_sections",
        {"num_highlights": 1},
        "**bold** only",
        True,
    ),
    Case(
        "detectable_format:number_highlighted_sections",
        {"num_highlights": 2},
        "**bold** only",
        False,
    ),
    Case(
        "detectable_format:number_highlighted_sections",
        {"num_highlights": 1},
        "* * and ** **",
        False,
    ),
    Case(
        "detectable_format:number_highlighted_sections",
        {"num_highlights": 1},
        "*open\nclose*",
        False,
    ),
    # detectable_format:multiple_sections
    Case(
        "detectable_format:multiple_sections",
        {"section_spliter": "SECTION", "num_sections": 2},
        "SECTION 1\nIntro.\nSECTION 2\nBody.",
        True,
    ),
    Case(
        "detectable_format:multiple_sections",
        {"section_spliter": "Section", "num_sections": 2},
        "SECTION 1\nIntro.\nSECTION 2\nBody.",
        False,
    ),
    Case(
        "detectable_format:multiple_sections",
        {"section_spliter": " Section ", "num_sections": 3},
        "Section 1 a Section 2 b Section 3 c",
        True,
    ),
    Case(
        "detectable_format:multiple_sections",
        {"section_spliter": "Day", "num_sections": 2},
        "Day one\nDay two",
        False,
    ),
    # detectable_format:json_format
    Case("detectable_format:json_format", {}, '{"a": 1}', True),
    Case("detectable_format:json_format", {}, '```json\n{"a": [1, 2]}\n```', True),
    Case("detectable_format:json_format", {}, 'Here it is: {"a": 1}', False),
    Case("detectable_format:json_format", {}, "{'a': 1}", False),
    Case("detectable_format:json_format", {}, "```JSON\n[1, 2]\n```", True),
    # detectable_format:title
    Case("detectable_format:title", {}, "<<A Poem of Joy>>\nRoses are red.", True),
    Case("detectable_format:title", {}, "<< >>\nRoses are red.", False),
    Case("detectable_format:title", {}, "<<Title\n>>", False),
    Case("detectable_format:title", {}, "Text <<<<x>>>> more", True),
    # combination:two_responses
    Case("combination:two_responses", {}, "Answer one.\n******\nAnswer two.", True),
    Case("combination:two_responses", {}, "Same.\n******\nSame.", False),
    Case("combination:two_responses", {}, "A\n******\nB\n******\nC", False, True),
    Case("combination:two_responses", {}, "******\nA\n******\nB\n******", True),
    # combination:repeat_prompt — case-insensitive prefix
    Case(
        "combination:repeat_prompt",
        {"prompt_to_repeat": "Write a poem about cats."},
        "write a poem about cats. Cats are soft and warm.",
        True,
    ),
    Case(
        "combination:repeat_prompt",
        {"prompt_to_repeat": "Write a poem about cats."},
        "Sure! Write a poem about cats. Cats are soft.",
        False,  # loose too: one line, so no first line to drop that leaves the request first
    ),
    Case(
        "combination:repeat_prompt",
        {"prompt_to_repeat": "Write a poem about cats."},
        "Sure!\nWrite a poem about cats. Cats are soft.",
        False,
        True,  # loose: with the first line removed
    ),
    # startend:end_checker
    Case(
        "startend:end_checker",
        {"end_phrase": "Any other questions?"},
        "Done. Any other questions?",
        True,
    ),
    Case(
        "startend:end_checker",
        {"end_phrase": "Any other questions?"},
        '"Done. Any other questions?"',
        True,
    ),
    Case(
        "startend:end_checker",
        {"end_phrase": "Any other questions?"},
        "Done. Any other questions? Bye.",
        False,
    ),
    Case(
        "startend:end_checker",
        {"end_phrase": "Peace out."},
        "Done. peace OUT.\n\n",
        True,
    ),
    # startend:quotation
    Case("startend:quotation", {}, '"All wrapped."', True),
    Case("startend:quotation", {}, '  "All wrapped."  \n', True),
    Case("startend:quotation", {}, "\u201cCurly quotes.\u201d", False),
    Case("startend:quotation", {}, '"', False),
    # change_case:capital_word_frequency — NLTK word tokens in capitals
    Case(
        "change_case:capital_word_frequency",
        {"capital_frequency": 3, "capital_relation": LEAST},
        "I DON'T KNOW",
        True,
    ),
    Case(
        "change_case:capital_word_frequency",
        {"capital_frequency": 2, "capital_relation": LESS},
        "The NASA mission.",
        True,
    ),
    Case(
        "change_case:capital_word_frequency",
        {"capital_frequency": 2, "capital_relation": LEAST},
        "WELL-KNOWN fact",
        False,
    ),
    # change_case:english_capital / english_lowercase
    Case("change_case:english_capital", {}, "THE RIVER RUNS QUIETLY PAST THE OLD MILL.", True),
    Case("change_case:english_capital", {}, "THE RIVER RUNS QUIETLY PAST THE OLD Mill.", False),
    Case(
        "change_case:english_capital",
        {},
        "LE CHAT DORT SUR LE CANAPÉ PENDANT QUE LA PLUIE TOMBE DOUCEMENT SUR LA VILLE.",
        False,
    ),
    Case("change_case:english_lowercase", {}, "the river runs quietly past the old mill.", True),
    Case("change_case:english_lowercase", {}, "the river runs quietly past the old Mill.", False),
    Case(
        "change_case:english_lowercase",
        {},
        "**Note**\nthe river runs quietly past the old mill.",
        False,
        True,  # loose: with the first line removed
    ),
    # punctuation:no_comma
    Case("punctuation:no_comma", {}, "No commas in this one.", True),
    Case("punctuation:no_comma", {}, "One, two.", False),
    Case("punctuation:no_comma", {}, "A full-width comma\uff0c is not a comma.", True),
    # IFBench: count:word_count_range — \w+ runs, both ends included
    Case("count:word_count_range", {"min_words": 4, "max_words": 4}, "I don't know.", True),
    Case("count:word_count_range", {"min_words": 5, "max_words": 9}, "I don't know.", False),
    Case("count:word_count_range", {"min_words": 20, "max_words": 30}, ESSAY, True),
    # IFBench: count:unique_word_count — case-insensitive, punctuation stripped at the ends
    Case("count:unique_word_count", {"N": 4}, "The cat. the CAT! A dog?", True),
    Case("count:unique_word_count", {"N": 5}, "The cat. the CAT! A dog?", False),
    Case("count:unique_word_count", {"N": 4}, "one two -- three", True),  # "--" is the empty word
    # IFBench: count:numbers — punctuation removed first: 3.14 and 1,000 are one number each
    Case("count:numbers", {"N": 2}, "Pi is 3.14 and a grand is 1,000.", True),
    Case("count:numbers", {"N": 3}, "Pi is 3.14 and a grand is 1,000.", False),
    Case("count:numbers", {"N": 2}, "Call 555-1234 now.", False),
    Case("count:numbers", {"N": 1}, "Call 555-1234 now.", True),
    # IFBench: format:no_whitespace
    Case("format:no_whitespace", {}, "no_spaces_here", True),
    Case("format:no_whitespace", {}, "one space", False),
    Case("format:no_whitespace", {}, "tab\there", False),
    # IFBench: count:keywords_multiple — exact counts 1, 2, 3, 5, 7 (substrings, any case)
    Case(
        "count:keywords_multiple",
        {"keyword1": "a1", "keyword2": "b2", "keyword3": "c3", "keyword4": "d4", "keyword5": "e5"},
        "A1 b2 B2 c3 c3 c3 d4 d4 d4 d4 d4 e5 e5 e5 e5 e5 e5 e5",
        True,
    ),
    Case(
        "count:keywords_multiple",
        {"keyword1": "a1", "keyword2": "b2", "keyword3": "c3", "keyword4": "d4", "keyword5": "e5"},
        "a1 a1 b2 b2 c3 c3 c3 d4 d4 d4 d4 d4 e5 e5 e5 e5 e5 e5 e5",
        False,
    ),
    # IFBench: words:palindrome — ten tokens of 5+ characters, punctuation removed
    Case("words:palindrome", {}, " ".join(["Level,", "radar", "civic."] * 3 + ["kayak!"]), True),
    Case("words:palindrome", {}, " ".join(["level", "radar", "civic"] * 3), False),
    Case("words:palindrome", {}, " ".join(["noon", "wow"] * 10), False),
    # IFBench: count:punctuation — an interrobang plus . , ! ? ; : elsewhere
    Case("count:punctuation", {}, "Really?! Yes, it is; here: done. Wow! Why?", True),
    Case("count:punctuation", {}, "Really?! Yes, it is; here: done. Wow!", False),
    Case("count:punctuation", {}, "Really? Yes, it is; here: done. Wow!", False),
]

from tests.rlvr.verifier.domains.ifeval.cases_ifbench import (  # noqa: E402
    IFBENCH_CASES,
    IFEVALG_CASES,
)

CASES += IFBENCH_CASES + IFEVALG_CASES

#: Cases where IFEval's reference code decides otherwise: (index in CASES, why).
REFERENCE_DIFFERS: dict[tuple[str, str], str] = {
    ("language:response_language", "12345 !!!"): (
        "langdetect finds no language in text without letters; IFEval counts that as followed, "
        "which would pay a response of digits for 'answer in Hindi'; here it is not met"
    ),
}
