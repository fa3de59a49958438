"""The journeys benchmark runs as users run it: its tables, and the hand-written sets' trips
without a journey listed with their reason."""

from pathlib import Path

import pytest

from spacy_seqkit.travel.benchmarks.journeys import main

HOLDOUT = Path(__file__).resolve().parents[3] / "corpus" / "holdout.jsonl"


def test_journeys_benchmark_prints_loading_speed_and_the_sets_share(capsys):
    main(["--queries", "20", "--raptor-queries", "0", str(HOLDOUT)])
    out = capsys.readouterr().out
    assert "| the planner, ready (without importing numba) |" in out
    assert "20 random station pairs from 08:00 on 2024-07-02" in out and "journeys/s" in out
    row = next(line for line in out.splitlines() if line.startswith("| holdout.jsonl |"))
    total, found = (int(x) for x in row.split("|")[2:4])
    assert total == 126 and found >= 123  # 125 at this commit
    assert "holdout.jsonl: Saint-Gervais-les-Bains > Chamonix-Mont-Blanc: no train" in out


def test_journeys_benchmark_refuses_bad_counts(capsys):
    with pytest.raises(SystemExit):
        main(["--queries", "0"])
    assert "--queries" in capsys.readouterr().err
