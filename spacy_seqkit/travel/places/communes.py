"""INSEE's communes and départements of metropolitan France, as shipped in `data/`
(built by `scripts/build_gazetteer_data.py`; see `data/README.md`)."""
import csv
import functools
import gzip
from pathlib import Path
from typing import Dict, NamedTuple, Tuple

DATA = Path(__file__).resolve().parent / "data"


class Commune(NamedTuple):
    code: str  # INSEE code
    name: str  # official name
    kind: str  # C current commune, D delegated, A associated, R municipal arrondissement
    departement: str
    population: int  # 0 where INSEE gives none (delegated and associated communes)
    parent: str  # INSEE code of the commune a D, A or R belongs to, else ""


@functools.lru_cache(maxsize=1)
def read_communes() -> Tuple[Commune, ...]:
    """The communes of `data/communes.tsv.gz` (metropolitan France)."""
    with gzip.open(DATA / "communes.tsv.gz", "rt", encoding="utf8") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return tuple(
            Commune(r["code"], r["name"], r["kind"], r["departement"], int(r["population"] or 0), r["parent"])
            for r in rows
        )


@functools.lru_cache(maxsize=1)
def read_departements() -> Dict[str, str]:
    """Département code → official name (`data/departements.tsv.gz`)."""
    with gzip.open(DATA / "departements.tsv.gz", "rt", encoding="utf8") as f:
        return {r["code"]: r["name"] for r in csv.DictReader(f, delimiter="\t")}
