"""Scores of rewritten text: exact match, chrF and BLEU (sacrebleu, corpus
level), ROUGE-1, ROUGE-2 and ROUGE-L F-measures (Google's rouge-score, mean
over examples), character error rate (rapidfuzz). All in [0, 1] like spaCy's
scores; only the CER is better when lower."""

from typing import Any, Callable, Dict, Iterable, List

from spacy.training import Example

from .extensions import install_rewrite_extensions

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")


class WhitespaceTokenizer:
    """ROUGE's units: whitespace-separated words as written. (rouge-score's
    default tokenizer lowercases and keeps only [a-z0-9], which would erase
    "Étienne" and "Évry".)"""

    def tokenize(self, text: str) -> List[str]:
        return text.split()


def rouge_f(hyps: List[str], refs: List[str]) -> Dict[str, float]:
    """Mean ROUGE-1, ROUGE-2 and ROUGE-L F-measures of hypotheses against references."""
    from rouge_score.rouge_scorer import RougeScorer

    scorer = RougeScorer(list(ROUGE_TYPES), tokenizer=WhitespaceTokenizer())
    totals = dict.fromkeys(ROUGE_TYPES, 0.0)
    for hyp, ref in zip(hyps, refs):
        scores = scorer.score(ref, hyp)  # (target, prediction)
        for name in ROUGE_TYPES:
            totals[name] += scores[name].fmeasure
    return {name: total / len(refs) for name, total in totals.items()}


def rewrite_score(examples: Iterable[Example], *, attr: str = "rewrite", **kwargs: Any) -> Dict[str, Any]:
    """Compare `doc._.<attr>` of predicted and reference docs, over the examples
    whose reference has one. Keys: <attr>_exact, <attr>_chrf, <attr>_bleu,
    <attr>_rouge1, <attr>_rouge2, <attr>_rougeL, <attr>_cer (None when no
    example has a reference)."""
    from rapidfuzz.distance import Levenshtein
    from sacrebleu.metrics import BLEU, CHRF

    install_rewrite_extensions()
    hyps: List[str] = []
    refs: List[str] = []
    for eg in examples:
        ref = eg.reference._.get(attr)
        if ref is None:
            continue
        hyp = eg.predicted._.get(attr)
        refs.append(str(ref))
        hyps.append("" if hyp is None else str(hyp))
    names = ("exact", "chrf", "bleu", *ROUGE_TYPES, "cer")
    keys = [f"{attr}_{name}" for name in names]
    if not refs:
        return {key: None for key in keys}
    exact = sum(h == r for h, r in zip(hyps, refs)) / len(refs)
    chrf = CHRF().corpus_score(hyps, [refs]).score / 100.0
    # Short strings such as "Lyon > Paris": smooth BLEU's zero n-gram counts.
    bleu = BLEU(smooth_method="exp", effective_order=True).corpus_score(hyps, [refs]).score / 100.0
    rouge = rouge_f(hyps, refs)
    edits = sum(Levenshtein.distance(h, r) for h, r in zip(hyps, refs))
    n_chars = sum(len(r) for r in refs)
    cer = edits / n_chars if n_chars else float(any(hyps))
    return dict(zip(keys, (exact, chrf, bleu, *(rouge[name] for name in ROUGE_TYPES), cer)))


def make_rewrite_scorer() -> Callable[..., Dict[str, Any]]:
    return rewrite_score
