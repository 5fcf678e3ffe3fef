"""`PythonSandbox`: a persistent Python interpreter per rollout, as a TRL environment
(`GRPOTrainer(environment_factory=PythonSandbox)`); exported by `rlvr.adapters.trl`.

TRL builds environments with no arguments, keeps a pool of them and calls `reset(**row)` before
each rollout; every public method other than `reset` becomes a tool, its type hints and
Google-style docstring the tool's schema. So this class has exactly two public methods, and its
configuration (service URL, limits, output length) lives on the class: `PythonSandbox` reads
`$VERIFIER_URL`, and `PythonSandbox.configured(...)` returns a subclass with other settings.
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any, ClassVar

from rlvr.adapters._cells import DEFAULT_MAX_CHARS, RESTARTED, cell_text
from rlvr.client import ConfigurationError, Session, VerifierClient

log = logging.getLogger(__name__)


def _close_quietly(session: Session) -> None:
    """Close a session when its environment is reset or dropped; never raises (at interpreter
    exit the client may already be closed, and the service's idle expiry is the backstop)."""
    try:
        session.close()
    except Exception as exc:  # a finaliser must not raise
        log.debug("session %s not closed: %s", session.id, exc)


class PythonSandbox:
    """A Python interpreter that keeps its state for one rollout: TRL's `environment_factory`.

        from rlvr.adapters.trl import PythonSandbox                 # $VERIFIER_URL
        GRPOTrainer(..., environment_factory=PythonSandbox)
        GRPOTrainer(..., environment_factory=PythonSandbox.configured(
            base_url="http://sandbox:8000", timeout_s=5, max_chars=2000))

    `reset()` ends the previous rollout's session; the next rollout's session is opened on its
    first `python` call, so a rollout that never calls the tool holds no session and TRL's
    sequential `reset` loop over a batch sends no opens. A cell that ends the session (a
    time-out, memory, a lost container) says so in the text, and the rollout's next call opens a
    fresh interpreter and says that too: state is never silently reset. When no session can be
    opened at all (the service unreachable or full after the client's retries), `python` raises,
    and TRL shows the model the error and counts it in `tools/failure_frequency`. The session is
    closed when the environment is reset, garbage-collected, or the interpreter exits.
    """

    base_url: ClassVar[str | None] = None
    api_key: ClassVar[str | None] = None
    session_options: ClassVar[dict[str, Any]] = {}
    max_chars: ClassVar[int] = DEFAULT_MAX_CHARS
    client_options: ClassVar[dict[str, Any]] = {}
    # One blocking client per configured class, made on first use and shared by its instances.
    _client: ClassVar[VerifierClient | None] = None
    _client_lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def configured(
        cls,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_chars: int = DEFAULT_MAX_CHARS,
        client: VerifierClient | None = None,
        memory_mb: int | None = None,
        timeout_s: float | None = None,
        idle_ttl_s: float | None = None,
        max_lifetime_s: float | None = None,
        setup_code: str | None = None,
        **client_options: Any,
    ) -> type[PythonSandbox]:
        """A subclass with these settings, for `environment_factory=` (TRL calls it with no
        arguments). `base_url`/`api_key`/`client_options` build its client (default:
        `$VERIFIER_URL`, `$VERIFIER_API_KEY`), or pass a ready `client`; the session limits are
        `VerifierClient.session`'s (None: the server's default); `max_chars` bounds the text one
        call returns (its middle is cut)."""
        if max_chars < 80:
            raise ConfigurationError("max_chars must be >= 80")
        options = {
            "memory_mb": memory_mb,
            "timeout_s": timeout_s,
            "idle_ttl_s": idle_ttl_s,
            "max_lifetime_s": max_lifetime_s,
            "setup_code": setup_code,
        }
        attributes = {
            "base_url": base_url,
            "api_key": api_key,
            "max_chars": max_chars,
            "client_options": dict(client_options),
            "session_options": {k: v for k, v in options.items() if v is not None},
            "_client": client,
            "_client_lock": threading.Lock(),
            "__doc__": cls.__doc__,
            "__module__": cls.__module__,
        }
        return type(cls.__name__, (cls,), attributes)

    @classmethod
    def _shared_client(cls) -> VerifierClient:
        with cls._client_lock:
            if cls.__dict__.get("_client") is None:
                cls._client = VerifierClient(
                    cls.base_url, api_key=cls.api_key, **cls.client_options
                )
            client = cls._client
            assert client is not None
            return client

    def __init__(self) -> None:
        self._session: Session | None = None
        self._closer: weakref.finalize | None = None
        self._ended_before = False  # a session of this rollout ended: say so on the next call

    def reset(self, **row: Any) -> None:
        """Start a rollout: the previous rollout's session is closed (the row is not used)."""
        self._end_session()
        self._ended_before = False

    def python(self, code: str) -> str:
        """Run Python code in a persistent interpreter and return what it shows.

        Variables, functions and imports from earlier calls in this conversation stay defined,
        as in a notebook. The value of the last line is shown if it is an expression; use print
        for anything else. The standard library, numpy and sympy can be imported; there is no
        network access, and time and memory are limited.

        Args:
            code: Python statements to run, e.g. "x = 2 ** 10" and later "x * 3".

        Returns:
            What the code printed, then the value of its last expression, or the error it
            raised (with its traceback).
        """
        notice = ""
        if self._session is None or not self._session.is_alive:
            if self._session is not None:
                self._end_session()
                self._ended_before = True
            self._open_session()
            notice = RESTARTED + "\n" if self._ended_before else ""
        assert self._session is not None
        result = self._session.run(code)
        text = cell_text(result, max(80, self.max_chars - len(notice)))
        return notice + text

    def _open_session(self) -> None:
        session = self._shared_client().session(**self.session_options)
        self._session = session
        # Closes the session if this environment is dropped (or at exit) without a reset; the
        # finaliser holds the session, never the environment.
        self._closer = weakref.finalize(self, _close_quietly, session)

    def _end_session(self) -> None:
        if self._closer is not None:
            self._closer()  # runs the close once and detaches
        self._session = None
        self._closer = None
