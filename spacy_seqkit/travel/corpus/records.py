"""Travel JSONL records: one reader, one writer, one record → Doc builder.

A record is `{"id", "text", "spans": [{"start", "end", "label"}], "trip": {"departure",
"arrival", "steps"} | null}`, optionally with "rewrite" (the canonical trip string) and
"rewrite_typed" (the trip as the request wrote its places: `typed_rewrite`).
"""
import json
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple, Union

from spacy.tokens import Doc

from ..pipeline.trip import INVALID, REWRITE_SEPARATOR, Trip

# Where `doc._.rewrite` keeps its value: spaCy stores extension attributes in
# doc.user_data under this key, so the value is there before the extension is registered.
REWRITE_KEY = ("._.", "rewrite", None, None)


def read_records(path: Union[str, Path]) -> List[Dict]:
    """Every record of a JSONL file (blank lines skipped); a line that is not JSON
    raises a ValueError naming the file and the line."""
    records = []
    with Path(path).open(encoding="utf8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}, line {number}: not valid JSON ({e})") from None
    return records


def write_records(records: Iterable[Dict], path: Union[str, Path]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf8", newline="\n") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")


def record_trip(record: Dict) -> Trip:
    """The gold trip of a record (null: INVALID)."""
    return Trip.from_dict(record.get("trip"))


# The span group of a record's spans, for a span categorizer (`spancat_singlelabel`).
ROLES_KEY = "roles"
# Whether a request asks for a trip by train at all (a text classifier's labels), by the
# category of a written record or the family of a generated one's template: one end, an end in
# doubt or abroad still ask for one; no intent, places as things, another language, nonsense and
# another means do not.
INTENT_LABELS = ("TRIP", "NO_TRIP")
NO_TRIP_KINDS = frozenset({"nointent", "thing", "foreign", "junk", "mode"})
NO_TRIP_TEMPLATES = frozenset({"no_travel", "place_thing", "foreign", "other_mode", "gibberish"})


def asks_for_trip(record: Dict) -> Optional[bool]:
    """Whether the record asks for a train trip, where its category or template says; else None."""
    if record.get("category"):
        return record["category"] not in NO_TRIP_KINDS
    if record.get("template"):
        return record["template"].rsplit("-", 1)[0] not in NO_TRIP_TEMPLATES
    return None


def record_doc(make_doc: Callable[[str], Doc], record: Dict) -> Doc:
    """The record's text made into a Doc by `make_doc`, its spans as `doc.ents` and as
    `doc.spans["roles"]`, and its
    canonical trip string in `doc._.rewrite` (user data). A span off the token
    boundaries, or two overlapping spans, raise a ValueError naming the record."""
    record_id = record.get("id")
    doc = make_doc(record["text"])
    ents = []
    for span in record.get("spans", []):
        ent = doc.char_span(span["start"], span["end"], label=span["label"])
        if ent is None:
            mention = record["text"][span["start"]: span["end"]]
            raise ValueError(
                f"record {record_id}: span {span['start']}-{span['end']} ({mention!r}, "
                f"{span['label']}) does not fall on token boundaries: {[t.text for t in doc]}"
            )
        ents.append(ent)
    try:
        doc.ents = ents
    except ValueError as err:
        raise ValueError(f"record {record_id}: overlapping spans ({err})") from None
    doc.spans[ROLES_KEY] = ents  # the ends and stops a span categorizer learns to give the places
    intent = asks_for_trip(record)
    if intent is not None:
        doc.cats = {"TRIP": float(intent), "NO_TRIP": float(not intent)}
    # spaCy keys extension values by tuples; its stubs type user_data as Dict[str, Any].
    doc.user_data[REWRITE_KEY] = gold_rewrite(make_doc, record)  # type: ignore[index]
    return doc


def typed_rewrite(make_doc: Callable[[str], Doc], record: Dict) -> str:
    """The record's trip written with its places as the request writes them, each the
    tokens of its span joined by single spaces: "je vais de marseile a st etienne" ->
    "marseile > st etienne" (departure, stops in reading order, arrival), or "INVALID".
    A rewriter that learns this form copies every place from its source tokens, and
    the gazetteer resolves what it wrote, as the trip component resolves entities."""
    if not record_trip(record).is_valid:
        return INVALID
    ents = record_doc(make_doc, record).ents
    by_label = {label: [" ".join(t.text for t in e) for e in ents if e.label_ == label]
                for label in ("DEPART", "VIA", "ARRIVEE")}
    if len(by_label["DEPART"]) != 1 or len(by_label["ARRIVEE"]) != 1:
        raise ValueError(
            f"record {record.get('id')}: a valid trip needs one DEPART and one ARRIVEE span to be "
            f"written as typed, got {len(by_label['DEPART'])} and {len(by_label['ARRIVEE'])}"
        )
    return f" {REWRITE_SEPARATOR} ".join(by_label["DEPART"] + by_label["VIA"] + by_label["ARRIVEE"])


# The forms of a record's gold rewrite, by record key: the canonical trip, or its
# places as the request types them.
REWRITE_FORMS = {"rewrite": lambda make_doc, record: record_trip(record).to_rewrite(), "rewrite_typed": typed_rewrite}


def gold_rewrite(make_doc: Callable[[str], Doc], record: Dict, key: str = "rewrite") -> str:
    """The record's gold rewrite of the form `key` ("rewrite" or "rewrite_typed"):
    the record's own value when it has one (generated records do), else made
    from its trip and spans (hand-written records)."""
    if key not in REWRITE_FORMS:
        raise ValueError(f"'key' must be one of {', '.join(REWRITE_FORMS)}, got {key!r}")
    return record.get(key) or REWRITE_FORMS[key](make_doc, record)


def split_by_writer(source: Path, kept: Path, held_out: Path, writers: Set[str]) -> Tuple[int, int]:
    """The lines of `source` (JSON records with a "writer") of `writers` to `held_out`, the others to
    `kept`, unchanged; (kept, held out) counts. ValueError on a line without a writer, or where a
    writer named is in none of them."""
    lines: Dict[bool, List[str]] = {True: [], False: []}
    seen = set()
    with open(source, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            writer = json.loads(line).get("writer")
            if not writer:
                raise ValueError(f"line {number} has no writer")
            seen.add(writer)
            lines[writer in writers].append(line if line.endswith("\n") else line + "\n")
    missing = sorted(writers - seen)
    if missing:
        raise ValueError(f"no request of {', '.join(missing)} (writers: {', '.join(sorted(seen))})")
    for path, part in ((kept, lines[False]), (held_out, lines[True])):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(part), encoding="utf-8")
    return len(lines[False]), len(lines[True])
