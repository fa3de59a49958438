"""Travel JSONL records: one reader, one writer, one record → Doc builder.

A record is `{"id", "text", "spans": [{"start", "end", "label"}], "trip": {"departure",
"arrival", "steps"} | null}`, optionally with "rewrite" (the canonical trip string).
"""
import json
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Union

from spacy.tokens import Doc

from .trip import Trip

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


def record_doc(make_doc: Callable[[str], Doc], record: Dict) -> Doc:
    """The record's text made into a Doc by `make_doc`, its spans as `doc.ents` and its
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
    doc.user_data[REWRITE_KEY] = record.get("rewrite") or record_trip(record).to_rewrite()
    return doc
