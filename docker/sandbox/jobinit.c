/*
 * rlvr-jobinit: PID 1 of a /code job's own PID namespace. Built into the sandbox image; the
 * zygote starts it for each job where it is there, and otherwise forks a Python init that does
 * the same (services/rlvr/verifier/sandbox/inside/jobspace.py).
 *
 * Why it exists: a job's init lives as long as its job, so a forked copy of the warm zygote
 * as init costs the fork, every page the zygote writes during the job (copied, as long as the
 * init shares it) and the exit's unmapping: more CPU than a trivial run. The zygote instead
 * starts this binary with posix_spawn (vfork: nothing copied) right after unsharing the job's
 * namespaces, in its own session, with CAP_SYS_ADMIN as its only ambient capability and the
 * write end of a pipe on fd 3. This binary then, in order (a failed step N exits 120 + N, and
 * the zygote reports the job space as refused, with that status):
 *
 *   1. makes itself non-dumpable (exec made it dumpable: a run would read and write its
 *      memory through /proc/1) and dies with the zygote (PR_SET_PDEATHSIG);
 *   2. mounts the PID namespace's own /proc (only a process of the namespace can);
 *   3. drops every capability (ambient, effective, permitted, inheritable);
 *   4. writes "1" on fd 3 and closes it: the job may start;
 *   5. reaps whatever the job orphans, until it is killed. A signal a run sends it is dropped
 *      by the kernel (an init with no handler), and it has none.
 *
 * No C library, like rlvr-launch: raw system calls for x86_64 and aarch64 (the image build
 * skips it elsewhere).
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <linux/mount.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "raw_syscall.h"

static __attribute__((noreturn)) void fail(int step) {
    for (;;) CALL(SYS_exit_group, 120 + step, 0, 0, 0);
}

#define READY_FD 3
#define WNOHANG_ 1
#define WALL_ 0x40000000

void start(void) {
    /* exec made it dumpable: a run would then read and write its memory through /proc/1 */
    if (CALL(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0) != 0) fail(1);
    if (CALL(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0) != 0) fail(1);
    if (CALL(SYS_mount, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC) != 0) fail(2);
    if (CALL(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0) != 0) fail(3);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[2] = {{0, 0, 0}, {0, 0, 0}};
    if (CALL(SYS_capset, &header, none, 0, 0) != 0) fail(4);
    unsigned long chld = 1UL << (SIGCHLD - 1);
    if (CALL(SYS_rt_sigprocmask, SIG_BLOCK, &chld, 0, sizeof chld) != 0) fail(5);
    if (CALL(SYS_write, READY_FD, "1", 1, 0) != 1) fail(6);
    CALL(SYS_close, READY_FD, 0, 0, 0);
    for (;;) {
        while (CALL(SYS_wait4, -1, 0, WNOHANG_ | WALL_, 0) > 0) {
        }
        CALL(SYS_rt_sigtimedwait, &chld, 0, 0, sizeof chld);
    }
}

#if defined(__x86_64__)
__asm__(".text\n.global _start\n_start:\n"
        "  xor %rbp, %rbp\n  and $-16, %rsp\n  call start\n  hlt\n");
#else
__asm__(".text\n.global _start\n_start:\n"
        "  mov x29, #0\n  mov x30, #0\n  mov x0, sp\n  and sp, x0, #-16\n  bl start\n");
#endif
