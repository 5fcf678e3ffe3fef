"""PID 1's end of the job channel (`inside/channel.py`), on real sockets and pipes: whichever
comes first wins, and at return nothing can connect any more."""

from __future__ import annotations

import os
import socket
import stat
import threading
from pathlib import Path

from rlvr.verifier.sandbox.inside.channel import choose, listen


def test_the_socket_is_its_owners_only(tmp_path: Path) -> None:
    path = str(tmp_path / "pid1.sock")
    listener = listen(path)
    assert listener is not None
    try:
        assert stat.S_ISSOCK(os.stat(path).st_mode)
        assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0
    finally:
        listener.close()


def test_no_listener_where_the_directory_is_not_there(tmp_path: Path) -> None:
    assert listen(str(tmp_path / "absent" / "pid1.sock")) is None


def test_the_hosts_connection_wins_and_the_socket_is_gone(tmp_path: Path) -> None:
    path = str(tmp_path / "pid1.sock")
    listener = listen(path)
    assert listener is not None
    stdin_r, stdin_w = os.pipe()
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.connect(path)  # queued before the choice: accept() takes it
    try:
        connection = choose(listener, path, stdin_r)
        assert connection is not None
        assert not os.path.exists(path)
        assert listener.fileno() == -1
        connection.sendall(b"open")
        assert host.recv(4) == b"open"
        late = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            late.connect(path)
            raise AssertionError("a second process connected")
        except (FileNotFoundError, ConnectionRefusedError):
            pass
        finally:
            late.close()
        connection.close()
    finally:
        host.close()
        os.close(stdin_r)
        os.close(stdin_w)


def test_a_job_on_stdin_first_closes_the_listener(tmp_path: Path) -> None:
    """The host could not see the socket (its engine mounted another directory): it sends the
    first job on stdin, and PID 1 serves stdin from then on."""
    path = str(tmp_path / "pid1.sock")
    listener = listen(path)
    assert listener is not None
    stdin_r, stdin_w = os.pipe()
    os.write(stdin_w, b"job")
    try:
        assert choose(listener, path, stdin_r) is None
        assert not os.path.exists(path)
        assert listener.fileno() == -1
        assert os.read(stdin_r, 3) == b"job"  # the job itself is left to read
    finally:
        os.close(stdin_r)
        os.close(stdin_w)


def test_the_choice_waits_for_whichever_comes(tmp_path: Path) -> None:
    path = str(tmp_path / "pid1.sock")
    listener = listen(path)
    assert listener is not None
    stdin_r, stdin_w = os.pipe()
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    timer = threading.Timer(0.2, host.connect, (path,))
    timer.start()
    try:
        connection = choose(listener, path, stdin_r)
        assert connection is not None
        connection.close()
    finally:
        timer.join()
        host.close()
        os.close(stdin_r)
        os.close(stdin_w)
