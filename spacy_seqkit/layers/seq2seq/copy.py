"""The copy mechanism (pointer-generator, See et al. 2017), with a copy in the
other case ("marseille" in a request, "Marseille" in the rewrite).

Over the extended vocabulary (the target vocabulary, then the doc's own
source units that are not in it), with attention weights a_s over the source:

    p(w) = p_gen p_vocab(w)
           + (1 - p_gen) (1 - p_alt) Σ_{s: src_s = w} a_s
           + (1 - p_gen) p_alt       Σ_{s: alt_s = w} a_s

where p_gen says "generate rather than copy", p_alt "copy in the other case",
and alt_s is the id of source unit s in the other case. Both gates read the
decoder output, the context and the input embedding (`gates`, written once).

The mixture is read out in the two forms its users need: `log_probs`, the
whole distribution (inference, scheduled sampling), and `gold_loss`, only the
gold unit's probability (training: an approximate output layer gives p_vocab
of the gold unit without the O(V) distribution), with label smoothing over
the mixed distribution on the fixed vocabulary. Each keeps the exact float
operations of its path, so that trained models stay bit-for-bit the same.
"""

from typing import Tuple

import torch

from .units import UNK

Gates = Tuple[torch.Tensor, torch.Tensor]


class CopyMechanism(torch.nn.Module):
    def __init__(self, hidden_width: int, embed_width: int):
        super().__init__()
        width = 2 * hidden_width + embed_width
        self.gen_gate = torch.nn.Linear(width, 1)
        # A second gate says which form a copy takes.
        self.case_gate = torch.nn.Linear(width, 1)

    def gates(self, o: torch.Tensor, ctx: torch.Tensor, emb: torch.Tensor) -> Gates:
        """(p_gen, p_alt), each (rows, 1)."""
        features = torch.cat([o, ctx, emb], -1)
        return torch.sigmoid(self.gen_gate(features)), torch.sigmoid(self.case_gate(features))

    def log_probs(self, vocab_log_probs, o, attn, ctx, emb, src_ext, src_alt, n_ext: int):
        """(rows, n_ext) log p(w) of the mixture, from the output layer's
        (rows, V) log-probabilities."""
        p_gen, p_alt = self.gates(o, ctx, emb)
        rows, V = vocab_log_probs.shape
        extra = vocab_log_probs.new_zeros(rows, n_ext - V)
        p = torch.cat([p_gen * vocab_log_probs.exp(), extra], -1)
        p = p.scatter_add(1, src_ext, (1 - p_gen) * (1 - p_alt) * attn)
        p = p.scatter_add(1, src_alt, (1 - p_gen) * p_alt * attn)
        return p.log()

    def gold_loss(self, output, n_target: int, H, A, C, E, y, ext, alt, label_smoothing: float):
        """-log p(y) per gold unit y, with `output` the output layer over
        `n_target` units; rows of decoder outputs H, attention A, contexts C,
        input embeddings E, and ext / alt the copy ids of each row's source.
        Label smoothing mixes in the mean -log p over the fixed vocabulary."""
        in_vocab = y < n_target
        y_vocab = torch.where(in_vocab, y, torch.full_like(y, UNK))
        p_gen, p_alt = self.gates(H, C, E)
        p_gen = p_gen[:, 0]
        p_vocab = output.target_log_prob(H, y_vocab).exp() * in_vocab
        A_same, A_alt = A * (1 - p_alt), A * p_alt
        p_copy = (A_same * (ext == y[:, None])).sum(-1) + (A_alt * (alt == y[:, None])).sum(-1)
        loss = -(p_gen * p_vocab + (1 - p_gen) * p_copy).clamp_min(1e-12).log()
        if label_smoothing > 0:
            P = p_gen[:, None] * output.probs(H)
            for ids, weights in ((ext, A_same), (alt, A_alt)):
                ids_in = ids < n_target
                P = P.scatter_add(
                    1, torch.where(ids_in, ids, torch.zeros_like(ids)), (1 - p_gen)[:, None] * weights * ids_in
                )
            smooth = -P.clamp_min(1e-12).log().mean(-1)
            loss = (1 - label_smoothing) * loss + label_smoothing * smooth
        return loss
