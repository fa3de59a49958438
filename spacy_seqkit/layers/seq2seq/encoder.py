"""The recurrent rewriter's encoder: a bidirectional LSTM or GRU over the source
units (embedded units, or token vectors from a spaCy embedding model followed
by a learned end marker), and the decoder's initial state made from its last
states. `place_source` lays the token vectors out with their end markers, for
this encoder and the Transformer's."""

from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple, Type, Union, cast

import torch

from .units import PAD

# The recurrent cells, by config name; an LSTM also has a cell state.
RECURRENT_CELLS: Dict[str, Union[Type[torch.nn.LSTM], Type[torch.nn.GRU]]] = {
    "lstm": torch.nn.LSTM,
    "gru": torch.nn.GRU,
}


def has_cell_state(cell: str) -> bool:
    return RECURRENT_CELLS[cell] is torch.nn.LSTM


class Encoded(NamedTuple):
    memory: torch.Tensor  # (B, S, H) projected states, one per source position
    mask: torch.Tensor  # (B, S) True at real positions (end marker included)
    h: torch.Tensor  # (depth, B, H) the decoder's initial hidden state
    c: Optional[torch.Tensor]  # (depth, B, H) and cell state (LSTM), else None


def place_source(
    src: torch.Tensor, index: Optional[Tuple[torch.Tensor, torch.Tensor]], end: torch.Tensor, B: int, S: int
) -> torch.Tensor:
    """(B, S, width) inputs from token vectors `src` (n_tokens, width), placed at
    `index` = (token rows, end-marker rows) of the padded layout, with the
    learned `end` vector at each source's end marker."""
    if index is None:
        raise TypeError("token vectors need their 'index' in the padded layout")
    token_index, end_index = index
    W = end.shape[0]
    flat = end.new_zeros(B * S, W)
    if src.shape[0]:
        flat = flat.index_copy(0, token_index, src)
    return flat.index_copy(0, end_index, end.expand(B, W)).view(B, S, W)


class RecurrentEncoder(torch.nn.Module):
    """`depth` bidirectional layers of `cell` ("lstm" or "gru"); `n_source` > 0
    embeds unit ids, 0 takes vectors of `source_width` and appends the learned
    end marker."""

    def __init__(
        self,
        n_source: int,
        source_width: int,
        embed_width: int,
        hidden_width: int,
        depth: int,
        dropout: float,
        cell: str = "lstm",
    ):
        super().__init__()
        H, E = hidden_width, embed_width
        self.src_embed: Optional[torch.nn.Embedding]
        if n_source:
            self.src_embed = torch.nn.Embedding(n_source, E, padding_idx=PAD)
            enc_in = E
        else:
            self.src_embed = None
            self.src_end = torch.nn.Parameter(torch.zeros(source_width))
            enc_in = source_width
        # One LSTM per layer and direction, run on padded batches: the backward
        # direction reads each source reversed within its own length, so padding
        # never reaches a real position. (pack_padded_sequence would do the same,
        # but its CPU backward is quadratic in the source length.)
        rnn = RECURRENT_CELLS[cell]
        self.layers = torch.nn.ModuleList(
            torch.nn.ModuleList(rnn(enc_in if i == 0 else 2 * H, H, batch_first=True) for _ in range(2))
            for i in range(depth)
        )
        self.memory_proj = torch.nn.Linear(2 * H, H)
        self.init_h = torch.nn.Linear(2 * H, H)
        self.init_c = torch.nn.Linear(2 * H, H) if has_cell_state(cell) else None
        self.drop = torch.nn.Dropout(dropout)

    def embed(
        self, src: torch.Tensor, index: Optional[Tuple[torch.Tensor, torch.Tensor]], B: int, S: int
    ) -> torch.Tensor:
        """(B, S, width) inputs: embedded ids, or the token vectors `src` placed
        at `index` = (token rows, end-marker rows) of the padded layout."""
        if self.src_embed is not None:
            return self.src_embed(src)
        return place_source(src, index, self.src_end, B, S)

    def forward(self, src, index, lengths: List[int]) -> Encoded:
        """Encode padded sources (lengths include the end marker)."""
        B, S = len(lengths), max(lengths)
        lengths_t = torch.as_tensor(lengths, dtype=torch.long)
        x = self.embed(src, index, B, S)
        device = x.device
        positions = torch.arange(S, device=device)[None, :]
        lengths_d = lengths_t.to(device)[:, None]
        # Position t of the reversed source is position len - 1 - t (padding stays put).
        reverse = torch.where(positions < lengths_d, lengths_d - 1 - positions, positions)
        last = (lengths_d - 1)[:, :, None]
        out = self.drop(x)
        finals = []
        for i, (lstm_fwd, lstm_bwd) in enumerate(cast(Iterable[torch.nn.ModuleList], self.layers)):
            if i > 0:
                out = self.drop(out)
            fwd = lstm_fwd(out)[0]
            rev = reverse[:, :, None].expand(-1, -1, out.shape[-1])
            bwd_rev = lstm_bwd(out.gather(1, rev))[0]
            bwd = bwd_rev.gather(1, reverse[:, :, None].expand(-1, -1, bwd_rev.shape[-1]))
            finals.append(
                torch.cat(
                    [
                        fwd.gather(1, last.expand(-1, -1, fwd.shape[-1]))[:, 0],
                        bwd_rev.gather(1, last.expand(-1, -1, fwd.shape[-1]))[:, 0],
                    ],
                    -1,
                )
            )
            out = torch.cat([fwd, bwd], -1)
        memory = self.memory_proj(out)
        final = torch.stack(finals, 0)  # (depth, B, 2H): last state of each direction
        mask = positions < lengths_d
        c = self.init_c(final) if self.init_c is not None else None
        return Encoded(memory, mask, torch.tanh(self.init_h(final)), c)
