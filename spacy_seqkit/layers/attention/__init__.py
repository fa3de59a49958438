"""Attention blocks shared by the attention encoder (`../attention_encoder.py`)
and the seq2seq Transformer (`../seq2seq/transformer_*.py`); the recurrent
rewriter's decoder attention is another thing, in `../seq2seq/attention.py`.

- `modes.py`: the self-attention modes (full, local, linear), their masks and
  their explicit weights, one table (`ATTENTION_MODES`);
- `positions.py`: the position encodings, one table (`POSITIONS`);
- `blocks.py`: the config, the pre-LN block (`EncoderBlock`), the stack of them
  (`AttentionStack`) and the recording of their weights, for pictures.
"""

from .blocks import AttentionEncoderConfig, AttentionStack, EncoderBlock, recorded_attention
from .modes import ATTENTION_MODES, AttentionMode, linear_attention, local_attention
from .positions import POSITIONS, sinusoidal_positions

__all__ = [
    "ATTENTION_MODES",
    "AttentionEncoderConfig",
    "AttentionMode",
    "AttentionStack",
    "EncoderBlock",
    "POSITIONS",
    "linear_attention",
    "local_attention",
    "recorded_attention",
    "sinusoidal_positions",
]
