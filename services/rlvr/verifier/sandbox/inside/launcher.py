"""Native runs started by PID 1 through the image's launcher (stdlib only; runs inside sandboxes).

A compiled binary, a compiler, a JVM or Node does not need the warm interpreter the zygote is
kept for, only its rules. Forking that interpreter and setting the run up in Python costs ~2 ms
before the exec, more than the whole run of a small native program; so where the image has the
launcher (`docker/sandbox/launch.c`, a freestanding static binary in the read-only root), PID 1
starts it with posix_spawn (vfork: nothing of PID 1's memory is copied, and PID 1 waits only
until the launcher is exec'd). The launcher installs the zygote's seccomp filter on itself (a
sealed memfd here), enters the work dir, sets the rlimits, resets signals, closes every other
descriptor and execs the program: the run is bound exactly as a forked one. PID 1 learns of its
exit from a pidfd, with no process in between.

A launcher that is missing, writable by someone, or fails its start-up probe is not used: the
zygote then forks every run, as before.
"""

from __future__ import annotations

import fcntl
import os
import resource
import shutil
from typing import TypeGuard

from rlvr.verifier.sandbox.inside.fds import sealed_memfd
from rlvr.verifier.sandbox.inside.procs import CATCHABLE_SIGNALS
from rlvr.verifier.sandbox.inside.seccomp import seccomp_program
from rlvr.verifier.sandbox.inside.zygote import ExecRequest, LaunchRequest, SpawnRequest

LAUNCHER_PATH = "/usr/local/libexec/rlvr-launch"
# Descriptors of the launched process, after its stdin, stdout and stderr.
FILTER_FD, PROGRAM_FD = 3, 4


def is_launcher_trusted(path: str) -> bool:
    """A root-owned executable no one else can write (the root file system is read-only in a
    sandbox; this also refuses a launcher someone could replace)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return info.st_uid == 0 and not info.st_mode & 0o022 and os.access(path, os.X_OK)


def launchable(request: SpawnRequest, fds: list[int]) -> TypeGuard[ExecRequest]:
    """Whether a zygote request can go through the launcher instead: a plain `exec` run on
    stdin, stdout and stderr. Judges' binaries (`exec-fd`) and candidates confined beside an
    interactor (their filter names their own pid) are forked."""
    return request["mode"] == "exec" and not request.get("confine_signals") and len(fds) == 3


def launch_argv(path: str, request: ExecRequest, has_program: bool) -> list[str]:
    """`rlvr-launch CWD FILTER_FD EXEC_FD|- COUNT [RESOURCE VALUE]... PATH ARGV0 [ARG]...`"""
    limits: list[str] = []
    for name, value in request["rlimits"].items():
        limits += [str(getattr(resource, f"RLIMIT_{name.upper()}")), str(int(value))]
    argv = [str(word) for word in request["argv"]]
    exec_fd = str(PROGRAM_FD) if has_program else "-"
    head = [path, str(request["cwd"]), str(FILTER_FD), exec_fd, str(len(limits) // 2)]
    return [*head, *limits, argv[0], *argv]


def spawn_launcher(request: LaunchRequest, fds: list[int]) -> int:
    """posix_spawn the launcher with `fds` as its 0, 1, 2, ... (PID 1's way, and a job
    spawner's inside the job's namespaces). Raises OSError."""
    # dup2 in order onto 0, 1, 2, ...: a source among those numbers is first copied above
    # them, so no action overwrites a descriptor a later one still reads
    copies = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64) for fd in fds if fd < len(fds)]
    sources = iter(copies)
    moved = [next(sources) if fd < len(fds) else fd for fd in fds]
    actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(moved)]
    try:
        return os.posix_spawn(
            request["path"],
            request["argv"],
            request["env"],
            file_actions=actions,
            setsid=True,
            setsigmask=(),
            setsigdef=CATCHABLE_SIGNALS,
        )
    finally:
        for fd in copies:
            os.close(fd)


class Launcher:
    """PID 1's way to start native runs; `open` returns None where it cannot be used."""

    def __init__(self, path: str, filter_program: bytes) -> None:
        self.path = path
        # above the numbers it is moved to in each run, so no run needs a copy of it first
        low = sealed_memfd("seccomp", filter_program, 0o400)
        self.filter_fd = fcntl.fcntl(low, fcntl.F_DUPFD_CLOEXEC, 64)
        os.close(low)

    @classmethod
    def open(cls, path: str = LAUNCHER_PATH) -> Launcher | None:
        if not is_launcher_trusted(path):
            return None
        launcher = cls(path, seccomp_program(os.uname().machine))
        if launcher.probe():
            return launcher
        launcher.close()
        return None

    def spawn(self, request: ExecRequest, fds: list[int], program_fd: int | None) -> int:
        """Start one run: `fds` become its stdin, stdout, stderr; `program_fd` (a sealed
        memfd) is the binary it execs, else `request["argv"][0]`. Raises OSError."""
        return spawn_launcher(
            self.launch_request(request, program_fd), self.run_fds(fds, program_fd)
        )

    def launch_request(self, request: ExecRequest, program_fd: int | None) -> LaunchRequest:
        """What the zygote needs to start the run through the launcher in the job's
        namespaces (its descriptors: `run_fds`)."""
        argv = launch_argv(self.path, request, program_fd is not None)
        return {
            "mode": "launch",
            "path": self.path,
            "argv": argv,
            "env": {str(k): str(v) for k, v in request["env"].items()},
            "cwd": request["cwd"],
            "rlimits": request["rlimits"],
        }

    def run_fds(self, fds: list[int], program_fd: int | None) -> list[int]:
        """The launched process's descriptors in order: stdin, stdout, stderr, the filter, the
        binary (if any)."""
        return [*fds, self.filter_fd] + ([program_fd] if program_fd is not None else [])

    def probe(self) -> bool:
        """One launched run of `cat /proc/self/oom_score_adj` that must exit 0 and print 1000,
        watched through a pidfd as every run is: a launcher built for another machine, a
        filter the kernel refuses, an engine without pidfds, or an older launcher that leaves
        runs at PID 1's OOM score means forked runs instead."""
        program = shutil.which("cat", path="/usr/bin:/bin")
        if program is None:
            return False
        null = os.open(os.devnull, os.O_RDWR)
        read_end, write_end = os.pipe()
        request: ExecRequest = {
            "mode": "exec",
            "cwd": "/",
            "rlimits": {"core": 0},
            "argv": [program, "/proc/self/oom_score_adj"],
            "env": {},
        }
        try:
            pid = self.spawn(request, [null, write_end, null], None)
            os.close(write_end)
            write_end = -1
            pidfd = os.pidfd_open(pid)
            os.close(pidfd)
            printed = os.read(read_end, 64)
            _, status = os.waitpid(pid, 0)
        except OSError:
            return False
        finally:
            for fd in (null, read_end, write_end):
                if fd >= 0:
                    os.close(fd)
        return os.waitstatus_to_exitcode(status) == 0 and printed.strip() == b"1000"

    def close(self) -> None:
        os.close(self.filter_fd)
