"""Taking the program out of a model's response."""

from __future__ import annotations

import pytest

from services.verifier.domains.code.extract import extract_code


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
    ],
)
def test_last_block_of_the_language_is_taken(
    response: str, language: str, code: str | None
) -> None:
    assert extract_code(response, language) == code
