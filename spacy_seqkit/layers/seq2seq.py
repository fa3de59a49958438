"""Seq2seq rewriter: bi-LSTM encoder, attentional LSTM decoder, approximate
output layers, optional copy mechanism (a copied unit may take the other case:
"marseille" -> "Marseille"); a thinc Model around a torch module.

Source units are the characters of the text (embedded here) or the doc's tokens
(vectors from any spaCy embedding sub-model, trained through this model's
gradient). Target units are characters or whitespace-separated words, with
vocabularies built at `initialize`. Every source gets an end marker, so even an
empty source has one position to attend to.

Training (the thinc forward) computes the loss per target unit in torch: teacher
forcing with scheduled sampling, label smoothing (full softmax only), and the
chosen output layer. Inference (`predict_rewrites`) calls the search functions
of `decoding.py` with the module's `decode_step` and `reorder`.
"""
from collections import Counter
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy
import torch
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2
from thinc.types import Floats1d
from thinc.util import torch2xp, xp2torch

from ..util import check_choice, check_non_negative_int, check_positive_int, check_probability
from .convert import padded_index
from .decoding import beam_search, greedy_search, naive_beam_search
from .output_layers import OUTPUT_LAYERS, build_output_layer

SPECIALS = ("<pad>", "<s>", "</s>", "<unk>")
PAD, BOS, EOS, UNK = 0, 1, 2, 3
UNIT_TYPES = ("characters", "words")
SOURCE_TYPES = ("characters", "tokens")
ATTENTIONS = ("dot", "general", "concat", "bahdanau")
SEARCHES = ("batched", "naive", "greedy")


# ---------------------------------------------------------------- vocabularies


def split_units(text: str, unit: str) -> List[str]:
    """Characters, or whitespace-separated words."""
    return list(text) if unit == "characters" else text.split()


def join_units(units: Sequence[str], unit: str) -> str:
    return "".join(units) if unit == "characters" else " ".join(units)


def other_case(unit: str) -> str:
    """The form a copy may take in the other case: "m" <-> "M", "paris" ->
    "Paris", "PARIS" or "Paris" -> "paris"."""
    lower = unit.lower()
    return lower if unit != lower else unit[:1].upper() + unit[1:]


def build_vocab(
    sequences: Iterable[Sequence[str]], min_count: int = 1, max_size: int = 0
) -> Tuple[List[str], List[int]]:
    """Units seen at least `min_count` times, most frequent first, after the four
    specials; at most `max_size` units in all (0: no limit). Returns (units,
    counts); EOS counts one per sequence and UNK the occurrences left out, so
    the counts can build the Huffman tree and the noise distribution."""
    counter: Counter = Counter()
    n_seqs = 0
    for seq in sequences:
        counter.update(seq)
        n_seqs += 1
    ranked = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    kept = [(u, c) for u, c in ranked if c >= min_count and u not in SPECIALS]
    if max_size:
        kept = kept[: max(max_size - len(SPECIALS), 0)]
    n_unknown = sum(counter.values()) - sum(c for _, c in kept)
    units = list(SPECIALS) + [u for u, _ in kept]
    counts = [0, 0, n_seqs, max(n_unknown, 1)] + [c for _, c in kept]
    return units, counts


class RewriteBatch(NamedTuple):
    """The model's training input: docs and their gold rewrites."""

    docs: List[Any]
    targets: List[str]


class ScheduledRate:
    """The scheduled-sampling rate: a float, or a thinc schedule (a generator)
    advanced once per update. Copies and pickles keep the current value as a
    constant, since generators cannot be copied."""

    def __init__(self, schedule: Union[float, Iterable[float]]):
        if isinstance(schedule, (int, float)) and not isinstance(schedule, bool):
            check_probability("scheduled_sampling", schedule)
            self.value, self.schedule = float(schedule), None
        elif hasattr(schedule, "__next__"):
            self.value, self.schedule = 0.0, schedule
        else:
            raise ValueError(
                "'scheduled_sampling' must be a probability in [0, 1) or a thinc "
                f"schedule, got {schedule!r}"
            )

    def next(self) -> float:
        if self.schedule is not None:
            self.value = min(max(float(next(self.schedule)), 0.0), 1.0)
        return self.value

    def __getstate__(self):
        return {"value": self.value, "schedule": None}

    def __deepcopy__(self, memo):
        return ScheduledRate(self.value)


# ---------------------------------------------------------------- torch module


class Seq2SeqModule(torch.nn.Module):
    """Encoder, attention, decoder and output layer; search lives in decoding.py."""

    def __init__(
        self,
        *,
        n_source: int,
        source_width: int,
        target_counts: Sequence[float],
        embed_width: int,
        hidden_width: int,
        depth: int,
        dropout: float,
        attention: str,
        output_layer: str,
        n_samples: int,
        copy: bool,
    ):
        super().__init__()
        H, E = hidden_width, embed_width
        self.n_target = len(target_counts)
        self.attention = attention
        self.copy = copy
        self.depth = depth
        self.hidden_width = H
        if n_source:
            self.src_embed = torch.nn.Embedding(n_source, E, padding_idx=PAD)
            enc_in = E
        else:
            self.src_embed = None
            self.src_end = torch.nn.Parameter(torch.zeros(source_width))
            enc_in = source_width
        lstm_drop = dropout if depth > 1 else 0.0
        # One LSTM per layer and direction, run on padded batches: the backward
        # direction reads each source reversed within its own length, so padding
        # never reaches a real position. (pack_padded_sequence would do the same,
        # but its CPU backward is quadratic in the source length.)
        self.encoder = torch.nn.ModuleList(
            torch.nn.ModuleList(
                torch.nn.LSTM(enc_in if i == 0 else 2 * H, H, batch_first=True) for _ in range(2)
            )
            for i in range(depth)
        )
        self.memory_proj = torch.nn.Linear(2 * H, H)
        self.init_h = torch.nn.Linear(2 * H, H)
        self.init_c = torch.nn.Linear(2 * H, H)
        self.tgt_embed = torch.nn.Embedding(self.n_target, E, padding_idx=PAD)
        self.decoder = torch.nn.LSTM(E + H, H, num_layers=depth, dropout=lstm_drop)
        if attention != "dot":
            self.attn_key = torch.nn.Linear(H, H, bias=False)
        if attention in ("concat", "bahdanau"):
            self.attn_query = torch.nn.Linear(H, H)
            self.attn_v = torch.nn.Linear(H, 1, bias=False)
        self.combine = torch.nn.Linear(2 * H + (E if attention == "bahdanau" else 0), H)
        self.output = build_output_layer(output_layer, H, self.n_target, target_counts, n_samples)
        if copy:
            self.gen_gate = torch.nn.Linear(2 * H + E, 1)
            # Copy with the other case: "marseille" in a request, "Marseille" in
            # the rewrite. A second gate says which form a copy takes.
            self.case_gate = torch.nn.Linear(2 * H + E, 1)
        self.drop = torch.nn.Dropout(dropout)

    # -- encoder
    def encode(self, src, index, lengths: List[int], src_ext=None, n_ext: int = 0, src_alt=None) -> Dict:
        """Encode padded sources (lengths include the end marker) into the
        decoder's initial state: one row per batch item."""
        B, S = len(lengths), max(lengths)
        lengths_t = torch.as_tensor(lengths, dtype=torch.long)
        if self.src_embed is not None:
            x = self.src_embed(src)
        else:
            token_index, end_index = index
            W = self.src_end.shape[0]
            flat = self.src_end.new_zeros(B * S, W)
            if src.shape[0]:
                flat = flat.index_copy(0, token_index, src)
            x = flat.index_copy(0, end_index, self.src_end.expand(B, W)).view(B, S, W)
        device = x.device
        positions = torch.arange(S, device=device)[None, :]
        lengths_d = lengths_t.to(device)[:, None]
        # Position t of the reversed source is position len - 1 - t (padding stays put).
        reverse = torch.where(positions < lengths_d, lengths_d - 1 - positions, positions)
        last = (lengths_d - 1)[:, :, None]
        out = self.drop(x)
        finals = []
        for i, (lstm_fwd, lstm_bwd) in enumerate(self.encoder):
            if i > 0:
                out = self.drop(out)
            fwd = lstm_fwd(out)[0]
            rev = reverse[:, :, None].expand(-1, -1, out.shape[-1])
            bwd_rev = lstm_bwd(out.gather(1, rev))[0]
            bwd = bwd_rev.gather(1, reverse[:, :, None].expand(-1, -1, bwd_rev.shape[-1]))
            finals.append(
                torch.cat([fwd.gather(1, last.expand(-1, -1, fwd.shape[-1]))[:, 0],
                           bwd_rev.gather(1, last.expand(-1, -1, fwd.shape[-1]))[:, 0]], -1)
            )
            out = torch.cat([fwd, bwd], -1)
        memory = self.memory_proj(out)
        final = torch.stack(finals, 0)  # (depth, B, 2H): last state of each direction

        mask = positions < lengths_d
        state = {
            "h": torch.tanh(self.init_h(final)),
            "c": self.init_c(final),
            "feed": memory.new_zeros(B, self.hidden_width),
            "memory": memory,
            "keys": memory if self.attention == "dot" else self.attn_key(memory),
            "mask": mask,
            "n_ext": max(n_ext, self.n_target),
        }
        if self.copy:
            state["src_ext"] = src_ext
            state["src_alt"] = src_ext if src_alt is None else src_alt
        return state

    # -- attention and one decoder step
    def attend(self, query, state):
        keys, memory = state["keys"], state["memory"]
        # Products and sums rather than bmm with an inner size of 1: the same
        # maths, but bmm's backward for one decoder step is several times slower.
        if self.attention in ("dot", "general"):
            scores = (keys * query[:, None, :]).sum(-1)
        else:
            scores = self.attn_v(torch.tanh(keys + self.attn_query(query)[:, None, :]))[:, :, 0]
        # Explicit softmax rather than scaled_dot_product_attention: the copy
        # mechanism needs the attention weights themselves.
        attn = torch.softmax(scores.masked_fill(~state["mask"], float("-inf")), dim=-1)
        ctx = (attn[:, :, None] * memory).sum(1)
        return attn, ctx

    def step_hidden(self, prev, state):
        """Feed the previous units; return (output, attention, context, input
        embedding, new state). Luong variants use input feeding; Bahdanau
        attends with the previous decoder state before the LSTM."""
        prev = torch.where(prev >= self.n_target, torch.full_like(prev, UNK), prev)
        emb = self.drop(self.tgt_embed(prev))
        hc = (state["h"], state["c"])
        if self.attention == "bahdanau":
            attn, ctx = self.attend(state["h"][-1], state)
            out, (h, c) = self.decoder(torch.cat([emb, ctx], -1)[None], hc)
            o = torch.tanh(self.combine(torch.cat([out[0], ctx, emb], -1)))
        else:
            out, (h, c) = self.decoder(torch.cat([emb, state["feed"]], -1)[None], hc)
            attn, ctx = self.attend(out[0], state)
            o = torch.tanh(self.combine(torch.cat([ctx, out[0]], -1)))
        o = self.drop(o)
        new_state = dict(state, h=h, c=c, feed=o)
        return o, attn, ctx, emb, new_state

    def full_log_probs(self, o, attn, ctx, emb, state):
        """(rows, n_ext) log-probabilities; PAD and BOS are never produced."""
        lp = self.output.log_probs(o)
        lp = lp.index_fill(1, torch.tensor([PAD, BOS], device=lp.device), float("-inf"))
        if not self.copy:
            return lp
        features = torch.cat([o, ctx, emb], -1)
        p_gen = torch.sigmoid(self.gen_gate(features))
        p_alt = torch.sigmoid(self.case_gate(features))
        extra = lp.new_zeros(lp.shape[0], state["n_ext"] - self.n_target)
        p = torch.cat([p_gen * lp.exp(), extra], -1)
        p = p.scatter_add(1, state["src_ext"], (1 - p_gen) * (1 - p_alt) * attn)
        p = p.scatter_add(1, state["src_alt"], (1 - p_gen) * p_alt * attn)
        return p.log()

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

    # -- training
    def forward(self, src, index, lengths, tgt, src_ext, n_ext, ss_prob, label_smoothing, src_alt=None):
        """Mean loss per gold target unit (shape (1,)); tgt is (B, T) with BOS
        first, EOS last, PAD after."""
        state = self.encode(src, index, lengths, src_ext, n_ext, src_alt)
        B, T = tgt.shape[0], tgt.shape[1] - 1
        steps = []
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
        y = tgt[:, 1:].reshape(-1)
        keep = (y != PAD).nonzero()[:, 0]
        y = y[keep]

        def rows(i):  # (B, T, ...) flattened in the same order as y
            return torch.stack([s[i] for s in steps], 1).flatten(0, 1)[keep]

        O = rows(0)
        if not self.copy:
            loss = self.output.loss(O, y, label_smoothing)
        else:
            A, C, E = rows(1), rows(2), rows(3)
            ext = src_ext[:, None, :].expand(B, T, -1).flatten(0, 1)[keep]
            alt = state["src_alt"][:, None, :].expand(B, T, -1).flatten(0, 1)[keep]
            in_vocab = y < self.n_target
            y_vocab = torch.where(in_vocab, y, torch.full_like(y, UNK))
            features = torch.cat([O, C, E], -1)
            p_gen = torch.sigmoid(self.gen_gate(features))[:, 0]
            p_alt = torch.sigmoid(self.case_gate(features))
            p_vocab = self.output.target_log_prob(O, y_vocab).exp() * in_vocab
            A_same, A_alt = A * (1 - p_alt), A * p_alt
            p_copy = (A_same * (ext == y[:, None])).sum(-1) + (A_alt * (alt == y[:, None])).sum(-1)
            loss = -(p_gen * p_vocab + (1 - p_gen) * p_copy).clamp_min(1e-12).log()
            if label_smoothing > 0:
                # Smooth over the fixed vocabulary with the mixed distribution.
                P = p_gen[:, None] * torch.softmax(self.output.logits(O), -1)
                for ids, weights in ((ext, A_same), (alt, A_alt)):
                    ids_in = ids < self.n_target
                    P = P.scatter_add(
                        1, torch.where(ids_in, ids, torch.zeros_like(ids)), (1 - p_gen)[:, None] * weights * ids_in
                    )
                smooth = -P.clamp_min(1e-12).log().mean(-1)
                loss = (1 - label_smoothing) * loss + label_smoothing * smooth
        return (loss.sum() / max(int(y.shape[0]), 1)).reshape(1)


# ---------------------------------------------------------------- thinc model


def Seq2SeqRewriter(
    *,
    source: str = "characters",
    target: str = "characters",
    embed: Optional[Model] = None,
    copy: bool = False,
    embed_width: int = 64,
    hidden_width: int = 128,
    depth: int = 1,
    dropout: float = 0.1,
    attention: str = "general",
    output_layer: str = "softmax",
    n_samples: int = 64,
    label_smoothing: float = 0.0,
    scheduled_sampling: Union[float, Iterable[float]] = 0.0,
    min_count: int = 1,
    max_vocab: int = 0,
) -> Model[RewriteBatch, Floats1d]:
    """The rewriter as a thinc Model; the torch module is built at initialize,
    once the vocabularies (set by `set_vocabularies`) are known."""
    check_choice("source", source, SOURCE_TYPES)
    check_choice("target", target, UNIT_TYPES)
    check_choice("attention", attention, ATTENTIONS)
    check_choice("output_layer", output_layer, OUTPUT_LAYERS)
    for name, value in [("embed_width", embed_width), ("hidden_width", hidden_width),
                        ("depth", depth), ("n_samples", n_samples), ("min_count", min_count)]:
        check_positive_int(name, value)
    check_non_negative_int("max_vocab", max_vocab)
    check_probability("dropout", dropout)
    check_probability("label_smoothing", label_smoothing)
    if source == "tokens" and embed is None:
        raise ValueError("'embed' is required when source = \"tokens\" (any spaCy embedding model)")
    if source == "characters" and embed is not None:
        raise ValueError("'embed' must be null when source = \"characters\"")
    if copy and (source, target) not in (("characters", "characters"), ("tokens", "words")):
        raise ValueError(
            "'copy' needs source and target units of the same kind: "
            "characters -> characters or tokens -> words"
        )
    if copy and output_layer == "sampled":
        raise ValueError("'copy' needs normalised probabilities: use output_layer softmax or hierarchical")
    if label_smoothing > 0 and output_layer != "softmax":
        raise ValueError("'label_smoothing' needs the full distribution: use output_layer = \"softmax\" or 0")
    rate = ScheduledRate(scheduled_sampling)
    attrs = {
        "source": source, "target": target, "copy": copy, "embed_width": embed_width,
        "hidden_width": hidden_width, "depth": depth, "dropout": dropout,
        "attention": attention, "output_layer": output_layer, "n_samples": n_samples,
        "label_smoothing": label_smoothing, "min_count": min_count, "max_vocab": max_vocab,
        "scheduled_sampling": rate,
        "source_vocab": None, "target_vocab": None, "target_counts": None, "source_width": None,
    }
    return Model(
        "seqkit_seq2seq_rewriter",
        forward,
        init=init,
        layers=[embed] if embed is not None else [],
        refs={"embed": embed} if embed is not None else {},
        attrs=attrs,
    )


def vocabularies_from_data(model: Model, docs: Iterable[Any], targets: Iterable[str]) -> Dict:
    """Build the source (characters only) and target vocabularies from data."""
    min_count, max_vocab = model.attrs["min_count"], model.attrs["max_vocab"]
    result: Dict[str, Any] = {"source_vocab": []}
    if model.attrs["source"] == "characters":
        result["source_vocab"], _ = build_vocab((list(d.text) for d in docs), 1, 0)
    units, counts = build_vocab(
        (split_units(t, model.attrs["target"]) for t in targets), min_count, max_vocab
    )
    result["target_vocab"], result["target_counts"] = units, counts
    return result


def set_vocabularies(model: Model, vocabs: Dict) -> None:
    for key in ("source_vocab", "target_vocab", "target_counts"):
        model.attrs[key] = list(vocabs[key])
    if vocabs.get("source_width"):
        model.attrs["source_width"] = int(vocabs["source_width"])
    model.attrs.pop("_unit_index", None)


def init(model: Model, X=None, Y=None) -> None:
    if model.attrs["target_vocab"] is None:
        if X is None or Y is None:
            raise ValueError(
                "Seq2SeqRewriter needs its vocabularies before initialize: pass sample "
                "docs and targets (X, Y) or call set_vocabularies first"
            )
        set_vocabularies(model, vocabularies_from_data(model, X, Y))
    if model.has_ref("embed"):
        embed = model.get_ref("embed")
        embed.initialize(X=X) if X is not None else embed.initialize()
        if embed.has_dim("nO") and embed.get_dim("nO"):
            model.attrs["source_width"] = embed.get_dim("nO")
        elif X is not None:
            model.attrs["source_width"] = int(embed.predict(X[:1])[0].shape[1])
        else:
            raise ValueError("Seq2SeqRewriter: cannot infer the embedding width without sample docs")
    build_torch_layer(model)


def build_torch_layer(model: Model) -> None:
    """Create (or re-create) the torch module from the vocabularies in attrs:
    the first stage of deserialization, before the weights are loaded."""
    a = model.attrs
    module = Seq2SeqModule(
        n_source=len(a["source_vocab"]) if a["source"] == "characters" else 0,
        source_width=a["source_width"] or 0,
        target_counts=a["target_counts"],
        embed_width=a["embed_width"],
        hidden_width=a["hidden_width"],
        depth=a["depth"],
        dropout=a["dropout"],
        attention=a["attention"],
        output_layer=a["output_layer"],
        n_samples=a["n_samples"],
        copy=a["copy"],
    )
    wrapper = PyTorchWrapper_v2(module, convert_inputs=_convert_inputs, convert_outputs=_convert_outputs)
    if model.has_ref("seq2seq") and model.get_ref("seq2seq") is not None:
        position = model.layers.index(model.get_ref("seq2seq"))
        model.layers[position] = wrapper
    else:
        model.layers.append(wrapper)
    model.set_ref("seq2seq", wrapper)


def is_built(model: Model) -> bool:
    return model.has_ref("seq2seq") and model.get_ref("seq2seq") is not None


class _Inputs(NamedTuple):
    src: Any  # (B, S) int ids, or list of (n_i, width) vectors
    lengths: List[int]  # source lengths with the end marker
    tgt: Optional[numpy.ndarray]
    src_ext: Optional[numpy.ndarray]
    n_ext: int
    ss_prob: float
    label_smoothing: float
    src_alt: Optional[numpy.ndarray] = None  # copy ids of the units in the other case


class _UnitIndex:
    """Unit -> id lookups, cached in attrs (msgpack cannot serialize this class,
    so thinc leaves it out of the model's bytes)."""

    def __init__(self, source_vocab: List[str], target_vocab: List[str]):
        self.source = {u: i for i, u in enumerate(source_vocab)}
        self.target = {u: i for i, u in enumerate(target_vocab)}


def _unit_index(model: Model) -> Tuple[Dict[str, int], Dict[str, int]]:
    cached = model.attrs.get("_unit_index")
    if cached is None:
        cached = _UnitIndex(model.attrs["source_vocab"], model.attrs["target_vocab"])
        model.attrs["_unit_index"] = cached
    return cached.source, cached.target


def _source_units(model: Model, doc) -> List[str]:
    return list(doc.text) if model.attrs["source"] == "characters" else [t.text for t in doc]


def _prepare(model: Model, docs, targets: Optional[Sequence[str]], ss_prob: float = 0.0):
    """Ids of sources, copy ids and targets, padded; returns (_Inputs, oov lists)."""
    src_index, tgt_index = _unit_index(model)
    V = len(model.attrs["target_vocab"])
    units = [_source_units(model, d) for d in docs]
    lengths = [len(u) + 1 for u in units]
    B, S = len(docs), max(lengths)
    src_ids = None
    if model.attrs["source"] == "characters":
        src_ids = numpy.zeros((B, S), dtype="int64")
        for i, u in enumerate(units):
            src_ids[i, : len(u)] = [src_index.get(ch, UNK) for ch in u]
            src_ids[i, len(u)] = EOS
    oovs: List[List[str]] = [[] for _ in docs]
    src_ext, src_alt, n_ext = None, None, V
    if model.attrs["copy"]:
        src_ext = numpy.zeros((B, S), dtype="int64")
        for i, u in enumerate(units):
            local: Dict[str, int] = {}
            for j, unit in enumerate(u):
                if unit in tgt_index:
                    src_ext[i, j] = tgt_index[unit]
                else:
                    if unit not in local:
                        local[unit] = V + len(local)
                        oovs[i].append(unit)
                    src_ext[i, j] = local[unit]
            src_ext[i, len(u)] = EOS
        n_ext = V + max((len(o) for o in oovs), default=0)
        src_alt = src_ext.copy()
        for i, u in enumerate(units):
            for j, unit in enumerate(u):
                other = tgt_index.get(other_case(unit))
                if other is not None:
                    src_alt[i, j] = other
    tgt = None
    if targets is not None:
        seqs = []
        for i, text in enumerate(targets):
            ids = []
            for unit in split_units(text, model.attrs["target"]):
                if unit in tgt_index:
                    ids.append(tgt_index[unit])
                elif unit in oovs[i]:
                    ids.append(V + oovs[i].index(unit))
                else:
                    ids.append(UNK)
            seqs.append([BOS] + ids + [EOS])
        tgt = numpy.zeros((B, max(len(s) for s in seqs)), dtype="int64")
        for i, s in enumerate(seqs):
            tgt[i, : len(s)] = s
    inputs = _Inputs(src_ids, lengths, tgt, src_ext, n_ext, ss_prob, model.attrs["label_smoothing"], src_alt)
    return inputs, oovs


def _source_tensors(ops, src, lengths: List[int], width: int, device, requires_grad: bool):
    """Torch source: int ids (B, S) as they are, or token vectors flattened with
    their (token, end marker) rows in the (B, S) padded layout."""
    if not isinstance(src, list):
        return torch.as_tensor(src, device=device), None
    flat = ops.flatten(src) if sum(lengths) > len(lengths) else ops.alloc2f(0, width)
    full_index, _ = padded_index(lengths)
    ends = numpy.cumsum(lengths) - 1
    token_index = numpy.delete(full_index, ends)
    index = (xp2torch(token_index, device=device), xp2torch(full_index[ends], device=device))
    return xp2torch(flat, requires_grad=requires_grad, device=device), index


def _convert_inputs(model: Model, X: _Inputs, is_train: bool):
    device = model.shims[0].device
    width = model.shims[0]._model.src_end.shape[0] if isinstance(X.src, list) else 0
    src, index = _source_tensors(model.ops, X.src, X.lengths, width, device, is_train)
    tensor = lambda a: None if a is None else torch.as_tensor(a, device=device)
    args = ArgsKwargs(
        args=(src, index, X.lengths, tensor(X.tgt), tensor(X.src_ext), X.n_ext, X.ss_prob, X.label_smoothing,
              tensor(X.src_alt)),
        kwargs={},
    )

    def reverse(dX: ArgsKwargs):
        grad = dX.args[0]
        if grad is None or not grad.is_floating_point():
            return None
        return model.ops.unflatten(torch2xp(grad, ops=model.ops), [n - 1 for n in X.lengths])

    return args, reverse


def _convert_outputs(model: Model, X_Ytorch, is_train: bool):
    _, Ytorch = X_Ytorch
    Y = torch2xp(Ytorch.detach(), ops=model.ops)

    def get_dYtorch(dY):
        return ArgsKwargs(args=(Ytorch,), kwargs={"grad_tensors": (xp2torch(dY, device=Ytorch.device),)})

    return Y, get_dYtorch


def forward(model: Model, batch: RewriteBatch, is_train: bool):
    """Mean loss per target unit (shape (1,)) and its backprop."""
    docs, targets = batch
    if len(docs) != len(targets):
        raise ValueError(f"Seq2SeqRewriter: {len(docs)} docs but {len(targets)} targets")
    if not docs:
        return model.ops.alloc1f(1), lambda d: []
    ss_prob = model.attrs["scheduled_sampling"].next() if is_train else 0.0
    inputs, _ = _prepare(model, docs, targets, ss_prob)
    bp_embed = None
    if model.has_ref("embed"):
        Xs, bp_embed = model.get_ref("embed")(docs, is_train)
        inputs = inputs._replace(src=Xs)
    loss, bp_loss = model.get_ref("seq2seq")(inputs, is_train)

    def backprop(d_loss: Floats1d) -> List:
        dXs = bp_loss(d_loss)
        if bp_embed is not None and dXs is not None:
            bp_embed(dXs)
        return []

    return loss, backprop


# ---------------------------------------------------------------- inference


def predict_rewrites(
    model: Model,
    docs: Sequence[Any],
    *,
    beam_size: int = 5,
    n_best: int = 1,
    length_penalty: float = 0.0,
    max_length_ratio: float = 2.0,
    max_length_extra: int = 10,
    search: str = "batched",
) -> List[List[Tuple[str, float]]]:
    """n-best rewrites (string, score) of every doc, best first. A doc without
    source units rewrites to "" with score 0. `search` is "batched" (beam
    search; beam 1 runs greedy), "naive" (the reference beam search) or
    "greedy"."""
    check_choice("search", search, SEARCHES)
    check_positive_int("beam_size", beam_size)
    results: List[List[Tuple[str, float]]] = [[("", 0.0)] for _ in docs]
    todo = [i for i, d in enumerate(docs) if _source_units(model, d)]
    if not todo:
        return results
    sub = [docs[i] for i in todo]
    inputs, oovs = _prepare(model, sub, None)
    if model.has_ref("embed"):
        inputs = inputs._replace(src=model.get_ref("embed").predict(sub))
    wrapper = model.get_ref("seq2seq")
    module: Seq2SeqModule = wrapper.shims[0]._model
    device = wrapper.shims[0].device
    src, index = _source_tensors(
        model.ops, inputs.src, inputs.lengths, model.attrs["source_width"] or 0, device, False
    )
    src_ext = None if inputs.src_ext is None else torch.as_tensor(inputs.src_ext, device=device)
    src_alt = None if inputs.src_alt is None else torch.as_tensor(inputs.src_alt, device=device)
    max_lengths = [int(max_length_ratio * (n - 1)) + max_length_extra for n in inputs.lengths]
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            state = module.encode(src, index, inputs.lengths, src_ext, inputs.n_ext, src_alt)
            kwargs = dict(bos=BOS, eos=EOS, alpha=length_penalty)
            if search == "greedy" or (search == "batched" and beam_size == 1):
                found = greedy_search(module.decode_step, state, max_lengths, **kwargs)
            else:
                run = beam_search if search == "batched" else naive_beam_search
                found = run(
                    module.decode_step, module.reorder, state, max_lengths,
                    beam_size=beam_size, n_best=min(n_best, beam_size), **kwargs,
                )
    finally:
        module.train(was_training)
    vocab, unit = model.attrs["target_vocab"], model.attrs["target"]
    for i, hyps, oov in zip(todo, found, oovs):
        results[i] = [(_ids_to_text(ids, vocab, oov, unit), float(score)) for ids, score in hyps]
    return results


def _ids_to_text(ids: Sequence[int], vocab: List[str], oov: List[str], unit: str) -> str:
    V = len(vocab)
    units = []
    for i in ids:
        if i >= V:
            units.append(oov[i - V])
        elif i not in (PAD, BOS, EOS):
            units.append(vocab[i])
    return join_units(units, unit)
