"""Small programs in every language `/code` runs, shared by the language and hostile tests.

`ADD[lang]` reads two integers and prints their sum; the other tables are one way each language
has of failing (or cheating), written the way a model would.
"""

from __future__ import annotations

import textwrap

COMPILED = ("c", "cpp", "go", "java", "rust")
NEW_LANGUAGES = ("c", "go", "java", "javascript", "rust")

ADD = {
    "python": "a, b = map(int, input().split())\nprint(a + b)\n",
    "cpp": (
        "#include <iostream>\n"
        'int main(){ long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n'
    ),
    "c": (
        "#include <stdio.h>\n"
        'int main(void){ long long a, b; if (scanf("%lld %lld", &a, &b) != 2) return 1;\n'
        '  printf("%lld\\n", a + b); return 0; }\n'
    ),
    "java": (
        "import java.io.*;\nimport java.util.*;\n\n"
        "public class Solution {\n"
        "    public static void main(String[] args) throws IOException {\n"
        "        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));\n"
        "        StringTokenizer st = new StringTokenizer(in.readLine());\n"
        "        long a = Long.parseLong(st.nextToken()), b = Long.parseLong(st.nextToken());\n"
        "        System.out.println(a + b);\n"
        "    }\n"
        "}\n"
    ),
    "javascript": (
        "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(BigInt);\n"
        "console.log((a + b).toString());\n"
    ),
    "go": (
        'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\n'
        "func main() {\n\tr := bufio.NewReader(os.Stdin)\n\tvar a, b int64\n"
        "\tfmt.Fscan(r, &a, &b)\n\tfmt.Println(a + b)\n}\n"
    ),
    "rust": (
        "use std::io::Read;\n\nfn main() {\n    let mut s = String::new();\n"
        "    std::io::stdin().read_to_string(&mut s).unwrap();\n"
        "    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();\n"
        '    println!("{}", v[0] + v[1]);\n}\n'
    ),
}

COMPILE_ERROR = {
    "c": "int main(void) { return undefined_name; }\n",
    "cpp": "int main() { return undefined_name; }\n",
    "java": 'public class Main { public static void main(String[] a) { int x = "s"; } }\n',
    "go": 'package main\n\nimport "fmt"\n\nfunc main() { x := 1 }\n',
    "rust": 'fn main() { let x: i32 = "s"; }\n',
    "javascript": "function (\n",  # no compile step: a syntax error is a runtime error
}

RUNTIME_ERROR = {
    "c": "#include <stdlib.h>\nint main(void){ abort(); }\n",
    "cpp": '#include <stdexcept>\nint main(){ throw std::runtime_error("boom"); }\n',
    "java": "public class Main { public static void main(String[] a) { int[] x = new int[1];"
    " x[5] = 1; } }\n",
    "javascript": "throw new Error('boom');\n",
    "go": 'package main\n\nfunc main() { var m map[string]int; m["a"] = 1 }\n',
    "rust": 'fn main() { let v: Vec<i32> = Vec::new(); println!("{}", v[3]); }\n',
}

INFINITE_LOOP = {
    "c": "int main(void){ volatile unsigned long i = 0; for (;;) i++; }\n",
    "cpp": "int main(){ volatile unsigned long i = 0; for (;;) i++; }\n",
    "java": "public class Main { public static void main(String[] a) { long i = 0;"
    " while (true) { i++; if (i < 0) System.out.println(i); } } }\n",
    "javascript": "let i = 0; for (;;) { i++; }\n",
    "go": "package main\n\nfunc main() {\n\ti := 0\n\tfor {\n\t\ti++\n\t}\n}\n",
    "rust": "fn main() { let mut i: u64 = 1; loop { i = i.wrapping_mul(3); if i == 0 {"
    ' println!("{}", i); } } }\n',
}

MEMORY_BOMB = {
    "c": "#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\nint main(void){"
    ' for (;;) { char *p = malloc(1 << 24); if (!p) { fputs("oom", stderr); return 3; }'
    " memset(p, 1, 1 << 24); } }\n",
    "java": "import java.util.*;\npublic class Main { public static void main(String[] a) {"
    " List<long[]> keep = new ArrayList<>(); while (true) keep.add(new long[1 << 20]); } }\n",
    "javascript": "const keep = []; for (;;) keep.push(new Array(1 << 20).fill(1.5));\n",
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar keep [][]byte\n\tfor {\n'
    "\t\tb := make([]byte, 1<<24)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n"
    "\t\tkeep = append(keep, b)\n\t\tif len(keep) < 0 {\n\t\t\tfmt.Println(keep)\n\t\t}\n\t}\n}\n",
    "rust": "fn main() { let mut keep: Vec<Vec<u8>> = Vec::new();"
    " loop { keep.push(vec![1u8; 1 << 24]); } }\n",
}

# Python items the hostile suites send after a hostile one: an honest program that must pass, and
# a probe of the container a job leaves behind (processes, files, environment).
ASSERT_TEST = {"kind": "assert", "code": "assert add(1, 2) == 3"}
CALL_TEST = {"kind": "call", "fn": "add", "args": [2, 3], "expected": 5}
STDIO_TEST = {"kind": "stdio", "stdin": "2 3\n", "stdout": "5\n"}
CANARY_GOOD = {
    "id": "canary",
    "code": "import json\ndef add(a, b):\n    return json.loads(json.dumps(a + b))\n"
    "if __name__ == '__main__':\n    print(sum(map(int, input().split())))\n",
    "tests": [ASSERT_TEST, CALL_TEST, STDIO_TEST],
}
PROBE = {
    "id": "probe",
    "code": textwrap.dedent(
        """
        import os, sys, json, builtins
        def probe():
            pids = {int(p) for p in os.listdir("/proc") if p.isdigit()}
            return {
                # anything but pid 1, the parent and this process: in a job's namespaces
                # pid 1 is the job's init and the parent (its spawner) is outside (0); in a
                # shared container they are PID 1 and the zygote
                "others": sorted(pids - {1, os.getppid(), os.getpid()}),
                "tmp": sorted(os.listdir("/tmp")),
                "work": sorted(os.listdir(".")),
                "json_ok": json.dumps([1]) == "[1]",
                "abs_ok": builtins.abs(-2) == 2,
                "env": sorted(os.environ),
            }
        """
    ),
    "tests": [
        {
            "kind": "call",
            "fn": "probe",
            "expected": {
                "others": [],
                "tmp": ["w"],
                "work": ["solution.py"],
                "json_ok": True,
                "abs_ok": True,
                "env": ["HOME", "LANG", "PATH"],
            },
        }
    ],
}
