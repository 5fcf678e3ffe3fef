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
`-- fake: error`, `-- fake: check_hang`, `-- fake: check_silent`.

What this cannot tell: whether real Lean accepts the commands we build, and everything the kernel
decides. That is what `test_real_lean.py` checks wherever a toolchain exists.
"""

from __future__ import annotations

import json
import os
import re
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
