"""The engine's seccomp profile for containers with job namespaces (its effect on a live
container: `tests/rlvr/verifier/sandbox/inside/test_jobspace.py`)."""

from __future__ import annotations

import json

import pytest

from rlvr.verifier.sandbox.host.engine_seccomp import REFUSED, engine_profile, engine_security_opt


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_profile_leaves_the_zygote_its_namespaces_and_refuses_the_kernel_as_a_whole(
    machine: str,
) -> None:
    profile = engine_profile(machine)
    (rule,) = profile["syscalls"]
    assert rule["action"] == "SCMP_ACT_ERRNO" and rule["errnoRet"] == 1
    refused = set(rule["names"])
    # what the zygote needs to make and enter jobs' namespaces (the inner filter refuses them
    # to every run: test_jobspace.py)
    assert not refused & {"unshare", "setns", "mount", "umount2", "clone", "clone3", "prctl"}
    # what reaches the whole kernel or other processes
    kernel_wide = {
        "kexec_load", "init_module", "bpf", "perf_event_open", "ptrace", "userfaultfd",
        "keyctl", "open_by_handle_at", "reboot", "swapon",
    }  # fmt: skip
    assert kernel_wide <= refused
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    native = {"x86_64": "SCMP_ARCH_X86_64", "aarch64": "SCMP_ARCH_AARCH64"}[machine]
    assert profile["architectures"][0] == native


def test_the_security_option_is_the_profile_as_json() -> None:
    option = engine_security_opt("x86_64")
    assert option.startswith("seccomp=")
    assert json.loads(option.removeprefix("seccomp="))["syscalls"][0]["names"] == REFUSED
