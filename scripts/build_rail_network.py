"""Build the railway network file of spacy_seqkit.travel.routes from SNCF open data (run while
developing; nothing is read from outside the package at run time).

    python scripts/build_rail_network.py [--sncf ../shared/data/sncf] [--out PATH] [--report]

Reads `liste-des-gares.csv` (stations and stops of every line, kilometre points),
`gares-de-voyageurs.json` (traveller names of passenger stations) and the GTFS folders
`gtfs-tgv/`, `gtfs-intercites/`; writes `spacy_seqkit/travel/routes/data/network.npz`:

- one node per UIC code (coordinates: mean of its rows), plus inferred junction points;
- each line section's points ordered by kilometre point, consecutive ones joined by the
  difference of their kilometre points; where that is shorter than the straight distance by
  more than OUTLIER_SLACK_KM, or longer than 3x it + OUTLIER_SLACK_LONG_KM, the straight
  distance is used instead (the edge is kept so the line stays whole);
- lines join at the UIC codes they share; a section end that is on no other line is joined to
  the stop of another line whose kilometre point continues its own (travel.routes.junctions),
  else to the nearest point of another line (never one of its own points) within
  MAX_JUNCTION_KM, or AHEAD_JUNCTION_KM ahead of it (the file has no junctions between
  stations); where that stop is far beyond the nearest line ahead, to both; never to a point of
  a high-speed line (one whose passenger stops are all TGV stations: it has no junction between
  them); a passenger stop alone on its line is joined on past it as well, ahead of its first
  join (Marssac-sur-Tarn: Tessonnières - Albi); a point of one line that another line's
  stretch passes through (its kilometre-point length fits the detour by the point, the point
  within 1 km of the stretch, or 12 % of a long stretch's chord up to 2.5 km, or up to 2.5 km
  where the stretch crosses one of the point's own: Dol-de-Bretagne on the Lison - Lamballe
  line; a high-speed line passes none) is put on that line
  (travel.routes.junctions.through_points: Brive on the Tulle line);
- a row standing far from its station's position in "Gares de voyageurs" is dropped (Grasse's
  only row is at Marseille); a passenger station on no line is attached to the nearest node
  within ATTACH_KM, else, stop after stop, to the nearest station already attached within
  CHAIN_KM (a branch the file lacks: Arcachon, Grasse);
- stations a TGV / Intercités train runs between without a stop, with no route near the
  straight distance, are joined (the file lists the high-speed lines' stations, rarely their
  ends, and leaves out a few stretches of other lines: Avessac - Redon);
- the fastest TGV / Intercités train (number, minutes) for each ordered pair of stations one
  train serves in that order (calendars ignored).
"""

import argparse
import csv
import json
import math
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import AbstractSet, Dict, List, Optional, Set, Tuple

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from spacy_seqkit.travel.routes.datafile import FORMAT_VERSION, pack_strings, write_arrays  # noqa: E402
from spacy_seqkit.travel.routes.geo import haversine_km  # noqa: E402
from spacy_seqkit.travel.routes.junctions import (  # noqa: E402
    ahead,
    dangling_ends,
    high_speed_lines,
    kilometre_point_links,
    local_km,
    through_points,
    timetable_links,
)

OUT = ROOT / "spacy_seqkit" / "travel" / "routes" / "data" / "network.npz"
SNCF = ROOT.parent / "shared" / "data" / "sncf"
OUTLIER_SLACK_KM = 1.0
OUTLIER_SLACK_LONG_KM = 5.0
MAX_JUNCTION_KM = 8.0
AHEAD_JUNCTION_KM = 20.0  # farther, but ahead of the line's end
SNAP_KM = 0.2
LONE_STOP_MIN_KM = 2.0  # a join this far gives the line's direction at a stop alone on it
ATTACH_KM = 5.0
CHAIN_KM = 8.0  # a branch's stops stand farther apart (Ranguin - Mouans-Sartoux - Grasse: 5.7 and 5.4 km)
MISPLACED_KM = 10.0
# edge kinds
PK, STRAIGHT, JUNCTION, ATTACHED, TIMETABLE = 0, 1, 2, 3, 4
ATTRIBUTION = (
    "Contient des informations issues de la base de données SNCF Open Data : « Liste des gares », "
    "« Gares de voyageurs », « Horaires des TGV » (GTFS du 2023-10-13) et « Horaires des "
    "Intercités » (GTFS, service du 2025-02-22 au 2025-07-06). Données dérivées (réseau, "
    "distances, trains) sous les mêmes conditions (licence ouverte de base de données SNCF, "
    "partage à l'identique et attribution). Built by scripts/build_rail_network.py."
)
Row = Dict[str, str]
Edge = Tuple[int, int, float, int, str]  # (a, b, km, kind, line code or "")


def parse_pk(text: str) -> float:
    """'118+881' -> 118.881; '000-150' -> -0.150; 'D+936' (letters on a few Paris lines) -> 3.936."""
    match = re.fullmatch(r"([0-9]+|[A-Z])([+-])([0-9]{3})", text)
    if not match:
        raise ValueError(f"unreadable kilometre point {text!r}")
    head, sign, metres = match.groups()
    km = (int(head) if head.isdigit() else ord(head) - ord("A")) + int(metres) / 1000
    return -km if sign == "-" else km


def read_rows(sncf: Path) -> List[Row]:
    with open(sncf / "liste-des-gares.csv", encoding="utf-8-sig", newline="") as f:
        return [dict(r) for r in csv.DictReader(f, delimiter=";")]


def point(row: Row) -> Tuple[float, float]:
    return float(row["X_WGS84"]), float(row["Y_WGS84"])


def drop_misplaced(
    rows: List[Row], report: List[str], placed: Optional[Dict[str, Tuple[float, float]]] = None
) -> List[Row]:
    """Drop the rows of a UIC that stand far from its other rows (a code copied onto another
    line's row): keep the row in the commune its label names, else the one that agrees best
    with its neighbours on its own line; and those far from the station's own position in
    `placed` (Gares de voyageurs: Grasse's only row stands at Marseille, kilometre 0 of the
    Marseille - Vintimille line)."""
    if placed:
        far = [
            r for r in rows if r["CODE_UIC"] in placed and haversine_km(point(r), placed[r["CODE_UIC"]]) > MISPLACED_KM
        ]
        report.extend(
            f"misplaced row dropped: {r['CODE_UIC']} {r['LIBELLE']} on line {r['CODE_LIGNE']} ({r['COMMUNE']}), "
            f"{haversine_km(point(r), placed[r['CODE_UIC']]):.0f} km from the station's position"
            for r in far
        )
        gone = {id(r) for r in far}
        rows = [r for r in rows if id(r) not in gone]
    by_uic: Dict[str, List[Row]] = defaultdict(list)
    by_section: Dict[Tuple[str, str], List[Row]] = defaultdict(list)
    for r in rows:
        by_uic[r["CODE_UIC"]].append(r)
        by_section[(r["CODE_LIGNE"], r["RG_TRONCON"])].append(r)

    def disagreement(r: Row) -> float:
        others = [o for o in by_section[(r["CODE_LIGNE"], r["RG_TRONCON"])] if o["CODE_UIC"] != r["CODE_UIC"]]
        if not others:
            return 0.0
        pk = parse_pk(r["PK"])
        near = min(others, key=lambda o: abs(parse_pk(o["PK"]) - pk))
        return abs(haversine_km(point(r), point(near)) - abs(parse_pk(near["PK"]) - pk))

    def plain(text: str) -> str:
        text = unicodedata.normalize("NFKD", text.casefold())
        return re.sub(r"[^a-z0-9]+", " ", "".join(c for c in text if not unicodedata.combining(c)))

    def badness(r: Row) -> Tuple[bool, float]:
        # A row standing in another commune than the one its label names is the copied one.
        return plain(r["COMMUNE"]) not in plain(r["LIBELLE"]), disagreement(r)

    dropped: Set[int] = set()
    for uic, group in sorted(by_uic.items()):
        spread = max(haversine_km(point(a), point(b)) for a in group for b in group)
        if spread > MISPLACED_KM:
            keep = min(group, key=badness)
            for r in group:
                if r is not keep:
                    dropped.add(id(r))
                    report.append(
                        f"misplaced row dropped: {uic} {r['LIBELLE']} on line {r['CODE_LIGNE']} "
                        f"({r['COMMUNE']}), {spread:.0f} km from its other row"
                    )
    return [r for r in rows if id(r) not in dropped]


def section_edges(
    rows: List[Row], index: Dict[str, int], lonlat: np.ndarray, joined: Set[int], report: List[str]
) -> Tuple[List[Edge], Dict[Tuple[str, str], List[int]], Dict[Tuple[str, str], List[float]]]:
    """Consecutive points of each line section, joined by their kilometre-point distance;
    the section ends joined to the line's next section are added to `joined`."""
    pks: Dict[Tuple[str, str], Dict[int, List[float]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        pks[(r["CODE_LIGNE"], r["RG_TRONCON"])][index[r["CODE_UIC"]]].append(parse_pk(r["PK"]))
    edges: List[Edge] = []
    sections: Dict[Tuple[str, str], List[int]] = {}
    marks: Dict[Tuple[str, str], List[float]] = {}
    ends: Dict[Tuple[str, str], Tuple[Tuple[float, int], Tuple[float, int]]] = {}
    for key in sorted(pks):
        ordered = sorted((sum(v) / len(v), node) for node, v in pks[key].items())
        sections[key], ends[key] = [node for _, node in ordered], (ordered[0], ordered[-1])
        marks[key] = [pk for pk, _ in ordered]
        edges.extend(
            checked_edge(a, b, pk_b - pk_a, key, lonlat, report) for (pk_a, a), (pk_b, b) in zip(ordered, ordered[1:])
        )
    # A line's next section (RG_TRONCON + 1) usually goes on where the last one stopped, its
    # kilometre points continuing: join them (the gap is a stretch the list has no stop on).
    for key in sorted(pks, key=lambda k: (k[0], int(k[1]))):
        after = (key[0], str(int(key[1]) + 1))
        if after in ends:
            (pk_a, a), (pk_b, b) = ends[key][1], ends[after][0]
            km, straight = pk_b - pk_a, haversine_km(lonlat[a], lonlat[b])
            if 0 <= km and straight - OUTLIER_SLACK_KM <= km <= 3 * straight + OUTLIER_SLACK_LONG_KM:
                edges.append((a, b, km, PK, key[0]))
                joined.update((a, b))
    return edges, sections, marks


def checked_edge(a: int, b: int, km: float, key: Tuple[str, str], lonlat: np.ndarray, report: List[str]) -> Edge:
    """The edge a-b of a section, its kilometre-point distance replaced by the straight one
    where the two disagree beyond reason (a reset of the kilometre points, a misplaced stop)."""
    straight = haversine_km(lonlat[a], lonlat[b])
    if km < straight - OUTLIER_SLACK_KM or km > 3 * straight + OUTLIER_SLACK_LONG_KM:
        report.append(
            f"outlier: line {key[0]} section {key[1]}, nodes {a}-{b}: "
            f"PK {km:.3f} km, straight {straight:.3f} km -> straight"
        )
        return a, b, straight, STRAIGHT, key[0]
    return a, b, km, PK, key[0]


def infer_junctions(
    edges: List[Edge],
    sections: Dict[Tuple[str, str], List[int]],
    lonlat: np.ndarray,
    joined: Set[int],
    report: List[str],
    high_speed: AbstractSet[str] = frozenset(),
    passing: AbstractSet[int] = frozenset(),
) -> Tuple[List[Edge], List[Tuple[float, float]]]:
    """Join each section end that no other line shares to the nearest point of another line
    (never of a `high_speed` line, for an end of another line); a `passing` stop (passenger)
    alone on its line, joined LONE_STOP_MIN_KM or more away, to the nearest point ahead of
    it as well."""
    on_sections: Dict[int, Set[Tuple[str, str]]] = defaultdict(set)
    for key, nodes in sections.items():
        for n in nodes:
            on_sections[n].add(key)
    section_ids = {key: i for i, key in enumerate(sections)}
    seg_section = np.array([section_ids[key] for key, nodes in sections.items() for _ in zip(nodes, nodes[1:])])
    # the first edges are the sections' own, in section order; links between sections follow
    seg = np.array([(e[0], e[1]) for e in edges[: len(seg_section)]], dtype=np.int64)
    seg_fast = np.array([key[0] in high_speed for key in sections])[seg_section]
    splits: Dict[int, List[Tuple[float, int]]] = defaultdict(list)
    links: List[Edge] = []
    new_points: List[Tuple[float, float]] = []
    gaps: List[float] = []

    def join(end: int, best: int, t: np.ndarray, d: np.ndarray, dist: np.ndarray) -> np.ndarray:
        """Link `end` to stretch `best` (at its nearest point, or the stretch's end within
        SNAP_KM); where it joins."""
        length = float(np.hypot(*d[best]))
        if t[best] * length <= SNAP_KM or (1 - t[best]) * length <= SNAP_KM:
            target = int(seg[best, 0] if t[best] < 0.5 else seg[best, 1])
            where = lonlat[target]
        else:
            target = len(lonlat) + len(new_points)
            where = lonlat[seg[best, 0]] + t[best] * (lonlat[seg[best, 1]] - lonlat[seg[best, 0]])
            new_points.append((float(where[0]), float(where[1])))
            splits[best].append((float(t[best]), target))
        links.append((end, target, max(float(dist[best]), 0.001), JUNCTION, ""))
        return where

    for key, nodes in sections.items():
        for end in sorted({nodes[0], nodes[-1]}):
            if len(on_sections[end]) > 1 or end in joined:
                continue
            a, b = local_km(lonlat[seg[:, 0]], lonlat[end]), local_km(lonlat[seg[:, 1]], lonlat[end])
            d = b - a
            t = np.clip(-(a * d).sum(1) / np.maximum((d * d).sum(1), 1e-12), 0.0, 1.0)
            dist = np.hypot(*(a + t[:, None] * d).T)
            # not its own line, nor another line at one of its points: they meet there already
            # (Saulcy, the end of the Saint-Dié line, was joined to St-Léonard, its neighbour)
            dist[(seg_section == section_ids[key]) | np.isin(seg, nodes).any(1)] = np.inf
            if key[0] not in high_speed:
                dist[seg_fast] = np.inf
            if len(nodes) > 1:  # farther points count when they lie ahead of the line's end
                inner = local_km(lonlat[nodes[1] if end == nodes[0] else nodes[-2]], lonlat[end])
                far = ~ahead(np.zeros(2), inner, a + t[:, None] * d) & (dist > MAX_JUNCTION_KM)
                dist[far] = np.inf
            best = int(np.argmin(dist))
            gaps.append(min(float(dist[best]), 1e3))
            if dist[best] > (MAX_JUNCTION_KM if len(nodes) == 1 else AHEAD_JUNCTION_KM):
                report.append(
                    f"dangling end left alone: node {end} (line {key[0]}), {dist[best]:.1f} km from another line"
                )
                continue
            where = join(end, best, t, d, dist)
            if len(nodes) == 1 and end in passing and key[0] not in high_speed and dist[best] >= LONE_STOP_MIN_KM:
                # a passenger stop alone on its line: trains run on past it, away from the join
                # (Marssac-sur-Tarn, the only stop listed between Tessonnières and Albi)
                dist[~ahead(np.zeros(2), local_km(where, lonlat[end]), a + t[:, None] * d)] = np.inf
                onward = int(np.argmin(dist))
                if dist[onward] <= AHEAD_JUNCTION_KM:
                    join(end, onward, t, d, dist)
                    report.append(f"lone passenger stop: node {end} (line {key[0]}) joined on past it too")
    report.append(
        f"section ends joined to another line: {len(links)} of {len(gaps)} "
        f"(gap quantiles 50/90/99%: {np.percentile(gaps, [50, 90, 99]).round(2).tolist()} km)"
    )
    out: List[Edge] = []
    for i, (a, b, km, kind, line) in enumerate(edges):
        chain = [(0.0, a)] + sorted(splits.get(i, [])) + [(1.0, b)]
        out.extend((u, v, (tv - tu) * km, kind, line) for (tu, u), (tv, v) in zip(chain, chain[1:]))
    return out + links, new_points


def attach_stations(
    extra: List[Tuple[str, Tuple[float, float]]], lonlat: np.ndarray, edges: List[Edge], first: int, report: List[str]
) -> List[Edge]:
    """Passenger stations on no line: a straight edge to the nearest node within ATTACH_KM,
    of the main network where one is that near (else a fragment's node would strand them);
    then, round after round, the stations still alone to the nearest station attached within
    CHAIN_KM (a branch the file lacks, stop after stop: Le Teich - Gujan-Mestras - La Hume -
    La Teste-de-Buch - Arcachon, Thionville - Apach, Cannes La Bocca - Ranguin - Grasse)."""
    n = len(lonlat)
    graph = coo_matrix((np.ones(len(edges)), ([e[0] for e in edges], [e[1] for e in edges])), shape=(n, n))
    labels = connected_components(graph, directed=False)[1]
    main = labels == np.bincount(labels).argmax()
    links: List[Edge] = []
    where_of = np.array([w for _, w in extra]).reshape(-1, 2)
    attached: Dict[int, Tuple[int, float]] = {}
    for i, (_, where) in enumerate(extra):
        dist = np.hypot(*local_km(lonlat[:first], np.array(where)).T)
        near = int(np.argmin(np.where(main[:first], dist, np.inf)))
        near = near if dist[near] <= ATTACH_KM else int(np.argmin(dist))
        if dist[near] <= ATTACH_KM:
            attached[i] = (near, float(dist[near]))
    while True:
        done = sorted(attached)
        rounds = {}
        for i in (i for i in range(len(extra)) if i not in attached and done):
            dist = np.hypot(*local_km(where_of[done], where_of[i]).T)
            j = int(np.argmin(dist))
            if dist[j] <= CHAIN_KM:
                rounds[i] = (first + done[j], float(dist[j]))
        if not rounds:
            break
        attached.update(rounds)
    for i, (uic, where) in enumerate(extra):
        if i in attached:
            near, km = attached[i]
            links.append((first + i, near, max(haversine_km(where, lonlat[near]), 0.001), ATTACHED, ""))
            report.append(f"passenger station on no line: {uic} -> attached to node {near} ({km:.2f} km)")
        else:
            km = float(np.hypot(*local_km(lonlat[:first], np.array(where)).T).min())
            report.append(f"passenger station on no line: {uic} -> left unreachable (nearest node {km:.1f} km)")
    return links


def read_timetables(
    sncf: Path, index: Dict[str, int]
) -> Tuple[Dict[Tuple[int, int], Tuple[int, str]], Dict[Tuple[int, int], int]]:
    """Fastest (minutes, train number) for each ordered pair of nodes one train serves, where
    the train picks up at the first and sets down at the second (the number is trip_headsign:
    these feeds have no trip_short_name; trip ids repeat it: OCESN12213F...); and the fewest
    minutes between each two consecutive calls of a train."""
    best: Dict[Tuple[int, int], Tuple[int, str]] = {}
    hops: Dict[Tuple[int, int], int] = {}
    for folder in ("gtfs-tgv", "gtfs-intercites"):
        with open(sncf / folder / "trips.txt", encoding="utf-8-sig", newline="") as f:
            number = {r["trip_id"]: r["trip_headsign"] for r in csv.DictReader(f)}
        calls: Dict[str, List[Tuple[int, int, int, bool, bool, int]]] = defaultdict(list)
        with open(sncf / folder / "stop_times.txt", encoding="utf-8-sig", newline="") as f:
            for r in csv.DictReader(f):
                uic = re.search(r"(\d{8})$", r["stop_id"])
                if uic and uic.group(1) in index:
                    calls[r["trip_id"]].append(
                        (
                            int(r["stop_sequence"]),
                            seconds(r["arrival_time"]),
                            seconds(r["departure_time"]),
                            r["pickup_type"] != "1",
                            r["drop_off_type"] != "1",
                            index[uic.group(1)],
                        )
                    )
        for trip in sorted(calls):
            ordered = sorted(calls[trip])
            for (_, _, leave, _, _, a), (_, arrive, _, _, _, b) in zip(ordered, ordered[1:]):
                if a != b:
                    hops[(a, b)] = min(hops.get((a, b), 1 << 30), (arrive - leave) // 60)
            for i, (_, _, leave, pickup, _, a) in enumerate(ordered):
                for _, arrive, _, _, drop, b in ordered[i + 1 :]:
                    if pickup and drop and a != b:
                        candidate = ((arrive - leave) // 60, number[trip])
                        if (a, b) not in best or candidate < best[(a, b)]:
                            best[(a, b)] = candidate
    return best, hops


def seconds(hms: str) -> int:
    h, m, s = (int(x) for x in hms.split(":"))
    return 3600 * h + 60 * m + s


def build(sncf: Path) -> Tuple[Dict[str, np.ndarray], List[str]]:
    """The network file's arrays, and the build's report lines."""
    report: List[str] = []
    stations = json.loads((sncf / "gares-de-voyageurs.json").read_text(encoding="utf8"))
    traveller = {uic: s["nom"] for s in stations for uic in s["codes_uic"].split(";")}
    # SNCF's segment (A national, B regional, C local); "A;B" for a station of several codes.
    segment = {uic: min(s["segment_drg"].split(";")) for s in stations for uic in s["codes_uic"].split(";")}
    placed = {
        uic: (s["position_geographique"]["lon"], s["position_geographique"]["lat"])
        for s in stations
        if s["position_geographique"]
        for uic in s["codes_uic"].split(";")
    }
    rows = drop_misplaced(read_rows(sncf), report, placed)
    by_uic: Dict[str, List[Row]] = defaultdict(list)
    for r in rows:
        by_uic[r["CODE_UIC"]].append(r)
    extra = sorted(uic for uic in traveller if uic not in by_uic and uic in placed)
    report.extend(
        f"passenger station on no line and without coordinates, left out: {uic} {traveller[uic]}"
        for uic in sorted(set(traveller) - set(by_uic) - set(placed))
    )
    uics = sorted(by_uic) + extra
    index = {uic: i for i, uic in enumerate(uics)}
    lonlat = np.array(
        [np.mean([point(r) for r in by_uic[u]], axis=0).round(7) for u in sorted(by_uic)] + [placed[u] for u in extra]
    )
    joined: Set[int] = set()
    edges, sections, marks = section_edges(rows, index, lonlat, joined, report)
    stops: Dict[str, List[str]] = defaultdict(list)
    for r in rows:
        if r["VOYAGEURS"] == "O":
            stops[r["CODE_LIGNE"]].append(r["LIBELLE"])
    high_speed = high_speed_lines(stops)
    report.append(f"high-speed lines (every passenger stop a TGV station): {', '.join(sorted(high_speed))}")
    unsure: Set[int] = set()
    pk_links = kilometre_point_links(
        sections, marks, lonlat, dangling_ends(sections, joined), report, unsure, high_speed
    )
    joined.update(end for end, _, _ in pk_links if end not in unsure)
    passenger = [u in traveller or any(r["VOYAGEURS"] == "O" for r in by_uic[u]) for u in uics]
    passing = {i for i, p in enumerate(passenger) if p}
    edges, junctions = infer_junctions(edges, sections, lonlat, joined, report, high_speed, passing)
    node_lines: Dict[int, Set[str]] = defaultdict(set)
    for key, nodes in sections.items():
        for n in nodes:
            node_lines[n].add(key[0])
    edges = through_points(
        edges, node_lines, np.vstack([lonlat, np.array(junctions).reshape(-1, 2)]), report, high_speed
    )
    edges += [(a, b, km, JUNCTION, "") for a, b, km in pk_links]
    edges += attach_stations(
        [(u, placed[u]) for u in extra],
        np.vstack([lonlat, np.array(junctions).reshape(-1, 2)]),
        edges,
        len(by_uic),
        report,
    )
    if junctions:
        lonlat = np.vstack([lonlat, np.array(junctions).round(7)])
    names = [traveller.get(u) or by_uic[u][0]["LIBELLE"] for u in uics] + [""] * len(junctions)
    line_codes = sorted({key[0] for key in sections})
    line_of = {code: i for i, code in enumerate(line_codes)}
    pairs: Dict[Tuple[int, int], Tuple[float, int, Set[int]]] = {}
    for a, b, km, kind, line in edges:
        if a == b:
            continue
        # A track is never shorter than the straight line between its ends (kilometre points
        # and coordinates disagree by a few metres here and there): so no route is either.
        straight = math.ceil(haversine_km(lonlat[a], lonlat[b]) * 1000) / 1000
        key, km = (min(a, b), max(a, b)), max(round(km, 3), straight, 0.001)
        old_km, old_kind, lines = pairs.get(key, (math.inf, kind, set()))
        lines |= {line_of[line]} if line else set()
        pairs[key] = (km, kind, lines) if km < old_km else (old_km, old_kind, lines)
    timetable, hops = read_timetables(sncf, index)
    for a, b, km in timetable_links(hops, lonlat, [(a, b, pairs[(a, b)][0]) for a, b in sorted(pairs)], report):
        pairs[(a, b)] = (km, TIMETABLE, set())
    keys = sorted(pairs)
    ordered = sorted(timetable)
    arrays = {
        "format": np.array(FORMAT_VERSION, dtype=np.int32),
        "attribution": pack_strings([ATTRIBUTION]),
        "uic": np.array([int(u) for u in uics] + [0] * len(junctions), dtype=np.int64),
        "lon": lonlat[:, 0].copy(),
        "lat": lonlat[:, 1].copy(),
        "passenger": np.array(passenger + [False] * len(junctions)),
        "segment": pack_strings([segment.get(u, "") for u in uics] + [""] * len(junctions)),
        "names": pack_strings(names),
        "edge_src": np.array([k[0] for k in keys], dtype=np.int32),
        "edge_dst": np.array([k[1] for k in keys], dtype=np.int32),
        "edge_km": np.array([pairs[k][0] for k in keys]),
        "edge_kind": np.array([pairs[k][1] for k in keys], dtype=np.int8),
        "edge_line_ptr": np.cumsum([0] + [len(pairs[k][2]) for k in keys]).astype(np.int32),
        "edge_line": np.array([i for k in keys for i in sorted(pairs[k][2])], dtype=np.int32),
        "line_codes": pack_strings(line_codes),
        "section_ptr": np.cumsum([0] + [len(n) for n in sections.values()]).astype(np.int32),
        "section_node": np.array([n for nodes in sections.values() for n in nodes], dtype=np.int32),
        "section_line": np.array([line_of[key[0]] for key in sections], dtype=np.int32),
        "train_from": np.array([k[0] for k in ordered], dtype=np.int32),
        "train_to": np.array([k[1] for k in ordered], dtype=np.int32),
        "train_minutes": np.array([timetable[k][0] for k in ordered], dtype=np.int16),
        "train_number": pack_strings([timetable[k][1] for k in ordered]),
    }
    report.append(
        f"{len(uics)} stations and stops ({sum(passenger)} passenger), {len(junctions)} junctions, "
        f"{len(keys)} edges, {len(line_codes)} lines, {len(ordered)} timetable pairs"
    )
    return arrays, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sncf", type=Path, default=SNCF, help="folder of the raw SNCF data")
    parser.add_argument("--out", type=Path, default=OUT, help="network file to write")
    parser.add_argument("--report", action="store_true", help="print every outlier and link")
    args = parser.parse_args()
    arrays, report = build(args.sncf)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_arrays(args.out, arrays)
    kinds = defaultdict(int)
    for line in report:
        kinds[line.split(":")[0]] += 1
    for line in report if args.report else [r for r in report if kinds[r.split(":")[0]] == 1]:
        print(line)
    for kind, count in sorted(kinds.items()):
        if count > 1:
            print(f"{kind}: {count}")
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
