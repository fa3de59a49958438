"""spacy-seqkit.rewrite_scorer.v1: exact match, chrF, BLEU, ROUGE, CER."""

import pytest
import spacy
from spacy.training import Example
from thinc.api import Config

from spacy_seqkit.extensions import install_rewrite_extensions
from spacy_seqkit.scoring import make_rewrite_scorer, rewrite_score

install_rewrite_extensions()


def examples(pairs):
    nlp = spacy.blank("en")
    result = []
    for hyp, ref in pairs:
        pred, gold = nlp.make_doc("x"), nlp.make_doc("x")
        pred._.rewrite, gold._.rewrite = hyp, ref
        result.append(Example(pred, gold))
    return result


def test_scoring_perfect_and_known_values():
    perfect = rewrite_score(examples([("Lyon > Paris", "Lyon > Paris"), ("INVALID", "INVALID")]))
    # ROUGE-2 as rouge-score computes it: "INVALID" has no bigram, so F = 0 even
    # for an exact match; the mean over the two examples is 0.5.
    assert perfect == pytest.approx(
        {
            "rewrite_exact": 1.0,
            "rewrite_chrf": 1.0,
            "rewrite_bleu": 1.0,
            "rewrite_rouge1": 1.0,
            "rewrite_rouge2": 0.5,
            "rewrite_rougeL": 1.0,
            "rewrite_cer": 0.0,
        }
    )
    scores = rewrite_score(examples([("Lyon > Pars", "Lyon > Paris"), ("INVALID", "INVALID")]))
    assert scores["rewrite_exact"] == 0.5
    assert scores["rewrite_cer"] == pytest.approx(1 / (12 + 7))
    assert 0.5 < scores["rewrite_chrf"] < 1.0
    assert 0.0 < scores["rewrite_bleu"] < 1.0


def test_scoring_matches_sacrebleu_and_rapidfuzz():
    from rapidfuzz.distance import Levenshtein
    from sacrebleu.metrics import CHRF

    pairs = [("Marseille > Lyon", "Marseille > Paris"), ("Nice", "Nice > Tours"), ("", "Brest > Metz")]
    scores = rewrite_score(examples(pairs))
    hyps, refs = zip(*pairs)
    assert scores["rewrite_chrf"] == pytest.approx(CHRF().corpus_score(list(hyps), [list(refs)]).score / 100)
    edits = sum(Levenshtein.distance(h, r) for h, r in pairs)
    assert scores["rewrite_cer"] == pytest.approx(edits / sum(len(r) for r in refs))
    assert scores["rewrite_exact"] == 0.0


def test_scoring_skips_examples_without_gold_and_handles_missing_predictions():
    scores = rewrite_score(examples([(None, "Lyon > Paris"), ("abc", None)]))
    assert scores["rewrite_exact"] == 0.0
    assert scores["rewrite_cer"] == pytest.approx(1.0)
    assert rewrite_score(examples([("abc", None)])) == {
        "rewrite_exact": None,
        "rewrite_chrf": None,
        "rewrite_bleu": None,
        "rewrite_rouge1": None,
        "rewrite_rouge2": None,
        "rewrite_rougeL": None,
        "rewrite_cer": None,
    }
    assert rewrite_score([])["rewrite_exact"] is None


def test_scoring_resolves_from_config():
    config = Config().from_str('[scorer]\n@scorers = "spacy-seqkit.rewrite_scorer.v1"')
    scorer = spacy.util.registry.resolve(config)["scorer"]
    assert scorer is rewrite_score is make_rewrite_scorer()


def test_scoring_rouge_matches_rouge_score_on_words_as_written():
    """ROUGE-1/2/L F from rouge-score, averaged over examples, on whitespace
    words kept as written: accents and case count ("Évry" is a word, not "vry")."""
    from rouge_score.rouge_scorer import RougeScorer

    from spacy_seqkit.scoring import WhitespaceTokenizer

    pairs = [("Lyon > Paris", "Lyon > Dijon > Paris"), ("Évry > Sète", "Évry > Sete"), ("INVALID", "Nice > Tours")]
    scores = rewrite_score(examples(pairs))
    reference = RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=WhitespaceTokenizer())
    for name in ("rouge1", "rouge2", "rougeL"):
        expected = sum(reference.score(ref, hyp)[name].fmeasure for hyp, ref in pairs) / len(pairs)
        assert scores[f"rewrite_{name}"] == pytest.approx(expected)
    # "Lyon > Paris" against "Lyon > Dijon > Paris": 3 of 3 words, 3 of 5 -> F 0.75;
    # "Évry > Sète": 2 of 3 words -> F 2/3; INVALID: 0.
    assert scores["rewrite_rouge1"] == pytest.approx((0.75 + 2 / 3 + 0.0) / 3)
    # The default tokenizer would see "vry > Sète" and "vry > Sete" as "vry s te" / "vry sete".
    assert rewrite_score(examples([("Évry", "Évry")]))["rewrite_rouge1"] == 1.0
    assert rewrite_score(examples([("Évry", "Evry")]))["rewrite_rouge1"] == 0.0


def test_scoring_usable_by_spacy_evaluate():
    """`nlp.evaluate` (what `spacy evaluate` runs) on a pipeline with a rewriter
    reports every score, ROUGE included."""
    from spacy_seqkit.readers import rewrite_example

    nlp = spacy.blank("en")
    nlp.add_pipe("seqkit_rewriter", config={"model": {"embed_width": 8, "hidden_width": 8}, "beam_size": 1})
    egs = [rewrite_example(nlp, text, gold) for text, gold in (("lyon paris", "Lyon > Paris"), ("nice", "INVALID"))]
    nlp.initialize(lambda: egs)
    results = nlp.evaluate(egs)
    for key in ("rewrite_exact", "rewrite_chrf", "rewrite_rouge1", "rewrite_rouge2", "rewrite_rougeL"):
        assert 0.0 <= results[key] <= 1.0, key
