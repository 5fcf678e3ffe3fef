"""The seccomp profile code sandboxes run under when jobs get their own namespaces.

Docker's default profile refuses `unshare`, `setns`, `mount` and namespace flags to `clone` to
any container without CAP_SYS_ADMIN, which ours never has; the zygote needs exactly those to
make and enter jobs' namespaces (`inside/namespaces.py`). This profile allows them and refuses,
as the default one does, what reaches the kernel as a whole (modules, kexec, clocks, swap,
reboot, BPF, perf, keyrings, handles, userfaultfd, ...) and every other calling convention than
the host's.

It is the engine's filter, the outer of two: every run is also bound by the filters the zygote
and the run itself install (`inside/seccomp.py`), which refuse namespaces, mounts, tracing,
IPC that outlives a process, network socket families and more. Filters stack and the strictest
answer wins, so what the inner one refuses, no run can do whatever this one allows.
"""

from __future__ import annotations

import json
import platform

# System calls no process of a sandbox has a use for, refused with EPERM.
REFUSED = sorted(
    {
        "acct", "add_key", "bpf", "chroot", "clock_adjtime", "clock_settime", "create_module",
        "delete_module", "fanotify_init", "finit_module", "get_kernel_syms", "get_mempolicy",
        "init_module", "io_uring_enter", "io_uring_register", "io_uring_setup", "ioperm", "iopl",
        "kcmp", "kexec_file_load", "kexec_load", "keyctl", "lookup_dcookie", "mbind",
        "migrate_pages", "move_pages", "name_to_handle_at", "nfsservctl", "open_by_handle_at",
        "perf_event_open", "pidfd_getfd", "pivot_root", "process_madvise", "process_vm_readv",
        "process_vm_writev", "ptrace", "query_module", "quotactl", "reboot", "request_key",
        "set_mempolicy", "settimeofday", "swapoff", "swapon", "syslog", "sysfs",
        "uselib", "userfaultfd", "ustat", "vhangup",
    }
)  # fmt: skip
# The host's calling convention and the ones its CPU also runs (i386 and x32 on x86_64): the
# inner filter refuses those to every run with EPERM, as under Docker's default profile; left
# out here, they would kill the process instead.
_ARCHITECTURES = {
    "x86_64": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
    "aarch64": ["SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM"],
}


def engine_profile(machine: str | None = None) -> dict[str, object]:
    """The profile as Docker takes it (`security_opt: ["seccomp=<json>"]`)."""
    machine = machine or platform.machine()
    return {
        "defaultAction": "SCMP_ACT_ALLOW",
        "architectures": _ARCHITECTURES[machine],
        "syscalls": [{"names": REFUSED, "action": "SCMP_ACT_ERRNO", "errnoRet": 1}],
    }


def engine_security_opt(machine: str | None = None) -> str:
    return "seccomp=" + json.dumps(engine_profile(machine), separators=(",", ":"))
