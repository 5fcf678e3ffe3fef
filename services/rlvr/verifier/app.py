"""create_app(settings): the lifespan builds domain pools into `app.state`; routers stay thin."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI

from rlvr.verifier import __version__
from rlvr.verifier.api.routes import (
    answer,
    choice,
    code,
    gym,
    health,
    ifeval,
    lean,
    math,
    run,
    sessions,
    verify,
)
from rlvr.verifier.domains.answer.verifier import open_answer_verifier
from rlvr.verifier.domains.choice.verifier import open_choice_verifier
from rlvr.verifier.domains.code.verifier import open_code_verifier
from rlvr.verifier.domains.gym.verifier import open_gym_verifier
from rlvr.verifier.domains.ifeval.verifier import open_ifeval_verifier
from rlvr.verifier.domains.lean.verifier import open_lean_verifier
from rlvr.verifier.domains.math.verifier import open_math_verifier
from rlvr.verifier.domains.run.runner import CodeRunner
from rlvr.verifier.domains.sessions.service import open_session_service
from rlvr.verifier.errors import ERROR_RESPONSES, install_error_handlers
from rlvr.verifier.metrics import ServiceMetrics
from rlvr.verifier.middleware import GuardMiddleware
from rlvr.verifier.settings import VerifierSettings

log = logging.getLogger(__name__)

DESCRIPTION = """\
Verifiable rewards for RL on reasoning models. Every endpoint takes a batch and returns one
result per item, in order, with `status` (passed | failed | timed_out | error), `reward`
(null only for `error`, the verifier's own fault) and a `detail` that says why.
"""


def create_app(settings: VerifierSettings | None = None) -> FastAPI:
    settings = settings or VerifierSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            app.state.math = await stack.enter_async_context(open_math_verifier(settings.math))
            app.state.code = await stack.enter_async_context(open_code_verifier(settings.code))
            app.state.run = CodeRunner(app.state.code)  # /run_code, /run: the code pool's runs
            app.state.sessions = await stack.enter_async_context(
                open_session_service(settings.sessions, app.state.metrics.registry)
            )
            app.state.lean = await stack.enter_async_context(open_lean_verifier(settings.lean))
            app.state.ifeval = await stack.enter_async_context(
                open_ifeval_verifier(settings.ifeval)
            )
            app.state.choice = await stack.enter_async_context(
                open_choice_verifier(settings.choice)
            )
            app.state.answer = await stack.enter_async_context(
                open_answer_verifier(settings.answer)
            )
            app.state.gym = await stack.enter_async_context(open_gym_verifier(settings.gym))
            app.state.verifiers = {
                "math": app.state.math,
                "code": app.state.code,
                "lean": app.state.lean,
                "ifeval": app.state.ifeval,
                "choice": app.state.choice,
                "answer": app.state.answer,
                "gym": app.state.gym,
                "sessions": app.state.sessions,
            }
            # What start-up built (SymPy, NLTK's and langdetect's tables, the pools) lives as long
            # as the service: out of the collector's view, or each full collection walks it all
            # (measured: ~160 ms each, every ~0.7 s under an /ifeval load of 2,000 items/round).
            gc.freeze()
            log.info("verifier ready")
            yield

    app = FastAPI(
        title="rlvr verifier",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.metrics = ServiceMetrics()
    install_error_handlers(app)
    app.add_middleware(
        GuardMiddleware,
        max_body_bytes=settings.limits.max_body_bytes,
        max_bodies_in_flight_bytes=settings.limits.max_bodies_in_flight_bytes,
        api_key=settings.api_key,
        on_response=app.state.metrics.observe_request,
    )
    app.include_router(health.router)
    # Routes are matched in this order, one pattern after another for every request: the tool
    # calls first (one small request per call, many per second), the batch endpoints after.
    for module in (run, sessions, math, code, lean, ifeval, choice, answer, gym, verify):
        app.include_router(module.router, responses=ERROR_RESPONSES)
    return app


def create_app_from_env() -> FastAPI:
    """Uvicorn factory (`--factory`): settings come from `VERIFIER_*` and `.env`."""
    settings = VerifierSettings()
    logging.basicConfig(level=settings.log_level.upper())
    return create_app(settings)
