"""Sessions that share a container against each other, on a live service with real Docker:
what one session holds (variables, files, processes, IPC) no other sees, nothing survives a
close, and each family of the `/code` hostile suite, one test per family: the hostile session
reports what happened and is intact or clearly dead; its neighbours keep working."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import docker
import httpx
import pytest

from tests.support.server import LiveService, live_service
from tests.support.sessions import (
    cell,
    close,
    new_session,
    run,
    service_containers,
    session_env,
    session_service,
    session_stats,
    value,
)

pytestmark = [pytest.mark.docker]


@pytest.fixture(scope="module")
def service(docker_engine: None) -> Iterator[LiveService]:
    # one container for every session of this module: they are neighbours
    with session_service(sessions_per_container="64") as live:
        yield live


@pytest.fixture
def url(service: LiveService) -> str:
    return service.url


@pytest.fixture
def pair(url: str) -> Iterator[tuple[str, str]]:
    """Two live sessions in the same container."""
    first, second = new_session(url), new_session(url)
    assert session_stats(url)["containers"] == 1
    yield first, second
    for sid in (first, second):
        close(url, sid)


def neighbour_works(url: str, sid: str) -> None:
    """A session beside the hostile one still runs cells, forks and writes files."""
    code = "import subprocess\nopen('probe', 'w').write('1')\nsubprocess.run(['true']).returncode"
    assert value(url, sid, code) == "0"


# -- isolation


def test_sessions_do_not_see_each_others_variables(url: str, pair: tuple[str, str]) -> None:
    first, second = pair
    cell(url, first, "secret = 'first'; import json")
    assert value(url, second, "'secret' in globals(), 'json' in globals()") == "(False, False)"


def test_sessions_do_not_see_each_others_files(url: str, pair: tuple[str, str]) -> None:
    first, second = pair
    cell(url, first, "open('/tmp/left.txt', 'w').write('x'); open('here.txt', 'w').write('y')")
    assert value(url, first, "sorted(__import__('os').listdir('.'))") == "['here.txt', 'left.txt']"
    assert value(url, second, "__import__('os').getcwd(), __import__('os').listdir('/tmp')") == (
        "('/tmp', [])"
    )


def test_sessions_do_not_see_or_signal_each_others_processes(
    url: str, pair: tuple[str, str]
) -> None:
    first, second = pair
    cell(url, first, "import subprocess\nsleeper = subprocess.Popen(['sleep', '300'])")
    seen = value(
        url, second, "import os\nsorted(int(p) for p in os.listdir('/proc') if p.isdigit())"
    )
    assert seen == "[1, 2]"  # its init and itself: nothing of its neighbour's
    killed = cell(
        url,
        second,
        "import os, signal\nhit = []\nfor pid in range(1, 32768):\n"
        "    if pid != os.getpid():\n"
        "        try:\n            os.kill(pid, signal.SIGKILL); hit.append(pid)\n"
        "        except OSError:\n            pass\nhit",
    )
    # only its own init (pid 1) takes a signal, and the kernel drops it: nothing else exists
    assert killed["status"] == "ok" and killed["value"] == "[1]"
    assert value(url, second, "len(hit)") == "1"
    assert value(url, first, "sleeper.poll()") is None  # still running
    cell(url, first, "sleeper.kill()")


def test_sessions_share_no_ipc_not_even_abstract_sockets(url: str, pair: tuple[str, str]) -> None:
    first, second = pair
    cell(
        url,
        first,
        "import socket\nlistener = socket.socket(socket.AF_UNIX)\n"
        "listener.bind('\\0rlvr-session-test'); listener.listen()",
    )
    reached = cell(
        url,
        second,
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('\\0rlvr-session-test')",
    )
    assert reached["status"] == "error" and "ConnectionRefusedError" in reached["error"]
    shm = cell(url, second, "import ctypes\nctypes.CDLL(None).shmget(0, 4096, 0o1600)")
    assert shm["value"] == "-1"  # SysV shared memory is refused (and per-session anyway)


def test_nothing_survives_a_close(url: str, service: LiveService) -> None:
    left = new_session(url)
    cell(
        url,
        left,
        "import subprocess\nsubprocess.Popen(['sleep', '1000'])\n"
        "open('/tmp/kept.txt', 'w').write('secret')\nremember = 1",
    )
    close(url, left)
    fresh = new_session(url)
    assert value(url, fresh, "import os\nos.listdir('/tmp'), 'remember' in globals()") == (
        "([], False)"
    )
    (container,) = service_containers(service)
    commands = [" ".join(row) for row in container.top()["Processes"]]
    assert not any("sleep 1000" in c for c in commands), commands
    close(url, fresh)


# -- hostile families


def test_hostile_fork_bomb_is_contained_to_its_session(url: str, pair: tuple[str, str]) -> None:
    bomber, neighbour = pair
    results: list[dict[str, Any]] = []
    bomb = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass"
    thread = threading.Thread(target=lambda: results.append(cell(url, bomber, bomb, 4)))
    thread.start()
    neighbour_works(url, neighbour)  # its own process cap: the bomb's count is not its own
    thread.join()
    assert results[0]["status"] == "timed_out" and results[0]["session_alive"] is False
    neighbour_works(url, neighbour)


def test_hostile_memory_bomb_is_memory_exceeded(url: str, pair: tuple[str, str]) -> None:
    bomber, neighbour = pair
    bomb = "chunks = []\nwhile True:\n    chunks.append(bytearray(16 * 1024 * 1024))"
    result = cell(url, bomber, bomb, 20)
    assert result["status"] == "memory_exceeded" and result["session_alive"] is False
    neighbour_works(url, neighbour)


def test_hostile_output_flood_is_output_limit_exceeded(url: str, pair: tuple[str, str]) -> None:
    flooder, neighbour = pair
    flood = "import sys\nwhile True:\n    sys.stderr.write('e' * 65536)"
    result = cell(url, flooder, flood, 20)
    assert result["status"] == "output_limit_exceeded" and result["session_alive"] is False
    neighbour_works(url, neighbour)


def test_hostile_output_flood_between_cells_ends_the_session(
    url: str, pair: tuple[str, str]
) -> None:
    flooder, neighbour = pair
    thread = (
        "import threading, os\n"
        "def flood():\n    while True:\n        os.write(1, b'x' * 65536)\n"
        "threading.Thread(target=flood, daemon=True).start()"
    )
    assert cell(url, flooder, thread)["status"] in ("ok", "output_limit_exceeded")
    reply = None
    for _ in range(50):
        reply = run(url, flooder, "1")
        if reply.status_code == 404:
            break
    assert reply is not None and reply.status_code == 404
    assert "output" in reply.json()["error"]["message"]
    neighbour_works(url, neighbour)


def test_hostile_sleeping_forever_times_out_and_the_session_is_dead(
    url: str, pair: tuple[str, str]
) -> None:
    sleeper, neighbour = pair
    result = cell(url, sleeper, "import time\ntime.sleep(10**6)", 1)
    assert result["status"] == "timed_out" and result["session_alive"] is False
    assert run(url, sleeper, "1").status_code == 404
    neighbour_works(url, neighbour)


def test_hostile_killing_or_stopping_the_supervisor_reaches_nothing(
    url: str, pair: tuple[str, str]
) -> None:
    attacker, neighbour = pair
    attack = (
        "import os, signal\n"
        "for sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGTERM):\n"
        "    os.kill(1, sig)\n"  # its spawner, the namespace's init: the kernel drops these
        "    try:\n"
        "        os.kill(-1, sig)\n"  # every process it may signal but itself: none
        "    except ProcessLookupError:\n"
        "        pass\n"
        "os.getppid()"
    )
    result = cell(url, attacker, attack)
    # its parent is pid 1, the spawner it tried to kill and stop, which still serves it
    assert result["status"] == "ok" and result["value"] == "1"
    assert value(url, attacker, "1 + 1") == "2"
    stopped = cell(url, attacker, "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)", 1)
    assert stopped["status"] == "timed_out" and stopped["session_alive"] is False
    neighbour_works(url, neighbour)


def test_hostile_reading_what_another_session_left_finds_nothing(url: str) -> None:
    writer = new_session(url)
    cell(url, writer, "open('/tmp/answer.txt', 'w').write('42')\nimport os\nos.mkfifo('/tmp/pipe')")
    close(url, writer)
    reader = new_session(url)
    probe = (
        "import os, glob\n"
        "found = [p for p in glob.glob('/tmp/**', recursive=True) + glob.glob('/dev/shm/*')"
        " + glob.glob('/dev/mqueue/*') if os.path.basename(p)]\n"
        "places = ('/', '/etc', '/usr', '/var/tmp', '/home')\n"
        "writable = [d for d in places if os.access(d, os.W_OK)]\n"
        "found, writable"
    )
    assert value(url, reader, probe) == "([], [])"
    close(url, reader)


def test_hostile_filling_its_tmpfs_leaves_its_neighbours_room(
    url: str, pair: tuple[str, str]
) -> None:
    filler, neighbour = pair
    fill = (
        "chunk = b'x' * (1 << 20)\nwritten = 0\n"
        "with open('/tmp/fill', 'wb') as handle:\n"
        "    while True:\n        handle.write(chunk); handle.flush(); written += 1"
    )
    result = cell(url, filler, fill, 20)
    assert result["status"] == "error" and result["session_alive"] is True
    assert "No space left on device" in result["error"] or "File too large" in result["error"]
    assert int(value(url, filler, "written")) <= 16  # its own 16 MB tmpfs
    neighbour_works(url, neighbour)
    assert value(url, neighbour, "open('/tmp/big', 'wb').write(b'y' * (8 << 20))") == str(8 << 20)


def test_hostile_ptrace_of_anything_is_refused(url: str, pair: tuple[str, str]) -> None:
    tracer, _ = pair
    probe = (
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "pids = (1, os.getpid())\n"
        "[(libc.ptrace(16, pid, 0, 0), ctypes.get_errno()) for pid in pids]"  # PTRACE_ATTACH
    )
    assert value(url, tracer, probe) == "[(-1, 1), (-1, 1)]"  # EPERM: the filter refuses it


def test_hostile_network_is_unreachable(url: str, pair: tuple[str, str]) -> None:
    first, _ = pair
    inet = cell(url, first, "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM)")
    assert inet["status"] == "error" and "PermissionError" in inet["error"]
    interfaces = value(
        url,
        first,
        "[r.split(':')[0].strip() for r in open('/proc/net/dev').read().splitlines()[2:]]",
    )
    assert interfaces == "['lo']"


def test_a_dead_container_loses_only_its_own_sessions(docker_engine: None) -> None:
    with session_service(sessions_per_container="2") as live:
        url = live.url
        first, second = new_session(url), new_session(url)
        cell(url, first, "x = 1")
        third = new_session(url)  # the first container is full: a second one holds it
        cell(url, third, "y = 3")
        containers = service_containers(live)
        assert len(containers) == 2
        containers[0].kill()
        for sid in (first, second):
            lost = cell(url, sid, "x")
            assert lost["status"] == "session_lost" and lost["session_alive"] is False
            again = run(url, sid, "x")
            assert again.status_code == 404 and "lost" in again.json()["error"]["message"]
        assert value(url, third, "y") == "3"
        assert new_session(url)  # new sessions still open (a new container, or the second)


def test_hostile_reading_what_a_judged_job_left_finds_nothing(docker_engine: None) -> None:
    """Sessions never share a container with `/code`'s jobs: a run that leaves a file and a
    process behind is not seen by a session, whatever runs next."""
    env = {"VERIFIER_CODE__IS_ENABLED": "true", "VERIFIER_CODE__POOL_SIZE": "1"}
    with live_service(session_env() | env) as live:
        leave = (
            "import subprocess, os\n"
            "open('/tmp/from_job.txt', 'w').write('secret')\n"
            "subprocess.Popen(['sleep', '600'], start_new_session=True)\nprint('left')"
        )
        body = {"code": leave, "language": "python", "run_timeout": 10}
        ran = httpx.post(f"{live.url}/run_code", json=body, timeout=120).json()
        assert ran["run_result"]["stdout"] == "left\n", ran
        sid = new_session(live.url)
        probe = (
            "import os, glob\n"
            "cmds = [open(f'/proc/{p}/cmdline', 'rb').read() for p in os.listdir('/proc')"
            " if p.isdigit()]\n"
            "glob.glob('/tmp/**', recursive=True), any(b'sleep' in c for c in cmds)"
        )
        assert value(live.url, sid, probe) == "(['/tmp/'], False)"
        owner = f"{socket.gethostname()}:{live.process.pid}"
        found = docker.from_env().containers.list(filters={"label": f"rlvr.pool.owner={owner}"})
        pools = {c.id: c.labels["rlvr.pool"] for c in found}
        sessions = {c.id for c in service_containers(live)}
        assert sessions and all(pools[c] == "sessions" for c in sessions)
        assert "code" in pools.values()  # the job ran in a container of the code pool
