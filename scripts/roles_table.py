"""Trip accuracy of one trained pipeline on every set, its place mentions taking their roles each
way `seqkit_places` can (`roles`: recognizer, union, learned): the table of docs/results.md.

    python scripts/roles_table.py training/ner_maxout/model-best [--roles recognizer,union,learned]

The never-read sets (corpus/written/eval.jsonl, after.jsonl) are scored, never printed line by line.
"""

import argparse
from pathlib import Path

import spacy

from spacy_seqkit.travel.corpus.records import read_records
from spacy_seqkit.travel.evaluation import evaluate

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "test": "corpus/test.jsonl",
    "blind": "corpus/blind.jsonl",
    "holdout": "corpus/holdout.jsonl",
    "stations": "corpus/stations.jsonl",
    "dev": "corpus/dev.jsonl",
    "generated dev": "corpus/generated/dev.jsonl",
    "written train": "corpus/written/train.jsonl",
    "never read": "corpus/written/eval.jsonl",
    "after": "corpus/written/after.jsonl",
    "written dev": "corpus/written/dev.jsonl",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--roles", default="recognizer,union,learned")
    args = parser.parse_args()
    data = {name: list(read_records(ROOT / path)) for name, path in SETS.items() if (ROOT / path).exists()}
    print("| roles | " + " | ".join(data) + " |")
    print("| --- |" + " --- |" * len(data))
    for roles in args.roles.split(","):
        nlp = spacy.load(args.model, config={"components": {"seqkit_places": {"roles": roles}}})
        cells = [f"{evaluate(nlp.pipe, records, nlp)['trip_acc']:.3f}" for records in data.values()]
        print(f"| {roles} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
