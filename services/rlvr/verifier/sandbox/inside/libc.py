"""The C library, for the calls Python's `os` lacks (prctl, syscall), and the numbers of the
system calls the seccomp filter and the attribute checks name, per architecture."""

from __future__ import annotations

import ctypes

SYSCALL_NUMBERS: dict[str, dict[str, int]] = {
    "x86_64": {
        "prlimit64": 302, "setpriority": 141, "sched_setparam": 142,
        "sched_setscheduler": 144, "sched_setaffinity": 203, "sched_setattr": 314,
        "sched_getattr": 315, "ioprio_set": 251, "ioprio_get": 252, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438,
        "process_madvise": 440, "migrate_pages": 256, "move_pages": 279,
        "shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67, "semget": 64, "semop": 65,
        "semctl": 66, "semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70,
        "msgctl": 71, "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242,
        "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245,
        "add_key": 248, "request_key": 249, "keyctl": 250,
        "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129,
        "rt_tgsigqueueinfo": 297, "pidfd_open": 434, "pidfd_send_signal": 424,
        "fcntl": 72, "ioctl": 16,
        "socket": 41, "socketpair": 53, "memfd_create": 319, "memfd_secret": 447,
        "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197,
        "lremovexattr": 198, "fremovexattr": 199, "setxattrat": 463, "removexattrat": 466,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "prctl": 157,
        "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
        "chroot": 161, "clone": 56, "clone3": 435, "open_tree": 428, "move_mount": 429,
        "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
    },
    "aarch64": {
        "prlimit64": 261, "setpriority": 140, "sched_setparam": 118,
        "sched_setscheduler": 119, "sched_setaffinity": 122, "sched_setattr": 274,
        "sched_getattr": 275, "ioprio_set": 30, "ioprio_get": 31, "ptrace": 117,
        "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "pidfd_getfd": 438,
        "process_madvise": 440, "migrate_pages": 238, "move_pages": 239,
        "shmget": 194, "shmat": 196, "shmctl": 195, "shmdt": 197, "semget": 190,
        "semop": 193, "semctl": 191, "semtimedop": 192, "msgget": 186, "msgsnd": 189,
        "msgrcv": 188, "msgctl": 187, "mq_open": 180, "mq_unlink": 181,
        "mq_timedsend": 182, "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185,
        "add_key": 217, "request_key": 218, "keyctl": 219,
        "kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138,
        "rt_tgsigqueueinfo": 240, "pidfd_open": 434, "pidfd_send_signal": 424,
        "fcntl": 25, "ioctl": 29,
        "socket": 198, "socketpair": 199, "memfd_create": 279, "memfd_secret": 447,
        "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14,
        "lremovexattr": 15, "fremovexattr": 16, "setxattrat": 463, "removexattrat": 466,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "prctl": 167,
        "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41,
        "chroot": 51, "clone": 220, "clone3": 435, "open_tree": 428, "move_mount": 429,
        "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
    },
}  # fmt: skip


def load_libc() -> ctypes.CDLL:
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


_LIBC: ctypes.CDLL | None = None
