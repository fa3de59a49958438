"""Build `spacy_seqkit/travel/places/data/common_words.txt`: the everyday words of travel
requests, normalised the way place names are compared (some hold a space:
"aujourd hui"), one per line, sorted.

`seqkit_place_marker` never marks such a word as a place name unless it names a town
("tours", "orange"; not "mer" or "vers"), and typo correction leaves it alone. The words come
from spaCy's French stop words and from the project's own request phrasings, fillers and SMS
spellings ("dmain", "jveux"). They are written to a data file so that a saved pipeline reads
requests the same way whatever the training phrasings become: re-run this script (and
`scripts/build_gazetteer_index.py`) on purpose when the phrasings change.

    python scripts/build_common_words.py
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spacy.lang.fr.stop_words import STOP_WORDS  # noqa: E402

from spacy_seqkit.travel.corpus.noise import SMS  # noqa: E402
from spacy_seqkit.travel.corpus.phrasings import FILLERS, SLOT, TEMPLATES  # noqa: E402
from spacy_seqkit.travel.places.names import normalise  # noqa: E402

OUTPUT = ROOT / "spacy_seqkit" / "travel" / "places" / "data" / "common_words.txt"
# Fillers that stand for names, signs or places abroad: not everyday words.
NOT_COMMON = ("PERSON", "THING", "SIGN", "ABROAD")


def common_words() -> list:
    texts = [SLOT.sub(" ", t.pattern) for t in TEMPLATES]
    texts += [f for key, fillers in FILLERS.items() if key not in NOT_COMMON for f in fillers]
    texts += [short for _, short in SMS]
    words = {w for text in texts for w in normalise(text).split()}
    return sorted(words | {normalise(w) for w in STOP_WORDS} - {""})


def main() -> None:
    words = common_words()
    OUTPUT.write_text("\n".join(words) + "\n", encoding="utf8")
    print(f"{len(words):,} words → {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
