"""The languages `/code` runs: per language its source file, compile step, run argv and limits.

Stdlib only and pure (no I/O): the host builds each job's compile and run specs from this table,
so the executor inside the container stays language-agnostic (it writes the source, runs an
argv, keeps the artefact, runs another argv) and the cache key of a compiled artefact is
computed from exactly what the compile runs.

Why the limits differ per language (each measured in the sandbox image, see
`tests/rlvr/verifier/domains/code/test_languages.py`):

* C, C++, Rust and Python allocate what they use: an address-space rlimit (`RLIMIT_AS`) is a
  hard memory limit and is what they get, as before.
* The JVM reserves address space far beyond what it touches (heap, code cache, class space,
  thread stacks) and starts a dozen threads; Node's V8 and Go's runtime reserve large regions
  too (Go needs ~600 MiB before `main`). They get the memory limit in the runtime's own terms
  (`-Xmx`, `--max-old-space-size`, `GOMEMLIMIT`) and, as the hard limit, `RLIMIT_DATA` (private
  writable memory: what is committed, not what is reserved) with room for the runtime's own
  structures; the container's cgroup memory limit stays the backstop for the rest.
* Threads count against `RLIMIT_NPROC` (per uid, and each container has its own uid): runtimes
  that start threads get a larger allowance; the container's `pids_limit` still bounds the
  whole container (a fork bomb meets it either way).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rlvr.verifier.sandbox.wire.protocol import Program

# Where a compile writes what a run needs; packed as a tar on the compiler's stdout (the
# sweep after the compile wipes the work dir, so the artefact leaves through the pipe, never
# through a file a later run could reach).
OUT_DIR = "out"
_PACK = f" && cd {OUT_DIR} && exec tar --numeric-owner --mode=u+rwx -cf - ."


@dataclass(frozen=True)
class Language:
    """How one language is compiled and run. `{memory_mb}`/`{heap_mb}` in argv and env are
    filled in per item."""

    name: str
    fence_tags: frozenset[str]
    source_name: str
    # A shell script (fixed text, never candidate text: the file name comes as "$1") whose
    # stdout is the artefact tar; None = interpreted (the source itself is what runs).
    compile_script: str | None
    run_argv: tuple[str, ...]
    compile_env: dict[str, str] = field(default_factory=dict)
    run_env: dict[str, str] = field(default_factory=dict)
    # Which rlimit carries the memory limit: "as" (address space: a hard limit for programs
    # that allocate what they use) or "data" (private writable memory: what a runtime that
    # reserves address space really commits), with room for the runtime's own structures.
    memory_rlimit: str = "as"
    memory_slack_mb: int = 0
    compile_memory_rlimit: str = "as"
    # RLIMIT_NPROC floor (threads count): runtimes start threads of their own.
    min_processes: int = 0
    # Substrings of stderr that mean "ran out of memory" in this runtime's words.
    memory_markers: tuple[str, ...] = ()


_JVM_FLAGS = (
    "-XX:+UseSerialGC",  # one GC thread, no parallel-GC thread pool per CPU
    "-XX:TieredStopAtLevel=1",  # C1 only: a JIT start of milliseconds, not C2's warm-up
    "-XX:-UsePerfData",  # no hsperfdata file in /tmp (and no mmap of it)
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:MaxMetaspaceSize=128m",
    "-Xss64m",  # deep recursion is common in competitive code (as judges allow)
    "-Xshare:auto",
    # The cgroup tree is hidden from a job (an empty tmpfs over /sys/fs/cgroup: its counters
    # are a channel between jobs), where the JVM's container support would look for its memory
    # and CPUs and size a 1 GiB class space past the run's address-space limit: it is told
    # instead (`-XX:MaxRAM` with the run's memory, below) and uses one CPU's worth of threads.
    "-XX:-UseContainerSupport",
    "-XX:ActiveProcessorCount=1",
    "-XX:MaxRAM={memory_mb}m",
)

LANGUAGES: dict[str, Language] = {
    "python": Language(
        name="python",
        fence_tags=frozenset({"python", "python3", "py", "py3"}),
        source_name="solution.py",
        compile_script=None,
        run_argv=(),  # the warm interpreter of the zygote runs it (`python-main`)
    ),
    "cpp": Language(
        name="cpp",
        fence_tags=frozenset({"cpp", "c++", "cc", "cxx", "hpp", "c"}),  # C is (mostly) C++
        source_name="main.cpp",
        compile_script=f'mkdir {OUT_DIR} && g++ {{flags}} "$1" -o {OUT_DIR}/main >&2{_PACK}',
        run_argv=("./main",),
        memory_markers=("std::bad_alloc",),
    ),
    "c": Language(
        name="c",
        fence_tags=frozenset({"c", "h"}),
        source_name="main.c",
        compile_script=f'mkdir {OUT_DIR} && gcc {{flags}} "$1" -o {OUT_DIR}/main -lm >&2{_PACK}',
        run_argv=("./main",),
    ),
    "java": Language(
        name="java",
        fence_tags=frozenset({"java"}),
        source_name="Main.java",
        compile_script=(
            f"mkdir {OUT_DIR} && javac -J-Xmx{{heap_mb}}m -J-Xss8m "
            + " ".join(f"-J{flag}" for flag in _JVM_FLAGS if not flag.startswith("-Xss"))
            + f' {{flags}} -d {OUT_DIR} "$1" >&2{_PACK}'
        ),
        run_argv=("java", "-Xmx{heap_mb}m", *_JVM_FLAGS, "-cp", ".", "{main_class}"),
        compile_env={"JAVA_TOOL_OPTIONS": ""},
        run_env={"MALLOC_ARENA_MAX": "2"},
        memory_rlimit="data",
        memory_slack_mb=320,  # the main thread's 64 MiB stack, code cache, metaspace, GC
        compile_memory_rlimit="data",
        min_processes=64,
        memory_markers=("java.lang.OutOfMemoryError",),
    ),
    "javascript": Language(
        name="javascript",
        fence_tags=frozenset({"javascript", "js", "node", "nodejs"}),
        source_name="main.js",
        compile_script=None,
        # V8's stack limit under the 8 MiB thread stack (past it: a segfault, not a RangeError)
        run_argv=("node", "--max-old-space-size={heap_mb}", "--stack-size=6000", "main.js"),
        memory_rlimit="data",
        memory_slack_mb=256,
        min_processes=32,
        memory_markers=("JavaScript heap out of memory", "Allocation failed"),
    ),
    "go": Language(
        name="go",
        fence_tags=frozenset({"go", "golang"}),
        source_name="main.go",
        compile_script=(f'mkdir {OUT_DIR} && go build {{flags}} -o {OUT_DIR}/main "$1" >&2{_PACK}'),
        run_argv=("./main",),
        # The build cache must be writable: a fresh one in the run's own dir (wiped after).
        compile_env={
            "GOCACHE": "/tmp/w/.gocache",
            "GOPATH": "/tmp/w/.gopath",
            "GO111MODULE": "off",  # one file, no module: Debian's precompiled std is used
            "GOFLAGS": "",
            "GOMAXPROCS": "1",
        },
        # GOTRACEBACK=none: a fatal error is its one line ("runtime: out of memory"), not a
        # dump of every goroutine that pushes it out of the captured stderr tail
        run_env={"GOMAXPROCS": "1", "GOMEMLIMIT": "{memory_mb}MiB", "GOTRACEBACK": "none"},
        memory_rlimit="data",  # Go reserves ~600 MiB of address space at start
        memory_slack_mb=64,
        compile_memory_rlimit="data",
        min_processes=32,
        memory_markers=("runtime: out of memory",),
    ),
    "rust": Language(
        name="rust",
        fence_tags=frozenset({"rust", "rs"}),
        source_name="main.rs",
        compile_script=f'mkdir {OUT_DIR} && rustc {{flags}} -o {OUT_DIR}/main "$1" >&2{_PACK}',
        run_argv=("./main",),
        memory_markers=("memory allocation of",),
    ),
}

DEFAULT_FLAGS: dict[str, tuple[str, ...]] = {
    "cpp": ("-O2", "-std=gnu++17", "-pipe"),
    "c": ("-O2", "-std=gnu17", "-pipe"),
    "java": ("-encoding", "UTF-8", "-nowarn"),
    # no symbol table or DWARF: 1.3 MB instead of 2 MB to carry and write per run (-trimpath
    # would make Debian's precompiled std stale: a 20 s rebuild per compile)
    "go": ("-ldflags=-s -w",),
    "rust": ("--edition", "2021", "-O", "-C", "strip=symbols", "-C", "debuginfo=0"),
}

# A Java identifier we accept as a class name (ASCII: it becomes a file name and an argv word).
_JAVA_NAME = r"[A-Za-z_$][A-Za-z0-9_$]*"
_JAVA_PACKAGE = re.compile(rf"^\s*package\s+({_JAVA_NAME}(?:\s*\.\s*{_JAVA_NAME})*)\s*;", re.M)
_JAVA_CLASS = re.compile(rf"\b(?:class|interface|enum|record)\s+({_JAVA_NAME})")
_JAVA_PUBLIC = re.compile(
    rf"\bpublic\s+(?:(?:final|abstract|static|strictfp)\s+)*(?:class|interface|enum|record)\s+"
    rf"({_JAVA_NAME})"
)
_JAVA_NAME_MAX = 200
_JAVA_MAIN = re.compile(r"\bstatic\s+(?:final\s+)?void\s+main\s*\(")


def java_names(source: str) -> tuple[str, str]:
    """(file name, main class) of a Java source: javac wants a public class in a file of its
    name; `java` wants the top-level class whose body holds `main`, with its package. Read by
    pattern and brace depth (braces in comments or strings may fool it; the program then fails
    to compile or to start, its own fault)."""
    public = _JAVA_PUBLIC.search(source)
    # a name past what a file name can hold: javac then refuses the file (a compile error),
    # never a work dir the executor cannot write
    if public and len(public.group(1)) > _JAVA_NAME_MAX:
        public = None
    file_name = f"{public.group(1)}.java" if public else "Main.java"
    main_class = _class_holding_main(source) or (public.group(1) if public else "Main")
    package = _JAVA_PACKAGE.search(source)
    if package:
        main_class = re.sub(r"\s+", "", package.group(1)) + "." + main_class
    return file_name, main_class


def _class_holding_main(source: str) -> str | None:
    """The top-level class (depth 0) whose braces enclose the first `static void main(`."""
    main_at = _JAVA_MAIN.search(source)
    if main_at is None:
        found = _JAVA_CLASS.search(source)
        return found.group(1) if found else None
    depth_at = [0] * (len(source) + 1)
    depth = 0
    for index, char in enumerate(source):
        depth_at[index] = depth
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
    holder = None
    for declared in _JAVA_CLASS.finditer(source, 0, main_at.start()):
        if depth_at[declared.start()] == 0:
            holder = declared.group(1)
    return holder


def heap_mb(memory_mb: int) -> int:
    """The managed heap's share of a run's memory limit (the rest: runtime, stacks, code)."""
    return max(32, memory_mb * 3 // 4)


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


@dataclass(frozen=True)
class ProgramSpec:
    """What the executor needs for one item's program: plain data, built on the host."""

    language: str
    source_name: str
    compile_argv: list[str] | None
    compile_env: dict[str, str]
    run_argv: list[str]
    run_env: dict[str, str]
    memory_rlimit: str
    memory_slack_mb: int
    compile_memory_rlimit: str
    min_processes: int

    def as_job(self) -> Program:
        return {
            "source_name": self.source_name,
            "compile_argv": self.compile_argv,
            "compile_env": self.compile_env,
            "run_argv": self.run_argv,
            "run_env": self.run_env,
            "memory_rlimit": self.memory_rlimit,
            "memory_slack_mb": self.memory_slack_mb,
            "compile_memory_rlimit": self.compile_memory_rlimit,
            "min_processes": self.min_processes,
        }


def program_spec(
    language: str,
    source: str,
    memory_mb: int,
    compile_memory_mb: int,
    flags: dict[str, list[str]] | None = None,
) -> ProgramSpec:
    """The compile and run commands of `source` in `language` under the given limits."""
    lang = LANGUAGES[language]
    words = list((flags or {}).get(language, DEFAULT_FLAGS.get(language, ())))
    source_name, main_class = lang.source_name, "Main"
    if language == "java":
        source_name, main_class = java_names(source)
    run_values = {
        "memory_mb": str(memory_mb),
        "heap_mb": str(heap_mb(memory_mb)),
        "main_class": main_class,
    }
    compile_argv = None
    if lang.compile_script is not None:
        # Flags are the server's settings (trusted), quoted word by word for the shell.
        quoted = " ".join(_shell_quote(word) for word in words)
        script = _fill(
            lang.compile_script,
            {
                "flags": quoted,
                "heap_mb": str(heap_mb(compile_memory_mb)),
                "memory_mb": str(compile_memory_mb),
            },
        )
        compile_argv = ["/bin/sh", "-c", script, "sh", source_name]
    return ProgramSpec(
        language=language,
        source_name=source_name,
        compile_argv=compile_argv,
        compile_env=dict(lang.compile_env),
        run_argv=[_fill(word, run_values) for word in lang.run_argv],
        run_env={k: _fill(v, run_values) for k, v in lang.run_env.items()},
        memory_rlimit=lang.memory_rlimit,
        memory_slack_mb=lang.memory_slack_mb,
        compile_memory_rlimit=lang.compile_memory_rlimit,
        min_processes=lang.min_processes,
    )


def _shell_quote(word: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9_+=:,./-]+", word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


# What any runtime prints when it runs out of memory (a failure either way: the marker only
# names it `memory_exceeded` rather than `runtime_error`).
MEMORY_MARKERS = tuple(sorted({m for lang in LANGUAGES.values() for m in lang.memory_markers}))
