"""Build the timetable file of spacy_seqkit.travel.routes from SNCF's GTFS exports (run while
developing; nothing is read from outside the package at run time).

    python scripts/build_timetable.py [--sncf ../shared/data/sncf] [--out PATH]

Reads `gtfs-2024-06-26/{ter,tgv,intercites}.zip` as zips (SNCF's TER, TGV and Intercités
exports published on the same day) and `gares-de-voyageurs.json` (traveller names, the commune
of each station, every UIC code of a station); writes
`spacy_seqkit/travel/routes/data/timetable.npz`:

- the stations trains call at, by UIC code (the last 8 digits of a GTFS stop id), named by
  SNCF's traveller name (the GTFS stop name for a station abroad), with the commune each stands
  in (INSEE code; Paris, Lyon and Marseille whole, not by arrondissement) and the other UIC codes
  of the same station;
- every train: its kind (read from its stop ids: "Train TER", "TGV INOUI", "OUIGO",
  "INTERCITES de nuit"...), its number (GTFS trip_headsign, all digits in these feeds), its stops
  with their times (seconds after midnight of the day it starts, past 24:00 for a train that
  runs over midnight) and whether one may board and leave it there, and the days it runs;
- coaches (stop ids "Car TER", "Car", "Navette") are left out, and counted in the report.

The days kept are those the three exports share (TGV: 2024-06-26 to 2024-07-26), so every train
of the file runs on the days it says. Trains the exports list twice (one trip per set of days,
same stops and times) are one train running on the union of their days. The same inputs give
the same bytes.
"""

import argparse
import csv
import datetime as dt
import io
import json
import re
import sys
import zipfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from spacy_seqkit.travel.routes.datafile import pack_strings, write_arrays  # noqa: E402
from spacy_seqkit.travel.routes.timetable import FORMAT_VERSION  # noqa: E402

OUT = ROOT / "spacy_seqkit" / "travel" / "routes" / "data" / "timetable.npz"
SNCF = ROOT.parent / "shared" / "data" / "sncf"
FEEDS = ("ter", "tgv", "intercites")
EXPORT = "gtfs-2024-06-26"
# The kind of a train, as its stop ids say it ("StopPoint:OCETGV INOUI-87..."), by feed; a
# kind absent from this table is a coach, left out. OUIGO in the Intercités export is OUIGO
# Train Classique (classic lines, not high speed).
KINDS = {
    ("ter", "Train TER"): "TER",
    ("ter", "TramTrain"): "Tram-train",
    ("tgv", "TGV INOUI"): "TGV INOUI",
    ("tgv", "OUIGO"): "OUIGO",
    ("tgv", "Lyria"): "TGV Lyria",
    ("tgv", "ICE"): "ICE",
    ("intercites", "INTERCITES"): "Intercités",
    ("intercites", "INTERCITES de nuit"): "Intercités de nuit",
    ("intercites", "OUIGO"): "OUIGO Train Classique",
}
COACHES = {"Car TER", "Car", "Navette"}
ATTRIBUTION = (
    "Contient des informations issues de la base de données SNCF Open Data : « Horaires des TER », "
    "« Horaires des TGV » et « Horaires des Intercités » (exports GTFS publiés le 2024-06-26 ; jours "
    "communs aux trois : du 2024-06-26 au 2024-07-26) et « Gares de voyageurs ». Données dérivées "
    "(gares, trains, arrêts, horaires, jours de circulation) sous les mêmes conditions (licence "
    "ouverte de base de données SNCF, partage à l'identique et attribution). Built by "
    "scripts/build_timetable.py."
)
STOP_ID = re.compile(r"^StopPoint:OCE(.+)-(\d{8})$")
# Communes split into arrondissements in INSEE's codes: one city for transfers.
CITY_OF_ARRONDISSEMENT = (("751", "75056"), ("6938", "69123"), ("132", "13055"))


def rows(archive: zipfile.ZipFile, name: str) -> Iterator[Dict[str, str]]:
    with archive.open(name) as raw:
        yield from csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8-sig", newline=""))


def seconds(hms: str) -> int:
    h, m, s = (int(x) for x in hms.split(":"))
    return 3600 * h + 60 * m + s


def city(insee: str) -> str:
    for prefix, whole in CITY_OF_ARRONDISSEMENT:
        if insee.startswith(prefix) and insee != whole and len(insee) == 5:
            return whole
    return insee


def shared_days(archives: Dict[str, zipfile.ZipFile]) -> Tuple[dt.date, int]:
    """The first day and the number of days every export runs (feed_info's dates)."""
    starts, ends = [], []
    for archive in archives.values():
        info = next(rows(archive, "feed_info.txt"))
        starts.append(dt.datetime.strptime(info["feed_start_date"], "%Y%m%d").date())
        ends.append(dt.datetime.strptime(info["feed_end_date"], "%Y%m%d").date())
    first, last = max(starts), min(ends)
    return first, (last - first).days + 1


def build(sncf: Path) -> Tuple[Dict[str, np.ndarray], List[str]]:
    """The timetable file's arrays, and the build's report lines."""
    report: List[str] = []
    stations_json = json.loads((sncf / "gares-de-voyageurs.json").read_text(encoding="utf8"))
    traveller: Dict[str, str] = {}
    commune: Dict[str, str] = {}
    codes_of: Dict[str, List[str]] = {}
    for s in stations_json:
        codes = s["codes_uic"].split(";")
        for uic in codes:
            traveller[uic], commune[uic], codes_of[uic] = s["nom"], city(s["codeinsee"] or ""), codes
    archives = {feed: zipfile.ZipFile(sncf / EXPORT / f"{feed}.zip") for feed in FEEDS}
    first_day, n_days = shared_days(archives)
    report.append(f"days every export runs: {first_day} + {n_days} days")
    gtfs_names: Dict[str, str] = {}
    points: Dict[str, Tuple[float, float]] = {}
    # (kind, number, ((uic, arrive, depart, flags), ...)) -> days it runs
    trains: Dict[Tuple[str, int, Tuple[Tuple[str, int, int, int], ...]], Set[int]] = defaultdict(set)
    coaches: Counter = Counter()
    for feed, archive in archives.items():
        for r in rows(archive, "stops.txt"):
            if r["location_type"] == "1":
                uic = r["stop_id"].rsplit("OCE", 1)[1]
                gtfs_names.setdefault(uic, r["stop_name"])
                points.setdefault(uic, (round(float(r["stop_lon"]), 6), round(float(r["stop_lat"]), 6)))
        days: Dict[str, Set[int]] = defaultdict(set)
        for r in rows(archive, "calendar_dates.txt"):
            day = (dt.datetime.strptime(r["date"], "%Y%m%d").date() - first_day).days
            if r["exception_type"] == "1" and 0 <= day < n_days:
                days[r["service_id"]].add(day)
        trip_of = {r["trip_id"]: (r["service_id"], int(r["trip_headsign"])) for r in rows(archive, "trips.txt")}
        calls: Dict[str, List[Tuple[int, str, str, int, int, int]]] = defaultdict(list)
        for r in rows(archive, "stop_times.txt"):
            match = STOP_ID.match(r["stop_id"])
            if match is None:
                raise ValueError(f"{feed}: unreadable stop id {r['stop_id']!r}")
            flags = (r["pickup_type"] != "1") | (r["drop_off_type"] != "1") << 1
            calls[r["trip_id"]].append(
                (
                    int(r["stop_sequence"]),
                    match.group(1),
                    match.group(2),
                    seconds(r["arrival_time"]),
                    seconds(r["departure_time"]),
                    flags,
                )
            )
        for trip_id, stops in calls.items():
            kinds = {kind for _, kind, *_ in stops}
            if kinds & COACHES:
                coaches[feed] += 1
                continue
            if len(kinds) != 1 or (feed, next(iter(kinds))) not in KINDS:
                raise ValueError(f"{feed}: trip {trip_id} has stops of unknown kinds {sorted(kinds)}")
            service, number = trip_of[trip_id]
            if not days.get(service) or len(stops) < 2:
                continue
            stops.sort()
            key = (KINDS[(feed, stops[0][1])], number, tuple((u, a, d, f) for _, _, u, a, d, f in stops))
            trains[key] |= days[service]
        report.append(f"{feed}: {len(calls)} trips, {coaches[feed]} coaches left out")
    uics = sorted({u for _, _, stops in trains for u, *_ in stops})
    index = {u: i for i, u in enumerate(uics)}
    kinds = sorted({k for k, _, _ in trains})
    kind_of = {k: i for i, k in enumerate(kinds)}
    ordered = sorted(trains, key=lambda t: (t[2][0][2], t[0], t[1], t[2]))
    mask = np.zeros((len(ordered), n_days), dtype=bool)
    for i, key in enumerate(ordered):
        mask[i, sorted(trains[key])] = True
    aliases = sorted({(int(c), index[u]) for u in uics for c in codes_of.get(u, ()) if c != u and c not in index})
    missing = [u for u in uics if u not in traveller]
    report.append(f"stations without a traveller name (GTFS name kept): {len(missing)}")
    stop_rows = [s for _, _, stops in ordered for s in stops]
    arrays = {
        "format": np.array(FORMAT_VERSION, dtype=np.int32),
        "attribution": pack_strings([ATTRIBUTION]),
        "first_day": np.array(first_day.toordinal(), dtype=np.int32),
        "station_uic": np.array([int(u) for u in uics], dtype=np.int64),
        "station_name": pack_strings([traveller.get(u) or gtfs_names[u] for u in uics]),
        "station_city": pack_strings([commune.get(u, "") for u in uics]),
        "station_lon": np.array([points[u][0] for u in uics]),
        "station_lat": np.array([points[u][1] for u in uics]),
        "alias_uic": np.array([a for a, _ in aliases], dtype=np.int64),
        "alias_station": np.array([s for _, s in aliases], dtype=np.int32),
        "kinds": pack_strings(kinds),
        "train_kind": np.array([kind_of[k] for k, _, _ in ordered], dtype=np.int8),
        "train_number": np.array([n for _, n, _ in ordered], dtype=np.int32),
        "train_days": np.packbits(mask, axis=1),
        "train_ptr": np.cumsum([0] + [len(s) for _, _, s in ordered]).astype(np.int32),
        "stop_station": np.array([index[u] for u, *_ in stop_rows], dtype=np.int32),
        "stop_arrive": np.array([a for _, a, _, _ in stop_rows], dtype=np.int32),
        "stop_depart": np.array([d for _, _, d, _ in stop_rows], dtype=np.int32),
        "stop_flags": np.array([f for *_, f in stop_rows], dtype=np.int8),
    }
    by_kind = Counter(k for k, _, _ in ordered)
    report.append(
        f"{len(uics)} stations, {len(ordered)} trains ({', '.join(f'{k} {n}' for k, n in sorted(by_kind.items()))}), "
        f"{len(stop_rows)} stops, {len(aliases)} other UIC codes of the stations"
    )
    return arrays, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sncf", type=Path, default=SNCF, help="folder of the raw SNCF data")
    parser.add_argument("--out", type=Path, default=OUT, help="timetable file to write")
    args = parser.parse_args()
    arrays, report = build(args.sncf)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_arrays(args.out, arrays)
    for line in report:
        print(line)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
