"""Unit vocabularies of the rewriter: the specials, splitting texts into units
(characters or words) and joining them back, the vocabularies built from data,
and `UnitVocabularies`, which holds a model's vocabularies with their
unit -> id lookups and turns docs and rewrites into padded id arrays and back.

A copied source unit outside the target vocabulary gets a temporary id after
it (V, V + 1, ... per doc: the "extended vocabulary"), so that a name never
seen in training can still be output.
"""
from collections import Counter
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy

SPECIALS = ("<pad>", "<s>", "</s>", "<unk>")
PAD, BOS, EOS, UNK = 0, 1, 2, 3


class UnitType(NamedTuple):
    """How a text is cut into target units and put back together."""

    split: Callable[[str], List[str]]
    join: Callable[[Iterable[str]], str]


UNIT_TYPES: Dict[str, UnitType] = {
    "characters": UnitType(list, "".join),
    "words": UnitType(str.split, " ".join),  # whitespace-separated
}


class SourceType(NamedTuple):
    """What the encoder reads of a doc: `units(doc)`, and whether the model
    embeds them itself (`embedded`: it has a source vocabulary) or reads
    their vectors from an embedding sub-model."""

    units: Callable[[Any], List[str]]
    embedded: bool


def _characters(doc: Any) -> List[str]:
    return list(doc.text)


def _tokens(doc: Any) -> List[str]:
    return [t.text for t in doc]


SOURCE_TYPES: Dict[str, SourceType] = {
    "characters": SourceType(_characters, embedded=True),
    "tokens": SourceType(_tokens, embedded=False),
}


def split_units(text: str, unit: str) -> List[str]:
    """The units of `text` under the unit type `unit` (a name in UNIT_TYPES)."""
    return UNIT_TYPES[unit].split(text)


def join_units(units: Sequence[str], unit: str) -> str:
    return UNIT_TYPES[unit].join(units)


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


class UnitIds(NamedTuple):
    """A batch as padded id arrays (numpy, int64)."""

    src: Optional[numpy.ndarray]  # (B, S) source ids (character source), else None
    lengths: List[int]  # source lengths with the end marker
    tgt: Optional[numpy.ndarray]  # (B, T) BOS, target ids, EOS, PAD (None at inference)
    src_ext: Optional[numpy.ndarray]  # (B, S) copy ids in the extended vocabulary
    src_alt: Optional[numpy.ndarray]  # (B, S) copy ids of the units in the other case
    n_ext: int  # size of the extended vocabulary
    oovs: List[List[str]]  # per doc, the source units after the vocabulary


class UnitVocabularies:
    """A model's source and target vocabularies and their unit -> id lookups,
    built once (the torch module built from them keeps them)."""

    def __init__(self, source: str, target: str, source_vocab: Sequence[str],
                 target_vocab: Sequence[str], target_counts: Sequence[float]):
        self.source, self.target = source, target
        self.source_vocab, self.target_vocab = list(source_vocab), list(target_vocab)
        self.target_counts = list(target_counts)
        self.source_ids = {u: i for i, u in enumerate(self.source_vocab)}
        self.target_ids = {u: i for i, u in enumerate(self.target_vocab)}

    @property
    def n_source(self) -> int:
        """Source units embedded by the model: 0 for vectors of a sub-model."""
        return len(self.source_vocab) if SOURCE_TYPES[self.source].embedded else 0

    def source_units(self, doc: Any) -> List[str]:
        return SOURCE_TYPES[self.source].units(doc)

    def encode(self, docs: Sequence[Any], targets: Optional[Sequence[str]], copy: bool) -> UnitIds:
        """Ids of sources, copy ids and targets, padded."""
        units = [self.source_units(d) for d in docs]
        lengths = [len(u) + 1 for u in units]
        src = self._source_ids(units, lengths) if SOURCE_TYPES[self.source].embedded else None
        V = len(self.target_vocab)
        oovs: List[List[str]] = [[] for _ in docs]
        src_ext, src_alt, n_ext = None, None, V
        if copy:
            src_ext, src_alt, oovs = self._copy_ids(units, lengths)
            n_ext = V + max((len(o) for o in oovs), default=0)
        tgt = None if targets is None else self._target_ids(targets, oovs)
        return UnitIds(src, lengths, tgt, src_ext, src_alt, n_ext, oovs)

    def decode(self, ids: Sequence[int], oov: List[str]) -> str:
        """The text of output ids (extended ids name the doc's copied units)."""
        V = len(self.target_vocab)
        units = []
        for i in ids:
            if i >= V:
                units.append(oov[i - V])
            elif i not in (PAD, BOS, EOS):
                units.append(self.target_vocab[i])
        return join_units(units, self.target)

    def _source_ids(self, units: List[List[str]], lengths: List[int]) -> numpy.ndarray:
        src = numpy.zeros((len(units), max(lengths)), dtype="int64")
        for i, u in enumerate(units):
            src[i, : len(u)] = [self.source_ids.get(ch, UNK) for ch in u]
            src[i, len(u)] = EOS
        return src

    def _copy_ids(self, units: List[List[str]], lengths: List[int]):
        """(src_ext, src_alt, oovs): each source unit's id in the extended
        vocabulary, the id of its other-case form where the vocabulary has
        one, and per doc the units given extended ids."""
        V, tgt_index = len(self.target_vocab), self.target_ids
        src_ext = numpy.zeros((len(units), max(lengths)), dtype="int64")
        oovs: List[List[str]] = [[] for _ in units]
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
        src_alt = src_ext.copy()
        for i, u in enumerate(units):
            for j, unit in enumerate(u):
                other = tgt_index.get(other_case(unit))
                if other is not None:
                    src_alt[i, j] = other
        return src_ext, src_alt, oovs

    def _target_ids(self, targets: Sequence[str], oovs: List[List[str]]) -> numpy.ndarray:
        V, tgt_index = len(self.target_vocab), self.target_ids
        seqs = []
        for i, text in enumerate(targets):
            ids = []
            for unit in split_units(text, self.target):
                if unit in tgt_index:
                    ids.append(tgt_index[unit])
                elif unit in oovs[i]:
                    ids.append(V + oovs[i].index(unit))
                else:
                    ids.append(UNK)
            seqs.append([BOS] + ids + [EOS])
        tgt = numpy.zeros((len(seqs), max(len(s) for s in seqs)), dtype="int64")
        for i, s in enumerate(seqs):
            tgt[i, : len(s)] = s
        return tgt
