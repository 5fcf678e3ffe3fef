"""The `/choice` labelled table: natural rows (right and wrong answers written the ways models
write them) and adversarial rows (hedges, look-alike letters, answers inside think blocks, a
letter quoting another option's text), every adversarial row labelled wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LETTERS = "ABCDEFGHIJ"


@dataclass(frozen=True)
class ChoiceCase:
    response: str
    answer: str
    is_correct: bool
    category: str
    is_adversarial: bool = False
    options: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # labels / num_options

    def item(self) -> dict[str, Any]:
        item: dict[str, Any] = {"response": self.response, "answer": self.answer, **self.extra}
        if self.options is not None:
            item["options"] = self.options
        return item


QUESTIONS: list[tuple[list[str], int]] = [
    (["London", "Paris", "Rome", "Berlin"], 1),
    (["4", "5", "6", "7"], 2),
    (["Mercury", "Venus", "Earth", "Mars"], 3),
    (["Oxygen", "Hydrogen", "Nitrogen", "Carbon dioxide"], 0),
    (["1789", "1815", "1914", "1945"], 2),
    (["Mitochondria", "Ribosome", "Nucleus", "Golgi apparatus"], 0),
    (["Shakespeare", "Dickens", "Austen", "Tolstoy"], 3),
    (["Both A and B", "Neither A nor B", "Only A", "Only B"], 0),
    (["increase", "decrease", "stay the same", "oscillate"], 1),
    (["ionic bond", "covalent bond", "hydrogen bond", "metallic bond"], 1),
    (["2", "3", "5", "7", "11", "13", "17", "19", "23", "29"], 8),  # A-J, answer I
    (["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"], 9),  # A-J, answer J
]

# Templates: {L} the letter, {T} its option's text.
NATURAL = [
    r"\boxed{{{L}}}",
    "Answer: ({L})",
    "The answer is {L}.",
    "**{L}**",
    "Final Answer: {L}",
    "The correct answer is ({L}) {T}.",
    "{L}) {T}",
    r"So the answer is $\boxed{{\text{{{L}}}}}$.",
    "<think>Let me weigh the options one by one.</think>\nThe answer is {L}",
    "Answer: {T}",
    "The answer is {T}.",
    "Therefore, the correct option is {L}.",
    "**Answer: {L}**",
    "{L}",
    "({L})",
    "I think the answer is {L}.",
    "After eliminating the others, my answer is: {L}",
    "<answer>{L}</answer>",
    r"The final answer is $\boxed{{{L}}}$.",
    "Answer: {L}. {T} fits every clue in the question.",
    "Let me check each option in turn.\n\nThe second one fails.\n\nAnswer: {L}",
    "The answer is {L}, {T}.",
    "answer: ({l})",
    "**Final answer:** {L}",
    "Looking at the choices, {T} is the only one that works.\n\nThe answer is ({L}).",
    "I am fairly sure.\n\nAnswer: {L}",
    "Hmm, {L}? Let me verify: yes.\n\n" r"\boxed{{{L}}}",
    "The best answer is {L}",
    "Therefore, the answer is {L} because the other options fail.",
    "The answer is {L}: {T}",
    "{L} is correct.",
    "Option {L}",
    "The correct choice is **({L}) {T}**",
    "Answer:\n\n{L}",
    "Answer - {L}",
    "ANSWER: {L}",
    "I believe the answer is {L}.",
    "I choose {L}.",
    "Option {W} is tempting but wrong; the answer is {L}.",
    "The answer is {L} ({T}).",
    "Answer: {L}\n\nExplanation: the other options contradict the premise.",
]


def _natural() -> list[ChoiceCase]:
    cases = []
    for options, right in QUESTIONS:
        for template in NATURAL:
            for chosen, is_correct in ((right, True), ((right + 1) % len(options), False)):
                letter = LETTERS[chosen]
                text = options[chosen]
                other = LETTERS[(chosen + 2) % len(options)]
                response = template.format(L=letter, l=letter.lower(), T=text, W=other)
                cases.append(
                    ChoiceCase(response, LETTERS[right], is_correct, "natural", False, options)
                )
    return cases


def _other_label_sets() -> list[ChoiceCase]:
    numbers: dict[str, Any] = {"labels": "numbers", "num_options": 4}
    roman: dict[str, Any] = {"labels": "roman", "num_options": 5}
    rows: list[tuple[str, str, bool, dict[str, Any]]] = [
        (r"\boxed{3}", "3", True, numbers),
        ("The answer is 3.", "3", True, numbers),
        ("Answer: (2)", "3", False, numbers),
        ("Answer: 4", "4", True, numbers),
        ("The answer is (iii).", "III", True, roman),
        ("Answer: IV", "IV", True, roman),
        ("Answer: II", "IV", False, roman),
        (r"\boxed{V}", "V", True, roman),
        ("The answer is I.", "I", True, {"num_options": 10}),
        ("Answer: J", "J", True, {"num_options": 10}),
        ("Answer: H", "J", False, {"num_options": 10}),
        ("The answer is G", "G", True, {}),
    ]
    return [ChoiceCase(r, a, ok, "label_sets", False, None, extra) for r, a, ok, extra in rows]


# Adversarial templates: {L} the right letter, {W} a wrong one, {TW} the wrong option's text.
ADVERSARIAL = [
    ("hedge", "{L} or {W}"),
    ("hedge", "The answer is {W} or {L}."),
    ("hedge", r"\boxed{{A, B, C, D}}"),
    ("hedge", "The answer is A, B, C, or D."),
    ("hedge", r"\boxed{{{L}}} or \boxed{{{W}}}"),
    ("hedge", "It is either {W} or {L}."),
    ("hedge", "Answer: {L}/{W}"),
    ("hedge", "The answer is {L} and {W}."),
    ("hedge", "Answer: {W}, {L}"),
    ("hedge", "Answer: ({L}) ({W})"),
    ("hedge", "The answer could be {W} or {L}."),
    ("hedge", r"\boxed{{{W}}} \boxed{{{L}}}"),
    ("hedge", "<answer>{L}</answer> <answer>{W}</answer>"),
    ("hedge", "Answer: {L} (or maybe {W})"),
    ("hedge", "Answer: {W} & {L}"),
    ("hedge", "The correct options are {L} and {W}."),
    ("hedge", "Answer: A B C D"),
    ("hedge", "**{W}** or **{L}**"),
    ("hedge", "Final answer: {W} vs {L}, hard to say"),
    ("think", "<think>The answer is {L}.</think>"),
    ("think", "<think>The answer is {L}. Still checking"),
    ("think", "<think>" r"\boxed{{{L}}}" "</think>\nThe answer is {W}."),
    ("think", "<think>Answer: {L}</think>\nI could not decide."),
    ("contradiction", "Answer: {L}) {TW}"),
    ("contradiction", "The answer is ({L}) {TW}."),
    ("contradiction", "{TW} ({L})"),
    ("lookalike", "The answer is {CY}."),
    ("lookalike", "Answer: ({CY})"),
    ("negation", "The answer is not {L}."),
    ("no_answer", "The answer depends on the reading of the question."),
]
# Cyrillic and Greek capitals that look like Latin ones: they are other letters.
LOOKALIKES = {"A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н"}


def _adversarial() -> list[ChoiceCase]:
    cases = []
    for options, right in QUESTIONS[:10]:
        wrong = (right + 1) % len(options)
        letter = LETTERS[right]
        for category, template in ADVERSARIAL:
            if category == "lookalike" and letter not in LOOKALIKES:
                continue
            response = template.format(
                L=letter, W=LETTERS[wrong], TW=options[wrong], CY=LOOKALIKES.get(letter, "")
            )
            cases.append(ChoiceCase(response, letter, False, category, True, options))
    return cases


CHOICE_CASES: list[ChoiceCase] = _natural() + _other_label_sets() + _adversarial()


# Written after the reader was frozen (2026-12-02), as a check of forms it was not tuned on:
# every one commits to B (options London, Paris, Rome, Berlin). Not part of CHOICE_CASES.
UNSEEN_STYLES = [
    "**Answer: (B) Paris**",
    "The correct answer is **B. Paris**.",
    r"Therefore, the answer is $\boxed{\text{(B)}}$.",
    "## Final Answer\nB",
    "B is the correct answer.",
    "Correct option: B",
    "My final answer: **B**",
    "Answer: Option B",
    "The answer is: **(B)**",
    "Thus the correct choice is (B) Paris.",
    "So it must be B.\n\nAnswer: B",
    "ANSWER: B) Paris",
    r"\boxed{\textbf{B}}",
    r"\boxed{(B)}",
    "Answer: [B]",
    "The answer is option (B).",
    "I'd go with B.",
    "Final: B",
    "Correct answer: B",
    "The answer is B) Paris.",
    "**The answer is B.**",
    "Answer: B — Paris",
    "The right answer would be B, Paris.",
    "Among the choices, B (Paris) is correct.",
    r"\[\boxed{B}\]",
    r"Final answer: \(\boxed{B}\)",
    "Answer:B",
    "answer is b",
    "The answer is **Paris** (B).",
    "Paris is the capital, so B.",
]
