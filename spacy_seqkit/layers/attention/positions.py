"""Positions added to the inputs of the attention stacks, one table
(`POSITIONS`): sinusoidal (any length), learned (up to `max_length`) or none.
Each adds the encoding of positions offset, offset + 1, ... (incremental
decoding passes the offset of its new positions)."""

from typing import Dict, Type, Union

import torch


def sinusoidal_positions(length: int, width: int, device=None, dtype=None):
    """The Transformer paper's encoding: PE[pos, 2i] = sin(pos / 10000^(2i/width)),
    PE[pos, 2i+1] = cos(pos / 10000^(2i/width)). Returns a (length, width) tensor."""
    pos = torch.arange(length, dtype=torch.float64, device=device)[:, None]
    two_i = torch.arange(0, width, 2, dtype=torch.float64, device=device)
    angles = pos / torch.pow(10000.0, two_i / width)
    pe = torch.zeros(length, width, dtype=torch.float64, device=device)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles[:, : width // 2])
    return pe.to(dtype or torch.get_default_dtype())


class SinusoidalPositions(torch.nn.Module):
    """Adds the Transformer paper's fixed encoding: any length."""

    bounded = False

    def __init__(self, width: int, max_length: int):
        super().__init__()
        self.width = width

    def forward(self, X: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """X (batch, len, width) at positions offset, offset + 1, ..."""
        pe = sinusoidal_positions(offset + X.shape[1], self.width, X.device, X.dtype)
        return X + pe[offset:]


class LearnedPositions(torch.nn.Embedding):
    """Adds a learned vector per position, up to `max_length` (an Embedding,
    so its weight keeps the name and the random draws it always had)."""

    bounded = True

    def __init__(self, width: int, max_length: int):
        super().__init__(max_length, width)
        torch.nn.init.normal_(self.weight, std=0.02)

    def forward(self, X: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return X + self.weight[offset : offset + X.shape[1]]


class NoPositions(torch.nn.Module):
    """Adds nothing: the encoder sees a bag of tokens."""

    bounded = False

    def __init__(self, width: int, max_length: int):
        super().__init__()

    def forward(self, X: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return X


Positions = Union[SinusoidalPositions, LearnedPositions, NoPositions]

POSITIONS: Dict[str, Type[Positions]] = {
    "sinusoidal": SinusoidalPositions,
    "learned": LearnedPositions,
    "none": NoPositions,
}
