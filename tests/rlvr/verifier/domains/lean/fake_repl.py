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
- `#print axioms _root_.NAME\nprivate theorem REF SIG := sorry`: the probe (an error unless NAME
  exists), then records SIG as REF's "type", a private (internal) name depending on `sorryAx`
  (`FAKE_BAD_STATEMENT` in it -> an error). The old form `axiom REF SIG` is still read, with
  Lean's rule that an axiom gets no auto-bound implicits: a `Sort u`/`Type u` whose `u` is not
  declared is an error there, and fine in a theorem header;
- `section S\\n<code>`: pushes scope S, then reads `theorem|lemma NAME SIG := …` declarations,
  `namespace`/`section`/`noncomputable section`/`end` lines (an `end` must match the innermost
  scope by name, as in Lean), `axiom` declarations, the words `sorry`/`admit`, and `exact?`
  (it picks the first constant of the goal's type whose name is not internal, as Lean's library
  search does, and the proof then depends on it);
- `end X…\\nend S\\ntheorem _root_.CHK : type_of% @_root_.REF := @_root_.NAME\\n…#print axioms
  CHK`: every `end` must match the innermost open scope, like Lean; fails if NAME is unknown or if
  NAME's SIG differs from REF's. Signatures are compared after short names are resolved the way
  Lean does (an identifier `c` means `N.c` if that exists for a namespace `N` open where the
  declaration is elaborated: the ones around it and its own name's prefix), then as
  whitespace-normalised text (which stands in for the kernel's definitional equality); else
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

import functools
import json
import os
import re
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Env:
    decls: dict[str, str] = field(default_factory=dict)  # name -> resolved signature
    axioms: dict[str, set[str]] = field(default_factory=dict)
    scopes: list[tuple[str, str]] = field(default_factory=list)  # (kind, name), innermost last
    flags: set[str] = field(default_factory=set)
    history: list[dict[str, object]] = field(default_factory=list)  # messages so far
    internal: set[str] = field(default_factory=set)  # private names: library search skips them


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
        set(env.internal),
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


_IDENT = re.compile(r"(?<![\w'.])[^\W\d][\w'.]*")
_UNIVERSE = re.compile(r"(?:Sort|Type)\s+([a-z]\w*)")


def resolve(sig: str, env: Env, namespaces: list[str]) -> str:
    """SIG with each short name `c` replaced by `N.c` where that exists (innermost N first)."""

    def one(match: re.Match[str]) -> str:
        word = match.group(0)
        for namespace in reversed(namespaces):
            if f"{namespace}.{word}" in env.decls:
                return f"{namespace}.{word}"
        return word

    return norm(_IDENT.sub(one, sig))


def prefix_of(name: str) -> list[str]:
    return [name.rpartition(".")[0]] if "." in name else []


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
    is_axiom = decl.startswith("axiom ")
    head = decl.removeprefix("axiom ").removeprefix("private theorem ")
    name, _, sig = head.partition(" ")
    sig = re.sub(r"\s*:=\s*sorry\s*$", "", sig)
    name = name.removeprefix("_root_.")
    if "FAKE_BAD_STATEMENT" in sig:
        messages.append(message("error", "unknown identifier 'FAKE_BAD_STATEMENT'", line=2))
        return reply(env, messages)
    if is_axiom and _UNIVERSE.search(sig):  # elabAxiom runs without auto-bound implicits
        level = _UNIVERSE.search(sig).group(1)  # type: ignore[union-attr]
        messages.append(message("error", f"unknown universe level '{level}'", line=2))
        return reply(env, messages)
    env.decls[name] = resolve(sig, env, prefix_of(name))
    if is_axiom:
        env.axioms[name] = {name}
    else:
        env.axioms[name] = {"sorryAx"}
        env.internal.add(name)
        messages.append(message("warning", "declaration uses 'sorry'", line=2))
    return reply(env, messages)


_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|VERIFIER_|DOCKER", re.IGNORECASE)


def _try(action: Callable[[], object]) -> str:
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
        report[f"loopback:{port}"] = _try(functools.partial(_connect, "127.0.0.1", port))
        report[f"docker_bridge:{port}"] = _try(functools.partial(_connect, "172.17.0.1", port))
    report["environment"] = _try(_secrets_in_environment)
    report["environment_of_others"] = _try(_secrets_of_other_processes)
    for index, path in enumerate(files):
        report[f"host_file:{index}"] = _try(functools.partial(_read, path))
    report["other_processes"] = _try(_other_processes)
    report["write_outside_tmp"] = _try(lambda: _write_outside_scratch(dirs))
    report["privileges"] = _try(_privileges)
    return report


def directives(code: str) -> list[tuple[str, str]]:
    return [(m.group(1), (m.group(2) or "").strip()) for m in _DIRECTIVE.finditer(code)]


_SCOPE_LINE = re.compile(
    r"^\s*(?P<kind>noncomputable\s+section|section|namespace|end)(?:\s+(?P<name>\S+))?\s*$"
)


def scope_step(scopes: list[tuple[str, str]], line: str) -> str | None:
    """Apply one `namespace`/`section`/`end` line to the scope stack; an error text, or None."""
    match = _SCOPE_LINE.match(line)
    if not match:
        return None
    kind, name = match["kind"], match["name"] or ""
    if kind != "end":
        scopes.append(("ns" if kind == "namespace" else "sec", name))
        return None
    if not scopes:
        return "invalid 'end', insufficient scopes"
    if scopes[-1][1] != name:
        expected = scopes[-1][1]
        return (
            f"invalid 'end', name is missing (expected {expected})"
            if not name
            else ("invalid 'end', name mismatch")
        )
    scopes.pop()
    return None


def open_namespaces(scopes: list[tuple[str, str]]) -> list[str]:
    return [name for kind, name in scopes if kind == "ns"]


def run_submission(env: Env, cmd: str) -> dict:
    log("submission")
    env = copy_env(env)
    first, _, code = cmd.partition("\n")
    env.scopes.append(("sec", first.split()[1]))
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
    decls = {m.start(): m for m in _DECL.finditer(code)}
    offset = 0
    for number, line in enumerate(code.splitlines(keepends=True), start=2):
        for start in [k for k in decls if offset <= k < offset + len(line)]:
            declare(env, decls[start], code, extra_axioms, messages, number)
        problem = scope_step(env.scopes, line)
        if problem:
            messages.append(message("error", problem, line=number))
        offset += len(line)
    return reply(env, messages, [{"goal": "⊢ False", "proofState": 0}] if "sorry" in code else [])


def declare(
    env: Env,
    match: re.Match[str],
    code: str,
    extra_axioms: set[str],
    messages: list[dict[str, object]],
    line: int,
) -> None:
    """Record one `theorem NAME SIG := …` of the submission, as Lean would name and type it."""
    name, sig = match.group(2), match.group(3)
    if name.startswith("_root_."):
        full, namespaces = name.removeprefix("_root_."), open_namespaces(env.scopes)
    else:
        full = ".".join([*open_namespaces(env.scopes), name])
        namespaces = open_namespaces(env.scopes) + prefix_of(full)
    resolved = resolve(sig, env, namespaces)
    body = code[match.end() : match.end() + 200].split("\ntheorem")[0]
    used = {a for a in env.axioms if re.search(rf"(?<![\w'.]){re.escape(a)}(?![\w'])", code)}
    if re.search(r"exact\?", body):
        found = [d for d, t in env.decls.items() if t == resolved and d not in env.internal]
        if not found:
            messages.append(message("error", "`exact?` could not close the goal", line=line))
            return
        used.add(found[0])
        messages.append(message("info", f"Try this: exact {found[0]}", line=line))
    env.decls[full] = resolved
    env.axioms[full] = (extra_axioms | {d for a in used for d in env.axioms[a]}) - {full}


_CHECK = re.compile(
    r"^(?P<ends>(?:end[^\n]*\n)*)"
    r"theorem _root_\.(?P<chk>\S+) : type_of% @_root_\.(?P<ref>\S+) := "
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
    ends = match["ends"].splitlines()
    for number, line in enumerate(ends, start=1):
        problem = scope_step(env.scopes, line)
        if problem:
            return reply(env, [message("error", problem, line=number)])
    if env.scopes:  # only the header's scope may remain
        return reply(env, [message("error", "unexpected end of scopes", line=len(ends))])
    target, ref, chk = match["target"], match["ref"], match["chk"]
    line = len(ends) + 1
    if target not in env.decls:
        return reply(env, [message("error", f"unknown identifier '{target}'", line=line)])
    if env.decls[target] != env.decls[ref]:
        text = f"type mismatch\n  {target}\nhas type\n  {env.decls[target]}"
        return reply(env, [message("error", text, line=line)])
    if "check_silent" in env.flags:
        return reply(env, [])
    axioms = sorted(env.axioms.get(target, set()))
    text = (
        f"'{chk}' depends on axioms: [{', '.join(axioms)}]"
        if axioms
        else f"'{chk}' does not depend on any axioms"
    )
    return reply(env, [message("info", text, line=line + 2)])


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
    if re.match(r"end\b", cmd):
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
