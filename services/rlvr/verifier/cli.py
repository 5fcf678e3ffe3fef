"""`rlvr-verifier`: run the service (`serve`) or send it a demo request (`demo`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rlvr.verifier.settings import VerifierSettings

DEMO_MATH_ITEMS = [
    {"id": "boxed-fraction", "response": "Halving gives \\boxed{\\dfrac{1}{2}}.", "answer": "0.5"},
    {"id": "answer-line", "response": "So x = 3.\nFinal Answer: x = 3", "answer": "3"},
    {"id": "wrong", "response": "The answer is 7.", "answer": "8"},
    {"id": "hedging", "response": "\\boxed{2} or maybe \\boxed{3}", "answer": "3"},
]


DEMO_CODE_ITEMS = [
    {
        "id": "code-correct",
        "response": "Here you go:\n```python\ndef add(a, b):\n    return a + b\n```",
        "language": "python",
        "tests": [
            {"kind": "call", "fn": "add", "args": [1, 2], "expected": 3},
            {"kind": "assert", "code": "assert add(-1, 1) == 0"},
        ],
    },
    {
        "id": "code-exit-hack",
        "code": "import sys\nsys.exit(0)",
        "language": "python",
        "tests": [{"kind": "assert", "code": "assert add(1, 2) == 3"}],
    },
]


# A stateful Python session (the policy's interpreter in agentic RL): state persists between cells.
DEMO_SESSION_CELLS = ["import math\nradius = 2", "round(math.pi * radius**2, 3)", "1 / 0"]


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rlvr-verifier", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="Run the HTTP service (settings: VERIFIER_* and .env).")
    serve.add_argument("--host", help="Bind address (VERIFIER_HOST, default 127.0.0.1).")
    serve.add_argument("--port", type=int, help="Port (VERIFIER_PORT, default 8000).")
    serve.add_argument("--workers", type=int, help="Uvicorn worker processes (VERIFIER_WORKERS).")
    serve.add_argument(
        "--ray",
        action="store_true",
        help="Deploy as a Ray Serve application on the running Ray cluster (needs the `ray` "
        "extra; layout from VERIFIER_RAY__*): an HTTP proxy on every node.",
    )
    serve.add_argument("--ray-address", help="Ray cluster address (default: auto).")
    demo = sub.add_parser(
        "demo", help="Send demo /math and /code batches and a session's cells to a running service."
    )
    demo.add_argument("--url", default="http://127.0.0.1:8000", help="Service base URL.")
    return parser


def serve(args: argparse.Namespace) -> None:
    import uvicorn

    settings = VerifierSettings()
    if args.ray:
        from rlvr.verifier.scaleout.ray_app import run

        if args.port:
            settings.ray.http_port = args.port
        if args.host:
            settings.ray.http_host = args.host
        run(settings, args.ray_address)
        return
    uvicorn.run(
        "rlvr.verifier.app:create_app_from_env",
        factory=True,
        host=args.host or settings.host,
        port=args.port or settings.port,
        workers=args.workers or settings.workers,
        log_level=settings.log_level.lower(),
        **connection_options(settings),
    )


def connection_options(settings: VerifierSettings) -> dict[str, Any]:
    """Uvicorn's options for what a connection may cost (`rlvr.verifier.connections` does the
    rest: head size and count, read deadlines, the connection cap). `h11` is named only for a
    deployment that swaps the protocol back to uvicorn's pure-Python one."""
    server = settings.server
    return {
        "http": "rlvr.verifier.connections:GuardedHttpProtocol",
        # No endpoint speaks WebSocket: an upgrade would hand the socket to a protocol that the
        # head and body deadlines do not cover.
        "ws": "none",
        "timeout_keep_alive": server.keep_alive_timeout_s,
        "h11_max_incomplete_event_size": server.max_header_bytes,
    }


def demo(args: argparse.Namespace) -> None:
    import httpx

    domains = httpx.get(f"{args.url}/health", timeout=10).json()["domains"]
    demos: list[tuple[str, list[Any]]] = [("/math", DEMO_MATH_ITEMS)]
    if domains.get("code", {}).get("ok"):
        demos.append(("/code", DEMO_CODE_ITEMS))
    else:
        print(f"(skipping /code: {domains.get('code', {}).get('detail')})")
    for path, items in demos:
        print(f"POST {path}")
        reply = httpx.post(f"{args.url}{path}", json={"items": items}, timeout=60)
        reply.raise_for_status()
        for result in reply.json()["results"]:
            print("  " + json.dumps(result))
    if domains.get("sessions", {}).get("ok"):
        demo_session(args.url)
    else:
        print(f"(skipping /sessions: {domains.get('sessions', {}).get('detail')})")


def demo_session(url: str) -> None:
    """Open a Python session, run cells that share state, close it."""
    import httpx

    print("POST /sessions")
    opened = httpx.post(f"{url}/sessions", json={"timeout_s": 5}, timeout=60)
    opened.raise_for_status()
    session_id = opened.json()["session_id"]
    try:
        for code in DEMO_SESSION_CELLS:
            print(f"POST /sessions/{{id}}/run  {code!r}")
            reply = httpx.post(f"{url}/sessions/{session_id}/run", json={"code": code}, timeout=60)
            reply.raise_for_status()
            cell = reply.json()
            shown = {k: cell[k] for k in ("status", "value", "error", "session_alive")}
            print("  " + json.dumps(shown))
    finally:
        httpx.delete(f"{url}/sessions/{session_id}", timeout=60)


def main(argv: list[str] | None = None) -> None:
    args = make_parser().parse_args(argv)
    {"serve": serve, "demo": demo}[args.command](args)


if __name__ == "__main__":
    main(sys.argv[1:])
