"""Streaming `resolve`: partitions, several processes, byte-identical answers,
and the faults found by bad input (line ends, limits, huge lines, surrogates,
super-linear trip reading)."""

import csv
import io
import random
import time

import pytest
import spacy
from spacy.tokens import Doc, Span

from spacy_seqkit.travel.orders import answer, stream
from spacy_seqkit.travel.orders import format as format_module
from spacy_seqkit.travel.orders.answer import answer_orders, trip_of
from spacy_seqkit.travel.orders.backends import InProcess, ProcessPool
from spacy_seqkit.travel.orders.format import Order, answer_row, clean_text, limit_error, read_orders
from spacy_seqkit.travel.orders.stream import expand_inputs, read_partitions, resolve_inputs
from spacy_seqkit.travel.pipeline.mentions.component import PlaceMentions
from spacy_seqkit.travel.pipeline.mentions.names import MAX_NAME_TOKENS
from spacy_seqkit.travel.pipeline.roles.component import TripResolver
from spacy_seqkit.travel.pipeline.trip import Trip
from spacy_seqkit.travel.places import make_french_places

from order_helpers import answer_csv


def orders_csv(n: int, seed: int = 0) -> bytes:
    """`n` orders of every kind: trips, stops, INVALID, malformed, quoted commas."""
    rng = random.Random(seed)
    kinds = [
        "{i},de Marseille à Paris",
        "{i},je pars de toulouse pour lyon",
        '{i},"de marseile, par Dijon, à Lyon"',
        "{i},Il fait beau",
        "{i},de Toulouse, s'il vous plaît, à Paris",
        "{i}",
        ",sans identifiant",
        "{i},",
        "{i},PARIS",
        '{i},"une ""citation"" de Marseille à Lyon"',
    ]
    lines = ["sentenceID,sentence"] + [rng.choice(kinds).format(i=i) for i in range(n)]
    return ("\n".join(lines) + "\n").encode("utf8")


def reference_resolve(nlp, data: bytes, steps: bool = False) -> str:
    """The resolver before streaming: one `nlp.pipe` over every order of the file."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    orders = list(read_orders(io.BytesIO(data)))
    for doc, order in nlp.pipe(((o.sentence, o) for o in orders), as_tuples=True, batch_size=64):
        writer.writerow(answer_row(order.id, trip_of(doc) if not order.error else Trip(), steps))
    return out.getvalue()


def resolve_files(backend, paths, partition_size=64, steps=False):
    out, err = io.StringIO(), io.StringIO()
    counts = resolve_inputs(
        [str(p) for p in paths], backend, out=out, err=err, partition_size=partition_size, steps=steps
    )
    return out.getvalue(), err.getvalue(), counts


def new_words_orders(n: int, seed: int) -> list:
    """Orders each holding words no vocabulary has seen."""
    rng = random.Random(seed)
    word = lambda: "".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(12))  # noqa: E731
    return [Order(i + 1, str(i), f"de Marseille à {word().capitalize()} avec {word()}", None) for i in range(n)]


def test_answering_new_words_keeps_the_vocabulary_flat(nlp, monkeypatch):
    """A partition is answered in a spaCy memory zone: the strings of its new words are
    freed after it, so that a stream of millions of orders keeps a vocabulary of flat
    size, with the answers given without the zone."""
    monkeypatch.setattr(answer, "_warmed", answer.weakref.WeakKeyDictionary())
    monkeypatch.setattr(answer, "WARM_ORDERS", 5)
    answer.answer_batch(nlp, new_words_orders(5, seed=2))  # the pipeline's first orders, kept
    orders = new_words_orders(200, seed=3)
    before = len(nlp.vocab.strings)
    answers = answer.answer_batch(nlp, orders)
    assert len(nlp.vocab.strings) == before
    assert answers == list(answer_orders(nlp, orders))
    assert len(nlp.vocab.strings) > before  # without the zone, they stay


def test_a_pipelines_first_orders_keep_their_words_once(nlp, monkeypatch):
    """spaCy's tokenizer caches nothing inside a memory zone: the words of a pipeline's first
    WARM_ORDERS orders, over its first batches, are tokenized outside it and kept (the words
    requests share are then read from its cache); later orders add nothing, and the answers
    are the same."""
    monkeypatch.setattr(answer, "_warmed", answer.weakref.WeakKeyDictionary())
    monkeypatch.setattr(answer, "WARM_ORDERS", 3)
    first, second, later = (new_words_orders(n, seed=seed) for n, seed in ((2, 11), (5, 12), (5, 13)))
    before = len(nlp.vocab.strings)
    answers = answer.answer_batch(nlp, first) + answer.answer_batch(nlp, second)
    kept = len(nlp.vocab.strings)
    words = {w for o in first + second[:1] for w in o.sentence.split()}
    assert kept > before and all(w in nlp.vocab.strings for w in words)
    assert not any(w in nlp.vocab.strings for o in second[1:] for w in o.sentence.split()[-3::2])
    answer.answer_batch(nlp, later)
    assert len(nlp.vocab.strings) == kept
    assert answers == answer.answer_batch(nlp, first) + answer.answer_batch(nlp, second)


def test_stream_equals_the_resolver_before_streaming(nlp, tmp_path):
    data = orders_csv(700)
    expected = reference_resolve(nlp, data)
    assert answer_csv(nlp, data)[0] == expected
    (tmp_path / "orders.csv").write_bytes(data)
    for partition_size in (64, 128, 1024):
        answers, _, counts = resolve_files(InProcess(nlp), [tmp_path / "orders.csv"], partition_size)
        assert answers == expected
        assert counts["orders"] == 700
    out = io.StringIO()
    resolve_inputs(
        [str(tmp_path / "orders.csv")],
        InProcess(nlp),
        out=out,
        err=io.StringIO(),
        partition_size=256,
        first_partition_size=64,
    )
    assert out.getvalue() == expected


def test_stream_partitions_keep_input_order_and_never_span_files(tmp_path):
    for name, n in (("a.csv", 150), ("b.csv", 10)):
        (tmp_path / name).write_bytes(orders_csv(n, seed=len(name)))
    parts = list(read_partitions(expand_inputs([str(tmp_path)]), 64))
    assert [(p.index, p.source.endswith("a.csv"), len(p.orders)) for p in parts] == [
        (0, True, 64),
        (1, True, 64),
        (2, True, 22),
        (3, False, 10),
    ]
    assert [o.id for o in parts[0].orders][:2] == [o.id for o in read_orders(open(tmp_path / "a.csv", "rb"))][:2]
    parts = list(read_partitions(expand_inputs([str(tmp_path)]), 128, first_size=64))
    assert [len(p.orders) for p in parts] == [64, 86, 10]


def test_stream_many_inputs_reports_name_the_file(nlp, tmp_path):
    (tmp_path / "a.csv").write_bytes(b"1,de Marseille \xc3\xa0 Paris\n2\n")
    (tmp_path / "b.csv").write_bytes(b"sentenceID,sentence\n3,de Toulouse \xc3\xa0 Lyon\n")
    answers, err, counts = resolve_files(InProcess(nlp), [tmp_path / "a.csv", tmp_path / "b.csv"])
    assert answers.splitlines() == ["1,Marseille,Paris", "2,INVALID", "3,Toulouse,Lyon"]
    assert (
        err.strip()
        == f"{tmp_path / 'a.csv'}: line 2: no comma between the sentence ID and the sentence; answered INVALID"
    )
    assert counts == {"orders": 3, "valid": 2, "invalid": 1, "malformed": 1}


def test_expand_inputs_files_globs_and_folders(tmp_path):
    for name in ("b.csv", "a.csv", "notes.txt"):
        (tmp_path / name).write_text("1,x\n")
    assert expand_inputs([]) == ["-"] and expand_inputs(["-"]) == ["-"]
    assert expand_inputs([str(tmp_path)]) == [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]
    assert expand_inputs([str(tmp_path / "*.csv")]) == [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]
    assert expand_inputs([str(tmp_path / "notes.txt"), str(tmp_path / "a.csv")])[0].endswith("notes.txt")
    for bad, message in ((tmp_path / "nope.csv", "No such input file"), (tmp_path / "*.tsv", "no file matches")):
        with pytest.raises(ValueError, match=message):
            expand_inputs([str(bad)])
    with pytest.raises(ValueError, match="stdin"):
        expand_inputs(["-", str(tmp_path / "a.csv")])


def test_stream_output_dir_one_file_per_partition(nlp, tmp_path):
    (tmp_path / "orders.csv").write_bytes(orders_csv(150))
    counts = resolve_inputs(
        [str(tmp_path / "orders.csv")],
        InProcess(nlp),
        output_dir=tmp_path / "out" / "parts",
        err=io.StringIO(),
        partition_size=64,
    )
    parts = sorted((tmp_path / "out" / "parts").iterdir())
    assert [p.name for p in parts] == ["part-00000.csv", "part-00001.csv", "part-00002.csv"]
    assert "".join(p.read_text() for p in parts) == reference_resolve(nlp, orders_csv(150))
    assert counts["orders"] == 150


def test_stream_two_processes_equal_one(nlp, model_dir, tmp_path):
    (tmp_path / "orders.csv").write_bytes(orders_csv(600, seed=3))
    one = resolve_files(InProcess(nlp), [tmp_path / "orders.csv"])
    one_steps = resolve_files(InProcess(nlp), [tmp_path / "orders.csv"], steps=True)
    pool = ProcessPool(str(model_dir), 2)
    try:
        two = resolve_files(pool, [tmp_path / "orders.csv"])
        two_steps = resolve_files(pool, [tmp_path / "orders.csv"], steps=True)
    finally:
        pool.close()
    assert two == one and two_steps == one_steps
    assert one_steps[0] == reference_resolve(nlp, orders_csv(600, seed=3), steps=True) != one[0]


def test_stream_steps_writes_the_stops_between_the_ends(nlp, tmp_path):
    """Both formats, one answer each: the spec's two ends, or the route with its stops,
    in a single output and in one file per partition."""
    data = orders_csv(150)
    (tmp_path / "orders.csv").write_bytes(data)
    plain, _, _ = resolve_files(InProcess(nlp), [tmp_path / "orders.csv"])
    routes, _, _ = resolve_files(InProcess(nlp), [tmp_path / "orders.csv"], steps=True)
    rows = [(a.split(","), b.split(",")) for a, b in zip(plain.splitlines(), routes.splitlines())]
    assert len(rows) == 150 and any(len(route) == 4 for _, route in rows)
    for spec, route in rows:
        assert len(spec) in (2, 3) and spec == (route if len(route) < 4 else [route[0], route[1], route[-1]])
    assert "Marseille,Dijon,Lyon" in routes and "Dijon" not in plain
    resolve_inputs(
        [str(tmp_path / "orders.csv")],
        InProcess(nlp),
        output_dir=tmp_path / "parts",
        err=io.StringIO(),
        partition_size=64,
        steps=True,
    )
    assert "".join(p.read_text() for p in sorted((tmp_path / "parts").iterdir())) == routes


def test_physical_lines_lf_crlf_and_bare_cr_across_blocks():
    data = b'1,a\r2,b\r\n3,c\n4,"d\r\ne"\r5,f'
    expected = [b"1,a\r", b"2,b\r\n", b"3,c\n", b'4,"d\r\n', b'e"\r', b"5,f"]
    for block_size in (1, 2, 3, 5, 64):
        assert list(format_module._physical_lines(io.BytesIO(data), block_size)) == expected


def test_resolve_bare_carriage_returns(nlp):
    """A file with CR line ends (old Mac editors) was read as one line: every
    answer but one lost, and the one left carried the wrong id."""
    out, _, counts = answer_csv(
        nlp, b"sentenceID,sentence\r1,de Marseille \xc3\xa0 Paris\r2,Il pleut\r3,de Toulouse \xc3\xa0 Lyon\r"
    )
    assert out.splitlines() == ["1,Marseille,Paris", "2,INVALID", "3,Toulouse,Lyon"]
    assert counts["malformed"] == 0


def test_resolve_line_longer_than_max_length_is_answered_and_reported(nlp):
    """A 1 MB line used to stop `resolve` with spaCy's E088 traceback, losing
    every order after it."""
    huge = "de Marseille à Paris " * 50_000
    assert len(huge) > nlp.max_length
    data = f"1,{huge}\n2,de Toulouse à Lyon\n".encode("utf8")
    out, err, counts = answer_csv(nlp, data)
    assert out.splitlines() == ["1,INVALID", "2,Toulouse,Lyon"]
    assert "line 1: order of 1,049,999 characters, over the limit of 120,000" in err
    assert counts == {"orders": 2, "valid": 1, "invalid": 1, "malformed": 1}


def test_resolve_caps_an_order_that_would_stall_the_tokenizer(nlp):
    """10,000 emoji in a row kept spaCy's tokenizer busy for about 20 s."""
    data = ("1," + "😀" * 10_000 + "\n2,de Marseille à Paris\n3," + "😀 " * 40_000 + "\n").encode("utf8")
    start = time.perf_counter()
    out, err, _ = answer_csv(nlp, data)
    assert time.perf_counter() - start < 5
    assert out.splitlines() == ["1,INVALID", "2,Marseille,Paris", "3,INVALID"]
    assert "line 1: a word of 10,000 characters, over the limit of 100" in err
    assert "line 3: about 80,000 tokens, over the limit of 30,000" in err


def test_limit_error_names_the_limit():
    assert limit_error("de Marseille à Paris") is None
    assert limit_error("x " * 60_001).startswith("order of 120,002 characters")
    assert limit_error("x" * 1000, max_length=500) == "order of 1,000 characters, over the limit of 500"
    assert limit_error("a" * 101).startswith("a word of 101 characters")
    assert limit_error("a" * 100) is None
    assert limit_error("l'" * 50) is None and limit_error(". " * 30_001) is not None


def test_lone_surrogates_are_cleaned_not_raised(nlp):
    """JSON can carry "\\ud83d" to the service; spaCy raised UnicodeEncodeError on it."""
    assert clean_text("de \ud83d Marseille à Paris \udc00") == "de \ufffd Marseille à Paris \ufffd"
    assert clean_text("😀") == "😀"
    answers = list(answer_orders(nlp, [Order(1, "a\ud800", "de Marseille \ud83d à Paris", None)]))
    assert answers[0].row() == ["a\ufffd", "Marseille", "Paris"]


def _mentions_doc(vocab, n_tokens: int, seed: int = 0) -> Doc:
    """A request of `n_tokens` tokens with a mention every fifth token: known
    places, unknown capitalised names and lowercase words."""
    rng = random.Random(seed)
    fillers = ["puis", "je", "veux", "aller", "vers"]
    mentions = ["Marseille", "Lyon", "Zorglubville", "Quimperlézorg", "demain", "Dijon", "Brestouille"]
    words, spans = [], []
    for i in range(n_tokens):
        if i % 5 == 4:
            spans.append((i, rng.choice(["DEPART", "ARRIVEE", "VIA"])))
            words.append(rng.choice(mentions))
        else:
            words.append(rng.choice(fillers))
    doc = Doc(vocab, words=words)
    doc.ents = [Span(doc, i, i + 1, label=label) for i, label in spans]
    return doc


class CountingPlaces:
    """The French places, counting the place lookups they are asked."""

    def __init__(self) -> None:
        self.places, self.calls = make_french_places(), 0

    def place(self, text):
        self.calls += 1
        return self.places.place(text)

    def __getattr__(self, name):
        return getattr(self.places, name)


def test_trip_reading_is_linear_in_the_request(monkeypatch):
    """A 20,000-token request with 4,000 mentions ran for minutes: each unknown
    mention rescanned the whole text to decide whether it was written as a name,
    and a long mention tried every sub-span against the gazetteer."""
    from spacy_seqkit.travel.pipeline import words

    scanned = []
    real_is_shouting = words.is_shouting
    monkeypatch.setattr(words, "is_shouting", lambda doc: scanned.append(len(doc.text)) or real_is_shouting(doc))
    vocab = spacy.blank("fr").vocab
    calls = {}
    for n_tokens in (5_000, 20_000):
        places = CountingPlaces()
        doc = _mentions_doc(vocab, n_tokens)
        scanned.clear()
        TripResolver(places=places)(PlaceMentions(places=places, unknown_names="keep")(doc))
        calls[n_tokens] = places.calls
        assert 0 < sum(scanned) <= len(doc.text)  # the text is read once, not once per mention
    assert calls[20_000] <= 4.4 * calls[5_000]  # lookups grow with the request, not its square
    # One 3,000-token mention: its runs of at most MAX_NAME_TOKENS tokens, not every sub-span.
    doc = Doc(vocab, words=["bla"] * 3_000)
    doc.ents = [Span(doc, 0, 3_000, label="DEPART")]
    places = CountingPlaces()
    PlaceMentions(places=places)(doc)
    assert places.calls <= 3_000 * MAX_NAME_TOKENS + 1


def test_partition_size_is_a_whole_number_of_batches():
    assert stream.partition_size_for(1000, 64) == 1024
    assert stream.partition_size_for(1, 64) == 64
    assert stream.partition_size_for(128, 64) == 128
