"""The spaCy project end to end on a tiny generated corpus: what
`spacy project run all` does for a user, minus the size."""
import csv
import json
import shutil
from pathlib import Path

import pytest
from spacy.cli.project.run import project_run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    shutil.copy(ROOT / "project.yml", root / "project.yml")
    shutil.copytree(ROOT / "configs", root / "configs")
    (root / "corpus").mkdir()
    for name in ("test.jsonl", "blind.jsonl", "holdout.jsonl", "orders_example.csv"):
        shutil.copy(ROOT / "corpus" / name, root / "corpus" / name)
    overrides = {"vars.n_train": 300, "vars.n_dev": 60, "vars.max_steps": 30}
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
    with (project / "metrics" / "ner_maxout_trips.csv").open() as f:
        answers = list(csv.reader(f))
    orders = (project / "corpus" / "orders_example.csv").read_text().splitlines()[1:]
    assert [a[0] for a in answers] == [o.split(",")[0] for o in orders]
    assert all(len(a) == 2 and a[1] == "INVALID" or len(a) >= 3 for a in answers)
    assert list((project / "packages").glob("fr_travel_ner_maxout-*/dist/*.tar.gz"))
