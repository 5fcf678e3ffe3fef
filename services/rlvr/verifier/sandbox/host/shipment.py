"""What is shipped into a sandbox container, derived from the layout: every module of `wire/` and
`inside/` (nothing else), and the bootstrap that PID 1 runs to import them from its stdin."""

from __future__ import annotations

import json
from pathlib import Path

from rlvr.verifier.sandbox.wire.protocol import ExecutorConfig

SANDBOX_PACKAGE = "rlvr.verifier.sandbox"
_SANDBOX_DIR = Path(__file__).resolve().parent.parent
# The packages shipped whole; `host/` never is.
SHIPPED_PACKAGES = ("wire", "inside")
# The module PID 1 runs (its `main(config)`).
MAIN_MODULE = f"{SANDBOX_PACKAGE}.inside.executor"

# PID 1's program: read a length-prefixed JSON of module sources from stdin, make them importable
# (a finder ahead of every other: nothing in the image can shadow them), import `main`, run it.
BOOTSTRAP_FINDER = """\
import os, sys, json
from importlib.machinery import ModuleSpec
def read(n):
    out = b""
    while len(out) < n:
        chunk = os.read(0, n - len(out))
        if not chunk:
            raise SystemExit(0)
        out += chunk
    return out
payload = json.loads(read(int(read(10))))
sources = {name: (is_package, source) for name, is_package, source in payload["modules"]}
class Shipped:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in sources:
            return None
        return ModuleSpec(name, Shipped, is_package=sources[name][0])
    @staticmethod
    def create_module(spec):
        return None
    @staticmethod
    def exec_module(module):
        exec(compile(sources[module.__name__][1], "<" + module.__name__ + ">", "exec"),
             module.__dict__)
sys.meta_path.insert(0, Shipped)
"""
BOOTSTRAP = (
    BOOTSTRAP_FINDER
    + '__import__(payload["main"])\nsys.modules[payload["main"]].main(payload["config"])\n'
)


def shipped_modules() -> list[tuple[str, bool, str]]:
    """(module name, is a package, source) of everything shipped: the parent packages (empty),
    then each shipped package's `__init__` and modules, in name order."""
    parts = SANDBOX_PACKAGE.split(".")
    modules = [(".".join(parts[: i + 1]), True, "") for i in range(len(parts))]
    for package in SHIPPED_PACKAGES:
        folder = _SANDBOX_DIR / package
        name = f"{SANDBOX_PACKAGE}.{package}"
        modules.append((name, True, (folder / "__init__.py").read_text()))
        for path in sorted(folder.glob("*.py")):
            if path.name != "__init__.py":
                modules.append((f"{name}.{path.stem}", False, path.read_text()))
    return modules


def bootstrap_payload(config: ExecutorConfig, main: str = MAIN_MODULE) -> bytes:
    """What the host writes to a fresh container's stdin after BOOTSTRAP starts."""
    body = json.dumps({"modules": shipped_modules(), "main": main, "config": config}).encode()
    return f"{len(body):010d}".encode() + body
