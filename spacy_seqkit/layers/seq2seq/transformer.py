"""The Transformer rewriter's torch module: encoder (`transformer_encoder.py`),
decoder (`transformer_decoder.py`), the output layer of the shared table with
the target embedding tied to it where it has one vector per unit, and the copy
mechanism reading the last layer's cross-attention weights (mean over heads),
and optionally CopyNet's selective read (`selective_read`): a written unit's
input to the decoder also carries the encoder states of the source positions
that hold it.

Training (`forward`) runs the decoder over the whole gold target in one
parallel pass (teacher forcing) with label smoothing; inference plugs into the
searches of `decoding.py` through `decode_step` (incremental, with the
key/value cache in the state) or `decode_step_uncached` (the whole prefix again
at every step), and `reorder`, which moves the cache with the beams.
"""

from typing import Any, Dict, List, Optional, cast

import torch

from ..output_layers import build_output_layer
from .config import TransformerRewriterConfig
from .copy import CopyMechanism
from .readout import Readout
from .transformer_decoder import TransformerDecoder
from .transformer_encoder import TransformerEncoder
from .units import UNK, UnitVocabularies

# State entries that belong to the source: the same for every beam of an item.
SOURCE_STATE = ("memory", "mask", "cross", "src_ext", "src_alt")


class TransformerModule(torch.nn.Module, Readout):
    """Encoder, decoder, output layer and copy; search lives in decoding.py.
    `units`, the vocabularies it was built from, holds their lookups."""

    def __init__(self, config: TransformerRewriterConfig, units: UnitVocabularies, source_width: int = 0):
        super().__init__()
        width = config.width
        self.config = config
        self.units = units
        self.source_width = source_width
        self.n_target = len(units.target_counts)
        self.encoder = TransformerEncoder(units.n_source, source_width, config.encoder_config(), config.previous_unit)
        self.decoder = TransformerDecoder(self.n_target, config.decoder_config())
        self.output = build_output_layer(
            config.output_layer, width, self.n_target, units.target_counts, config.n_samples
        )
        if self.output.unit_vectors:
            self.output.tie(cast(torch.nn.Parameter, self.decoder.embed.weight))
        self.copy = CopyMechanism(width, width) if config.copy else None
        self.selective = torch.nn.Linear(width, width) if config.selective_read else None

    @property
    def max_target_length(self) -> Optional[int]:
        """The longest target the positions cover (None: any)."""
        return self.decoder.max_length

    def encode(self, src, index, lengths: List[int], src_ext=None, n_ext: int = 0, src_alt=None) -> Dict:
        """Encode padded sources (lengths include the end marker) into the
        decoder's initial state: one row per batch item, an empty cache."""
        memory, mask = self.encoder(src, index, lengths)
        state: Dict[str, Any] = {
            "memory": memory,
            "mask": mask,
            "cross": self.decoder.memory_heads(memory),
            "cache": self.decoder.empty_cache(memory),
            "n_ext": max(n_ext, self.n_target),
        }
        if self.copy is not None:
            state["src_ext"] = src_ext
            state["src_alt"] = src_ext if src_alt is None else src_alt
        return state

    def in_vocabulary(self, tokens: torch.Tensor) -> torch.Tensor:
        """Copied units of the extended vocabulary are fed back as UNK."""
        return torch.where(tokens >= self.n_target, torch.full_like(tokens, UNK), tokens)

    def decode(self, tokens: torch.Tensor, state: Dict, cache=None, weights: str = "none"):
        """The decoder over written units `tokens` (rows, len) of the extended
        vocabulary, after `cache` if given."""
        return self.decoder(
            self.in_vocabulary(tokens),
            state["cross"],
            state["mask"],
            cache,
            weights=weights,
            extra=self.selective_read(tokens, state),
        )

    def selective_read(self, tokens: torch.Tensor, state: Dict) -> Optional[torch.Tensor]:
        """CopyNet's selective read (Gu et al. 2016): for each written unit
        (rows, len), the mean encoder state of the source positions holding it
        (in either case form), projected; zeros for a unit the source lacks.
        None without `selective_read`."""
        if self.selective is None:
            return None
        t = tokens[:, :, None]
        held = (state["src_ext"][:, None, :] == t) | (state["src_alt"][:, None, :] == t)
        held = held & state["mask"][:, None, :] & (t > UNK)  # specials read nothing
        weights = held.to(state["memory"].dtype)
        weights = weights / weights.sum(-1, keepdim=True).clamp_min(1.0)
        return self.selective(weights @ state["memory"])

    def read_out(self, decoded, state: Dict, position: slice):
        """(o, attn, ctx, emb) of the decoded positions: attention weights are
        the last layer's cross-attention, averaged over heads (copy only)."""
        o, emb = decoded.outputs[:, position], decoded.inputs[:, position]
        if self.copy is None:
            return o, None, None, emb
        attn = decoded.weights[-1][:, :, position].mean(1)
        return o, attn, attn @ state["memory"], emb

    def decode_step(self, tokens, state: Dict):
        """One incremental step: the new position attends to the cache."""
        decoded = self.decode(
            tokens[:, None], state, state["cache"], weights="last" if self.copy is not None else "none"
        )
        o, attn, ctx, emb = (x if x is None else x[:, 0] for x in self.read_out(decoded, state, slice(-1, None)))
        return self.full_log_probs(o, attn, ctx, emb, state), dict(state, cache=decoded.cache)

    def decode_step_uncached(self, tokens, state: Dict):
        """The same step, recomputing the whole prefix (kept in the state)."""
        prefix = tokens[:, None] if "prefix" not in state else torch.cat([state["prefix"], tokens[:, None]], 1)
        decoded = self.decode(prefix, state, weights="last" if self.copy is not None else "none")
        o, attn, ctx, emb = (x if x is None else x[:, 0] for x in self.read_out(decoded, state, slice(-1, None)))
        return self.full_log_probs(o, attn, ctx, emb, state), dict(state, prefix=prefix)

    @staticmethod
    def reorder(state: Dict, index, beams_only: bool) -> Dict:
        """Select rows of every per-row tensor, the cache's included; the
        source's entries only move when rows change batch item."""
        return {
            key: value if beams_only and key in SOURCE_STATE else select_rows(value, index)
            for key, value in state.items()
        }

    def teacher_forcing(self, tgt, state: Dict, weights: str = "last"):
        """The decoder over the gold targets (B, T + 1), every position at once."""
        return self.decode(tgt[:, :-1], state, weights=weights if self.copy is not None or weights == "all" else "none")

    def forward(self, src, index, lengths, tgt, src_ext, n_ext, ss_prob, label_smoothing, src_alt=None):
        """Mean loss per gold target unit (shape (1,)); tgt is (B, T) with BOS
        first, EOS last, PAD after. (No scheduled sampling: `ss_prob` is unused.)"""
        state = self.encode(src, index, lengths, src_ext, n_ext, src_alt)
        steps = self.read_out(self.teacher_forcing(tgt, state), state, slice(None))
        return self.mean_gold_loss(
            tgt, lambda i: steps[i].flatten(0, 1), src_ext, state.get("src_alt"), label_smoothing
        )


def select_rows(value, index):
    """Rows `index` of a tensor, of each tensor in a list or tuple; anything
    else as it is."""
    if isinstance(value, torch.Tensor):
        return value.index_select(0, index)
    if isinstance(value, (list, tuple)):
        return type(value)(select_rows(v, index) for v in value)
    return value
