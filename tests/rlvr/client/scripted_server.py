"""A real HTTP server that misbehaves on cue (503 + Retry-After, 4xx, slow answers) for the
client's retry and deadline tests. A stand-in for a failing service, clearly not the service.

Each POST takes the next step of the script (the last step repeats): an HTTP status, headers and
a delay; a 200 step answers one `passed` result per item sent, echoing the ids.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Step:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    body: bytes | None = None  # sent as is instead of the default body


@dataclass
class Script:
    steps: Sequence[Step]
    request_times: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self) -> Step:
        with self.lock:
            self.request_times.append(time.monotonic())
            index = min(len(self.request_times), len(self.steps)) - 1
            return self.steps[index]

    @property
    def requests(self) -> int:
        return len(self.request_times)


def _ok_body(payload: dict) -> bytes:
    results = [
        {
            "id": item.get("id"),
            "status": "passed",
            "reward": 1.0,
            "detail": "scripted",
            "elapsed_s": 0.0,
            **({"domain": item["domain"]} if "domain" in item else {}),
        }
        for item in payload.get("items", [])
    ]
    return json.dumps({"results": results}).encode()


@contextmanager
def scripted_server(*steps: Step) -> Iterator[tuple[str, Script]]:
    script = Script(list(steps) or [Step()])

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            payload = json.loads(self.rfile.read(length) or b"{}")
            step = script.next_step()
            if step.delay_s:
                time.sleep(step.delay_s)
            if step.body is not None:
                body = step.body
            elif step.status == 200:
                body = _ok_body(payload)
            else:
                body = json.dumps(
                    {"error": {"code": f"scripted_{step.status}", "message": "scripted"}}
                ).encode()
            try:
                self.send_response(step.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                for name, value in step.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (deadline tests)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", script
    finally:
        server.shutdown()
        server.server_close()
