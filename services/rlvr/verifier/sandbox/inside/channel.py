"""PID 1's end of the job channel: the stream its jobs come in on and its results go out on.

By default that stream is the container's stdin and stdout, which the host reaches through the
engine's attach endpoint: every frame then crosses the engine and its shim (three processes,
two copies each way). Where the host shares a directory with the container (a fresh host
directory bind-mounted at `wire.protocol.CHANNEL_DIR`, `sandbox/host/channel.py`), PID 1
offers a Unix socket in it instead:

1. it binds and listens on `path` before it says ready (owner-only mode), and says whether it
   could (`ExecutorReady.channel`);
2. it then waits for whichever comes first: the host's connection (the socket is unlinked and
   the listener closed at once, so no other process ever connects; the host then removes the
   directory, and nothing can be created in it again) or a first job on stdin (the host could
   not see the socket: the engine is elsewhere; the listener is closed the same way).

No job arrives before the choice, so no candidate's process exists while anyone can connect.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket


def listen(path: str) -> socket.socket | None:
    """A listening socket at `path`, which only this uid (and the host's root) may connect to;
    None where it cannot be made (the directory is not there or not ours to write)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        listener.bind(path)
        listener.listen(1)
    except OSError:
        listener.close()
        return None
    finally:
        os.umask(old_umask)
    return listener


def choose(listener: socket.socket, path: str, stdin: int = 0) -> socket.socket | None:
    """The host's connection, or None when a job came on `stdin` first (or it closed). Either
    way the listener is gone at return."""
    try:
        while True:
            readable, _, _ = select.select([listener.fileno(), stdin], [], [])
            if stdin in readable:
                return None
            with contextlib.suppress(BlockingIOError, InterruptedError):
                connection, _ = listener.accept()
                return connection
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        listener.close()
