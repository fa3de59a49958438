"""The same-answers check: what the reading after the recognizer answers, request by request.

For each request of the committed sets (the hand-written sets, corpus/written/ once it exists,
and a fixed sample of generated requests), `record` keeps the entities a trained recognizer
marked, the roles its span categorizer gave the candidate places (`doc.spans["roles"]`, read by
`seqkit_places` with `roles = "learned"`), and what the pipeline answered from them: the trip,
its stops, the texts they were read from and the mentions with their final roles.
`tests/travel/test_same_answers.py` reads the same requests into docs with those entities and
roles (the project's tokenizer, no model) and checks that the components after the recognizer
answer the same: the reading may move between modules and pipes, never change an answer
unnoticed. An answer changed on purpose is recorded again, and the commit says which and why
(`compare` lists them).

    python scripts/same_answers.py record training/ner_maxout/model-best   # write the files
    python scripts/same_answers.py record MODEL --sets written_dev         # record one set
    python scripts/same_answers.py compare                                 # list what differs now
    python scripts/same_answers.py update                                  # record the changed answers

The generated sample is the main job's generated corpus (`spacy project run generate`, seed 0):
its 20,000 training and 2,000 dev requests.
"""

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Optional

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "travel" / "data" / "answers"
HANDWRITTEN = ("test", "dev", "blind", "holdout", "stations")
# The span group the roles' span categorizer writes (`configs/ner_maxout.cfg`).
ROLES = "roles"
# The written sets never read: `compare` counts their answers changed, never shows them.
NEVER_READ = ("written_eval", "written_after")
GENERATED = {"generated_train": "corpus/generated/train.jsonl", "generated_dev": "corpus/generated/dev.jsonl"}


def sources() -> Dict[str, Path]:
    """The sets recorded, by name: the hand-written ones, the written ones where they exist, the
    generated sample."""
    found = {name: ROOT / "corpus" / f"{name}.jsonl" for name in HANDWRITTEN}
    written = ROOT / "corpus" / "written"
    for path in sorted(written.glob("*.jsonl")) if written.is_dir() else []:
        found[f"written_{path.stem}"] = path
    found.update({name: ROOT / path for name, path in GENERATED.items()})
    return found


def reading_pipeline(nlp=None):
    """The pipeline the check runs: the project's tokenizer (with the arrows split, as a trained
    pipeline's) and the components after the recognizer, from `nlp`'s config where given (a
    trained pipeline), else from the main job's config."""
    import spacy
    from spacy.util import load_config

    from spacy_seqkit.travel.pipeline.reading import READING_PIPES
    from spacy_seqkit.travel.pipeline.tokenizer import make_arrow_infixes

    cfg = nlp.config if nlp is not None else load_config(ROOT / "configs" / "ner_maxout.cfg")
    config = {"nlp": {"tokenizer": dict(cfg["nlp"]["tokenizer"])}}
    reading = make_arrow_infixes()(spacy.blank("fr", config=config))
    names = after_recognizer(nlp) if nlp is not None else None
    if names is None:
        pipeline = list(cfg["nlp"]["pipeline"])
        names = [(name, dict(cfg["components"][name])) for name in pipeline[pipeline.index("ner") + 1 :]]
    for name, component_cfg in names:
        factory = component_cfg.pop("factory")
        if factory in READING_PIPES:  # the reading; not a trained component (the roles' categorizer)
            reading.add_pipe(factory, name=name, config=component_cfg)
    return reading


def after_recognizer(nlp):
    pipeline = nlp.pipe_names
    if "ner" not in pipeline:
        return None
    return [(name, dict(nlp.config["components"][name])) for name in pipeline[pipeline.index("ner") + 1 :]]


def write(path: Path, rows: List[dict]) -> None:
    """The recorded rows of one set, as `read` reads them back."""
    with gzip.open(path, "wt", encoding="utf8", compresslevel=9) as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def read(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def answer_of(doc) -> dict:
    """What the reading answered for `doc`: its trip's names and texts, and its mentions."""
    trip = doc._.trip or {}
    keys = ("departure", "arrival", "steps", "departure_text", "arrival_text", "steps_text")
    return {
        **{key: trip.get(key) for key in keys},
        "mentions": [[e.start_char, e.end_char, e.label_] for e in doc.ents],
    }


def marked(reading, record: dict):
    """The request of `record` as a doc of `reading`'s tokenizer with the entities it keeps, and the
    roles the span categorizer gave its candidates (`doc.spans["roles"]`) where it kept them."""
    doc = reading.make_doc(record["text"])

    def spans(key: str):
        found = [doc.char_span(start, end, label=label) for start, end, label in record[key]]
        if any(span is None for span in found):
            raise ValueError(f"{record['id']}: {key} off the tokens of {record['text']!r}")
        return found

    doc.ents = spans("ents")
    if ROLES in record:
        doc.spans[ROLES] = spans(ROLES)
    return doc


def answers(reading, records: List[dict]) -> Iterator[dict]:
    docs = (marked(reading, record) for record in records)
    for _, proc in reading.pipeline:
        docs = proc.pipe(docs) if hasattr(proc, "pipe") else map(proc, docs)
    for doc in docs:
        yield answer_of(doc)


def record(model: str, limit: Optional[int], only: Optional[List[str]] = None) -> None:
    import spacy

    unknown = sorted(set(only or ()) - set(sources()))
    if unknown:  # before loading a pipeline
        raise SystemExit(f"--sets: no set named {', '.join(unknown)} (the sets: {', '.join(sources())})")
    nlp = spacy.load(model)
    reading = reading_pipeline(nlp)
    # The trained components: the recognizer, and the span categorizer of the roles where there is one.
    last = max(nlp.pipe_names.index(name) for name in ("ner", ROLES) if name in nlp.pipe_names)
    first = nlp.pipe_names[: last + 1]
    OUT.mkdir(parents=True, exist_ok=True)
    for name, path in sources().items():
        if only and name not in only:
            continue
        if not path.exists():
            print(f"{name}: {path} missing, skipped", file=sys.stderr)
            continue
        requests = list(read(path))[:limit]
        texts = [r["text"] for r in requests]
        rows = []
        with nlp.select_pipes(enable=first):
            for r, doc in zip(requests, nlp.pipe(texts)):
                row = {
                    "id": r["id"],
                    "text": r["text"],
                    "ents": [[e.start_char, e.end_char, e.label_] for e in doc.ents],
                }
                if ROLES in doc.spans:
                    row[ROLES] = [[s.start_char, s.end_char, s.label_] for s in doc.spans[ROLES]]
                rows.append(row)
        whole = [answer_of(doc) for doc in nlp.pipe(texts)]
        for row, answer, again in zip(rows, answers(reading, rows), whole):
            if answer != again:  # the reading must depend on the entities alone
                raise SystemExit(f"{name} {row['id']}: {answer} from the entities, {again} from the pipeline")
            row["answer"] = answer
        write(OUT / f"{name}.jsonl.gz", rows)
        print(f"{name}: {len(rows)} requests recorded")


def recorded() -> Dict[str, List[dict]]:
    return {path.name[: -len(".jsonl.gz")]: list(read(path)) for path in sorted(OUT.glob("*.jsonl.gz"))}


def differences(reading=None) -> Iterator[tuple]:
    """(set, record, answer now) for every recorded request answered otherwise now."""
    reading = reading or reading_pipeline()
    for name, rows in recorded().items():
        for row, answer in zip(rows, answers(reading, rows)):
            if answer != row["answer"]:
                yield name, row, answer


def update(reading=None) -> Dict[str, int]:
    """Record again the answers that differ now, each row keeping the entities and roles recorded
    (no model run, no other row rewritten): after a change of the reading made on purpose. Returns
    the number of answers changed per set, which is all it prints (it never shows a request: the
    never-read sets are recorded too)."""
    reading = reading or reading_pipeline()
    changed: Dict[str, int] = {}
    for path in sorted(OUT.glob("*.jsonl.gz")):
        rows = list(read(path))
        n = 0
        for row, answer in zip(rows, answers(reading, rows)):
            if answer != row["answer"]:
                row["answer"], n = answer, n + 1
        if n:
            write(path, rows)
        changed[path.name[: -len(".jsonl.gz")]] = n
    return changed


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record the entities and answers of a trained pipeline")
    rec.add_argument("model")
    rec.add_argument("--limit", type=int, default=None)
    rec.add_argument("--sets", nargs="+", default=None, help="record only these sets (e.g. written_dev)")
    sub.add_parser("compare", help="list the requests answered otherwise now")
    sub.add_parser("update", help="record again the answers that differ now, keeping the recorded entities")
    args = parser.parse_args(argv)
    if args.command == "record":
        record(args.model, args.limit, args.sets)
        return
    if args.command == "update":
        for name, n in update().items():
            print(f"{name}: {n} answers recorded again")
        return
    n, unread = 0, 0
    for name, row, answer in differences():
        n += 1
        if name in NEVER_READ:  # counted, never shown
            unread += 1
            continue
        print(
            json.dumps(
                {"set": name, "id": row["id"], "text": row["text"], "was": row["answer"], "now": answer},
                ensure_ascii=False,
            )
        )
    print(f"{n} answers differ ({unread} of them in never-read sets, not shown)", file=sys.stderr)


if __name__ == "__main__":
    main()
