"""Model builders only tests need (the runtime's built-ins live in `rlvr_train.models`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rlvr_train.models import train_tiny_tokenizer


def tiny_reward_model(path: Path, corpus: list[str]) -> Path:
    """A random one-layer sequence-classification checkpoint with its tokenizer: any reward
    model will do where a test only needs TRL to load and call one."""
    from transformers import LlamaConfig, LlamaForSequenceClassification

    tokenizer = train_tiny_tokenizer(corpus, vocab_size=64)
    config = LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, pad_token_id=tokenizer.pad_token_id,
    )  # fmt: skip
    config.num_labels = 1
    LlamaForSequenceClassification(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def load_gguf(gguf_path: Path) -> object:
    """The GGUF checkpoint as transformers loads it (marked quantized): the reference the
    dequantised plain copy is compared with."""
    import torch
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(
        str(gguf_path.parent), gguf_file=gguf_path.name, dtype=torch.float32
    )


# The tool call a `tool_calling_tiny_model` writes, whatever the prompt: TRL's Qwen2.5 format.
TOOL_CALL_CODE = "print(6 * 7)"
TOOL_CALL_TEXT = (
    '<tool_call>\n{"name": "python", "arguments": {"code": "' + TOOL_CALL_CODE + '"}}\n'
    "</tool_call><|im_end|>"
)


def tool_calling_tiny_model(
    path: Path, prompts: list[list[dict]], max_steps: int = 300, lr: float = 3e-3
) -> Path:
    """A `tiny` tool-calling model (ChatML, TRL's Qwen2.5 template) taught to answer every one of
    `prompts`, rendered with the `python` tool as GRPOTrainer renders them, with
    `TOOL_CALL_TEXT`: a few seconds of supervised steps on that text alone (loss on the call's
    tokens only), until greedy decoding writes it. A random model never emits a well-formed
    call, so without this a GRPO test of the tool loop would see no tool call at all."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.adapters.trl import PythonSandbox
    from rlvr_train.models import build_tiny_model
    from rlvr_train.tools import tool_chat_template

    tool = PythonSandbox().python
    from transformers.utils import get_json_schema

    # The tool's schema and the template's tool text in the corpus: the BPE merges their words,
    # which keeps the rendered prompts (and every step) short.
    corpus = [TOOL_CALL_TEXT, tool_chat_template(), json.dumps(get_json_schema(tool))] * 4
    corpus += [m["content"] for prompt in prompts for m in prompt]
    build_tiny_model(corpus, path, hidden_size=64, num_layers=2, vocab_size=1024, seed=0,
                     tool_calling=True)  # fmt: skip
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    target = tokenizer(TOOL_CALL_TEXT, add_special_tokens=False)["input_ids"]
    rendered = [
        tokenizer.apply_chat_template(
            p, tools=[tool], add_generation_prompt=True, tokenize=True, return_dict=False
        )
        for p in prompts
    ]
    torch.manual_seed(0)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    keep = len(target) + 1  # logits of the call's tokens only: the prompt needs none
    for step in range(max_steps):
        batch = [rendered[(step * 4 + i) % len(rendered)] + target for i in range(4)]
        width = max(len(ids) for ids in batch)
        # Left padding puts every call at the end, where `logits_to_keep` takes its logits.
        input_ids = torch.tensor([[tokenizer.pad_token_id] * (width - len(x)) + x for x in batch])
        attention = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in batch])
        positions = (attention.cumsum(-1) - 1).clamp(min=0)
        logits = model(
            input_ids=input_ids, attention_mask=attention, position_ids=positions,
            logits_to_keep=keep,
        ).logits[:, :-1]  # fmt: skip
        labels = torch.tensor(target).expand(len(batch), -1)
        loss = torch.nn.functional.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), labels.reshape(-1)
        )
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if os.environ.get("RLVR_DEBUG_SFT"):
            print(step, round(loss.item(), 4), flush=True)
        if loss.item() < 0.02:
            break
    model.eval()
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path
