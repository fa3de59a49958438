"""The travel project's rewriter configs (configs/rewriter.cfg, the LSTM one, and
configs/rewriter_transformer.cfg) resolve into pipelines that read the generated
corpus's typed rewrites; the Transformer's learning rate is the warm-up / 1/√step one."""

from pathlib import Path

import pytest
import spacy
from spacy.util import registry

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize(
    "name,architecture,model_name",
    [
        ("rewriter.cfg", "spacy-seqkit.Seq2SeqRewriter.v1", "seqkit_seq2seq_rewriter"),
        ("rewriter_transformer.cfg", "spacy-seqkit.TransformerRewriter.v1", "seqkit_transformer_rewriter"),
    ],
)
def test_rewriter_configs_resolve_and_learn_typed_places(name, architecture, model_name):
    config = spacy.util.load_config(CONFIGS / name)
    model = config["components"]["seqkit_rewriter"]["model"]
    assert model["@architectures"] == architecture
    assert (model["source"], model["target"], model["copy"]) == ("tokens", "words", True)
    assert {config["corpora"][split]["rewrite_key"] for split in ("train", "dev")} == {"rewrite_typed"}
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    assert nlp.pipe_names == ["seqkit_place_marker", "seqkit_rewriter"]
    assert nlp.get_pipe("seqkit_rewriter").model.name == model_name


def test_transformer_rewriter_config_trains_with_warmup_rsqrt():
    config = spacy.util.load_config(CONFIGS / "rewriter_transformer.cfg")
    assert config["components"]["seqkit_rewriter"]["model"]["selective_read"] is True
    schedule = config["training"]["optimizer"]["learn_rate"]
    assert schedule["@schedules"] == "spacy-seqkit.warmup_rsqrt.v1"
    rate = registry.resolve({"x": schedule})["x"]
    rates = [next(rate) for _ in range(2000)]
    peak = schedule["warmup_steps"]
    assert max(rates) == pytest.approx(rates[peak - 1]) and rates[-1] < rates[peak - 1]
