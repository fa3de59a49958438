"""The recurrent rewriter's torch module: encoder, decoder attention, LSTM (or
GRU) decoder, output layer and optional copy mechanism, built from a
`RecurrentModuleConfig`.

Training (`forward`) computes the mean loss per target unit with teacher
forcing and scheduled sampling; inference uses `decode_step` and `reorder`
with the searches of `decoding.py`, which live outside the module.
"""

from dataclasses import dataclass
from typing import Dict, List, Mapping, Sequence, Tuple

import torch

from ..output_layers import build_output_layer
from .attention import DECODER_ATTENTIONS
from .copy import CopyMechanism
from .encoder import RECURRENT_CELLS, RecurrentEncoder, has_cell_state
from .readout import Readout
from .units import PAD, UNK, UnitVocabularies


@dataclass(frozen=True)
class RecurrentModuleConfig:
    """Sizes and choices of the torch module (as nanoGPT's GPTConfig)."""

    n_source: int  # source units to embed; 0: token vectors of source_width
    source_width: int
    target_counts: Sequence[float]  # one per target unit (Huffman tree, noise)
    embed_width: int
    hidden_width: int
    depth: int
    dropout: float
    attention: str  # a name in DECODER_ATTENTIONS
    output_layer: str  # a name in OUTPUT_LAYERS (or an alias)
    n_samples: int
    copy: bool
    cell: str = "lstm"  # a name in RECURRENT_CELLS


class RecurrentModule(torch.nn.Module, Readout):
    """Encoder, attention, decoder and output layer; search lives in decoding.py.
    `units`, the vocabularies it was built from, holds their lookups."""

    def __init__(self, config: RecurrentModuleConfig, units: UnitVocabularies):
        super().__init__()
        H, E = config.hidden_width, config.embed_width
        self.config = config
        self.units = units
        self.n_target = len(config.target_counts)
        self.hidden_width = H
        self.source_width = config.source_width
        self.has_cell_state = has_cell_state(config.cell)
        # Parameters are created in this order: it is the order in which they
        # draw from the seeded RNG.
        self.encoder = RecurrentEncoder(
            config.n_source, config.source_width, E, H, config.depth, config.dropout, config.cell
        )
        self.tgt_embed = torch.nn.Embedding(self.n_target, E, padding_idx=PAD)
        lstm_drop = config.dropout if config.depth > 1 else 0.0
        self.decoder = RECURRENT_CELLS[config.cell](E + H, H, num_layers=config.depth, dropout=lstm_drop)
        self.attention = DECODER_ATTENTIONS[config.attention](H)
        # Attending before the LSTM step (Bahdanau), the output also sees the input.
        self.combine = torch.nn.Linear(2 * H + (0 if self.attention.input_feeding else E), H)
        self.output = build_output_layer(config.output_layer, H, self.n_target, config.target_counts, config.n_samples)
        self.copy = CopyMechanism(H, E) if config.copy else None
        self.drop = torch.nn.Dropout(config.dropout)
        self._register_load_state_dict_pre_hook(_upgrade_old_keys)

    def encode(self, src, index, lengths: List[int], src_ext=None, n_ext: int = 0, src_alt=None) -> Dict:
        """Encode padded sources (lengths include the end marker) into the
        decoder's initial state: one row per batch item."""
        encoded = self.encoder(src, index, lengths)
        memory = encoded.memory
        state = {
            "h": encoded.h,
            **({"c": encoded.c} if self.has_cell_state else {}),
            "feed": memory.new_zeros(len(lengths), self.hidden_width),
            "memory": memory,
            "keys": self.attention.prepare_keys(memory),
            "mask": encoded.mask,
            "n_ext": max(n_ext, self.n_target),
        }
        if self.copy is not None:
            state["src_ext"] = src_ext
            state["src_alt"] = src_ext if src_alt is None else src_alt
        return state

    def step_hidden(self, prev, state):
        """Feed the previous units; return (output, attention, context, input
        embedding, new state)."""
        prev = torch.where(prev >= self.n_target, torch.full_like(prev, UNK), prev)
        emb = self.drop(self.tgt_embed(prev))
        attend = self.attention
        if attend.input_feeding:
            out, hc = self.run_cell(torch.cat([emb, state["feed"]], -1), state)
            attn, ctx = attend(out[0], state["keys"], state["memory"], state["mask"])
            o = torch.tanh(self.combine(torch.cat([ctx, out[0]], -1)))
        else:
            attn, ctx = attend(state["h"][-1], state["keys"], state["memory"], state["mask"])
            out, hc = self.run_cell(torch.cat([emb, ctx], -1), state)
            o = torch.tanh(self.combine(torch.cat([out[0], ctx, emb], -1)))
        o = self.drop(o)
        new_state = dict(state, **hc, feed=o)
        return o, attn, ctx, emb, new_state

    def run_cell(self, inputs, state):
        """One step of the recurrent decoder: (output (1, rows, H), {"h", "c"}
        or {"h"} for a GRU)."""
        if self.has_cell_state:
            out, (h, c) = self.decoder(inputs[None], (state["h"], state["c"]))
            return out, {"h": h, "c": c}
        out, h = self.decoder(inputs[None], state["h"])
        return out, {"h": h}

    def decode_step(self, tokens, state):
        o, attn, ctx, emb, state = self.step_hidden(tokens, state)
        return self.full_log_probs(o, attn, ctx, emb, state), state

    @staticmethod
    def reorder(state: Dict, index, beams_only: bool) -> Dict:
        """Select rows of every per-row tensor; the encoder memory only moves
        when rows change batch item (beams of one item share it)."""
        fixed = ("memory", "keys", "mask", "src_ext", "src_alt")
        new = {}
        for key, value in state.items():
            if not isinstance(value, torch.Tensor) or (beams_only and key in fixed):
                new[key] = value
            elif key in ("h", "c"):
                new[key] = value.index_select(1, index)
            else:
                new[key] = value.index_select(0, index)
        return new

    def teacher_forcing(self, tgt, state, ss_prob: float):
        """Run the decoder along the gold targets (B, T + 1); with probability
        `ss_prob` a step is fed the model's own previous guess instead
        (scheduled sampling). Returns the (o, attn, ctx, emb) of each step."""
        B, T = tgt.shape[0], tgt.shape[1] - 1
        steps: List[Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]] = []
        prev = tgt[:, 0]
        for t in range(T):
            if t > 0:
                prev = tgt[:, t]
                if ss_prob > 0:
                    with torch.no_grad():
                        guess = self.full_log_probs(*steps[-1], state).argmax(-1)
                    use_guess = torch.rand(B, device=guess.device) < ss_prob
                    prev = torch.where(use_guess, guess, prev)
            o, attn, ctx, emb, state = self.step_hidden(prev, state)
            steps.append((o, attn, ctx, emb))
        return steps

    def forward(self, src, index, lengths, tgt, src_ext, n_ext, ss_prob, label_smoothing, src_alt=None):
        """Mean loss per gold target unit (shape (1,)); tgt is (B, T) with BOS
        first, EOS last, PAD after."""
        state = self.encode(src, index, lengths, src_ext, n_ext, src_alt)
        steps = self.teacher_forcing(tgt, state, ss_prob)

        def rows(i):  # (B, T, ...) flattened in the same order as the targets
            return torch.stack([s[i] for s in steps], 1).flatten(0, 1)

        return self.mean_gold_loss(tgt, rows, src_ext, state.get("src_alt"), label_smoothing)


# Models saved before the module was split by role were one flat module: the
# old top-level names of the parts that moved into a part.
_MOVED = {
    "src_embed": "encoder.src_embed",
    "src_end": "encoder.src_end",
    "memory_proj": "encoder.memory_proj",
    "init_h": "encoder.init_h",
    "init_c": "encoder.init_c",
    "attn_key": "attention.key",
    "attn_query": "attention.query",
    "attn_v": "attention.v",
    "gen_gate": "copy.gen_gate",
    "case_gate": "copy.case_gate",
}


def upgrade_state_dict_keys(state: Mapping[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
    """The state dict of a module saved before the split, under today's keys
    (today's keys are left as they are)."""
    upgraded = {}
    for key, value in state.items():
        head, dot, rest = key.partition(".")
        if head == "encoder" and rest[:1].isdigit():  # the old list of LSTM layers
            key = "encoder.layers." + rest
        elif head in _MOVED:
            key = _MOVED[head] + dot + rest
        upgraded[key] = value
    return upgraded


def _upgrade_old_keys(state_dict, prefix, *args) -> None:
    """load_state_dict pre-hook: rename old keys in place."""
    own = [key for key in state_dict if key.startswith(prefix)]
    upgraded = upgrade_state_dict_keys({key[len(prefix) :]: state_dict.pop(key) for key in own})
    state_dict.update((prefix + key, value) for key, value in upgraded.items())
