"""Around TRL's trainers: which checkpoint `--resume_from_checkpoint` means, loading arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr_train.config import ModelArguments
from rlvr_train.errors import UsageError
from rlvr_train.runs import prepare_init_kwargs, resume_target


def checkpoint(root: Path, step: int) -> Path:
    folder = root / f"checkpoint-{step}"
    folder.mkdir(parents=True)
    (folder / "trainer_state.json").write_text("{}")
    return folder


@pytest.mark.parametrize("value", [None, "", "false", "False", "no", "0", "none", False])
def test_no_resume(value: str | bool | None, tmp_path: Path) -> None:
    checkpoint(tmp_path, 4)
    assert resume_target(value, tmp_path) is None


@pytest.mark.parametrize("value", ["true", "True", "last", "yes", "1", True])
def test_true_means_the_newest_checkpoint_by_step_not_by_name(
    value: str | bool, tmp_path: Path
) -> None:
    checkpoint(tmp_path, 9)
    newest = checkpoint(tmp_path, 10)  # "checkpoint-10" sorts before "checkpoint-9" as text
    assert resume_target(value, tmp_path) == str(newest)


def test_true_without_a_checkpoint_starts_fresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert resume_target("true", tmp_path / "never-run") is None
    assert resume_target("true", tmp_path) is None
    assert "training from the start" in capsys.readouterr().out


def test_a_path_must_be_a_checkpoint(tmp_path: Path) -> None:
    folder = checkpoint(tmp_path, 3)
    assert resume_target(str(folder), tmp_path / "elsewhere") == str(folder)
    with pytest.raises(UsageError, match="not a checkpoint"):
        resume_target(str(tmp_path / "checkpoint-7"), tmp_path)
    with pytest.raises(UsageError, match="not a checkpoint"):
        resume_target(str(tmp_path), tmp_path)  # the run folder itself is not a checkpoint


def test_the_users_model_init_kwargs_win_over_model_config() -> None:
    from trl import GRPOConfig

    args = GRPOConfig(
        output_dir="x", bf16=False, model_init_kwargs={"dtype": "float32", "use_cache": False}
    )
    prepare_init_kwargs(args, ModelArguments(dtype="bfloat16", attn_implementation="eager"))
    assert args.model_init_kwargs == {
        "revision": "main",
        "trust_remote_code": False,
        "attn_implementation": "eager",
        "dtype": "float32",
        "use_cache": False,
    }
