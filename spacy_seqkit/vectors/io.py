"""The formats vectors are written in: word2vec's text format (a `rows dim` header, then
`word v1 ... vdim` per line), which `spacy init vectors LANG FILE DIR` reads, or that
command's output itself, a spaCy pipeline folder holding the vectors."""

from pathlib import Path
from typing import List, Sequence, Tuple, Union

import numpy


def write_word2vec_text(path: Union[str, Path], words: Sequence[str], vectors: numpy.ndarray) -> Path:
    """Write vectors in word2vec text format (UTF-8, 6 significant digits, `.gz` compressed if so named)."""
    path = Path(path)
    vectors = numpy.asarray(vectors, dtype="float32")
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise ValueError(f"'vectors' must have shape ({len(words)}, dim), got {vectors.shape}")
    for word in words:
        # spaCy's reader splits a line on its last `dim` spaces, so only an empty
        # word or a newline would corrupt the file.
        if not word or "\n" in word or "\r" in word or word != word.strip():
            raise ValueError(f"cannot write the word {word!r} in word2vec text format")
    path.parent.mkdir(parents=True, exist_ok=True)
    # One %-format of a row's floats at once: the same text as formatting each with
    # f"{x:.6g}", several times faster.
    row_format = "%s " + " ".join(["%.6g"] * vectors.shape[1]) + "\n"
    lines = [f"{vectors.shape[0]} {vectors.shape[1]}\n"]
    lines.extend(row_format % (word, *row) for word, row in zip(words, vectors.tolist()))
    text = "".join(lines)
    if path.suffix == ".gz":
        import gzip

        with gzip.open(path, "wt", encoding="utf8") as f:
            f.write(text)
    else:
        path.write_text(text, encoding="utf8")
    return path


def read_word2vec_text(path: Union[str, Path]) -> Tuple[List[str], numpy.ndarray]:
    """Read the word2vec text format (as written above) into (words, vectors)."""
    path = Path(path)
    if path.suffix == ".gz":
        import gzip

        with gzip.open(path, "rt", encoding="utf8") as f:
            lines = f.read().splitlines()
    else:
        lines = path.read_text(encoding="utf8").splitlines()
    n_rows, dim = (int(x) for x in lines[0].split()[:2])
    words, rows = [], []
    for line in lines[1 : n_rows + 1]:
        pieces = line.rstrip().rsplit(" ", dim)
        words.append(pieces[0])
        rows.append([float(x) for x in pieces[1:]])
    return words, numpy.asarray(rows, dtype="float32").reshape(len(words), dim)


def write_spacy_vectors(path: Union[str, Path], words: Sequence[str], vectors: numpy.ndarray, lang: str) -> Path:
    """Write a blank `lang` pipeline holding the vectors to the folder `path`, as `spacy
    init vectors LANG FILE DIR` writes it from the text format (the vectors keyed by
    ORTH, named `{lang}_pipeline.vectors`), with the float32 values themselves rather
    than their 6-digit text. `[initialize] vectors = "DIR"` loads it."""
    from spacy.vectors import Vectors

    from ..regex_cache import blank

    path = Path(path)
    vectors = numpy.ascontiguousarray(vectors, dtype="float32")
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise ValueError(f"'vectors' must have shape ({len(words)}, dim), got {vectors.shape}")
    if len(set(words)) != len(words):
        raise ValueError("'words' must not contain duplicates")
    if path.exists() and not path.is_dir():
        raise ValueError(f"'output': {path} is a file; the spaCy format is a folder")
    nlp = blank(lang)
    nlp.vocab.vectors = Vectors(strings=nlp.vocab.strings, data=vectors, keys=list(words))
    nlp.vocab.deduplicate_vectors()
    nlp.vocab.vectors.name = f"{nlp.meta['lang']}_{nlp.meta['name']}.vectors"
    nlp.meta["vectors"]["name"] = nlp.vocab.vectors.name
    nlp.to_disk(path)
    return path
