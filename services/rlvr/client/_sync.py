"""`VerifierClient`: the blocking client (httpx.Client; chunks sent concurrently from threads)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from types import TracebackType
from typing import Any, TypeVar

import httpx
from tenacity import Retrying

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


class VerifierClient(BaseClient):
    """Blocking client. Thread-safe; use one per process and `close()` it (or `with`).

    See `BaseClient` for the arguments; `transport` is passed to httpx (tests, proxies).
    """

    def __init__(
        self,
        base_url: str | Sequence[str] | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(base_url, **kwargs)
        self._http = httpx.Client(
            headers=self._headers,
            timeout=self.timeout,
            transport=transport,
            limits=httpx.Limits(max_connections=max(10, self.max_concurrency)),
        )

    def math(
        self, items: Iterable[MathItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[MathResult]:
        """Judge final answers (`POST /math`); one result per item, in order."""
        return self._call(MATH, items, deadline_s)

    def code(
        self, items: Iterable[CodeItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[CodeResult]:
        """Run programs against their tests (`POST /code`); one result per item, in order."""
        return self._call(CODE, items, deadline_s)

    def lean(
        self, items: Iterable[LeanItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[LeanResult]:
        """Check Lean 4 proofs of their statements (`POST /lean`); results in order."""
        return self._call(LEAN, items, deadline_s)

    def ifeval(
        self, items: Iterable[IfevalItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[IfevalResult]:
        """Check responses against instruction-following constraints (`POST /ifeval`)."""
        return self._call(IFEVAL, items, deadline_s)

    def choice(
        self, items: Iterable[ChoiceItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[ChoiceResult]:
        """Judge multiple-choice answers (`POST /choice`); one result per item, in order."""
        return self._call(CHOICE, items, deadline_s)

    def answer(
        self, items: Iterable[AnswerItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[AnswerResult]:
        """Judge short answers against references or aliases (`POST /answer`); in order."""
        return self._call(ANSWER, items, deadline_s)

    def gym(
        self, items: Iterable[GymItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[GymResult]:
        """Score reasoning-gym answers with each task's scorer (`POST /gym`); in order."""
        return self._call(GYM, items, deadline_s)

    def verify(
        self, items: Iterable[VerifyItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[VerifyResult]:
        """Judge a mixed batch (`POST /verify`; each item has `domain`); results in order."""
        return self._call(VERIFY, items, deadline_s)

    def run(
        self, items: Iterable[RunItem | Mapping[str, Any]], *, deadline_s: float | None = None
    ) -> list[RunCodeResponse]:
        """Run programs, no tests (`POST /run`, SandboxFusion's `/run_code` batched): one
        SandboxFusion answer per item, in order (`status`, `run_result.stdout`, ...)."""
        return self._call(RUN, items, deadline_s)

    def run_code(
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
        return (self._call(RUN, [item], deadline_s))[0]

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
    ) -> Session:
        """Open a stateful Python session (`POST /sessions`) and return its handle, a context
        manager that closes it: `with client.session() as s: s.run("x = 1")`.

        The limits (each capped by the server; None: its default) are the process's memory,
        the default seconds per cell, the idle seconds after which the service closes it, and
        its whole lifetime. `files` ({relative path: base64}) are written into its work dir and
        `setup_code` runs as its first cell (its result is `Session.setup`). A 503 at capacity
        (and a transport error) is retried under the client's `RetryPolicy`, after
        `Retry-After`, possibly on another endpoint; the session then stays on the endpoint
        that opened it."""
        payload = open_payload(
            memory_mb=memory_mb,
            timeout_s=timeout_s,
            idle_ttl_s=idle_ttl_s,
            max_lifetime_s=max_lifetime_s,
            files=dict(files or {}),
            setup_code=setup_code,
        )
        deadline = self._deadline(deadline_s)
        retrying = Retrying(sleep=time.sleep, **self._retry_arguments(deadline))
        replica, opened = retrying(self._open_once, payload, deadline)
        return Session(self, replica, opened)

    def health(self, url: str | None = None) -> HealthResponse:
        """`GET /health` of one endpoint (default: the first)."""
        response = self._http.get((url or self.base_url) + "/health")
        return HealthResponse.model_validate_json(response.content)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> VerifierClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _call(
        self, endpoint: Endpoint[Any, ResultT], items: Iterable[Any], deadline_s: float | None
    ) -> list[ResultT]:
        payload = encode_items(endpoint, items)
        if not payload:
            return []
        deadline = self._deadline(deadline_s)
        chunks = _chunking.split(payload, self.chunk_size)
        if len(chunks) == 1:
            return _chunking.join(chunks, [self._send_chunk(endpoint, chunks[0], deadline)])
        pool = ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(chunks)))
        try:
            futures = [pool.submit(self._send_chunk, endpoint, c, deadline) for c in chunks]
            return _chunking.join(chunks, _results(futures, deadline))
        finally:
            # Do not wait for chunks still in flight after a failure: their timeouts are already
            # capped by the deadline, so the threads end on their own.
            pool.shutdown(wait=False, cancel_futures=True)

    def _send_chunk(
        self,
        endpoint: Endpoint[Any, ResultT],
        chunk: Sequence[dict[str, Any]],
        deadline: float | None,
    ) -> list[ResultT]:
        retrying = Retrying(sleep=time.sleep, **self._retry_arguments(deadline))
        result: list[ResultT] = retrying(self._post_once, endpoint, chunk, deadline)
        return result

    def _post_once(
        self,
        endpoint: Endpoint[Any, ResultT],
        chunk: Sequence[dict[str, Any]],
        deadline: float | None,
    ) -> list[ResultT]:
        left = remaining_s(deadline)
        if left is not None and left <= 0:
            raise DeadlineExceeded(f"deadline reached before sending to {endpoint.path}")
        replica = self._pick()
        with self.endpoints.attempt(replica):
            try:
                response = self._http.post(
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

    def _open_once(
        self, payload: dict[str, Any], deadline: float | None
    ) -> tuple[Replica, OpenSessionResponse]:
        left = remaining_s(deadline)
        if left is not None and left <= 0:
            raise DeadlineExceeded("deadline reached before opening a session")
        replica = self._pick()
        with self.endpoints.attempt(replica):
            try:
                response = self._http.post(
                    replica.url + SESSIONS_PATH,
                    json=payload,
                    timeout=self._attempt_timeout(deadline),
                )
            except httpx.TransportError as exc:
                raise TransportError(
                    f"{replica.url}{SESSIONS_PATH}: {type(exc).__name__}: {exc}"
                ) from exc
            return replica, parse_opened(response)

    def _run_cell(
        self, replica: Replica, session_id: str, payload: dict[str, Any], limit_s: float
    ) -> CellResult:
        """One cell, sent once to the session's own endpoint (see `rlvr.client._sessions`)."""
        url = replica.url + session_path(session_id) + "/run"
        try:
            with self.endpoints.attempt(replica):
                try:
                    response = self._http.post(
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

    def _close_session(self, replica: Replica, session_id: str) -> bool:
        try:
            response = self._http.delete(
                replica.url + session_path(session_id), headers=session_headers(session_id)
            )
        except httpx.HTTPError as exc:
            log.info("session %s on %s not closed: %s", session_id, replica.url, exc)
            return False
        return parse_closed(response)

    def _pick(self) -> Replica:
        """The endpoint for one attempt, probing (`GET /health`) any that is due to come back."""
        for _ in range(len(self.endpoints.replicas)):
            choice = self.endpoints.pick()
            if not choice.probe:
                return choice.replica
            self.endpoints.probed(choice.replica, self._probe(choice.replica.url))
        return self.endpoints.pick(allow_probe=False).replica

    def _probe(self, url: str) -> bool:
        try:
            response = self._http.get(url + "/health", timeout=PROBE_TIMEOUT)
        except httpx.HTTPError:
            return False
        return response.status_code == 200


class Session:
    """A stateful Python session on one endpoint (from `VerifierClient.session()`).

    `id`, `url` (its endpoint), `limits` (as the server granted them) and `setup` (the result
    of `setup_code`, if any). `run(code)` runs one cell and returns its `CellResult`: an
    exception in the cell, a time-out or a lost session is data (`status`, `session_alive`),
    never an exception. Once a result says the session is not alive, later cells answer
    `session_lost` at once, without a request. One cell at a time; `close()` (or leaving the
    `with` block) ends it on the server and never raises.
    """

    def __init__(
        self, client: VerifierClient, replica: Replica, opened: OpenSessionResponse
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

    def run(self, code: str, timeout_s: float | None = None) -> CellResult:
        """Run one cell (`POST /sessions/{id}/run`) in the session's namespace; `timeout_s`
        (wall seconds, capped by the server) overrides the session's default. Never retried."""
        if self.is_closed:
            raise ConfigurationError(f"session {self.id} is closed")
        payload = cell_payload(code, timeout_s)
        if self._ended is not None:
            return ended_cell(self._ended)
        limit_s = timeout_s if timeout_s is not None else self.limits.timeout_s
        result = self._client._run_cell(self._replica, self.id, payload, limit_s)
        if not result.session_alive:
            self._ended = result
        return result

    def close(self) -> bool:
        """Close it on the server (`DELETE /sessions/{id}`); True if it was open there. Best
        effort: an endpoint that is gone took the session with it."""
        if self.is_closed:
            return False
        self.is_closed = True
        return self._client._close_session(self._replica, self.id)

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Session(id={self.id!r}, url={self.url!r}, is_alive={self.is_alive})"


def _results(futures: list[Future[list[ResultT]]], deadline: float | None) -> list[list[ResultT]]:
    """Every chunk's results, or the first failure as soon as it happens (not in chunk order)."""
    done, pending = wait(futures, timeout=remaining_s(deadline), return_when=FIRST_EXCEPTION)
    for future in futures:
        exc = future.exception() if future in done else None
        if exc is not None:
            raise exc
    if pending:
        raise DeadlineExceeded("deadline reached waiting for a chunk")
    return [future.result() for future in futures]
