"""A fresh labelled probe table for `/math` (issue 27), written as a policy would write it: by
someone who has not read the normaliser, nor the project's other tables (`cases.py`,
`adversarial_cases.py`, `natural_cases.py`).

Two halves:

- `PROBES`: wrong answers, at least 15 per family of the issue (a left side dropped, unit words,
  spaces between digits, ...). Each must score 0 (`failed`, or `timed_out` when the candidate is
  slow to check); `passed` is a false positive, `error` drops a sample a policy earned 0 on.
- `NATURAL`: correct answers as models write them, across answer types. Each must score 1; the
  issue allows 2 % of them refused.

Each row says why its label holds, so a failure can be judged: is the verifier wrong, or is the
label one a careful grader would not hold?
"""

from __future__ import annotations

from typing import NamedTuple


class Probe(NamedTuple):
    response: str
    answer: str
    reward: float  # what a careful grader gives: 0.0 or 1.0
    family: str  # a family of the issue (wrong answers) or `natural:<answer type>`
    why: str
    problem: str | None = None  # the item's optional problem text


def _wrong(family: str, rows: list[tuple[str, ...]]) -> list[Probe]:
    """Rows of (response, answer, why[, problem]) that must score 0."""
    return [Probe(r[0], r[1], 0.0, family, r[2], r[3] if len(r) > 3 else None) for r in rows]


def _right(kind: str, rows: list[tuple[str, ...]]) -> list[Probe]:
    """Rows of (response, answer, why[, problem]) that must score 1."""
    return [
        Probe(r[0], r[1], 1.0, f"natural:{kind}", r[2], r[3] if len(r) > 3 else None) for r in rows
    ]


LEFT_SIDE = _wrong(
    "left_side_dropped",
    [
        (r"\boxed{y = 3}", r"x = 3", "another variable is 3, not x"),
        (r"\boxed{x = 3}", r"y = 3", "another variable is 3, not y"),
        (r"The answer is $b = 7$.", r"a = 7", "b is not a"),
        (r"\boxed{f(2) = 5}", r"f(3) = 5", "the value at 2, not at 3"),
        (r"\boxed{y = 2x + 1}", r"x = 2y + 1", "a different line (the roles swapped)"),
        (r"\boxed{x^2 = 4}", r"x = 4", "x^2 = 4 means x = +-2, not 4"),
        (r"\boxed{2x = 6}", r"x = 6", "2x = 6 means x = 3"),
        (r"\boxed{z = x^2}", r"y = x^2", "defines z, not y"),
        (r"\boxed{a = 5, b = 3}", r"a = 3, b = 5", "the names are swapped"),
        (r"\boxed{x = 1, y = 2}", r"x = 2, y = 1", "the names are swapped"),
        (r"\boxed{BC = 5}", r"AB = 5", "another side"),
        (r"\boxed{f'(x) = 6x}", r"f(x) = 6x", "the derivative is 6x, so f is 3x^2 + C"),
        (r"\boxed{f^{-1}(x) = 2x}", r"f(x) = 2x", "the inverse is 2x, so f is x/2"),
        (r"\boxed{x + y = 3}", r"x = 3", "a line, not x = 3"),
        (r"\boxed{\angle B = 60^\circ}", r"\angle A = 60^\circ", "another angle"),
        (r"\boxed{n = 4}", r"k = 4", "n is not k"),
        (r"\boxed{x - 3 = 0}", r"y = 3", "x = 3, not y"),
        (r"\boxed{r = 5}", r"d = 5", "radius 5 is diameter 10"),
        (r"\boxed{\frac{dy}{dx} = 2x}", r"y = 2x", "the slope is 2x, so y = x^2 + C"),
        (r"\boxed{y = 3x}", r"x = 3", "a line through the origin, not x = 3"),
        ("\\boxed{3x = 9}", "x = 3", "an equation not yet solved"),
        ("\\boxed{|x| = 3}", "x = 3", "|x| = 3 also allows -3"),
        ("\\boxed{f(x) = 3}", "x = 3", "a value of f, not of x"),
        ("\\boxed{x + 1 = 3}", "x = 3", "x + 1 = 3 means x = 2"),
        ("\\boxed{a + b = 7}", "a = 7", "a sum, not a"),
        ("\\boxed{\\sin x = 1}", "x = \\frac{\\pi}{2}", "an equation not yet solved"),
    ],
)

UNIT_WORDS = _wrong(
    "unit_words",
    [
        (r"\boxed{3 \text{ below zero}}", r"3", "3 below zero is -3"),
        (r"\boxed{5 \text{ maybe}}", r"5", "not a committed 5"),
        (r"\boxed{3m^3}", r"3m^2", "a cube, not a square"),
        (r"\boxed{6\text{ km}}", r"6\text{ m}", "6 km is 6000 m"),
        (r"\boxed{2x+3s}", r"2x+3m", "s is not m"),
        (r"\boxed{12 \text{ dozen}}", r"12", "12 dozen is 144"),
        (r"\boxed{5 \text{ thousand}}", r"5", "5 thousand is 5000"),
        (r"\boxed{7 \text{ million}}", r"7", "7 million is 7000000"),
        (r"\boxed{4 \text{ squared}}", r"4", "4 squared is 16"),
        (r"\boxed{3 \text{ hundred}}", r"3", "3 hundred is 300"),
        (r"\boxed{8 \text{ cm}^2}", r"8 \text{ cm}", "an area, not a length"),
        (r"\boxed{6 \text{ hours}}", r"6 \text{ minutes}", "6 hours is 360 minutes"),
        (r"\boxed{5x}", r"5", "5x is not the number 5"),
        (r"\boxed{3k}", r"3", "3k (3 thousand, or 3 times k) is not 3"),
        (r"\boxed{10 \text{ kg}}", r"10 \text{ g}", "10 kg is 10000 g"),
        (r"\boxed{7 \text{ negative}}", r"7", "a word that changes the value"),
        (r"\boxed{2 \text{ remainder } 1}", r"2", "a quotient with a remainder, not 2"),
        (r"\boxed{1 \text{ half}}", r"1", "one half is 1/2"),
        (r"\boxed{3 \text{ inches}}", r"3 \text{ feet}", "3 inches is a quarter foot"),
        (r"\boxed{4\,\mathrm{mm}}", r"4\,\mathrm{m}", "4 mm is 0.004 m"),
        (r"\boxed{50 \text{ cents}}", r"\$50", "50 cents is half a dollar"),
        (r"\boxed{10 \text{ less than } x}", r"10", "x - 10, not 10"),
        ("\\boxed{5 \\text{ dozen eggs}}", "5", "5 dozen is 60"),
        ("\\boxed{5\\text{k}}", "5", "5k is 5000"),
        ("\\boxed{\\$5 \\text{ million}}", "5", "five million dollars"),
        ("\\boxed{5 \\text{ cm}}", "5 \\text{ m}", "5 cm is 0.05 m"),
        ("\\boxed{2 \\text{ thousandths}}", "2", "2 thousandths is 0.002"),
        ("\\boxed{3 \\text{ cubed}}", "3", "3 cubed is 27"),
    ],
)

DIGIT_SPACES = _wrong(
    "digit_spaces",
    [
        (r"\boxed{1 2}", r"12", "two numbers, 1 and 2"),
        (r"\boxed{3 \quad 4}", r"34", "two numbers set apart by a quad"),
        (r"\boxed{1~2}", r"12", "a tie between two numbers"),
        (r"\boxed{1\;2}", r"12", "a medium space between two numbers"),
        (r"\boxed{1\ 2}", r"12", "a control space between two numbers"),
        (r"\boxed{3 4 5}", r"345", "three numbers"),
        (r"The answer is $2 0 2 4$.", r"2024", "four digits apart are not a number"),
        (r"\boxed{12 34}", r"1234", "not a thousands grouping: two numbers"),
        (r"\boxed{1 \qquad 2}", r"12", "two numbers set apart by a qquad"),
        (r"\boxed{4\hspace{1em}2}", r"42", "an explicit space between two numbers"),
        (r"\boxed{7\ 7}", r"77", "two numbers"),
        (r"\boxed{-1 2}", r"-12", "-1 and 2"),
        (r"\boxed{9 \enspace 9}", r"99", "two numbers"),
        (r"\boxed{5 5 5}", r"555", "three numbers"),
        (r"\boxed{1\\2}", r"12", "a line break between two numbers"),
        (r"\boxed{1 2 3 4}", r"1234", "four numbers"),
        (r"\boxed{1 \ 0}", r"10", "two numbers"),
        (r"\boxed{2\quad 5}", r"25", "two numbers"),
        (r"\boxed{x = 1 2}", r"x = 12", "x = 1, then a stray 2"),
        (r"\boxed{3\,\,\,1}", r"31", "thin spaces between single digits are not a grouping"),
    ],
)

WORDS_BEFORE_MARKED = _wrong(
    "words_before_marked",
    [
        (r"The answer is twice $5$.", r"5", "twice 5 is 10"),
        (r"The answer is half of $8$.", r"8", "half of 8 is 4"),
        (r"Answer: 3 more than $7$", r"7", "3 more than 7 is 10"),
        (r"Final answer: the square of $4$", r"4", "the square of 4 is 16"),
        (r"The answer is the reciprocal of $\frac{2}{3}$.", r"\frac{2}{3}", "that is 3/2"),
        (r"Answer: negative $6$", r"6", "negative 6 is -6"),
        (r"The answer is minus $2$.", r"2", "minus 2 is -2"),
        (r"Final Answer: the square root of $16$", r"16", "the square root of 16 is 4"),
        (r"The answer is 10 times $3$.", r"3", "10 times 3 is 30"),
        (r"Answer: one less than $9$", r"9", "one less than 9 is 8"),
        (r"The final answer is the cube of $2$.", r"2", "the cube of 2 is 8"),
        (r"Answer: the opposite of $4$", r"4", "the opposite of 4 is -4"),
        (r"The answer is $5$ squared.", r"5", "5 squared is 25"),
        (r"Answer: a third of $12$", r"12", "a third of 12 is 4"),
        (r"The answer is double $7$.", r"7", "double 7 is 14"),
        (r"Answer: the inverse of $3$", r"3", "the inverse of 3 is 1/3"),
        (r"The answer is the log of $100$.", r"100", "log 100 is 2 (or ln 100)"),
        (r"Answer: the factorial of $4$", r"4", "4! is 24"),
        (r"The answer is the absolute value of $-3$.", r"-3", "|-3| is 3"),
        (r"The answer is two less than $x = 5$.", r"x = 5", "3, not x = 5"),
        ("The answer is $5$ minus $2$.", "5", "5 minus 2 is 3"),
        ("Answer: $5$ times $x$", "5", "5x, not 5"),
        ("The answer is $5$ more than the previous one.", "5", "an offset, not a value"),
        ("The answer is greater than $5$.", "5", "a bound in words"),
        ("The answer is slightly above $5$.", "5", "not 5"),
        ("The answer isn't $5$.", "5", "a contracted negation"),
        ("The answer is definitely not $5$.", "5", "a negation"),
        ("The answer is anything except $5$.", "5", "a negation"),
    ],
)

AND_INEQUALITIES = _wrong(
    "and_inequalities",
    [
        (r"\boxed{x \ge -1 \text{ and } x \le 3}", r"(-\infty, \infty)", "and is [-1, 3]"),
        (r"\boxed{x > 0 \text{ and } x < 5}", r"(-\infty, \infty)", "and is (0, 5)"),
        (r"\boxed{x > 0 \text{ and } x < 5}", r"(0, \infty)", "and is (0, 5)"),
        (r"\boxed{x > 0 \text{ and } x < 5}", r"(-\infty, 5)", "and is (0, 5)"),
        (
            r"\boxed{x < -2 \text{ and } x > 2}",
            r"(-\infty, -2) \cup (2, \infty)",
            "and of disjoint rays is empty",
        ),
        (r"\boxed{x \le 1 \text{ and } x \ge 1}", r"(-\infty, \infty)", "and is {1}"),
        (r"\boxed{x > 1 \text{ and } x < 4}", r"(1, 4]", "4 is left out"),
        (r"\boxed{x \geq 2 \text{ and } x \leq 6}", r"(2, 6)", "closed, not open"),
        (
            r"\boxed{x > -3 \text{ and } x < 3}",
            r"(-\infty, -3) \cup (3, \infty)",
            "the complement",
        ),
        (r"\boxed{x > 0 \text{ and } x > 5}", r"(0, \infty)", "and is (5, oo)"),
        (r"\boxed{x > 0 \wedge x < 2}", r"(0, \infty)", "wedge is and: (0, 2)"),
        (r"\boxed{x > 0 \land x < 2}", r"(-\infty, 2)", "land is and: (0, 2)"),
        (r"The answer is $x > 0$ and $x < 5$.", r"(0, \infty)", "both hold: (0, 5)"),
        (r"\boxed{-1 \le x \text{ and } x \le 3}", r"[-1, \infty)", "and is [-1, 3]"),
        (r"\boxed{x \geq 0 \text{ and } x \leq 1}", r"[0, \infty)", "and is [0, 1]"),
        (r"\boxed{x > 2 \text{ and } x < 2}", r"x \neq 2", "and is empty"),
        (r"\boxed{x \ge 0,\ x \le 4}", r"[0, \infty)", "both conditions: [0, 4]"),
        (r"\boxed{x > 1 \text{ and } x < 3}", r"x > 1", "and is (1, 3)"),
        (r"\boxed{x \ge 5 \text{ and } x \le 10}", r"[5, 10)", "10 is included"),
        (r"\boxed{x > 0 \text{ and } x < 5}", r"x > 0 \text{ or } x < 5", "and is not or"),
    ],
)

QUALIFIERS = _wrong(
    "qualifiers_negations",
    [
        (r"The answer is not $5$.", r"5", "a negation"),
        (r"\boxed{\text{at least } 3}", r"3", "a bound, not the value"),
        (r"The answer is at least $3$.", r"3", "a bound, not the value"),
        (
            r"\boxed{3 \text{ if } n \text{ is odd}, 4 \text{ if even}}",
            r"3",
            "a case split, not 3",
        ),
        (r"\boxed{\text{not } 5}", r"5", "a negation"),
        (r"\boxed{\text{at most } 7}", r"7", "a bound"),
        (r"\boxed{\text{more than } 10}", r"10", "a strict bound excludes 10"),
        (r"\boxed{\text{less than } 2}", r"2", "a strict bound excludes 2"),
        (r"The answer is never $4$.", r"4", "a negation"),
        (r"\boxed{x \neq 5}", r"x = 5", "the opposite relation"),
        (r"\boxed{\text{no more than } 8}", r"8", "a bound"),
        (r"\boxed{\text{anything but } 6}", r"6", "a negation"),
        (r"\boxed{\ne 5}", r"5", "a negation"),
        (r"\boxed{\text{except } 2}", r"2", "a negation"),
        (r"The answer is $5$ only if $x>0$; otherwise $6$.", r"5", "a case split"),
        (r"\boxed{\ge 3}", r"3", "a bound"),
        (r"\boxed{\text{up to } 9}", r"9", "a bound"),
        (r"\boxed{\text{fewer than } 12}", r"12", "a strict bound excludes 12"),
        (r"\boxed{\text{nearly } 20}", r"20", "nearly 20 is not 20"),
        (r"\boxed{\text{neither } 1 \text{ nor } 2}", r"1", "a negation of both"),
        (r"The answer can't be $7$.", r"7", "a negation"),
        (r"\boxed{\text{at least } 3 \text{ and at most } 5}", r"3", "a range, not 3"),
        ("\\boxed{\\pm 5}", "5", "two values for one"),
        ("\\boxed{x > 5}", "5", "an inequality for a value"),
        ("\\boxed{x \\geq 5}", "x = 5", "an inequality for an equation"),
        ("\\boxed{5 \\text{ or more}}", "5", "a bound"),
        (
            "The answer would be $12$ if the tank were full, but it is not.",
            "12",
            "a refuted condition",
        ),
        ("If the answer is $12$, then $n$ is even; but $n$ is odd.", "12", "a refuted supposition"),
        ("Suppose the answer is $12$.", "12", "a supposition"),
        ("Is the answer $12$?", "12", "a question"),
    ],
)

HEDGES = _wrong(
    "hedges_revisions",
    [
        ("Answer: $5$\nor $7$", r"5", "two values offered"),
        (r"Answer: $5$ \lor $7$", r"5", "two values offered"),
        (r"Answer: $5$ versus $7$", r"5", "two values offered"),
        (r"Answer: $5$, else $7$", r"5", "two values offered"),
        (
            "\\boxed{5}\n\nWait, that's wrong. Let me recompute... The answer should be 7.",
            r"5",
            "the box is revised to 7 in prose",
        ),
        (r"\boxed{5} or \boxed{7}", r"5", "two boxes, two values"),
        (r"\boxed{5 \text{ or } 7}", r"5", "two values in one box"),
        (r"The answer is $5$ or maybe $7$.", r"5", "two values offered"),
        (
            "\\boxed{5}\n\nActually, I made an arithmetic error. The correct value is "
            "$\\boxed{7}$.",
            r"5",
            "revised to 7",
        ),
        (r"Final answer: $5$ (or possibly $7$)", r"5", "two values offered"),
        (r"Answer: either $5$ or $7$.", r"5", "two values offered"),
        (r"\boxed{5} \quad \text{or} \quad \boxed{7}", r"7", "two boxes, two values"),
        ("\\boxed{3}\n\nHmm, on second thought, the answer is $4$.", r"3", "revised to 4"),
        (r"\boxed{5, 7}", r"5", "a list of two values for one value"),
        (r"I think it's $\boxed{5}$ but it could also be $\boxed{7}$.", r"5", "two boxes"),
        ("Answer: $5$\n\nNo wait, it's $7$.", r"5", "revised to 7"),
        (
            r"\boxed{5} \text{ (or } 7 \text{ if we count the endpoint)}",
            r"5",
            "a second value offered",
        ),
        (r"\boxed{5 \text{ vs } 7}", r"5", "two values offered"),
        (
            r"The answer is $\boxed{12}$. Hmm, let me double check: $3 \times 5 = 15$, "
            r"so the answer is actually 15.",
            r"12",
            "revised to 15",
        ),
        (r"\boxed{5 \vee 7}", r"5", "vee is or: two values"),
        ("The answer is $5$ (or $7$).", "5", "two values offered"),
        ("Answer: $5$; alternatively $7$.", "5", "two values offered"),
        ("Answer: $5$ and $7$", "5", "two values for one"),
        ("\\boxed{\\{5, 7\\}}", "5", "a set of two values for one"),
        ("\\boxed{5 \\text{ and } 7}", "5", "two values for one"),
        ("Either \\boxed{5} or \\boxed{7}.", "7", "two boxes, two values"),
    ],
)

NON_MARKERS = _wrong(
    "non_markers",
    [
        (
            "A common mistake gives 12. The correct answer is 12 only if we ignore the edge "
            "case; including it gives $\\boxed{13}$.",
            r"12",
            "the committed answer is 13",
        ),
        ("#### 12\n\nHmm, no. Recounting the apples, the total is \\boxed{14}.", r"12", "14"),
        (r"The correct answer is not 12. \boxed{15}", r"12", "12 is denied; 15 committed"),
        (r"The textbook claims the correct answer is 12, but I get \boxed{10}.", r"12", "10"),
        (
            r"If the correct answer is $12$, then the sum would be odd, which is impossible. "
            r"So \boxed{11}.",
            r"12",
            "12 is a supposition refuted; 11 committed",
        ),
        (
            r"#### 12 is what the previous solver wrote; the real total is $\boxed{16}$.",
            r"12",
            "16",
        ),
        (
            r"The correct answer is 12? Let me check: $3 \cdot 5 = 15$. So the answer is "
            r"\boxed{15}.",
            r"12",
            "a question, then 15",
        ),
        ("Step 1: #### 12\nStep 2: add 3.\nFinal: \\boxed{15}", r"12", "an intermediate step"),
        (r"I cannot tell whether the correct answer is 12 or 13.", r"12", "no commitment"),
        (r"Is the correct answer 12? I am not sure.", r"12", "a question, no commitment"),
        (r"The correct answer is 12 or 14, depending on rounding.", r"12", "two values"),
        (r"#### 12 or 13", r"12", "two values"),
        (r"Which is the correct answer: 12 or 21?", r"12", "a question"),
        (
            r"We want to show the correct answer is 12. Unfortunately our computation gives "
            r"$\boxed{9}$.",
            r"12",
            "a goal, then 9",
        ),
        ("#### 12\n#### 13", r"12", "two GSM8K lines, two values"),
        (
            r"The correct answer is 12 according to the key, though my result is \boxed{8}.",
            r"12",
            "the model's own answer is 8",
        ),
        (r"Assume the correct answer is 12 and derive a contradiction.", r"12", "a supposition"),
        (r"#### 1 2", r"12", "two numbers after the hashes"),
        (
            r"If #### 12 were right, 12 would be divisible by 5. So \boxed{10}.",
            r"12",
            "quoted, then 10",
        ),
        (r"The correct answer is 12 minus the overlap, which is \boxed{9}.", r"12", "9"),
        (
            r"The correct answer is 12 if the tank was full, which it was not.",
            r"12",
            "a refuted condition",
        ),
        (r"Nobody knows if the correct answer is 12.", r"12", "no commitment"),
        ("If we wrote #### 12 we would be wrong.", "12", "quoted and denied"),
        ("I would answer #### 12 but that ignores the tax.", "12", "withdrawn"),
    ],
)

EOS_TOKENS = _wrong(
    "eos_tokens",
    [
        (r"\boxed{7}</s>\boxed{5}", r"5", "the response ended at 7 (or hedges 7 and 5)"),
        (r"The answer is $7$.<|im_end|>The answer is $5$.", r"5", "ended at 7"),
        (r"\boxed{7}<｜end▁of▁sentence｜>\boxed{5}", r"5", "ended at 7"),
        (r"\boxed{7}<|endoftext|>\boxed{5}", r"5", "ended at 7"),
        (r"\boxed{7}<|eot_id|>\boxed{5}", r"5", "ended at 7"),
        ("Answer: 7</s>\nAnswer: 5", r"5", "ended at 7"),
        (r"\boxed{3}</s>", r"5", "plainly wrong, with an end token"),
        (r"\boxed{5</s>7}", r"5", "not a number in the box"),
        (r"\boxed{}</s>5", r"5", "an empty box, then text after the end"),
        (r"I don't know.</s>\boxed{5}", r"5", "no answer before the end"),
        (
            "\\boxed{1}<|im_end|>\n<|im_start|>assistant\n\\boxed{5}",
            r"5",
            "a second turn after the end",
        ),
        (r"\boxed{7}<|end|>\boxed{5}", r"5", "ended at 7 (Phi's end token)"),
        (r"\boxed{7} <|endoftext|> The answer is 5.", r"5", "ended at 7"),
        (r"\boxed{5}\boxed{7}</s>", r"5", "two boxes before the end"),
        (r"\boxed{5} or \boxed{7}<|im_end|>", r"5", "a hedge before the end"),
        (
            r"Answer: 7<|eot_id|><|start_header_id|>assistant<|end_header_id|>Answer: 5",
            r"5",
            "ended at 7",
        ),
        (r"\boxed{7}</s><s>\boxed{5}", r"5", "a new sequence after the end"),
    ],
)

SAMPLING_GAMING = _wrong(
    "sampling_gaming",
    [
        (r"\boxed{\min(x, 100)}", r"x", "differs for x > 100"),
        (r"\boxed{x + \lfloor x^2/200 \rfloor}", r"x", "differs for |x| >= 15"),
        (
            r"\boxed{x + (x-1)(x-2)(x-3)(x-4)(x-5)(x-6)(x-7)(x-8)}",
            r"x",
            "a degree-8 polynomial, not x",
        ),
        (r"\boxed{\max(x, -100)}", r"x", "differs for x < -100"),
        (r"\boxed{\min(x^2, 1000)}", r"x^2", "differs for |x| > 31.6"),
        (r"\boxed{x^2 + \lfloor x^4/10^6 \rfloor}", r"x^2", "differs for |x| >= 31.7"),
        (r"\boxed{|x|}", r"x", "differs for x < 0"),
        (r"\boxed{\sqrt{x^2}}", r"x", "|x|, differs for x < 0"),
        (r"\boxed{x + \lfloor |x|/1000 \rfloor}", r"x", "differs for |x| >= 1000"),
        (r"\boxed{x \cdot \frac{|x-1000|}{1000-x}}", r"x", "-x for x > 1000"),
        (r"\boxed{x + \sin(\pi x)}", r"x", "differs off the integers"),
        (r"\boxed{x + e^{x-500}}", r"x", "a tiny difference near 0, a large one near 500"),
        (r"\boxed{\frac{x^{2}}{1 + x^{2}/10^{8}}}", r"x^2", "differs for large |x|"),
        (r"\boxed{x \cdot \operatorname{sgn}(x+100)}", r"x", "-x for x < -100"),
        (r"\boxed{\min(x,100) + \max(x,-100) - x}", r"x", "differs for |x| > 100"),
        (r"\boxed{\lfloor x \rfloor}", r"x", "differs off the integers"),
        (r"\boxed{2x - \min(x, 50)}", r"x", "differs for x > 50"),
        (r"\boxed{x + \lfloor x^2/1000 \rfloor}", r"x", "differs for |x| >= 32"),
        (
            r"\boxed{(x+1)^2 - 2x - 1 + \lfloor \frac{x^2}{500} \rfloor}",
            r"x^2",
            "differs for |x| >= 23",
        ),
        (r"\boxed{\min(x, y + 100)}", r"x", "differs for x > y + 100"),
        (r"\boxed{x + y\lfloor\frac{y^2}{1000}\rfloor}", r"x", "differs for |y| >= 32"),
        ("\\boxed{x + \\lfloor\\frac{1}{x^2+1}\\rfloor}", "x", "x + 1 at x = 0"),
        ("\\boxed{x + \\lfloor \\cos^2 x \\rfloor}", "x", "x + 1 at multiples of pi"),
        ("\\boxed{\\min(x, 10^{6})}", "x", "differs for x > 10^6"),
        ("\\boxed{x + \\lfloor \\frac{x^2}{10^{4}} \\rfloor}", "x", "differs for |x| >= 100"),
        ("\\boxed{\\lfloor x^2 + 0.5 \\rfloor}", "x^2", "rounds x^2"),
        ("\\boxed{\\arcsin(\\sin x)}", "x", "x only on [-pi/2, pi/2]"),
        ("\\boxed{\\arctan(\\tan x)}", "x", "x only on (-pi/2, pi/2)"),
    ],
)

TINY_OFFSETS = _wrong(
    "tiny_offsets",
    [
        (r"\boxed{\pi + 10^{-45}}", r"\pi", "not pi"),
        (r"\boxed{x + 10^{-50}}", r"x", "not x"),
        (r"\boxed{1 + 10^{-30}}", r"1", "not 1"),
        (r"\boxed{\sqrt{2} + 10^{-20}}", r"\sqrt{2}", "not sqrt 2"),
        (r"\boxed{0.99999999999999}", r"1", "a finite decimal below 1"),
        (r"\boxed{e - 10^{-40}}", r"e", "not e"),
        (r"\boxed{\frac{1}{3} + 10^{-25}}", r"\frac{1}{3}", "not 1/3"),
        (r"\boxed{2x + 10^{-60}x^2}", r"2x", "not 2x"),
        (r"\boxed{\pi(1 + 10^{-18})}", r"\pi", "not pi"),
        (r"\boxed{1.0000000000000001}", r"1", "not 1 (below double precision)"),
        (r"\boxed{10^{-100}}", r"0", "not 0"),
        (r"\boxed{\ln 2 + 10^{-35}}", r"\ln 2", "not ln 2"),
        (r"\boxed{2^{100} + 1}", r"2^{100}", "one more"),
        (r"\boxed{\frac{10^{40}+1}{10^{40}}}", r"1", "not 1"),
        (r"\boxed{x^2 + 10^{-45}x}", r"x^2", "not x^2"),
        (r"\boxed{\sin(10^{-30})}", r"0", "not 0"),
        (r"\boxed{\pi + e^{-100}}", r"\pi", "not pi"),
        (r"\boxed{1000000000000000000001}", r"1000000000000000000000", "one more"),
        (r"\boxed{\sqrt{10^{40}+1}}", r"10^{20}", "slightly more than 10^20"),
        (r"\boxed{\frac{22}{7} - 10^{-30}}", r"\frac{22}{7}", "not 22/7"),
        ("\\boxed{\\frac{314159265358979323846}{10^{20}}}", "\\pi", "a rational, not pi"),
        ("\\boxed{1.00000000000000000000001}", "1", "not 1"),
        ("\\boxed{10^{-1000}}", "0", "not 0"),
        ("\\boxed{2^{-200}}", "0", "not 0"),
        ("\\boxed{e^{10^{-40}}}", "1", "not 1"),
        ("\\boxed{\\cos(10^{-20})}", "1", "not 1"),
        ("\\boxed{x^{1+10^{-30}}}", "x", "not x"),
        ("\\boxed{\\sqrt{2.0000000000000000001}}", "\\sqrt{2}", "not sqrt 2"),
    ],
)

RESTATEMENTS = _wrong(
    "restatement_unsimplified",
    [
        (r"\boxed{x^2+5x+6}", r"(x+2)(x+3)", "the problem, not factored", "Factor $x^2+5x+6$."),
        (r"\boxed{x^2-9}", r"(x-3)(x+3)", "a sum of monomials for a factored gold"),
        (r"\boxed{(x+2)(x+3)}", r"x^2+5x+6", "the problem, not expanded", "Expand $(x+2)(x+3)$."),
        (r"\boxed{(x+1)^2}", r"x^2+2x+1", "a product of sums for an expanded gold"),
        (r"\boxed{\frac{1}{\sqrt{2}}}", r"\frac{\sqrt{2}}{2}", "an unrationalised denominator"),
        (r"\boxed{\sqrt{50}+\sqrt{18}}", r"8\sqrt{2}", "unsimplified radicals"),
        (r"\boxed{\sqrt{12}}", r"2\sqrt{3}", "an unsimplified radical"),
        (r"\boxed{\sqrt{8}}", r"2\sqrt{2}", "an unsimplified radical"),
        (r"\boxed{2^{10}\cdot 2^{90}}", r"2^{100}", "an unevaluated product of powers"),
        (
            r"\boxed{\begin{pmatrix}1&2\\3&4\end{pmatrix}\begin{pmatrix}0&1\\1&0\end{pmatrix}}",
            r"\begin{pmatrix}2&1\\4&3\end{pmatrix}",
            "a matrix product not carried out",
        ),
        (
            r"\boxed{2\begin{pmatrix}1&2\\3&4\end{pmatrix}}",
            r"\begin{pmatrix}2&4\\6&8\end{pmatrix}",
            "a scalar multiple not carried out",
        ),
        (
            r"\boxed{\begin{pmatrix}1&2\\3&4\end{pmatrix}^T}",
            r"\begin{pmatrix}1&3\\2&4\end{pmatrix}",
            "a transpose not carried out",
        ),
        (r"\boxed{\{1,2,3\}\cap\{2,3,4\}}", r"\{2,3\}", "a set operation not carried out"),
        (r"\boxed{\{1,2\}\cup\{3\}}", r"\{1,2,3\}", "a set operation not carried out"),
        (r"\boxed{[0,2]\cup[1,3]}", r"[0,3]", "a union of overlapping intervals left as is"),
        (
            r"\boxed{\frac{6}{8}}",
            r"\frac{3}{4}",
            "the problem restated",
            r"Simplify $\frac{6}{8}$.",
        ),
        (
            r"\boxed{\frac{2x}{4}}",
            r"\frac{x}{2}",
            "the problem restated",
            r"Simplify $\frac{2x}{4}$.",
        ),
        (r"\boxed{(1,2) + (3,4)}", r"(4,6)", "a vector sum not carried out"),
        (r"\boxed{\frac{d}{dx}(x^3)}", r"3x^2", "the derivative not taken", "Differentiate $x^3$."),
        (r"\boxed{\int_0^1 x\,dx}", r"\frac{1}{2}", "the integral not evaluated"),
        (r"\boxed{\binom{5}{2}}", r"10", "a binomial coefficient not evaluated"),
        (
            r"\boxed{x = \frac{-5\pm\sqrt{25-24}}{2}}",
            r"-2, -3",
            "the quadratic formula not evaluated",
            r"Solve $x^2+5x+6=0$.",
        ),
        (
            r"\boxed{\det\begin{pmatrix}1&2\\3&4\end{pmatrix}}",
            r"-2",
            "a determinant not evaluated",
        ),
        (
            r"\boxed{\{x \mid x^2 = 4\}}",
            r"\{-2, 2\}",
            "the problem as a set",
            r"Find all $x$ with $x^2 = 4$.",
        ),
        (r"\boxed{\lim_{x\to 0}\frac{\sin x}{x}}", r"1", "a limit not evaluated"),
        (r"\boxed{\gcd(12, 18)}", r"6", "a gcd not evaluated"),
        (r"\boxed{17 \times 23}", r"391", "a product not evaluated", r"What is $17 \times 23$?"),
        ("\\boxed{(2x)^2}", "4x^2", "the problem restated", "Simplify $(2x)^2$."),
        ("\\boxed{\\sqrt{2}\\sqrt{3}}", "\\sqrt{6}", "a product of radicals not carried out"),
        ("\\boxed{\\frac{\\sqrt{8}}{2}}", "\\sqrt{2}", "an unsimplified radical"),
        ("\\boxed{\\frac{3}{\\sqrt{3}}}", "\\sqrt{3}", "an unrationalised denominator"),
        ("\\boxed{\\log_2 8}", "3", "a logarithm not evaluated"),
        ("\\boxed{\\sin\\frac{\\pi}{6}}", "\\frac{1}{2}", "a sine not evaluated"),
        ("\\boxed{\\sum_{k=1}^{10} k}", "55", "a sum not evaluated"),
        ("\\boxed{|{-5}|}", "5", "an absolute value not evaluated"),
        (
            "\\boxed{\\begin{pmatrix}2&0\\\\0&2\\end{pmatrix}^{-1}}",
            "\\begin{pmatrix}\\frac12&0\\\\0&\\frac12\\end{pmatrix}",
            "an inverse not carried out",
        ),
        ("\\boxed{\\{1,2,3\\}\\setminus\\{2\\}}", "\\{1,3\\}", "a set difference not carried out"),
        ("\\boxed{(0,2)\\cap(1,3)}", "(1,2)", "an intersection not carried out"),
        (
            "\\boxed{\\frac{3}{4} \\cdot 20}",
            "15",
            "the problem restated",
            "What is $\\frac{3}{4}$ of $20$?",
        ),
    ],
)

KIND_CONFUSIONS = _wrong(
    "kind_confusions",
    [
        (r"\boxed{y = 4, x = 3}", r"(4, 3)", "the point is x = 4, y = 3"),
        (r"\boxed{x = 4, y = 3}", r"(3, 4)", "the point is x = 3, y = 4"),
        (r"\boxed{x=1, x=2}", r"(1, 2)", "two roots, not an interval"),
        (
            r"\boxed{\begin{vmatrix}1&2\\3&4\end{vmatrix}}",
            r"\begin{pmatrix}1&2\\3&4\end{pmatrix}",
            "a determinant (-2), not the matrix",
        ),
        (
            r"\boxed{\begin{vmatrix}2&0\\0&3\end{vmatrix}}",
            r"\begin{pmatrix}2&0\\0&3\end{pmatrix}",
            "a determinant (6), not the matrix",
        ),
        (
            r"\boxed{\begin{pmatrix}1&2\\3&4\end{pmatrix}}",
            r"-2",
            "the matrix, not its determinant",
        ),
        (r"\boxed{\frac{d}{dx} x^3}", r"x^2", "the derivative is 3x^2"),
        (r"\boxed{\frac{d}{dx}x^2}", r"x", "the derivative is 2x"),
        (r"\boxed{\frac{d}{dx}(x^4)}", r"x^3", "the derivative is 4x^3"),
        (r"\boxed{\frac{22}{7}}", r"3.14", "22/7 is 3.142857..."),
        (r"\boxed{3.14}", r"\frac{22}{7}", "22/7 is 3.142857..."),
        (r"\boxed{0.5\%}", r"0.5", "0.5 % is 0.005"),
        (r"\boxed{0.5\%}", r"\frac{1}{2}", "0.5 % is 1/200, not one half"),
        (r"\boxed{0.4}", r"12:30", "a time, not the ratio 12/30"),
        (r"\boxed{2:5}", r"12:30", "a time, not a ratio"),
        (r"\boxed{1 \quad 2}", r"12", "two numbers, not twelve"),
        (r"\boxed{1.2}", r"1,2", "a decimal, not the list 1, 2"),
        (r"\boxed{1, 2}", r"1.2", "a list, not a decimal"),
        (r"\boxed{12}", r"1,2", "twelve, not the list 1, 2"),
        (r"\boxed{[1, 2]}", r"\{1, 2\}", "an interval, not a two-element set"),
        (r"\boxed{\{3, 4\}}", r"(3, 4)", "a set, not an ordered point"),
        (r"\boxed{(3, 4)}", r"[3, 4]", "open, not closed"),
        (r"\boxed{(1, 2)}", r"x = 1, x = 2", "an interval or point, not two roots"),
        (r"\boxed{(4, 3)}", r"(3, 4)", "the coordinates swapped"),
        (
            "\\boxed{\\binom{4}{2}}",
            "\\begin{pmatrix}4\\\\2\\end{pmatrix}",
            "a binomial coefficient (6), not a vector",
        ),
        ("\\boxed{\\begin{pmatrix}4\\\\2\\end{pmatrix}}", "6", "a vector, not the binomial 6"),
        ("\\boxed{5!}", "5", "5! is 120"),
        ("\\boxed{3!}", "3", "3! is 6"),
        ("\\boxed{2^{3^2}}", "64", "2^9 is 512"),
        ("\\boxed{-2^2}", "4", "-2^2 is -4"),
        ("\\boxed{\\frac{1}{2}x}", "\\frac{1}{2x}", "x/2, not 1/(2x)"),
        ("\\boxed{\\sin^{-1} x}", "\\frac{1}{\\sin x}", "arcsin, not a reciprocal"),
        ("\\boxed{0.\\overline{3}}", "0.3", "a repeating decimal is 1/3"),
        ("\\boxed{3:45}", "3.45", "a time, not a decimal"),
        ("\\boxed{\\{1, 2\\}}", "(1, 2)", "a two-element set, not an interval"),
        ("\\boxed{3, 5}", "3.5", "a list, not a decimal"),
    ],
)

PROBES = (
    LEFT_SIDE
    + UNIT_WORDS
    + DIGIT_SPACES
    + WORDS_BEFORE_MARKED
    + AND_INEQUALITIES
    + QUALIFIERS
    + HEDGES
    + NON_MARKERS
    + EOS_TOKENS
    + SAMPLING_GAMING
    + TINY_OFFSETS
    + RESTATEMENTS
    + KIND_CONFUSIONS
)

NATURAL = (
    _right(
        "integer",
        [
            ("We add 17 and 25 to get 42.\n\nThe answer is $\\boxed{42}$.", r"42", "boxed"),
            (r"So there are $\boxed{120}$ ways.", r"120", "boxed"),
            (r"Therefore, the remainder is \boxed{3}.", r"3", "boxed"),
            ("**Final Answer**\n\\[\n\\boxed{-7}\n\\]", r"-7", "display box"),
            (r"Thus $n = \boxed{2024}$.", r"2024", "boxed"),
            (r"Adding them gives 15. The answer is 15.", r"15", "the answer is"),
            (
                r"Final Answer: The final answer is $36$. I hope it is correct.",
                r"36",
                "Minerva's format",
            ),
            ("The product is 8.\nAnswer: 8", r"8", "an Answer: line"),
            (r"\boxed{1,000,000}", r"1000000", "thousands commas"),
            (r"The total cost is $\boxed{\$45}$.", r"45", "a dollar sign"),
            (r"So the sum of the digits is $\boxed{27}$.</s>", r"27", "an end token at the end"),
            (
                r"Hence the answer is \(\boxed{0}\).<｜end▁of▁sentence｜>",
                r"0",
                "DeepSeek's end token at the end",
            ),
            ("<think>2+2=4</think>\nThe answer is $\\boxed{4}$.", r"4", "after a think block"),
            (r"So the final answer is $\boxed{13}$<|im_end|>", r"13", "ChatML end token"),
            (r"The answer is $\boxed{3 \times 10^{5}}$.", r"300000", "scientific notation"),
        ],
    )
    + _right(
        "fraction",
        [
            (r"The ratio simplifies to $\boxed{\frac{3}{4}}$.", r"\frac{3}{4}", "same"),
            (r"The probability is $\boxed{\dfrac{5}{12}}$.", r"\frac{5}{12}", "dfrac"),
            (r"\boxed{0.75}", r"\frac{3}{4}", "exact decimal"),
            (r"\boxed{\frac{3}{4}}", r"0.75", "exact fraction of a decimal gold"),
            (r"\boxed{-\frac{1}{2}}", r"-\frac12", "brace-less gold"),
            (r"\boxed{\frac{-1}{2}}", r"-\frac{1}{2}", "sign in the numerator"),
            (r"\boxed{3/8}", r"\frac{3}{8}", "a slash"),
            (r"\boxed{\tfrac{7}{3}}", r"\frac{7}{3}", "tfrac"),
            (r"\boxed{2\frac{1}{3}}", r"\frac{7}{3}", "a mixed number"),
            (r"\boxed{\frac{\pi}{4}}", r"\frac{\pi}{4}", "same"),
            ("\\boxed{0.\\overline{3}}", "\\frac{1}{3}", "a repeating decimal"),
            ("\\boxed{\\dfrac{1}{2}}", "0.5", "a fraction for a decimal gold"),
            ("\\boxed{\\frac{9}{2}}", "4.5", "a fraction for a decimal gold"),
        ],
    )
    + _right(
        "radical",
        [
            (r"\boxed{2\sqrt{3}}", r"2\sqrt{3}", "same"),
            (r"\boxed{\frac{\sqrt{2}}{2}}", r"\frac{\sqrt{2}}{2}", "same"),
            (r"\boxed{3\sqrt{2}}", r"\sqrt{18}", "simplified, for an unsimplified gold"),
            (r"\boxed{\frac{\sqrt{3}}{3}}", r"\frac{1}{\sqrt{3}}", "rationalised, for a gold not"),
            (r"\boxed{5\sqrt{2}}", r"5\sqrt2", "brace-less gold"),
            (r"\boxed{\sqrt[3]{2}}", r"2^{1/3}", "a cube root"),
            (r"\boxed{4 + 2\sqrt{3}}", r"2\sqrt{3}+4", "terms reordered"),
            (r"\boxed{\frac{1+\sqrt{5}}{2}}", r"\frac{1+\sqrt5}{2}", "golden ratio"),
            (r"\boxed{-\frac{\sqrt{3}}{2}}", r"-\frac{\sqrt3}{2}", "negative radical"),
            ("\\boxed{\\frac{3\\sqrt{2}}{2}}", "\\frac{3}{\\sqrt{2}}", "rationalised"),
        ],
    )
    + _right(
        "expression",
        [
            (r"\boxed{(x+2)(x+3)}", r"(x+3)(x+2)", "factors reordered"),
            (r"\boxed{x^2+5x+6}", r"x^2 + 5x + 6", "spacing"),
            (r"\boxed{2x+1}", r"1+2x", "terms reordered"),
            (r"The area is $\boxed{\pi r^2}$.", r"\pi r^2", "same"),
            (r"\boxed{\frac{x+1}{x-1}}", r"\frac{x+1}{x-1}", "same"),
            (r"\boxed{3(x-1)^2}", r"3(x-1)^2", "same"),
            (r"The circumference is $\boxed{6\pi}$.", r"6\pi", "same"),
            (r"\boxed{2\pi}", r"2 \pi", "spacing"),
            (r"\boxed{e^{2}}", r"e^2", "braces"),
            (r"\boxed{\ln 2}", r"\ln(2)", "parentheses"),
            (r"\boxed{\infty}", r"\infty", "infinity"),
            ("\\boxed{\\frac{1}{4}\\pi}", "\\frac{\\pi}{4}", "another spelling"),
        ],
    )
    + _right(
        "interval",
        [
            (r"\boxed{(-\infty, 3)}", r"(-\infty,3)", "same"),
            (r"\boxed{[2, 5)}", r"[2,5)", "same"),
            (
                r"\boxed{(-\infty,-\sqrt{2})\cup(\sqrt{2},\infty)}",
                r"(-\infty,-\sqrt2)\cup(\sqrt2,\infty)",
                "irrational ends",
            ),
            (r"\boxed{(-\infty, -\sqrt{2}]}", r"(-\infty,-\sqrt{2}]", "irrational end"),
            (r"\boxed{x > 3}", r"(3, \infty)", "an inequality for an interval"),
            (r"\boxed{-1 \le x \le 3}", r"[-1, 3]", "a chained inequality"),
            (r"\boxed{x > 0 \text{ and } x < 5}", r"(0, 5)", "and of two inequalities"),
            (r"\boxed{(0, 5)}", r"0 < x < 5", "an interval for an inequality"),
            (r"\boxed{[0, \infty)}", r"x \ge 0", "an interval for an inequality"),
            (r"\boxed{(-\infty, 1) \cup (2, \infty)}", r"(-\infty,1)\cup(2,\infty)", "union"),
            (r"\boxed{\mathbb{R}}", r"(-\infty, \infty)", "the reals"),
            (r"\boxed{|x| \le 2}", r"[-2, 2]", "an absolute-value inequality"),
            (r"\boxed{x \neq 3}", r"(-\infty,3)\cup(3,\infty)", "all but 3"),
            ("\\boxed{x \\in (0, 5)}", "(0, 5)", "membership"),
            ("\\boxed{(-\\infty, 0) \\cup (0, \\infty)}", "x \\neq 0", "all but 0"),
        ],
    )
    + _right(
        "set",
        [
            (r"\boxed{\{1, 2, 3\}}", r"\{3, 2, 1\}", "a set in another order"),
            (r"\boxed{\pm 3}", r"3, -3", "plus or minus"),
            (r"\boxed{x = \pm 3}", r"-3, 3", "plus or minus, named"),
            (r"The solutions are $\boxed{1, 2}$.", r"1, 2", "a list"),
            (r"\boxed{2, 1}", r"1, 2", "roots in another order"),
            (r"\boxed{x = 1, x = 2}", r"1, 2", "named roots"),
            (r"\boxed{\{x \mid x > 3\}}", r"(3, \infty)", "set-builder"),
            (r"\boxed{\{x : x > 3\}}", r"(3, \infty)", "set-builder with a colon"),
            (r"\boxed{\{x \in \mathbb{R} \mid x \ge 1\}}", r"[1, \infty)", "set-builder"),
            (r"\boxed{\emptyset}", r"\emptyset", "empty set"),
            (r"\boxed{\varnothing}", r"\emptyset", "another empty-set symbol"),
            ("\\boxed{-3, 3}", "\\pm 3", "the two values of a plus-minus gold"),
            ("\\boxed{x = 2 \\text{ or } x = -2}", "\\pm 2", "roots joined by or"),
            ("\\boxed{\\{-1, 1\\}}", "\\pm 1", "a set for a plus-minus gold"),
        ],
    )
    + _right(
        "text",
        [
            (r"\boxed{\text{no solution}}", r"\text{no solution}", "same words"),
            (r"\boxed{\text{No solution}}", r"\text{no solution}", "capitalised"),
            (r"\boxed{\text{all real numbers}}", r"(-\infty, \infty)", "the reals in words"),
            (r"\boxed{\text{even}}", r"\text{even}", "a word"),
            (r"The meeting falls on $\boxed{\text{Tuesday}}$.", r"\text{Tuesday}", "a word"),
            (r"The answer is \boxed{B}.", r"B", "a choice letter"),
            (r"Therefore, the answer is $\boxed{\text{(C)}}$", r"\text{(C)}", "a choice label"),
            ("\\boxed{\\text{odd}}", "\\text{odd}", "a word"),
            ("The answer is $\\boxed{\\textbf{(D)}}$.", "D", "a bold choice label"),
        ],
    )
    + _right(
        "tuple",
        [
            (r"The point is $\boxed{(3, 4)}$.", r"(3,4)", "same"),
            (r"\boxed{(x, y) = (3, 4)}", r"(3, 4)", "named point"),
            (r"\boxed{x = 3, y = 4}", r"(3, 4)", "coordinates named in order"),
            (r"\boxed{\left(\frac{1}{2}, -3\right)}", r"(\frac12,-3)", "left/right"),
            (r"\boxed{(1, 2, 3)}", r"(1,2,3)", "a triple"),
        ],
    )
    + _right(
        "matrix",
        [
            (
                r"\boxed{\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}}",
                r"\begin{pmatrix}1&2\\3&4\end{pmatrix}",
                "spacing",
            ),
            (
                r"\boxed{\begin{bmatrix} 2 & 0 \\ 0 & 2 \end{bmatrix}}",
                r"\begin{pmatrix}2&0\\0&2\end{pmatrix}",
                "brackets for parentheses",
            ),
            (
                r"\boxed{\begin{pmatrix} \frac{1}{2} \\ -1 \end{pmatrix}}",
                r"\begin{pmatrix} 1/2 \\ -1 \end{pmatrix}",
                "a column vector",
            ),
            (
                r"\boxed{\begin{pmatrix} 3 \\ -1 \\ 2 \end{pmatrix}}",
                r"\begin{pmatrix}3\\-1\\2\end{pmatrix}",
                "a column vector",
            ),
        ],
    )
    + _right(
        "equation",
        [
            (r"The line is $\boxed{y = 2x + 3}$.", r"y = 2x + 3", "same"),
            (r"\boxed{y = 3 + 2x}", r"y = 2x+3", "terms reordered"),
            (r"\boxed{x^2 + y^2 = 25}", r"x^2+y^2=25", "a circle"),
            (r"\boxed{x = 5}", r"5", "the value named"),
            (r"\boxed{5}", r"x = 5", "the value of a named gold"),
            (r"\boxed{3 = x}", r"x = 3", "sides swapped"),
            ("\\boxed{y = -\\frac{1}{2}x + 4}", "y = 4 - \\frac{x}{2}", "terms reordered"),
        ],
    )
    + _right(
        "named",
        [
            (r"\boxed{AB = 5}", r"5", "a side named"),
            (r"\boxed{\angle A = 60^\circ}", r"60^\circ", "an angle named"),
            (r"\boxed{f'(x) = 6x^2}", r"6x^2", "a derivative named"),
            (r"\boxed{\frac{dy}{dx} = 2x}", r"2x", "a derivative named"),
            (r"\boxed{f^{-1}(x) = \frac{x-3}{2}}", r"\frac{x-3}{2}", "an inverse named"),
            (r"\boxed{a = 4}", r"4", "a named value"),
            (r"\boxed{P(A) = \frac{1}{3}}", r"\frac{1}{3}", "a probability named"),
            ("So $n = 12$.\n\n**Answer:** $n = 12$", r"12", "an Answer: line"),
            ("**Answer:** $x = -1$", r"-1", "bold marker"),
            ("\\boxed{a + b = 7}", "7", "the asked-for sum named"),
            ("So $m + n = \\boxed{17}$.", "17", "a box after the named sum"),
        ],
    )
    + _right(
        "unit",
        [
            (r"\boxed{60^\circ}", r"60", "degrees"),
            (r"The side is $\boxed{12 \text{ cm}}$.", r"12", "a unit the gold leaves out"),
            (r"\boxed{25\%}", r"25", "a percent for a percent gold"),
            (r"\boxed{5 \text{ meters}}", r"5", "a unit word"),
            (r"\boxed{\$18.50}", r"18.50", "dollars"),
            (r"It takes $\boxed{3 \text{ hours}}$.", r"3", "a unit word"),
            ("\\boxed{90^{\\circ}}", "90^\\circ", "degrees with braces"),
            ("\\boxed{\\$1{,}250}", "1250", "dollars with a braced comma"),
            ("\\boxed{2.50}", "2.5", "a trailing zero"),
            ("\\boxed{6 \\text{ km}}", "6000 \\text{ m}", "the same length in other units"),
        ],
    )
    + _right(
        "marker",
        [
            (r"The answer is: $\frac{1}{2}$", r"\frac{1}{2}", "a colon marker"),
            (r"Final answer: \(2\sqrt{5}\)", r"2\sqrt{5}", "inline parentheses"),
            (r"\boxed{12:30}", r"12:30", "a time"),
        ],
    )
)

# Written after the first run of the table above, from what its answers suggested (still without
# reading the normaliser): what surrounds a box or a marked value, more number words and units,
# and natural spellings of the kinds it refused. They are kept apart because they were aimed at
# places already seen to be weak: `NATURAL`'s refusal rate is measured on the blind set only.
LATER_PROBES = (
    _wrong(
        "words_before_marked",
        [
            (r"The answer is $5$ plus $2$.", r"5", "5 plus 2 is 7"),
            (r"The answer is $5$ divided by $2$.", r"5", "5 divided by 2 is 5/2"),
            (r"The answer is $5$ to the power $2$.", r"5", "5 to the power 2 is 25"),
            (r"$\boxed{5}$ times $2$ is the answer.", r"5", "the answer is 10"),
            (r"\boxed{5} \text{ squared}", r"5", "25"),
            (r"\boxed{5}^2", r"5", "the box is squared: 25"),
            (r"\boxed{5}!", r"5", "the box's factorial: 120"),
            (r"\boxed{5}^{-1}", r"5", "the box's reciprocal: 1/5"),
            (r"-\boxed{5}", r"5", "the box negated: -5"),
            (r"\boxed{5} - 1", r"5", "4"),
            (r"2\boxed{5}", r"5", "twice the box: 10"),
            (r"\sqrt{\boxed{16}}", r"16", "the box under a root: 4"),
            (r"\frac{1}{\boxed{5}}", r"5", "the box in a denominator: 1/5"),
            (r"$\boxed{5}$ thousand", r"5", "5000"),
            (r"\boxed{5}\text{ thousand}", r"5", "5000"),
        ],
    )
    + _wrong(
        "qualifiers_negations",
        [
            (r"\boxed{5} is wrong.", r"5", "the box is disowned"),
            (r"$x = \boxed{5}$ is not the answer.", r"5", "the box is disowned"),
        ],
    )
    + _wrong(
        "unit_words",
        [
            (r"\boxed{2 \text{ tenths}}", r"2", "2 tenths is 0.2"),
            (r"\boxed{2 \text{ halves}}", r"2", "2 halves is 1"),
            (r"\boxed{3 \text{ quarters}}", r"3", "3 quarters is 3/4"),
            (r"\boxed{2 \text{ gross}}", r"2", "2 gross is 288"),
            (r"\boxed{5}\,\text{km}", r"5\,\text{m}", "5 km is 5000 m"),
            (r"\boxed{5} \text{ km}", r"5 \text{ m}", "5 km is 5000 m"),
            (r"\boxed{5 \text{ radians}}", r"5^\circ", "5 radians is about 286 degrees"),
            (r"\boxed{5^\circ}", r"5 \text{ radians}", "5 degrees is about 0.087 radians"),
        ],
    )
    + _wrong(
        "hedges_revisions",
        [
            (
                "The answer is $\\boxed{5}$. (Though $7$ is also plausible.)",
                "5",
                "a second value offered after the box",
            ),
            ("$\\boxed{5}$; $7$ would also work.", "5", "a second value offered after the box"),
            ("\\boxed{5 \\text{ sometimes}}", "5", "not always 5"),
            ("\\boxed{5 \\text{ tops}}", "5", "at most 5"),
        ],
    )
    + _wrong(
        "sampling_gaming",
        [
            ("\\boxed{x + 0^{x^2}}", "x", "x + 1 at x = 0 (0^0), x elsewhere"),
        ],
    )
    + _wrong(
        "restatement_unsimplified",
        [
            (
                "\\boxed{1 \\cdot (x^2 - 4)}",
                "(x-2)(x+2)",
                "the problem times one",
                "Factor $x^2 - 4$ completely.",
            ),
            ("\\boxed{-(4 - x^2)}", "(x-2)(x+2)", "not factored", "Factor $x^2 - 4$ completely."),
            (
                "\\boxed{(x^2-4)(x^2+4)}",
                "(x-2)(x+2)(x^2+4)",
                "not factored completely",
                "Factor $x^4 - 16$ completely.",
            ),
            (
                "\\boxed{\\frac{4x}{2}}",
                "2x",
                "a fraction not reduced",
                "Simplify $\\frac{x}{2} \\cdot 4$.",
            ),
        ],
    )
)

LATER_NATURAL = _right(
    "later",
    [
        (r"\boxed{\sin^{-1} x}", r"\arcsin x", "sin^-1 is arcsin"),
        (r"\boxed{\tan^{-1}(2)}", r"\arctan 2", "tan^-1 is arctan"),
        (r"\boxed{50\text{ cents}}", r"\$0.50", "50 cents is half a dollar"),
        (r"\boxed{\frac{\pi}{2} \text{ radians}}", r"\frac{\pi}{2}", "a radian unit"),
        (r"\boxed{\{x \mid x \ne 0\}}", r"(-\infty,0)\cup(0,\infty)", "set-builder"),
        (r"\boxed{5}", r"5^\circ C", "a temperature gold, the unit left out"),
        (r"\boxed{\text{five}}", r"5", "a number word"),
        (r"\boxed{2\text{ hours } 30\text{ minutes}}", r"2.5 \text{ hours}", "a compound duration"),
        (r"\boxed{2x + K}", r"2x + C", "another name for the constant", r"Integrate $2$."),
    ],
)
