"""PID 1's end of the job channel (`inside/channel.py`), on real sockets and pipes: whichever
comes first wins, and at return nothing can connect any more."""

from __future__ import annotations

import os
import socket
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rlvr.verifier.sandbox.inside.channel import choose, listen


@dataclass
class Pid1:
    """A listening PID 1 end: the socket's path, the listener, and a stdin pipe."""

    path: str
    listener: socket.socket
    stdin: int
    stdin_writer: int

    def choose(self) -> socket.socket | None:
        return choose(self.listener, self.path, self.stdin)


@pytest.fixture
def pid1(tmp_path: Path) -> Iterator[Pid1]:
    path = str(tmp_path / "pid1.sock")
    listener = listen(path)
    assert listener is not None
    stdin, stdin_writer = os.pipe()
    try:
        yield Pid1(path, listener, stdin, stdin_writer)
    finally:
        listener.close()
        os.close(stdin)
        os.close(stdin_writer)


def host_socket() -> socket.socket:
    return socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)


def assert_gone(pid1: Pid1) -> None:
    """No socket file, the listener closed, and nothing can connect."""
    assert not os.path.exists(pid1.path)
    assert pid1.listener.fileno() == -1
    late = host_socket()
    try:
        with pytest.raises((FileNotFoundError, ConnectionRefusedError)):
            late.connect(pid1.path)
    finally:
        late.close()


def test_the_socket_is_its_owners_only(pid1: Pid1) -> None:
    mode = os.stat(pid1.path).st_mode
    assert stat.S_ISSOCK(mode)
    assert stat.S_IMODE(mode) & 0o077 == 0


def test_no_listener_where_the_directory_is_not_there(tmp_path: Path) -> None:
    assert listen(str(tmp_path / "absent" / "pid1.sock")) is None


def test_the_hosts_connection_wins_and_the_socket_is_gone(pid1: Pid1) -> None:
    host = host_socket()
    host.connect(pid1.path)  # queued before the choice: accept() takes it
    try:
        connection = pid1.choose()
        assert connection is not None
        assert_gone(pid1)
        connection.sendall(b"open")
        assert host.recv(4) == b"open"
        connection.close()
    finally:
        host.close()


def test_a_job_on_stdin_first_closes_the_listener(pid1: Pid1) -> None:
    """The host could not see the socket (its engine mounted another directory): it sends the
    first job on stdin, and PID 1 serves stdin from then on."""
    os.write(pid1.stdin_writer, b"job")
    assert pid1.choose() is None
    assert_gone(pid1)
    assert os.read(pid1.stdin, 3) == b"job"  # the job itself is left to read


def test_the_choice_waits_for_whichever_comes(pid1: Pid1) -> None:
    host = host_socket()
    timer = threading.Timer(0.2, host.connect, (pid1.path,))
    timer.start()
    try:
        connection = pid1.choose()
        assert connection is not None
        connection.close()
    finally:
        timer.join()
        host.close()
