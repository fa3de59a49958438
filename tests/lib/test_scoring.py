"""spacy-seqkit.rewrite_scorer.v1: exact match, chrF, BLEU, CER."""
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
    assert perfect == pytest.approx(
        {"rewrite_exact": 1.0, "rewrite_chrf": 1.0, "rewrite_bleu": 1.0, "rewrite_cer": 0.0}
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
        "rewrite_exact": None, "rewrite_chrf": None, "rewrite_bleu": None, "rewrite_cer": None
    }
    assert rewrite_score([])["rewrite_exact"] is None


def test_scoring_resolves_from_config():
    config = Config().from_str('[scorer]\n@scorers = "spacy-seqkit.rewrite_scorer.v1"')
    scorer = spacy.util.registry.resolve(config)["scorer"]
    assert scorer is rewrite_score is make_rewrite_scorer()
