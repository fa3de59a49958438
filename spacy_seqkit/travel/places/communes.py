"""INSEE's communes and départements of metropolitan France, as shipped in `data/`
(built by `scripts/build_gazetteer_data.py`; see `data/README.md`)."""

import csv
import functools
import gzip
from pathlib import Path
from typing import Dict, NamedTuple, Optional, Tuple

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


@functools.lru_cache(maxsize=1)
def communes_by_code() -> Dict[str, Tuple[Commune, ...]]:
    """INSEE code → its communes (a current commune and the delegated ones that share its code)."""
    by_code: Dict[str, list] = {}
    for commune in read_communes():
        by_code.setdefault(commune.code, []).append(commune)
    return {code: tuple(found) for code, found in by_code.items()}


@functools.lru_cache(maxsize=1)
def code_by_name() -> Dict[str, str]:
    """Official name → INSEE code of the largest place of that name (current communes first)."""
    codes: Dict[str, str] = {}
    ranked = sorted(read_communes(), key=lambda c: (c.kind != "C", -c.population))
    for commune in ranked:
        codes.setdefault(commune.name, commune.code)
    return codes


def current_commune(code: str) -> Optional[Commune]:
    """The current commune of an INSEE code: itself, or the commune a delegated, associated
    commune or an arrondissement belongs to."""
    communes = communes_by_code().get(code, ())
    current = next((c for c in communes if c.kind == "C"), None)
    if current is not None:
        return current
    for commune in communes:
        parent = next((c for c in communes_by_code().get(commune.parent, ()) if c.kind == "C"), None)
        if parent is not None:
            return parent
    return None
