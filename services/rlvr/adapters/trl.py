"""TRL reward functions backed by the verifier service: `math_reward`, `verify_reward`, ….

    from rlvr.adapters.trl import math_reward          # uses $VERIFIER_URL
    GRPOTrainer(model, reward_funcs=[math_reward], train_dataset=ds)  # ds has an `answer` column

Each function has TRL's signature `(prompts, completions, **dataset_columns)` and is `async`, so
TRL gathers it concurrently with other async rewards. Completions may be plain or chat. A
verifier `error` becomes `None`, which TRL leaves out of the group baseline instead of learning
from a fake zero. When TRL passes `log_metric`, each call logs how many items got each status
(`<name>/passed`, `<name>/failed`, `<name>/timed_out`, `<name>/error`: counts per call, which
TRL averages over a logging step), and with `log_extra` each sample's verdict goes to TRL's
completions table (`<name>/status`, `<name>/detail`).

Dataset columns read, per function (the completion is always sent as the item's `response`):
- `math_reward`: `answer` (the ground truth); optional `timeout_s`. The problem text goes along
  (a `problem` column, else the prompt TRL passes), so an answer that restates one of the
  problem's expressions earns nothing; `verify_reward` does the same for its math rows.
- `code_reward`: `tests` (a list of test objects, or that list JSON-encoded); optional
  `language`, `timeout_s`, `memory_mb`. The server runs the last fenced code block.
- `lean_reward`: `statement`; optional `header`, `timeout_s`. The server checks the last
  ```lean block.
- `ifeval_reward`: `constraints` (a list of `{"id", "kwargs"}`, or that list JSON-encoded), or
  the dataset's own label columns: open-instruct's `ground_truth`, or IFEval's
  `instruction_id_list` + `kwargs`; optional `scoring`, `mode`, `timeout_s`. The prompt TRL
  passes (its last user message) goes along, so a completion that only repeats it earns nothing.
- `choice_reward`: `answer` (the correct label); optional `options`, `labels`, `num_options`.
- `answer_reward`: `answer` (a reference or a list of aliases); optional `match`,
  `f1_threshold`, `normalization`, `is_number_aware`.
- `gym_reward`: `entry` (a reasoning-gym entry, or it JSON-encoded); optional `task` (default:
  the entry's `metadata.source_dataset`), `timeout_s`.
- `verify_reward`: `domain` per row ("math" | "code" | "lean" | "ifeval" | "choice" | "answer" |
  "gym") plus that domain's columns (None where a row does not use one); or a `label` column in
  the OpenRLHF/verl format (a plain ground-truth string, a JSON object with `domain` and that
  domain's fields, or an open-instruct instruction-following ground truth).

The module-level functions read `$VERIFIER_URL` / `$VERIFIER_API_KEY` on first use;
`make_reward_function` / `make_reward_functions` build the same for an explicit URL or client.

Tools, too: `run_python(code: str) -> str` for `GRPOTrainer(tools=[run_python])` runs the
code in a fresh sandboxed process (`POST /run`) and returns what the model should see (stdout,
stderr, what stopped it); `make_run_python(...)` builds one for another service or limits.
`PythonSandbox`, for `GRPOTrainer(environment_factory=PythonSandbox)`, gives each rollout a
persistent interpreter (a session, `POST /sessions`) with one tool, `python(code: str) -> str`;
`PythonSandbox.configured(...)` sets its service and limits.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

from rlvr.adapters._completions import completion_text
from rlvr.adapters._trl_sandbox import PythonSandbox
from rlvr.client import (
    AsyncVerifierClient,
    ConfigurationError,
    VerifierClient,
    VerifierClientError,
)
from rlvr.formats.ifeval import FormatError, constraints_from_ground_truth
from rlvr.schemas.common import ItemResult, Status
from rlvr.schemas.run import RunCodeResponse, RunStatus, Verdict
from rlvr.schemas.verify import LabelError, item_from_label, label_text, with_problem

log = logging.getLogger(__name__)

Domain = Literal["math", "code", "lean", "ifeval", "choice", "answer", "gym", "mixed"]
OnUnavailable = Literal["raise", "none"]
RewardFunction = Callable[..., Awaitable[list[float | None]]]


# ---- building items from TRL's arguments (pure) -------------------------------------------------


def _column(columns: Mapping[str, Any], name: str, n: int, reward_name: str) -> list[Any]:
    values = columns.get(name)
    if values is None:
        raise ConfigurationError(f"{reward_name} needs a `{name}` dataset column")
    if len(values) != n:
        raise ConfigurationError(f"column `{name}` has {len(values)} rows for {n} completions")
    return list(values)


# Per domain: the column that must be there, then the optional columns copied when not None.
DOMAIN_COLUMNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "math": ("answer", ("timeout_s",)),
    "code": (
        "tests",
        (
            "language",
            "timeout_s",
            "memory_mb",
            "stop_on_first_failure",
            "scoring",
            "checker",
            "interactor",
            "total_timeout_s",
        ),
    ),
    "lean": ("statement", ("header", "timeout_s")),
    "ifeval": ("constraints", ("scoring", "mode", "timeout_s", "prompt")),
    "choice": ("answer", ("options", "labels", "num_options")),
    "answer": ("answer", ("match", "f1_threshold", "normalization", "is_number_aware")),
    "gym": ("entry", ("task", "timeout_s")),
}
# Domains whose `answer` column is a ground truth written out as text (math's `42`, choice's
# label); `/answer` keeps a list of aliases as a list.
TEXT_ANSWER_DOMAINS = frozenset({"math", "choice"})


# Columns holding structures, which a dataset may store JSON-encoded (Arrow has no union type for
# a list of differently shaped tests, and a checker's fields differ by kind).
JSON_COLUMNS = frozenset(
    {"tests", "checker", "interactor", "constraints", "entry", "normalization", "options"}
)


def _cell(name: str, value: Any, domain: str = "math") -> Any:
    """A dataset cell as the wire wants it: structures may be stored JSON-encoded; answers as
    text (aliases as a list of texts)."""
    if name in JSON_COLUMNS and isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ConfigurationError(f"`{name}` cell is not JSON: {exc}") from exc
    if name == "answer" and not isinstance(value, str):
        if domain not in TEXT_ANSWER_DOMAINS and isinstance(value, list | tuple):
            return [str(alias) for alias in value]
        return str(value)
    return value


def _gym_task(item: dict[str, Any], row: int) -> None:
    """A gym row's task defaults to its entry's `metadata.source_dataset` (reasoning-gym
    writes it into every entry)."""
    if "task" in item:
        return
    metadata = item["entry"].get("metadata") if isinstance(item["entry"], dict) else None
    task = metadata.get("source_dataset") if isinstance(metadata, dict) else None
    if not isinstance(task, str):
        raise ConfigurationError(
            f"row {row} (gym) needs a `task` column or an entry with metadata.source_dataset"
        )
    item["task"] = task


def domain_item(domain: str, text: str, columns: Mapping[str, Any], row: int) -> dict[str, Any]:
    """The item of one row of `domain`, from its completion text and the dataset columns."""
    if domain not in DOMAIN_COLUMNS:
        raise ConfigurationError(
            f"row {row}: unknown domain {domain!r}; expected one of {', '.join(DOMAIN_COLUMNS)}"
        )
    required, optional = DOMAIN_COLUMNS[domain]
    values = columns.get(required)
    if values is None or values[row] is None:
        raise ConfigurationError(f"row {row} ({domain}) needs a `{required}` dataset column")
    item: dict[str, Any] = {"response": text, required: _cell(required, values[row], domain)}
    for name in optional:
        column = columns.get(name)
        if column is not None and column[row] is not None:
            item[name] = _cell(name, column[row], domain)
    if domain == "gym":
        _gym_task(item, row)
    return item


def _single_domain(
    domain: str,
) -> Callable[[Sequence[str], Mapping[str, Any]], list[dict[str, Any]]]:
    def build(texts: Sequence[str], columns: Mapping[str, Any]) -> list[dict[str, Any]]:
        required = DOMAIN_COLUMNS[domain][0]
        _column(columns, required, len(texts), f"{domain}_reward")  # a clear error if missing
        return [domain_item(domain, text, columns, row) for row, text in enumerate(texts)]

    return build


def prompt_text(prompt: Any) -> str | None:
    """A TRL prompt as text: a plain string, or the last user message of a chat."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Sequence):
        users = [m for m in prompt if isinstance(m, Mapping) and m.get("role") == "user"]
        content = users[-1].get("content") if users else None
        return content if isinstance(content, str) else None
    return None


def _row_constraints(columns: Mapping[str, Any], row: int) -> Any:
    """A row's constraints from whichever label column the dataset has."""
    for name in ("constraints", "ground_truth"):
        column = columns.get(name)
        if column is not None and column[row] is not None:
            value = column[row]
            if name == "constraints":
                return _cell(name, value)
            try:
                return constraints_from_ground_truth(value)
            except FormatError as exc:
                raise ConfigurationError(f"row {row}: bad `ground_truth`: {exc}") from exc
    ids, kwargs = columns.get("instruction_id_list"), columns.get("kwargs")
    if ids is not None and ids[row] is not None:
        pairs = zip(
            ids[row], kwargs[row] if kwargs is not None else [{}] * len(ids[row]), strict=True
        )
        return [
            {"id": i, "kwargs": {k: v for k, v in (kw or {}).items() if v is not None}}
            for i, kw in pairs
        ]
    raise ConfigurationError(
        f"ifeval_reward: row {row} needs a `constraints`, `ground_truth` or "
        "`instruction_id_list` + `kwargs` column"
    )


def ifeval_items(
    texts: Sequence[str], columns: Mapping[str, Any], prompts: Sequence[Any] = ()
) -> list[dict[str, Any]]:
    """Items for `/ifeval`, one per completion, with the prompt when TRL gave it."""
    _, optional = DOMAIN_COLUMNS["ifeval"]
    items = []
    for row, text in enumerate(texts):
        item: dict[str, Any] = {"response": text, "constraints": _row_constraints(columns, row)}
        for name in optional:
            column = columns.get(name)
            if column is not None and column[row] is not None:
                item[name] = column[row]
        if "prompt" not in item and row < len(prompts):
            prompt = prompt_text(prompts[row])
            if prompt:
                item["prompt"] = prompt
        items.append(item)
    return items


def mixed_items(texts: Sequence[str], columns: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Items for `/verify`, one per completion, from a `domain` column or a `label` column."""
    n = len(texts)
    if columns.get("domain") is None and columns.get("label") is not None:
        labels = _column(columns, "label", n, "verify_reward")
        try:
            return [
                item_from_label(label_text(label), text)
                for label, text in zip(labels, texts, strict=True)
            ]
        except LabelError as exc:
            raise ConfigurationError(f"verify_reward: bad `label` column: {exc}") from exc
    domains = _column(columns, "domain", n, "verify_reward")
    return [
        {"domain": domain, **domain_item(domain, text, columns, row)}
        for row, (domain, text) in enumerate(zip(domains, texts, strict=True))
    ]


def with_problems(
    items: Sequence[dict[str, Any]], columns: Mapping[str, Any], prompts: Sequence[Any]
) -> list[dict[str, Any]]:
    """Each math item with its problem text: the dataset's `problem` column when it has one,
    else the prompt TRL gave (a string, or the last user message of a chat). An answer that
    restates one of the problem's expressions is then refused."""
    column = columns.get("problem")
    out = []
    for row, item in enumerate(items):
        problem = column[row] if column is not None and row < len(column) else None
        if not isinstance(problem, str) and row < len(prompts):
            problem = prompt_text(prompts[row])
        out.append(with_problem(item, problem if isinstance(problem, str) else None))
    return out


def status_counts(results: Sequence[ItemResult]) -> dict[str, int]:
    counts = Counter(r.status for r in results)
    return {status.value: counts.get(status, 0) for status in Status}


# ---- the client each event loop uses ------------------------------------------------------------


class _ClientPerLoop:
    """One `AsyncVerifierClient` per event loop (TRL runs async rewards on its own loop thread;
    an httpx async client must not be shared across loops). A given client is used as is."""

    def __init__(self, client: AsyncVerifierClient | None, kwargs: Mapping[str, Any]) -> None:
        self._fixed = client
        self._kwargs = dict(kwargs)
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncVerifierClient]
        self._clients = weakref.WeakKeyDictionary()

    def get(self) -> AsyncVerifierClient:
        if self._fixed is not None:
            return self._fixed
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._clients[loop] = AsyncVerifierClient(**self._kwargs)
        return client


# ---- the reward functions -----------------------------------------------------------------------


_BUILDERS: dict[str, Callable[[Sequence[str], Mapping[str, Any]], list[dict[str, Any]]]] = {
    "math": _single_domain("math"),
    "code": _single_domain("code"),
    "lean": _single_domain("lean"),
    "ifeval": ifeval_items,
    "choice": _single_domain("choice"),
    "answer": _single_domain("answer"),
    "gym": _single_domain("gym"),
    "mixed": mixed_items,
}
_DEFAULT_NAMES = {
    "math": "math_reward",
    "code": "code_reward",
    "lean": "lean_reward",
    "ifeval": "ifeval_reward",
    "choice": "choice_reward",
    "answer": "answer_reward",
    "gym": "gym_reward",
    "mixed": "verify_reward",
}


def make_reward_function(
    domain: Domain,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    client: AsyncVerifierClient | None = None,
    name: str | None = None,
    on_unavailable: OnUnavailable = "raise",
    **client_kwargs: Any,
) -> RewardFunction:
    """An async TRL reward function for `domain` ("math", "code", "lean", "ifeval", "choice",
    "answer", "gym", or "mixed": `/verify`).

    Args:
        base_url, api_key, client_kwargs: for the `AsyncVerifierClient` built per event loop
            (default: `$VERIFIER_URL`, `$VERIFIER_API_KEY`); or pass a ready `client`.
        name: The function's `__name__`, which TRL uses as the metric name.
        on_unavailable: When the whole call fails (service down after retries, deadline):
            "raise" (default: TRL stops, loudly) or "none" (every sample gets None and the
            step goes on without this reward; logged as a warning).
    """
    if domain not in _BUILDERS:
        raise ConfigurationError(f"unknown domain {domain!r}; expected one of {sorted(_BUILDERS)}")
    build = _BUILDERS[domain]
    fn_name = name or _DEFAULT_NAMES[domain]
    clients = _ClientPerLoop(client, {"base_url": base_url, "api_key": api_key, **client_kwargs})

    async def reward(
        prompts: Sequence[Any], completions: Sequence[Any], **columns: Any
    ) -> list[float | None]:
        texts = [completion_text(c) for c in completions]
        items = (
            ifeval_items(texts, columns, prompts) if domain == "ifeval" else build(texts, columns)
        )
        if domain in ("math", "mixed"):
            items = with_problems(items, columns, prompts)
        verifier = clients.get()
        try:
            results: Sequence[ItemResult]
            if domain == "math":
                results = await verifier.math(items)
            elif domain == "code":
                results = await verifier.code(items)
            elif domain == "lean":
                results = await verifier.lean(items)
            elif domain == "ifeval":
                results = await verifier.ifeval(items)
            elif domain == "choice":
                results = await verifier.choice(items)
            elif domain == "answer":
                results = await verifier.answer(items)
            elif domain == "gym":
                results = await verifier.gym(items)
            else:
                results = await verifier.verify(items)
        except VerifierClientError as exc:
            if on_unavailable == "raise" or isinstance(exc, ConfigurationError):
                raise
            log.warning(
                "%s: verifier unavailable, %d samples get None: %s", fn_name, len(texts), exc
            )
            return [None] * len(texts)
        log_metric = columns.get("log_metric")
        if callable(log_metric):
            for status, count in status_counts(results).items():
                log_metric(f"{fn_name}/{status}", float(count))
        log_extra = columns.get("log_extra")
        if callable(log_extra):  # per-sample columns of TRL's completions table
            log_extra(f"{fn_name}/status", [r.status.value for r in results])
            log_extra(f"{fn_name}/detail", [r.detail for r in results])
        return [r.reward for r in results]

    reward.__name__ = reward.__qualname__ = fn_name
    reward.__doc__ = f"TRL reward ({domain}) from the rlvr verifier service."
    return reward


def make_reward_functions(
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    client: AsyncVerifierClient | None = None,
    on_unavailable: OnUnavailable = "raise",
    **client_kwargs: Any,
) -> dict[str, RewardFunction]:
    """All reward functions for one service, by name (`math_reward`, `verify_reward`, …)."""
    return {
        _DEFAULT_NAMES[d]: make_reward_function(
            d,  # type: ignore[arg-type]
            base_url=base_url,
            api_key=api_key,
            client=client,
            on_unavailable=on_unavailable,
            **client_kwargs,
        )
        for d in _BUILDERS
    }


# ---- tools: the service as the policy's code interpreter ----------------------------------------

RUN_PYTHON_TIMEOUT_S = 10.0
RUN_PYTHON_MAX_CHARS = 4000
ToolFunction = Callable[[str], str]


def tool_output(result: RunCodeResponse, max_chars: int = RUN_PYTHON_MAX_CHARS) -> str:
    """What the model sees of one run: its stdout, then its stderr (a traceback), then what
    stopped it (time-out, memory, output limit) or the sandbox's own error; the middle of an
    over-long text is cut so that both its start and its end stay visible."""
    if result.status == RunStatus.sandbox_error:
        text = f"Error: the sandbox could not run this code: {result.message}"
    else:
        run = result.run_result
        parts = [run.stdout, run.stderr] if run is not None else []
        if result.verdict == Verdict.timed_out:
            parts.append("Error: the code ran past its time limit and was stopped.")
        elif result.memory_exceeded:
            parts.append("Error: the code ran out of memory.")
        elif result.output_limit_exceeded:
            parts.append("Error: the code printed too much and was stopped.")
        elif run is not None and run.return_code not in (0, None) and not run.stderr:
            parts.append(f"Error: exit code {run.return_code}.")
        text = "\n".join(part.rstrip("\n") for part in parts if part)
    if len(text) > max_chars:
        keep = max(0, max_chars - 40)
        head, tail = text[: keep // 2], text[len(text) - (keep - keep // 2) :]
        text = f"{head}\n... [{len(text) - keep} characters cut] ...\n{tail}"
    return text


def make_run_python(
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    client: VerifierClient | None = None,
    timeout_s: float = RUN_PYTHON_TIMEOUT_S,
    memory_limit_mb: int | None = None,
    max_chars: int = RUN_PYTHON_MAX_CHARS,
    **client_kwargs: Any,
) -> ToolFunction:
    """A stateless Python tool for `GRPOTrainer(tools=[...])` on one service: each call runs
    the code in a fresh sandboxed process (`POST /run`) and returns what it printed. The
    blocking client is made on first call (thread-safe, shared by TRL's rollouts)."""
    clients: list[VerifierClient] = [client] if client is not None else []
    lock = threading.Lock()

    def get_client() -> VerifierClient:
        with lock:
            if not clients:
                clients.append(VerifierClient(base_url, api_key=api_key, **client_kwargs))
            return clients[0]

    def run_python(code: str) -> str:
        """Run a Python program in a fresh sandboxed interpreter and return what it printed.

        Nothing persists between calls: define everything the program needs and print the
        results you want to see. The standard library, numpy and sympy can be imported; no
        network access; time and memory are limited.

        Args:
            code: The complete Python program to run, e.g. `print(sum(range(10)))`.

        Returns:
            The program's standard output, then its standard error (a traceback if it
            failed), and a line saying so if it timed out or ran out of memory.
        """
        result = get_client().run_code(
            code, "python", run_timeout=timeout_s, memory_limit_mb=memory_limit_mb
        )
        return tool_output(result, max_chars)

    return run_python


_DEFAULT_RUN_PYTHON: list[ToolFunction] = []
_DEFAULT_RUN_PYTHON_LOCK = threading.Lock()


def run_python(code: str) -> str:
    """Run a Python program in a fresh sandboxed interpreter and return what it printed.

    Nothing persists between calls: define everything the program needs and print the
    results you want to see. No network access; time and memory are limited.

    Args:
        code: The complete Python program to run, e.g. `print(sum(range(10)))`.

    Returns:
        The program's standard output, then its standard error (a traceback if it failed),
        and a line saying so if it timed out or ran out of memory.
    """
    with _DEFAULT_RUN_PYTHON_LOCK:  # $VERIFIER_URL / $VERIFIER_API_KEY, read on first use
        if not _DEFAULT_RUN_PYTHON:
            _DEFAULT_RUN_PYTHON.append(make_run_python())
    return _DEFAULT_RUN_PYTHON[0](code)


math_reward = make_reward_function("math")
code_reward = make_reward_function("code")
lean_reward = make_reward_function("lean")
ifeval_reward = make_reward_function("ifeval")
choice_reward = make_reward_function("choice")
answer_reward = make_reward_function("answer")
gym_reward = make_reward_function("gym")
verify_reward = make_reward_function("mixed")

__all__ = [
    "PythonSandbox",
    "answer_reward",
    "choice_reward",
    "code_reward",
    "gym_reward",
    "ifeval_reward",
    "lean_reward",
    "make_reward_function",
    "make_reward_functions",
    "make_run_python",
    "math_reward",
    "run_python",
    "tool_output",
    "verify_reward",
]
