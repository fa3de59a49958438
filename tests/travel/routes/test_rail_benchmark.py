"""The routes benchmark runs, returns its rows and draws its map."""

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
