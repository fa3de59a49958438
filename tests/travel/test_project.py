"""The spaCy project end to end on a tiny generated corpus: what
`spacy project run all` does for a user, minus the size."""

import csv
import json
import shutil
import tarfile
import zipfile
from collections import Counter
from pathlib import Path

import pytest
import srsly
from spacy.cli.project.run import project_run

from spacy_seqkit import about

ROOT = Path(__file__).resolve().parents[2]
# Data files the installed package reads at run time.
PACKAGE_DATA = [
    "spacy_seqkit/py.typed",
    "spacy_seqkit/travel/orders/page.html",
    "spacy_seqkit/travel/places/data/communes.tsv.gz",
    "spacy_seqkit/travel/places/data/stations.tsv.gz",
    "spacy_seqkit/travel/places/data/departements.tsv.gz",
    "spacy_seqkit/travel/places/data/index.pickle.gz",
    "spacy_seqkit/travel/places/data/french_words.txt.gz",
    "spacy_seqkit/travel/places/data/common_words.txt",
    "spacy_seqkit/travel/places/data/README.md",
    "spacy_seqkit/travel/places/data/SNCF.md",
    "spacy_seqkit/travel/routes/data/network.npz",
    "spacy_seqkit/travel/routes/data/README.md",
]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    shutil.copy(ROOT / "project.yml", root / "project.yml")
    shutil.copytree(ROOT / "configs", root / "configs")
    # The package command builds the plugin's wheel from the project's root.
    for name in ("setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, root / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "spacy_seqkit", root / "spacy_seqkit", ignore=ignore)
    (root / "corpus").mkdir()
    for name in ("test.jsonl", "blind.jsonl", "holdout.jsonl", "stations.jsonl", "dev.jsonl", "orders_example.csv"):
        shutil.copy(ROOT / "corpus" / name, root / "corpus" / name)
    shutil.copytree(ROOT / "corpus" / "written", root / "corpus" / "written")
    # The written training part cut to its first 40 requests of each writer (the size is the
    # main job's business; the evaluation parts are kept whole: their counts are checked).
    part = root / "corpus" / "written" / "train.jsonl"
    seen: Counter = Counter()
    rows = []
    for row in srsly.read_jsonl(part):
        seen[row["writer"]] += 1
        if seen[row["writer"]] <= 40:
            rows.append(row)
    srsly.write_jsonl(part, rows)
    overrides = {"vars.n_train": 300, "vars.n_dev": 60, "vars.max_steps": 30, "vars.train_max_steps": 30}
    project_run(root, "all", overrides=overrides, capture=True)
    return root


def test_project_all_writes_pipeline_metrics_answers_and_package(project):
    assert (project / "training" / "ner_maxout" / "model-best" / "config.cfg").exists()
    metrics = json.loads((project / "metrics" / "ner_maxout.json").read_text())
    model, baseline = metrics["results"]["model"], metrics["results"]["baseline (fr_core_news_md + rules)"]
    for result in (model, baseline):
        assert result["n"] >= 320
        assert 0.0 <= result["trip_acc"] <= 1.0
    blind = json.loads((project / "metrics" / "ner_maxout_blind.json").read_text())
    assert blind["results"]["model"]["n"] >= 400
    stations = json.loads((project / "metrics" / "ner_maxout_stations.json").read_text())
    assert stations["results"]["model"]["n"] >= 400
    never_read = json.loads((project / "metrics" / "ner_maxout_written_eval.json").read_text())
    assert never_read["results"]["model"]["n"] >= 1500 and not list((project / "metrics").glob("*written_eval*errors*"))
    with (project / "metrics" / "ner_maxout_trips.csv").open() as f:
        answers = list(csv.reader(f))
    orders = (project / "corpus" / "orders_example.csv").read_text().splitlines()[1:]
    assert [a[0] for a in answers] == [o.split(",")[0] for o in orders]
    # the spec's format: id,Departure,Destination or id,INVALID
    assert all(len(a) == 2 and a[1] == "INVALID" or len(a) == 3 for a in answers)
    assert list((project / "packages").glob("fr_travel_ner_maxout-*/dist/*.tar.gz"))


@pytest.mark.slow
def test_project_heldout_trains_without_the_heldout_writers_and_scores_them(project):
    """The `heldout` workflow: the main job's pipeline trained without some writers of the written
    training part, scored on them (and on the blind and holdout sets). Slow: it converts, trains
    and scores again (48 s on a 2-core machine at half the usual speed); its commands are those of
    `all` on other files, and `split-writers` has its own tests (test_travel_corpus.py)."""
    held = set(srsly.read_yaml(project / "project.yml")["vars"]["heldout_writers"].split(","))
    overrides = {"vars.n_train": 300, "vars.n_dev": 60, "vars.max_steps": 30, "vars.train_max_steps": 30}
    project_run(project, "heldout", overrides=overrides, capture=True)
    writers = [r["writer"] for r in srsly.read_jsonl(project / "corpus" / "heldout" / "writers.jsonl")]
    kept = {r["writer"] for r in srsly.read_jsonl(project / "corpus" / "heldout" / "written_train.jsonl")}
    assert set(writers) == held and not held & kept
    assert (project / "training" / "ner_maxout_heldout" / "model-best" / "config.cfg").exists()
    model = json.loads((project / "metrics" / "ner_maxout_heldout_writers.json").read_text())["results"]["model"]
    assert model["n"] == len(writers) and 0.0 <= model["trip_acc"] <= 1.0


def test_project_package_puts_pipeline_and_plugin_wheel_side_by_side(project):
    """What `pip install --find-links packages/ fr_travel_ner_maxout` needs: both
    distributions directly in packages/, the pipeline requiring the plugin."""
    packages = project / "packages"
    (sdist,) = packages.glob("fr_travel_ner_maxout-*.tar.gz")
    with tarfile.open(sdist) as tar:
        (meta,) = [m for m in tar.getnames() if m.endswith("fr_travel_ner_maxout/meta.json")]
        requirements = json.load(tar.extractfile(meta))["requirements"]
    assert any(r.startswith("spacy-seqkit>=") for r in requirements), requirements
    (wheel,) = packages.glob("spacy_seqkit-*-py3-none-any.whl")
    version = srsly.read_yaml(project / "project.yml")["vars"]["seqkit_version"]
    assert version == about.__version__
    assert wheel.name == f"spacy_seqkit-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry_points = z.read(f"spacy_seqkit-{version}.dist-info/entry_points.txt").decode()
    assert [data for data in PACKAGE_DATA if data not in names] == []
    assert "spacy-seqkit.Tokenizer.v1" in entry_points and "seqkit_trip" in entry_points


@pytest.mark.slow
def test_benchmark_training_trains_each_config_and_writes_its_table(project, tmp_path):
    """`benchmark training` on the project's corpus: one row per (config, device),
    the steps asked for, the dev scores of the last step, JSON beside the table
    (slow: a fresh process trains for 17 s; the default suite is near its 10 minutes)."""
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    args = ["benchmark", "training", str(project / "configs" / "ner_maxout.cfg"), "--gpu-ids", "-1"]
    args += ["--train", str(project / "corpus" / "train.spacy"), "--dev", str(project / "corpus" / "dev.spacy")]
    result = CliRunner().invoke(app, [*args, "--steps", "4", "--threads", "1", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (row,) = json.loads((tmp_path / "training.json").read_text())["rows"]
    assert (row["config"], row["device"], row["steps"], row["vs CPU"]) == ("ner_maxout", "CPU x1", 4, 1.0)
    assert row["train s"] > 0 and row["pipe words/s"] > 0
    assert 0.0 <= row["dev ents F"] <= 1.0 and 0.0 <= row["dev trip acc"] <= 1.0


def test_benchmark_training_refuses_a_gpu_this_machine_lacks(tmp_path):
    import torch
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    config = str(ROOT / "configs" / "ner_maxout.cfg")
    result = CliRunner().invoke(app, ["benchmark", "training", config, "--gpu-ids", "-1,x", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "--gpu-ids" in result.output
    if torch.cuda.device_count() == 0:
        result = CliRunner().invoke(app, ["benchmark", "training", config, "--gpu-ids", "0", "-o", str(tmp_path)])
        assert result.exit_code == 2 and "--gpu-ids 0" in result.output
    assert not (tmp_path / "training.json").exists()
