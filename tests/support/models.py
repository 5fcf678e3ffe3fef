"""Model builders only tests need (the runtime's built-ins live in `rlvr_train.models`)."""

from __future__ import annotations

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
