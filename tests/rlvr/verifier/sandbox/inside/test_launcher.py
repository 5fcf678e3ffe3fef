"""The native launcher (docker/sandbox/launch.c) against a real engine: a program it starts sees
exactly what a program forked from the zygote sees (rlimits, descriptors, signals, session,
seccomp, work dir), and nothing of the launcher or of its own binary's file."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.host.docker import DockerBackend, DockerSandbox
from rlvr.verifier.sandbox.inside.launcher import (
    FILTER_FD,
    PROGRAM_FD,
    is_launcher_trusted,
    launch_argv,
    launchable,
)
from tests.support.docker_engine import sandbox_settings

# What a run sees of itself, as one JSON object on stdout.
PROBE = r"""
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void status_field(const char *name) {
    char line[512];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, name, strlen(name)) == 0 && line[strlen(name)] == ':') {
            char *value = line + strlen(name) + 1;
            while (*value == ' ' || *value == '\t') value++;
            value[strcspn(value, "\n")] = 0;
            printf("\"%s\": \"%s\", ", name, value);
        }
    }
    if (f) fclose(f);
}

int main(void) {
    int resources[] = {RLIMIT_CPU, RLIMIT_AS, RLIMIT_DATA, RLIMIT_FSIZE, RLIMIT_NPROC,
                       RLIMIT_CORE, RLIMIT_NOFILE};
    const char *names[] = {"cpu", "as", "data", "fsize", "nproc", "core", "nofile"};
    printf("{\"rlimits\": {");
    for (int i = 0; i < 7; i++) {
        struct rlimit r;
        getrlimit(resources[i], &r);
        printf("%s\"%s\": [%lld, %lld]", i ? ", " : "", names[i],
               r.rlim_cur == RLIM_INFINITY ? -1LL : (long long)r.rlim_cur,
               r.rlim_max == RLIM_INFINITY ? -1LL : (long long)r.rlim_max);
    }
    printf("}, \"fds\": [");
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int first = 1;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d)) continue;
        printf("%s%s", first ? "" : ", ", e->d_name);
        first = 0;
    }
    if (d) closedir(d);
    char cwd[256] = "";
    char exe[256] = "";
    getcwd(cwd, sizeof cwd);
    readlink("/proc/self/exe", exe, sizeof exe - 1);
    mode_t mask = umask(0);
    printf("], ");
    status_field("SigIgn");
    status_field("SigBlk");
    status_field("Seccomp");
    status_field("Seccomp_filters");
    status_field("NoNewPrivs");
    printf("\"session_leader\": %s, \"cwd\": \"%s\", \"umask\": %o, \"exe\": \"%s\", ",
           getsid(0) == getpid() ? "true" : "false", cwd, (unsigned)mask, exe);
    struct stat self;
    int writable = stat("/proc/self/exe", &self) == 0 && access("/proc/self/exe", W_OK) == 0;
    FILE *rewrite = fopen("/proc/self/exe", "r+");
    printf("\"exe_writable\": %s, \"exe_opened_for_writing\": %s}\n",
           writable ? "true" : "false", rewrite ? "true" : "false");
    return 0;
}
"""


def probe_item() -> CodeItem:
    return CodeItem.model_validate(
        {
            "language": "c",
            "code": "#include <stdlib.h>\n" + PROBE,
            "tests": [{"kind": "stdio", "stdin": "", "stdout": "-"}] * 2,
            "memory_mb": 256,
        }
    )


REQUEST = {
    "mode": "exec",
    "cwd": "/tmp/w",
    "rlimits": {"cpu": 3, "as": 1 << 28, "nofile": 256},
    "argv": ["/tmp/w/main", "x"],
    "env": {"PATH": "/usr/bin"},
}


def test_the_launcher_gets_the_work_dir_descriptors_rlimits_and_argv_in_order() -> None:
    import resource

    argv = launch_argv("/l", REQUEST, has_program=True)
    assert argv[:5] == ["/l", "/tmp/w", str(FILTER_FD), str(PROGRAM_FD), "3"]
    limits = [str(resource.RLIMIT_CPU), "3", str(resource.RLIMIT_AS), str(1 << 28)]
    assert argv[5:11] == [*limits, str(resource.RLIMIT_NOFILE), "256"]
    assert argv[11:] == ["/tmp/w/main", "/tmp/w/main", "x"]
    assert launch_argv("/l", REQUEST, has_program=False)[3] == "-"


def test_only_plain_native_runs_are_launched() -> None:
    assert launchable(REQUEST, [5, 6, 7])
    assert not launchable({**REQUEST, "mode": "exec-fd"}, [5, 6, 7])  # a judge's binary
    assert not launchable({**REQUEST, "mode": "python-main"}, [5, 6, 7])
    assert not launchable({**REQUEST, "confine_signals": True}, [5, 6, 7])  # beside an interactor
    assert not launchable(REQUEST, [5, 6, 7, 8])


def test_a_launcher_anyone_but_root_could_replace_is_not_trusted(tmp_path: Path) -> None:
    launcher = tmp_path / "rlvr-launch"
    launcher.write_bytes(b"\x7fELF")
    launcher.chmod(0o755)
    assert is_launcher_trusted(str(launcher)) is (os.getuid() == 0)
    launcher.chmod(0o775)  # group-writable
    assert not is_launcher_trusted(str(launcher))
    launcher.chmod(0o644)  # not executable
    assert not is_launcher_trusted(str(launcher))
    assert not is_launcher_trusted(str(tmp_path / "missing"))


@pytest.fixture
async def sandboxes(docker_engine: None) -> AsyncIterator[dict[str, DockerSandbox]]:
    """One container that launches native runs, one that forks them (launcher turned off)."""
    started: dict[str, DockerSandbox] = {}
    backends = []
    try:
        for name, enabled in (("launched", True), ("forked", False)):
            backend = DockerBackend(sandbox_settings(is_launcher_enabled=enabled))
            backends.append(backend)
            sandbox = await backend.start()
            assert isinstance(sandbox, DockerSandbox)
            started[name] = sandbox
        yield started
    finally:
        for backend, sandbox in zip(backends, started.values(), strict=False):
            await backend.remove(sandbox)
        for backend in backends:
            await backend.close()


async def probe(sandbox: DockerSandbox) -> list[dict[str, Any]]:
    item = probe_item()
    job = build_job(item, item.code, CodeSettings())
    result = await sandbox.run(job, timeout_s=120)
    assert "compile" not in result or "detail" not in result["compile"], result
    assert result.get("anomalies") == [], result
    return [json.loads(test["stdout"]) for test in result["tests"]]


@pytest.mark.docker
async def test_the_image_has_a_working_launcher_and_the_setting_turns_it_off(
    sandboxes: dict[str, DockerSandbox],
) -> None:
    # Fails (never skips) on an image built without it: the fast path would go untested.
    assert sandboxes["launched"].has_launcher is True
    assert sandboxes["forked"].has_launcher is False


@pytest.mark.docker
async def test_a_launched_program_sees_what_a_forked_one_sees(
    sandboxes: dict[str, DockerSandbox],
) -> None:
    launched = await probe(sandboxes["launched"])
    forked = await probe(sandboxes["forked"])
    for seen in launched + forked:
        # every limit is hard: soft == hard, so the program can never raise one
        assert all(soft == hard for soft, hard in seen["rlimits"].values()), seen
        assert seen["rlimits"]["core"] == [0, 0] and seen["rlimits"]["nofile"] == [256, 256]
        assert seen["rlimits"]["as"] == [256 << 20] * 2 and seen["rlimits"]["nproc"][0] > 0, seen
        assert seen["fds"] == [0, 1, 2], seen  # nothing inherited: not its own binary
        assert int(seen["SigIgn"], 16) == 0 and int(seen["SigBlk"], 16) == 0, seen
        assert seen["Seccomp"] == "2" and int(seen["Seccomp_filters"]) >= 1, seen
        assert seen["NoNewPrivs"] == "1" and seen["session_leader"] is True, seen
        assert seen["cwd"].startswith("/tmp/") and seen["umask"] == 77, seen
        assert seen["exe_opened_for_writing"] is False, seen
    # a launched run in a job's namespaces stacks the launcher's filter on the zygote's and
    # the job's (it is spawned by the job's spawner): one filter more, none fewer
    ignored = {"exe", "exe_writable", "Seccomp_filters"}
    for one, other in zip(launched, forked, strict=True):
        assert int(one["Seccomp_filters"]) >= int(other["Seccomp_filters"]), (one, other)
    for one, other in zip(launched, forked, strict=True):
        assert {k: v for k, v in one.items() if k not in ignored} == {
            k: v for k, v in other.items() if k not in ignored
        }
    # the launched binary is exec'd from the job's sealed memfd, the forked one from a copy
    assert all(seen["exe"].startswith("/memfd:program") for seen in launched), launched
    assert all(seen["exe"].startswith("/tmp/") for seen in forked), forked


# Changes the mode of its own binary (a memfd shared by the job's runs), then says "ran".
SABOTEUR = r"""
#include <stdio.h>
#include <sys/stat.h>
int main(void) {
    chmod("/proc/self/exe", 0);
    puts("ran");
    return 0;
}
"""


@pytest.mark.docker
async def test_what_a_run_does_to_its_binary_never_reaches_the_next_run(
    sandboxes: dict[str, DockerSandbox],
) -> None:
    item = CodeItem.model_validate(
        {
            "language": "c",
            "code": SABOTEUR,
            "tests": [{"kind": "stdio", "stdin": "", "stdout": "ran\n"}] * 2,
        }
    )
    job = build_job(item, item.code, CodeSettings())
    sandbox = sandboxes["launched"]
    built = await sandbox.run({**job, "tests": [], "return_artefact": True}, timeout_s=120)
    artefact = built["compile"]["artefact"]
    first = await sandbox.run({**job, "artefact": artefact, "artefact_key": "k"}, timeout_s=120)
    # every test starts with the binary as it was (its mode is set again before each run)
    assert [t["stdout"] for t in first["tests"]] == ["ran\n", "ran\n"], first
    # the next job runs the binary PID 1 kept (sent by key only), from a fresh memfd
    second = await sandbox.run({**job, "artefact_key": "k"}, timeout_s=120)
    assert "missing_artefact" not in second, second
    assert [t["stdout"] for t in second["tests"]] == ["ran\n", "ran\n"], second
