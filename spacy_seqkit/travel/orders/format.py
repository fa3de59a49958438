"""The Travel Order Resolver's file formats and the limits on one order.

In: `sentenceID,sentence` lines (UTF-8, optional BOM and header, CSV quoting,
unquoted commas inside the sentence allowed; lines end in LF, CRLF or a bare
CR). Out: one line per order, in order: `sentenceID,Departure,Destination` or
`sentenceID,INVALID` (the spec's format for an order); with `steps`, the stops the
request asks for between the ends, `sentenceID,Departure,Step1,...,Destination`
(the spec's format of a route).

One order may hold at most `MAX_ORDER_CHARS` characters, `MAX_ORDER_TOKENS`
tokens and no word longer than `MAX_WORD_CHARS` characters: beyond that it is
answered INVALID and reported, so that one bad order cannot stall a batch
(spaCy's tokenizer is quadratic in the length of a word it splits into many
pieces: 10,000 emoji in a row take it 20 s).
"""

import csv
import json
import re
from typing import IO, Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Set, Tuple

from ..pipeline.trip import INVALID, Trip

HEADER_IDS = {"sentenceid", "sentence_id", "id"}

# The limits on one order (see the module docstring). The tokens are counted
# before tokenizing, as the words plus the punctuation and symbol characters
# (each may become a token); at about 40 µs a token, 30,000 tokens take the
# trained pipeline about a second on one core.
MAX_ORDER_CHARS = 120_000
MAX_ORDER_TOKENS = 30_000
MAX_WORD_CHARS = 100

_LINE_END = re.compile(rb"\r\n|\r|\n")
_NOT_SYMBOL = re.compile(r"[\w\s]+")
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")

# Sentences may be long; csv's default limit (131,072 characters) is not a rule of ours.
csv.field_size_limit(2**31 - 1)


class Order(NamedTuple):
    line: int  # physical line number where the record ends, 1-based
    id: str
    sentence: str
    error: Optional[str]  # why the line is malformed, or None


def _physical_lines(stream: IO[bytes], block_size: int = 1 << 16) -> Iterator[bytes]:
    """The stream's lines, each with its end: LF, CRLF or a bare CR (a file
    iterator only knows LF, and would read a CR-only file as one line). Reads
    what is there (`read1`), so that a pipe is read as it comes."""
    read = getattr(stream, "read1", stream.read)
    carry: List[bytes] = []
    after_cr = False  # the last block ended in CR: its LF may open the next one
    while True:
        block = read(block_size)
        if not block:
            break
        start = 0
        if after_cr:
            start = 1 if block.startswith(b"\n") else 0
            carry.append(block[:start])
            yield b"".join(carry)
            carry, after_cr = [], False
        for match in _LINE_END.finditer(block, start):
            if match.end() == len(block) and match.group() == b"\r":
                after_cr = True
                break
            carry.append(block[start : match.end()])
            yield b"".join(carry)
            carry, start = [], match.end()
        carry.append(block[start:])
    if any(carry):
        yield b"".join(carry)


def _decoded_lines(stream: IO[bytes], bad_lines: Set[int]) -> Iterator[str]:
    for number, raw in enumerate(_physical_lines(stream), start=1):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            yield raw.decode("utf8")
        except UnicodeDecodeError:
            bad_lines.add(number)
            yield raw.decode("utf8", errors="replace")


def read_orders(stream: IO[bytes]) -> Iterator[Order]:
    """Every non-blank record of the stream, malformed ones included (with
    `error` set), so that each gets an answer."""
    bad_lines: Set[int] = set()
    reader = csv.reader(_decoded_lines(stream, bad_lines), skipinitialspace=False)
    previous_line = 0
    first = True
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            previous_line = reader.line_num
            yield Order(reader.line_num, "", "", f"unreadable CSV ({e})")
            continue
        lines = range(previous_line + 1, reader.line_num + 1)
        previous_line = reader.line_num
        if not row or all(not field.strip() for field in row):
            continue
        if first:
            first = False
            if row[0].strip().lower() in HEADER_IDS and len(row) >= 2:
                continue
        error = None
        if any(n in bad_lines for n in lines):
            error = "not valid UTF-8"
        order_id = row[0].strip()
        sentence = ",".join(row[1:]).strip()
        if len(row) < 2:
            error = error or "no comma between the sentence ID and the sentence"
        elif not order_id:
            error = error or "empty sentence ID"
        elif not sentence:
            error = error or "empty sentence"
        yield Order(reader.line_num, order_id, sentence if error is None else "", error)


def clean_text(text: str) -> str:
    """The text with each lone surrogate (which JSON can carry, and which
    spaCy cannot encode) replaced by U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def limit_error(text: str, max_length: Optional[int] = None) -> Optional[str]:
    """Why an order is over the limits on one order, or None. `max_length`
    (the pipeline's `nlp.max_length`) lowers the limit on characters."""
    max_chars = min(MAX_ORDER_CHARS, max_length or MAX_ORDER_CHARS)
    if len(text) > max_chars:
        return f"order of {len(text):,} characters, over the limit of {max_chars:,}"
    words = text.split()
    longest = max(map(len, words), default=0)
    if longest > MAX_WORD_CHARS:
        return f"a word of {longest:,} characters, over the limit of {MAX_WORD_CHARS}"
    n_tokens = len(words) + len(_NOT_SYMBOL.sub("", text))
    if n_tokens > MAX_ORDER_TOKENS:
        return f"about {n_tokens:,} tokens, over the limit of {MAX_ORDER_TOKENS:,}"
    return None


class Answer(NamedTuple):
    """The answer to one order: its places (departure, stops, arrival; none
    for INVALID), why it could not be read, if so, the UIC codes of the
    stations serving each place (what a route starts from), and the INSEE code
    of each place's commune (a place without station is served by the nearest), and the
    request itself and each place's kind (commune, station) for a trip (its day and time
    choose the trains of a journey; a commune whose stations no train calls at is served by
    the nearest stations that trains call at, a station with no train is not)."""

    line: int
    id: str
    places: Tuple[str, ...]
    error: Optional[str]
    stations: Tuple[Tuple[str, ...], ...] = ()
    communes: Tuple[Optional[str], ...] = ()
    sentence: str = ""
    kinds: Tuple[str, ...] = ()
    why: Tuple[Dict[str, Any], ...] = ()  # what decided the answer: `doc._.trip["why"]`

    def row(self, steps: bool = False) -> List[str]:
        """`id,departure,arrival` or `id,INVALID`; with `steps`, the stops between the
        ends: `id,departure,step...,arrival`."""
        if not self.places:
            return [self.id, INVALID]
        return [self.id, *self.places] if steps else [self.id, self.places[0], self.places[-1]]

    def explained(self, steps: bool = False) -> str:
        """One JSON line: the order's line and id, its answer (`row`) and what decided it."""
        why = [{"rule": "limits", "cue": self.error}] if self.error else list(self.why)
        return json.dumps(
            {"line": self.line, "id": self.id, "answer": self.row(steps)[1:], "why": why}, ensure_ascii=False
        )

    def message(self) -> Optional[str]:
        """The report of an order that could not be read, or None."""
        return f"line {self.line}: {self.error}; answered {INVALID}" if self.error else None


def row_writer(out: IO[str]) -> Callable[[List[str]], None]:
    """Writes a row on `out` as a CSV line ending in LF. csv quotes a field
    holding an LF; a field holding a CR is quoted too (csv leaves it bare, and
    a bare CR ends a line for readers such as ours)."""
    minimal = csv.writer(out, lineterminator="\n")
    quote_all = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    return lambda row: (quote_all if any("\r" in field for field in row) else minimal).writerow(row)


def write_answers(
    answers: Iterable[Answer],
    out: IO[str],
    report: Callable[[str], None],
    counts: Dict[str, int],
    prefix: str = "",
    steps: bool = False,
    route: Optional[Callable[[Answer], Tuple[List[str], Optional[str]]]] = None,
) -> None:
    """Write the answers as CSV lines on `out` (with their stops if `steps`, see
    `Answer.row`; or the line `route(answer)` gives with why there is no route, if
    none: see `routing.RouteAnswers`; or why there is no journey, where the line is the
    network's route: `routing.JourneyAnswers`), `report` each unread order or trip without a
    route or journey (preceded by `prefix`, e.g. its input file), and count them in `counts`."""
    write_row = row_writer(out)
    for answer in answers:
        if route is not None and answer.places:
            row, why = route(answer)
            if why is not None and row[1:] == [INVALID]:
                counts["no_route"] = counts.get("no_route", 0) + 1
                report(f"{prefix}line {answer.line}: no route ({why}); answered {INVALID}")
            elif why is not None:
                counts["no_train"] = counts.get("no_train", 0) + 1
                report(f"{prefix}line {answer.line}: no train ({why}); the network's route written")
            write_row(row)
        else:
            write_row(answer.row(steps))
        counts["orders"] += 1
        counts["valid" if answer.places else "invalid"] += 1
        message = answer.message()
        if message is not None:
            counts["malformed"] += 1
            report(prefix + message)


def new_counts() -> Dict[str, int]:
    """Orders, valid and INVALID answers, and malformed (or over-limit) lines."""
    return {"orders": 0, "valid": 0, "invalid": 0, "malformed": 0}


def answer_row(order_id: str, trip: Trip, steps: bool = False) -> List[str]:
    """`id,departure,arrival` or `id,INVALID`; with `steps`, `id,departure,step...,arrival`."""
    return Answer(0, order_id, tuple(trip.places()), None).row(steps)
