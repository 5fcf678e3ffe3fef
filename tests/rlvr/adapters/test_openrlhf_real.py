"""`/openrlhf` driven by OpenRLHF's own rollout code (`SingleTurnAgentExecutor`), live service.

OpenRLHF's wheel installs without its GPU stack (`pip install --no-deps openrlhf==0.11.2`, plus
`aiohttp`; see scripts/setup.sh). `SingleTurnAgentExecutor.execute` is run as during a rollout:
it tokenizes the chat-templated prompt, asks the engine for a completion, decodes prompt +
completion with special tokens kept (so the query ends in `<|im_end|>`) and posts it to our
`/openrlhf` with its own aiohttp client. Only the engine is ours: a stand-in for vLLM that
"generates" a scripted completion (vLLM includes the stop token in the output, as here). The
tokenizer is a real Hugging Face fast tokenizer (byte-level BPE with ChatML special tokens),
trained in memory: the machine has no hub access.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from openrlhf.utils.agent import SingleTurnAgentExecutor
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

from tests.support.server import service_fixture

pytestmark = [pytest.mark.docker]

CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
CORPUS = [
    "def add(a, b):\n    return a + b\n",
    "Write add(a, b) in Python. What is 3 + 4 ? Put the answer in \\boxed{}.",
    "```python\nprint(1)\n```  I refuse. So the answer is \\boxed{7}.",
]
ADD_TESTS = [
    {"kind": "call", "fn": "add", "args": [2, 3], "expected": 5},
    {"kind": "assert", "code": "assert add(-1, 1) == 0"},
]
CODE_LABEL = json.dumps({"domain": "code", "tests": ADD_TESTS})


url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_LEAN__IS_ENABLED": "false"}, needs_docker=True
)


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    backend = Tokenizer(models.BPE())
    # Folds runs of spaces, as tokenizers with normalizers do: a prompt with a doubled space
    # comes back from `decode` with a single one, so the query does not start with it verbatim.
    backend.normalizer = normalizers.Replace(Regex(" {2,}"), " ")
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    backend.train_from_iterator(CORPUS, trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        chat_template=CHATML,
    )


class ScriptedEngine:
    """Stands in for OpenRLHF's vLLM engine: returns a fixed completion, then the stop token."""

    def __init__(self, tokenizer: Any, completion: str) -> None:
        ids = tokenizer(completion, add_special_tokens=False)["input_ids"]
        self.token_ids = [*ids, tokenizer.eos_token_id]

    async def generate(self, prompt_token_ids: list[int], params: Any, **_: Any) -> Any:
        output = SimpleNamespace(token_ids=self.token_ids, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[output])


async def rollout_reward(
    url: str, tokenizer: Any, question: str, completion: str, label: str
) -> dict[str, Any]:
    """One sample through `SingleTurnAgentExecutor.execute`, as OpenRLHF's rollout runs it."""
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": question}], tokenize=False, add_generation_prompt=True
    )
    executor = SingleTurnAgentExecutor(remote_rm_url=f"{url}/openrlhf")
    params = SimpleNamespace(max_tokens=512, logprobs=None)
    output: dict[str, Any] = await executor.execute(
        prompt, label, params, 4096, tokenizer, ScriptedEngine(tokenizer, completion)
    )
    decoded = tokenizer.decode(output["observation_tokens"], skip_special_tokens=False)
    assert decoded.endswith("<|im_end|>")  # the shape issue 13 is about
    assert decoded.startswith(prompt) is ("  " not in question)
    assert output["reward"] is not None, "OpenRLHF got no reward (see its log)"
    return output


@pytest.mark.parametrize(
    ("completion", "reward"),
    [
        ("```python\ndef add(a, b):\n    return a + b\n```", 1.0),  # fence, then <|im_end|>
        ("Here:\n```python\ndef add(a, b):\n    return a + b\n```\n", 1.0),
        ("```python\ndef add(a, b):\n    return a - b\n```", 0.0),
        ("I refuse.", 0.0),
    ],
)
async def test_code_rewards_through_openrlhfs_own_rollout(
    url: str, tokenizer: Any, completion: str, reward: float
) -> None:
    output = await rollout_reward(
        url, tokenizer, "Write add(a, b) in Python.", completion, CODE_LABEL
    )
    assert output["reward"] == [reward]
    assert output["scores"] == [reward]
    assert output["extra_logs"]["verifier_error"] == [0.0]


@pytest.mark.parametrize(
    "question",
    [
        "Fix this:\n```python\ndef add(a, b):\n    return a + b\n```\nWrite add(a, b).",
        # a doubled space: the decoded query no longer starts with the prompt verbatim
        "Fix this:\n```python\ndef add(a, b):\n    return a + b\n```\nWrite  add(a, b).",
    ],
)
async def test_the_prompts_own_code_block_is_never_judged(
    url: str, tokenizer: Any, question: str
) -> None:
    output = await rollout_reward(url, tokenizer, question, "I refuse.", CODE_LABEL)
    assert output["reward"] == [0.0]


async def test_math_through_openrlhfs_own_rollout_with_respaced_prompt(
    url: str, tokenizer: Any
) -> None:
    # The decoded query has "3 + 4" where the prompt has "3  +  4": not verbatim, but the same
    # up to whitespace.
    question = "What is 3  +  4? Put the answer in \\boxed{}."
    output = await rollout_reward(url, tokenizer, question, "So the answer is \\boxed{7}.", "7")
    assert output["reward"] == [1.0]
    assert output["extra_logs"]["verifier_prompt_mismatch"] == [0.0]


async def test_openrlhfs_http_client_with_a_bos_and_a_mangled_prompt(url: str) -> None:
    """`_fetch_rewards_via_http` is what `execute` calls; here with queries a Llama tokenizer
    would give (a `<s>` the prompt lacks) and one whose prompt is not at its start."""
    prompt = "<|user|>Example: \\boxed{7}. What is 3+4?<|assistant|>"
    executor = SingleTurnAgentExecutor(remote_rm_url=f"{url}/openrlhf")
    queries = [
        f"<s>{prompt} So \\boxed{{7}}</s>",
        f"<s>{prompt} \\boxed{{8}}</s>",
        "<|user|>Example: \\boxed{7}. What is 5+2?<|assistant|> I refuse.</s>",
    ]
    labels = ["7", json.dumps({"domain": "math", "answer": "7"}), "7"]
    (info,) = await executor._fetch_rewards_via_http(queries, [prompt] * 3, labels)
    assert info["rewards"] == [1.0, 0.0, 0.0]
    assert info["extra_logs"]["verifier_prompt_mismatch"] == [0.0, 0.0, 1.0]
    assert info["extra_logs"]["verifier_error"] == [0.0, 0.0, 1.0]


_RESTATED = "Write $2\\sin x\\cos x$ as one trigonometric function."


@pytest.mark.parametrize(
    ("prompt", "completion", "reward"),
    [
        (_RESTATED, "So \\boxed{2\\sin x\\cos x}.", 0.0),  # the problem's own expression
        (_RESTATED, "So \\boxed{\\sin(2x)}.", 1.0),
        ("Simplify.", "So \\boxed{2\\sin x\\cos x}.", 1.0),  # equivalent, and not restated
    ],
)
async def test_an_answer_restating_the_prompts_expression_earns_nothing(
    url: str, tokenizer: Any, prompt: str, completion: str, reward: float
) -> None:
    """The prompt goes to the math verifier as the item's `problem`: `2\\sin x\\cos x` equals
    the ground truth `\\sin(2x)`, but it is the problem's own expression, so it is refused;
    under a prompt without it, it is paid."""
    output = await rollout_reward(url, tokenizer, prompt, completion, "\\sin(2x)")
    assert output["reward"] == [reward]
    assert output["extra_logs"]["verifier_error"] == [0.0]
