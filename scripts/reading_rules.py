"""The tables of the reading's rules, made from their data: each qualifier's rules (its folder's
patterns.toml), the steps of seqkit_trip (roles/steps.toml), and the word classes of the lexicon.
docs/travel.md holds them between the markers below; tests/travel/pipeline/test_lexicon.py checks
that they are current.

    python scripts/reading_rules.py            # print the tables
    python scripts/reading_rules.py --write    # write them into docs/travel.md
"""

import sys
from pathlib import Path

from spacy_seqkit.travel.pipeline.lexicon import lexicon, patterns, read_toml
from spacy_seqkit.travel.pipeline.reading import QUALIFIERS

ROOT = Path(__file__).resolve().parents[1]
PIPELINE = ROOT / "spacy_seqkit" / "travel" / "pipeline"
DOCS = ROOT / "docs" / "travel.md"
BEGIN = "<!-- reading rules: made by scripts/reading_rules.py from the pattern data; do not edit -->"
END = "<!-- end of the reading rules -->"


def cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def tables() -> str:
    rows = ["| pipe | rule | sets | rules out | what it reads |", "| --- | --- | --- | --- | --- |"]
    for factory in QUALIFIERS:
        folder = PIPELINE / "qualifiers" / factory.removeprefix("seqkit_")
        for rule, spec in patterns(folder).get("rules", {}).items():
            attr = f"`{factory.removeprefix('seqkit_')} = {rule}`"
            out = "yes" if spec.get("rules_out") else ""
            rows.append(f"| `{factory}` | `{rule}` | {attr} | {out} | {cell(spec['doc'])} |")
    for step, spec in read_toml(PIPELINE / "roles" / "steps.toml")["steps"].items():
        rows.append(f"| `seqkit_trip` | `{step}` | step | | {cell(spec['doc'])} |")
    lex = lexicon()
    words = ["| word class | what for | words |", "| --- | --- | --- |"]
    for name, spec in lex.specs.items():
        words.append(f"| `{name}` | {cell(spec.get('doc', ''))} | {len(lex[name])} |")
    return "\n".join([BEGIN, "", *rows, "", *words, "", END])


def current_docs() -> str:
    text = DOCS.read_text(encoding="utf8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOCS} has no reading rules section ({BEGIN})")
    return text[text.index(BEGIN) : text.index(END) + len(END)]


def main(argv) -> None:
    made = tables()
    if "--write" in argv:
        DOCS.write_text(DOCS.read_text(encoding="utf8").replace(current_docs(), made), encoding="utf8")
    else:
        print(made)


if __name__ == "__main__":
    main(sys.argv[1:])
