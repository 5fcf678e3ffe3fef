"""Real `GRPOTrainer` steps (TRL) on a tiny local model, rewarded by `math_reward` over HTTP.

The model is a 2-layer Llama built from a config; its tokenizer is a word-level vocabulary
trained here with `tokenizers` (no model hub is reachable). One of its words is `\\boxed{4}`, and
no other number, so a random generation either holds the right final answer or none: the test
checks each reward TRL received against that, and that the status counts reached TRL's logs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rlvr import VerifierClient
from rlvr.adapters.trl import math_reward as adapter_math_reward
from tests.support.packages import require_packages

pytestmark = pytest.mark.slow

trl, torch = require_packages("trl", "torch")

RIGHT = "\\boxed{4}"
CORPUS = [
    f"What is two plus two ? {RIGHT} so the answer is",
    "Think step by step and put the final answer last .",
]


def _tokenizer() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.WordLevel(unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.train_from_iterator(
        CORPUS, trainers.WordLevelTrainer(special_tokens=["<pad>", "<eos>", "<unk>"])
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>"
    )


def _model(tokenizer: Any) -> Any:
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    torch.manual_seed(0)
    return LlamaForCausalLM(config)


def test_grpo_trainer_steps_with_math_reward_over_http(
    verifier_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datasets import Dataset

    tokenizer = _tokenizer()
    dataset = Dataset.from_dict({"prompt": ["What is two plus two ?"] * 8, "answer": ["4"] * 8})
    monkeypatch.setenv("VERIFIER_URL", verifier_url)  # what the module-level function reads
    inner = adapter_math_reward
    seen: list[tuple[str, float | None]] = []
    received_kwargs: set[str] = set()

    # Records what TRL passed and got back; otherwise it is the adapter's own function.
    async def math_reward(prompts: list, completions: list, **columns: Any) -> list:
        received_kwargs.update(columns)
        rewards = await inner(prompts, completions, **columns)
        seen.extend(zip(completions, rewards, strict=True))
        return rewards

    args = trl.GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=8,
        num_generations=4,
        max_completion_length=6,
        max_steps=3,
        learning_rate=1e-3,
        logging_steps=1,
        report_to=[],
        save_strategy="no",
        use_cpu=True,
        seed=0,
        temperature=1.0,
    )
    trainer = trl.GRPOTrainer(
        model=_model(tokenizer),
        reward_funcs=[math_reward],
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
    )
    trainer.train()

    assert trainer.state.global_step == 3
    assert len(seen) == 3 * 8
    # Each reward is the service's own verdict on that completion (asked here directly), and
    # one without the right box never scores. (Which stray toy-model words after the box a
    # grader accepts is /math's rule, tested in tests/rlvr/verifier/domains/math: `\boxed{4}
    # Think` reads as "4 Think", a value with an unknown word, not 4.)
    with VerifierClient(verifier_url) as client:
        verdicts = client.math([{"response": c, "answer": "4"} for c, _ in seen])
    for (completion, reward), verdict in zip(seen, verdicts, strict=True):
        assert reward == verdict.reward, completion
        if RIGHT not in completion.split():
            assert reward == 0.0, completion
    rewards = [r for _, r in seen]
    assert 1.0 in rewards and 0.0 in rewards  # both verdicts really happened
    assert {"answer", "log_metric", "trainer_state"} <= received_kwargs

    logged = [entry for entry in trainer.state.log_history if "math_reward/passed" in entry]
    assert len(logged) == 3
    for entry in logged:
        counts = [entry[f"math_reward/{s}"] for s in ("passed", "failed", "timed_out", "error")]
        assert sum(counts) == 8
        assert entry["math_reward/error"] == 0
    total_passed = sum(entry["math_reward/passed"] for entry in logged)
    assert total_passed == sum(r or 0.0 for r in rewards)
    statuses = list(trainer._logs["extra"]["math_reward/status"])  # the completions table
    assert statuses and set(statuses) <= {"passed", "failed"}
    assert statuses.count("passed") == sum(1 for r in rewards[-len(statuses) :] if r == 1.0)
