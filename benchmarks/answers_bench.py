"""`/choice`, `/answer` and `/gym` vs what trainers call today, side by side in one run.

    .venv/bin/python benchmarks/answers_bench.py             # starts its own service
    .venv/bin/python benchmarks/answers_bench.py --url http://127.0.0.1:8000

`/choice` and `/answer`: accuracy on our labelled tables (tests/support/reference_tables:
natural rows, and adversarial rows that must never pass) and items/s, against Math-Verify used
as people use it, in this process: `verify(parse(gold), parse(response))` with its defaults
(for aliases: any alias that verifies). Our service is called over HTTP in batches.
`/gym`: items/s per reasoning-gym task family (its sub-package: arithmetic, games, …), half
right answers and half garbage, against reasoning-gym's own `extract_answer` + `score_answer`
called in this process on the same entries (scorers built before the clock starts; the
service gets one untimed pass for the same reason).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.verifier.testing import running_service  # noqa: E402
from tests.support.reference_tables.answer_cases import ANSWER_CASES  # noqa: E402
from tests.support.reference_tables.choice_cases import CHOICE_CASES  # noqa: E402

BATCH = 1024


@dataclass
class Score:
    natural_right: int = 0
    natural_total: int = 0
    false_positives: int = 0
    adversarial_total: int = 0

    def add(self, is_adversarial: bool, is_correct: bool, passed: bool) -> None:
        if is_adversarial:
            self.adversarial_total += 1
            self.false_positives += passed
        else:
            self.natural_total += 1
            self.natural_right += passed is is_correct

    @property
    def natural(self) -> str:
        return f"{100 * self.natural_right / max(self.natural_total, 1):.1f} %"


def post_all(url: str, path: str, items: Sequence[dict[str, Any]]) -> tuple[list[dict], float]:
    """Every item through the service in batches; (results, seconds)."""
    results: list[dict] = []
    started = time.perf_counter()
    with httpx.Client(timeout=300) as client:
        for start in range(0, len(items), BATCH):
            response = client.post(
                f"{url}{path}", json={"items": list(items[start : start + BATCH])}
            )
            response.raise_for_status()
            results += response.json()["results"]
    return results, time.perf_counter() - started


def math_verify_judge() -> Callable[[list[str], str], bool]:
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    from math_verify import parse, verify

    def judge(golds: list[str], response: str) -> bool:
        predicted = parse(response)
        return any(verify(parse(gold), predicted) for gold in golds)

    return judge


def table_rows(cases: Sequence[Any], golds_of: Callable[[Any], list[str]]) -> list[tuple]:
    return [(c.item(), c.is_adversarial, c.is_correct, golds_of(c)) for c in cases]


def in_process_rate(path: str, rows: list[tuple]) -> float:
    """Items/s of the verifier's own judging function in this process (no HTTP, one thread)."""
    from rlvr.schemas.answer import AnswerItem
    from rlvr.schemas.choice import ChoiceItem
    from rlvr.verifier.domains.answer.verifier import answer_result
    from rlvr.verifier.domains.choice.verifier import judge_choice

    judge: Callable[[Any], Any]
    if path == "/choice":
        items: list[Any] = [ChoiceItem.model_validate(row[0]) for row in rows]
        judge = judge_choice
    else:
        items = [AnswerItem.model_validate(row[0]) for row in rows]
        judge = answer_result
    started = time.perf_counter()
    for item in items:
        judge(item)
    return len(items) / (time.perf_counter() - started)


def compare_table(url: str, path: str, rows: list[tuple], repeat: int) -> dict[str, Any]:
    ours, baseline = Score(), Score()
    results, _ = post_all(url, path, [row[0] for row in rows])
    for (_, is_adv, is_correct, _), result in zip(rows, results, strict=True):
        ours.add(is_adv, is_correct, result["status"] == "passed")
    judge = math_verify_judge()
    started = time.perf_counter()
    for item, is_adv, is_correct, golds in rows:
        baseline.add(is_adv, is_correct, judge(golds, item["response"]))
    baseline_rate = len(rows) / (time.perf_counter() - started)
    many = [row[0] for row in rows] * repeat
    _, wall_s = post_all(url, path, many)
    return {
        "ours": ours,
        "baseline": baseline,
        "ours_rate": len(many) / wall_s,
        "baseline_rate": baseline_rate,
        "in_process_rate": in_process_rate(path, rows),
        "items": len(rows),
    }


def print_table_comparison(name: str, outcome: dict[str, Any]) -> None:
    ours, base = outcome["ours"], outcome["baseline"]
    print(
        f"\n{name}: {outcome['items']} rows ({ours.natural_total} natural, "
        f"{ours.adversarial_total} adversarial)"
    )
    print(f"{'':<22}{'natural right':>14}{'adversarial passed':>20}{'items/s':>12}")
    print(
        f"{'rlvr ' + name:<22}{ours.natural:>14}{ours.false_positives:>20}"
        f"{outcome['ours_rate']:>12,.0f}"
    )
    print(
        f"{'Math-Verify':<22}{base.natural:>14}{base.false_positives:>20}"
        f"{outcome['baseline_rate']:>12,.0f}"
    )
    print(
        f"{'ratio (ours / MV)':<22}{'':>14}{'':>20}"
        f"{outcome['ours_rate'] / outcome['baseline_rate']:>11.1f}x"
    )
    print(f"{'ours judged in-process':<22}{'':>14}{'':>20}{outcome['in_process_rate']:>12,.0f}")


def gym_families(tasks_per_family: int) -> dict[str, list[str]]:
    from reasoning_gym.factory import DATASETS

    families: dict[str, list[str]] = defaultdict(list)
    for name, (dataset_cls, _) in sorted(DATASETS.items()):
        family = dataset_cls.__module__.split(".")[1]
        if name != "composite" and len(families[family]) < tasks_per_family:
            families[family].append(name)
    return dict(families)


def compare_gym(
    url: str, tasks_per_family: int, per_task: int
) -> list[tuple[str, int, float, float]]:
    import reasoning_gym
    from reasoning_gym.utils import extract_answer

    from rlvr.formats.gym import from_entry

    rows = []
    for family, tasks in gym_families(tasks_per_family).items():
        raw: list[tuple[str, dict, str]] = []
        for task in tasks:
            for index, entry in enumerate(
                reasoning_gym.create_dataset(task, size=per_task, seed=1)
            ):
                answer = entry["answer"] if index % 2 == 0 and entry["answer"] is not None else "x"
                raw.append((task, entry, f"<think>ok</think><answer>{answer}</answer>"))
        scorers = {task: reasoning_gym.get_score_answer_fn(task) for task in tasks}
        started = time.perf_counter()
        for task, entry, response in raw:
            scorers[task](extract_answer(response), entry)
        baseline_rate = len(raw) / (time.perf_counter() - started)
        items = [from_entry(entry, task).item(response) for task, entry, response in raw]
        post_all(url, "/gym", items)  # warm: each worker builds each task's scorer once, as
        # the in-process baseline built its scorers before its clock started
        _, wall_s = post_all(url, "/gym", items)
        rows.append((family, len(items), len(items) / wall_s, baseline_rate))
    return rows


@contextmanager
def service(url: str | None) -> Iterator[str]:
    if url:
        with nullcontext(url) as given:
            yield given
        return
    with running_service({"VERIFIER_CODE__IS_ENABLED": "false"}) as started:
        yield started


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: start one)")
    parser.add_argument("--repeat", type=int, default=20, help="table repeats for items/s")
    parser.add_argument("--tasks-per-family", type=int, default=3)
    parser.add_argument("--per-task", type=int, default=40, help="gym entries per task")
    parser.add_argument("--skip-gym", action="store_true", help="only /choice and /answer")
    args = parser.parse_args(argv)
    with service(args.url) as url:
        choice_rows = table_rows(CHOICE_CASES, lambda c: [c.answer])
        answer_rows = table_rows(
            ANSWER_CASES, lambda c: [c.answer] if isinstance(c.answer, str) else list(c.answer)
        )
        print_table_comparison("/choice", compare_table(url, "/choice", choice_rows, args.repeat))
        print_table_comparison("/answer", compare_table(url, "/answer", answer_rows, args.repeat))
        if args.skip_gym:
            return
        gym = compare_gym(url, args.tasks_per_family, args.per_task)
        print(
            f"\n/gym: items/s per task family ({args.tasks_per_family} tasks each, "
            f"{args.per_task} entries per task, half right)"
        )
        print(f"{'family':<14}{'items':>7}{'rlvr /gym':>12}{'in-process':>12}{'ratio':>8}")
        for family, count, ours, baseline in gym:
            print(f"{family:<14}{count:>7}{ours:>12,.0f}{baseline:>12,.0f}{ours / baseline:>7.2f}x")
        print(json.dumps({"gym_families": len(gym)}))


if __name__ == "__main__":
    main()
