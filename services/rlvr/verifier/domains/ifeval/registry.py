"""The instruction ids (IFEval's and IFBench's names) and the checker of each; the same ids as
the wire spec."""

from __future__ import annotations

from collections.abc import Mapping

from rlvr.verifier.domains.ifeval import (
    case,
    combination,
    content,
    formatting,
    ifbench,
    keywords,
    language,
    length,
    startend,
)
from rlvr.verifier.domains.ifeval.checks import Checker

CHECKERS: Mapping[str, Checker] = {
    "keywords:existence": keywords.existence,
    "keywords:frequency": keywords.frequency,
    "keywords:forbidden_words": keywords.forbidden_words,
    "keywords:letter_frequency": keywords.letter_frequency,
    "language:response_language": language.response_language,
    "length_constraints:number_sentences": length.number_sentences,
    "length_constraints:number_paragraphs": length.number_paragraphs,
    "length_constraints:number_words": length.number_words,
    "length_constraints:nth_paragraph_first_word": length.nth_paragraph_first_word,
    "detectable_content:number_placeholders": content.number_placeholders,
    "detectable_content:postscript": content.postscript,
    "detectable_format:number_bullet_lists": formatting.number_bullet_lists,
    "detectable_format:constrained_response": formatting.constrained_response,
    "detectable_format:number_highlighted_sections": formatting.number_highlighted_sections,
    "detectable_format:multiple_sections": formatting.multiple_sections,
    "detectable_format:json_format": formatting.json_format,
    "detectable_format:title": formatting.title,
    "combination:two_responses": combination.two_responses,
    "combination:repeat_prompt": combination.repeat_prompt,
    "startend:end_checker": startend.end_checker,
    "startend:quotation": startend.quotation,
    "change_case:capital_word_frequency": case.capital_word_frequency,
    "change_case:english_capital": case.english_capital,
    "change_case:english_lowercase": case.english_lowercase,
    "punctuation:no_comma": case.no_comma,
    "count:word_count_range": ifbench.word_count_range,
    "count:unique_word_count": ifbench.unique_word_count,
    "count:numbers": ifbench.numbers,
    "format:no_whitespace": ifbench.no_whitespace,
    "count:keywords_multiple": ifbench.keywords_multiple,
    "words:palindrome": ifbench.palindrome,
    "count:punctuation": ifbench.punctuation,
}
