"""The installed wheel, not the checkout: a fresh virtualenv gets only the built `rlvr` wheel
(its dependencies come from this environment's site-packages through a `.pth` line), imports
`rlvr` from there, starts `rlvr-verifier serve` and answers a math and a code request end to
end. A module path written as a string that a move missed (uvicorn's app path, the sandbox's
module list sent into containers, the console scripts) fails here."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import time
import venv
from pathlib import Path

import httpx
import pytest

from tests.support.server import REPO_ROOT, free_port

pytestmark = [pytest.mark.docker]


def test_the_wheel_serves_from_a_fresh_virtualenv(docker_engine: None, tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(REPO_ROOT),
        ],
        check=True,
        timeout=300,
    )
    [wheel] = wheels.glob("rlvr-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # Dependencies (not rlvr itself) from this environment: its site-packages as a plain path,
    # whose own .pth files (our editable install among them) are not processed.
    Path(purelib, "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            purelib,
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    clean_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run(
        [str(python), "-c", "import rlvr, rlvr.verifier.app, rlvr_train; print(rlvr.__file__)"],
        cwd=outside,
        env=clean_env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert where.startswith(purelib), where
    assert not where.startswith(str(REPO_ROOT))
    port = free_port()
    server = subprocess.Popen(
        [str(python), "-m", "rlvr.verifier.cli", "serve", "--port", str(port)],
        cwd=outside,
        env={**clean_env, "VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_LEAN__IS_ENABLED": "false"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None, "the service from the wheel exited"
            assert time.monotonic() < deadline, "the service from the wheel did not start"
            time.sleep(0.5)
        probe = (
            "from rlvr import VerifierClient\n"
            f"with VerifierClient('{url}') as c:\n"
            "    m = c.math([{'response': 'so \\\\boxed{12}', 'answer': '12'}])[0]\n"
            "    t = [{'kind': 'call', 'fn': 'f', 'args': [3], 'expected': 6}]\n"
            "    k = c.code([{'code': 'def f(x):\\n    return 2 * x\\n', 'tests': t}])[0]\n"
            "print(m.status.value, m.reward, k.status.value, k.reward)\n"
        )
        out = subprocess.run(
            [str(python), "-c", probe],
            cwd=outside,
            env=clean_env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout.strip()
        assert out == "passed 1.0 passed 1.0"
    finally:
        server.terminate()
        server.wait(timeout=30)
