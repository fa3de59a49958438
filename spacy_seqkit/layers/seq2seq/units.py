"""Unit vocabularies of the rewriter: the specials, splitting texts into units
(characters, words, or BPE pieces learned from the training texts) and joining
them back, the vocabularies built from data, and `UnitVocabularies`, which
holds a model's vocabularies with their unit -> id lookups and turns docs and
rewrites into padded id arrays and back.

A copied source unit outside the target vocabulary gets a temporary id after
it (V, V + 1, ... per doc: the "extended vocabulary"), so that a name never
seen in training can still be output.
"""

import base64
import io
from collections import Counter
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy

SPECIALS = ("<pad>", "<s>", "</s>", "<unk>")
PAD, BOS, EOS, UNK = 0, 1, 2, 3


def other_case(unit: str) -> str:
    """The form a copy may take in the other case: "m" <-> "M", "paris" ->
    "Paris", "PARIS" or "Paris" -> "paris"."""
    lower = unit.lower()
    return lower if unit != lower else unit[:1].upper() + unit[1:]


# sentencepiece's mark of a piece that starts a word ("▁paris").
WORD_START = "\u2581"


def piece_other_case(piece: str) -> str:
    """The form a copied BPE piece may take in the other case. A word's first
    piece takes its title-case form ("▁paris" or "▁PARIS" -> "▁Paris"), or
    lowercase if it has it ("▁Paris" -> "▁paris"); a piece inside a word its
    `other_case` ("RES" -> "res", after a hyphen "étienne" -> "Étienne")."""
    if not piece.startswith(WORD_START):
        return other_case(piece)
    body = piece[len(WORD_START) :]
    titled = body[:1].upper() + body[1:].lower()
    return WORD_START + (titled if body != titled else body.lower())


class Pieces:
    """A sentencepiece BPE model learned from texts at initialize (as in the
    Transformer paper's pipeline), shared by source and target so that a piece
    can be copied. Texts are cut where their lowercased form is cut, so that a
    word is cut the same way in either case ("biarritz" and "Biarritz" into
    "▁biar" + "ritz" and "▁Biar" + "ritz"), and a piece can be copied in the
    other case. Text is otherwise kept as written (no normalisation): joining
    a text's pieces gives the text back."""

    def __init__(self, model: str):
        import sentencepiece

        self.model = model  # the serialized model, base64: it travels in the component's cfg
        self.processor = sentencepiece.SentencePieceProcessor(model_proto=base64.b64decode(model))

    @classmethod
    def learn(cls, texts: Iterable[str], n_pieces: int) -> "Pieces":
        """BPE with at most `n_pieces` pieces (fewer when the texts have fewer)."""
        import sentencepiece

        buffer = io.BytesIO()
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter([_lower(t) for t in texts if t.strip()] or ["a"]),
            model_writer=buffer,
            vocab_size=n_pieces,
            model_type="bpe",
            character_coverage=1.0,
            hard_vocab_limit=False,
            normalization_rule_name="identity",
            remove_extra_whitespaces=False,
            num_threads=1,
            minloglevel=2,
        )
        return cls(base64.b64encode(buffer.getvalue()).decode("ascii"))

    def split(self, text: str) -> List[str]:
        if not text:
            return []
        lowered = self.processor.encode(_lower(text), out_type=str)
        # The pieces of the lowercased text, cut at the same places in the text.
        surface = WORD_START + text.replace(" ", WORD_START)
        if sum(len(p) for p in lowered) != len(surface):
            return self.processor.encode(text, out_type=str)
        pieces, start = [], 0
        for piece in lowered:
            pieces.append(surface[start : start + len(piece)])
            start += len(piece)
        return pieces

    @staticmethod
    def join(pieces: Iterable[str]) -> str:
        text = "".join(pieces).replace(WORD_START, " ")
        return text[1:] if text.startswith(" ") else text


def _lower(text: str) -> str:
    """Lowercase, one character for one ("İ".lower() is two: kept as it is)."""
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


class UnitType(NamedTuple):
    """How a text is cut into units and put back together, and the form a
    copied unit takes in the other case. A `learned` type (pieces) splits with
    the `Pieces` model learned at initialize, passed to `split_units`."""

    split: Optional[Callable[[str], List[str]]]
    join: Callable[[Iterable[str]], str]
    other_case: Callable[[str], str] = other_case
    learned: bool = False


UNIT_TYPES: Dict[str, UnitType] = {
    "characters": UnitType(list, "".join),
    "words": UnitType(str.split, " ".join),  # whitespace-separated
    "pieces": UnitType(None, Pieces.join, piece_other_case, learned=True),  # sentencepiece BPE
}


class SourceType(NamedTuple):
    """What the encoder reads of a doc: `units(doc, pieces)`, and whether the
    model embeds them itself (`embedded`: it has a source vocabulary) or reads
    their vectors from an embedding sub-model."""

    units: Callable[[Any, Optional[Pieces]], List[str]]
    embedded: bool


def _characters(doc: Any, pieces: Optional[Pieces] = None) -> List[str]:
    return list(doc.text)


def _tokens(doc: Any, pieces: Optional[Pieces] = None) -> List[str]:
    return [t.text for t in doc]


def _pieces(doc: Any, pieces: Optional[Pieces] = None) -> List[str]:
    return _learned(pieces).split(doc.text)


def _learned(pieces: Optional[Pieces]) -> Pieces:
    if pieces is None:
        raise ValueError("units of type 'pieces' need the model's learned pieces")
    return pieces


SOURCE_TYPES: Dict[str, SourceType] = {
    "characters": SourceType(_characters, embedded=True),
    "tokens": SourceType(_tokens, embedded=False),
    "pieces": SourceType(_pieces, embedded=True),
}


def split_units(text: str, unit: str, pieces: Optional[Pieces] = None) -> List[str]:
    """The units of `text` under the unit type `unit` (a name in UNIT_TYPES);
    "pieces" needs the model's `pieces`."""
    unit_type = UNIT_TYPES[unit]
    if unit_type.split is None:
        return _learned(pieces).split(text)
    return unit_type.split(text)


def join_units(units: Sequence[str], unit: str) -> str:
    return UNIT_TYPES[unit].join(units)


def uses_pieces(source: str, target: str) -> bool:
    """Whether a model with these units needs a `Pieces` model."""
    return source == "pieces" or UNIT_TYPES[target].learned


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

    def __init__(
        self,
        source: str,
        target: str,
        source_vocab: Sequence[str],
        target_vocab: Sequence[str],
        target_counts: Sequence[float],
        pieces: Optional[Pieces] = None,
    ):
        self.source, self.target = source, target
        self.pieces = pieces
        self.source_vocab, self.target_vocab = list(source_vocab), list(target_vocab)
        self.target_counts = list(target_counts)
        self.source_ids = {u: i for i, u in enumerate(self.source_vocab)}
        self.target_ids = {u: i for i, u in enumerate(self.target_vocab)}

    @property
    def n_source(self) -> int:
        """Source units embedded by the model: 0 for vectors of a sub-model."""
        return len(self.source_vocab) if SOURCE_TYPES[self.source].embedded else 0

    def source_units(self, doc: Any) -> List[str]:
        return SOURCE_TYPES[self.source].units(doc, self.pieces)

    def target_units(self, text: str) -> List[str]:
        return split_units(text, self.target, self.pieces)

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
        in_other_case = UNIT_TYPES[self.target].other_case
        for i, u in enumerate(units):
            for j, unit in enumerate(u):
                other = tgt_index.get(in_other_case(unit))
                if other is not None:
                    src_alt[i, j] = other
        return src_ext, src_alt, oovs

    def _target_ids(self, targets: Sequence[str], oovs: List[List[str]]) -> numpy.ndarray:
        V, tgt_index = len(self.target_vocab), self.target_ids
        seqs = []
        for i, text in enumerate(targets):
            ids = []
            for unit in self.target_units(text):
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
