"""Every entry-point name resolves from a plain config string, in a fresh
interpreter that never imported spacy_seqkit: what a user of `spacy train`
gets after `pip install`, with no `--code` flag."""

import json
import subprocess
import sys
import textwrap
from importlib.metadata import distribution

import pytest

# One row per entry point: (group, name) -> a config that uses it.
# A config with an [nlp] section is loaded as a pipeline; any other is resolved.
CONFIGS = {
    ("spacy_callbacks", "spacy-seqkit.arrow_infixes.v1"): """
        [callback]
        @callbacks = "spacy-seqkit.arrow_infixes.v1"
    """,
    ("spacy_tokenizers", "spacy-seqkit.Tokenizer.v1"): """
        [nlp]
        lang = "fr"
        pipeline = []

        [nlp.tokenizer]
        @tokenizers = "spacy-seqkit.Tokenizer.v1"
    """,
    ("spacy_tokenizers", "spacy-seqkit.Tokenizer.v2"): """
        [nlp]
        lang = "fr"
        pipeline = []

        [nlp.tokenizer]
        @tokenizers = "spacy-seqkit.Tokenizer.v2"
        max_run = 100
    """,
    ("spacy_factories", "seqkit_trip"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_trip"]

        [components]

        [components.seqkit_trip]
        factory = "seqkit_trip"
    """,
    ("spacy_factories", "seqkit_places"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_places"]

        [components]

        [components.seqkit_places]
        factory = "seqkit_places"
        unknown_names = "keep"
    """,
    ("spacy_factories", "seqkit_language"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_language"]

        [components]

        [components.seqkit_language]
        factory = "seqkit_language"
        explain = true
    """,
    ("spacy_factories", "seqkit_called_off"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_called_off"]

        [components]

        [components.seqkit_called_off]
        factory = "seqkit_called_off"
        explain = true
    """,
    ("spacy_factories", "seqkit_other_means"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_other_means"]

        [components]

        [components.seqkit_other_means]
        factory = "seqkit_other_means"
        explain = true
    """,
    ("spacy_factories", "seqkit_ruled_out"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_ruled_out"]

        [components]

        [components.seqkit_ruled_out]
        factory = "seqkit_ruled_out"
        explain = true
    """,
    ("spacy_factories", "seqkit_context"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_context"]

        [components]

        [components.seqkit_context]
        factory = "seqkit_context"
        explain = true
    """,
    ("spacy_factories", "seqkit_alternative"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_alternative"]

        [components]

        [components.seqkit_alternative]
        factory = "seqkit_alternative"
        explain = true
    """,
    ("spacy_factories", "seqkit_roles"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_roles"]

        [components]

        [components.seqkit_roles]
        factory = "seqkit_roles"
        spans_key = "roles"

        [components.seqkit_roles.suggester]
        @misc = "spacy-seqkit.place_suggester.v1"
        with_entities = false

        [components.seqkit_roles.suggester.places]
        @misc = "spacy-seqkit.french_places.v1"
    """,
    ("spacy_factories", "seqkit_place_marker"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_place_marker"]

        [components]

        [components.seqkit_place_marker]
        factory = "seqkit_place_marker"
    """,
    ("spacy_architectures", "spacy-seqkit.MaxoutWindowEncoder.v1"): """
        [model]
        @architectures = "spacy-seqkit.MaxoutWindowEncoder.v1"
        width = 16
        depth = 2
        window_size = 1
        maxout_pieces = 2
        dilation = "exponential"
    """,
    ("spacy_architectures", "spacy-seqkit.AttentionEncoder.v1"): """
        [model]
        @architectures = "spacy-seqkit.AttentionEncoder.v1"
        width = 16
        depth = 2
        n_heads = 4
        ffn_width = 32
        attention = "local"
        window = 2
    """,
    ("spacy_architectures", "spacy-seqkit.AttentionEncoder.v2"): """
        [model]
        @architectures = "spacy-seqkit.AttentionEncoder.v2"
        width = 16
        depth = 1
        n_heads = 4
        ffn_width = 32
        attention = "linear"
        front_depth = 2
    """,
    ("spacy_architectures", "spacy-seqkit.Seq2SeqRewriter.v1"): """
        [model]
        @architectures = "spacy-seqkit.Seq2SeqRewriter.v1"
        attention = "bahdanau"
        output_layer = "hierarchical"

        [model.scheduled_sampling]
        @schedules = "compounding.v1"
        start = 0.01
        stop = 0.25
        compound = 1.001
    """,
    ("spacy_architectures", "spacy-seqkit.Seq2SeqRewriter.v2"): """
        [model]
        @architectures = "spacy-seqkit.Seq2SeqRewriter.v2"
        cell = "gru"
        source = "pieces"
        target = "pieces"
        copy = true
        n_pieces = 500
    """,
    ("spacy_architectures", "spacy-seqkit.TransformerRewriter.v1"): """
        [model]
        @architectures = "spacy-seqkit.TransformerRewriter.v1"
        copy = true
        width = 32
        encoder_depth = 2
        decoder_depth = 1
        n_heads = 4
        ffn_width = 64
        attention = "local"
        positions = "learned"
    """,
    ("spacy_factories", "seqkit_rewriter"): """
        [nlp]
        lang = "fr"
        pipeline = ["seqkit_rewriter"]

        [components]

        [components.seqkit_rewriter]
        factory = "seqkit_rewriter"
    """,
    ("spacy_scorers", "spacy-seqkit.rewrite_scorer.v1"): """
        [scorer]
        @scorers = "spacy-seqkit.rewrite_scorer.v1"
    """,
    ("spacy_readers", "spacy-seqkit.RewriteCorpus.v1"): """
        [corpus]
        @readers = "spacy-seqkit.RewriteCorpus.v1"
        path = "corpus/generated/train.jsonl"
    """,
    ("spacy_readers", "spacy-seqkit.WeightedCorpus.v1"): """
        [corpus]
        @readers = "spacy-seqkit.WeightedCorpus.v1"
        path = "corpus/train"
        weights = {"written": 2}
    """,
    ("spacy_misc", "spacy-seqkit.french_places.v1"): """
        [places]
        @misc = "spacy-seqkit.french_places.v1"
        min_population = 1000
    """,
    ("spacy_misc", "spacy-seqkit.place_suggester.v1"): """
        [suggester]
        @misc = "spacy-seqkit.place_suggester.v1"
        with_entities = false

        [suggester.places]
        @misc = "spacy-seqkit.french_places.v1"
    """,
    ("spacy_misc", "spacy-seqkit.CamembertEncoderLoader.v1"): """
        [loader]
        @misc = "spacy-seqkit.CamembertEncoderLoader.v1"
        path = "models/camembert-base"
    """,
    ("spacy_misc", "spacy-seqkit.CamembertPiecerLoader.v1"): """
        [loader]
        @misc = "spacy-seqkit.CamembertPiecerLoader.v1"
        path = "models/camembert-base"
    """,
    ("thinc_schedules", "spacy-seqkit.warmup_rsqrt.v1"): """
        [optimizer]
        @optimizers = "Adam.v1"

        [optimizer.learn_rate]
        @schedules = "spacy-seqkit.warmup_rsqrt.v1"
        peak_rate = 0.001
        warmup_steps = 100
    """,
}

RESOLVER = r"""
import json, sys
from spacy.util import load_model_from_config, registry
from thinc.api import Config

configs = json.loads(sys.stdin.read())
assert "spacy_seqkit" not in sys.modules
results = {}
for key, text in configs.items():
    try:
        config = Config().from_str(text)
        if "nlp" in config:
            nlp = load_model_from_config(config, auto_fill=True, validate=True)
            results[key] = "ok: " + ",".join(nlp.pipe_names)
        else:
            resolved = registry.resolve(config, validate=True)
            results[key] = "ok: " + type(next(iter(resolved.values()))).__name__
    except Exception as e:  # report, don't stop: one row per name
        results[key] = f"error: {type(e).__name__}: {e}"
print(json.dumps(results))
"""


def entry_points():
    dist = distribution("spacy-seqkit")
    return sorted((ep.group, ep.name) for ep in dist.entry_points)


@pytest.fixture(scope="module")
def resolved():
    payload = {f"{g}|{n}": textwrap.dedent(CONFIGS[(g, n)]) for g, n in CONFIGS}
    out = subprocess.run(
        [sys.executable, "-c", RESOLVER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_registry_every_entry_point_has_a_config():
    assert set(entry_points()) == set(CONFIGS), (
        "each entry point in setup.cfg needs a row in CONFIGS (and no stale rows)"
    )


@pytest.mark.parametrize("group,name", entry_points())
def test_registry_name_resolves_from_config(resolved, group, name):
    result = resolved[f"{group}|{name}"]
    assert result.startswith("ok"), result
