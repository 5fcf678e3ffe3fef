"""Run a batch so that a client who hangs up cancels it: no GPU-hour is spent on abandoned work.

Starlette does not cancel a handler when its client disconnects. After the body has been read,
the next ASGI message is `http.disconnect` only if the client goes away, so a watcher awaiting
`receive()` can cancel the verification task (each domain cleans up on cancellation: queued
items are dropped, running jobs killed).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

from fastapi import Request

from rlvr.verifier.errors import VerifierError

T = TypeVar("T")


class ClientDisconnected(VerifierError):
    """The client hung up mid-request; nobody will read this response (499, nginx's code)."""

    status_code = 499
    code = "client_disconnected"


async def _wait_for_disconnect(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def cancel_on_disconnect(request: Request, work: Awaitable[T]) -> T:
    """Await `work`, cancelling it (and raising ClientDisconnected) if the client disconnects."""
    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(_wait_for_disconnect(request))
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        raise
    finally:
        watcher.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        raise ClientDisconnected("client disconnected; its batch was cancelled")
    return task.result()
