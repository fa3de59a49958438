"""Seq2seq rewriters, a thinc Model around a torch module of one of two kinds:
the recurrent one (`RecurrentModule`: bi-LSTM or bi-GRU encoder, attentional
LSTM or GRU decoder) and the Transformer (`TransformerModule`: pre-LN
self-attention encoder made of the attention encoder's blocks, causal
decoder with cross-attention and a key/value cache). Both have the
approximate output layers and the optional copy mechanism (a copied unit may
take the other case: "marseille" -> "Marseille").

Source units are the characters of the text or its BPE pieces (embedded here),
or the doc's tokens (vectors from any spaCy embedding sub-model, trained
through this model's gradient). Target units are characters, whitespace-
separated words or BPE pieces, with vocabularies (and the sentencepiece model)
built at `initialize`. Every source gets an end marker, so even an empty
source has one position to attend to.

A file per role:

- `units.py`: the specials, units of a text (BPE pieces included),
  vocabularies and their lookups;
- `encoder.py`: the recurrent encoder (`RecurrentEncoder`, LSTM or GRU) and
  the layout of token-vector sources that the Transformer's encoder shares;
- `attention.py`: the recurrent decoder's attention family (Luong dot /
  general / concat, Bahdanau), a table of classes with one interface;
- `copy.py`: the copy mechanism;
- `readout.py`: decoder outputs to log-probabilities and to the loss, through
  the output layer (`../output_layers.py`) and the copy mechanism;
- `recurrent.py`: the recurrent torch module (`RecurrentModule`) and its
  config; teacher forcing with scheduled sampling and label smoothing;
- `transformer_encoder.py`, `transformer_decoder.py`, `transformer.py`: the
  Transformer's encoder, decoder (with its cache) and torch module
  (`TransformerModule`), built on the blocks of `../attention/`;
- `config.py`: the rewriters' settings, validated once;
- `model.py`: the thinc model, its initialisation and converters;
- `predict.py`: n-best prediction with the searches of `../decoding.py`;
- `alignment.py`: attention weights of a rewrite, for pictures.
"""

from .config import RewriterConfig, ScheduledRate, TransformerRewriterConfig
from .model import (
    VOCAB_KEYS,
    RewriteBatch,
    Seq2SeqRewriter,
    build_torch_layer,
    is_built,
    set_vocabularies,
    torch_module,
    vocabularies_from_data,
)
from .predict import predict_rewrites, start_search
from .recurrent import RecurrentModule, RecurrentModuleConfig
from .transformer import TransformerModule
from .units import Pieces, UnitVocabularies, other_case

__all__ = [
    "Pieces",
    "RecurrentModule",
    "RecurrentModuleConfig",
    "RewriteBatch",
    "RewriterConfig",
    "ScheduledRate",
    "Seq2SeqRewriter",
    "UnitVocabularies",
    "VOCAB_KEYS",
    "build_torch_layer",
    "is_built",
    "other_case",
    "predict_rewrites",
    "set_vocabularies",
    "start_search",
    "torch_module",
    "TransformerModule",
    "TransformerRewriterConfig",
    "vocabularies_from_data",
]
