"""`python -m spacy_seqkit resolve`: Travel Order Resolver I/O as users feed it."""

import io
import subprocess
import sys

import pytest
import spacy

from spacy_seqkit.travel.orders.answer import prepare_pipeline
from spacy_seqkit.travel.orders.format import read_orders
from spacy_seqkit.travel.pipeline.trip import Trip

from order_helpers import answer_csv, refused

# The pipeline (`model_dir`, `nlp`): conftest.py.


def run(nlp, data: bytes):
    out, err, counts = answer_csv(nlp, data)
    return out.splitlines(), err, counts


def test_resolve_answers_every_order_in_order(nlp):
    data = (
        "sentenceID,sentence\n"
        "1,de Marseille à Paris\n"
        "2,Il fait beau\n"
        '3,"de marseile, par Dijon, à Lyon"\n'
        "4,de Toulouse, s'il vous plaît, à Paris\n"
    ).encode("utf8")
    lines, err, counts = run(nlp, data)
    assert lines == [
        "1,Marseille,Paris",
        "2,INVALID",
        "3,Marseille,Lyon",
        "4,Toulouse,Paris",
    ]
    assert err == "" and counts["malformed"] == 0


def test_resolve_writes_the_specs_format_and_with_steps_the_route(nlp):
    """The spec's `sentenceID,Departure,Destination` by default: a reader of that format
    takes the second field for the destination, so no stop may sit there; `steps`
    writes the route's `sentenceID,Departure,Step1,...,Destination`."""
    data = '1,"de marseile, par Dijon, à Lyon"\n2,de Marseille à Paris\n3,Il fait beau\n'.encode("utf8")
    assert run(nlp, data)[0] == ["1,Marseille,Lyon", "2,Marseille,Paris", "3,INVALID"]
    out, _, counts = answer_csv(nlp, data, steps=True)
    assert out.splitlines() == ["1,Marseille,Dijon,Lyon", "2,Marseille,Paris", "3,INVALID"]
    assert counts == {"orders": 3, "valid": 2, "invalid": 1, "malformed": 0}


def test_resolve_bom_and_no_header(nlp):
    lines, _, _ = run(nlp, "\ufeff7,de Marseille à Paris\n".encode("utf8"))
    assert lines == ["7,Marseille,Paris"]


def test_resolve_malformed_lines_are_reported_and_answered(nlp):
    data = b"1,de Marseille \xe0 Paris\n2\n,no id\n3,\n4,de Toulouse \xc3\xa0 Lyon\n"
    lines, err, counts = run(nlp, data)
    assert lines == ["1,INVALID", "2,INVALID", ",INVALID", "3,INVALID", "4,Toulouse,Lyon"]
    for number in (1, 2, 3, 4):
        assert f"line {number}:" in err
    assert "line 5" not in err
    assert counts == {"orders": 5, "valid": 1, "invalid": 4, "malformed": 4}


def test_resolve_empty_lines_and_empty_file(nlp):
    lines, err, counts = run(nlp, b"\n1,de Marseille \xc3\xa0 Paris\n\n   \n2,ok\n")
    assert lines == ["1,Marseille,Paris", "2,INVALID"]
    assert run(nlp, b"")[0] == []
    assert run(nlp, b"sentenceID,sentence\n")[0] == []


def test_resolve_huge_line(nlp):
    sentence = ("bla " * 25000)[:99990] + " de Marseille à Paris"
    assert len(sentence) > 100000
    lines, _, _ = run(nlp, f"1,{sentence}\n".encode("utf8"))
    assert lines == ["1,Marseille,Paris"]


def test_read_orders_line_numbers_with_quoted_newlines():
    orders = list(read_orders(io.BytesIO(b'1,"de A\na B"\n2\n')))
    assert [(o.line, o.id, o.error is None) for o in orders] == [(2, "1", True), (3, "2", False)]


def test_parse_rewrite():
    assert Trip.from_rewrite("Paris > Dijon > Lyon").steps == ("Dijon",)
    assert Trip.from_rewrite("INVALID").is_valid is False
    assert Trip.from_rewrite("Paris >").is_valid is False
    assert Trip.from_rewrite("").is_valid is False


def test_resolve_cli_stdin_and_files(model_dir, tmp_path):
    cmd = [sys.executable, "-m", "spacy_seqkit", "resolve", str(model_dir)]
    out = subprocess.run(cmd + ["-"], input="1,de Marseille à Paris\nbroken\n".encode(), capture_output=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().splitlines() == ["1,Marseille,Paris", "broken,INVALID"]
    assert b"line 2:" in out.stderr
    src = tmp_path / "orders.csv"
    src.write_bytes(b"1,de Toulouse \xc3\xa0 Lyon\n")
    out = subprocess.run(cmd + [str(src), "-o", str(tmp_path / "trips.csv")], capture_output=True)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "trips.csv").read_text() == "1,Toulouse,Lyon\n"
    via = "1,de Toulouse par Dijon à Lyon\n".encode()
    for args, line in (([], "1,Toulouse,Lyon"), (["--steps"], "1,Toulouse,Dijon,Lyon")):
        out = subprocess.run(cmd + args + ["-q"], input=via, capture_output=True)
        assert (out.returncode, out.stdout.decode().splitlines()) == (0, [line]), out.stderr
    code, stderr, _, crashed = refused(cmd[3:] + [tmp_path / "nope.csv"])
    assert code == 2 and "No such input file" in stderr and not crashed, stderr


def test_resolve_refuses_a_pipeline_that_cannot_answer():
    with pytest.raises(ValueError, match="cannot answer"):
        prepare_pipeline(spacy.blank("fr"))


def test_rewrite_trip_resolves_names_and_prefers_known_places():
    from spacy_seqkit.travel.orders.answer import rewrite_trip, trip_of

    # A typo in a rewrite is resolved to the gazetteer's spelling.
    trip = rewrite_trip("Marseile > Paris")
    assert (trip.departure, trip.arrival, trip.is_valid) == ("Marseille", "Paris", True)
    assert trip.departure_text == "Marseile"
    # The first n-best rewrite naming only known places wins over a better-scored one.
    nbest = [("Xqzvwk > Paris", -0.1), ("Dijon > Paris", -0.5), ("INVALID", -0.9)]
    assert rewrite_trip(nbest[0][0], nbest).departure == "Dijon"
    # A known trip wins over INVALID, whatever their order; INVALID over unknown places.
    assert rewrite_trip("INVALID", [("INVALID", -0.1), ("Dijon > Paris", -2.0)]).arrival == "Paris"
    assert rewrite_trip("INVALID", [("INVALID", -0.1), ("Xqzvwk > Paris", -0.2)]).is_valid is False
    # No acceptable rewrite: the best one, unknown names kept as written.
    assert rewrite_trip("Xqzvwk > Paris", nbest[:1]).departure == "Xqzvwk"
    from spacy.tokens import Doc

    for name in ("rewrite", "rewrite_nbest"):  # what seqkit_rewriter sets
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
    nlp = spacy.blank("fr")
    doc = nlp.make_doc("de marseile a paris")
    doc._.rewrite, doc._.rewrite_nbest = "Marseile > Paris", [("Marseile > Paris", -0.2)]
    assert trip_of(doc).departure == "Marseille"


def test_resolve_cli_many_inputs_into_a_missing_folder(model_dir, tmp_path):
    """Folders and globs of inputs, `-o` into a folder that does not exist yet
    (it ended in a traceback), --quiet, and --n-process 2 answering the same."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "b.csv").write_bytes(b"2,de Toulouse \xc3\xa0 Lyon\r3,Il pleut\r")
    (tmp_path / "in" / "a.csv").write_bytes(b"sentenceID,sentence\n1,de Marseille \xc3\xa0 Paris\n")
    (tmp_path / "c.csv").write_bytes(b"4,de Marseille par Dijon \xc3\xa0 Lyon\n")
    cmd = [
        sys.executable,
        "-m",
        "spacy_seqkit",
        "resolve",
        str(model_dir),
        str(tmp_path / "in"),
        str(tmp_path / "c*.csv"),
    ]
    out = tmp_path / "new" / "folder" / "trips.csv"
    done = subprocess.run(cmd + ["-o", str(out), "--quiet", "--n-process", "2"], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines() == ["1,Marseille,Paris", "2,Toulouse,Lyon", "3,INVALID", "4,Marseille,Lyon"]
    assert done.stderr == b""  # no progress bar (not a terminal), no summary (--quiet)
    done = subprocess.run(cmd + ["-o", str(out), "--quiet", "--n-process", "2", "--steps"], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines()[-1] == "4,Marseille,Dijon,Lyon"
    for args, message in (
        (["tcp://127.0.0.1:8786"], b"give it after --dask"),
        ([str(tmp_path / "*.tsv")], b"no file matches"),
        (["-o", str(out / "under-a-file.csv")], b"Cannot write"),
    ):
        code, stderr, _, crashed = refused(cmd[3:] + args)
        assert code == 2 and message.decode() in stderr and not crashed, stderr
