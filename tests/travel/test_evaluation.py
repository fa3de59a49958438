"""`evaluate-trips` on several sets at once: the figures of each, as one set at a time gives them."""

import json

from typer.testing import CliRunner

from spacy_seqkit.cli import app


def write_set(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
    return path


def record(text, departure, arrival):
    spans = [
        {"start": text.index(departure), "end": text.index(departure) + len(departure), "label": "DEPART"},
        {"start": text.index(arrival), "end": text.index(arrival) + len(arrival), "label": "ARRIVEE"},
    ]
    return {"text": text, "spans": spans, "trip": {"departure": departure, "arrival": arrival, "steps": []}}


def test_evaluate_trips_several_sets_equal_one_set_at_a_time(model_dir, tmp_path):
    first = write_set(tmp_path / "a.jsonl", [record("de Marseille à Paris", "Marseille", "Paris")])
    # the rule-based pipeline reads Lyon as an arrival: this trip is wrong
    second = write_set(tmp_path / "b.jsonl", [record("de Lyon à Toulouse", "Lyon", "Toulouse")] * 2)
    runner = CliRunner()
    together = ["evaluate-trips", str(model_dir), str(first), str(second), "--no-baseline"]
    together += ["-o", str(tmp_path / "a.json"), "-o", str(tmp_path / "b.json")]
    together += ["--errors", str(tmp_path / "a_err.jsonl"), "--errors", str(tmp_path / "b_err.jsonl")]
    result = runner.invoke(app, together)
    assert result.exit_code == 0, result.output
    for data, name in ((first, "a"), (second, "b")):
        alone = tmp_path / f"{name}_alone.json"
        result = runner.invoke(app, ["evaluate-trips", str(model_dir), str(data), "--no-baseline", "-o", str(alone)])
        assert result.exit_code == 0, result.output
        both, single = (json.loads(p.read_text())["results"]["model"] for p in (tmp_path / f"{name}.json", alone))
        both.pop("words_per_second"), single.pop("words_per_second")
        assert both == single
    assert json.loads((tmp_path / "a.json").read_text())["results"]["model"]["trip_acc"] == 1.0
    assert json.loads((tmp_path / "b.json").read_text())["results"]["model"]["trip_acc"] == 0.0
    assert (tmp_path / "a_err.jsonl").read_text() == ""
    assert len((tmp_path / "b_err.jsonl").read_text().splitlines()) == 2


def test_evaluate_trips_outputs_one_per_set(model_dir, tmp_path):
    data = write_set(tmp_path / "a.jsonl", [record("de Marseille à Paris", "Marseille", "Paris")])
    args = ["evaluate-trips", str(model_dir), str(data), str(data), "-o", str(tmp_path / "x.json"), "--no-baseline"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "--output given 1 times for 2 data sets" in result.output
