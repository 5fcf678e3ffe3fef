"""Every config in examples/ loads through the real argument parser, as its own header says
to run it, and states its hardware and time; the docs name only configs that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from rlvr_train.cli import parse
from tests.support.server import REPO_ROOT

EXAMPLES = sorted((REPO_ROOT / "examples").glob("*.yaml"))
# `rlvr-train COMMAND --config examples/NAME.yaml [flags]` lines in a config's header
RUN_LINE = re.compile(r"^#\s+(rlvr-train \S+ --config examples/\S+\.yaml.*?)\s*(?:#.*)?$")


def header_commands(path: Path) -> list[list[str]]:
    lines = path.read_text().splitlines()
    joined: list[str] = []
    for line in lines:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + line.lstrip("# ")
        else:
            joined.append(line)
    found = [m.group(1) for line in joined if (m := RUN_LINE.match(line))]
    return [shlex.split(command)[1:] for command in found]


def test_there_are_the_promised_examples() -> None:
    names = {path.stem for path in EXAMPLES}
    assert {"cpu_smoke", "grpo_math_1gpu", "grpo_math_code", "pipeline_r1"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_parses_as_its_header_runs_it(path: Path) -> None:
    text = path.read_text()
    assert "Hardware:" in text and re.search(r"(?i)expected time|measured|minutes", text)
    commands = header_commands(path)
    assert commands, f"{path.name}: no `rlvr-train ... --config examples/{path.name}` line"
    for argv in commands:
        command, rest = (
            argv[0],
            [a.replace("examples/", f"{REPO_ROOT}/examples/") for a in argv[1:]],
        )
        parsed = parse(command, rest)
        assert parsed, argv
    if "use_vllm: true" in text:  # the production path, and the documented fallback
        *_, config = parse(commands[0][0], ["--config", str(path)])
        assert config.use_vllm is True and config.vllm_mode == "colocate"
        assert any("--use_vllm" in argv and "false" in argv for argv in commands), path.name


def test_the_docs_name_only_configs_that_exist() -> None:
    for page in (REPO_ROOT / "docs" / "trainer.md", REPO_ROOT / "README.md"):
        text = page.read_text()
        for name in re.findall(r"examples/[\w.-]+\.yaml", text):
            assert (REPO_ROOT / name).is_file(), f"{page.name} names {name}"
        assert not re.search(r"--config (grpo|pipeline)\.yaml", text), page.name
