"""Write the gazetteer's lookup index, `spacy_seqkit/travel/places/data/index.pickle.gz`, from the
data files and the gazetteer's code, so that a process reads it instead of building it at
its first look-up. Run it after changing `spacy_seqkit/travel/places/index.py`, `names.py`,
`stations.py` or `data/communes.tsv.gz` (`tests/travel/places/test_index.py` fails until then;
meanwhile the index is built at run time, with the same result, 0.6 s later).

    python scripts/build_gazetteer_index.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from spacy_seqkit.travel.places.index import write_index  # noqa: E402

if __name__ == "__main__":
    path = write_index()
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
