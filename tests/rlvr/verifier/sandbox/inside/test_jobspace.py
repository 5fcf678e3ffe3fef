"""Job namespaces against a real engine: every job starts from the same kernel state, whatever
the jobs before it did to theirs (issue 21: the class, not the places found so far).

One container per test module, as a GRPO batch meets one: a writer job changes every piece of
kernel state it can reach (the PID counter, /tmp and its inode counter, memory high-water marks,
SysV IPC, the host name), then a reader job must see exactly what a reader saw before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from rlvr.verifier.sandbox.host.docker import DockerBackend, DockerSandbox
from rlvr.verifier.sandbox.wire.codec import decode_value
from rlvr.verifier.sandbox.wire.protocol import Job, Limits
from tests.support import jobs
from tests.support.docker_engine import sandbox_settings

pytestmark = [pytest.mark.docker]

LIMITS: Limits = {"timeout_s": 10, "memory_mb": 256, "file_size_mb": 16, "nproc": 64}

READER = """
import os
def state():
    def read(path):
        try:
            with open(path) as handle:
                return handle.read()
        except OSError as exc:
            return type(exc).__name__
    path = "/tmp/probe"
    with open(path, "w") as handle:
        handle.write("x")
    info = os.stat(path)
    os.unlink(path)
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    return {
        "pid": os.getpid(),
        "child": child,
        "parent": os.getppid(),
        "ns_last_pid": read("/proc/sys/kernel/ns_last_pid"),
        "processes": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
        "inode": info.st_ino,
        "tmp_inode": os.stat("/tmp").st_ino,
        "cgroup": sorted(os.listdir("/sys/fs/cgroup")),
        "cgroup_memory": read("/sys/fs/cgroup/memory/memory.max_usage_in_bytes"),
        "sysv": [read(f"/proc/sysvipc/{k}").count("\\n") for k in ("shm", "msg", "sem")],
        "hostname": os.uname().nodename,
        "tmp": sorted(os.listdir("/tmp")),
        "abstract_socket": connect_abstract(),
    }

def connect_abstract():
    import socket
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect("\\0rlvr-leak-probe")
        return "connected"
    except OSError as exc:
        return type(exc).__name__
    finally:
        probe.close()
"""
# What a run may do to kernel state without leaving anything the sweep reports (a leftover
# process or file retires the container: `test_hostile_isolation.py`): files made and removed
# (the inode counter), 200 forks (the PID counter), 64 MB touched (the memory high-water mark),
# an abstract unix socket name bound in the network namespace jobs share (the zygote's home:
# it goes with the run's process; the writer checks it could be reached while it lived).
WRITER = """
import os, socket
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind("\\0rlvr-leak-probe")
listener.listen(1)
def write():
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.connect("\\0rlvr-leak-probe")
    probe.close()
    for n in range(300):
        path = f"/tmp/f{n}"
        open(path, "w").close()
        os.unlink(path)
    for _ in range(200):
        child = os.fork()
        if child == 0:
            os._exit(0)
        os.waitpid(child, 0)
    block = bytearray(64 << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    return True
"""
# Namespaces and mounts are refused to every run, and clone3 answers ENOSYS (the C library
# then uses clone, whose flags the filter reads).
REFUSALS = r"""
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
def refusals():
    def err(result):
        return 0 if result == 0 else ctypes.get_errno()
    CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x20000, 0x40000000
    out = {
        "unshare_user": err(libc.unshare(CLONE_NEWUSER)),
        "unshare_mount": err(libc.unshare(CLONE_NEWNS)),
        "unshare_net": err(libc.unshare(CLONE_NEWNET)),
        "mount": err(libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None)),
        "umount": err(libc.umount2(b"/proc", 2)),
        "setns": err(libc.syscall(308, os.open("/proc/self/ns/mnt", os.O_RDONLY), 0)),
        "clone3": err(libc.syscall(435, None, 0)),
        "clone_newuser": err(libc.syscall(56, CLONE_NEWUSER | 17, 0, 0, 0, 0)),
        "chroot": err(libc.chroot(b"/tmp")),
    }
    child = os.fork()  # plain forks still work
    if child == 0:
        os._exit(7)
    out["fork"] = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    return out
"""


def call_job(code: str, fn: str) -> Job:
    return jobs.call_job(code, fn, LIMITS)


async def call(sandbox: DockerSandbox, code: str, fn: str) -> Any:
    result = await sandbox.run(call_job(code, fn), timeout_s=60)
    assert not result.get("anomalies") and result.get("healthy") is not False, result
    reply = result["tests"][0]
    assert reply.get("status") != "error" and reply.get("exit_code", 0) == 0, reply
    return decode_value(reply["replies"][1]["value"])


# Each job's init from the image's binary (docker/sandbox/jobinit.c), and forked from the zygote
# where an image has none: the same guarantees either way.
@pytest.fixture(params=[True, False], ids=["init-binary", "forked-init"])
async def sandbox(
    docker_engine: None, request: pytest.FixtureRequest
) -> AsyncIterator[DockerSandbox]:
    settings = sandbox_settings(job_namespaces="required", is_job_init_enabled=request.param)
    backend = DockerBackend(settings)
    started = await backend.start()
    assert isinstance(started, DockerSandbox)
    try:
        yield started
    finally:
        await backend.close()


async def test_every_job_starts_from_the_same_kernel_state(sandbox: DockerSandbox) -> None:
    assert sandbox.has_job_namespaces
    before = await call(sandbox, READER, "state")
    # the job's own view: its init is pid 1, its parent (the zygote) out of sight, nothing else
    assert before["parent"] == 0 and before["processes"][0] == 1, before
    assert set(before["processes"]) <= {1, before["pid"]}, before
    assert before["cgroup"] == [] and before["tmp"] == ["w"], before
    assert before["sysv"] == [1, 1, 1], before  # the header lines only
    assert before["abstract_socket"] == "ConnectionRefusedError", before
    writer = await sandbox.run(call_job(WRITER, "write"), timeout_s=60)
    assert decode_value(writer["tests"][0]["replies"][1]["value"]) is True, writer
    after = await call(sandbox, READER, "state")
    assert after == before


async def test_the_jobs_init_is_out_of_a_runs_reach(sandbox: DockerSandbox) -> None:
    # pid 1 of the job: non-dumpable (its files are root's, not the run's uid's) and deaf to
    # what a run sends it; the next job's spaces are made as before
    probe = """
import os, signal
def probe():
    out = {}
    for path in ("/proc/1/mem", "/proc/1/fd/0", "/proc/1/environ"):
        try:
            open(path, "rb").read(1)
            out[path] = "readable"
        except OSError as exc:
            out[path] = type(exc).__name__
    for sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):
        os.kill(1, sig)
    out["init_alive"] = os.path.exists("/proc/1")
    out["caps"] = [line for line in open("/proc/1/status") if line.startswith("CapEff")]
    return out
"""
    seen = await call(sandbox, probe, "probe")
    assert seen["/proc/1/mem"] == seen["/proc/1/fd/0"] == "PermissionError", seen
    assert seen["/proc/1/environ"] == "PermissionError", seen
    assert seen["init_alive"] is True, seen
    assert seen["caps"] == ["CapEff:\t0000000000000000\n"], seen
    assert (await call(sandbox, READER, "state"))["pid"] == 2


async def test_runs_can_make_no_namespace_and_no_mount(sandbox: DockerSandbox) -> None:
    seen = await call(sandbox, REFUSALS, "refusals")
    eperm = 1  # EPERM
    expected = {
        "unshare_user": eperm, "unshare_mount": eperm, "unshare_net": eperm, "mount": eperm,
        "umount": eperm, "setns": eperm, "clone3": 38, "clone_newuser": eperm, "chroot": eperm,
        "fork": 7,
    }  # fmt: skip
    assert seen == expected


async def test_off_runs_jobs_in_the_shared_namespaces(docker_engine: None) -> None:
    backend = DockerBackend(sandbox_settings(job_namespaces="off"))
    sandbox = await backend.start()
    try:
        assert isinstance(sandbox, DockerSandbox) and not sandbox.has_job_namespaces
        seen = await call(sandbox, READER, "state")
        assert seen["parent"] > 1 and 1 in seen["processes"], seen  # PID 1 and the zygote
        refused = await call(sandbox, REFUSALS, "refusals")  # Docker's profile, our filter
        assert refused["unshare_user"] == 1 and refused["clone3"] == 38, refused
    finally:
        await backend.close()
