"""The `pretrain-vectors` command as a function: text file -> word2vec vectors, written
in word2vec's text format or as a spaCy pipeline folder."""

import time
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Optional, Sequence, Union

from ..util import check_choice
from .io import write_spacy_vectors, write_word2vec_text
from .trainer import TrainResult, Word2VecConfig, Word2VecTrainer
from .vocab import read_corpus, read_texts

# Output formats: word2vec's text (`spacy init vectors` reads it), or what that
# command writes, a spaCy pipeline folder with the vectors.
FORMATS = ("text", "spacy")


@dataclass
class PretrainResult(TrainResult):
    """The training's result, and the seconds of the steps around it."""

    read_seconds: float = 0.0  # loading the tokenizer, reading, tokenising, counting
    write_seconds: float = 0.0
    tokens: int = 0  # words read, rare ones included
    vocab_size: int = 0  # words kept (min_count)


def pretrain_vectors(
    text: Union[str, Path],
    output: Union[str, Path],
    config: Word2VecConfig,
    pipeline: Optional[str] = None,
    lang: str = "fr",
    progress: bool = True,
    extra: Sequence[Union[str, Path]] = (),
    output_format: str = "text",
) -> PretrainResult:
    """Tokenise `text` (one sentence or paragraph a line, or JSONL records with a "text"
    field) with a blank `lang` tokenizer or the given pipeline's, train vectors and write
    them to `output`, most frequent word first: in word2vec's text format (`.gz`
    compressed if so named), or with output_format="spacy" as the pipeline folder that
    `spacy init vectors` would make of it. `extra` files or directories (their .txt /
    .jsonl files) are added to the text. Reading, tokenising and counting are one pass
    (`read_corpus`)."""
    from ..regex_cache import blank, load

    check_choice("output_format", output_format, FORMATS)
    output = Path(output)
    if output_format == "text" and output.is_dir():
        raise ValueError(f"'output': {output} is a folder; the text format is a file (or use the spaCy format)")
    if output_format == "spacy" and output.is_file():
        raise ValueError(f"'output': {output} is a file; the spaCy format is a folder")
    start = time.perf_counter()
    # Our own pipeline, discarded after: its new words need no lexical attributes.
    nlp = load(pipeline) if pipeline is not None else blank(lang)
    texts = chain(read_texts(text), *(read_texts(p) for p in extra))
    vocab, corpus, n_words = read_corpus(texts, config.min_count, nlp=nlp, lexeme_attrs=False, progress=progress)
    if n_words == 0:
        raise ValueError(f"'text': {text} contains no words")
    if len(vocab) < 2:
        raise ValueError(
            f"'text': {text} has {len(vocab)} distinct word(s) occurring at least "
            f"min_count={config.min_count} times; word2vec needs at least 2 (lower --min-count or give more text)"
        )
    read_seconds = time.perf_counter() - start
    trainer = Word2VecTrainer(vocab, config)
    trained = trainer.train(corpus, progress=progress)
    start = time.perf_counter()
    if output_format == "spacy":
        write_spacy_vectors(output, vocab.words, trainer.model.vectors(), lang=nlp.lang)
    else:
        write_word2vec_text(output, vocab.words, trainer.model.vectors())
    return PretrainResult(
        **vars(trained),
        read_seconds=read_seconds,
        write_seconds=time.perf_counter() - start,
        tokens=n_words,
        vocab_size=len(vocab),
    )
