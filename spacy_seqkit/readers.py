"""`spacy-seqkit.RewriteCorpus.v1`: read JSONL `{"text": ..., "rewrite": ...}`
straight into training examples (gold in `doc._.rewrite` of the reference).
`spacy-seqkit.WeightedCorpus.v1`: spaCy's binary corpus files, some read more than once per
pass, each read from disk only once per training."""

import random
import warnings
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple, Union

import srsly
from spacy.language import Language
from spacy.training import Corpus, Example
from spacy.training.corpus import walk_corpus

from .extensions import install_rewrite_extensions
from .util import check_non_negative_int, check_positive_int


def create_rewrite_reader(
    path: Optional[Union[str, Path]],
    text_key: str = "text",
    rewrite_key: str = "rewrite",
    limit: int = 0,
    shuffle: bool = False,
) -> Callable[[Language], Iterator[Example]]:
    """Read a JSONL file of texts and rewrites; lines without `rewrite_key`
    (or with null) give examples without gold. `limit` > 0 reads that many
    lines; `shuffle` shuffles them on every pass (seeded by spaCy's seed)."""
    if path is None:
        raise ValueError("'path' of spacy-seqkit.RewriteCorpus.v1 is not set (null)")
    check_non_negative_int("limit", limit)
    return RewriteCorpus(Path(path), text_key=text_key, rewrite_key=rewrite_key, limit=limit, shuffle=shuffle)


class RewriteCorpus:
    def __init__(self, path: Path, *, text_key: str, rewrite_key: str, limit: int, shuffle: bool):
        self.path, self.text_key, self.rewrite_key = path, text_key, rewrite_key
        self.limit, self.shuffle = limit, shuffle

    def __call__(self, nlp: Language) -> Iterator[Example]:
        install_rewrite_extensions()
        if not self.path.exists():
            raise ValueError(f"spacy-seqkit.RewriteCorpus.v1: no file at '{self.path}'")
        records = []
        for i, record in enumerate(srsly.read_jsonl(self.path)):
            if self.limit and i >= self.limit:
                break
            if not isinstance(record, dict) or not isinstance(record.get(self.text_key), str):
                raise ValueError(f"{self.path}, line {i + 1}: expected an object with a string '{self.text_key}'")
            records.append(record)
        if self.shuffle:
            random.shuffle(records)
        for record in records:
            yield rewrite_example(nlp, record[self.text_key], record.get(self.rewrite_key))


def rewrite_example(nlp: Language, text: str, rewrite: Optional[str]) -> Example:
    """A training example for `seqkit_rewriter`: `text` made into a doc by `nlp`,
    the gold `rewrite` (None: no gold) in `doc._.rewrite` of the reference."""
    install_rewrite_extensions()
    predicted = nlp.make_doc(text)
    reference = predicted.copy()
    reference._.rewrite = None if rewrite is None else str(rewrite)
    return Example(predicted, reference)


def create_weighted_corpus(
    path: Optional[Union[str, Path]],
    weights: Optional[Dict[str, int]] = None,
    max_length: int = 0,
    limit: int = 0,
) -> Callable[[Language], List[Example]]:
    """The `.spacy` files under `path`, as `spacy.Corpus.v1` reads them, the file named `name`
    (without its suffix) read `weights[name]` times per pass (1 where it is not named): a
    smaller part of the corpus that should weigh more than its size, such as the requests
    written by people beside many generated ones. `max_length` > 0 leaves out the docs of that
    many tokens or more, `limit` > 0 reads that many docs of each file."""
    if path is None:
        raise ValueError("'path' of spacy-seqkit.WeightedCorpus.v1 is not set (null)")
    weights = {} if weights is None else weights
    if not isinstance(weights, dict):
        raise ValueError(f"'weights' of spacy-seqkit.WeightedCorpus.v1 must map file names to counts, not {weights!r}")
    for name, weight in weights.items():
        check_positive_int(f"weights.{name}", weight)
    check_non_negative_int("max_length", max_length)
    check_non_negative_int("limit", limit)
    return WeightedCorpus(Path(path), weights=dict(weights), max_length=max_length, limit=limit)


class WeightedCorpus:
    """Returns its examples as a new list at each call, made at the first (per `nlp`): spaCy
    calls a training corpus once per component to initialize (each call read every file and
    tokenized every text again: five passes over the travel corpus, a third of a profiled
    600-step training) and once to train, and its training loop keeps the examples it gets for
    every epoch. A file read `n` times per pass gives its examples and `n - 1` copies."""

    def __init__(self, path: Path, *, weights: Dict[str, int], max_length: int, limit: int):
        self.path, self.weights, self.max_length, self.limit = path, weights, max_length, limit
        self._made: Optional[Tuple[Language, List[Example]]] = None

    def __call__(self, nlp: Language) -> List[Example]:
        if self._made is None or self._made[0] is not nlp:
            self._made = (nlp, self._read(nlp))
        return list(self._made[1])

    def _read(self, nlp: Language) -> List[Example]:
        if not self.path.exists():
            raise ValueError(f"spacy-seqkit.WeightedCorpus.v1: no file or folder at '{self.path}' ('path')")
        files = walk_corpus(self.path, ".spacy")
        if not files:
            raise ValueError(f"spacy-seqkit.WeightedCorpus.v1: no .spacy file under '{self.path}' ('path')")
        unknown = sorted(set(self.weights) - {Path(file).stem for file in files})
        if unknown:  # a corpus without that part (one file of one's own), or a misspelt name
            warnings.warn(
                f"spacy-seqkit.WeightedCorpus.v1: 'weights' names {unknown}, which are no .spacy files "
                f"under '{self.path}': read once, as every file",
                stacklevel=2,
            )
        examples: List[Example] = []
        for file in files:
            read = list(Corpus(file, max_length=self.max_length, limit=self.limit)(nlp))
            examples.extend(read)
            for _ in range(self.weights.get(Path(file).stem, 1) - 1):
                examples.extend(example.copy() for example in read)
        return examples
