"""The zygote and its children's set-up (`runner`), run on this machine: the descriptors a run
holds, and the forked start a native run falls back to when the launcher cannot start it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from rlvr.verifier.sandbox.inside.fds import sealed_memfd
from rlvr.verifier.sandbox.inside.zygote import Zygote, child_main


def test_a_forked_run_can_exec_its_binary_from_the_jobs_memfd(tmp_path: Path) -> None:
    shell = shutil.which("sh")
    assert shell is not None
    program = sealed_memfd("program", Path(shell).read_bytes(), 0o500)
    out_r, out_w = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    request = {
        "mode": "exec",
        "exec_fd": True,
        "cwd": str(tmp_path),
        "rlimits": {"core": 0, "nofile": 64},
        # the shell lists its own descriptors: the memfd must not be among them
        "argv": ["sh", "-c", "pwd; ls /proc/$$/fd"],
        "env": {"PATH": "/usr/bin:/bin"},
    }
    pid = os.fork()
    if pid == 0:
        child_main(request, [null, out_w, out_w, program])  # never returns
    os.close(out_w)
    chunks = []
    while chunk := os.read(out_r, 1 << 16):
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    os.close(out_r)
    os.close(null)
    os.close(program)
    lines = b"".join(chunks).decode().split()
    assert os.waitstatus_to_exitcode(status) == 0, lines
    assert lines[0] == str(tmp_path)
    # the shell's own descriptors only (dash may keep one of its own, above 9)
    assert [fd for fd in lines[1:] if int(fd) < 10] == ["0", "1", "2"], lines


# A Python run that prints the descriptors it holds (listdir's own is the next free one, 3).
FDS_PROGRAM = "import os\nprint(' '.join(sorted(os.listdir('/proc/self/fd'), key=int)))\n"


def _python_run(tmp_path: Path, name: str) -> dict[str, object]:
    path = tmp_path / f"{name}.py"
    path.write_text(FDS_PROGRAM)
    limits = {"cpu": 5, "nofile": 64, "core": 0}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    return {
        "mode": "python-main",
        "cwd": str(tmp_path),
        "path": str(path),
        "rlimits": limits,
        "env": env,
    }


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


def _close(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)


def test_the_zygotes_children_hold_only_the_descriptors_they_are_given(tmp_path: Path) -> None:
    """Run in a fresh interpreter, as PID 1 starts the zygote: a process that has loaded only
    the standard library and the sandbox's own modules. This test process has loaded what other
    tests use (Ray, OpenTelemetry, torch...), whose at-fork hooks run in every forked child and
    may open descriptors there (a CI run saw two): that would test those libraries, not the
    zygote. What the container imports is held to the standard library by the shipping test."""
    script = (
        "import sys; from pathlib import Path; "
        "from tests.rlvr.verifier.sandbox.inside.test_zygote import "
        "children_hold_only_their_descriptors as check; check(Path(sys.argv[1]))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]


def children_hold_only_their_descriptors(tmp_path: Path) -> None:
    """The check itself (in a fresh interpreter): the zygote is forked from a process that holds
    descriptors of its own, as PID 1 does."""
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(4)]
    zygote = Zygote.start()
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        one_r, one_w = os.pipe()
        given = [os.dup(null), one_w, os.dup(one_w)]
        pid = zygote.spawn(_python_run(tmp_path, "one"), given)
        _close(given)  # the child holds its copies now
        assert _read_all(one_r).split() == ["0", "1", "2", "3"]
        assert zygote.receive(timeout_s=10) == {"status": 0, "pid": pid}
        # a group: the first child must not keep the descriptors meant for the second
        first_r, first_w = os.pipe()
        second_r, second_w = os.pipe()
        fds = [[os.dup(null), first_w, os.dup(first_w)], [os.dup(null), second_w, os.dup(second_w)]]
        requests = [_python_run(tmp_path, "first"), _python_run(tmp_path, "second")]
        pids = zygote.spawn_group(requests, fds)
        _close(fds[0] + fds[1])
        assert _read_all(first_r).split() == ["0", "1", "2", "3"]
        assert _read_all(second_r).split() == ["0", "1", "2", "3"]
        exits = [zygote.receive(timeout_s=10) for _ in pids]
        assert sorted(str(e) for e in exits) == sorted(str({"status": 0, "pid": p}) for p in pids)
        os.close(null)
    finally:
        zygote.sock.close()
        os.waitpid(zygote.pid, 0)
        _close(held)
