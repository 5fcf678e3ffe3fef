/*
 * Raw system calls for the sandbox image's freestanding helpers (launch.c, jobinit.c): no C
 * library, for x86_64 and aarch64 only (the image build skips the helpers elsewhere). Every
 * argument register is set, so a call reads no stale register as an argument (mount reads its
 * fifth).
 */
#ifndef RLVR_RAW_SYSCALL_H
#define RLVR_RAW_SYSCALL_H

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "raw system calls are written for x86_64 and aarch64 only"
#endif

typedef unsigned long word;

static long call6(long number, word a, word b, word c, word d, word e, word f) {
#if defined(__x86_64__)
    long result;
    register word r10 __asm__("r10") = d;
    register word r8 __asm__("r8") = e;
    register word r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return result;
#else
    register long x8 __asm__("x8") = number;
    register word x0 __asm__("x0") = a;
    register word x1 __asm__("x1") = b;
    register word x2 __asm__("x2") = c;
    register word x3 __asm__("x3") = d;
    register word x4 __asm__("x4") = e;
    register word x5 __asm__("x5") = f;
    __asm__ volatile("svc 0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return (long)x0;
#endif
}

#define CALL(n, a, b, c, d) call6((n), (word)(a), (word)(b), (word)(c), (word)(d), 0, 0)

#endif
