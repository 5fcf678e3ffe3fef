"""What a policy sees of one cell of a Python session: a `CellResult` as tool text (pure).

Shared by the TRL environment (`rlvr.adapters.trl.PythonSandbox`) and the verl tool
(`rlvr.adapters.verl_tools`), so both frameworks' policies read the same words.
"""

from __future__ import annotations

from rlvr.schemas.sessions import CellResult, CellStatus

DEFAULT_MAX_CHARS = 4000
NO_OUTPUT = "(no output)"

# Why a session ended, in the words the model reads; the next call starts a fresh interpreter.
ENDED = {
    CellStatus.timed_out: "the code ran past its time limit and was stopped",
    CellStatus.memory_exceeded: "the code ran out of memory and was stopped",
    CellStatus.output_limit_exceeded: "the code printed too much and was stopped",
    CellStatus.session_lost: "the Python session was lost",
}
RESTARTED = "Note: the previous Python session ended; this ran in a fresh interpreter, so earlier "
RESTARTED += "variables and imports are gone."


def cut_middle(text: str, max_chars: int) -> str:
    """`text` within `max_chars`, its middle cut so that both its start and its end stay visible
    (the start of an output and the end of a traceback are what a model needs)."""
    if len(text) <= max_chars:
        return text
    keep = max(0, max_chars - 40)
    head, tail = text[: keep // 2], text[len(text) - (keep - keep // 2) :]
    return f"{head}\n... [{len(text) - keep} characters cut] ...\n{tail}"


def cell_text(result: CellResult, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """One cell as the model should see it: what it printed, then the value of its final
    expression; for an exception, the traceback (else `Type: message`); for a cell that ended
    the session, why, and that its variables are gone. Never empty."""
    parts = [result.stdout.rstrip("\n")] if result.stdout else []
    if result.status == CellStatus.ok:
        if result.value is not None:
            parts.append(result.value)
    elif result.status == CellStatus.error:
        parts.append((result.stderr or result.error or "Error").rstrip("\n"))
    elif result.status == CellStatus.sandbox_error:
        parts.append(f"Error: the sandbox could not run this code ({result.error or 'unknown'}).")
    else:
        if result.stderr:
            parts.append(result.stderr.rstrip("\n"))
        why = ENDED.get(result.status, f"the session ended ({result.status.value})")
        detail = (
            f" ({result.error})"
            if result.status == CellStatus.session_lost and result.error
            else ""
        )
        parts.append(
            f"Error: {why}{detail}. The session has ended: its variables are gone, and the next "
            "call starts a fresh interpreter."
        )
    text = "\n".join(part for part in parts if part)
    return cut_middle(text or NO_OUTPUT, max_chars)
