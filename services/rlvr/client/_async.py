"""`AsyncVerifierClient`: the asyncio client (httpx.AsyncClient; chunks gathered concurrently)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Generator, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

import httpx
from tenacity import AsyncRetrying

from rlvr.client import _chunking
from rlvr.client._base import (
    ANSWER,
    CHOICE,
    CODE,
    GYM,
    IFEVAL,
    LEAN,
    MATH,
    PROBE_TIMEOUT,
    RUN,
    VERIFY,
    BaseClient,
    Endpoint,
    encode_items,
    parse_results,
    run_item,
)
from rlvr.client._endpoints import Replica
from rlvr.client._errors import ConfigurationError, DeadlineExceeded, TransportError
from rlvr.client._retry import remaining_s
from rlvr.client._sessions import (
    SESSIONS_PATH,
    cell_payload,
    cell_timeout,
    ended_cell,
    lost_cell,
    open_payload,
    parse_cell,
    parse_closed,
    parse_opened,
    session_headers,
    session_path,
)
from rlvr.schemas.answer import AnswerItem, AnswerResult
from rlvr.schemas.choice import ChoiceItem, ChoiceResult
from rlvr.schemas.code import CodeItem, CodeResult
from rlvr.schemas.common import HealthResponse
from rlvr.schemas.gym import GymItem, GymResult
from rlvr.schemas.ifeval import IfevalItem, IfevalResult
from rlvr.schemas.lean import LeanItem, LeanResult
from rlvr.schemas.math import MathItem, MathResult
from rlvr.schemas.run import RunCodeResponse, RunItem
from rlvr.schemas.sessions import CellResult, OpenSessionResponse
from rlvr.schemas.verify import VerifyItem, VerifyResult

ResultT = TypeVar("ResultT")
log = logging.getLogger(__name__)


class AsyncVerifierClient(BaseClient):
    """Asyncio client. Use it from one event loop; `await aclose()` it (or `async with`).

    See `BaseClient` for the arguments; `transport` is passed to httpx (e.g. `ASGITransport`).
    """

    def __init__(
        self,
        base_url: str | Sequence[str] | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(base_url, **kwargs)
        self._http = httpx.AsyncClient(
            headers=self._headers,
            timeout=self.timeout,
            transport=transport,
            limits=httpx.Limits(max_connections=max(10, self.max_concurrency)),
        )

    async def math(
        self, items: Iterable[MathItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[MathResult]:
        """Judge final answers (`POST /math`); one result per item, in order."""
        return await self._call(MATH, items, deadline_s)

    async def code(
        self, items: Iterable[CodeItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[CodeResult]:
        """Run programs against their tests (`POST /code`); one result per item, in order."""
        return await self._call(CODE, items, deadline_s)

    async def lean(
        self, items: Iterable[LeanItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[LeanResult]:
        """Check Lean 4 proofs of their statements (`POST /lean`); results in order."""
        return await self._call(LEAN, items, deadline_s)

    async def ifeval(
        self, items: Iterable[IfevalItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[IfevalResult]:
        """Check responses against instruction-following constraints (`POST /ifeval`)."""
        return await self._call(IFEVAL, items, deadline_s)

    async def choice(
        self, items: Iterable[ChoiceItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[ChoiceResult]:
        """Judge multiple-choice answers (`POST /choice`); one result per item, in order."""
        return await self._call(CHOICE, items, deadline_s)

    async def answer(
        self, items: Iterable[AnswerItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[AnswerResult]:
        """Judge short answers against references or aliases (`POST /answer`); in order."""
        return await self._call(ANSWER, items, deadline_s)

    async def gym(
        self, items: Iterable[GymItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[GymResult]:
        """Score reasoning-gym answers with each task's scorer (`POST /gym`); in order."""
        return await self._call(GYM, items, deadline_s)

    async def verify(
        self, items: Iterable[VerifyItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[VerifyResult]:
        """Judge a mixed batch (`POST /verify`; each item has `domain`); results in order."""
        return await self._call(VERIFY, items, deadline_s)

    async def run(
        self, items: Iterable[RunItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[RunCodeResponse]:
        """Run programs, no tests (`POST /run`, SandboxFusion's `/run_code` batched): one
        SandboxFusion answer per item, in order (`status`, `run_result.stdout`, ...)."""
        return await self._call(RUN, items, deadline_s)

    async def run_code(
        self,
        code: str,
        language: str = "python",
        *,
        stdin: str | None = None,
        run_timeout: float = 10.0,
        compile_timeout: float = 10.0,
        memory_limit_mb: int | None = None,
        files: Mapping[str, str] | None = None,
        fetch_files: Sequence[str] | None = None,
        deadline_s: float | None = None,
    ) -> RunCodeResponse:
        """Run one program as SandboxFusion's `/run_code` does (sent through `/run`, with the
        client's retries): `files` are {path: base64} written into the work dir,
        `fetch_files` come back in the answer's `files`; a time-out is
        `run_result.status == "TimeLimitExceeded"`, never an exception."""
        item = run_item(
            code, language, stdin, run_timeout, compile_timeout, memory_limit_mb, files, fetch_files
        )
        return (await self._call(RUN, [item], deadline_s))[0]

    async def health(self, url: str | None = None) -> HealthResponse:
        """`GET /health` of one endpoint (default: the first)."""
        response = await self._http.get((url or self.base_url) + "/health")
        return HealthResponse.model_validate_json(response.content)

    def session(
        self,
        *,
        memory_mb: int | None = None,
        timeout_s: float | None = None,
        idle_ttl_s: float | None = None,
        max_lifetime_s: float | None = None,
        files: Mapping[str, str] | None = None,
        setup_code: str | None = None,
        deadline_s: float | None = None,
    ) -> OpeningSession:
        """Open a stateful Python session: `async with client.session() as s:` (closed on
        exit), or `s = await client.session()` (then `await s.close()`). The arguments and the
        retries are `VerifierClient.session`'s."""
        payload = open_payload(
            memory_mb=memory_mb,
            timeout_s=timeout_s,
            idle_ttl_s=idle_ttl_s,
            max_lifetime_s=max_lifetime_s,
            files=dict(files or {}),
            setup_code=setup_code,
        )
        return OpeningSession(self._open(payload, deadline_s))

    async def _open(self, payload: dict[str, Any], deadline_s: float | None) -> AsyncSession:
        deadline = self._deadline(deadline_s)
        retrying = AsyncRetrying(sleep=asyncio.sleep, **self._retry_arguments(deadline))
        opened: tuple[Replica, OpenSessionResponse] = await retrying(
            self._open_once, payload, deadline
        )
        return AsyncSession(self, *opened)

    async def _open_once(
        self, payload: dict[str, Any], deadline: float | None
    ) -> tuple[Replica, OpenSessionResponse]:
        left = remaining_s(deadline)
        if left is not None and left <= 0:
            raise DeadlineExceeded("deadline reached before opening a session")
        replica = await self._pick()
        with self.endpoints.attempt(replica):
            try:
                response = await self._http.post(
                    replica.url + SESSIONS_PATH,
                    json=payload,
                    timeout=self._attempt_timeout(deadline),
                )
            except httpx.TransportError as exc:
                raise TransportError(
                    f"{replica.url}{SESSIONS_PATH}: {type(exc).__name__}: {exc}"
                ) from exc
            return replica, parse_opened(response)

    async def _run_cell(
        self, replica: Replica, session_id: str, payload: dict[str, Any], limit_s: float
    ) -> CellResult:
        """One cell, sent once to the session's own endpoint (see `rlvr.client._sessions`)."""
        url = replica.url + session_path(session_id) + "/run"
        try:
            with self.endpoints.attempt(replica):
                try:
                    response = await self._http.post(
                        url,
                        json=payload,
                        headers=session_headers(session_id),
                        timeout=cell_timeout(self.timeout, limit_s),
                    )
                except httpx.TransportError as exc:
                    raise TransportError(f"{type(exc).__name__}: {exc}") from exc
        except TransportError as exc:
            return lost_cell(f"no answer from {replica.url}: {exc}")
        return parse_cell(response, replica.url)

    async def _close_session(self, replica: Replica, session_id: str) -> bool:
        try:
            response = await self._http.delete(
                replica.url + session_path(session_id), headers=session_headers(session_id)
            )
        except httpx.HTTPError as exc:
            log.info("session %s on %s not closed: %s", session_id, replica.url, exc)
            return False
        return parse_closed(response)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncVerifierClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _call(
        self, endpoint: Endpoint[Any, ResultT], items: Iterable[Any], deadline_s: float | None
    ) -> list[ResultT]:
        payload = encode_items(endpoint, items)
        if not payload:
            return []
        deadline = self._deadline(deadline_s)
        chunks = _chunking.split(payload, self.chunk_size)
        try:
            async with asyncio.timeout(remaining_s(deadline)):
                results = await self._send_all(endpoint, chunks, deadline)
        except TimeoutError as exc:
            if isinstance(exc, DeadlineExceeded):
                raise
            raise DeadlineExceeded(f"deadline reached calling {endpoint.path}") from exc
        return _chunking.join(chunks, results)

    async def _send_all(
        self,
        endpoint: Endpoint[Any, ResultT],
        chunks: Sequence[Sequence[dict[str, Any]]],
        deadline: float | None,
    ) -> list[list[ResultT]]:
        if len(chunks) == 1:
            return [await self._send_chunk(endpoint, chunks[0], deadline)]
        gate = asyncio.Semaphore(self.max_concurrency)

        async def gated(chunk: Sequence[dict[str, Any]]) -> list[ResultT]:
            async with gate:
                return await self._send_chunk(endpoint, chunk, deadline)

        tasks = [asyncio.ensure_future(gated(chunk)) for chunk in chunks]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException:
            for task in tasks:  # the first failure (or the deadline) cancels the other chunks
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)  # leave no error unretrieved
            raise

    async def _send_chunk(
        self,
        endpoint: Endpoint[Any, ResultT],
        chunk: Sequence[dict[str, Any]],
        deadline: float | None,
    ) -> list[ResultT]:
        retrying = AsyncRetrying(sleep=asyncio.sleep, **self._retry_arguments(deadline))
        result: list[ResultT] = await retrying(self._post_once, endpoint, chunk, deadline)
        return result

    async def _post_once(
        self,
        endpoint: Endpoint[Any, ResultT],
        chunk: Sequence[dict[str, Any]],
        deadline: float | None,
    ) -> list[ResultT]:
        replica = await self._pick()
        with self.endpoints.attempt(replica):
            try:
                response = await self._http.post(
                    replica.url + endpoint.path,
                    json={"items": chunk},
                    timeout=self._attempt_timeout(deadline),
                )
            except httpx.TransportError as exc:
                left = remaining_s(deadline)
                if left is not None and left <= 0.01:
                    raise DeadlineExceeded(f"deadline reached waiting for {endpoint.path}") from exc
                raise TransportError(
                    f"{replica.url}{endpoint.path}: {type(exc).__name__}: {exc}"
                ) from exc
            return parse_results(endpoint, response, len(chunk))

    async def _pick(self) -> Replica:
        """The endpoint for one attempt, probing (`GET /health`) any that is due to come back."""
        for _ in range(len(self.endpoints.replicas)):
            choice = self.endpoints.pick()
            if not choice.probe:
                return choice.replica
            self.endpoints.probed(choice.replica, await self._probe(choice.replica.url))
        return self.endpoints.pick(allow_probe=False).replica

    async def _probe(self, url: str) -> bool:
        try:
            response = await self._http.get(url + "/health", timeout=PROBE_TIMEOUT)
        except httpx.HTTPError:
            return False
        return response.status_code == 200


class AsyncSession:
    """A stateful Python session on one endpoint (from `AsyncVerifierClient.session()`): the
    asyncio twin of `rlvr.client.Session`, with `await s.run(code)` and `await s.close()`."""

    def __init__(
        self, client: AsyncVerifierClient, replica: Replica, opened: OpenSessionResponse
    ) -> None:
        self.id = opened.session_id
        self.url = replica.url
        self.limits = opened.limits
        self.setup = opened.setup
        self._client = client
        self._replica = replica
        self._ended: CellResult | None = None
        self.is_closed = False
        if opened.setup is not None and not opened.setup.session_alive:
            self._ended = opened.setup

    @property
    def is_alive(self) -> bool:
        """Whether the session takes further cells, as far as its last answer said."""
        return self._ended is None and not self.is_closed

    async def run(self, code: str, timeout_s: float | None = None) -> CellResult:
        """Run one cell in the session's namespace (never retried); see `Session.run`."""
        if self.is_closed:
            raise ConfigurationError(f"session {self.id} is closed")
        payload = cell_payload(code, timeout_s)
        if self._ended is not None:
            return ended_cell(self._ended)
        limit_s = timeout_s if timeout_s is not None else self.limits.timeout_s
        result = await self._client._run_cell(self._replica, self.id, payload, limit_s)
        if not result.session_alive:
            self._ended = result
        return result

    async def close(self) -> bool:
        """Close it on the server; True if it was open there. Best effort, never raises."""
        if self.is_closed:
            return False
        self.is_closed = True
        return await self._client._close_session(self._replica, self.id)

    async def __aenter__(self) -> AsyncSession:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncSession(id={self.id!r}, url={self.url!r}, is_alive={self.is_alive})"


class OpeningSession:
    """What `AsyncVerifierClient.session()` returns: await it for the `AsyncSession`, or use it
    as `async with` to have the session closed when the block ends."""

    def __init__(self, opening: Awaitable[AsyncSession]) -> None:
        self._opening = opening
        self._session: AsyncSession | None = None

    def __await__(self) -> Generator[Any, None, AsyncSession]:
        return self._opening.__await__()

    async def __aenter__(self) -> AsyncSession:
        self._session = await self._opening
        return self._session

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._session is not None:
            await self._session.close()
