"""Where a response commits to an answer: after thinking, tags, boxes, markers, the last line."""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.reference.committed import (
    MAX_MARKERS,
    Source,
    answer_section,
    answer_tags,
    boxed_contents,
    committed_candidates,
    marked_segments,
)


@pytest.mark.parametrize(
    ("response", "section"),
    [
        ("<think>a</think>b", "b"),
        ("<think>a</think>b<think>c</think>d", "d"),
        ("<think>never closed", None),
        ("plain", "plain"),
    ],
)
def test_only_the_text_after_thinking_counts(response: str, section: str | None) -> None:
    assert answer_section(response) == section


def test_boxes_match_nested_and_escaped_braces() -> None:
    assert boxed_contents(r"\boxed{\frac{1}{2}} and \fbox{a\{b} \boxed{x") == [
        r"\frac{1}{2}",
        r"a\{b",
        "x",
    ]


def test_answer_tags_tolerate_case_spaces_and_a_missing_close() -> None:
    assert answer_tags("<Answer>1</ANSWER> < answer >2</ answer > <answer>3") == ["1", "2", "3"]


def test_markers_give_the_rest_of_their_line_last_first() -> None:
    text = "The answer is A.\nHmm.\n**Final Answer:** B\nAnswer - C\nAnswer: -3"
    assert marked_segments(text) == ["-3", "C", "B", "A."]


def test_an_answer_on_the_line_after_its_marker_is_found() -> None:
    assert marked_segments("**Final answer:**\n\nB") == ["B"]


def test_candidates_come_strongest_first_with_their_siblings() -> None:
    places = list(committed_candidates(r"<answer>A</answer> \boxed{B} \boxed{C} Answer: D"))
    assert [(p.source, p.text) for p in places] == [
        (Source.answer_tag, "A"),
        (Source.boxed, "C"),
        (Source.marker, "D"),
        (Source.bare, r"<answer>A</answer> \boxed{B} \boxed{C} Answer: D"),
    ]
    assert places[1].alternatives == ("B", "C")


def test_only_the_last_markers_are_read() -> None:
    text = "".join(f"the answer is {n}\n" for n in range(100))
    segments = marked_segments(text)
    assert len(segments) == MAX_MARKERS and segments[0] == "99"


@pytest.mark.parametrize(
    "text", [r"\boxed{" * 50_000, "{" * 100_000, "<answer>" * 30_000, "answer: " * 30_000]
)
def test_hostile_text_is_scanned_in_milliseconds(text: str) -> None:
    started = time.perf_counter()
    list(committed_candidates(text))
    assert time.perf_counter() - started < 1.0
