"""`seqkit_rewriter`: a trainable component that rewrites a doc into another text.

Predictions go to `doc._.rewrite` (str) and `doc._.rewrite_nbest` (list of
(string, score), best first); the gold is `doc._.rewrite` on the reference doc.
The vocabularies live in `self.cfg`, so loading is two-stage: cfg, then the torch
module is built from it, then the weights are read.
"""

from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Config, Model, set_dropout_rate

from ..extensions import install_rewrite_extensions
from ..layers.decoding import SEARCHES, build_length_penalty
from ..layers.seq2seq import (
    VOCAB_KEYS,
    RewriteBatch,
    build_torch_layer,
    is_built,
    predict_rewrites,
    set_vocabularies,
    vocabularies_from_data,
)
from ..util import check_choice, check_non_negative_int, check_positive_int, check_positive_number

# The architecture's own defaults apply, but for the settings that deliberately
# differ from them.
default_model_config = """
[model]
@architectures = "spacy-seqkit.Seq2SeqRewriter.v1"
label_smoothing = 0.1
"""
DEFAULT_REWRITER_MODEL = Config().from_str(default_model_config)["model"]

install_rewrite_extensions()


@Language.factory(
    "seqkit_rewriter",
    assigns=["doc._.rewrite", "doc._.rewrite_nbest"],
    default_config={
        "model": DEFAULT_REWRITER_MODEL,
        "search": "beam",
        "beam_size": 5,
        "n_best": 5,
        "length_penalty": "gnmt",
        "length_alpha": 0.6,
        "max_length_ratio": 2.0,
        "max_length_extra": 10,
        "scorer": {"@scorers": "spacy-seqkit.rewrite_scorer.v1"},
    },
    default_score_weights={
        "rewrite_exact": 1.0,
        "rewrite_chrf": 0.0,
        "rewrite_bleu": 0.0,
        "rewrite_rouge1": 0.0,
        "rewrite_rouge2": 0.0,
        "rewrite_rougeL": 0.0,
        "rewrite_cer": None,
    },
)
def make_rewriter(
    nlp: Language,
    name: str,
    model: Model,
    search: str,
    beam_size: int,
    n_best: int,
    length_penalty: Union[float, str],
    length_alpha: float,
    max_length_ratio: float,
    max_length_extra: int,
    scorer: Optional[Callable],
) -> "Rewriter":
    """Create a Rewriter. `search` is "beam" (of `beam_size`; 1 is greedy),
    "greedy" or "naive_beam" (the slow reference); `length_penalty` is "gnmt"
    (GNMT's, with alpha `length_alpha`), "average" or "none", or a number: GNMT
    with that alpha (as in configs written before the choice existed). At most
    `max_length_ratio` × source length + `max_length_extra` target units;
    `n_best` rewrites kept."""
    return Rewriter(
        nlp.vocab,
        model,
        name,
        search=search,
        beam_size=beam_size,
        n_best=n_best,
        length_penalty=length_penalty,
        length_alpha=length_alpha,
        max_length_ratio=max_length_ratio,
        max_length_extra=max_length_extra,
        scorer=scorer,
    )


class Rewriter(TrainablePipe):
    """Rewrites each doc's text with a seq2seq model."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "seqkit_rewriter",
        *,
        search: str,
        beam_size: int,
        n_best: int,
        length_penalty: Union[float, str],
        length_alpha: float,
        max_length_ratio: float,
        max_length_extra: int,
        scorer: Optional[Callable] = None,
    ) -> None:
        """The decoding settings have their defaults in the factory's config."""
        check_choice("search", search, SEARCHES)
        check_positive_int("beam_size", beam_size)
        check_positive_int("n_best", n_best)
        check_non_negative_int("max_length_extra", max_length_extra)
        build_length_penalty(length_penalty, length_alpha)  # a ValueError naming a bad one
        check_positive_number("max_length_ratio", max_length_ratio)
        install_rewrite_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.search = search
        self.beam_size = beam_size
        self.n_best = min(n_best, beam_size)
        self.length_penalty = length_penalty
        self.length_alpha = length_alpha
        self.max_length_ratio = float(max_length_ratio)
        self.max_length_extra = max_length_extra
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {key: None for key in VOCAB_KEYS}

    @property
    def label_data(self) -> Dict[str, Any]:
        """The vocabularies, for `spacy init labels`."""
        return {key: self.cfg[key] for key in VOCAB_KEYS}

    def predict(self, docs: Iterable[Doc]) -> List[List[Tuple[str, float]]]:
        docs = list(docs)
        if not is_built(self.model):
            raise ValueError(f"The '{self.name}' component is not initialized: run nlp.initialize() or train it")
        return predict_rewrites(
            self.model,
            docs,
            search=self.search,
            beam_size=self.beam_size,
            n_best=self.n_best,
            length_penalty=self.length_penalty,
            length_alpha=self.length_alpha,
            max_length_ratio=self.max_length_ratio,
            max_length_extra=self.max_length_extra,
        )

    def set_annotations(self, docs: Iterable[Doc], nbest: List[List[Tuple[str, float]]]) -> None:
        for doc, hyps in zip(docs, nbest):
            doc._.rewrite = hyps[0][0]
            doc._.rewrite_nbest = [(text, float(score)) for text, score in hyps]

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd=None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """One teacher-forced step on the examples with a gold rewrite; the loss
        (mean per target unit) is computed in torch inside the model."""
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        validate_examples(examples, "Rewriter.update")
        examples = [eg for eg in examples if eg.reference._.rewrite is not None]
        if not examples:
            return losses
        set_dropout_rate(self.model, drop)
        batch = RewriteBatch([eg.predicted for eg in examples], [eg.reference._.rewrite for eg in examples])
        scores, backprop = self.model.begin_update(batch)
        loss, d_scores = self.get_loss(examples, scores)
        backprop(d_scores)
        if sgd is not None:
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def get_loss(self, examples: Iterable[Example], scores) -> Tuple[float, Any]:
        """The model already returns the mean loss per target unit: its gradient
        with respect to itself is 1."""
        validate_examples(examples, "Rewriter.get_loss")
        return float(scores.sum()), self.model.ops.xp.ones_like(scores)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Build the vocabularies from all examples (or take them from `labels`,
        as written by `spacy init labels`), then the model."""
        validate_get_examples(get_examples, "Rewriter.initialize")
        gold = [eg for eg in get_examples() if eg.reference._.rewrite is not None]
        if not gold and labels is None:
            raise ValueError(
                f"'{self.name}' needs training examples whose reference doc has "
                "doc._.rewrite set (use the spacy-seqkit.RewriteCorpus.v1 reader, or a "
                "DocBin saved with store_user_data=True)"
            )
        if labels is not None:
            missing = [k for k in ("source_vocab", "target_vocab", "target_counts") if k not in labels]
            if missing:
                raise ValueError(f"'labels' for '{self.name}' lacks {missing}")
            vocabs = dict(labels)
        else:
            vocabs = vocabularies_from_data(
                self.model, (eg.reference for eg in gold), (eg.reference._.rewrite for eg in gold)
            )
        set_vocabularies(self.model, vocabs)
        sample = [eg.predicted for eg in islice(gold or get_examples(), 10)]
        self.model.initialize(X=sample or None)
        vocabs["source_width"] = self.model.attrs["source_width"]
        self.cfg.update({key: vocabs.get(key) for key in VOCAB_KEYS})

    # -- serialization: cfg first, then build the module, then the weights
    def _build_from_cfg(self) -> None:
        if self.cfg.get("target_vocab") is None:
            raise ValueError(f"'{self.name}': no vocabulary in the saved cfg; was it trained?")
        set_vocabularies(self.model, self.cfg)
        build_torch_layer(self.model)

    def to_bytes(self, *, exclude=tuple()) -> bytes:
        serializers = {
            "cfg": lambda: srsly.json_dumps(self.cfg),
            "model": lambda: self.model.to_bytes(),
            "vocab": lambda: self.vocab.to_bytes(exclude=exclude),
        }
        return util.to_bytes(serializers, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> "Rewriter":
        def load_model(b: bytes) -> None:
            self._build_from_cfg()
            self.model.from_bytes(b)

        deserializers = {
            "cfg": lambda b: self.cfg.update(srsly.json_loads(b)),
            "model": load_model,
            "vocab": lambda b: self.vocab.from_bytes(b, exclude=exclude),
        }
        util.from_bytes(bytes_data, deserializers, exclude)
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        path = util.ensure_path(path)
        serializers = {
            "cfg": lambda p: srsly.write_json(p, self.cfg),
            "model": lambda p: self.model.to_disk(p),
            "vocab": lambda p: self.vocab.to_disk(p, exclude=exclude),
        }
        util.to_disk(path, serializers, exclude)

    def from_disk(self, path, *, exclude=tuple()) -> "Rewriter":
        def load_model(p) -> None:
            self._build_from_cfg()
            with open(p, "rb") as file_:
                self.model.from_bytes(file_.read())

        deserializers: Dict[str, Callable[[Path], Any]] = {
            "cfg": lambda p: self.cfg.update(srsly.read_json(p)),
            "model": load_model,
            "vocab": lambda p: self.vocab.from_disk(p, exclude=exclude),
        }
        util.from_disk(path, deserializers, exclude)
        return self
