"""The decoder's attention over the encoder memory: Luong's dot, general and
concat scores (Luong et al. 2015) and Bahdanau's additive attention (Bahdanau
et al. 2015), one table (`DECODER_ATTENTIONS`) of classes built as
`cls(hidden_width)` with one shared interface:

- `prepare_keys(memory) -> keys`, once per source (the memory's projection);
- `score(query, keys) -> scores` (B, S), at every decoder step;
- `input_feeding` (a declared property): True for Luong, which attends with the
  LSTM's new output and feeds the attentional vector to the next step; False
  for Bahdanau, which attends with the previous decoder state before the LSTM
  step and feeds the context to the LSTM.

The weights are an explicit softmax rather than scaled_dot_product_attention:
the copy mechanism needs the attention weights themselves.
"""

from typing import Dict, Tuple, Type

import torch


class DotAttention(torch.nn.Module):
    """Luong dot: score = query · memory_s."""

    input_feeding = True

    def __init__(self, hidden_width: int):
        super().__init__()

    def prepare_keys(self, memory: torch.Tensor) -> torch.Tensor:
        return memory

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        # Products and sums rather than bmm with an inner size of 1: the same
        # maths, but bmm's backward for one decoder step is several times slower.
        return (keys * query[:, None, :]).sum(-1)

    def forward(self, query, keys, memory, mask) -> Tuple[torch.Tensor, torch.Tensor]:
        """(attention weights (B, S), context (B, H)); masked positions get 0."""
        scores = self.score(query, keys)
        attn = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
        ctx = (attn[:, :, None] * memory).sum(1)
        return attn, ctx


class GeneralAttention(DotAttention):
    """Luong general: score = query · W memory_s."""

    def __init__(self, hidden_width: int):
        super().__init__(hidden_width)
        self.key = torch.nn.Linear(hidden_width, hidden_width, bias=False)

    def prepare_keys(self, memory: torch.Tensor) -> torch.Tensor:
        return self.key(memory)


class ConcatAttention(GeneralAttention):
    """Luong concat: score = v · tanh(W memory_s + U query)."""

    def __init__(self, hidden_width: int):
        super().__init__(hidden_width)
        self.query = torch.nn.Linear(hidden_width, hidden_width)
        self.v = torch.nn.Linear(hidden_width, 1, bias=False)

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        return self.v(torch.tanh(keys + self.query(query)[:, None, :]))[:, :, 0]


class BahdanauAttention(ConcatAttention):
    """Bahdanau: the concat score, with the previous decoder state as query."""

    input_feeding = False


DECODER_ATTENTIONS: Dict[str, Type[DotAttention]] = {
    "dot": DotAttention,
    "general": GeneralAttention,
    "concat": ConcatAttention,
    "bahdanau": BahdanauAttention,
}
