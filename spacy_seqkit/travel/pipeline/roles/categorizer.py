"""`seqkit_roles`: spaCy's single-label span categorizer (`spancat_singlelabel`: the same
settings, model, training and saved form) that writes the roles it predicts for a batch of docs at
once: one argmax over the batch's candidates instead of a dozen small numpy calls a doc (spaCy's
`_make_span_group_singlelabel` took 33 µs a request of the ~700 a request costs `resolve`). The
spans, their labels and their `scores` are the ones spaCy's writes."""

from typing import Callable, Iterable, List, Optional, Tuple

import numpy
from spacy.language import Language
from spacy.pipeline.spancat import DEFAULT_SPANCAT_SINGLELABEL_MODEL, DEFAULT_SPANS_KEY, SpanCategorizer, Suggester
from spacy.tokens import Doc, Span, SpanGroup
from thinc.api import Model, Ragged
from thinc.types import Floats2d


class RolesCategorizer(SpanCategorizer):
    def set_annotations(self, docs: Iterable[Doc], indices_scores) -> None:
        if self.cfg["max_positive"] != 1 or not self.cfg["allow_overlap"]:
            return super().set_annotations(docs, indices_scores)
        indices, scores = indices_scores
        ops = self.model.ops
        scores = ops.to_numpy(scores)
        rows = ops.to_numpy(indices.dataXd).tolist()
        lengths = ops.to_numpy(indices.lengths).tolist()
        predicted = scores.argmax(axis=1) if scores.size else numpy.zeros((0,), dtype="int64")
        best = numpy.take_along_axis(scores, predicted[:, None], axis=1) if scores.size else scores
        keeps = numpy.ones(predicted.shape, dtype=bool)
        if self.add_negative_label:
            keeps &= predicted != self._negative_label_i
        threshold = self.cfg["threshold"]
        if threshold is not None:
            keeps &= (best >= threshold).reshape(-1)
        labels, kept, chosen = self.labels, keeps.tolist(), predicted.tolist()
        offset = 0
        for doc, n in zip(docs, lengths):
            if not n:  # no candidate: an empty group, without scores (as spaCy writes it)
                doc.spans[self.key] = SpanGroup(doc, name=self.key)
                continue
            mine = [i for i in range(offset, offset + n) if kept[i]]
            spans = [Span(doc, rows[i][0], rows[i][1], label=labels[chosen[i]]) for i in mine]
            doc.spans[self.key] = SpanGroup(
                doc, name=self.key, spans=spans, attrs={"scores": numpy.array([best[i] for i in mine])}
            )
            offset += n


@Language.factory(
    "seqkit_roles",
    assigns=["doc.spans"],
    default_config={
        "spans_key": DEFAULT_SPANS_KEY,
        "model": DEFAULT_SPANCAT_SINGLELABEL_MODEL,
        "negative_weight": 1.0,
        "suggester": {"@misc": "spacy.ngram_suggester.v1", "sizes": [1, 2, 3]},
        "scorer": {"@scorers": "spacy.spancat_scorer.v1"},
        "allow_overlap": True,
    },
    default_score_weights={"spans_sc_f": 1.0, "spans_sc_p": 0.0, "spans_sc_r": 0.0},
)
def make_roles_categorizer(
    nlp: Language,
    name: str,
    suggester: Suggester,
    model: Model[Tuple[List[Doc], Ragged], Floats2d],
    spans_key: str,
    negative_weight: float,
    allow_overlap: bool,
    scorer: Optional[Callable],
) -> RolesCategorizer:
    """spaCy's `spancat_singlelabel` (its settings, the same meaning), writing a batch's predicted
    spans at once: the roles of the candidate ends (`spacy-seqkit.place_suggester.v1`)."""
    return RolesCategorizer(
        nlp.vocab,
        model=model,
        suggester=suggester,
        name=name,
        spans_key=spans_key,
        negative_weight=negative_weight,
        allow_overlap=allow_overlap,
        max_positive=1,
        add_negative_label=True,
        threshold=None,
        scorer=scorer,
    )
