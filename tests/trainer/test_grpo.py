"""The GRPO stage's contract with TRL's private methods, which `TimedGRPOTrainer` wraps."""

from __future__ import annotations

import inspect

from trl import GRPOTrainer

from trainer.grpo import TimedGRPOTrainer


def test_the_private_trl_methods_we_wrap_keep_their_signatures() -> None:
    """pyproject.toml pins TRL below its next minor release because of these overrides; when
    the pin is raised, this says whether the wrapped signatures still hold."""
    assert list(inspect.signature(GRPOTrainer._generate).parameters) == ["self", "prompts"]
    assert list(inspect.signature(GRPOTrainer._calculate_rewards).parameters) == [
        "self",
        "inputs",
        "prompts",
        "completions",
        "completion_ids_list",
    ]
    assert "self._metrics = " in inspect.getsource(GRPOTrainer.__init__)
    assert TimedGRPOTrainer._generate is not GRPOTrainer._generate
