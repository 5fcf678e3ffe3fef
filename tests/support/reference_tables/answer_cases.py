"""The `/answer` labelled table: natural rows (right and wrong short answers, aliases, numbers
with units and separators) and adversarial rows (several candidates, the alias list, answers
inside think blocks, wrong units), every adversarial row labelled wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class AnswerCase:
    response: str
    answer: str | list[str]
    is_correct: bool
    category: str
    is_adversarial: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # match, f1_threshold, …

    def item(self) -> dict[str, Any]:
        return {"response": self.response, "answer": self.answer, **self.extra}


# (aliases, a plausible wrong answer, a second wrong candidate)
FACTS: list[tuple[list[str], str, str]] = [
    (["Paris"], "Lyon", "Marseille"),
    (["William Shakespeare", "Shakespeare"], "Christopher Marlowe", "Ben Jonson"),
    (["The Beatles", "Beatles"], "The Rolling Stones", "The Who"),
    (["Mount Everest", "Everest", "Chomolungma"], "K2", "Kangchenjunga"),
    (["Pacific Ocean", "Pacific"], "Atlantic Ocean", "Indian Ocean"),
    (["Leonardo da Vinci", "da Vinci", "Leonardo"], "Michelangelo", "Raphael"),
    (["Au", "gold"], "silver", "copper"),
    (["United States of America", "USA", "United States", "U.S."], "Canada", "Mexico"),
    (["Jupiter"], "Saturn", "Neptune"),
    (["George Washington", "Washington"], "John Adams", "Thomas Jefferson"),
    (["Romeo and Juliet"], "Hamlet", "Macbeth"),
    (["Tokyo"], "Kyoto", "Osaka"),
    (["Charles Darwin", "Darwin"], "Alfred Russel Wallace", "Gregor Mendel"),
    (["Amazon River", "Amazon"], "Nile", "Yangtze"),
    (["Marie Curie", "Curie", "Maria Skłodowska-Curie"], "Lise Meitner", "Ada Lovelace"),
]
NATURAL = [
    "Answer: {A}",
    "The answer is {A}.",
    r"\boxed{{{A}}}",
    r"The final answer is $\boxed{{\text{{{A}}}}}$.",
    "{A}",
    "<answer>{A}</answer>",
    "**Final answer:** {A}",
    "<think>Recall the facts first.</think>\nThe answer is {A}.",
    "Let me think about this.\n\nAnswer: {A}",
    "Final answer: {AU}",
    "the answer is: {al}",
    "Answer: {A}.\n\nThis is well documented.",
    "I am confident. The answer is {A}. It is widely known.",
]
# (response answer, reference, is_correct): numbers compared as numbers
NUMBERS = [
    ("1,000", "1000", True),
    ("1000 km", "1,000 kilometres", True),
    ("1 000 km", "1000 km", True),
    ("$5 million", "5000000", True),
    ("2.50", "2.5", True),
    ("-3", "−3", True),
    ("25%", "25 percent", True),
    ("1,234,567", "1234567", True),
    ("12 kg", "12", True),
    ("42", "42 years", True),
    ("1,001", "1000", False),
    ("5 km", "5 kg", False),
    ("3.14", "3.1416", False),
    ("100", "1,000", False),
    ("2 billion", "2,000,000", False),
]


def _natural() -> list[AnswerCase]:
    cases = []
    for aliases, wrong, _ in FACTS:
        for template in NATURAL:
            for alias in (aliases[0], aliases[-1]):
                text = template.format(A=alias, AU=alias.upper(), al=alias.lower())
                cases.append(AnswerCase(text, aliases, True, "natural"))
            text = template.format(A=wrong, AU=wrong.upper(), al=wrong.lower())
            cases.append(AnswerCase(text, aliases, False, "natural"))
    for response, reference, ok in NUMBERS:
        for template in ("Answer: {A}", r"\boxed{{{A}}}", "The answer is {A}."):
            text = template.format(A=response)
            cases.append(AnswerCase(text, reference, ok, "numbers"))
    f1 = {"match": "f1", "f1_threshold": 0.5}
    cases += [
        AnswerCase("Answer: the Eiffel Tower in Paris", "Eiffel Tower", True, "f1", False, f1),
        AnswerCase("Answer: Mount Everest in Nepal", "Mount Everest", True, "f1", False, f1),
        AnswerCase("Answer: the Louvre", "Eiffel Tower", False, "f1", False, f1),
        AnswerCase("Answer: a small town in France", "Eiffel Tower", False, "f1", False, f1),
    ]
    return cases


ADVERSARIAL = [
    ("several_candidates", "Answer: {A}, {W}"),
    ("several_candidates", "The answer is {W} or {A}."),
    ("several_candidates", "Answer: {W} / {A} / {W2}"),
    ("several_candidates", r"\boxed{{{A}; {W}}}"),
    ("several_candidates", "Answer: {A} (or {W})"),
    ("several_candidates", "Answer:\n{W}\n{A}"),
    ("several_candidates", "Answer: {W}, {W2} and {A}"),
    ("alias_list", "Answer: {ALL}"),
    ("think", "<think>The answer is {A}.</think>\nThe answer is {W}."),
    ("think", "<think>The answer is {A}."),
    ("think", "<think>Answer: {A}</think>"),
    ("no_answer", "I am not sure; it could be many things, and I would need to look it up."),
    ("wrong", "Answer: {W}"),
]


def _adversarial() -> list[AnswerCase]:
    cases = []
    for aliases, wrong, wrong2 in FACTS:
        for category, template in ADVERSARIAL:
            if category == "alias_list" and len(aliases) < 2:
                continue
            text = template.format(A=aliases[0], W=wrong, W2=wrong2, ALL=", ".join(aliases))
            cases.append(AnswerCase(text, aliases, False, category, True))
    f1 = {"match": "f1", "f1_threshold": 0.5}
    cases += [
        AnswerCase("Answer: Eiffel Tower, Louvre", "Eiffel Tower", False, "f1_stuffing", True, f1),
        AnswerCase(
            "Answer: Paris City of Light",
            ["Paris", "City of Light"],
            False,
            "f1_stuffing",
            True,
            f1,
        ),
        AnswerCase(
            "Answer: Everest, K2", ["Everest", "K2 mountain"], False, "f1_stuffing", True, f1
        ),
        AnswerCase("Answer: 1000 or 2000", "1000", False, "numbers", True),
        AnswerCase("Answer: 1,000 kg", "1,000 km", False, "numbers", True),
        AnswerCase("Answer: 10000", "1,000", False, "numbers", True),
    ]
    return cases


ANSWER_CASES: list[AnswerCase] = _natural() + _adversarial()


# Written after the reader was frozen (2026-12-02), as a check of forms it was not tuned on:
# every one means Mount Everest (aliases `Mount Everest`, `Everest`). Not part of ANSWER_CASES.
UNSEEN_STYLES = [
    "**Answer:** Mount Everest",
    "The answer is **Mount Everest**.",
    "Final answer: Everest.",
    r"\boxed{\text{Mount Everest}}",
    "So, the tallest mountain is Mount Everest.\n\nAnswer: Mount Everest",
    "Answer: mount everest",
    "ANSWER: EVEREST",
    "The answer is: Everest",
    "<answer> Mount Everest </answer>",
    "Mount Everest.",
    "The final answer is Mount Everest",
    "Answer: *Everest*",
    "My answer: Mount Everest",
    'Answer: "Mount Everest"',
    "Answer: Mt Everest",
    "The correct answer is Everest, in Nepal.",
    "Everest",
    "It is Mount Everest.",
    "**Mount Everest**",
    "Answer: Mount Everest (8,849 m)",
]
EVEREST = ["Mount Everest", "Everest"]
