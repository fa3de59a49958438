"""The decoder's read-out, shared by the recurrent and the Transformer rewriters:
from decoder outputs to log-probabilities over the (extended) target
vocabulary at inference, and to the mean loss per gold unit in training,
through the output layer (`../output_layers.py`) and the copy mechanism.

Both modules mix in `Readout` and hold `output` (the output layer), `copy` (a
CopyMechanism or None) and `n_target`. A decoder step gives, per row, the
output `o`, the attention weights over the source `attn`, the context `ctx`
and the input embedding `emb` (the copy mechanism's gates read them).
"""

from typing import Callable, Dict, Optional

import torch

from ..output_layers import OutputLayer
from .copy import CopyMechanism
from .units import BOS, PAD


class Readout:
    output: OutputLayer
    copy: Optional[CopyMechanism]
    n_target: int

    def full_log_probs(self, o, attn, ctx, emb, state: Dict) -> torch.Tensor:
        """(rows, n_ext) log-probabilities; PAD and BOS are never produced."""
        lp = self.output.log_probs(o)
        lp = lp.index_fill(1, torch.tensor([PAD, BOS], device=lp.device), float("-inf"))
        if self.copy is None:
            return lp
        return self.copy.log_probs(lp, o, attn, ctx, emb, state["src_ext"], state["src_alt"], state["n_ext"])

    def mean_gold_loss(
        self, tgt, rows: Callable[[int], torch.Tensor], src_ext, src_alt, label_smoothing: float
    ) -> torch.Tensor:
        """Mean loss per gold target unit (shape (1,)). `tgt` (B, T + 1) has BOS
        first, EOS last, PAD after; `rows(i)` gives the (B × T, ...) rows of the
        step outputs (0: o, 1: attn, 2: ctx, 3: emb), target position by
        target position within each batch item."""
        B, T = tgt.shape[0], tgt.shape[1] - 1
        y = tgt[:, 1:].reshape(-1)
        keep = (y != PAD).nonzero()[:, 0]
        y = y[keep]
        H = rows(0)[keep]
        if self.copy is None:
            loss = self.output.loss(H, y, label_smoothing)
        else:
            A, C, E = rows(1)[keep], rows(2)[keep], rows(3)[keep]
            ext = src_ext[:, None, :].expand(B, T, -1).flatten(0, 1)[keep]
            alt = src_alt[:, None, :].expand(B, T, -1).flatten(0, 1)[keep]
            loss = self.copy.gold_loss(self.output, self.n_target, H, A, C, E, y, ext, alt, label_smoothing)
        return (loss.sum() / max(int(y.shape[0]), 1)).reshape(1)
