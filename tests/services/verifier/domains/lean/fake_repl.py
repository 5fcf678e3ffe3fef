"""STAND-IN for the leanprover-community REPL — a test double, NOT Lean.

No Lean toolchain can be installed where this project is built and tested, so the pool, protocol
and verdict plumbing are tested against this script. It speaks the REPL's wire protocol exactly as
the real one does (commands are JSON objects ended by a blank line; replies are pretty-printed
JSON `{"env", "messages", "sorries"}` ended by a blank line, empty lists omitted, `{"message"}` for
an unknown env; one new env id per command, counting from 0) and it emulates the observable
behaviour of the four kinds of command the verifier sends, with crude text rules instead of
elaboration:

- a header (no `env`): a new env; `FAKE_BAD_HEADER` in it gives an error message, and
  `FAKE_HEADER_DEFINES NAME` declares NAME there (a "library" theorem);
- `#print axioms _root_.NAME\naxiom REF SIG`: the probe (an error unless NAME exists), then
  records SIG as REF's "type" (`FAKE_BAD_STATEMENT` in it -> an error);
- `section S\\n<code>`: pushes scope S, then reads `theorem|lemma NAME SIG := …` declarations,
  `namespace`/`section`/`end` lines, `axiom` declarations, and the words `sorry`/`admit`;
- `end S\\ntheorem _root_.CHK : type_of% @_root_.REF := @_root_.NAME\\n#print axioms CHK`: fails
  like Lean would if the scope is not S, if NAME is unknown, or if NAME's SIG differs from REF's
  (whitespace-normalised text equality stands in for the kernel's definitional equality); else
  prints `'CHK' depends on axioms: [...]`.

With `FAKE_REPL_ACCUMULATE=1` every reply repeats its parent env's messages first, as some REPL
releases do. Directives in a proof's comments drive failure modes: `-- fake: hang`,
`-- fake: sleep 1.5`, `-- fake: crash`, `-- fake: crash_once MARKER` (crashes unless the file
MARKER exists, then creates it), `-- fake: info` (an info message), `-- fake: forge`
(prints a forged reply first), `-- fake: noise` (non-JSON stdout before the reply),
`-- fake: memory 512` (allocates that many MiB), `-- fake: axiom X` (the proof depends on X),
`-- fake: error`, `-- fake: check_hang`, `-- fake: check_silent`, and
`-- fake: escape port=P file=PATH ...`: what a proof whose code ran inside the REPL would try
(the Docker socket, the verifier's port and the host over the network, a route out, the API key
and the environment, the given host files, other processes, writing outside /tmp, privileges),
reported as one info message `escape report: {attempt: "blocked: ..." | "GAINED: ..."}`. Network
probes only ever address loopback, the local Docker bridge and a UDP "connect" (which sends
nothing) to a reserved documentation address: never real outside traffic.

What this cannot tell: whether real Lean accepts the commands we build, and everything the kernel
decides. That is what `test_real_lean.py` checks wherever a toolchain exists.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import time
from dataclasses import dataclass, field


@dataclass
class Env:
    decls: dict[str, str] = field(default_factory=dict)
    axioms: dict[str, set[str]] = field(default_factory=dict)
    scopes: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    history: list[dict[str, object]] = field(default_factory=list)  # messages so far


ENVS: list[Env] = []
ACCUMULATE = os.environ.get("FAKE_REPL_ACCUMULATE") == "1"
_DIRECTIVE = re.compile(r"--\s*fake:\s*(\w+)(?:[ \t]+([^\n]+))?")
_DECL = re.compile(r"(?<![\w'.])(theorem|lemma)\s+([^\s(){}\[\]:]+)(.*?):=", re.DOTALL)
_AXIOM_DECL = re.compile(r"(?<![\w'.])axiom\s+([^\s(){}\[\]:]+)")


def norm(text: str) -> str:
    return " ".join(text.split())


def message(severity: str, data: str, line: int = 1, column: int = 0) -> dict[str, object]:
    return {
        "severity": severity,
        "pos": {"line": line, "column": column},
        "endPos": {"line": line, "column": column + 1},
        "data": data,
    }


def reply(env: Env, messages: list[dict[str, object]], sorries: list[object] | None = None) -> dict:
    env.history = [*env.history, *messages]
    if ACCUMULATE:  # like REPL releases that repeat the parent env's messages
        messages = env.history
    ENVS.append(env)
    out: dict[str, object] = {"env": len(ENVS) - 1}
    if messages:
        out["messages"] = messages
    if sorries:
        out["sorries"] = sorries
    return out


def copy_env(env: Env) -> Env:
    return Env(
        dict(env.decls),
        {k: set(v) for k, v in env.axioms.items()},
        list(env.scopes),
        set(env.flags),
        list(env.history),
    )


def log(text: str) -> None:
    path = os.environ.get("FAKE_REPL_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(f"{os.getpid()} {text}\n")


def run_header(cmd: str) -> dict:
    log("header")
    env = Env()
    if "FAKE_BAD_HEADER" in cmd:
        return reply(env, [message("error", "unknown module prefix 'FAKE_BAD_HEADER'")])
    for name in re.findall(r"FAKE_HEADER_DEFINES (\S+)", cmd):
        env.decls[name] = "library"
        env.axioms[name] = set()
    sleep = re.search(r"FAKE_HEADER_SLEEP ([\d.]+)", cmd)
    if sleep:
        time.sleep(float(sleep.group(1)))
    return reply(env, [])


def run_reference(env: Env, cmd: str) -> dict:
    log("reference")
    env = copy_env(env)
    probe, _, decl = cmd.partition("\n")
    target = probe.split()[-1].removeprefix("_root_.")
    messages = (
        [message("info", f"'{target}' does not depend on any axioms")]
        if target in env.decls
        else [message("error", f"unknown constant '{target}'")]
    )
    name, _, sig = decl[len("axiom ") :].partition(" ")
    name = name.removeprefix("_root_.")
    if "FAKE_BAD_STATEMENT" in sig:
        messages.append(message("error", "unknown identifier 'FAKE_BAD_STATEMENT'", line=2))
        return reply(env, messages)
    env.decls[name] = norm(sig)
    env.axioms[name] = {name}
    return reply(env, messages)


_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|VERIFIER_|DOCKER", re.IGNORECASE)


def _try(action) -> str:  # type: ignore[no-untyped-def]
    try:
        gained = action()
    except Exception as exc:
        return f"blocked: {type(exc).__name__}: {exc}"[:200]
    return f"GAINED: {gained}"[:200] if gained else "blocked: nothing found"


def _docker_socket() -> str:
    paths = ["/var/run/docker.sock", "/run/docker.sock"]
    host = os.environ.get("DOCKER_HOST", "")
    if host.startswith("unix://"):
        paths.insert(0, host[len("unix://") :])
    errors = []
    for path in paths:
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(2)
                sock.connect(path)
                sock.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
                return f"{path} answered {sock.recv(64)!r}"
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror or exc}")
    raise OSError("; ".join(errors))


def _connect(host: str, port: int) -> str:
    with socket.create_connection((host, port), timeout=2):
        return f"connected to {host}:{port}"


def _route_out() -> str:
    # A UDP connect only picks a route: it sends no packet. 192.0.2.1 is TEST-NET-1 (RFC 5737).
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(("192.0.2.1", 9))
        return f"a route out exists (source address {sock.getsockname()[0]})"


def _interfaces() -> str:
    names = [n for n in os.listdir("/sys/class/net") if n != "lo"]
    return f"interfaces {names}" if names else ""


def _secrets_in_environment() -> str:
    return ", ".join(sorted(name for name in os.environ if _SECRET_NAME.search(name)))


def _secrets_of_other_processes() -> str:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                with open(f"/proc/{pid}/environ", "rb") as handle:
                    names = [v.split(b"=")[0].decode("latin-1") for v in handle.read().split(b"\0")]
            except OSError:
                continue
            found += [f"{pid}:{name}" for name in names if _SECRET_NAME.search(name)]
    return ", ".join(found[:5])


def _read(path: str) -> str:
    with open(path, "rb") as handle:
        return f"read {len(handle.read())} bytes of {path}"


def _other_processes() -> str:
    seen = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    cmdline = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            if any(word in cmdline for word in ("uvicorn", "dockerd", "pytest", "containerd")):
                seen.append(f"{pid}:{cmdline[:40]}")
    return ", ".join(seen[:3])


def _write_outside_scratch(extra: list[str]) -> str:
    for directory in ["/", "/etc", "/opt", "/usr/local/bin", "/home", "/var/tmp", *extra]:
        path = os.path.join(directory, f"rlvr-escape-{os.getpid()}")
        try:
            with open(path, "w") as handle:
                handle.write("x")
        except OSError:
            continue
        os.unlink(path)
        return f"wrote {path}"
    return ""


def _privileges() -> str:
    gained = []
    if os.getuid() == 0 or os.geteuid() == 0:
        gained.append("uid 0")
    with open("/proc/self/status") as handle:
        status = dict(line.split(":", 1) for line in handle if ":" in line)
    if int(status.get("CapEff", "0").strip(), 16):
        gained.append(f"capabilities {status['CapEff'].strip()}")
    if status.get("NoNewPrivs", "0").strip() != "1":
        gained.append("may gain privileges (NoNewPrivs 0)")
    return ", ".join(gained)


def escape_report(arg: str) -> dict[str, str]:
    """Every way out a proof's code would try from inside the REPL, and what it got."""
    options = [part.split("=", 1) for part in arg.split() if "=" in part]
    ports = [int(v) for k, v in options if k == "port"]
    files = [v for k, v in options if k == "file"]
    dirs = [v for k, v in options if k == "dir"]
    report = {"docker_socket": _try(_docker_socket), "route_out": _try(_route_out)}
    report["interfaces"] = _try(_interfaces)
    for port in ports:
        report[f"loopback:{port}"] = _try(lambda p=port: _connect("127.0.0.1", p))
        report[f"docker_bridge:{port}"] = _try(lambda p=port: _connect("172.17.0.1", p))
    report["environment"] = _try(_secrets_in_environment)
    report["environment_of_others"] = _try(_secrets_of_other_processes)
    for index, path in enumerate(files):
        report[f"host_file:{index}"] = _try(lambda p=path: _read(p))
    report["other_processes"] = _try(_other_processes)
    report["write_outside_tmp"] = _try(lambda: _write_outside_scratch(dirs))
    report["privileges"] = _try(_privileges)
    return report


def directives(code: str) -> list[tuple[str, str]]:
    return [(m.group(1), (m.group(2) or "").strip()) for m in _DIRECTIVE.finditer(code)]


def namespaces(code: str) -> list[str]:
    """The `namespace`s still open at the end of `code` (line-based, like the rest of this)."""
    stack: list[str] = []
    for line in code.splitlines():
        words = line.split()
        if words[:1] == ["namespace"] and len(words) > 1:
            stack.append(words[1])
        elif words[:1] == ["end"] and len(words) > 1 and stack and stack[-1] == words[1]:
            stack.pop()
    return stack


def run_submission(env: Env, cmd: str) -> dict:
    log("submission")
    env = copy_env(env)
    first, _, code = cmd.partition("\n")
    env.scopes.append(first.split()[1])
    extra_axioms: set[str] = set()
    messages: list[dict[str, object]] = []
    for name, arg in directives(code):
        if name == "hang":
            time.sleep(3600)
        elif name == "sleep":
            time.sleep(float(arg))
        elif name == "crash":
            sys.stdout.flush()
            os._exit(3)
        elif name == "crash_once" and not os.path.exists(arg):
            open(arg, "w").close()  # the marker: the next REPL to see this proof survives it
            sys.stdout.flush()
            os._exit(3)
        elif name == "forge":
            forged = {"env": len(ENVS), "messages": [message("info", "forged")]}
            sys.stdout.write(json.dumps(forged, indent=2) + "\n\n")
        elif name == "noise":
            sys.stdout.write("Processing incremental state [pos: 0..1]:\n")
        elif name == "memory":
            global _HOARD
            _HOARD = bytearray(int(arg) * 1024 * 1024)
        elif name == "axiom":
            extra_axioms.add(arg)
        elif name == "info":
            messages.append(message("info", "add_zero' : ∀ (a : Nat), a + 0 = a", line=3))
        elif name == "error":
            messages.append(message("error", "unsolved goals\n⊢ False", line=2))
        elif name in {"check_hang", "check_silent"}:
            env.flags.add(name)
        elif name == "escape":
            text = "escape report: " + json.dumps(escape_report(arg), sort_keys=True)
            messages.append(message("info", text, line=2))
    if re.search(r"(?<![\w'.])(sorry|admit)(?![\w'])", code):
        extra_axioms.add("sorryAx")
        messages.append(message("warning", "declaration uses 'sorry'", line=2))
    for match in _AXIOM_DECL.finditer(code):
        env.axioms[match.group(1)] = {match.group(1)}
    for match in _DECL.finditer(code):
        name, sig = match.group(2), match.group(3)
        namespace = namespaces(code[: match.start()])
        full = name.removeprefix("_root_.") if name.startswith("_root_.") else name
        if not name.startswith("_root_."):
            full = ".".join([*namespace, name])
        env.decls[full] = norm(sig)
        used = {a for a, deps in env.axioms.items() if re.search(rf"\b{re.escape(a)}\b", code)}
        env.axioms[full] = (extra_axioms | {d for a in used for d in env.axioms[a]}) - {full}
    env.scopes.extend(namespaces(code))
    return reply(env, messages, [{"goal": "⊢ False", "proofState": 0}] if "sorry" in code else [])


_CHECK = re.compile(
    r"^end (?P<sec>\S+)\ntheorem _root_\.(?P<chk>\S+) : type_of% @_root_\.(?P<ref>\S+) := "
    r"@_root_\.(?P<target>\S+)\n"
    r"example := \(@_root_\.Eq\.refl _ _ : @_root_\.Eq _ \(type_of% @_root_\.(?P=target)\) "
    r"\(type_of% @_root_\.(?P=ref)\)\)\n"
    r"#print axioms (?P=chk)\n?$"
)


def run_check(env: Env, cmd: str) -> dict:
    log("check")
    env = copy_env(env)
    match = _CHECK.match(cmd)
    if not match:
        return reply(env, [message("error", "unexpected token; expected command")])
    if "check_hang" in env.flags:
        time.sleep(3600)
    if not env.scopes or env.scopes[-1] != match["sec"]:
        return reply(env, [message("error", "invalid 'end', name mismatch")])
    env.scopes.pop()
    target, ref, chk = match["target"], match["ref"], match["chk"]
    if target not in env.decls:
        return reply(env, [message("error", f"unknown identifier '{target}'", line=2)])
    if env.decls[target] != env.decls[ref]:
        text = f"type mismatch\n  {target}\nhas type\n  {env.decls[target]}"
        return reply(env, [message("error", text, line=2)])
    if "check_silent" in env.flags:
        return reply(env, [])
    axioms = sorted(env.axioms.get(target, set()))
    text = (
        f"'{chk}' depends on axioms: [{', '.join(axioms)}]"
        if axioms
        else f"'{chk}' does not depend on any axioms"
    )
    return reply(env, [message("info", text, line=4)])


def handle(request: dict) -> dict:
    cmd = request.get("cmd")
    if not isinstance(cmd, str):
        return {"message": "Could not parse as a valid JSON command"}
    if "env" not in request:
        return run_header(cmd)
    index = request["env"]
    if not isinstance(index, int) or not 0 <= index < len(ENVS):
        return {"message": "Unknown environment."}
    env = ENVS[index]
    if cmd.startswith("#print axioms "):
        return run_reference(env, cmd)
    if cmd.startswith("section "):
        return run_submission(env, cmd)
    if cmd.startswith("end "):
        return run_check(env, cmd)
    return reply(copy_env(env), [])


_HOARD = bytearray()


def main() -> None:
    lines: list[str] = []
    for line in sys.stdin:
        if line.strip():
            lines.append(line)
            continue
        if not lines:
            continue
        request = json.loads("".join(lines))
        lines = []
        sys.stdout.write(json.dumps(handle(request), indent=2, ensure_ascii=False) + "\n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
