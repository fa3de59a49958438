"""`spacy-seqkit.RewriteCorpus.v1`: read JSONL `{"text": ..., "rewrite": ...}`
straight into training examples (gold in `doc._.rewrite` of the reference)."""

import random
from pathlib import Path
from typing import Callable, Iterator, Optional, Union

import srsly
from spacy.language import Language
from spacy.training import Example

from .extensions import install_rewrite_extensions
from .util import check_non_negative_int


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
