"""spacy-seqkit.AttentionEncoder.v1 as a thinc Model: a pre-LayerNorm
transformer encoder over token vectors (the stack of `attention/blocks.py`,
with the full / local / linear self-attention of `attention/modes.py` and the
positions of `attention/positions.py`).

Docs are grouped into buckets of similar length (`convert.bucketed_index`), so
one long doc does not pad every short doc to its length; padding never changes
a result.
"""

from typing import List

from thinc.api import Model
from thinc.types import Floats2d

from .attention import POSITIONS, AttentionEncoderConfig, AttentionStack
from .convert import ListEncoder, bucketed_index, check_widths


def AttentionEncoder(config: AttentionEncoderConfig) -> Model[List[Floats2d], List[Floats2d]]:
    """Build the encoder as a thinc Model over lists of (n_tokens, width) arrays."""
    return ListEncoder(
        "seqkit_attention_encoder",
        AttentionStack(config),
        bucketed_index,
        config.width,
        check_inputs,
        attrs={
            "attention": config.attention,
            "positions": config.positions,
            "window": config.window,
            "max_length": config.max_length if POSITIONS[config.positions].bounded else None,
        },
    )


def check_inputs(model: Model, Xs: List[Floats2d]) -> None:
    check_widths(model, Xs, "AttentionEncoder")
    max_length = model.attrs["max_length"]
    if max_length is not None:
        longest = max(X.shape[0] for X in Xs)
        if longest > max_length:
            raise ValueError(
                f"AttentionEncoder: a doc has {longest} tokens but learned positions "
                f"cover only max_length={max_length}; raise 'max_length' or use "
                'positions = "sinusoidal" (any length)'
            )
