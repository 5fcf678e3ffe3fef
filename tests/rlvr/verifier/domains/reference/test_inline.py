"""InlineVerifier: one item whose judging raises is that item's `error`; its batch is judged."""

from __future__ import annotations

from rlvr.schemas.choice import ChoiceItem, ChoiceResult
from rlvr.schemas.common import Status
from rlvr.verifier.domains.choice.config import ChoiceSettings
from rlvr.verifier.domains.choice.verifier import ChoiceVerifier, judge_choice
from rlvr.verifier.domains.reference.inline import InlineVerifier


def _judge_that_breaks_on(bad_id: str):
    def judge(item: ChoiceItem) -> ChoiceResult:
        if item.id == bad_id:
            raise RuntimeError("a bug of ours")
        return judge_choice(item)

    return judge


async def test_an_item_the_judge_raises_on_is_its_own_error_and_the_rest_are_judged() -> None:
    verifier = InlineVerifier("choice", ChoiceSettings(), _judge_that_breaks_on("b"), ChoiceResult)
    items = [
        ChoiceItem(id="a", response="The answer is B.", answer="B"),
        ChoiceItem(id="b", response="The answer is B.", answer="B"),
        ChoiceItem(id="c", response="The answer is C.", answer="B"),
    ]
    results = await verifier.verify_batch(items)
    assert [r.id for r in results] == ["a", "b", "c"]
    assert [r.status for r in results] == [Status.passed, Status.error, Status.failed]
    assert results[1].reward is None and "internal error" in results[1].detail
    assert verifier.health().stats["judged_items"] == 3


async def test_the_choice_verifier_is_the_inline_verifier_with_its_judge() -> None:
    verifier = ChoiceVerifier(ChoiceSettings())
    (result,) = await verifier.verify_batch([ChoiceItem(response=r"\boxed{D}", answer="D")])
    assert result.status is Status.passed and result.reward == 1.0
