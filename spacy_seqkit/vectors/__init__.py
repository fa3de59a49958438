"""Static word vectors trained with word2vec's approximate losses (negative
sampling, hierarchical softmax), for spaCy's `include_static_vectors`."""

from .config import Word2VecConfig
from .io import read_word2vec_text, write_spacy_vectors, write_word2vec_text
from .model import Word2VecModel, window_step
from .trainer import TrainResult, Word2VecTrainer, train_vectors
from .vocab import Corpus, Vocabulary, read_corpus, read_lines, read_sentences, read_texts, tokenize_lines

__all__ = [
    "Corpus",
    "TrainResult",
    "Vocabulary",
    "Word2VecConfig",
    "Word2VecModel",
    "Word2VecTrainer",
    "read_corpus",
    "read_lines",
    "read_sentences",
    "read_texts",
    "read_word2vec_text",
    "window_step",
    "tokenize_lines",
    "train_vectors",
    "write_spacy_vectors",
    "write_word2vec_text",
]
