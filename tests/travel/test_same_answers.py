"""The same answers on every committed set: the components after the recognizer (the main job's
config, `configs/ner_maxout.cfg`) read the entities a trained recognizer marked on each request
of the hand-written sets and of 22,000 generated requests, and answer what was recorded
(`scripts/same_answers.py`: an answer changed on purpose is recorded again, and said why)."""

import json
from pathlib import Path

import pytest
from script_loader import load_script

same_answers = load_script(Path("scripts") / "same_answers.py")
SETS = sorted(same_answers.recorded())


@pytest.fixture(scope="module")
def reading():
    return same_answers.reading_pipeline()


def test_same_answers_cover_every_committed_set():
    for name in ("test", "dev", "blind", "holdout", "stations", "generated_train", "generated_dev"):
        assert name in SETS, f"no recorded answers for {name}"
    rows = same_answers.recorded()
    assert len(rows["generated_train"]) == 20_000
    # The learned roles are read too: the span categorizer's roles are kept with the entities.
    assert all(same_answers.ROLES in row for row in rows["test"])
    for name in same_answers.HANDWRITTEN:
        texts = [r["text"] for r in same_answers.read(same_answers.sources()[name])]
        assert [r["text"] for r in rows[name]] == texts, f"{name}: recorded for other requests than the set's"


@pytest.mark.parametrize("name", SETS)
def test_same_answers(reading, name):
    rows = same_answers.recorded()[name]
    changed = [
        {"id": row["id"], "text": row["text"], "was": row["answer"], "now": answer}
        for row, answer in zip(rows, same_answers.answers(reading, rows))
        if answer != row["answer"]
    ]
    shown = "\n".join(json.dumps(c, ensure_ascii=False) for c in changed[:10])
    if name in same_answers.NEVER_READ:
        shown = "(a never-read set: counted, not shown)"
    assert not changed, f"{len(changed)} of {len(rows)} answers changed:\n{shown}"


def test_update_records_again_only_the_answers_that_changed(reading, tmp_path, monkeypatch):
    """`same_answers.py update`: after a change of the reading made on purpose, the answers that
    differ are recorded again, each row keeping its entities; the other rows stay as they were."""
    rows = same_answers.recorded()["test"][:5]
    altered = [dict(row) for row in rows]
    altered[2]["answer"] = {**altered[2]["answer"], "departure": "Nowhere"}
    path = tmp_path / "test.jsonl.gz"
    same_answers.write(path, altered)
    monkeypatch.setattr(same_answers, "OUT", tmp_path)
    assert same_answers.update(reading) == {"test": 1}
    assert list(same_answers.read(path)) == rows
    assert same_answers.update(reading) == {"test": 0}


def test_compare_counts_the_never_read_sets_and_shows_only_the_others(monkeypatch, capsys):
    """`same_answers.py compare` lists the requests answered otherwise now, but of a never-read
    set only their number: its requests are never shown."""
    rows = {"test": {"id": "t1", "text": "de Lyon à Paris", "answer": {}}}
    rows["written_eval"] = {"id": "e01-0001", "text": "UNREAD TEXT", "answer": {}}
    found = [(name, row, {"departure": "X"}) for name, row in rows.items()]
    monkeypatch.setattr(same_answers, "differences", lambda: iter(found))
    same_answers.main(["compare"])
    out, err = capsys.readouterr()
    assert "de Lyon à Paris" in out and "UNREAD" not in out + err
    assert "2 answers differ (1 of them in never-read sets, not shown)" in err


def test_record_refuses_a_set_it_does_not_know_before_loading_anything():
    with pytest.raises(SystemExit, match="--sets: no set named writen_dev"):
        same_answers.record("no/such/pipeline", None, ["writen_dev"])
