"""configs/ner_trf.cfg: CamemBERT through spacy-curated-transformers, read
from a local directory. A tiny random CamemBERT in the Hugging Face layout
stands in for camembert-base; nothing is downloaded."""

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("spacy_curated_transformers")
pytest.importorskip("sentencepiece")
pytest.importorskip("safetensors")

import spacy  # noqa: E402
from thinc.api import Config  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spacy_seqkit.cli import app  # noqa: E402
from spacy_seqkit.loaders.camembert import (  # noqa: E402
    PATH_VARIABLE,
    TransformerDirectoryError,
    check_transformer_dir,
    fill_config,
)
from spacy_seqkit.loaders.tiny import build_tiny_camembert  # noqa: E402
from spacy_seqkit.travel.corpus.docbin import records_to_docbin  # noqa: E402
from spacy_seqkit.travel.corpus.generate import generate_corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "ner_trf.cfg"
TEXT = "Je veux aller de Marseille à Paris"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("trf_corpus")
    train, dev = generate_corpus(seed=3, n_train=160, n_dev=40)
    records_to_docbin(train).to_disk(root / "train.spacy")
    records_to_docbin(dev).to_disk(root / "dev.spacy")
    return {"dir": root, "texts": [r["text"] for r in train]}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, corpus):
    return build_tiny_camembert(tmp_path_factory.mktemp("tiny") / "camembert", corpus["texts"], n_pieces=400)


def filled_config(directory, **overrides) -> Config:
    config = fill_config(Config().from_disk(CONFIG, interpolate=False), directory)
    for key, value in overrides.items():
        config["components"]["transformer"]["model"][key] = value
    return config


def initialized(config: Config, corpus):
    from spacy.training import Corpus

    nlp = spacy.util.load_model_from_config(config.interpolate(), auto_fill=True, validate=True)
    docs = Corpus(str(corpus["dir"] / "train.spacy"), limit=8)
    nlp.initialize(lambda: docs(nlp))
    return nlp


@pytest.mark.parametrize(
    "remove,expected",
    [
        (None, "no such directory"),
        ("config.json", "config.json is missing"),
        ("weights", "no weights"),
        ("sentencepiece.bpe.model", "sentencepiece.bpe.model is missing"),
    ],
)
def test_trf_incomplete_directory_names_variable_and_file(tmp_path, tiny, remove, expected):
    target = tmp_path / "camembert"
    if remove is not None:
        shutil.copytree(tiny, target)
        for name in ["model.safetensors", "pytorch_model.bin"] if remove == "weights" else [remove]:
            (target / name).unlink(missing_ok=True)
    with pytest.raises(TransformerDirectoryError) as err:
        check_transformer_dir(target)
    assert PATH_VARIABLE in str(err.value) and expected in str(err.value)


def test_trf_bad_config_json_and_foreign_tokenizer(tmp_path, tiny):
    target = tmp_path / "camembert"
    shutil.copytree(tiny, target)
    config = json.loads((target / "config.json").read_text())
    (target / "config.json").write_text(json.dumps({**config, "vocab_size": 100}))
    with pytest.raises(TransformerDirectoryError, match="pieces"):
        check_transformer_dir(target)
    (target / "config.json").write_text("{not json")
    with pytest.raises(TransformerDirectoryError, match="not valid JSON"):
        check_transformer_dir(target)
    (target / "config.json").write_text(json.dumps(config))
    (target / "model.safetensors").write_bytes(b"truncated")
    check_transformer_dir(target)  # cheap check: the file is there
    with pytest.raises(TransformerDirectoryError, match="cannot be read"):
        check_transformer_dir(target, read_weights=True)


@pytest.mark.parametrize("variable", [None, "vars.trf_model"])
def test_trf_check_cli_fails_cleanly_on_missing_directory(tmp_path, variable):
    args = ["check-transformer", str(tmp_path / "models" / "camembert-base")]
    args += ["--variable", variable] if variable else []
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert (variable or "paths.transformer") in result.output and "no such directory" in result.output
    assert "Traceback" not in result.output


def test_trf_make_tiny_cli_rejects_bad_sizes(tmp_path):
    result = CliRunner().invoke(app, ["make-tiny-transformer", str(tmp_path / "t"), "--width", "30", "--heads", "4"])
    assert result.exit_code == 2 and "n_heads" in result.output
    assert not (tmp_path / "t").exists()


def test_trf_make_tiny_cli_writes_a_directory_the_check_accepts(tmp_path):
    target = tmp_path / "camembert"
    result = CliRunner().invoke(app, ["make-tiny-transformer", str(target), "--pieces", "300"])
    assert result.exit_code == 0, result.output
    assert check_transformer_dir(target, read_weights=True).weights.exists()


def test_trf_loss_patch_reads_one_element_arrays():
    import numpy
    from spacy_curated_transformers.pipeline import transformer as pipe_module

    from spacy_seqkit.loaders.camembert import patch_transformer_loss

    patch_transformer_loss()
    assert pipe_module.float(numpy.full(1, 2.5)) == 2.5
    assert pipe_module.float(numpy.float32(1.5)) == 1.5 and pipe_module.float("3") == 3.0
    with pytest.raises(TypeError):
        pipe_module.float(numpy.zeros(2))


def test_trf_check_cli_writes_filled_config(tmp_path, tiny):
    output = tmp_path / "ner_trf.cfg"
    result = CliRunner().invoke(app, ["check-transformer", str(tiny), "--config", str(CONFIG), "--output", str(output)])
    assert result.exit_code == 0, result.output
    config = Config().from_disk(output)
    model = config["components"]["transformer"]["model"]
    hf = json.loads((tiny / "config.json").read_text())
    assert config["paths"]["transformer"] == str(tiny)
    assert (model["hidden_width"], model["num_hidden_layers"], model["num_attention_heads"], model["vocab_size"]) == (
        hf["hidden_size"],
        hf["num_hidden_layers"],
        hf["num_attention_heads"],
        hf["vocab_size"],
    )
    # The listener follows the transformer's width through interpolation.
    assert config["components"]["ner"]["model"]["tok2vec"]["width"] == hf["hidden_size"]


def test_trf_unset_path_fails_at_resolution():
    from spacy.util import registry

    config = Config().from_str('[loader]\n@misc = "spacy-seqkit.CamembertEncoderLoader.v1"\npath = null\n')
    with pytest.raises(ValueError, match=PATH_VARIABLE):
        registry.resolve(config)


def test_trf_shipped_config_is_camembert_base():
    model = Config().from_disk(CONFIG)["components"]["transformer"]["model"]
    assert (model["vocab_size"], model["hidden_width"], model["num_hidden_layers"], model["num_attention_heads"]) == (
        32005,
        768,
        12,
        12,
    )


def test_trf_loader_gives_checkpoint_weights_in_both_formats(tmp_path, tiny, corpus):
    import numpy

    bin_dir = build_tiny_camembert(tmp_path / "bin", corpus["texts"], n_pieces=400, weights="bin")
    outputs = []
    for directory in (tiny, bin_dir):
        nlp = initialized(filled_config(directory), corpus)
        doc = nlp.get_pipe("transformer")(nlp.make_doc(TEXT))
        outputs.append(doc._.trf_data.last_hidden_layer_state.dataXd)
    numpy.testing.assert_array_equal(outputs[0], outputs[1])
    # A freshly built encoder differs: the weights did come from the files.
    fresh = spacy.util.load_model_from_config(filled_config(tiny).interpolate(), auto_fill=True)
    params = fresh.get_pipe("transformer").model.get_ref("transformer").shims[0]._model.state_dict()
    loaded = initialized(filled_config(tiny), corpus).get_pipe("transformer").model.get_ref("transformer")
    key = "curated_encoder.embeddings.inner.word_embeddings.weight"
    assert not numpy.array_equal(params[key].numpy(), loaded.shims[0]._model.state_dict()[key].numpy())


@pytest.mark.parametrize("damage,expected", [("remove", "no such directory"), ("truncate", "cannot be read")])
def test_trf_initialize_stops_on_missing_or_broken_directory(tmp_path, tiny, corpus, damage, expected):
    target = tmp_path / "camembert"
    shutil.copytree(tiny, target)
    config = filled_config(target)
    if damage == "remove":
        shutil.rmtree(target)
    else:
        (target / "model.safetensors").write_bytes(b"\0" * 10)
    with pytest.raises(TransformerDirectoryError) as err:
        initialized(config, corpus)
    assert PATH_VARIABLE in str(err.value) and expected in str(err.value)


@pytest.mark.parametrize(
    "overrides,named",
    [
        ({"num_attention_heads": 4}, "num_attention_heads"),
        ({"num_hidden_layers": 3}, "num_hidden_layers"),
        ({"hidden_width": 64, "num_attention_heads": 2}, "hidden_width"),
    ],
)
def test_trf_loader_rejects_config_that_does_not_match(tiny, corpus, overrides, named):
    with pytest.raises(ValueError, match=named) as err:
        initialized(filled_config(tiny, **overrides), corpus)
    assert "check-transformer" in str(err.value)


def test_trf_train_load_and_round_trip(tmp_path, tiny, corpus):
    """`spacy train` on the filled config, a few steps, then the saved pipeline
    answers, and bytes / disk round trips give identical predictions."""
    import numpy
    from spacy.cli.train import train

    config_path = tmp_path / "ner_trf.cfg"
    filled_config(tiny).to_disk(config_path, interpolate=False)
    train(
        config_path,
        tmp_path / "training",
        overrides={
            "paths.train": str(corpus["dir"] / "train.spacy"),
            "paths.dev": str(corpus["dir"] / "dev.spacy"),
            "training.max_steps": 12,
            "training.eval_frequency": 6,
            "training.optimizer.learn_rate.warmup_steps": 2,
            "training.optimizer.learn_rate.initial_rate": 0.001,
        },
    )
    nlp = spacy.load(tmp_path / "training" / "model-best")
    assert nlp.pipe_names[:2] == ["transformer", "ner"] and nlp.pipe_names[-1] == "seqkit_trip"
    doc = nlp(TEXT)
    assert doc.has_extension("trip")
    assert doc._.trip is None or set(doc._.trip) >= {"departure", "arrival"}

    def predictions(pipeline):
        out = []
        for d in pipeline.pipe([TEXT, "Un billet Lyon -> Nice demain", ""]):
            out.append(
                (
                    [(e.start, e.end, e.label_) for e in d.ents],
                    d._.trip,
                    d._.trf_data.last_hidden_layer_state.dataXd.copy(),
                )
            )
        return out

    expected = predictions(nlp)
    restored = spacy.util.load_model_from_config(nlp.config, auto_fill=True)
    restored.from_bytes(nlp.to_bytes())
    nlp.to_disk(tmp_path / "again")
    for other in (restored, spacy.load(tmp_path / "again")):
        for (ents, trip, hidden), (ents2, trip2, hidden2) in zip(expected, predictions(other)):
            assert (ents, trip) == (ents2, trip2)
            numpy.testing.assert_array_equal(hidden, hidden2)
