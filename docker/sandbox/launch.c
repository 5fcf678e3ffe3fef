/*
 * rlvr-launch: how the sandbox's PID 1 starts a native program (a compiled binary, a compiler,
 * a JVM, Node). Built into the sandbox image; PID 1 uses it where it is there and passes a
 * start-up probe, and otherwise has its Python zygote fork each run
 * (services/rlvr/verifier/sandbox/inside/launcher.py).
 *
 * Why it exists: forking the warm Python zygote and setting a run up in Python costs ~2 ms
 * before exec, more than the whole run of a small native program. PID 1 instead starts this
 * binary with posix_spawn (vfork: no page tables copied, no copy-on-write faults, PID 1 waits
 * only until this binary is exec'd), in its own session, with the run's pipes on 0, 1, 2 and
 * two sealed memfds: the seccomp filter on 3 and, for a compiled program, its binary on 4. This
 * binary then, in order, and any failure ends the run before the program starts (fail closed,
 * exit 127, as for a program that could not be started):
 *
 *   0. makes itself the OOM killer's first choice (oom_score_adj 1000, kept over exec and
 *      fork; the filter then refuses PR_SET_DUMPABLE, so a program exec'd from an
 *      execute-only memfd cannot lower it again);
 *   1. installs the seccomp filter read from fd 3 (the zygote's own: the program runs under
 *      exactly the rules of a forked run, kept over exec);
 *   2. chdir to the run's work dir, umask 077;
 *   3. each rlimit, soft = hard (the program can lower them, never raise them);
 *   4. glibc's own two signals at their default too (posix_spawn did the others);
 *   5. closes every descriptor above 2 but the program's binary;
 *   6. execs the program: by path, or from the memfd (close-on-exec: the program holds no
 *      descriptor of its binary, which no run can change: it is sealed).
 *
 * No C library: exec'ing a static glibc binary costs ~0.65 ms here, a freestanding one ~0.25
 * ms, and that is paid once per test. Only raw system calls, for x86_64 and aarch64 (the image
 * build skips the launcher elsewhere).
 *
 * usage: rlvr-launch CWD FILTER_FD EXEC_FD|- COUNT [RESOURCE VALUE]... PATH ARGV0 [ARG]...
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "raw_syscall.h"

static unsigned long length(const char *text) {
    unsigned long n = 0;
    while (text[n] != '\0') n++;
    return n;
}

static void say(const char *text) { CALL(SYS_write, 2, text, length(text), 0); }

static __attribute__((noreturn)) void fail(const char *what) {
    say("rlvr-launch: ");
    say(what);
    say("\n");
    for (;;) CALL(SYS_exit_group, 127, 0, 0, 0);
}

/* A decimal number, all digits, no sign, no overflow; -1 otherwise. */
static int parse(const char *text, unsigned long long *value) {
    unsigned long long n = 0;
    if (*text == '\0') return -1;
    for (; *text != '\0'; text++) {
        if (*text < '0' || *text > '9') return -1;
        unsigned long long digit = (unsigned long long)(*text - '0');
        if (n > (~0ULL - digit) / 10) return -1;
        n = n * 10 + digit;
    }
    *value = n;
    return 0;
}

struct linux_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Close every descriptor above 2 but `keep` (-1: none). Listed from /proc/self/fd first, then
 * closed, so the listing never changes under the reader. */
static void close_others(int keep) {
    int open_fds[1024];
    int count = 0;
    char buffer[4096] __attribute__((aligned(8)));
    long listing = CALL(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (listing < 0) fail("cannot list /proc/self/fd");
    for (;;) {
        long got = CALL(SYS_getdents64, listing, buffer, sizeof buffer, 0);
        if (got < 0) fail("cannot list /proc/self/fd");
        if (got == 0) break;
        for (long at = 0; at < got;) {
            struct linux_dirent64 *entry = (struct linux_dirent64 *)(buffer + at);
            unsigned long long fd;
            at += entry->d_reclen;
            if (parse(entry->d_name, &fd) != 0 || fd <= 2 || (long)fd == listing) continue;
            if ((int)fd == keep) continue;
            if (count == (int)(sizeof open_fds / sizeof open_fds[0])) fail("too many descriptors");
            open_fds[count++] = (int)fd;
        }
    }
    CALL(SYS_close, listing, 0, 0, 0);
    for (int i = 0; i < count; i++) {
        if (CALL(SYS_close, open_fds[i], 0, 0, 0) < 0) fail("cannot close a descriptor");
    }
}

/* glibc's two internal signals (32, 33) at their default: posix_spawn resets every other one
 * it is asked to (PID 1 asks for all) and clears the mask, but leaves these two ignored in the
 * child, and an ignored signal stays ignored over exec. A zeroed kernel sigaction is SIG_DFL
 * with no flags and an empty mask on both machines. The mask is cleared again here. */
static void default_signals(void) {
    unsigned long action[4] = {0, 0, 0, 0};
    unsigned long none = 0;
    if (CALL(SYS_rt_sigprocmask, 2 /* SIG_SETMASK */, &none, 0, sizeof none) != 0) {
        fail("cannot unblock signals");
    }
    for (int sig = 32; sig <= 33; sig++) {
        if (CALL(SYS_rt_sigaction, sig, action, 0, sizeof none) != 0) fail("cannot reset a signal");
    }
}

/* The filter's instructions, read whole from `fd` (at most 4096, the kernel's own bound). */
static struct sock_filter filter_code[4096];

static void install_filter(int fd) {
    unsigned long size = 0;
    for (;;) {
        /* pread: every run's launcher shares the descriptor's offset */
        long got = CALL(SYS_pread64, fd, (char *)filter_code + size, sizeof filter_code - size,
                        size);
        if (got < 0) fail("cannot read the seccomp filter");
        if (got == 0) break;
        size += (unsigned long)got;
        if (size == sizeof filter_code) fail("seccomp filter too long");
    }
    if (size == 0 || size % sizeof filter_code[0] != 0) fail("bad seccomp filter");
    struct sock_fprog program = {(unsigned short)(size / sizeof filter_code[0]), filter_code};
    if (CALL(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0) != 0) fail("cannot set no_new_privs");
    if (CALL(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program, 0) != 0) {
        fail("cannot install the seccomp filter");
    }
    CALL(SYS_close, fd, 0, 0, 0);
}

/* Raising one's own score needs no privilege; this binary is dumpable (exec'd from a readable
 * file), so its /proc/self files are its own uid's. */
static void first_for_the_oom_killer(void) {
    long fd = CALL(SYS_openat, AT_FDCWD, "/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC, 0);
    if (fd < 0) fail("cannot open oom_score_adj");
    if (CALL(SYS_write, fd, "1000", 4, 0) != 4) fail("cannot set oom_score_adj");
    CALL(SYS_close, fd, 0, 0, 0);
}

struct limit {
    unsigned long long soft, hard;
};

__attribute__((used, noreturn)) void launch(long *stack) {
    long argc = stack[0];
    char **argv = (char **)(stack + 1);
    char **envp = argv + argc + 1;
    unsigned long long count, filter_fd, exec_fd = 0, resource, value;
    if (argc < 7 || parse(argv[4], &count) != 0 || count > 16) fail("bad arguments");
    if (parse(argv[2], &filter_fd) != 0 || filter_fd < 3 || filter_fd > 1023) {
        fail("bad filter descriptor");
    }
    int has_fd = !(argv[3][0] == '-' && argv[3][1] == '\0');
    if (has_fd && (parse(argv[3], &exec_fd) != 0 || exec_fd < 3 || exec_fd > 1023 ||
                   exec_fd == filter_fd)) {
        fail("bad exec descriptor");
    }
    long program = 5 + 2 * (long)count;
    if (argc < program + 2) fail("bad arguments");
    first_for_the_oom_killer();
    install_filter((int)filter_fd);
    if (CALL(SYS_chdir, argv[1], 0, 0, 0) != 0) fail("cannot enter the work dir");
    CALL(SYS_umask, 077, 0, 0, 0);
    for (long i = 0; i < (long)count; i++) {
        if (parse(argv[5 + 2 * i], &resource) != 0 || parse(argv[6 + 2 * i], &value) != 0) {
            fail("bad rlimit");
        }
        struct limit limit = {value, value};
        if (CALL(SYS_prlimit64, 0, resource, &limit, 0) != 0) fail("cannot set an rlimit");
    }
    default_signals();
    close_others(has_fd ? (int)exec_fd : -1);
    if (has_fd) {
        if (CALL(SYS_fcntl, exec_fd, F_SETFD, FD_CLOEXEC, 0) != 0) fail("bad exec descriptor");
        call6(SYS_execveat, exec_fd, (word) "", (word)(argv + program + 1), (word)envp,
              AT_EMPTY_PATH, 0);
    } else {
        CALL(SYS_execve, argv[program], argv + program + 1, envp, 0);
    }
    fail("cannot execute the program");
}

#if defined(__x86_64__)
__asm__(".text\n.global _start\n_start:\n"
        "  xor %rbp, %rbp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call launch\n  hlt\n");
#else
__asm__(".text\n.global _start\n_start:\n"
        "  mov x29, #0\n  mov x30, #0\n  mov x0, sp\n  and sp, x0, #-16\n  bl launch\n");
#endif
