"""What is shipped into a container is derived from the layout and imports nothing else."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from rlvr.verifier.sandbox.host.shipment import (
    BOOTSTRAP_FINDER,
    SANDBOX_PACKAGE,
    bootstrap_payload,
    shipped_modules,
)
from rlvr.verifier.sandbox.wire.protocol import ExecutorConfig

CONFIG: ExecutorConfig = {
    "output_limit_bytes": 1 << 20,
    "is_launcher_enabled": True,
    "is_job_init_enabled": True,
    "job_namespaces": "off",
    "tmpfs_mb": 64,
    "kept_artefacts": 16,
    "kept_artefact_bytes": 48 << 20,
}
SANDBOX_DIR = Path(__file__).resolve().parents[5] / "services/rlvr/verifier/sandbox"


def _imported_names(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "shipped modules use absolute imports"
            if node.module != "__future__":
                names.add(str(node.module))
    return names


def _import_all(modules: list[tuple[str, bool, str]]) -> subprocess.CompletedProcess[str]:
    """Import every shipped module in an isolated interpreter: no site-packages, no PYTHONPATH,
    no current directory, only the modules of the payload (as PID 1 has them)."""
    body = json.dumps({"modules": modules, "main": "", "config": {}}).encode()
    names = [name for name, _, _ in modules]
    program = BOOTSTRAP_FINDER + f"for name in {names!r}:\n    __import__(name)\nprint('ok')\n"
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", program],
        input=f"{len(body):010d}" + body.decode(),
        capture_output=True,
        text=True,
        timeout=60,
        cwd="/",
    )


def test_the_shipment_is_every_module_of_wire_and_inside_and_nothing_of_host() -> None:
    shipped = {name for name, _, _ in shipped_modules()}
    on_disk = {
        f"{SANDBOX_PACKAGE}.{path.parent.name}.{path.stem}".removesuffix(".__init__")
        for package in ("wire", "inside")
        for path in (SANDBOX_DIR / package).glob("*.py")
    }
    assert on_disk <= shipped
    assert "rlvr.verifier.sandbox.inside.executor" in shipped
    assert not any(".host" in name for name in shipped)
    assert shipped - on_disk == {"rlvr", "rlvr.verifier", SANDBOX_PACKAGE}


def test_shipped_modules_import_only_the_standard_library_and_each_other() -> None:
    modules = shipped_modules()
    shipped = {name for name, _, _ in modules}
    for name, _, source in modules:
        for imported in _imported_names(source):
            top = imported.partition(".")[0]
            assert imported in shipped or top in sys.stdlib_module_names, (name, imported)


def test_every_shipped_module_imports_in_an_isolated_interpreter() -> None:
    done = _import_all(shipped_modules())
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_a_shipped_module_that_imports_the_host_side_fails_to_import() -> None:
    # the control: the isolated interpreter really lacks everything not shipped
    leaky = (f"{SANDBOX_PACKAGE}.inside.leaky", False, "import rlvr.verifier.sandbox.host.pool\n")
    done = _import_all([*shipped_modules(), leaky])
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr


def test_the_payload_is_length_prefixed_json_naming_the_executor() -> None:
    payload = bootstrap_payload({**CONFIG, "output_limit_bytes": 1024})
    body = json.loads(payload[10:])
    assert int(payload[:10]) == len(payload) - 10
    assert body["main"] == f"{SANDBOX_PACKAGE}.inside.executor"
    assert body["config"] == {**CONFIG, "output_limit_bytes": 1024}
