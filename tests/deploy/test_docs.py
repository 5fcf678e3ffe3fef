"""The docs site builds strictly (broken links and anchors fail) and the README's links resolve."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.deploy.files import REPO_ROOT


def test_docs_site_builds_strictly(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "limits" / "index.html").is_file()


def test_every_relative_link_in_the_readme_points_at_a_file() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme)
    assert targets, "the README links to the docs pages"
    missing = [target for target in targets if not (REPO_ROOT / target).exists()]
    assert missing == []


def test_the_readme_first_screen_holds_the_two_commands() -> None:
    first_screen = "\n".join((REPO_ROOT / "README.md").read_text().splitlines()[:40])
    assert "./scripts/quickstart.sh" in first_screen
    assert "./scripts/test.sh" in first_screen
