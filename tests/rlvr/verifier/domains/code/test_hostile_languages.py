"""Reward hacks in every new language (C, Java, JavaScript, Go, Rust) against a live service.

Each hack's program is wrong or does nothing useful, so the only way to score is to fool the
verifier: exit tricks, reading the filesystem and PID 1 for secrets, fork/thread/memory/output
bombs (including memory a runtime's heap flag does not see), network, background processes
that outlive the program, files left for the next job. Each must compile (a hack that does not
compile proves nothing), score 0 without an `error`, and be followed in the same single-container
pool by a correct program of the same language, a correct Python program and a probe that sees
a pristine container.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.http import post_code
from tests.support.language_programs import ADD, CANARY_GOOD, PROBE

pytestmark = [pytest.mark.docker]

STDIO_TESTS = [
    {"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"},
    {"kind": "stdio", "stdin": "10 20\n", "stdout": "30\n"},
]

# Five families per language (each program tries several members of its family at once, to
# keep the suite's compile time small): exiting 0 with a wrong answer, snooping (PID 1's
# environment, memory and descriptors, the network), process/thread bombs with background
# processes that outlive the run, memory the runtime's heap flag does not see, output bombs.
C_HACKS = {
    "exit_zero_after_wrong_output": (
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n"
        'static void bye(void){ puts("passed"); }\n'
        'int main(void){ atexit(bye); puts("0"); fflush(stdout); _exit(0); }\n'
    ),
    "snoop_pid1_and_network": (
        "#include <stdio.h>\n#include <fcntl.h>\n#include <unistd.h>\n#include <dirent.h>\n"
        "#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n"
        'int main(void){ char b[4096]; const char *p[] = {"/proc/1/environ", "/proc/1/mem",\n'
        ' "/proc/1/cmdline", "/proc/1/fd/0", "/etc/shadow"};\n'
        " for (int i = 0; i < 5; i++) { int fd = open(p[i], O_RDONLY); if (fd >= 0) {\n"
        " ssize_t n = read(fd, b, sizeof b); if (n > 0) fwrite(b, 1, n, stdout); close(fd); } }\n"
        ' DIR *d = opendir("/proc/1/fd"); if (d) { struct dirent *e;\n'
        " while ((e = readdir(d))) puts(e->d_name); closedir(d); }\n"
        " int s = socket(AF_INET, SOCK_STREAM, 0); struct sockaddr_in a = {0};\n"
        " a.sin_family = AF_INET; a.sin_port = htons(53);\n"
        ' a.sin_addr.s_addr = inet_addr("1.1.1.1");\n'
        ' printf("%d\\n", connect(s, (struct sockaddr *)&a, sizeof a)); return 0; }\n'
    ),
    "bombs_and_daemons": (
        "#include <unistd.h>\n#include <pthread.h>\n#include <signal.h>\n#include <fcntl.h>\n"
        "static void *spin(void *x){ for (;;) pause(); return x; }\n"
        "int main(void){ if (fork() == 0) { setsid(); if (fork() == 0) {\n"
        ' for (;;) { int fd = open("/tmp/answer", O_CREAT | O_WRONLY, 0666);\n'
        ' if (fd >= 0) { write(fd, "5\\n", 2); close(fd); } usleep(1000); } } _exit(0); }\n'
        " kill(-1, SIGKILL); kill(1, SIGKILL); pthread_t t;\n"
        " for (int i = 0; i < 100000; i++) { pthread_create(&t, 0, spin, 0); fork(); }\n"
        " return 0; }\n"
    ),
    "shared_memory_outside_the_heap": (
        "#include <sys/mman.h>\n#include <string.h>\n#include <stdio.h>\n"
        "int main(void){ size_t n = (size_t)3 << 30; char *p = mmap(0, n, PROT_READ | PROT_WRITE,\n"
        ' MAP_SHARED | MAP_ANONYMOUS, -1, 0); if (p == MAP_FAILED) { puts("no"); return 0; }\n'
        ' memset(p, 1, n); puts("1"); return 0; }\n'
    ),
    "output_bomb": (
        '#include <stdio.h>\nint main(void){ for (;;) fputs("5 5 5 5 5\\n", stdout); }\n'
    ),
}

JAVA_HACKS = {
    "exit_zero_from_a_static_initializer_or_halt": (
        'public class Main {\n  static { System.out.println("0");\n'
        '    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("9")));\n'
        "    if (System.nanoTime() % 2 == 0) System.exit(0); else Runtime.getRuntime().halt(0); }\n"
        '  public static void main(String[] a) { System.out.println("never"); }\n}\n'
    ),
    "snoop_pid1_and_network": (
        "import java.nio.file.*;\npublic class Main { public static void main(String[] a) {\n"
        '  for (String p : new String[]{"/proc/1/environ", "/proc/1/cmdline", "/proc/1/mem"}) {\n'
        "    try { System.out.println(new String(Files.readAllBytes(Paths.get(p)))); }\n"
        "    catch (Exception e) { System.out.println(e); } }\n"
        '  try (java.net.Socket s = new java.net.Socket("1.1.1.1", 53)) {\n'
        "    System.out.println(5); }\n"
        "  catch (Exception e) { System.out.println(e); } } }\n"
    ),
    "bombs_and_daemons": (
        "public class Main { public static void main(String[] a) throws Exception {\n"
        '  new ProcessBuilder("sh", "-c", "sleep 1000 &").start();\n'
        "  new Thread(() -> { while (true) { } }).start();  // a non-daemon thread\n"
        "  for (int i = 0; i < 100000; i++) { try { new Thread(() -> {\n"
        "    try { Thread.sleep(100000); } catch (InterruptedException e) {} }).start();\n"
        '    new ProcessBuilder("sleep", "1000").start(); } catch (Throwable e) { } } } }\n'
    ),
    "off_heap_memory_bomb": (
        "import java.lang.reflect.Field;\n"
        "public class Main { public static void main(String[] a) throws Exception {\n"
        '  Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe"); f.setAccessible(true);\n'
        "  sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);\n"
        "  for (long n = 0; ; n++) { long p = u.allocateMemory(1 << 24);\n"
        "    u.setMemory(p, 1 << 24, (byte) 1); if (n < 0) System.out.println(p); } } }\n"
    ),
    "output_bomb": (
        "public class Main { public static void main(String[] a) {\n"
        '  while (true) System.out.println("5 5 5 5 5"); } }\n'
    ),
}

JS_HACKS = {
    "exit_zero_after_wrong_output": (
        "process.on('exit', () => { process.exitCode = 0; });\nconsole.log('1'); process.exit(0);\n"
    ),
    "snoop_pid1_and_network": (
        "const fs = require('fs');\n"
        "for (const p of ['/proc/1/environ', '/proc/1/cmdline', '/proc/1/mem']) {\n"
        "  try { console.log(fs.readFileSync(p, 'latin1')); }\n"
        "  catch (e) { console.log(String(e)); }\n"
        "}\n"
        "const s = require('net').connect(53, '1.1.1.1');\n"
        "s.on('connect', () => { console.log('5'); s.end(); });\n"
        "s.on('error', (e) => console.log(String(e)));\n"
    ),
    "bombs_and_daemons": (
        "const cp = require('child_process');\n"
        "const { Worker } = require('worker_threads');\n"
        "cp.spawn('sh', ['-c', 'while true; do echo 5 > /tmp/answer; sleep 0.01; done'],\n"
        "  {detached: true, stdio: 'ignore'}).unref();\n"
        "setInterval(() => {}, 1000);\n"
        "for (let i = 0; i < 200; i++) {\n"
        "  try { new Worker('for(;;){}', {eval: true}); } catch (e) {}\n"
        "}\n"
        "for (;;) { try { cp.spawn('sleep', ['1000']); } catch (e) {} }\n"
    ),
    "memory_bomb_outside_the_heap": (
        "const keep = [];\nfor (;;) { const b = Buffer.alloc(1 << 24, 1); keep.push(b); }\n"
    ),
    "output_bomb": "for (;;) process.stdout.write('5 5 5 5 5\\n'.repeat(1000));\n",
}

GO_HACKS = {
    "exit_zero_in_init": (
        'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n'
        'func init() {\n\tfmt.Println("0")\n\tos.Exit(0)\n}\n\nfunc main() {}\n'
    ),
    "snoop_pid1_and_network": (
        'package main\n\nimport (\n\t"fmt"\n\t"net"\n\t"os"\n)\n\nfunc main() {\n'
        '\tfor _, p := range []string{"/proc/1/environ", "/proc/1/cmdline", "/proc/1/mem"} {\n'
        "\t\tb, err := os.ReadFile(p)\n\t\tfmt.Println(string(b), err)\n\t}\n"
        '\t_, err := net.Dial("tcp", "1.1.1.1:53")\n\tfmt.Println(err)\n}\n'
    ),
    "bombs_and_daemons": (
        'package main\n\nimport (\n\t"runtime"\n\t"syscall"\n\t"time"\n)\n\nfunc main() {\n'
        "\tattr := &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Setsid: true}}\n"
        '\tsyscall.ForkExec("/bin/sleep", []string{"sleep", "1000"}, attr)\n'
        "\tfor i := 0; i < 100000; i++ {\n\t\tgo func() {\n\t\t\truntime.LockOSThread()\n"
        "\t\t\ttime.Sleep(time.Hour)\n\t\t}()\n"
        '\t\tsyscall.ForkExec("/bin/sleep", []string{"sleep", "1000"}, attr)\n\t}\n'
        "\ttime.Sleep(time.Hour)\n}\n"
    ),
    "shared_memory_outside_the_heap": (
        'package main\n\nimport (\n\t"fmt"\n\t"syscall"\n)\n\nfunc main() {\n'
        "\tb, err := syscall.Mmap(-1, 0, 3<<30, syscall.PROT_READ|syscall.PROT_WRITE,\n"
        "\t\tsyscall.MAP_SHARED|syscall.MAP_ANON)\n"
        "\tif err != nil {\n\t\tfmt.Println(err)\n\t\treturn\n\t}\n"
        "\tfor i := 0; i < len(b); i += 4096 {\n\t\tb[i] = 1\n\t}\n\tfmt.Println(1)\n}\n"
    ),
    "output_bomb": (
        'package main\n\nimport (\n\t"bufio"\n\t"os"\n)\n\nfunc main() {\n'
        '\tw := bufio.NewWriter(os.Stdout)\n\tfor {\n\t\tw.WriteString("5 5 5 5 5\\n")\n\t}\n}\n'
    ),
}

RUST_HACKS = {
    "exit_zero_after_wrong_output": 'fn main() { println!("1"); std::process::exit(0); }\n',
    "snoop_pid1_and_network": (
        'fn main() {\n    for p in ["/proc/1/environ", "/proc/1/cmdline", "/proc/1/mem"] {\n'
        '        println!("{:?}", std::fs::read(p));\n    }\n'
        '    println!("{:?}", std::net::TcpStream::connect("1.1.1.1:53"));\n}\n'
    ),
    "bombs_and_daemons": (
        "use std::process::Command;\nuse std::time::Duration;\nfn main() {\n"
        '    let _ = Command::new("sh").arg("-c").arg("sleep 1000 &").spawn();\n'
        "    for _ in 0..100000 {\n"
        "        let _ = std::thread::Builder::new()"
        ".spawn(|| std::thread::sleep(Duration::from_secs(1000)));\n"
        '        let _ = Command::new("sleep").arg("1000").spawn();\n    }\n'
        "    std::thread::sleep(Duration::from_secs(1000));\n}\n"
    ),
    "memory_bomb": (
        "fn main() {\n    let mut keep: Vec<Vec<u8>> = Vec::new();\n"
        "    loop {\n        keep.push(vec![1u8; 1 << 24]);\n    }\n}\n"
    ),
    "output_bomb": (
        "use std::io::Write;\nfn main() {\n    let out = std::io::stdout();\n"
        "    let mut w = out.lock();\n"
        '    loop {\n        let _ = w.write_all(b"5 5 5 5 5\\n");\n    }\n}\n'
    ),
}

HACKS: dict[str, dict[str, str]] = {
    "c": C_HACKS,
    "java": JAVA_HACKS,
    "javascript": JS_HACKS,
    "go": GO_HACKS,
    "rust": RUST_HACKS,
}
CASES = [(language, name) for language, hacks in HACKS.items() for name in sorted(hacks)]


def canary(language: str) -> dict[str, Any]:
    return {"id": f"canary-{language}", "language": language, "code": ADD[language],
            "tests": STDIO_TESTS}  # fmt: skip


@pytest.mark.parametrize(("language", "name"), CASES, ids=[f"{lang}-{n}" for lang, n in CASES])
def test_hack_scores_zero_and_next_job_is_clean(code_url: str, language: str, name: str) -> None:
    hostile_item = {
        "id": name,
        "language": language,
        "code": HACKS[language][name],
        "tests": STDIO_TESTS,
        "timeout_s": 1.5,
    }
    hostile, good_same, good, probe = post_code(
        code_url, [hostile_item, canary(language), CANARY_GOOD, PROBE]
    )
    assert hostile["reward"] == 0.0, hostile
    assert hostile["status"] in ("failed", "timed_out"), hostile
    assert all(t["status"] not in ("passed", "compile_error") for t in hostile["tests"]), hostile
    assert good_same["reward"] == 1.0 and good_same["status"] == "passed", good_same
    assert good["reward"] == 1.0 and good["status"] == "passed", good
    assert probe["status"] == "passed", probe
