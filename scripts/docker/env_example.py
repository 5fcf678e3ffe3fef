"""Render `.env.example` and the verifier's `environment:` list in docker-compose.yml from the
settings classes, so both name every setting and cannot drift.

    .venv/bin/python scripts/docker/env_example.py --write    # regenerate both files
    .venv/bin/python scripts/docker/env_example.py --check    # exit 1 if either is stale

Two groups: `RLVR_*` are knobs of docker-compose.yml (images, ports, build arguments), read by
Compose from `.env`; `VERIFIER_*` are the service's settings (VerifierSettings, nested with `__`),
read by `rlvr-verifier serve` from `.env` and by the container from its environment.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

# (name, default, meaning): every variable docker-compose*.yml interpolates that is not a setting.
COMPOSE_VARIABLES: list[tuple[str, str, str]] = [
    (
        "RLVR_BIND",
        "127.0.0.1",
        "Host address the verifier port is published on (0.0.0.0: "
        "every interface; then set VERIFIER_API_KEY).",
    ),
    ("RLVR_PORT", "8000", "Host port of the verifier."),
    (
        "RLVR_DOCKER_GID",
        "999",
        "Group owning the host's Docker socket, so the non-root "
        "verifier can start sandboxes: `stat -c %g /var/run/docker.sock`.",
    ),
    ("RLVR_VERIFIER_IMAGE", "rlvr-verifier:latest", "Tag of the verifier image."),
    ("RLVR_VERIFIER_BASE_IMAGE", "python:3.11-slim", "Base of the verifier image (build arg)."),
    (
        "RLVR_SANDBOX_IMAGE",
        "rlvr-sandbox:latest",
        "Image of the code sandboxes (built by the "
        "`sandbox-image` service; passed to the verifier as VERIFIER_CODE__SANDBOX__IMAGE).",
    ),
    ("RLVR_SANDBOX_BASE_IMAGE", "python:3.11-slim", "Base of the sandbox image (build arg)."),
    (
        "RLVR_INSTALL_LEAN",
        "false",
        "Also build the Lean toolchain into the verifier image (only for "
        "VERIFIER_LEAN__ISOLATION=unsafe_process; REPLs normally run in containers of the Lean "
        "image, built by `docker compose --profile lean build`).",
    ),
    ("RLVR_INSTALL_MATHLIB", "false", "Also build Mathlib with its cache (several GB)."),
    ("RLVR_LEAN_TOOLCHAIN", "leanprover/lean4:v4.15.0", "Pinned Lean toolchain (elan name)."),
    ("RLVR_REPL_REV", "v4.15.0", "Pinned leanprover-community/repl rev (matches the toolchain)."),
    ("RLVR_MATHLIB_REV", "v4.15.0-patch1", "Pinned Mathlib rev (matches the toolchain)."),
    (
        "RLVR_PIP_INSTALL_ARGS",
        "",
        "Extra pip arguments for image builds (e.g. a wheelhouse: --no-index --find-links URL).",
    ),
    ("RLVR_TRAINER_IMAGE", "rlvr-trainer:cuda", "Tag of the GPU trainer image (profile gpu)."),
    (
        "RLVR_TRAINER_BASE_IMAGE",
        "pytorch/pytorch:2.7.1-cuda12.6-cudnn9-runtime",
        "Base of the GPU trainer image (CUDA PyTorch).",
    ),
    ("RLVR_TRAINER_CPU_IMAGE", "rlvr-trainer:cpu", "Tag of the CPU trainer image (profile cpu)."),
    ("RLVR_TRAINER_CPU_BASE_IMAGE", "python:3.11-slim", "Base of the CPU trainer image."),
    (
        "RLVR_TORCH_INDEX_URL",
        "https://download.pytorch.org/whl/cpu",
        "Where the CPU trainer image gets torch.",
    ),
    (
        "RLVR_TRAIN_COMMAND",
        "rlvr-train grpo --output_dir /outputs/grpo",
        "What `--profile gpu up` runs in the trainer container (default: GRPO of "
        "SmolLM2-135M-Instruct on reasoning-gym arithmetic with the verifier's rewards).",
    ),
    (
        "RLVR_TRAIN_CPU_COMMAND",
        "rlvr-train grpo --model_name_or_path tiny --max_steps 10 --per_device_train_batch_size 8 "
        "--num_generations 4 --max_completion_length 32 --logging_steps 1 "
        "--output_dir /outputs/grpo-tiny",
        "What `--profile cpu up` runs in the CPU trainer container (default: a 10-step smoke run "
        "of the tiny model).",
    ),
]
# Read by the client and trainer (services/rlvr/client), not by the service.
CLIENT_VARIABLES: list[tuple[str, str, str]] = [
    (
        "VERIFIER_URL",
        "http://127.0.0.1:8000",
        "Service URL the client and `rlvr-train` use, or several separated by commas "
        "(compose sets http://verifier:8000 for the trainer).",
    ),
    (
        "VERIFIER_SPLIT_BY_RANK",
        "false",
        "With several URLs: each torchrun/accelerate process uses only its slice of them "
        "(by RANK and WORLD_SIZE).",
    ),
]


def _format(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value)
    return str(value)


def _default(info: FieldInfo) -> Any:
    if info.default_factory is not None:
        return info.default_factory()  # type: ignore[call-arg]
    return info.default


def setting_lines(model: type[BaseModel], prefix: str) -> Iterator[tuple[str, str, str]]:
    """(variable, default, description) for every leaf field, nested models flattened with `__`."""
    for name, info in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            yield from setting_lines(annotation, f"{variable}__")
            continue
        yield variable, _format(_default(info)), info.description or ""


def _block(variable: str, default: str, description: str) -> list[str]:
    wrapped = textwrap.wrap(description, width=96) or [""]
    return [*(f"# {line}" for line in wrapped), f"# {variable}={default}"]


def render() -> str:
    from rlvr.verifier.settings import VerifierSettings

    lines = [
        "# Every setting of rlvr, with its default. Copy to `.env` and uncomment what you change.",
        "# Generated by `scripts/docker/env_example.py --write` from the settings classes (do not",
        "# edit by hand; tests/deploy/test_env_example.py fails when this file is stale).",
        "",
        "# ---- docker-compose.yml (read by Compose from .env) ----",
    ]
    for entry in COMPOSE_VARIABLES:
        lines += [*_block(*entry), ""]
    lines.append("# ---- client and trainer ----")
    for entry in CLIENT_VARIABLES:
        lines += [*_block(*entry), ""]
    lines.append("# ---- the verifier service: VERIFIER_*, nested sections joined by `__` ----")
    for entry in setting_lines(VerifierSettings, "VERIFIER_"):
        lines += [*_block(*entry), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


# The image fixes these (Dockerfile.verifier ENV): compose must not pass them through, since an
# unset pass-through variable erases the image's value under Compose v1.
IMAGE_FIXED = frozenset({"VERIFIER_HOST", "VERIFIER_PORT"})
# Passed with a compose-level default or from another variable instead of bare.
COMPOSE_VALUES = {
    "VERIFIER_WORKERS": "${VERIFIER_WORKERS:-1}",
    "VERIFIER_LOG_LEVEL": "${VERIFIER_LOG_LEVEL:-info}",
    "VERIFIER_CODE__SANDBOX__IMAGE": "${RLVR_SANDBOX_IMAGE:-rlvr-sandbox:latest}",
    # the service's /tmp is not the engine's: the job channel's directory could not be mounted
    "VERIFIER_CODE__SANDBOX__JOB_CHANNEL": "${VERIFIER_CODE__SANDBOX__JOB_CHANNEL:-attach}",
}
BEGIN = "      # >>> generated by scripts/docker/env_example.py: every VERIFIER_* setting\n"
END = "      # <<< generated\n"


def compose_environment() -> str:
    """The verifier's `environment:` entries: every setting, bare (pass-through when set)."""
    from rlvr.verifier.settings import VerifierSettings

    entries = []
    for variable, _, _ in setting_lines(VerifierSettings, "VERIFIER_"):
        if variable in IMAGE_FIXED:
            continue
        value = COMPOSE_VALUES.get(variable)
        entries.append(f"      - {variable}={value}\n" if value else f"      - {variable}\n")
    return "".join(entries)


def render_compose(text: str) -> str:
    """`text` (docker-compose.yml) with the generated block replaced."""
    head, found, rest = text.partition(BEGIN)
    _, found_end, tail = rest.partition(END)
    if not (found and found_end):
        raise ValueError("docker-compose.yml lacks the generated-environment markers")
    return head + BEGIN + compose_environment() + END + tail


def main(argv: list[str]) -> int:
    env_path, compose_path = REPO_ROOT / ".env.example", REPO_ROOT / "docker-compose.yml"
    wanted = {env_path: render(), compose_path: render_compose(compose_path.read_text())}
    if "--write" in argv:
        for path, text in wanted.items():
            path.write_text(text)
        return 0
    if "--check" in argv:
        stale = [p.name for p, text in wanted.items() if p.read_text() != text]
        if stale:
            print(f"stale: {', '.join(stale)}; run scripts/docker/env_example.py --write")
            return 1
        return 0
    sys.stdout.write(wanted[env_path])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
