"""The word2vec text format: a `rows dim` header, then `word v1 ... vdim` per line.
`spacy init vectors LANG FILE DIR` reads it."""

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
    lines = [f"{vectors.shape[0]} {vectors.shape[1]}\n"]
    for word, row in zip(words, vectors):
        lines.append(word + " " + " ".join(f"{x:.6g}" for x in row.tolist()) + "\n")
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
