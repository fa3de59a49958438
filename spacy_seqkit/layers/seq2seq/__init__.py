"""Seq2seq rewriter: bi-LSTM encoder, attentional LSTM decoder, approximate
output layers, optional copy mechanism (a copied unit may take the other case:
"marseille" -> "Marseille"); a thinc Model around a torch module.

Source units are the characters of the text (embedded here) or the doc's tokens
(vectors from any spaCy embedding sub-model, trained through this model's
gradient). Target units are characters or whitespace-separated words, with
vocabularies built at `initialize`. Every source gets an end marker, so even an
empty source has one position to attend to.

A file per role:

- `units.py`: the specials, units of a text, vocabularies and their lookups;
- `encoder.py`: the bi-LSTM encoder;
- `attention.py`: the decoder attention family (Luong dot / general / concat,
  Bahdanau), a table of classes with one interface;
- `copy.py`: the copy mechanism;
- `module.py`: the torch module and its config; teacher forcing with scheduled
  sampling, label smoothing and the chosen output layer (`../output_layers.py`);
- `config.py`: the rewriter's settings, validated once;
- `model.py`: the thinc model, its initialisation and converters;
- `predict.py`: n-best prediction with the searches of `../decoding.py`.
"""
from .config import RewriterConfig, ScheduledRate
from .model import (
    RewriteBatch,
    Seq2SeqRewriter,
    build_torch_layer,
    is_built,
    set_vocabularies,
    torch_module,
    vocabularies_from_data,
)
from .module import ModuleConfig, Seq2SeqModule
from .predict import predict_rewrites
from .units import UnitVocabularies, other_case

__all__ = [
    "ModuleConfig",
    "RewriteBatch",
    "RewriterConfig",
    "ScheduledRate",
    "Seq2SeqModule",
    "Seq2SeqRewriter",
    "UnitVocabularies",
    "build_torch_layer",
    "is_built",
    "other_case",
    "predict_rewrites",
    "set_vocabularies",
    "torch_module",
    "vocabularies_from_data",
]
