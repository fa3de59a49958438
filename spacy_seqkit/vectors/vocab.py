"""Reading a text file into sentences of tokens, the vocabulary, and the corpus as id arrays."""

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, NoReturn, Optional, Sequence, Tuple, Union

import numpy

from ..util import check_positive_int

# Bytes of the text file decoded at a time.
READ_BLOCK = 1 << 22
# spaCy's tokenizer caches the tokens of at most `max_cache_size` distinct chunks
# (10,000 by default) and tokenises any other chunk again, with its regular
# expressions, each time it is met: tokenize_texts keeps them all.
TOKENIZER_CACHE = 2**31 - 1


def read_lines(path: Union[str, Path]) -> Iterator[str]:
    """Yield the non-empty lines of a UTF-8 file, stripped (a BOM is dropped). Bytes that
    are not UTF-8 raise a ValueError naming the file, line and byte, rather than
    silently training on replacement characters. The file is decoded in blocks of
    READ_BLOCK bytes, each cut after its last newline."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"'text': {path} is not a file")
    with path.open("rb") as f:
        rest, first = b"", True
        while True:
            block = f.read(READ_BLOCK)
            data = rest + block
            if block:
                cut = data.rfind(b"\n") + 1
                data, rest = data[:cut], data[cut:]
            try:
                text = data.decode("utf-8-sig" if first else "utf-8")
            except UnicodeDecodeError:
                _raise_decode_error(path)
            first = first and not data
            for line in text.split("\n"):
                line = line.strip()
                if line:
                    yield line
            if not block:
                return


def _raise_decode_error(path: Path) -> NoReturn:
    """The ValueError for the first line of `path` that is not UTF-8."""
    with path.open("rb") as f:
        for line_no, raw in enumerate(f, start=1):
            try:
                raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
            except UnicodeDecodeError as err:
                raise ValueError(
                    f"'text': {path} is not valid UTF-8: byte {raw[err.start]:#04x} at "
                    f"line {line_no}, column {err.start + 1}. Re-encode it, e.g. "
                    f"`iconv -f latin1 -t utf-8`."
                ) from None
    raise AssertionError(f"{path} decoded line by line")  # pragma: no cover


def read_texts(path: Union[str, Path]) -> Iterator[str]:
    """The texts of a file: its non-empty lines, or for `.jsonl` the "text"
    field of each record (the travel corpus format). A directory gives the texts
    of its `.txt` and `.jsonl` files, in name order."""
    path = Path(path)
    if path.is_dir():
        for child in sorted(path.iterdir()):
            if child.suffix in (".txt", ".jsonl") and child.is_file():
                yield from read_texts(child)
        return
    if path.suffix != ".jsonl":
        yield from read_lines(path)
        return
    import json

    for line_no, line in enumerate(read_lines(path), start=1):
        try:
            text = json.loads(line)["text"]
        except (ValueError, KeyError, TypeError):
            raise ValueError(f"'text': {path} record {line_no} is not a JSON object with a \"text\" field") from None
        if not isinstance(text, str):
            raise ValueError(f"'text': {path} record {line_no} has a non-string \"text\" field")
        if text.strip():
            yield text


def tokenize_lines(lines: Iterable[str], nlp=None, lang: str = "fr", batch_size: int = 1000) -> Iterator[List[str]]:
    """Tokenise each line with a spaCy tokenizer (a blank `lang` one unless a
    pipeline is given) and yield its token texts, whitespace tokens dropped."""
    if nlp is None:
        import spacy

        nlp = spacy.blank(lang)
    for doc in nlp.tokenizer.pipe(lines, batch_size=batch_size):
        tokens = [t.text for t in doc if not t.is_space]
        if tokens:
            yield tokens


def read_sentences(path: Union[str, Path], nlp=None, lang: str = "fr") -> List[List[str]]:
    """One sentence of tokens per non-empty line of a UTF-8 text file."""
    return list(tokenize_lines(read_lines(path), nlp=nlp, lang=lang))


def read_corpus(
    texts: Iterable[str],
    min_count: int = 5,
    nlp=None,
    lang: str = "fr",
    lexeme_attrs: Optional[bool] = None,
    progress: bool = False,
) -> Tuple["Vocabulary", "Corpus", int]:
    """Tokenise `texts`, count the words and encode the corpus in one pass: (vocabulary,
    corpus, number of words read, rare ones included). The same vocabulary and corpus
    as `Vocabulary.from_sentences(sentences, min_count)` and `.encode(sentences)` on
    `tokenize_lines(texts, nlp, lang)`'s sentences, without their lists of strings.
    spaCy's tokenizer (a blank `lang` one unless `nlp` is given) tokenises the texts
    (`tokenize_texts`), read back as the ORTH hashes of their tokens, which numpy counts
    and maps to word ids; whitespace tokens are dropped and a text with no other token
    is no sentence. With `lexeme_attrs=False` (the default when `nlp` is None) the
    words new to the vocabulary get no lexical attributes (NORM, SHAPE, ...: spaCy's
    lex_attr_getters, which tokenising does not read), which leaves them bare in
    `nlp`'s vocabulary: pass False only for a pipeline you discard. `progress` shows a
    bar of the texts read."""
    from tqdm import tqdm

    check_positive_int("min_count", min_count)
    if lexeme_attrs is None:
        lexeme_attrs = nlp is not None
    if nlp is None:
        from ..regex_cache import blank

        nlp = blank(lang)
    getters = nlp.vocab.lex_attr_getters
    try:
        if not lexeme_attrs:
            nlp.vocab.lex_attr_getters = {}
        bar = tqdm(texts, unit=" texts", unit_scale=True, desc="reading", disable=not progress, mininterval=0.5)
        orths, text_of = tokenize_texts(bar, nlp.tokenizer)
    finally:
        nlp.vocab.lex_attr_getters = getters
    keys, token_key, counts = numpy.unique(orths, return_inverse=True, return_counts=True)
    del orths
    words = [nlp.vocab.strings[int(key)] for key in keys]
    space = numpy.fromiter((w.isspace() for w in words), dtype=bool, count=len(words))
    is_word = ~space[token_key]
    token_key, text_of = token_key[is_word], text_of[is_word]
    # Sentences: the texts with a word, numbered in order.
    has_word = numpy.zeros(len(text_of) and int(text_of[-1]) + 1, dtype=bool)
    has_word[text_of] = True
    sentence = (numpy.cumsum(has_word) - 1)[text_of]
    # Most frequent first, ties by the word itself (as from_sentences).
    kept = numpy.flatnonzero((counts >= min_count) & ~space).tolist()
    kept.sort(key=lambda k: (-int(counts[k]), words[k]))
    vocab = Vocabulary([words[k] for k in kept], counts[kept])
    word_id = numpy.full(len(keys), -1, dtype="int64")
    word_id[kept] = numpy.arange(len(kept), dtype="int64")
    ids = word_id[token_key]
    in_vocab = ids >= 0
    return vocab, Corpus(ids[in_vocab], sentence[in_vocab].astype("int64")), int(token_key.size)


def tokenize_texts(texts: Iterable[str], tokenizer) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(ORTH hash of every token, index of its text), whitespace tokens included.

    spaCy's Tokenizer keeps here the tokens of every distinct chunk it meets: it keeps
    10,000 by default and tokenises any other again, with its regular expressions, each
    time it is met. Each text is its own doc: in a doc of several texts, spaCy caches
    no chunk after the first that a special case touched (the flag is the doc's)."""
    cache_size = getattr(tokenizer, "max_cache_size", None)
    orths: List[numpy.ndarray] = []
    try:
        if cache_size is not None:
            tokenizer.max_cache_size = TOKENIZER_CACHE
        orths = [doc.to_array("ORTH") for doc in map(tokenizer, texts)]
    finally:
        if cache_size is not None:
            tokenizer.max_cache_size = cache_size
    if not orths:
        return numpy.zeros(0, dtype="uint64"), numpy.zeros(0, dtype="int64")
    text_of = numpy.repeat(numpy.arange(len(orths), dtype="int64"), [len(o) for o in orths])
    return numpy.concatenate(orths), text_of


@dataclass
class Corpus:
    """The corpus as flat arrays: `ids[i]` is the i-th in-vocabulary token and
    `sentence[i]` the sentence it belongs to (out-of-vocabulary tokens are
    dropped first, as word2vec does, so windows span over them)."""

    ids: numpy.ndarray  # int64
    sentence: numpy.ndarray  # int64, non-decreasing

    def __len__(self) -> int:
        return int(self.ids.size)


class Vocabulary:
    """Words that occur at least `min_count` times, most frequent first."""

    def __init__(self, words: Sequence[str], counts: Sequence[int]):
        if len(words) != len(counts):
            raise ValueError("'words' and 'counts' must have the same length")
        self.words: List[str] = list(words)
        self.counts = numpy.asarray(counts, dtype="int64")
        self.index: Dict[str, int] = {w: i for i, w in enumerate(self.words)}
        if len(self.index) != len(self.words):
            raise ValueError("'words' must not contain duplicates")

    @classmethod
    def from_sentences(cls, sentences: Iterable[Sequence[str]], min_count: int = 5) -> "Vocabulary":
        check_positive_int("min_count", min_count)
        counter: Counter = Counter()
        for sentence in sentences:
            counter.update(sentence)
        # Ties broken by the word itself so the ids do not depend on file order.
        items = sorted(((w, c) for w, c in counter.items() if c >= min_count), key=lambda wc: (-wc[1], wc[0]))
        return cls([w for w, _ in items], [c for _, c in items])

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    @property
    def total(self) -> int:
        """Number of in-vocabulary tokens in the corpus it was built from."""
        return int(self.counts.sum())

    def encode(self, sentences: Iterable[Sequence[str]]) -> Corpus:
        index = self.index
        ids: List[int] = []
        sent: List[int] = []
        for s, sentence in enumerate(sentences):
            row = [index[w] for w in sentence if w in index]
            ids.extend(row)
            sent.extend([s] * len(row))
        return Corpus(numpy.asarray(ids, dtype="int64"), numpy.asarray(sent, dtype="int64"))

    def keep_probabilities(self, sample: float) -> numpy.ndarray:
        """Probability of keeping each occurrence of a word when subsampling
        frequent words (word2vec.c's formula, also gensim's): words rarer than
        sample * total are always kept. `sample = 0` keeps everything."""
        if sample <= 0 or len(self) == 0:
            return numpy.ones(len(self))
        threshold = sample * self.total
        freq = self.counts.astype("float64")
        return numpy.minimum(1.0, (numpy.sqrt(freq / threshold) + 1.0) * threshold / freq)
