"""`rlvr.adapters.trl.PythonSandbox` (TRL's `environment_factory`) against the FAKE session
endpoints of `tests.support.session_fake`, and `cell_text` (pure). The real service and a real
`GRPOTrainer` are `tests/rlvr_train/test_tools.py`'s."""

from __future__ import annotations

import gc
import inspect
from collections.abc import Iterator

import pytest

from rlvr.adapters._cells import RESTARTED, cell_text
from rlvr.adapters.trl import PythonSandbox
from rlvr.client import VerifierClient
from rlvr.schemas.sessions import CellResult, CellStatus
from tests.support.session_fake import FakeSessions, fake_session_service


@pytest.fixture
def fake() -> Iterator[tuple[str, FakeSessions]]:
    with fake_session_service() as served:
        yield served


def test_trl_sees_exactly_one_tool_named_python_with_a_string_code_argument() -> None:
    from transformers.utils import get_json_schema

    # What GRPOTrainer does with an environment: public functions of the class, less `reset`.
    members = {name for name, _ in inspect.getmembers(PythonSandbox, inspect.isfunction)}
    assert {m for m in members if not m.startswith("_")} == {"reset", "python"}
    schema = get_json_schema(PythonSandbox().python)["function"]
    assert schema["name"] == "python"
    assert schema["parameters"]["required"] == ["code"]
    assert schema["parameters"]["properties"]["code"]["type"] == "string"
    configured = PythonSandbox.configured(base_url="http://127.0.0.1:1")
    assert {n for n, _ in inspect.getmembers(configured, inspect.isfunction) if n[0] != "_"} == {
        "reset",
        "python",
    }


def test_state_persists_within_a_rollout_and_reset_starts_a_fresh_one(fake) -> None:
    url, state = fake
    env = PythonSandbox.configured(base_url=url)()
    env.reset(prompt="p", answer="1")
    assert env.python("x = 6 * 7\nprint('ok')") == "ok"
    assert env.python("x") == "42"
    env.reset()
    assert state.closed == 1  # the last rollout's session is gone
    assert "NameError" in env.python("x")
    assert state.opened == 2


def test_a_rollout_that_never_calls_the_tool_opens_no_session(fake) -> None:
    url, state = fake
    env = PythonSandbox.configured(base_url=url)()
    for _ in range(5):
        env.reset()
    assert state.opened == 0


def test_an_empty_cell_and_an_exception_read_as_text(fake) -> None:
    url, _ = fake
    env = PythonSandbox.configured(base_url=url)()
    env.reset()
    assert env.python("y = 1") == "(no output)"
    shown = env.python("int('seven')")
    assert "ValueError" in shown and "Traceback" in shown
    assert env.python("y + 1") == "2"  # an exception leaves the session alive


def test_a_lost_session_says_so_and_the_next_call_says_it_is_fresh(fake) -> None:
    url, state = fake
    env = PythonSandbox.configured(base_url=url)()
    env.reset()
    env.python("kept = True")
    (session_id,) = state.sessions
    state.lose(session_id)
    lost = env.python("kept")
    assert "session was lost" in lost and "variables are gone" in lost
    fresh = env.python("1 + 1")
    assert fresh.startswith(RESTARTED) and fresh.endswith("2")
    assert env.python("3") == "3"  # the notice is said once


def test_output_is_cut_to_max_chars_keeping_both_ends(fake) -> None:
    url, _ = fake
    env = PythonSandbox.configured(base_url=url, max_chars=200)()
    env.reset()
    shown = env.python("print('START' + 'x' * 5000 + 'END')")
    assert len(shown) <= 200 and shown.startswith("START") and shown.endswith("END")


def test_a_dropped_environment_closes_its_session(fake) -> None:
    url, state = fake
    env = PythonSandbox.configured(base_url=url)()
    env.reset()
    env.python("a = 1")
    assert len(state.sessions) == 1
    del env
    gc.collect()
    assert state.sessions == {} and state.closed == 1


def test_configured_classes_keep_their_own_settings_and_clients(fake) -> None:
    url, _ = fake
    client = VerifierClient(url)
    short = PythonSandbox.configured(client=client, timeout_s=3, max_chars=100)
    other = PythonSandbox.configured(base_url=url)
    assert short.session_options == {"timeout_s": 3} and short.max_chars == 100
    assert other.session_options == {} and PythonSandbox.session_options == {}
    assert short._shared_client() is client and other._shared_client() is not client
    env = short()
    env.reset()
    assert env._session is None
    env.python("1")
    assert env._session is not None and env._session.limits.timeout_s == 3


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (CellResult(status="ok", stdout="a\n", value="3", session_alive=True), "a\n3"),
        (CellResult(status="ok", session_alive=True), "(no output)"),
        (CellResult(status="ok", value="None", session_alive=True), "None"),
        (
            CellResult(
                status="error",
                stderr="Traceback...\nKeyError: 1\n",
                error="KeyError: 1",
                session_alive=True,
            ),
            "Traceback...\nKeyError: 1",
        ),
        (CellResult(status="error", error="KeyError: 1", session_alive=True), "KeyError: 1"),
        (
            CellResult(status="sandbox_error", error="pool down", session_alive=True),
            "Error: the sandbox could not run this code (pool down).",
        ),
    ],
)
def test_cell_text_of_a_live_session(result: CellResult, expected: str) -> None:
    assert cell_text(result) == expected


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (CellStatus.timed_out, "ran past its time limit"),
        (CellStatus.memory_exceeded, "ran out of memory"),
        (CellStatus.output_limit_exceeded, "printed too much"),
        (CellStatus.session_lost, "session was lost"),
    ],
)
def test_cell_text_of_a_cell_that_ended_the_session(status: CellStatus, words: str) -> None:
    text = cell_text(CellResult(status=status, stdout="partial\n", session_alive=False))
    assert text.startswith("partial\nError: ") and words in text
    assert "next call starts a fresh interpreter" in text
