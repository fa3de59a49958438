"""Turn the hand-written sources (test.txt, dev.txt, blind.txt, holdout.txt, stations.txt) into corpus/<name>.jsonl.

Source format, one request per line (blank lines and lines starting with "#" are skipped):

    CATEGORY NOISE TEXT

CATEGORY is one of ok, via (valid requests), nointent, thing, oneend, alt (hesitation between
alternatives for an end), foreign, junk, mode (by another means than the train: a coach, a
bus, a car, a plane; places unmarked, as seqkit_trip leaves them) (INVALID);
NOISE is "n" when the sentence carries real-world noise (typos, no accents, SMS, caps...), else ".".
Places are marked inline as [mention](LABEL) or [mention](LABEL=Canonical name); without
"=Canonical" the mention itself is the canonical name. Offsets are computed here, so the source
stays readable and the JSONL never drifts from it.

    python corpus/handwritten/build.py            # rewrite every JSONL file
    python corpus/handwritten/build.py --stats    # also print counts per category
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
SETS = {"test": "t", "dev": "d", "blind": "b", "holdout": "h", "stations": "s"}
VALID = {"ok", "via"}
INVALID = {"nointent", "thing", "oneend", "alt", "foreign", "junk", "mode"}
LABELS = {"DEPART", "ARRIVEE", "VIA"}
MARK = re.compile(r"\[([^\]]+)\]\(([A-Z]+)(?:=([^)]+))?\)")


def parse_line(line):
    """Return (category, noisy, text, spans) for one source line; spans carry canonical names."""
    parts = line.split(None, 2)
    if len(parts) != 3:
        raise ValueError(f"expected 'CATEGORY NOISE TEXT', got {line!r}")
    category, noise, marked = parts
    if category not in VALID | INVALID:
        raise ValueError(f"unknown category {category!r} in {line!r}")
    if noise not in {"n", "."}:
        raise ValueError(f"noise flag must be 'n' or '.', got {noise!r} in {line!r}")
    text, spans, pos = [], [], 0
    length = 0
    for match in MARK.finditer(marked):
        before = marked[pos:match.start()]
        text.append(before)
        length += len(before)
        mention, label, canonical = match.groups()
        if label not in LABELS:
            raise ValueError(f"unknown label {label!r} in {line!r}")
        spans.append({"start": length, "end": length + len(mention), "label": label,
                      "canonical": canonical or mention})
        text.append(mention)
        length += len(mention)
        pos = match.end()
    text.append(marked[pos:])
    text = "".join(text)
    if "[" in text or "](" in text:
        raise ValueError(f"unbalanced markup in {line!r}")
    return category, noise == "n", text, spans


def to_record(record_id, category, text, spans):
    """Build the JSONL record (travel_conventions.md format) and check it against its category."""
    by_label = {label: [s for s in spans if s["label"] == label] for label in LABELS}
    if len(by_label["DEPART"]) > 1 or len(by_label["ARRIVEE"]) > 1:
        raise ValueError(f"more than one DEPART or ARRIVEE in {text!r}")
    complete = bool(by_label["DEPART"]) and bool(by_label["ARRIVEE"])
    if complete != (category in VALID):
        raise ValueError(f"category {category!r} does not match the spans of {text!r}")
    if (category == "via") != bool(by_label["VIA"]):
        raise ValueError(f"'via' category iff VIA spans, in {text!r}")
    trip = None
    if complete:
        trip = {"departure": by_label["DEPART"][0]["canonical"],
                "arrival": by_label["ARRIVEE"][0]["canonical"],
                "steps": [s["canonical"] for s in by_label["VIA"]]}
    return {"id": record_id, "text": text,
            "spans": [{"start": s["start"], "end": s["end"], "label": s["label"]} for s in spans],
            "trip": trip}


def build(name):
    """Parse corpus/handwritten/<name>.txt; return the records and a per-line (category, noisy)."""
    records, tags = [], []
    source = HERE / f"{name}.txt"
    for number, line in enumerate(source.read_text(encoding="utf8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            category, noisy, text, spans = parse_line(line)
            record = to_record(f"{SETS[name]}{len(records) + 1:04d}", category, text, spans)
        except ValueError as err:
            raise ValueError(f"{source.name}:{number}: {err}") from None
        records.append(record)
        tags.append((category, noisy))
    return records, tags


def main(argv):
    for name in SETS:
        records, tags = build(name)
        out = CORPUS / f"{name}.jsonl"
        with out.open("w", encoding="utf8") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"{out}: {len(records)} records")
        if "--stats" in argv:
            total = len(tags)
            cats = Counter(c for c, _ in tags)
            for cat in ["ok", "via", "nointent", "thing", "oneend", "alt", "foreign", "junk", "mode"]:
                print(f"  {cat:9s} {cats[cat]:4d}  {100 * cats[cat] / total:5.1f}%")
            invalid = sum(cats[c] for c in INVALID)
            noisy = sum(n for _, n in tags)
            print(f"  INVALID   {invalid:4d}  {100 * invalid / total:5.1f}%")
            print(f"  noisy     {noisy:4d}  {100 * noisy / total:5.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
