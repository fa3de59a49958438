"""Build the SNCF passenger stations file from SNCF's open data (run while developing;
nothing is read from outside the package at run time).

    python scripts/build_station_data.py                     # reads ../shared/data/sncf
    python scripts/build_station_data.py --source DIR --out PATH [--report]

Writes spacy_seqkit/travel/places/data/stations.tsv.gz: one row per passenger station of
`gares-de-voyageurs.json`, with the network name of `liste-des-gares.csv` (see
spacy_seqkit/travel/places/data/SNCF.md for the columns and the licence). The same inputs
give the same bytes (rows sorted by UIC code, gzip mtime 0). `--report` also prints the
names people type for the stations (spacy_seqkit.travel.places.sncf) and their collisions.
"""

import argparse
import collections
import csv
import gzip
import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "data" / "sncf"
PLACES = ROOT / "spacy_seqkit" / "travel" / "places"
OUT = PLACES / "data" / "stations.tsv.gz"
COLUMNS = ("uic", "uics", "name", "network_name", "code", "segment", "insee", "lon", "lat")
COMMUNE_FILES = (PLACES / "data" / "communes.tsv.gz",)


def network_names(path: Path) -> Dict[str, List[str]]:
    """UIC code → the network names (LIBELLE) of its rows, one per line it stands on."""
    names: Dict[str, List[str]] = collections.defaultdict(list)
    with path.open(encoding="utf-8-sig", newline="") as f:
        for row in csv.DictReader(f, delimiter=";"):
            if row["LIBELLE"] not in names[row["CODE_UIC"]]:
                names[row["CODE_UIC"]].append(row["LIBELLE"])
    return names


def station_rows(source: Path) -> List[Tuple[str, ...]]:
    """The rows of the stations file, sorted by UIC code."""
    # parse_float=str: coordinates are written as SNCF published them, digit for digit.
    stations = json.loads((source / "gares-de-voyageurs.json").read_text(encoding="utf8"), parse_float=str)
    libelles = network_names(source / "liste-des-gares.csv")
    rows: List[Tuple[str, ...]] = []
    for s in stations:
        uics = s["codes_uic"].split(";")
        candidates = [name for uic in uics for name in libelles.get(uic, ())]
        # A station with several UIC codes has several network names ("Paris-Nord",
        # "Paris-Nord-Souterraine"): the shortest is the one people use.
        network = min(candidates, key=len) if candidates else ""
        position = s["position_geographique"] or {}
        rows.append(
            (
                uics[0],
                ";".join(uics),
                s["nom"],
                network,
                s["libellecourt"],
                s["segment_drg"],
                s["codeinsee"],
                str(position.get("lon", "")),
                str(position.get("lat", "")),
            )
        )
    rows.sort()
    return rows


def write_rows(rows: Sequence[Tuple[str, ...]], out: Path) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    # mtime=0: the same data gives the same bytes.
    data = gzip.compress(buffer.getvalue().encode("utf8"), compresslevel=9, mtime=0)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    return data


def load_sncf_module() -> ModuleType:
    """spacy_seqkit.travel.places.sncf, imported or (while travel/places.py is still a
    module beside the folder) loaded from its file."""
    try:
        from spacy_seqkit.travel.places import sncf

        return sncf
    except ImportError:
        spec = importlib.util.spec_from_file_location("_seqkit_sncf", PLACES / "sncf.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def read_communes() -> Tuple[Dict[str, Tuple[str, int]], Dict[str, FrozenSet[str]]]:
    """INSEE code → (name, population) of the commune (an arrondissement: its city), and
    INSEE code → the names of the communes of that code, delegated and associated ones
    included."""
    path = next(p for p in COMMUNE_FILES if p.exists())
    with gzip.open(path, "rt", encoding="utf8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    # A current commune or arrondissement before a delegated commune of the same code;
    # a former commune's code (delegated now) names it, with its new commune's population.
    by_code = {r["code"]: r for r in sorted(rows, key=lambda r: r["kind"] in "CR")}
    communes = {}
    for code, r in by_code.items():
        city = by_code[r["parent"]] if r["kind"] != "C" and r["parent"] in by_code else r
        communes[code] = ((city if r["kind"] == "R" else r)["name"], int(city["population"] or 0))
    names: Dict[str, FrozenSet[str]] = {}
    for r in rows:
        names[r["code"]] = names.get(r["code"], frozenset()) | {r["name"]}
    return communes, names


def report(rows: Sequence[Tuple[str, ...]], source: Path, out: Path) -> None:
    stations = [dict(zip(COLUMNS, r)) for r in rows]
    libelles = network_names(source / "liste-des-gares.csv")
    uics = [u for s in stations for u in s["uics"].split(";")]
    print(
        f"{len(stations)} stations, {len(uics)} UIC codes ({len(set(uics))} distinct), "
        f"{sum(';' in s['uics'] for s in stations)} stations with several codes"
    )
    print(
        f"{sum(bool(s['network_name']) for s in stations)} with a network name; "
        f"{sum(u not in libelles for u in uics)} UIC codes not in liste-des-gares.csv; "
        f"{sum(len({n for u in s['uics'].split(';') for n in libelles.get(u, ())}) > 1 for s in stations)} "
        "stations with several network names (shortest kept)"
    )
    print(
        f"{sum(not s['lon'] for s in stations)} without a position; "
        f"duplicate names: {len(stations) - len({s['name'] for s in stations})}, "
        f"duplicate codes: {len(stations) - len({s['code'] for s in stations})}; "
        f"segments: {dict(collections.Counter(s['segment'] for s in stations).most_common())}"
    )
    communes, names = read_communes()
    sncf = load_sncf_module()
    missing = sorted(s["name"] for s in stations if s["insee"] not in communes)
    print(f"{len(missing)} INSEE codes not in the communes file: {missing}")
    keys = {sncf.fold(name) for code_names in names.values() for name in code_names}
    own = {s["name"] for s in stations if sncf.fold(s["name"]) in {sncf.fold(n) for n in names.get(s["insee"], ())}}
    other = sorted(s["name"] for s in stations if sncf.fold(s["name"]) in keys and s["name"] not in own)
    same = len(own)
    print(f"{same} stations named like their commune; {len(other)} named like another commune: {other}")
    words_file = next((p.parent / "french_words.txt.gz" for p in COMMUNE_FILES if p.exists()), None)
    words = frozenset(gzip.decompress(words_file.read_bytes()).decode("utf8").split()) if words_file else frozenset()
    table = sncf.read_stations(out)
    forms = {}
    for station in table:
        name, population = communes.get(station.insee, (None, 0))
        forms[station] = sncf.station_forms(
            station, name, commune_population=population, commune_keys=keys, word_keys=words
        )
    index = sncf.index_forms(forms)
    total = sum(len(f) for f in forms.values())
    print(
        f"{total} forms, {total / len(forms):.2f} a station; {len(index.stations_by_key)} keys; "
        f"{sum(len(v) > 1 for v in index.stations_by_key.values())} keys shared by stations SNCF names alike"
    )
    print(f"{len(index.collisions)} collisions:")
    for c in index.collisions:
        print(f"  {c.key!r}: {' / '.join(c.stations)} -> {c.kept or 'dropped'}")


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="folder of SNCF's raw files")
    parser.add_argument("--out", type=Path, default=OUT, help="the stations file to write")
    parser.add_argument("--report", action="store_true", help="print counts of the data and of the forms")
    args = parser.parse_args(argv)
    for name in ("gares-de-voyageurs.json", "liste-des-gares.csv"):
        if not (args.source / name).exists():
            parser.error(f"{args.source / name} not found: give --source, the folder of SNCF's raw files")
    rows = station_rows(args.source)
    data = write_rows(rows, args.out)
    print(f"{len(rows)} stations -> {args.out} ({len(data):,} bytes)")
    if args.report:
        report(rows, args.source, args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
