"""PID 1's processes (`Supervisor`): runs and their pipes, captures, deadlines, the sweep.

Everything here is about processes, not tests: how a run is spawned (through the zygote or the
launcher), pumped (captures, a deadline), and cleaned up after (kill the group, stop and kill
strays, wipe every writable place, compare PID 1's and the zygote's attributes). What a job
*does* with its tests is `jobs.py`; the container's story as a whole is told in `executor.py`.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any, TypedDict, cast

from rlvr.verifier.sandbox.inside.fds import write_all
from rlvr.verifier.sandbox.inside.jobspace import JobSpace
from rlvr.verifier.sandbox.inside.launcher import Launcher, launchable
from rlvr.verifier.sandbox.inside.procs import (
    decode_status,
    other_pids,
    process_attributes,
    reap_all,
)
from rlvr.verifier.sandbox.inside.wipe import wipe_dir, wipe_ipc
from rlvr.verifier.sandbox.inside.work_files import read_work_files
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT, SpawnRequest, Zygote, ZygoteLost
from rlvr.verifier.sandbox.wire.protocol import ExecutorConfig, Limits

SHM_ROOT = "/dev/shm"
MQUEUE_ROOT = "/dev/mqueue"
# Time PID 1 spends emptying the tmpfs after one run; past it the container is dirty (retired).
_WIPE_BUDGET_S = 2.0
# What an empty tmpfs may still count as used (the filesystem's own blocks); more is a leftover.
_TMPFS_SLACK_BYTES = 1 << 20


class ProcessOutcome(TypedDict):
    """How one plain process run ended (a stdio test, a compiler)."""

    exit_code: int | None
    signal: int | None
    timed_out: bool
    stdout_bytes: bytes
    stdout_over: bool
    stderr: str
    elapsed_s: float
    anomalies: list[str]
    phases_ms: dict[str, float]


class ContainerDirty(Exception):
    """What a run left could not be removed: no further run here (the container is retired)."""


class Capture:
    """A capped read end of a pipe: keeps the head, counts the rest."""

    def __init__(self, fd: int, limit: int, stops_run: bool = True) -> None:
        self.fd, self.limit = fd, limit
        self.stops_run = stops_run  # False: past the limit it is only truncated (a judge's)
        self.chunks: list[bytes] = []
        self.size = 0
        self.is_open = True

    def feed(self) -> None:
        data = os.read(self.fd, 1 << 16)
        if not data:
            self.is_open = False
            return
        if self.size < self.limit:
            self.chunks.append(data[: self.limit - self.size])
        self.size += len(data)

    @property
    def is_over(self) -> bool:
        return self.size > self.limit

    def data(self) -> bytes:
        return b"".join(self.chunks)

    def text(self) -> str:
        return self.data().decode("utf-8", "replace")


class Run:
    """One run of a candidate process (plus its harness), driven by PID 1 to completion."""

    def __init__(self, supervisor: Supervisor, deadline: float) -> None:
        self.supervisor = supervisor
        self.deadline = deadline
        self.selector = selectors.DefaultSelector()
        self.to_close: list[int] = []
        self.pid: int | None = None  # the candidate (or the only process) of this run
        self.pids: list[int] = []  # every process the zygote spawned for this run
        self.statuses: dict[int, int] = {}  # wait statuses, as the zygote reports exits
        self.harness_pid: int | None = None
        self.launched = False  # started by PID 1 through the launcher, not by the zygote
        self.pidfd: int | None = None  # the launched run's: readable once it has exited
        self.status: int | None = None  # self.pid's
        self.timed_out = False
        self.output_over = False
        self.marks: dict[str, float] = {"start": time.monotonic()}

    def pipe(self) -> tuple[int, int]:
        read_fd, write_fd = os.pipe()
        self.to_close += [read_fd, write_fd]
        return read_fd, write_fd

    def close(self, fd: int) -> None:
        if fd in self.to_close:
            self.to_close.remove(fd)
            with contextlib.suppress(OSError):
                os.close(fd)

    def capture(self, fd: int, stops_run: bool = True) -> Capture:
        capture = Capture(fd, self.supervisor.output_limit, stops_run)
        os.set_blocking(fd, False)
        self.selector.register(fd, selectors.EVENT_READ, capture)
        return capture

    def spawn(self, request: SpawnRequest, child_fds: list[int]) -> None:
        self.marks["spawn"] = time.monotonic()
        self.pid = self.supervisor.zygote.spawn(request, child_fds)
        self.pids = [self.pid]
        self.marks["spawned"] = time.monotonic()
        for fd in child_fds:
            self.close(fd)
        self.selector.register(self.supervisor.zygote.sock, selectors.EVENT_READ, "zygote")

    def launch(self, request: SpawnRequest, child_fds: list[int], program_fd: int | None) -> bool:
        """Start the run through the launcher, PID 1's own child watched by a pidfd; False
        if the launcher could not start it (the caller then asks the zygote)."""
        launcher = self.supervisor.launcher
        if launcher is None or not launchable(request, child_fds):
            return False
        if self.supervisor.jobspace is not None:  # in the job's namespaces: the zygote starts it
            launch = launcher.launch_request(request, program_fd)
            self.spawn(launch, launcher.run_fds(child_fds, program_fd))
            return True
        self.marks["spawn"] = time.monotonic()
        try:
            pid = launcher.spawn(request, child_fds, program_fd)
        except OSError:
            return False
        self.pid, self.pids, self.launched = pid, [pid], True
        try:
            self.pidfd = os.pidfd_open(pid)
        except OSError:  # it runs: it is watched by polling (probed at start, so not expected)
            self.pidfd = None
        self.marks["spawned"] = time.monotonic()
        for fd in child_fds:
            self.close(fd)
        if self.pidfd is not None:
            self.selector.register(self.pidfd, selectors.EVENT_READ, "exit")
        return True

    def reap_launched(self, block: bool) -> None:
        """The launched run's wait status, once it has exited (or at once, `block`)."""
        if self.pid is None or self.pid in self.statuses:
            return
        try:
            pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            pid, status = self.pid, -1
        if pid:
            self.record_exit({"pid": pid, "status": status})

    def spawn_group(self, requests: list[SpawnRequest], child_fds: list[list[int]]) -> None:
        """Processes that run side by side; the last one is the candidate (`self.pid`)."""
        self.marks["spawn"] = time.monotonic()
        self.pids = self.supervisor.zygote.spawn_group(requests, child_fds)
        self.pid = self.pids[-1]
        self.marks["spawned"] = time.monotonic()
        for fds in child_fds:
            for fd in fds:
                self.close(fd)
        self.selector.register(self.supervisor.zygote.sock, selectors.EVENT_READ, "zygote")

    def record_exit(self, reply: dict[str, Any] | None) -> None:
        """A zygote message: one process's wait status (None: the zygote is gone, -1 for all)."""
        if reply is None:
            for pid in self.pids:
                self.statuses.setdefault(pid, -1)
        else:
            pid = int(reply.get("pid", self.pid or 0))
            self.statuses[pid] = int(reply.get("status", -1))
        if self.pid is not None and self.pid in self.statuses:
            self.status = self.statuses[self.pid]

    @property
    def is_all_exited(self) -> bool:
        return all(pid in self.statuses for pid in self.pids)

    def remaining_s(self) -> float:
        return self.deadline - time.monotonic()

    def wait(self, is_done: Callable[[], bool], stdin: tuple[int, bytes] | None = None) -> None:
        """Pump pipes until `is_done()` or the deadline; stdin data is written as it drains."""
        pending = memoryview(stdin[1]) if stdin else None
        if stdin and pending:
            os.set_blocking(stdin[0], False)
            try:  # what fits in the pipe now (a test's input, usually): no wake-up to write it
                pending = pending[os.write(stdin[0], pending[: 1 << 16]) :]
            except BlockingIOError:
                pass
            except OSError:  # the program closed its stdin already: it read what it wanted
                pending = memoryview(b"")
        if stdin and not pending:
            self.close(stdin[0])
        elif stdin:
            self.selector.register(stdin[0], selectors.EVENT_WRITE, "stdin")
        while not is_done():
            left = self.remaining_s()
            if left <= 0:
                self.timed_out = True
                return
            polled = self.launched and self.pidfd is None  # no pidfd: look every 2 ms
            for key, _ in self.selector.select(min(left, 0.002 if polled else 1.0)):
                target = key.data
                if target == "zygote":
                    self.record_exit(self.supervisor.zygote.receive(timeout_s=1))
                    if self.is_all_exited:
                        self.selector.unregister(key.fd)
                elif target == "exit":
                    self.reap_launched(block=False)
                    if self.is_all_exited:
                        self.selector.unregister(key.fd)
                elif target == "stdin" and stdin and pending is not None:
                    try:
                        pending = pending[os.write(stdin[0], pending[: 1 << 16]) :]
                    except BlockingIOError:
                        continue
                    except OSError:  # the program closed its stdin: fine, it read what it wanted
                        pending = memoryview(b"")
                    if not pending:
                        self.selector.unregister(stdin[0])
                        self.close(stdin[0])
                elif isinstance(target, Capture):
                    try:
                        target.feed()
                    except BlockingIOError:
                        continue
                    if not target.is_open:
                        self.selector.unregister(key.fd)
                    if target.is_over and target.stops_run:
                        self.output_over = True
                        return
            if polled:
                self.reap_launched(block=False)

    def finish(self) -> list[str]:
        """Kill the run's group and every stray process; return anomalies (empty if clean)."""
        self.marks["finish"] = time.monotonic()
        zygote = self.supervisor.zygote
        for pid in self.pids:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        if self.harness_pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self.harness_pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.harness_pid, 0)
        with contextlib.suppress(OSError):
            os.kill(zygote.pid, signal.SIGCONT)  # in case the candidate stopped it
        if self.launched:
            self.reap_launched(block=True)  # killed above: this does not wait long
            if self.pidfd is not None:
                os.close(self.pidfd)
        while not self.is_all_exited:
            reply = zygote.receive(timeout_s=2)
            self.record_exit(reply)
            if reply is None:
                break
        for fd in list(self.to_close):
            self.close(fd)
        self.selector.close()
        self.marks["sweep"] = time.monotonic()
        anomalies = self.supervisor.sweep()
        self.marks["end"] = time.monotonic()
        return anomalies

    def phases_ms(self) -> dict[str, float]:
        start = self.marks["start"]
        return {k: round((v - start) * 1000, 2) for k, v in self.marks.items() if k != "start"}


class Supervisor:
    """PID 1's processes: the zygote, the runs it spawns, and the cleanup after each."""

    def __init__(self, config: ExecutorConfig) -> None:
        self.output_limit = int(config.get("output_limit_bytes", 1 << 20))
        self.is_clean = True
        self.prepared: list[str] = []  # the top-level files of the last work dir we made
        # `/run_code`'s fetch_files: read by the sweep after the run's processes are killed
        # and before the wipe (`read_work_files`), left in `fetched` for the job
        self.fetch_paths: list[str] = []
        self.fetched: dict[str, str] = {}
        self.tmpfs_mb = int(config.get("tmpfs_mb", 64))
        self.base_zygote, self.namespaces_error = _start_zygote(
            self.tmpfs_mb,
            str(config.get("job_namespaces", "off")),
            bool(config.get("is_job_init_enabled", True)),
        )
        self.has_job_namespaces = self.namespaces_error is None
        self.zygote = self.base_zygote  # what forks the runs (in a job's namespaces, too)
        self.jobspace: JobSpace | None = None  # the running job's
        self._next_space: JobSpace | None = None  # made between jobs, for the next one
        self._finished_space: JobSpace | None = None  # the last job's, closed between jobs
        self.work_root = WORK_ROOT  # where PID 1 writes and wipes the work dir (runs: WORK_ROOT)
        self.work_fd: int | None = None  # the job's tmpfs, open (work_root is its fd link)
        # native runs start through the image's launcher (None: the zygote forks them); in job
        # namespaces the zygote starts it, inside them (`Run.launch`)
        is_launcher_enabled = config.get("is_launcher_enabled", True)
        self.launcher = Launcher.open() if is_launcher_enabled else None
        self.attributes = self.snapshot()

    # -- a job's namespaces

    @contextlib.contextmanager
    def job_space(self) -> Iterator[None]:
        """Run a job in fresh namespaces (where the container has them): the zygote, in them,
        forks the job's runs; PID 1 writes their files in the job's tmpfs. Nothing of it
        outlives it: the space is closed by `between_jobs` (after the result is sent) or before
        the next job."""
        if not self.has_job_namespaces:
            yield
            return
        self._close_finished()
        space, self._next_space = self._next_space, None
        if space is None:
            try:
                space = JobSpace.open(self.base_zygote, self.tmpfs_mb)
            except (OSError, ZygoteLost) as exc:
                self.is_clean = False  # no namespaces for this job: the container is retired
                why = f"not run: the job's namespaces could not be made ({exc})"
                raise ContainerDirty(why) from exc
        self.jobspace, self.zygote = space, space.zygote
        self.work_root, self.work_fd = space.work_root, space.work_fd
        try:
            yield
        finally:
            self.jobspace, self.zygote = None, self.base_zygote
            self.work_root, self.work_fd = WORK_ROOT, None
            self._finished_space = space

    def between_jobs(self) -> None:
        """While the host reads a result and sends the next job: close the finished job's
        space and make the next one (unshare, mounts, the init's start: no job waits for
        them). A next space that cannot be made now is tried again at the job's start."""
        if not self.has_job_namespaces:
            return
        self._close_finished()
        if self._next_space is None and self.base_zygote.is_alive:
            with contextlib.suppress(OSError, ZygoteLost):
                self._next_space = JobSpace.open(self.base_zygote, self.tmpfs_mb)

    def _close_finished(self) -> None:
        if self._finished_space is not None:
            self._finished_space.close()
            self._finished_space = None

    def trusted_pids(self) -> set[int]:
        """PID 1, the zygote and the jobs' inits: what a sweep never kills."""
        spaces = (self.jobspace, self._next_space, self._finished_space)
        return {1, os.getpid(), self.base_zygote.pid, *(p for s in spaces if s for p in s.pids)}

    # -- cleanup

    def sweep(self) -> list[str]:
        """Stop, kill and reap every process but PID 1 and the zygote; wipe every writable
        place. Returns anomalies; never raises."""
        try:
            anomalies = self._kill_strays()
        except Exception as exc:  # reported: the container is retired
            anomalies = [f"sweep failed: {type(exc).__name__}"]
        try:
            pid, _ = os.waitpid(self.zygote.pid, os.WNOHANG)
        except ChildProcessError:
            pid = self.zygote.pid
        if pid != 0 or not self.zygote.is_alive:
            self.zygote.is_alive = False
            anomalies.append("zygote died")
        if self.fetch_paths:  # nothing of the run is left running: its files hold still
            try:
                self.fetched = read_work_files(os.path.join(self.work_root, "w"), self.fetch_paths)
            except Exception:
                self.fetched = {}
        return anomalies + self._clean_places()

    def _kill_strays(self) -> list[str]:
        anomalies: list[str] = []
        reap_all()
        keep = self.trusted_pids()
        if other_pids(keep):
            anomalies.append("leftover process")
            with contextlib.suppress(OSError):
                os.kill(-1, signal.SIGSTOP)  # nothing can fork while we look (not PID 1)
            for _ in range(50):
                for pid in other_pids(keep):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                reap_all()
                if not other_pids(keep):
                    break
                time.sleep(0.01)
            else:
                anomalies.append("a process could not be killed")
            with contextlib.suppress(OSError):
                os.kill(self.zygote.pid, signal.SIGCONT)
        return anomalies

    def kill_all_but_session(self, session: int) -> None:
        """Kill every process but PID 1, the zygote and the members of `session` (a judge's
        session, which no other process can join): what a candidate left running once its
        main process ended must not go on talking to the judge past the candidate's time."""
        # the judge itself by pid: it may not have made its session yet (a loaded machine)
        keep = {*self.trusted_pids(), session}
        stopped = False
        try:
            for round_ in range(20):
                # A process in state Z is not always dead: one whose main thread called
                # pthread_exit shows Z while its other threads run (and talk to the judge).
                # Every process outside the judge's session is killed, whatever its state.
                victims = [p for p in other_pids(keep) if _session_of(p) not in (session, None)]
                if not victims:
                    return
                if round_ == 1:  # still some (a process that forks): nothing forks while we look
                    stopped = True
                    with contextlib.suppress(OSError):
                        os.kill(-1, signal.SIGSTOP)
                for pid in victims:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                reap_all()
                time.sleep(0.002)
        finally:
            if stopped:  # the judge and the zygote go on (SIGCONT is no interruption to them)
                for pid in (self.zygote.pid, session):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGCONT)
                with contextlib.suppress(OSError):
                    os.killpg(session, signal.SIGCONT)

    def _clean_places(self) -> list[str]:
        """Empty every place a run could write to; what remains is an anomaly."""
        anomalies: list[str] = []
        try:
            found, ipc_clean = wipe_ipc(MQUEUE_ROOT)
            if found:
                anomalies.append("IPC objects left behind")
            if not ipc_clean:
                anomalies.append("IPC objects could not be removed")
        except Exception as exc:
            anomalies.append(f"IPC wipe failed: {type(exc).__name__}")
        self.is_clean = (
            _left_nothing(self.work_root, self.prepared)
            or wipe_dir(self.work_root, _WIPE_BUDGET_S, self.work_fd)
        ) and wipe_dir(SHM_ROOT, 1.0)
        try:
            usage = os.statvfs(self.work_root)
            used = (usage.f_blocks - usage.f_bfree) * usage.f_frsize
            if os.listdir(self.work_root) or used > _TMPFS_SLACK_BYTES:
                self.is_clean = False
        except OSError:
            self.is_clean = False
        if not self.is_clean:
            anomalies.append("tmpfs not clean")
        return anomalies

    def snapshot(self) -> dict[int, tuple[object, ...]]:
        return {pid: process_attributes(pid) for pid in (os.getpid(), self.base_zygote.pid)}

    def changed_attributes(self) -> list[str]:
        """A candidate of the same uid changed PID 1's or the zygote's rlimits, nice value,
        affinity, scheduling... (seccomp forbids it; this is the second line)."""
        if not self.base_zygote.is_alive:
            return []
        try:
            if self.snapshot() == self.attributes:
                return []
        except Exception:  # unreadable: treat as changed
            pass
        return ["sandbox process attributes changed"]

    # -- one run

    def prepare_dir(self, files: dict[str, bytes]) -> str:
        if not self.is_clean:
            raise ContainerDirty("not run: the sandbox could not be cleaned after this program")
        work = os.path.join(self.work_root, "w")
        try:
            os.mkdir(work, 0o700)
        except OSError as exc:
            self.is_clean = False
            raise ContainerDirty(f"not run: the sandbox's work dir is unusable ({exc})") from exc
        self.prepared = [name for name in files if "/" not in name]
        for name, data in files.items():
            path = os.path.join(work, name)
            if "/" in name:  # a compiled artefact's subdirectory (Java packages)
                os.makedirs(os.path.dirname(path), 0o700, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
            write_all(fd, data)
            os.close(fd)
        return os.path.join(WORK_ROOT, "w")  # as the runs see it

    def child_request(self, mode: str, cwd: str, limits: Limits, **extra: Any) -> SpawnRequest:
        memory = int(limits["memory_mb"]) * 1024 * 1024
        cpu = int(limits["timeout_s"]) + 1
        rlimits = {
            "cpu": cpu,
            "as": memory,
            "fsize": int(limits["file_size_mb"]) * 1024 * 1024,
            "nproc": int(limits["nproc"]),
            "core": 0,
            "nofile": 256,
        }
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": cwd, "LANG": "C.UTF-8"}
        request = {"mode": mode, "cwd": cwd, "rlimits": rlimits, "env": env, **extra}
        return cast(SpawnRequest, request)

    def run_process(
        self,
        request: SpawnRequest,
        stdin_data: bytes,
        deadline: float,
        program_fd: int | None = None,
    ) -> ProcessOutcome:
        """A program reading stdin (stdio tests, the compiler): exit status and capped output.
        `program_fd`: the sealed memfd the program is exec'd from (the caller keeps it)."""
        run = Run(self, deadline)
        started = time.monotonic()
        anomalies: list[str] = []
        try:
            stdin_r, stdin_w = run.pipe()
            out_r, out_w = run.pipe()
            err_r, err_w = run.pipe()
            stdout, stderr = run.capture(out_r), run.capture(err_r)
            if not run.launch(request, [stdin_r, out_w, err_w], program_fd):
                program = [] if program_fd is None else [program_fd]
                fd_request = cast(SpawnRequest, {**request, "exec_fd": bool(program)})
                run.spawn(fd_request, [stdin_r, out_w, err_w, *program])

            def is_done() -> bool:
                return run.status is not None and not stdout.is_open and not stderr.is_open

            run.wait(is_done, stdin=(stdin_w, stdin_data))
            if run.status is not None and not run.timed_out and (stdout.is_open or stderr.is_open):
                run.deadline = min(run.deadline, time.monotonic() + 0.05)
                run.wait(lambda: not stdout.is_open and not stderr.is_open)
                run.timed_out = False  # a stray holder of the pipe: the program itself ended
        finally:
            anomalies = run.finish()
        code, sig = decode_status(run.status) if run.status is not None else (None, None)
        return {
            "exit_code": code,
            "signal": sig,
            "timed_out": run.timed_out,
            "stdout_bytes": stdout.data(),
            "stdout_over": stdout.is_over,
            "stderr": head_and_tail(stderr.text()),
            "elapsed_s": time.monotonic() - started,
            "anomalies": anomalies,
            "phases_ms": run.phases_ms(),
        }


def _left_nothing(root: str, prepared: list[str]) -> bool:
    """The common case, checked in a few calls: the work dir holds at most the files PID 1 put
    there (`prepared`: the source, a copied artefact), and `root` nothing else. True once they
    and the dir are removed and `root` is empty; anything more (a file the run made, a
    directory where a file was) and the full wipe runs. The statvfs check after it applies
    either way."""
    work = os.path.join(root, "w")
    for name in prepared:
        try:
            os.unlink(
                os.path.join(work, name)
            )  # a symlink put in its place: removed, never followed
        except FileNotFoundError:
            pass
        except OSError:
            return False
    try:
        os.rmdir(work)
    except FileNotFoundError:
        pass
    except OSError:  # not empty, or not a directory: the full wipe
        return False
    try:
        return not os.listdir(root)
    except OSError:
        return False


def _session_of(pid: int) -> int | None:
    """A process's session id, in any state (None: gone, or unreadable). A zombie's session is
    its own still: killing an exited one is harmless, sparing a Z leader with live threads is
    not."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()  # after `pid (comm) `: state ppid pgrp session
    if len(fields) < 4 or fields[0] == b"X":
        return None
    return int(fields[3])


class TestClock:
    """Per-test wall deadlines inside a session: each finished test restarts the clock."""

    def __init__(self, run: Run, timeout_s: float, cap: float | None = None) -> None:
        self.run, self.timeout_s, self.cap = run, timeout_s, cap
        self.started = time.monotonic()

    def lap(self) -> float:
        now = time.monotonic()
        elapsed = now - self.started
        self.started = now
        self.run.deadline = min(now + self.timeout_s, self.cap or float("inf"))
        return elapsed


class LineReader:
    """Complete JSON lines out of a Capture, as they arrive."""

    def __init__(self, capture: Capture) -> None:
        self.capture = capture
        self.consumed = 0

    def take(self) -> list[dict[str, Any]]:
        data = b"".join(self.capture.chunks)
        messages: list[dict[str, Any]] = []
        while True:
            end = data.find(b"\n", self.consumed)
            if end < 0:
                return messages
            line = data[self.consumed : end]
            self.consumed = end + 1
            try:
                message = json.loads(line)
            except Exception:  # the candidate's bytes: deep nesting, junk
                message = {"broken": True}
            messages.append(message if type(message) is dict else {"broken": True})


def head_and_tail(text: str, head: int = 600, tail: int = 1400) -> str:
    """A long stderr's first and last lines: a runtime's fatal message comes first (Go's
    "fatal error: runtime: out of memory", Node's "JavaScript heap out of memory"), then a
    dump of goroutines or native frames; a traceback's last line comes last."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n[...]\n{text[-tail:]}"


def _start_zygote(tmpfs_mb: int, mode: str, job_init: bool = True) -> tuple[Zygote, str | None]:
    """The zygote, and why jobs do not get their own namespaces (None: they do).

    `mode` is the host's `job_namespaces` setting: `off`; `preferred` (tried once here: a
    container whose engine refuses them runs jobs in its shared namespaces, and says so in
    its ready message); `required` (refused: the container does not start). `job_init`: each
    job's init from the image's binary, where it has one."""
    if mode == "off":
        return Zygote.start(), "off"
    try:
        zygote = Zygote.start(namespaces="jobs", job_init=job_init)
    except RuntimeError as exc:  # its home namespaces refused
        why = f"{type(exc).__name__}: {exc}"[:300]
    else:
        try:
            JobSpace.open(zygote, tmpfs_mb).close()
            if zygote.is_alive:
                return zygote, None
            why = "the zygote could not leave a job space"
        except (OSError, ZygoteLost) as exc:
            why = f"{type(exc).__name__}: {exc}"[:300]
        _stop(zygote)
    if mode == "required":
        raise RuntimeError(f"job namespaces are required and not available here: {why}")
    return Zygote.start(), why  # with the whole filter: namespaces refused to every run


def _stop(zygote: Zygote) -> None:
    with contextlib.suppress(OSError):
        os.kill(zygote.pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(zygote.pid, 0)
    zygote.sock.close()
