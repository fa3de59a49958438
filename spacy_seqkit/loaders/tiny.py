"""A tiny randomly initialised CamemBERT in the Hugging Face layout, for tests and for
trying a curated-transformers config without the real weights."""

import json
from pathlib import Path
from typing import Any, Dict, Iterable, Union

from ..util import check_choice, check_divisible, check_int, check_positive_int
from .camembert import CONFIG_FILE, FAIRSEQ_OFFSET, SENTENCEPIECE_FILE, WEIGHT_FILES


def build_tiny_camembert(
    directory: Union[str, Path],
    texts: Iterable[str],
    *,
    n_layers: int = 2,
    width: int = 32,
    n_heads: int = 2,
    intermediate_width: int = 64,
    n_pieces: int = 1000,
    max_position_embeddings: int = 514,
    weights: str = "safetensors",
    seed: int = 0,
) -> Path:
    """Write a small randomly initialised CamemBERT in the Hugging Face layout:
    a BPE sentencepiece model trained on `texts`, a config.json and RoBERTa-named
    weights.

    For tests and for trying the `trf` workflow without the real weights; its
    predictions mean nothing until trained.
    """
    import io

    import sentencepiece
    import torch

    for name, value in (
        ("n_layers", n_layers),
        ("width", width),
        ("n_heads", n_heads),
        ("intermediate_width", intermediate_width),
        ("n_pieces", n_pieces),
    ):
        check_positive_int(name, value)
    check_choice("weights", weights, ("safetensors", "bin"))
    check_divisible("width", width, "n_heads", n_heads)
    # RoBERTa's positions start after the padding index (1), so 3 is the least that holds one token.
    check_int("max_position_embeddings", max_position_embeddings, 3)
    texts = [t for t in texts if t.strip()]
    if not texts:
        raise ValueError("'texts' has no non-empty sentence to train the tokenizer on")

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    spm_bytes = io.BytesIO()
    # CamemBERT's own sentencepiece ids: <unk> 0, <s> 1, </s> 2, no padding piece.
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(texts),
        model_writer=spm_bytes,
        model_type="bpe",
        vocab_size=n_pieces,
        hard_vocab_limit=False,
        character_coverage=1.0,
        unk_id=0,
        bos_id=1,
        eos_id=2,
        pad_id=-1,
        num_threads=1,
        shuffle_input_sentence=False,
        minloglevel=2,
    )
    (directory / SENTENCEPIECE_FILE).write_bytes(spm_bytes.getvalue())
    pieces = sentencepiece.SentencePieceProcessor(model_proto=spm_bytes.getvalue()).get_piece_size()
    config = {
        "architectures": ["CamembertForMaskedLM"],
        "model_type": "camembert",
        "vocab_size": pieces + FAIRSEQ_OFFSET + 1,  # + <mask>
        "hidden_size": width,
        "intermediate_size": intermediate_width,
        "num_hidden_layers": n_layers,
        "num_attention_heads": n_heads,
        "max_position_embeddings": max_position_embeddings,
        "type_vocab_size": 1,
        "pad_token_id": 1,
        "bos_token_id": 5,
        "eos_token_id": 6,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "layer_norm_eps": 1e-5,
        "initializer_range": 0.02,
    }
    (directory / CONFIG_FILE).write_text(json.dumps(config, indent=2) + "\n", encoding="utf8")
    state = _random_roberta_state(config, torch.Generator().manual_seed(seed))
    for name in WEIGHT_FILES:  # one checkpoint, so which one is read is never in doubt
        (directory / name).unlink(missing_ok=True)
    if weights == "safetensors":
        from safetensors.torch import save_file

        save_file(state, str(directory / "model.safetensors"))
    else:
        torch.save(state, str(directory / "pytorch_model.bin"))
    return directory


def _random_roberta_state(config: Dict[str, Any], generator) -> Dict[str, Any]:
    """Weights named as in a Hugging Face CamembertForMaskedLM checkpoint."""
    import torch

    h, i, v = config["hidden_size"], config["intermediate_size"], config["vocab_size"]
    std = config["initializer_range"]

    def normal(*shape):
        return torch.randn(*shape, generator=generator) * std

    state: Dict[str, Any] = {}

    def dense(name: str, n_out: int, n_in: int) -> None:
        state[f"{name}.weight"] = normal(n_out, n_in)
        state[f"{name}.bias"] = torch.zeros(n_out)

    def layer_norm(name: str, n: int) -> None:
        state[f"{name}.weight"] = torch.ones(n)
        state[f"{name}.bias"] = torch.zeros(n)

    state["roberta.embeddings.word_embeddings.weight"] = normal(v, h)
    state["roberta.embeddings.position_embeddings.weight"] = normal(config["max_position_embeddings"], h)
    state["roberta.embeddings.token_type_embeddings.weight"] = normal(config["type_vocab_size"], h)
    layer_norm("roberta.embeddings.LayerNorm", h)
    for layer in range(config["num_hidden_layers"]):
        p = f"roberta.encoder.layer.{layer}."
        for name in ("query", "key", "value"):
            dense(f"{p}attention.self.{name}", h, h)
        dense(f"{p}attention.output.dense", h, h)
        layer_norm(f"{p}attention.output.LayerNorm", h)
        dense(f"{p}intermediate.dense", i, h)
        dense(f"{p}output.dense", h, i)
        layer_norm(f"{p}output.LayerNorm", h)
    # The masked-LM head of the real checkpoint: the loader must skip it.
    dense("lm_head.dense", h, h)
    layer_norm("lm_head.layer_norm", h)
    state["lm_head.bias"] = torch.zeros(v)
    return state
