"""A stranger on the port (issue 21, item 10): huge or endless heads, idle and slow connections,
more connections than the cap. Real sockets against a real `rlvr-verifier serve`."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import psutil
import pytest

from tests.support.server import LiveService, live_service

LIMITS = {
    "VERIFIER_SERVER__MAX_HEADER_BYTES": "16384",
    "VERIFIER_SERVER__MAX_HEADERS": "50",
    "VERIFIER_SERVER__HEADER_TIMEOUT_S": "1.5",
    "VERIFIER_SERVER__BODY_TIMEOUT_S": "2",
    "VERIFIER_SERVER__KEEP_ALIVE_TIMEOUT_S": "1",
    "VERIFIER_SERVER__MAX_CONNECTIONS": "40",
    "VERIFIER_API_KEY": "secret",  # the limits hold before any key is checked
}


@pytest.fixture(scope="module")
def service() -> Iterator[LiveService]:
    with live_service(LIMITS) as live:
        yield live


def connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    return sock


def read_reply(sock: socket.socket, timeout_s: float = 10) -> bytes:
    """Everything the server writes until it closes the connection (or `timeout_s`)."""
    sock.settimeout(timeout_s)
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except (ConnectionResetError, TimeoutError):
        pass
    return b"".join(chunks)


def health_latency_s(url: str) -> float:
    started = time.perf_counter()
    reply = httpx.get(f"{url}/health", timeout=10)
    assert reply.status_code == 200
    return time.perf_counter() - started


def rss_mb(service: LiveService) -> float:
    return psutil.Process(service.process.pid).memory_info().rss / 2**20


def send_huge_header(url: str, sent: list[int]) -> bytes:
    """Start a 100 MB header and keep writing until the server stops reading; the reply."""
    sock = connect(url)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
    chunk = b"a" * 2**20
    total = 0
    try:
        for _ in range(100):
            sock.sendall(chunk)
            total += len(chunk)
    except OSError:
        pass  # the server closed the connection: what we want
    sent.append(total)
    reply = read_reply(sock, timeout_s=5)
    sock.close()
    return reply


def test_a_100_mb_header_is_refused_fast_with_memory_bounded(service: LiveService) -> None:
    before = rss_mb(service)
    sent: list[int] = []
    replies: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: replies.append(send_huge_header(service.url, sent)))
        for _ in range(4)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    elapsed = time.perf_counter() - started
    assert len(sent) == 4
    # The server stopped reading at the limit: nowhere near 100 MB went in (socket buffers
    # take a few MB), and quickly.
    assert max(sent) < 20 * 2**20, sent
    assert elapsed < 15
    assert rss_mb(service) - before < 40, (before, rss_mb(service))
    # Where the reply survived the reset, it is the named 431.
    for reply in replies:
        assert reply == b"" or reply.startswith(b"HTTP/1.1 431"), reply[:200]
    assert health_latency_s(service.url) < 1.0


def test_a_head_over_the_byte_limit_is_a_431(service: LiveService) -> None:
    sock = connect(service.url)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
    reply = read_reply(sock)
    assert reply.startswith(b"HTTP/1.1 431"), reply[:200]
    assert b"max_header_bytes=16384" in reply


def test_too_many_headers_is_a_431(service: LiveService) -> None:
    sock = connect(service.url)
    lines = b"".join(b"X-H%d: v\r\n" % i for i in range(60))
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
    reply = read_reply(sock)
    assert reply.startswith(b"HTTP/1.1 431"), reply[:200]
    assert b"max_headers=50" in reply


def test_a_head_within_the_limits_is_served(service: LiveService) -> None:
    headers = {f"X-H{i}": "v" * 100 for i in range(40)}
    assert httpx.get(f"{service.url}/health", headers=headers, timeout=10).status_code == 200


def test_a_websocket_upgrade_is_plain_http(service: LiveService) -> None:
    """No endpoint speaks WebSocket: an upgrade request is answered as HTTP, on the protocol
    whose deadlines hold."""
    sock = connect(service.url)
    sock.sendall(
        b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    reply = read_reply(sock)
    assert reply.startswith(b"HTTP/1.1 200"), reply[:200]


def test_an_idle_connection_is_closed_after_the_head_timeout(service: LiveService) -> None:
    sock = connect(service.url)
    started = time.perf_counter()
    reply = read_reply(sock, timeout_s=10)
    waited = time.perf_counter() - started
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert 1.0 < waited < 4.0, waited


def test_a_slowloris_head_is_closed_after_the_head_timeout(service: LiveService) -> None:
    """One byte every 0.2 s: each byte would reset an idle timer; the head deadline holds."""
    sock = connect(service.url)
    started = time.perf_counter()
    closed = False
    for byte in b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            closed = True
            break
        time.sleep(0.2)
        if time.perf_counter() - started > 6:
            break
    waited = time.perf_counter() - started
    assert closed or read_reply(sock, timeout_s=1).startswith(b"HTTP/1.1 408")
    assert waited < 6.0, waited


def test_a_slow_body_is_closed_after_the_body_timeout(service: LiveService) -> None:
    sock = connect(service.url)
    sock.sendall(
        b"POST /math HTTP/1.1\r\nHost: x\r\nX-API-Key: secret\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
    )
    started = time.perf_counter()
    reply = read_reply(sock, timeout_s=10)
    waited = time.perf_counter() - started
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert 1.5 < waited < 5.0, waited


def test_a_kept_alive_connection_is_closed_when_idle(service: LiveService) -> None:
    sock = connect(service.url)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    started = time.perf_counter()
    reply = read_reply(sock, timeout_s=10)
    waited = time.perf_counter() - started
    assert reply.startswith(b"HTTP/1.1 200"), reply[:200]
    assert reply.count(b"HTTP/1.1") == 1  # closed quietly, no 408 after a finished exchange
    assert waited < 4.0, waited


def test_connections_beyond_the_cap_are_refused_cleanly_and_health_recovers(
    service: LiveService,
) -> None:
    idle = [connect(service.url) for _ in range(40)]
    time.sleep(0.3)
    try:
        extra = connect(service.url)
        extra.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        reply = read_reply(extra, timeout_s=5)
        assert reply.startswith(b"HTTP/1.1 503"), reply[:200]
        assert b"max_connections=40" in reply
        # The service holds no more sockets than the cap (plus its own descriptors).
        sockets = [c for c in psutil.Process(service.process.pid).net_connections() if c.raddr]
        assert len(sockets) <= 41, len(sockets)
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.3)
    assert health_latency_s(service.url) < 1.0


def test_idle_connections_past_the_cap_time_out_and_free_their_places(
    service: LiveService,
) -> None:
    idle = [connect(service.url) for _ in range(40)]
    try:
        time.sleep(3.0)  # past header_timeout_s: every one of them was closed by the server
        assert health_latency_s(service.url) < 1.0
    finally:
        for sock in idle:
            sock.close()


def test_the_cap_is_fitted_to_a_low_descriptor_limit() -> None:
    """Under a hard limit of 300 descriptors, 1,000 connections cannot fit: the cap is lowered
    so that the service keeps descriptors for itself."""
    script = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (300, 300))\n"
        "from rlvr.verifier.connections import OWN_DESCRIPTORS, fit_descriptor_limit\n"
        "print(fit_descriptor_limit(1000), 300 - OWN_DESCRIPTORS)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    fitted, expected = out.stdout.split()
    assert fitted == expected


def test_the_descriptor_limit_is_raised_to_fit_the_cap() -> None:
    script = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (512, 4096))\n"
        "from rlvr.verifier.connections import fit_descriptor_limit\n"
        "print(fit_descriptor_limit(1000), resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1000", "1256"]
