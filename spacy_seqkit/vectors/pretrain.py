"""The `pretrain-vectors` command as a function: text file → word2vec text file."""

from itertools import chain
from pathlib import Path
from typing import Optional, Sequence, Union

from .io import write_word2vec_text
from .trainer import TrainResult, Word2VecConfig, Word2VecTrainer
from .vocab import Vocabulary, read_texts, tokenize_lines


def pretrain_vectors(
    text: Union[str, Path],
    output: Union[str, Path],
    config: Word2VecConfig,
    pipeline: Optional[str] = None,
    lang: str = "fr",
    progress: bool = True,
    extra: Sequence[Union[str, Path]] = (),
) -> TrainResult:
    """Tokenise `text` (one sentence or paragraph a line, or JSONL records with
    a "text" field) with a blank `lang`
    tokenizer or the given pipeline's, train vectors and write them to `output`
    in word2vec text format, most frequent word first. `extra` files or
    directories (their .txt / .jsonl files) are added to the text."""
    nlp = None
    if pipeline is not None:
        import spacy

        nlp = spacy.load(pipeline)
    texts = chain(read_texts(text), *(read_texts(p) for p in extra))
    sentences = list(tokenize_lines(texts, nlp=nlp, lang=lang))
    if not sentences:
        raise ValueError(f"'text': {text} contains no words")
    vocab = Vocabulary.from_sentences(sentences, min_count=config.min_count)
    if len(vocab) < 2:
        raise ValueError(
            f"'text': {text} has {len(vocab)} distinct word(s) occurring at least "
            f"min_count={config.min_count} times; word2vec needs at least 2 (lower --min-count or give more text)"
        )
    trainer = Word2VecTrainer(vocab, config)
    result = trainer.train(vocab.encode(sentences), progress=progress)
    write_word2vec_text(output, vocab.words, trainer.model.vectors())
    return result
