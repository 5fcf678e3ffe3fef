"""Dataset code that judges a candidate, run out of its reach (stdlib only; in sandboxes).

Two kinds, both the problem's own programs (Python, or C++ compiled once per job):

* a **checker** (`checker <input> <output> <answer>`, testlib's convention) runs only after the
  candidate's run is over: its process group killed, every stray process killed, every
  writable place wiped. PID 1 then writes the test's input, the output it captured and the
  expected answer into a fresh work dir. No candidate process exists while the checker runs,
  so nothing can signal, trace or feed it, and the output it reads can no longer change.
* an **interactor** runs beside the candidate (its stdout is the candidate's stdin and the
  other way round), so it needs more: its test input is a sealed memfd (argv[1] is
  `/dev/fd/3`), never a file in the candidate's tmpfs; its process is non-dumpable (a Python
  interactor is a fork of the non-dumpable zygote; a C++ one is exec'd from an execute-only
  memfd, which the kernel marks non-dumpable), so the candidate cannot open its
  `/proc/PID/{fd,mem,environ}`; and the candidate runs under a second seccomp filter that
  refuses every signal to a process outside its own group (`kill`, `tkill`, `tgkill`, the
  queue calls, `pidfd_open`, and SIGIO ownership through `fcntl`/`ioctl`).

A judge's exit status means what testlib's does (`protocol.judge_outcome`); a judge that
crashes, is killed or times out is the verifier's fault (`error` on the host), never a pass.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import cast

from rlvr.verifier.sandbox.inside.fds import sealed_memfd
from rlvr.verifier.sandbox.inside.procs import decode_status
from rlvr.verifier.sandbox.inside.supervisor import Run, Supervisor
from rlvr.verifier.sandbox.inside.zygote import SpawnRequest
from rlvr.verifier.sandbox.wire.protocol import InteractiveReport, JudgeReport, Limits

_STDERR_TAIL = 2000


@dataclass(frozen=True)
class Judge:
    """A checker or interactor ready to run: Python source, or a compiled binary."""

    language: str
    source: bytes
    binary: bytes | None = None


def judge_report(
    exit_code: int | None, sig: int | None, timed_out: bool, stderr: str, elapsed_s: float
) -> JudgeReport:
    return {
        "exit_code": exit_code,
        "signal": sig,
        "timed_out": timed_out,
        "stderr": stderr[-_STDERR_TAIL:],
        "elapsed_s": round(elapsed_s, 4),
    }


def run_checker(
    supervisor: Supervisor,
    judge: Judge,
    limits: Limits,
    input_: bytes,
    output: bytes,
    answer: bytes,
) -> tuple[JudgeReport, list[str]]:
    """The checker on files PID 1 writes after the candidate's run was swept."""
    files = {"input.txt": input_, "output.txt": output, "answer.txt": answer}
    if judge.binary is not None:
        cwd = supervisor.prepare_dir({**files, "checker": judge.binary})
        argv = [os.path.join(cwd, "checker"), "input.txt", "output.txt", "answer.txt"]
        request = supervisor.child_request("exec", cwd, limits, argv=argv, is_judge=True)
    else:
        cwd = supervisor.prepare_dir({**files, "checker.py": judge.source})
        path = os.path.join(cwd, "checker.py")
        args = ["input.txt", "output.txt", "answer.txt"]
        request = supervisor.child_request(
            "python-main", cwd, limits, path=path, args=args, is_judge=True
        )
    deadline = time.monotonic() + float(limits["timeout_s"])
    outcome = supervisor.run_process(request, b"", deadline)
    report = judge_report(
        outcome["exit_code"],
        outcome["signal"],
        outcome["timed_out"],
        outcome["stderr"],
        outcome["elapsed_s"],
    )
    return report, outcome["anomalies"]


def interactor_request(
    supervisor: Supervisor, judge: Judge, limits: Limits, program_fd_number: int
) -> SpawnRequest:
    """The interactor's spawn request: argv[1] is its input (fd 3); its program is fd 4."""
    input_path = "/dev/fd/3"
    if judge.binary is not None:
        argv = ["interactor", input_path]
        return supervisor.child_request(
            "exec-fd", "/", limits, fd=program_fd_number, argv=argv, is_judge=True
        )
    path = f"/dev/fd/{program_fd_number}"
    return supervisor.child_request(
        "python-main", "/", limits, path=path, args=[input_path], is_judge=True
    )


def run_interactive(
    supervisor: Supervisor,
    judge: Judge,
    judge_limits: Limits,
    candidate: SpawnRequest,
    input_: bytes,
    deadline: float,
) -> tuple[InteractiveReport, list[str]]:
    """The candidate and the interactor side by side until both end, or the deadline.

    The candidate's deadline is the test's; once the candidate has ended, the interactor gets
    its own time limit to give its verdict. An interactor that rejects early ends the run at
    once (the candidate is killed). The report's `judge` is absent when the candidate ran out
    of time (the interactor was then waiting for it, not at fault).
    """
    run = Run(supervisor, deadline)
    started = time.monotonic()
    candidate_exit: float | None = None
    try:
        to_judge_r, to_judge_w = run.pipe()
        to_candidate_r, to_candidate_w = run.pipe()
        judge_err_r, judge_err_w = run.pipe()
        cand_err_r, cand_err_w = run.pipe()
        judge_stderr = run.capture(judge_err_r, stops_run=False)
        cand_stderr = run.capture(cand_err_r)
        input_fd = sealed_memfd("input", input_, 0o400)
        run.to_close.append(input_fd)
        program = judge.binary if judge.binary is not None else judge.source
        program_fd = sealed_memfd("interactor", program, 0o100 if judge.binary else 0o400)
        run.to_close.append(program_fd)
        request = interactor_request(supervisor, judge, judge_limits, 4)
        run.spawn_group(
            [request, cast(SpawnRequest, {**candidate, "confine_signals": True})],
            [
                [to_judge_r, to_candidate_w, judge_err_w, input_fd, program_fd],
                [to_candidate_r, to_judge_w, cand_err_w],
            ],
        )
        judge_pid = run.pids[0]

        def judge_rejected() -> bool:
            status = run.statuses.get(judge_pid)
            return status is not None and decode_status(status) != (0, None)

        run.wait(lambda: run.status is not None or judge_rejected())
        candidate_timed_out = run.timed_out
        if run.status is not None and not run.output_over:
            candidate_exit = time.monotonic()
            # what the candidate left running (a daemon holding its stdout) ends with it
            supervisor.kill_all_but_session(judge_pid)
            # the candidate ended: the interactor has its own time to decide
            run.timed_out = False
            run.deadline = candidate_exit + float(judge_limits["timeout_s"])
            run.wait(lambda: judge_pid in run.statuses)
        judge_timed_out = run.timed_out and not candidate_timed_out
        judge_status = run.statuses.get(judge_pid)  # before `finish` kills what still runs
    finally:
        anomalies = run.finish()
    elapsed = (candidate_exit or time.monotonic()) - started
    code, sig = decode_status(run.status) if run.status is not None else (None, None)
    report: InteractiveReport = {
        "kind": "interactive",
        "exit_code": code,
        "signal": sig,
        "timed_out": candidate_timed_out,
        "output_over": run.output_over,
        "stderr": cand_stderr.text()[-_STDERR_TAIL:],
        "elapsed_s": elapsed,
    }
    if judge_timed_out:
        report["judge"] = judge_report(None, None, True, judge_stderr.text(), elapsed)
    elif judge_status is not None and judge_status != -1:
        j_code, j_sig = decode_status(judge_status)
        report["judge"] = judge_report(j_code, j_sig, False, judge_stderr.text(), elapsed)
    return report, anomalies
