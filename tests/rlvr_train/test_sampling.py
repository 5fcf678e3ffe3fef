"""pass@k and the evaluation summary."""

from __future__ import annotations

import pytest

from rlvr_train.sampling import pass_at_k, summarise


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (4, 0, 1, 0.0),
        (4, 4, 1, 1.0),
        (4, 1, 1, 0.25),
        (4, 1, 4, 1.0),
        (4, 2, 2, 1 - 1 / 6),
        (10, 3, 5, 1 - 21 / 252),
    ],
)
def test_pass_at_k_is_the_unbiased_estimator(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_needs_enough_samples() -> None:
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_summary_drops_unscored_samples_from_accuracy() -> None:
    summary = summarise([[1.0, 0.0], [None, 0.0]], ks=[1, 2])
    assert summary["accuracy"] == pytest.approx(1 / 3)
    assert summary["unscored"] == 0.25
    assert summary["pass@2"] == 0.5 and summary["pass@1"] == 0.25
