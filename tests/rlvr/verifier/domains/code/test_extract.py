"""Taking the program out of a model's response."""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.code.extract import extract_code


@pytest.mark.parametrize(
    ("response", "language", "code"),
    [
        ("```python\nprint(1)\n```", "python", "print(1)\n"),
        ("a\n```python\nx = 1\n```\nthen\n```python\nx = 2\n```\n", "python", "x = 2\n"),
        ("```py\nx = 1\n```", "python", "x = 1\n"),
        ("```\nx = 1\n```", "python", "x = 1\n"),
        ("```python\nx = 1\n```\n```\nplain\n```", "python", "x = 1\n"),
        ("```cpp\nint main(){}\n```\n```python\nx=1\n```", "cpp", "int main(){}\n"),
        ("```c++\nint main(){}\n```", "cpp", "int main(){}\n"),
        ("````python\n```inner```\n````", "python", "```inner```\n"),
        ("no code at all", "python", None),
        ("```cpp\nint main(){}\n```", "python", None),
        ("```python\nunterminated", "python", None),
        # the other languages, by their usual tags; `c` still counts for C++ (as it always did)
        ("```c\nint main(){}\n```", "cpp", "int main(){}\n"),
        ("```c\nint main(){}\n```", "c", "int main(){}\n"),
        ("```cpp\nint main(){}\n```", "c", None),
        ("```java\nclass Main {}\n```\n```python\nx=1\n```", "java", "class Main {}\n"),
        ("```js\nconsole.log(1)\n```", "javascript", "console.log(1)\n"),
        ("```javascript\nconsole.log(1)\n```", "javascript", "console.log(1)\n"),
        ("```golang\npackage main\n```", "go", "package main\n"),
        ("```go\npackage main\n```", "go", "package main\n"),
        ("```rust\nfn main(){}\n```\n```rs\nfn main(){ }\n```", "rust", "fn main(){ }\n"),
        ("```rust\nfn main(){}\n```", "go", None),
    ],
)
def test_last_block_of_the_language_is_taken(
    response: str, language: str, code: str | None
) -> None:
    assert extract_code(response, language) == code


@pytest.mark.parametrize(
    ("response", "code"),
    [
        ("```python\nx = 1\n```<|im_end|>", "x = 1\n"),
        ("```python\nx = 1\n```\n<|im_end|>\n<|endoftext|>", "x = 1\n"),
        ("```python\nx = 1\n```<|eot_id|>", "x = 1\n"),
        ("```python\nx = 1\n```</s>", "x = 1\n"),
        ("```python\nx = 1\n```<｜end▁of▁sentence｜>", "x = 1\n"),
        ("```python\nx = 1\n```<end_of_turn>", "x = 1\n"),
        ("```python\nx = 1\n```<|im_end|>\n<|im_start|>user", "x = 1\n"),
        ("```python\nx = 1\n```" + "<|endoftext|>" * 100_000, "x = 1\n"),  # padding
        ("```python\nx = 1\n```\r\n", "x = 1\n"),
        ("```python\nx = 1\n``` <b>", None),  # not a special token: the fence stays unclosed
    ],
)
def test_trailing_chat_template_tokens_do_not_hide_the_closing_fence(
    response: str, code: str | None
) -> None:
    assert extract_code(response, "python") == code


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("```python\n" * 200_000, None),  # each opener unclosed: a regex rescanned to the end
        ("~~~\n```\n" * 100_000 + "```", ""),  # as for 2 or 4 repetitions: the last block is empty
        ("x\n" * 100_000 + "```python\n" * 100_000, None),
    ],
)
def test_unclosed_openers_cost_one_pass(response: str, expected: str | None) -> None:
    """Quadratic before (an hour for 1 MB); about a second now, so 30 s is room for a loaded
    machine, not for a quadratic scan. The answer is the one a short text of that shape gets."""
    started = time.perf_counter()
    assert extract_code(response, "python") == expected
    assert time.perf_counter() - started < 30


def test_fences_of_other_lengths_or_characters_do_not_close_a_block() -> None:
    text = "````python\nx = 1\n```\n~~~~\n````\n"
    assert extract_code(text, "python") == "x = 1\n```\n~~~~\n"
