"""10,000 fuzzed requests through `resolve` and the service: random Unicode
(lone surrogates, controls, NUL, right-to-left marks, combining marks, emoji),
huge and empty texts, long words, CSV breakers and mutated real requests. No
traceback, no order lost or reordered, none taking more than 2 s.

Slow (`--runslow`). The pipeline is the rule-based one of conftest.py, or a
trained one: SEQKIT_FUZZ_MODEL=training/ner_maxout/model-best (SEQKIT_FUZZ_N:
another number of requests).
"""

import csv
import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest
import spacy

from spacy_seqkit.travel.orders.answer import answer_orders, prepare_pipeline
from spacy_seqkit.travel.orders.format import MAX_ORDER_CHARS, MAX_WORD_CHARS, Order

pytestmark = pytest.mark.slow

N_REQUESTS = int(os.environ.get("SEQKIT_FUZZ_N", 10_000))
MAX_SECONDS = 2.0
REAL = Path(__file__).resolve().parents[3] / "corpus" / "dev.jsonl"
CSV_BREAKERS = ['"', '""', ",", '","', "\n", "\r", "\r\n", "\ufeff", "\x00", "sentenceID,sentence", '"\n"', ",,,", "\\"]
UNICODE_RANGES = [
    (0x00, 0x7F),
    (0x80, 0x2FF),
    (0x300, 0x36F),
    (0x590, 0x6FF),
    (0x200B, 0x202E),
    (0x2028, 0x2029),
    (0x3000, 0x30FF),
    (0x4E00, 0x4FFF),
    (0xD800, 0xDFFF),
    (0xE000, 0xE0FF),
    (0xFE00, 0xFE0F),
    (0xFFF0, 0xFFFF),
    (0x1F300, 0x1F6FF),
    (0x1F900, 0x1F9FF),
    (0xE0000, 0xE007F),
    (0x10FFF0, 0x10FFFF),
]


def random_unicode(rng: random.Random, n: int) -> str:
    ranges = [rng.choice(UNICODE_RANGES) for _ in range(3)]
    return "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(n))


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(chars) + 1)
        op = rng.randrange(5)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, random_unicode(rng, 1))
        elif op == 2 and i < len(chars) - 1:
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif op == 3:
            chars.insert(i, rng.choice(CSV_BREAKERS))
        else:
            chars = [c.upper() if rng.random() < 0.5 else c.lower() for c in chars]
    return "".join(chars)


def fuzz_texts(n: int = N_REQUESTS, seed: int = 0) -> List[str]:
    """`n` texts: 0.3% huge ones, the rest of the other kinds in equal shares."""
    rng = random.Random(seed)
    real = [json.loads(line)["text"] for line in REAL.read_text(encoding="utf8").splitlines()] or [
        "de Marseille à Paris"
    ]
    word = lambda k: "".join(rng.choice(["a", "é", "😀", "l'", "-", "‐", ".", "🇫🇷", "\u0301"]) for _ in range(k))[:k]  # noqa: E731
    kinds = [
        lambda: random_unicode(rng, rng.randint(1, 200)),
        lambda: rng.choice(["", " ", "\t", "\n", "\u3000", "\u200b", "\ufeff", "\x00"]) * rng.randint(0, 3),
        lambda: word(rng.choice([MAX_WORD_CHARS - 1, MAX_WORD_CHARS, MAX_WORD_CHARS + 1, rng.randint(1, 5000)])),
        lambda: " ".join(word(rng.randint(1, MAX_WORD_CHARS)) for _ in range(rng.randint(1, 20))),
        lambda: rng.choice(real) + "".join(rng.choice(CSV_BREAKERS) for _ in range(rng.randint(1, 5))),
        lambda: mutate(rng, rng.choice(real)),
        lambda: rng.choice(real),
    ]
    huge = [
        lambda: ("bla " * 40_000)[: rng.randint(MAX_ORDER_CHARS - 1000, MAX_ORDER_CHARS)] + " de Marseille à Paris",
        lambda: " ".join(rng.choice(real) for _ in range(2500))[:MAX_ORDER_CHARS],
        lambda: "😀 " * rng.randint(14_000, 16_000),
        lambda: "x" * rng.randint(MAX_ORDER_CHARS, 1_100_000),
        lambda: " ".join(word(MAX_WORD_CHARS) for _ in range(rng.randint(100, 300))),  # the tokenizer's worst
    ]
    return [rng.choice(huge)() if rng.random() < 0.003 else rng.choice(kinds)() for _ in range(n)]


@pytest.fixture(scope="module")
def fuzz_model(model_dir) -> str:
    return os.environ.get("SEQKIT_FUZZ_MODEL") or str(model_dir)


@pytest.fixture(scope="module")
def texts() -> List[str]:
    return fuzz_texts()


def test_fuzz_resolve_answers_every_order_in_order(fuzz_model, texts, tmp_path):
    path = tmp_path / "fuzz.csv"
    with open(path, "w", encoding="utf8", errors="surrogatepass", newline="") as f:
        # CRLF line ends: csv then quotes every field holding a CR or an LF.
        csv.writer(f, lineterminator="\r\n").writerows([str(i), text] for i, text in enumerate(texts))
    out = tmp_path / "answers.csv"
    cmd = [sys.executable, "-m", "spacy_seqkit", "resolve", fuzz_model, str(path), "-o", str(out)]
    done = subprocess.run(cmd, capture_output=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode()[-3000:]
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf8"))))
    assert [row[0] for row in rows] == [str(i) for i in range(len(texts))]


def test_fuzz_each_order_within_two_seconds(fuzz_model, texts):
    nlp = prepare_pipeline(spacy.load(fuzz_model))
    slow = []
    for i, text in enumerate(texts):
        start = time.perf_counter()
        answers = list(answer_orders(nlp, [Order(i + 1, str(i), text, None)]))
        elapsed = time.perf_counter() - start
        assert [a.id for a in answers] == [str(i)]
        if elapsed > MAX_SECONDS:
            slow.append((i, len(text), round(elapsed, 2)))
    assert slow == []


def test_fuzz_service_answers_every_request(fuzz_model, texts):
    pytest.importorskip("fastapi", reason="the service needs FastAPI: pip install '.[serve]'")
    from spacy_seqkit.travel.orders.service import create_app

    from service_helpers import live_server, request

    nlp = prepare_pipeline(spacy.load(fuzz_model))
    slow, statuses = [], {}
    with live_server(create_app(nlp)) as url:
        for i, text in enumerate(texts):
            body = json.dumps({"text": text, "render": i % 2 == 0}).encode("utf8")
            start = time.perf_counter()
            status, answer = request(url, "POST", "/resolve", body)
            elapsed = time.perf_counter() - start
            statuses[status] = statuses.get(status, 0) + 1
            assert status == 200 or (status == 413 and len(body) > 1_000_000), (i, status, answer)
            if elapsed > MAX_SECONDS:
                slow.append((i, len(text), round(elapsed, 2)))
        for start in range(0, len(texts), 100):
            orders = [{"id": str(i), "sentence": texts[i]} for i in range(start, min(start + 100, len(texts)))]
            body = json.dumps({"orders": orders}).encode("utf8")
            status, answer = request(url, "POST", "/resolve", body)
            if status == 413:  # a batch holding one of the megabyte texts
                assert len(body) > 1_000_000
                continue
            assert status == 200, answer
            assert [a["id"] for a in answer["answers"]] == [o["id"] for o in orders]
        rng = random.Random(1)
        for _ in range(500):  # raw bodies: broken JSON, bytes, mutated requests
            body = rng.choice(
                [
                    bytes(rng.randrange(256) for _ in range(rng.randint(0, 100))),
                    json.dumps({"text": rng.choice(texts)[:1000]}).encode()[: rng.randint(0, 50)],
                    mutate(rng, json.dumps({"orders": [{"id": 1, "sentence": "de Lyon à Paris"}]})).encode(
                        "utf8", "surrogatepass"
                    ),
                ]
            )
            status, _ = request(url, "POST", "/resolve", body)
            assert status in (200, 400, 413, 422)
    assert slow == []
