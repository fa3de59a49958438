"""The routes benchmark runs, returns its rows and draws its map."""

import json

import pytest

from spacy_seqkit.travel.benchmarks.routes import run_routes_benchmark


def test_rail_benchmark_rows_and_map(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the map needs the bench extra: pip install '.[bench]'")
    pairs = {"two pairs": [([87751008], [87686006]), ([87611004], [87271007])]}
    rows = run_routes_benchmark(pairs=pairs, out_dir=tmp_path, build=False, n_generated=200)
    measures = [str(r["measure"]) for r in rows]
    assert any(m.startswith("load") for m in measures)
    assert any("two pairs (2)" in m for m in measures)
    assert any("generated corpus (200 requests)" in m for m in measures)
    assert all(r["value"] > 0 for r in rows if str(r["unit"]) == "routes/s")
    assert (tmp_path / "routes.png").stat().st_size > 10_000
    assert "routes/s" in capsys.readouterr().out


def test_rail_route_answers_measure_detours_through_the_stops_asked_for(tmp_path, capsys):
    """A route through a stop asked for off the straight line (Bordeaux - Toulouse by Limoges)
    is long against its ends, and near straight against the path through its stop."""
    from spacy_seqkit.travel.benchmarks.route_answers import report

    records = [
        {
            "id": "a",
            "text": "de Bordeaux à Toulouse",
            "trip": {"departure": "Bordeaux", "arrival": "Toulouse", "steps": []},
        },
        {
            "id": "b",
            "text": "de Bordeaux à Toulouse en passant par Limoges",
            "trip": {"departure": "Bordeaux", "arrival": "Toulouse", "steps": ["Limoges"]},
        },
    ]
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
    out = report([path])["two.jsonl"]
    assert out["answers"] == out["routed"] == 2
    assert out["within_limit"] == 0.5 and out["within_limit_through_stops"] == 1.0
    assert "through the stops asked for: 100.0 %" in capsys.readouterr().out
