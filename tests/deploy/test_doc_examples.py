"""Every Python example in the README and the docs runs as written against a live service, or
says in its first line what it needs (`# needs: ...`); every `curl` example aimed at the
service's default address gets a 200 with JSON from it.

The examples are pasted by readers into a shell or a file, so they are run the same way: as a
script in a fresh interpreter with `$VERIFIER_URL` set, the docs' default address
(`127.0.0.1:8000`, `localhost:8000`) rewritten to the live service's. A long one (the README's
TRL run, minutes on a CPU) says so with `# needs: ...` and is still checked for syntax."""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import REPO_ROOT, service_fixture

pytestmark = [pytest.mark.docker]

PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
DEFAULT_ADDRESS = re.compile(r"(?:http://)?(?:127\.0\.0\.1|localhost):8000")
NEEDS = "# needs:"

service_url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_MATH__WORKERS": "1"}, needs_docker=True
)


def blocks(language: str) -> list[tuple[str, str]]:
    """(`page:index`, source) of every fenced block of `language`, in page order."""
    found = []
    for page in PAGES:
        fenced = [m for m in FENCE.finditer(page.read_text()) if m.group(1) == language]
        found += [(f"{page.name}:{i}", m.group(2)) for i, m in enumerate(fenced)]
    return found


def is_sketch(source: str) -> bool:
    return source.lstrip().startswith(NEEDS)


def curl_commands(source: str) -> list[str]:
    """The `curl` commands of a shell block aimed at the default address, joined over `\\`."""
    lines: list[str] = []
    for line in source.splitlines():
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1] + " " + line.strip()
        elif lines and lines[-1].count("'") % 2 == 1:  # inside a quoted -d body
            lines[-1] += "\n" + line
        else:
            lines.append(line)
    return [line for line in lines if line.startswith("curl ") and DEFAULT_ADDRESS.search(line)]


PYTHON = blocks("python")
CURLS = [
    (f"{where}:{i}", command)
    for where, source in blocks("bash")
    for i, command in enumerate(curl_commands(source))
]


def test_the_docs_have_examples_of_both_kinds() -> None:
    assert len(PYTHON) >= 8 and len(CURLS) >= 2
    assert sum(not is_sketch(source) for _, source in PYTHON) >= 3


@pytest.mark.parametrize(("where", "source"), PYTHON, ids=[where for where, _ in PYTHON])
def test_each_python_example_parses(where: str, source: str) -> None:
    ast.parse(source, filename=where)  # a sketch too: a reader copies it into their own code
    if is_sketch(source):
        assert len(source.lstrip().splitlines()[0]) > len(NEEDS) + 5, f"{where}: needs what?"


RUNNABLE = [(where, source) for where, source in PYTHON if not is_sketch(source)]


@pytest.mark.parametrize(("where", "source"), RUNNABLE, ids=[where for where, _ in RUNNABLE])
def test_each_runnable_python_example_runs(
    where: str, source: str, service_url: str, tmp_path: Path
) -> None:
    script = tmp_path / "example.py"
    script.write_text(DEFAULT_ADDRESS.sub(service_url, source))
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env={**os.environ, "VERIFIER_URL": service_url},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{where}:\n{done.stderr[-3000:]}"


@pytest.mark.parametrize(("where", "command"), CURLS, ids=[where for where, _ in CURLS])
def test_each_curl_example_gets_json_from_the_service(
    where: str, command: str, service_url: str
) -> None:
    argv = shlex.split(DEFAULT_ADDRESS.sub(service_url, command), comments=True)
    argv[1:1] = ["-w", "\n%{http_code}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    body, _, code = done.stdout.rpartition("\n")
    assert done.returncode == 0 and code == "200", f"{where}: {code} {body[:500]}"
    json.loads(body)
