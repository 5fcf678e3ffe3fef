"""PID 1's plumbing on the real kernel: the wipe (whatever a candidate left), the seccomp filter."""

from __future__ import annotations

import fcntl
import os
import resource
import signal
import socket
import threading
from pathlib import Path

import pytest

from rlvr.verifier.sandbox.inside import harness
from rlvr.verifier.sandbox.inside.fds import place_fds
from rlvr.verifier.sandbox.inside.procs import process_attributes
from rlvr.verifier.sandbox.inside.seccomp import (
    install_seccomp,
    job_filter_program,
    seccomp_program,
    signal_filter_program,
)
from rlvr.verifier.sandbox.inside.wipe import wipe_dir


def test_wipe_empties_deep_unreadable_and_special_entries(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    root.mkdir()
    deep = os.open(root, os.O_RDONLY)
    for _ in range(3000):  # far past the recursion limit and PATH_MAX (200-char names)
        os.mkdir("d" * 200, dir_fd=deep)
        below = os.open("d" * 200, os.O_RDONLY, dir_fd=deep)
        os.close(deep)
        deep = below
    os.mkfifo("fifo", dir_fd=deep)
    os.symlink(str(outside), "link", dir_fd=deep)
    os.close(deep)
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("x")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(root / "a" / "sock"))
    os.symlink(str(tmp_path), root / "up")  # never followed
    (root / ".wipe0").mkdir()  # the names the wipe itself uses
    (root / ".wipe1").write_text("x")
    for path in (root / "a" / "b", root / "a"):
        path.chmod(0)
    try:
        assert wipe_dir(str(root), budget_s=600) is True  # no timing here: a loaded machine
        assert os.listdir(root) == []
        assert outside.read_text() == "keep" and tmp_path.exists()
    finally:  # pytest's own cleanup of old tmp dirs recurses: never leave it a deep tree
        wipe_dir(str(root), budget_s=600)


def test_wipe_reports_what_it_could_not_finish_in_its_budget(tmp_path: Path) -> None:
    for index in range(100):
        (tmp_path / str(index)).write_text("x")
    assert wipe_dir(str(tmp_path), budget_s=0.0) is False
    assert wipe_dir(str(tmp_path), budget_s=600) is True


def test_wipe_of_a_missing_place_is_clean(tmp_path: Path) -> None:
    assert wipe_dir(str(tmp_path / "absent")) is True


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86_64 syscall numbers below")
def test_seccomp_refuses_acting_on_other_processes_but_not_on_itself() -> None:
    """In a forked child of this test (the filter is permanent): what is refused, what is not."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            install_seccomp(seccomp_program("x86_64"))
            parent = os.getppid()
            outcomes = []
            for action in (
                lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE),
                lambda: os.setpriority(os.PRIO_PROCESS, parent, 19),
                lambda: os.setpriority(os.PRIO_USER, 0, 19),
                lambda: os.sched_setaffinity(parent, os.sched_getaffinity(0)),
                lambda: os.sched_setscheduler(parent, os.SCHED_BATCH, os.sched_param(0)),
                lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)),
                lambda: os.setpriority(os.PRIO_PROCESS, 0, 1),
                lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)),
            ):
                try:
                    action()
                    outcomes.append("ok")
                except PermissionError:
                    outcomes.append("refused")
            os.write(write_fd, ",".join(outcomes).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    os.waitpid(pid, 0)
    seen = os.read(read_fd, 1000).decode().split(",")
    assert seen == ["refused"] * 5 + ["ok"] * 3


def _io_uring_setup() -> None:
    import ctypes

    params = ctypes.create_string_buffer(120)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(425, 4, params) < 0:
        raise OSError(ctypes.get_errno(), "io_uring_setup")


def _set_dumpable() -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(4, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl")


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86_64 syscall numbers")
def test_seccomp_refuses_state_that_outlives_a_run_and_keeps_what_runs_need(
    tmp_path: Path,
) -> None:
    """Sockets of any family but AF_UNIX (TIME_WAIT on loopback), memfds (memory no rlimit
    counts), extended attributes, io_uring, PR_SET_DUMPABLE (the OOM score): refused; unix
    sockets, pipes, files, reading xattrs: as before."""
    target = tmp_path / "file"
    target.write_text("x")
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            install_seccomp(seccomp_program("x86_64"))
            outcomes = []
            for action in (
                lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close(),
                lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close(),
                lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW).close(),
                lambda: socket.socketpair(socket.AF_INET),
                lambda: os.close(os.memfd_create("x")),
                lambda: os.setxattr(target, "user.k", b"v"),
                lambda: os.removexattr(target, "user.k"),
                _io_uring_setup,
                _set_dumpable,
                lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close(),
                lambda: [s.close() for s in socket.socketpair(socket.AF_UNIX)],
                lambda: [os.close(fd) for fd in os.pipe()],
                lambda: os.listxattr(target),
            ):
                try:
                    action()
                    outcomes.append("ok")
                except PermissionError:
                    outcomes.append("refused")
                except OSError as exc:
                    outcomes.append(f"errno {exc.errno}")
            os.write(write_fd, ",".join(outcomes).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    os.waitpid(pid, 0)
    seen = os.read(read_fd, 1000).decode().split(",")
    assert seen == ["refused"] * 9 + ["ok"] * 4


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86_64 syscall numbers")
def test_signal_filter_keeps_a_candidate_to_its_own_group() -> None:
    """Beside an interactor: no signal by pid to another process, every way to send one."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            me, parent = os.getpid(), os.getppid()
            install_seccomp(signal_filter_program("x86_64", me))
            outcomes = []
            for action in (
                lambda: os.kill(parent, 0),
                lambda: os.kill(-1, 0),
                lambda: os.killpg(os.getpgid(parent), 0),
                lambda: signal.pthread_kill(threading.main_thread().ident or 0, 0),
                lambda: os.pidfd_open(parent),
                lambda: signal.pidfd_send_signal(os.open(f"/proc/{parent}", os.O_RDONLY), 0),
                lambda: fcntl.fcntl(write_fd, fcntl.F_SETOWN, parent),
                lambda: fcntl.fcntl(write_fd, 10, signal.SIGKILL),  # F_SETSIG
                lambda: os.kill(me, 0),
                lambda: os.kill(0, 0),
                lambda: os.kill(-me, 0),
                lambda: os.close(os.pidfd_open(me)),
                lambda: fcntl.fcntl(write_fd, fcntl.F_GETFL),
            ):
                try:
                    action()
                    outcomes.append("ok")
                except PermissionError:
                    outcomes.append("refused")
            os.write(write_fd, ",".join(outcomes).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    os.waitpid(pid, 0)
    seen = os.read(read_fd, 1000).decode().split(",")
    # pthread_kill(own main thread) is tgkill(own pid): allowed
    assert seen == ["refused"] * 3 + ["ok"] + ["refused"] * 4 + ["ok"] * 5


def test_candidate_exceptions_are_distinct_and_never_protocol_signals() -> None:
    value_error = harness.candidate_exception("ValueError", "bad")
    assert isinstance(value_error, ValueError)
    assert isinstance(value_error, harness.CandidateException)
    for name in ("StopIteration", "StopAsyncIteration", "AssertionError", "Nope"):
        raised = harness.candidate_exception(name, "")
        assert type(raised) is harness.CandidateError
        assert not isinstance(raised, StopIteration | StopAsyncIteration | AssertionError)
    for name in ("SystemExit", "KeyboardInterrupt", "GeneratorExit"):
        interrupt = harness.candidate_exception(name, "")
        assert type(interrupt) is harness.CandidateInterrupt
        assert not isinstance(interrupt, Exception | SystemExit | KeyboardInterrupt | GeneratorExit)
    assert isinstance(harness.candidate_exception("UnicodeDecodeError", "x"), Exception)


@pytest.mark.skipif(os.geteuid() != 0, reason="raising a limit back needs root")
def test_attribute_snapshot_sees_every_change_a_same_uid_process_could_make() -> None:
    """The second line behind seccomp: PID 1 compares these before and after every job."""
    pid = os.fork()
    if pid == 0:
        signal.pause()
        os._exit(0)
    try:
        before = process_attributes(pid)
        changes = [
            lambda: resource.prlimit(pid, resource.RLIMIT_NPROC, (40, 40)),
            lambda: os.setpriority(os.PRIO_PROCESS, pid, 7),
            lambda: os.sched_setscheduler(pid, os.SCHED_BATCH, os.sched_param(0)),
        ]
        if len(os.sched_getaffinity(0)) > 1:
            changes.append(lambda: os.sched_setaffinity(pid, {min(os.sched_getaffinity(0))}))
        for change in changes:
            change()
            after = process_attributes(pid)
            assert after != before
            before = after
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


def test_a_reply_line_reaches_the_host_as_known_scalar_fields_only() -> None:
    """A forged reply could carry any JSON tree; the host would parse it on its event loop."""
    from rlvr.verifier.sandbox.inside.sessions import reply_fields as _reply_fields

    forged = {"value": [0] * 1000, "args": "[]", "junk": {"a": 1}, "raised": None, "ready": {}}
    assert _reply_fields(forged) == {"args": "[]", "raised": None, "ready": True}
    honest = {"value": '{"$t": "int", "v": "ff"}', "args": "[[1]]"}
    assert _reply_fields(honest) == honest


@pytest.mark.parametrize("count", [3, 5])
def test_place_fds_puts_each_descriptor_at_its_place_whatever_their_numbers(count: int) -> None:
    # descriptors told apart by inode
    files = [os.open(os.devnull, os.O_RDONLY) for _ in range(count)]
    identities = [os.fstat(fd).st_ino for fd in files]
    pipes = [os.pipe() for _ in range(count)]  # distinct inodes: a pipe per slot
    sources = [read for read, _ in pipes]
    sources.reverse()
    expected = [os.fstat(fd).st_ino for fd in sources]
    report_r, report_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            report = fcntl.fcntl(report_w, fcntl.F_DUPFD_CLOEXEC, 200)
            # the last source moved onto the first target's number: a naive dup2 in order
            # would overwrite it before it is read
            os.dup2(sources[-1], 0)
            os.close(sources[-1])
            given = [*sources[:-1], 0]
            place_fds(given)
            seen = [os.fstat(fd).st_ino for fd in range(count)]
            others = [fd for fd in given if fd >= count]
            closed = all(_is_closed(fd) for fd in others)
            os.write(report, repr((seen, closed)).encode())
        finally:
            os._exit(0)
    os.close(report_w)
    seen, closed = eval(os.read(report_r, 1 << 16).decode())  # our own child's repr
    os.waitpid(pid, 0)
    for fd in [*files, report_r] + [fd for pair in pipes for fd in pair]:
        os.close(fd)
    assert identities and seen == expected and closed


def _is_closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _namespace_calls() -> list[str]:
    """Outcomes of the calls a job's filter refuses and of a plain fork, in this process."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def errno_of(result: int) -> str:
        return "ok" if result == 0 else f"errno {ctypes.get_errno()}"

    outcomes = [
        errno_of(libc.unshare(0x10000000)),  # CLONE_NEWUSER
        errno_of(libc.unshare(0x20000)),  # CLONE_NEWNS
        errno_of(libc.mount(b"none", b"/", None, 0x4000 | 0x40000, None)),
        errno_of(libc.syscall(435, None, 0)),  # clone3
        errno_of(libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)),  # clone(CLONE_NEWUSER)
        errno_of(libc.prctl(4, 1, 0, 0, 0)),  # PR_SET_DUMPABLE
    ]
    child = os.fork()  # clone without namespace flags
    if child == 0:
        os._exit(3)
    outcomes.append(f"exit {os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])}")
    return outcomes


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86_64 syscall numbers")
@pytest.mark.parametrize("program", ["job", "whole"])
def test_no_run_can_make_a_namespace_or_a_mount(program: str) -> None:
    """The job filter (a job spawner's, once its namespaces are made) and the zygote's whole
    filter (containers without job namespaces) refuse namespaces, mounts and PR_SET_DUMPABLE;
    clone3 answers ENOSYS (the C library then uses clone, whose flags the filter reads); plain
    forks work. The zygote's filter for job spawners leaves exactly those to the spawner."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            if program == "job":
                install_seccomp(seccomp_program("x86_64", for_job_spawners=True))
                install_seccomp(job_filter_program("x86_64"))
            else:
                install_seccomp(seccomp_program("x86_64"))
            os.write(write_fd, ",".join(_namespace_calls()).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    os.waitpid(pid, 0)
    seen = os.read(read_fd, 1000).decode().split(",")
    assert seen == ["errno 1"] * 3 + ["errno 38"] + ["errno 1"] * 2 + ["exit 3"]


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86_64 syscall numbers")
def test_the_spawners_filter_leaves_namespaces_to_the_spawner() -> None:
    """Under the zygote's filter for job spawners alone, unshare and PR_SET_DUMPABLE pass the
    filter (what the kernel then says is its own: EPERM or EINVAL without privilege here)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            install_seccomp(seccomp_program("x86_64", for_job_spawners=True))
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            dumpable = libc.prctl(4, 1, 0, 0, 0)
            clone3 = libc.syscall(435, None, 0)
            os.write(write_fd, f"{dumpable},{ctypes.get_errno() if clone3 else 0}".encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    os.waitpid(pid, 0)
    dumpable, clone3_errno = os.read(read_fd, 100).decode().split(",")
    assert dumpable == "0"  # allowed
    assert (
        clone3_errno != "38"
    )  # the kernel's answer to a null clone_args (EFAULT/EINVAL), not ours
