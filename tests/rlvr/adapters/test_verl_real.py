"""The verl adapter inside verl's own reward managers (real path, no GPU needed).

verl's wheel installs without its GPU stack (`pip install --no-deps verl==0.9.1`, see
scripts/setup.sh); `DataProto` needs `tensordict` and `ray` (dev and ray extras). Its
`BatchRewardManager` / `NaiveRewardManager` decode the responses and call our functions
exactly as during training. `test_verl.py` covers the same functions with verl's call shapes.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import torch

from rlvr.adapters import verl as adapter
from tests.support.packages import require_packages

require_packages("verl", "tensordict")  # imported by the tests below, through verl

WORDS = [
    "<pad>",
    "<unk>",
    "Q",
    "\\boxed{4}",
    "\\boxed{5}",
    "so",
    "\\boxed{2\\sin x\\cos x}",
    "\\boxed{\\sin(2x)}",
]


def _tokenizer() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", unk_token="<unk>")


def _batch(
    responses: list[list[str]], ground_truths: list[Any], extra_infos: list[Any] | None = None
) -> Any:
    """A DataProto as verl's rollout leaves it: left-padded prompts, right-padded responses."""
    from verl import DataProto

    ids = {w: i for i, w in enumerate(WORDS)}
    width = max(len(r) for r in responses)
    prompts = torch.tensor([[ids["Q"]]] * len(responses))
    padded = [[ids[w] for w in r] + [0] * (width - len(r)) for r in responses]
    mask = [[1] + [1] * len(r) + [0] * (width - len(r)) for r in responses]
    return DataProto.from_dict(
        tensors={
            "prompts": prompts,
            "responses": torch.tensor(padded),
            "attention_mask": torch.tensor(mask),
        },
        non_tensors={
            "data_source": np.array(["math"] * len(responses), dtype=object),
            "reward_model": np.array([{"ground_truth": g} for g in ground_truths], dtype=object),
            "extra_info": np.array(extra_infos or [{} for _ in responses], dtype=object),
        },
    )


RESPONSES = [["so", "\\boxed{4}"], ["\\boxed{5}"], ["so", "so", "\\boxed{5}"]]
TRUTHS = ["4", "4", {"domain": "math", "answer": "5"}]
EXPECTED = [1.0, 0.0, 1.0]


def _last_token_rewards(reward_tensor: Any) -> list[float]:
    return [float(row[len(r) - 1]) for row, r in zip(reward_tensor, RESPONSES, strict=True)]


def test_batch_reward_manager_with_compute_score_batch(verifier_url: str) -> None:
    from verl.workers.reward_manager import BatchRewardManager

    manager = BatchRewardManager(
        _tokenizer(), 0, compute_score=adapter.compute_score_batch, base_url=verifier_url
    )
    out: Any = manager(_batch(RESPONSES, TRUTHS), return_dict=True)
    assert _last_token_rewards(out["reward_tensor"]) == EXPECTED
    assert out["reward_extra_info"]["passed"] == EXPECTED
    assert out["reward_extra_info"]["verifier_error"] == [0.0, 0.0, 0.0]


def test_naive_reward_manager_with_compute_score(verifier_url: str) -> None:
    from verl.workers.reward_manager import NaiveRewardManager

    # verl binds custom_reward_function.reward_kwargs the same way (functools.partial).
    compute_score = functools.partial(adapter.compute_score, base_url=verifier_url)
    manager = NaiveRewardManager(_tokenizer(), 0, compute_score=compute_score)
    out: Any = manager(_batch(RESPONSES, TRUTHS), return_dict=True)
    assert _last_token_rewards(out["reward_tensor"]) == EXPECTED
    assert out["reward_extra_info"]["score"] == EXPECTED


def test_verl_loads_the_adapter_by_package_path(verifier_url: str) -> None:
    """The documented config (`custom_reward_function.path=pkg://rlvr.adapters.verl`) resolves
    through verl's own loader to our function, from wherever `rlvr` is installed."""
    from omegaconf import OmegaConf
    from verl.trainer.ppo.reward import get_custom_reward_fn

    config = OmegaConf.create(
        {
            "reward": {
                "custom_reward_function": {
                    "path": "pkg://rlvr.adapters.verl",
                    "name": "compute_score",
                    "reward_kwargs": {"base_url": verifier_url},
                }
            }
        }
    )
    compute_score = get_custom_reward_fn(config)
    assert compute_score is not None
    scored = compute_score("math", "so \\boxed{4}", "4")
    assert scored["score"] == 1.0
    assert compute_score("math", "so \\boxed{5}", "4")["score"] == 0.0


def test_a_restated_problem_expression_earns_nothing_in_both_managers(verifier_url: str) -> None:
    """verl's gsm8k-style preprocessing keeps the question in `extra_info`; the adapter sends it
    as the math item's `problem`, so `2\\sin x\\cos x` (equal to the ground truth `\\sin(2x)`,
    but the problem's own expression) earns nothing, while `\\sin(2x)` does, and so does the
    restated expression where no question says it is one."""
    from verl.workers.reward_manager import BatchRewardManager, NaiveRewardManager

    responses = [["\\boxed{2\\sin x\\cos x}"], ["\\boxed{\\sin(2x)}"], ["\\boxed{2\\sin x\\cos x}"]]
    question = {"question": "Write $2\\sin x\\cos x$ as one trigonometric function."}
    extras = [dict(question), dict(question), {}]  # the last row has no question: not refused
    expected = [0.0, 1.0, 1.0]
    batch_manager = BatchRewardManager(
        _tokenizer(), 0, compute_score=adapter.compute_score_batch, base_url=verifier_url
    )
    out: Any = batch_manager(_batch(responses, ["\\sin(2x)"] * 3, extras), return_dict=True)
    assert out["reward_extra_info"]["passed"] == expected
    compute_score = functools.partial(adapter.compute_score, base_url=verifier_url)
    naive = NaiveRewardManager(_tokenizer(), 0, compute_score=compute_score)
    extras = [dict(question), dict(question), {}]
    out = naive(_batch(responses, ["\\sin(2x)"] * 3, extras), return_dict=True)
    assert out["reward_extra_info"]["score"] == expected
