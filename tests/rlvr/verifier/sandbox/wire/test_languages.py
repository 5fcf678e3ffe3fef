"""The language table, the artefact unpacking inside the executor, and the host's compile cache
(pure: no Docker; the runs themselves are in tests/rlvr/verifier/domains/code/)."""

from __future__ import annotations

import asyncio
import io
import tarfile

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.compiled import CompileCache, CompileOutcome, compile_key
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import job_deadline_s
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.inside.toolchain import ArtefactError, shape_request, unpack_artefact
from rlvr.verifier.sandbox.wire.languages import LANGUAGES, java_names, program_spec

STDIO = [{"kind": "stdio", "stdin": "1\n", "stdout": "1\n"}]


@pytest.mark.parametrize(
    ("source", "file_name", "main_class"),
    [
        ("public class Main { public static void main(String[] a) {} }", "Main.java", "Main"),
        ("public class Sol { public static void main(String[] a) {} }", "Sol.java", "Sol"),
        ("class A {}\nclass B { static void main(String[] a) {} }", "Main.java", "B"),
        (
            "package x.y;\npublic final class P { public static void main(String[] a) {} }",
            "P.java",
            "x.y.P",
        ),
        (
            "public class Outer {\n  static class In {}\n  public static void main(String[] a){} }",
            "Outer.java",
            "Outer",
        ),
        ("interface Nothing {}", "Main.java", "Nothing"),
        (
            "class A { void f() { } }\nclass B {\n static class C {}\n"
            " public static void main(String[] x) {} }",
            "Main.java",
            "B",
        ),
    ],
)
def test_java_file_and_main_class_are_read_from_the_source(
    source: str, file_name: str, main_class: str
) -> None:
    assert java_names(source) == (file_name, main_class)


def test_a_java_class_name_too_long_for_a_file_name_is_not_used_as_one() -> None:
    name = "A" * 5000
    file_name, _ = java_names(f"public class {name} {{ public static void main(String[] a){{}} }}")
    assert file_name == "Main.java"


def test_java_names_never_carry_shell_or_path_characters() -> None:
    file_name, _ = java_names("public class A$b { static void main(String[] a){} }")
    assert file_name == "A$b.java" and "/" not in file_name
    # the name reaches the compiler only as "$1" (never spliced into the script)
    spec = program_spec("java", "public class Evil { }", 256, 1024)
    assert spec.compile_argv is not None and "Evil" not in spec.compile_argv[2]
    assert spec.compile_argv[-1] == "Evil.java"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_language_has_a_run_and_compiled_ones_pack_an_artefact(language: str) -> None:
    spec = program_spec(language, "x", 512, 1024)
    if language == "python":
        assert spec.run_argv == [] and spec.compile_argv is None
        return
    assert spec.run_argv
    if spec.compile_argv is not None:
        assert spec.compile_argv[:2] == ["/bin/sh", "-c"]
        assert "tar" in spec.compile_argv[2] and spec.compile_argv[-1] == spec.source_name


def test_runtimes_that_reserve_address_space_get_a_data_limit_and_their_heap_flag() -> None:
    java = program_spec("java", "public class Main {}", 512, 1024)
    assert "-Xmx384m" in java.run_argv and java.memory_rlimit == "data"
    node = program_spec("javascript", "", 512, 1024)
    assert "--max-old-space-size=384" in node.run_argv and node.memory_rlimit == "data"
    go = program_spec("go", "", 512, 1024)
    assert go.run_env["GOMEMLIMIT"] == "512MiB" and go.memory_rlimit == "data"
    assert program_spec("rust", "", 512, 1024).memory_rlimit == "as"
    request = {"rlimits": {"as": 1, "nproc": 32, "cpu": 3}, "env": {"PATH": "/bin"}}
    shaped = shape_request(request, {"GOMAXPROCS": "1"}, "data", 512, 64, 48)
    assert "as" not in shaped["rlimits"] and shaped["rlimits"]["data"] == 576 << 20
    assert shaped["rlimits"]["nproc"] == 48 and shaped["env"]["GOMAXPROCS"] == "1"
    assert request["rlimits"]["as"] == 1  # the original is not changed


def _tar(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def _file(name: str, data: bytes = b"x") -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def _special(name: str, kind: bytes, target: str = "") -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info, b""


def test_an_artefact_unpacks_to_its_regular_files() -> None:
    folder = tarfile.TarInfo("./pkg")
    folder.type = tarfile.DIRTYPE
    data = _tar((folder, b""), _file("./main", b"\x7fELF"), _file("./pkg/A.class", b"cafe"))
    assert unpack_artefact(data, 1 << 20) == {"main": b"\x7fELF", "pkg/A.class": b"cafe"}


@pytest.mark.parametrize(
    "member",
    [
        _special("./link", tarfile.SYMTYPE, "/etc/passwd"),
        _special("./hard", tarfile.LNKTYPE, "/proc/1/environ"),
        _special("./fifo", tarfile.FIFOTYPE),
        _special("./dev", tarfile.CHRTYPE),
        _file("../escape"),
        _file("/tmp/absolute"),
        _file("./a/../../escape"),
    ],
)
def test_an_artefact_with_anything_but_plain_files_inside_is_refused(
    member: tuple[tarfile.TarInfo, bytes],
) -> None:
    with pytest.raises(ArtefactError):
        unpack_artefact(_tar(_file("./main"), member), 1 << 20)


@pytest.mark.parametrize(
    "data", [b"", b"not a tar at all" * 100, _tar(_file("./big", b"x" * 4096))]
)
def test_broken_empty_or_oversized_artefacts_are_refused(data: bytes) -> None:
    with pytest.raises(ArtefactError):
        unpack_artefact(data, 1024)


def _job(language: str, code: str) -> dict:
    item = CodeItem(language=language, code=code, tests=STDIO)  # type: ignore[arg-type]
    return dict(build_job(item, code, CodeSettings()))


def test_the_compile_key_changes_with_source_language_flags_and_image() -> None:
    base = compile_key(_job("cpp", "int main(){}"), "img:1")  # type: ignore[arg-type]
    assert base == compile_key(_job("cpp", "int main(){}"), "img:1")  # type: ignore[arg-type]
    others = {
        compile_key(_job("cpp", "int main(){ }"), "img:1"),  # type: ignore[arg-type]
        compile_key(_job("c", "int main(){}"), "img:1"),  # type: ignore[arg-type]
        compile_key(_job("cpp", "int main(){}"), "img:2"),  # type: ignore[arg-type]
    }
    flagged = _job("cpp", "int main(){}")
    flagged["program"] = {**flagged["program"], "compile_argv": ["/bin/sh", "-c", "g++ -O0"]}
    others.add(compile_key(flagged, "img:1"))  # type: ignore[arg-type]
    # the compiler sees the job's files (a header): other files, another artefact
    for header in ("aW50IHggPSAxOw==", "aW50IHggPSAyOw=="):
        with_files = {**_job("cpp", "int main(){}"), "files": {"util.h": header}}
        others.add(compile_key(with_files, "img:1"))  # type: ignore[arg-type]
    assert base not in others and len(others) == 6


def test_a_compile_job_waits_for_its_compile_and_a_cached_one_does_not() -> None:
    compiled = _job("rust", "fn main(){}")
    assert job_deadline_s(compiled) > job_deadline_s({**compiled, "artefact": "eA=="})  # type: ignore[arg-type]
    assert _job("python", "x=1")["program"]["compile_argv"] is None


def test_identical_concurrent_compiles_run_once_and_share_the_outcome() -> None:
    calls = 0

    async def compile_once() -> CompileOutcome:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        return CompileOutcome("YXJ0", elapsed_s=1.5)

    async def main() -> list[CompileOutcome]:
        cache = CompileCache(1 << 20)
        first = await asyncio.gather(*(cache.outcome("k", compile_once) for _ in range(16)))
        later = await cache.outcome("k", compile_once)
        assert cache.stats()["misses"] == 1 and cache.stats()["shared"] == 15
        return [*first, later]

    outcomes = asyncio.run(main())
    assert calls == 1
    assert {o.artefact_b64 for o in outcomes} == {"YXJ0"}
    assert sum(not o.cached for o in outcomes) == 1  # the one that compiled says so


def test_timeouts_and_faults_are_shared_but_not_kept() -> None:
    calls = 0

    async def flaky() -> CompileOutcome:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        return CompileOutcome(None, detail="compilation timed out", is_cacheable=False)

    async def main() -> None:
        cache = CompileCache(1 << 20)
        await asyncio.gather(cache.outcome("k", flaky), cache.outcome("k", flaky))
        await cache.outcome("k", flaky)

    asyncio.run(main())
    assert calls == 2


def test_the_cache_is_bounded_in_bytes_oldest_out_first() -> None:
    async def main() -> CompileCache:
        cache = CompileCache(max_bytes=250)
        for key in "abc":

            async def make() -> CompileOutcome:
                return CompileOutcome("x" * 100)

            await cache.outcome(key, make)
        return cache

    cache = asyncio.run(main())
    assert cache.stats()["entries"] == 2 and cache.stats()["bytes"] == 200
