"""`benchmark decoding`'s Transformer rows: fixed target lengths, the cache
against the recomputed prefix (same n-best lists), and its options."""

import pytest
import spacy
from thinc.api import fix_random_seed
from typer.testing import CliRunner

from spacy_seqkit.benchmarks.decoding import cache_rows, decode_fixed_length, synthetic_requests
from spacy_seqkit.cli import app
from spacy_seqkit.readers import rewrite_example

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _untrained(model):
    fix_random_seed(0)
    nlp = spacy.blank("fr")
    nlp.add_pipe("seqkit_rewriter", config={"model": model})
    texts, rewrites = synthetic_requests(30, 0)
    nlp.initialize(lambda: [rewrite_example(nlp, t, r) for t, r in zip(texts, rewrites)])
    return nlp


def test_decoding_benchmark_fixed_lengths_and_cache_rows():
    transformer = _untrained(
        {
            "@architectures": "spacy-seqkit.TransformerRewriter.v1",
            "width": 16,
            "n_heads": 2,
            "ffn_width": 32,
            "encoder_depth": 1,
            "decoder_depth": 2,
            "copy": True,
        }
    )
    recurrent = _untrained({"embed_width": 8, "hidden_width": 8})
    docs = [transformer.make_doc(t) for t in synthetic_requests(5, 1)[0]]
    model = transformer.get_pipe("seqkit_rewriter").model
    found = decode_fixed_length(model, docs, 7, beam_size=3, batch_size=2)
    assert len(found) == 5 and all(len(hyps) == 3 and all(len(ids) == 7 for ids, _ in hyps) for hyps in found)
    rows = cache_rows(
        {"transformer": model, "recurrent": recurrent.get_pipe("seqkit_rewriter").model},
        docs,
        [4, 9],
        beam_size=2,
        batch_size=3,
        repeats=1,
    )
    assert [(r["decoder"], r["target length"]) for r in rows] == [
        (name, length)
        for length in (4, 9)
        for name in ("transformer, key/value cache", "transformer, prefix recomputed", "recurrent (LSTM)")
    ]
    assert all(r["identical n-best"] == "5/5" for r in rows if "identical n-best" in r)


@pytest.mark.parametrize(
    "args,option",
    [
        (["--target-lengths", "20,0"], "--target-lengths"),
        (["--target-lengths", "x"], "--target-lengths"),
        (["--n-cache-sentences", "0"], "--n-cache-sentences"),
    ],
)
def test_benchmark_decoding_names_the_bad_cache_option(args, option):
    result = CliRunner().invoke(app, ["benchmark", "decoding", *args])
    assert result.exit_code == 2
    assert option in result.output
