"""What a response commits to (issue 27): the whole marked statement, a box with what touches
it, the text up to the end of the sequence. Variants of the fresh probes' families, written
apart from `fresh_probes.py`, judged by the real pipeline in-process; natural spellings beside
them must keep passing."""

from __future__ import annotations

import pytest

from tests.support.math_judge import judge_in_process

WRONG = [
    # words before, between or after a marked value change it
    ("The answer is thrice $5$.", "5"),
    ("Answer: the negative of $6$", "6"),
    ("The final answer is one more than $4$.", "4"),
    ("Answer: $5$ cubed", "5"),
    ("The answer is 5 squared.", "5"),
    ("The answer is 5 thousand.", "5"),
    ("The answer is $5$ less $2$.", "5"),
    ("Answer: 2 times $5$", "5"),
    ("The answer is half of 8.", "8"),
    ("The answer is approximately $7$.", "7"),
    # a box that is an operand of the math around it
    ("\\boxed{5}\\cdot 2", "5"),
    ("\\boxed{5} \\times 10^3", "5"),
    ("10^{\\boxed{3}}", "3"),
    ("x\\boxed{5}", "5"),
    ("2*\\boxed{4}", "4"),
    ("$3 + \\boxed{5}$", "5"),
    ("\\boxed{4}^{3}", "4"),
    ("\\left(\\boxed{5}\\right)^2", "5"),
    ("\\boxed{5}\\text{ million}", "5"),
    ("\\boxed{5}\\,\\text{kg}", "5\\,\\text{g}"),
    ("$\\boxed{5}$ hundred", "5"),
    # a box the text disowns, a supposition, a second value offered as valid
    ("\\boxed{5} is incorrect.", "5"),
    ("$\\boxed{5}$ was my first guess, but I am unsure.", "5"),
    ("Assume the answer is $12$.", "12"),
    ("I wonder whether the answer is $12$.", "12"),
    ("\\boxed{5}. $6$ would also be a valid answer.", "5"),
    ("\\boxed{5}, which is wrong.", "5"),
    ("The answer is $\\boxed{5}$, which is wrong.", "5"),
    ("Is the answer \\boxed{5}?", "5"),
    ("$\\boxed{5}$; $7$ also works.", "5"),
    # the response ends at its first end-of-sequence token
    ("\\boxed{7}<|eot_id|>\\boxed{5}", "5"),
    ("Answer: 7<|endoftext|>Answer: 5", "5"),
    ("\\boxed{7}<｜end▁of▁sentence｜>The answer is $5$.", "5"),
    # kinds
    ("\\boxed{2, 5}", "2.5"),
    ("\\boxed{[1, 2]}", "x = 1, x = 2"),
    ("\\boxed{\\cos^{-1} x}", "\\frac{1}{\\cos x}"),
]

RIGHT = [
    ("Thus the answer is 4 and nothing else.", "4"),
    ("The answer is therefore $\\frac{1}{2}$.", "\\frac{1}{2}"),
    ("The final answer is $5$ apples.", "5"),
    ("So the answer is $x = 3$, since $2x = 6$.", "3"),
    ("If we add them, the answer is $12$.", "12"),
    ("I think the answer is $12$.", "12"),
    ("The answer is option B.", "B"),
    ("$$\\boxed{42}$$", "42"),
    ("\\[\\boxed{x = 3}\\]", "3"),
    ("So, $\\boxed{120}$ ways.", "120"),
    ("$x = \\boxed{5}$", "5"),
    ("$\\therefore \\boxed{5}$", "5"),
    ("\\boxed{25}\\%", "25\\%"),
    ("\\boxed{60}^\\circ", "60^\\circ"),
    ("$\\boxed{5}$ cm", "5"),
    ("$\\boxed{12}$ is the answer.", "12"),
    ("\\boxed{5}\\,\\text{m}", "5\\,\\text{m}"),
    ("\\boxed{12}, although this took a while.", "12"),
    ("\\boxed{5}. Note that 12 is also divisible by 3.", "5"),
    ("\\boxed{5}</s>", "5"),
    ("\\boxed{5}, not 7.", "5"),
    ("**\\boxed{4}**", "4"),
    ("(\\boxed{4})", "4"),
    ("\x00\\boxed{4}", "4"),
    ("So the total is $\\boxed{12}$, which is the number of apples.", "12"),
    ("\\boxed{1,2}", "1.2"),
    ("\\boxed{\\cos^{-1} x}", "\\arccos x"),
]


@pytest.mark.parametrize(("response", "answer"), WRONG)
def test_a_changed_or_uncommitted_value_scores_zero(response: str, answer: str) -> None:
    is_equal, detail = judge_in_process(response, answer)
    assert not is_equal, detail


@pytest.mark.parametrize(("response", "answer"), RIGHT)
def test_a_natural_commitment_still_passes(response: str, answer: str) -> None:
    is_equal, detail = judge_in_process(response, answer)
    assert is_equal, detail
