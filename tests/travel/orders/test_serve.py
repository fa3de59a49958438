"""`python -m spacy_seqkit serve`: the same trips as `nlp(text)` and `resolve`,
and a clear 4xx JSON error for every bad request, never a 500."""

import http.client
import json
import socket
import subprocess
import sys
import time
import urllib.parse

import pytest

pytest.importorskip("fastapi", reason="the service needs FastAPI: pip install '.[serve]'")

from order_helpers import answer_csv  # noqa: E402
from service_helpers import request  # noqa: E402

TEXTS = [
    "de Marseille à Paris",
    "Je pars de toulouse pour lyon",
    "de marseile, par Dijon, à Lyon",
    "Il fait beau",
    "",
    "PARIS",
    "de Marseille à Marseille",
]


def post(url: str, payload) -> tuple:
    return request(url, "POST", "/resolve", json.dumps(payload).encode("utf8"))


def test_serve_health(service_url):
    status, health = request(service_url, "GET", "/health")
    assert status == 200 and health["status"] == "ok"
    assert health["pipeline"][0] == "entity_ruler" and health["pipeline"][-1] == "seqkit_trip"
    assert health["limits"]["max_orders"] == 50 and health["limits"]["max_order_chars"] == 120_000


@pytest.mark.parametrize("text", TEXTS)
def test_serve_text_answers_the_trip_and_entities_of_nlp(service_url, nlp, text):
    status, answer = post(service_url, {"text": text})
    assert status == 200
    doc = nlp(text)
    assert answer["trip"] == doc._.trip
    assert answer["entities"] == [
        {"start": e.start_char, "end": e.end_char, "label": e.label_, "text": e.text} for e in doc.ents
    ]
    assert answer["valid"] == doc._.trip["is_valid"] and answer["error"] is None
    assert "html" not in answer


def test_serve_keeps_the_vocabulary_flat(service_url, nlp, monkeypatch):
    """What a request's new words add to the vocabulary is freed after its answer (the
    words of the service's first orders are kept, once: `answer.answer_batch`)."""
    from spacy_seqkit.travel.orders import answer

    assert post(service_url, {"text": "de Paris à Lyon"})[0] == 200
    # the first orders, whose words are kept, whichever test of the service came first
    assert post(service_url, {"orders": [{"id": "0", "sentence": "de Paris à Lyon"}]})[0] == 200
    monkeypatch.setitem(answer._warmed, nlp, answer.WARM_ORDERS)  # as after the first 10,000
    before = len(nlp.vocab.strings)
    for text in ["de Marseille à Qzwxplkjhgfd avec vbnmtrewq", "de Paris à Lyon avec zxcvbnmlkjh"]:
        assert post(service_url, {"text": text, "render": True})[0] == 200
    orders = [{"id": "1", "sentence": "de Marseille à Paris mnbvcxzlkjh"}]
    assert post(service_url, {"orders": orders})[0] == 200
    assert len(nlp.vocab.strings) == before


def test_serve_text_renders_entities_with_displacy(service_url):
    status, answer = post(service_url, {"text": "de Marseille à Paris <b>", "render": True})
    assert status == 200 and answer["places"] == ["Marseille", "Paris"]
    assert answer["html"].count('<mark class="entity"') == 2 and "&lt;b&gt;" in answer["html"]


def test_serve_orders_answer_like_resolve(service_url, nlp):
    orders = [{"id": str(i), "sentence": text} for i, text in enumerate(TEXTS)] + [
        {"id": 7, "sentence": "de Toulouse à Paris"}
    ]
    status, answer = post(service_url, {"orders": orders})
    assert status == 200
    data = "".join(f'{o["id"]},"{o["sentence"]}"\n' for o in orders if o["sentence"])
    out, _, _ = answer_csv(nlp, data.encode("utf8"))
    assert [a["line"] for a in answer["answers"] if a["id"] != "4"] == out.splitlines()
    assert [a["id"] for a in answer["answers"]] == [str(i) for i in range(8)]
    expected = {"id": "4", "valid": False, "places": [], "line": "4,INVALID", "error": None, "why": []}
    assert answer["answers"][4] == expected


def test_serve_orders_lines_follow_the_steps_flag(nlp):
    """An order's line is the spec's `id,Departure,Destination`, or with `steps` (as
    `serve --steps`, `resolve --steps`) the route with its stops; places hold the stops."""
    from spacy_seqkit.travel.orders.service import create_app

    from service_helpers import live_server

    orders = [{"id": "1", "sentence": "de marseile, par Dijon, à Lyon"}, {"id": "2", "sentence": "Il fait beau"}]
    for steps, line in ((False, "1,Marseille,Lyon"), (True, "1,Marseille,Dijon,Lyon")):
        with live_server(create_app(nlp, steps=steps)) as url:
            status, answer = post(url, {"orders": orders})
        assert status == 200
        assert [a["line"] for a in answer["answers"]] == [line, "2,INVALID"]
        assert answer["answers"][0]["places"] == ["Marseille", "Dijon", "Lyon"]
        data = b'1,"de marseile, par Dijon, \xc3\xa0 Lyon"\n2,Il fait beau\n'
        assert answer_csv(nlp, data, steps=steps)[0].splitlines() == [a["line"] for a in answer["answers"]]


@pytest.mark.parametrize(
    "body,status,message",
    [
        (b"\xff\xfe{}", 400, "not valid UTF-8"),
        (b'{"text": "de Marseille \xe0 Paris"}', 400, "not valid UTF-8"),
        (b'{"text": "de Marseille', 400, "not valid JSON"),
        (b"", 400, "not valid JSON"),
        (b"[" * 20_000 + b"]" * 20_000, 400, "not valid JSON"),
        (b'{"text": 1' + b"0" * 5000 + b"}", 400, "not valid JSON"),
        (b"[]", 422, '"text"'),
        (b'{"text": "a", "orders": []}', 422, '"text"'),
        (b'{"sentence": "a"}', 422, '"text"'),
        (b'{"text": ["a"]}', 422, '"text" must be a string'),
        (b'{"orders": "1,de Marseille"}', 422, '"orders" must be a list'),
        (b'{"orders": [{"id": 1}]}', 422, "orders[0]"),
        (b'{"orders": [{"id": 1, "sentence": "a"}, ["b"]]}', 422, "orders[1]"),
        (b'{"orders": [{"id": [1], "sentence": "a"}]}', 422, "id must be"),
        (json.dumps({"orders": [{"id": i, "sentence": "a"} for i in range(51)]}).encode(), 413, "51 orders"),
        (json.dumps({"text": "a " * 60_000}).encode(), 413, "over the limit of 100,000"),
    ],
)
def test_serve_bad_requests_get_a_4xx_json_error(service_url, body, status, message):
    got, answer = request(service_url, "POST", "/resolve", body)
    assert (got, message in answer["error"]) == (status, True), answer


def test_serve_body_limit_without_content_length(service_url):
    """A chunked body is cut off as soon as it passes the limit."""
    parts = urllib.parse.urlsplit(service_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    chunks = (b'{"text": "' + b"a" * 10_000 for _ in range(20))
    conn.request("POST", "/resolve", body=chunks, headers={"Content-Type": "application/json"}, encode_chunked=True)
    response = conn.getresponse()
    assert response.status == 413 and "over the limit" in json.loads(response.read())["error"]
    conn.close()


def test_serve_lone_surrogates_and_orders_over_the_limits(service_url):
    status, answer = request(service_url, "POST", "/resolve", b'{"text": "de Marseille \\ud83d \\u00e0 Paris"}')
    assert status == 200 and answer["places"] == ["Marseille", "Paris"] and "\ufffd" in answer["text"]
    status, answer = post(service_url, {"text": "😀" * 5_000, "render": True})  # 60 kB of JSON escapes
    assert status == 200 and answer["valid"] is False and answer["html"] is None
    assert answer["error"] == "a word of 5,000 characters, over the limit of 100"
    status, answer = post(
        service_url,
        {"orders": [{"id": "\ud800", "sentence": "😀" * 5000}, {"id": "2", "sentence": "de Toulouse à Lyon"}]},
    )
    assert status == 200
    assert [a["line"] for a in answer["answers"]] == ["\ufffd,INVALID", "2,Toulouse,Lyon"]


def test_serve_page(service_url):
    status, page = request(service_url, "GET", "/")
    assert status == 200 and '<input id="text"' in page and "/resolve" in page
    assert request(service_url, "GET", "/nope")[0] == 404
    assert request(service_url, "GET", "/resolve")[0] == 405


def test_serve_cli_starts_and_answers(model_dir):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cmd = [
        sys.executable,
        "-m",
        "spacy_seqkit",
        "serve",
        str(model_dir),
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--steps",
    ]
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                assert request(url, "GET", "/health")[0] == 200
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                assert time.monotonic() < deadline, "the service did not start"
                time.sleep(0.2)
        assert post(url, {"text": "de Marseille à Paris"})[1]["places"] == ["Marseille", "Paris"]
        orders = [{"id": "1", "sentence": "de Toulouse par Dijon à Lyon"}]
        assert post(url, {"orders": orders})[1]["answers"][0]["line"] == "1,Toulouse,Dijon,Lyon"  # --steps
    finally:
        server.terminate()
        server.wait(30)
    missing = subprocess.run(cmd[:4] + ["/nonexistent/model"], capture_output=True)
    assert missing.returncode == 2 and b"Cannot use model" in missing.stderr
