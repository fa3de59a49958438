"""Turn the writers' sources (sources/<writer>.txt) into corpus/written/train.jsonl,
corpus/written/eval.jsonl, corpus/written/after.jsonl and corpus/written/dev.jsonl.

A source holds one writer's requests: two header lines, `# writer: <id>` and `# brief: <the
register and situation the writer was given>`, then one request per line in the markup of the
hand-written sets (`CATEGORY NOISE TEXT`, places as `[mention](LABEL=Canonical)`; see
corpus/handwritten/build.py). The writers are split once, by writer, never mixed: EVAL_WRITERS are
scored and never read (their errors are not looked at, no rule is drawn from them); the others
are the training part the main job learns from. AFTER_WRITERS, of kinds not asked for before, wrote
after the main job learned roles over every candidate, and are never read either: scored once.
DEV_WRITERS are read (their errors too) but never learned from: the main job trained on them
answered the hand-written sets worse (docs/results.md), so they judge the reading instead.

    python corpus/written/build.py            # rewrite train.jsonl, eval.jsonl, after.jsonl and dev.jsonl
    python corpus/written/build.py --stats    # also print the counts per writer
"""

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "sources"
EVAL_WRITERS = ("e01", "e02", "e03", "e04", "e05", "e06", "e07")
AFTER_WRITERS = tuple(f"n{i:02d}" for i in range(1, 17))  # n01–n16
# Writers read while tuning the reading but never learned from (scored; their errors may be read).
DEV_WRITERS = ("d01", "d02", "d03", "d04")
PART_OF = {
    **dict.fromkeys(EVAL_WRITERS, "eval"),
    **dict.fromkeys(AFTER_WRITERS, "after"),
    **dict.fromkeys(DEV_WRITERS, "dev"),
}
HEADER = re.compile(r"#\s*(writer|brief):\s*(.+)")


def _handwritten():
    spec = importlib.util.spec_from_file_location("handwritten_build", HERE.parent / "handwritten" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_source(path: Path, builder=None):
    """The records of one writer's source, each with its writer, brief, category and noise."""
    builder = builder or _handwritten()
    header, records = {}, []
    for number, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        line = line.strip()
        match = HEADER.match(line)
        if match:
            header[match.group(1)] = match.group(2).strip()
            continue
        if not line or line.startswith("#"):
            continue
        if set(header) != {"writer", "brief"}:
            raise ValueError(f"{path.name}:{number}: the '# writer:' and '# brief:' lines come first")
        try:
            category, noisy, text, spans = builder.parse_line(line)
            record = builder.to_record(f"{header['writer']}-{len(records) + 1:04d}", category, text, spans)
        except ValueError as err:
            raise ValueError(f"{path.name}:{number}: {err}") from None
        record.update(writer=header["writer"], brief=header["brief"], category=category, noisy=noisy)
        records.append(record)
    if header.get("writer") != path.stem:
        raise ValueError(f"{path.name}: its header names writer {header.get('writer')!r}")
    return records


def build():
    """{"train": records, "eval": records, "after": records, "dev": records}, writers in order."""
    builder = _handwritten()
    parts: dict = {"train": [], "eval": [], "after": [], "dev": []}
    for path in sorted(SOURCES.glob("*.txt")):
        parts[PART_OF.get(path.stem, "train")] += read_source(path, builder)
    return parts


def main(argv):
    parts = build()
    for name, records in parts.items():
        out = HERE / f"{name}.jsonl"
        with out.open("w", encoding="utf8") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        writers = Counter(r["writer"] for r in records)
        print(f"{out}: {len(records)} requests from {len(writers)} writers")
        if "--stats" in argv:
            for writer, n in sorted(writers.items()):
                rows = [r for r in records if r["writer"] == writer]
                valid = sum(r["trip"] is not None for r in rows)
                stops = sum(bool(r["trip"] and r["trip"]["steps"]) for r in rows)
                print(f"  {writer}  {n:4d}  valid {valid / n:.0%}  with stops {stops / n:.0%}")


if __name__ == "__main__":
    main(sys.argv[1:])
