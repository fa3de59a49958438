"""Links between lines that "Liste des gares" does not list, inferred by the build script
(scripts/build_rail_network.py; nothing here runs when routes are answered).

The file lists stations and stops of each line with their kilometre points, not the junctions
between lines, nor a line's last stretch where it has no stop. Two rules close most gaps:

- kilometre points: a line's end stop whose line goes on (the stop is not its kilometre 0) most
  often joins another line at a point whose kilometre point on that other line continues the
  first line's (French lines count from Paris), or at its own kilometre 0: the nearest stop of
  another line, ahead of the end, whose kilometre points fit the straight distance, is joined
  with the kilometre-point difference as length;
- timetables: a TGV running between two consecutive calls at high speed over the straight
  distance runs on a high-speed line; where the network has no route near that straight
  distance (the file lists the high-speed lines' stations, rarely their ends), the two
  stations are joined by the straight distance times LGV_DETOUR. A slower train between two
  calls shows a line as well: where the network's route is far longer than the straight
  distance (a stretch the file leaves out), the two are joined by it times CLASSIC_DETOUR.
"""

import math
from typing import AbstractSet, Dict, List, Sequence, Set, Tuple

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from .geo import haversine_km

Key = Tuple[str, str]  # (line code, section)
Link = Tuple[int, int, float]  # (end, node it joins, km)
PK_RADIUS_KM = 40.0
PK_FIT_SLACK_KM = 1.0
PK_FIT_RATIO = 1.35
PK_FIT_LONG_KM = 3.0
PK_NEAR_RATIO, PK_NEAR_SLACK_KM = 3.0, 3.0  # a fit farther than this past the nearest line ahead: join both
AHEAD_COS = 0.5  # within 60 degrees of the line's own direction at its end
PK_AHEAD_COS = 0.0  # kilometre points that fit are evidence enough: anywhere in front of the end
MIN_LGV_KMH = 120.0  # straight distance per hour between calls: fast, and the network is far from it
LGV_DETOUR = 1.06  # high-speed lines are nearly straight (Paris - Lyon: 409 km for 392)
LGV_GAP = 1.25  # a pair already joined within this times the straight distance needs no link
CLASSIC_MIN_KMH = 40.0  # slower runs (straight distance per hour) may well wind: no evidence of a near line
CLASSIC_DETOUR = 1.18  # median rail / straight distance of the classic runs between two calls (306 runs)
CLASSIC_GAP = 1.5  # well above the classic runs' upper quartile (1.26): only a line the file leaves out
CLASSIC_MAX_KMH = 160.0  # and a route the train could not have run at a classic line's top speed
THROUGH_KM = 1.0  # a point this near a stretch of another line, which that stretch can pass through
# or, on a long stretch, this share of its chord (a line curves between stops far apart), up to THROUGH_MAX_KM
THROUGH_SHARE, THROUGH_MAX_KM = 0.12, 2.5
THROUGH_SLACK_KM = 0.3


def local_km(lonlat: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """Equirectangular projection (km) around `origin`: exact enough within a few tens of km."""
    scale = np.array([111.32 * math.cos(math.radians(float(origin[1]))), 110.57])
    return (lonlat - origin) * scale


def ahead(end_xy: np.ndarray, inner_xy: np.ndarray, points_xy: np.ndarray, cos: float = AHEAD_COS) -> np.ndarray:
    """Which `points` (km) lie ahead of a line's end, away from its inner point: within the
    angle of cosine `cos` of the line's direction there."""
    direction = end_xy - inner_xy
    norm = np.hypot(*(points_xy - end_xy).T) * max(float(np.hypot(*direction)), 1e-9)
    return ((points_xy - end_xy) @ direction) >= cos * norm


def high_speed_lines(stops: Dict[str, List[str]]) -> Set[str]:
    """The lines whose passenger stops (line code -> SNCF's names of them) are all TGV stations:
    high-speed lines ("LGV Est": Champagne-Ardenne, Meuse and Lorraine TGV). Such a line passes
    no other station, nor does a classic line end on it between its stations: it is no target
    of the rules that join lines by proximity (Héricourt, 2.5 km from the Rhin-Rhône line, was
    joined to it; Prunay and Sept-Saulx, near the LGV Est, were put on it)."""
    return {code for code, names in stops.items() if names and all("TGV" in name.upper() for name in names)}


def kilometre_point_links(
    sections: Dict[Key, List[int]],
    pks: Dict[Key, List[float]],
    lonlat: np.ndarray,
    dangling: Sequence[Tuple[Key, int]],
    report: List[str],
    unsure: Set[int],
    high_speed: AbstractSet[str] = frozenset(),
) -> List[Link]:
    """Join each dangling section end to the stop of another line that continues its kilometre
    points (or where they start), ahead of it; ends with no such stop are left out. Ends whose
    stop is far beyond the nearest line ahead are added to `unsure` (to be joined to that
    line as well). An end of another line is never joined to a point of a `high_speed` line."""
    node, pk, section = [], [], []
    ids = {key: i for i, key in enumerate(sections)}
    for key, nodes in sections.items():
        node += nodes
        pk += pks[key]
        section += [ids[key]] * len(nodes)
    node_a, pk_a, section_a = np.array(node), np.array(pk), np.array(section)
    fast = np.array([key[0] in high_speed for key in sections])[section_a] if len(section_a) else np.zeros(0, bool)
    links: List[Link] = []
    for key, end in dangling:
        nodes, marks = sections[key], pks[key]
        first = end == nodes[0]
        p, inner = (marks[0], nodes[1]) if first else (marks[-1], nodes[-2])
        xy = local_km(lonlat[node_a], lonlat[end])
        straight = np.hypot(*xy.T)
        ok = (section_a != ids[key]) & (node_a != end) & (straight <= PK_RADIUS_KM)
        if key[0] not in high_speed:
            ok &= ~fast
        ok &= ahead(np.zeros(2), local_km(lonlat[inner], lonlat[end]), xy, PK_AHEAD_COS)
        # the other line's kilometre point continues this one's, or this one starts there
        gaps = [p - pk_a if first else pk_a - p] + ([np.full(len(pk_a), p)] if first else [])
        best = None
        for gap in gaps:
            fit = ok & (gap >= straight - PK_FIT_SLACK_KM) & (gap <= PK_FIT_RATIO * straight + PK_FIT_LONG_KM)
            for i in np.flatnonzero(fit).tolist():
                candidate = (float(straight[i]), float(gap[i] - straight[i]), int(node_a[i]), float(gap[i]))
                best = candidate if best is None or candidate < best else best
        if best is not None:
            near = float(straight[ok].min())
            # kilometre points that fit far away, past another line just ahead, may be a
            # coincidence: the end is joined there and to the nearest line too (Alès - Nîmes
            # was 116 km by Montpellier, 47 km since)
            doubtful = best[0] > PK_NEAR_RATIO * near + PK_NEAR_SLACK_KM
            links.append((end, best[2], max(best[3], best[0], 0.001)))
            if doubtful:
                unsure.add(end)
            report.append(
                f"kilometre-point junction: node {end} (line {key[0]}, PK {p:.3f}) -> node {best[2]}, "
                f"{best[3]:.1f} km by kilometre points, {best[0]:.1f} km straight"
                + (f" (another line {near:.1f} km ahead: joined to it as well)" if doubtful else "")
            )
    return links


def timetable_links(
    hops: Dict[Tuple[int, int], int], lonlat: np.ndarray, edges: List[Tuple[int, int, float]], report: List[str]
) -> List[Link]:
    """Links for the non-stop runs of trains the network has no near route for, shortest
    runs first (a long run is then often joined through them): a fast run (a high-speed
    line) as LGV_DETOUR times the straight distance where no route is within LGV_GAP times
    it; any other run of CLASSIC_MIN_KMH or more (a line whose stretch the file leaves
    out: Avessac - Redon on Rennes - Redon) as CLASSIC_DETOUR times it where no route is
    within CLASSIC_GAP times it, nor short enough for the train's time at CLASSIC_MAX_KMH."""
    n = len(lonlat)
    runs = []
    for (a, b), minutes in hops.items():
        if a < b or (b, a) not in hops:
            straight = haversine_km(lonlat[a], lonlat[b])
            speed = straight / max(min(minutes, hops.get((b, a), minutes)), 1) * 60
            if straight >= 5.0 and speed >= MIN_LGV_KMH:
                runs.append((straight, min(a, b), max(a, b), LGV_DETOUR, LGV_GAP, "high-speed"))
            elif straight >= 2.0 and speed >= CLASSIC_MIN_KMH:
                # the network's route is too long for this train too: faster than a classic line runs
                gap = max(CLASSIC_GAP, CLASSIC_MAX_KMH / speed)
                runs.append((straight, min(a, b), max(a, b), CLASSIC_DETOUR, gap, "timetable"))
    src, dst, km = (list(x) for x in zip(*edges)) if edges else ([], [], [])
    links: List[Link] = []
    graph = None  # rebuilt only once a link has been added
    for straight, a, b, detour, gap, kind in sorted(runs):
        if graph is None:
            graph = coo_matrix((km + km, (src + dst, dst + src)), shape=(n, n)).tocsr()
        far = dijkstra(graph, indices=a, limit=gap * straight)[b]
        if far > gap * straight:
            length = round(detour * straight, 3)
            links.append((a, b, length))
            src.append(a)
            dst.append(b)
            km.append(length)
            graph = None
            report.append(
                f"{kind} link: nodes {a}-{b}, {straight:.1f} km straight, no route within "
                f"{gap * straight:.0f} km -> {length:.1f} km"
            )
    return links


def dangling_ends(sections: Dict[Key, List[int]], joined: Set[int]) -> List[Tuple[Key, int]]:
    """Section ends that no line passes through and no next section continues: an end no
    other line shares, or one where every line that has it ends (Joué-lès-Tours, where the
    Chinon and Loches lines start and neither lists Tours)."""
    inner: Set[int] = set()
    for nodes in sections.values():
        inner.update(nodes[1:-1])
    return [
        (key, end)
        for key, nodes in sections.items()
        if len(nodes) > 1
        for end in sorted({nodes[0], nodes[-1]})
        if end not in inner and end not in joined
    ]


def crossing(ends: np.ndarray, a: np.ndarray, d: np.ndarray, apart: np.ndarray) -> np.ndarray:
    """Which stretches (start `a`, direction `d`, km around a point at the origin) cross one of
    the stretches from the origin to `ends`, where `apart[i]` (one row per end) says which
    stretches share no point with that one (lines converging on a station they share cross
    before it: no evidence)."""
    hit = np.zeros(len(a), dtype=bool)
    for q, free in zip(ends, apart):
        den = q[0] * d[:, 1] - q[1] * d[:, 0]
        ok = np.abs(den) > 1e-12
        den = np.where(ok, den, 1.0)
        t = (a[:, 0] * d[:, 1] - a[:, 1] * d[:, 0]) / den  # along the point's own stretch
        u = (a[:, 0] * q[1] - a[:, 1] * q[0]) / den  # along the other stretch
        hit |= ok & free & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    return hit


def through_points(
    edges: List[Tuple[int, int, float, int, str]],
    node_lines: Dict[int, Set[str]],
    lonlat: np.ndarray,
    report: List[str],
    high_speed: AbstractSet[str] = frozenset(),
) -> List[Tuple[int, int, float, int, str]]:
    """Stations a line passes through without listing them (Brive on the Coutras - Tulle
    line, listed on Paris - Toulouse only): a point of another line that the line's stretch
    between two of its points can go through, its kilometre-point length fitting the detour
    by that point (within THROUGH_SLACK_KM) and the point within THROUGH_KM of the stretch
    (THROUGH_SHARE of a longer stretch's chord, up to THROUGH_MAX_KM: La Roche-sur-Yon on
    the Les Sables line, 2.1 km off the chord of a 22 km stretch; THROUGH_MAX_KM where the
    stretch crosses one of the point's own stretches, sharing no point with it:
    Dol-de-Bretagne, 2.2 km off the Lison - Lamballe line's chord, where the Rennes - Saint-Malo
    line crosses it), is put on the line there, the stretch's length shared in proportion;
    never on a `high_speed` line."""
    points = sorted(node_lines)
    xy_all = np.array(lonlat)
    splits: Dict[int, List[Tuple[float, int]]] = {}
    line_edges = [i for i, e in enumerate(edges) if e[4] and e[4] not in high_speed and e[0] != e[1]]
    src = np.array([edges[i][0] for i in line_edges])
    dst = np.array([edges[i][1] for i in line_edges])
    km = np.array([edges[i][2] for i in line_edges])
    line = [edges[i][4] for i in line_edges]
    own: Dict[int, List[int]] = {}
    for u, v in zip(src.tolist(), dst.tolist()):
        own.setdefault(u, []).append(v)
        own.setdefault(v, []).append(u)
    for p in points:
        a, b = local_km(xy_all[src], xy_all[p]), local_km(xy_all[dst], xy_all[p])
        da, db = np.hypot(*a.T), np.hypot(*b.T)
        d = b - a
        t = np.clip(-(a * d).sum(1) / np.maximum((d * d).sum(1), 1e-12), 0.0, 1.0)
        off = np.hypot(*(a + t[:, None] * d).T)
        near = np.clip(THROUGH_SHARE * np.hypot(*d.T), THROUGH_KM, THROUGH_MAX_KM)
        # a stretch that crosses one of the point's own stretches meets its line there
        ends = own.get(p, [])
        if ends:
            apart = np.array([(src != q) & (dst != q) for q in ends])
            near[crossing(local_km(xy_all[ends], xy_all[p]), a, d, apart)] = THROUGH_MAX_KM
        fit = (off <= near) & (da + db <= km + THROUGH_SLACK_KM) & (src != p) & (dst != p)
        fit &= (da > THROUGH_KM) & (db > THROUGH_KM)  # beside a point of the line: its own junction rules
        best = None
        for j in np.flatnonzero(fit).tolist():
            if line[j] in node_lines[p]:
                continue
            if best is None or off[j] < off[best]:
                best = j
        if best is not None:
            splits.setdefault(line_edges[best], []).append((float(da[best] / (da[best] + db[best])), p))
            report.append(
                f"through point: node {p} put on line {line[best]} between nodes {src[best]}-{dst[best]} "
                f"({off[best]:.2f} km off its chord)"
            )
    out: List[Tuple[int, int, float, int, str]] = []
    for i, (u, v, length, kind, code) in enumerate(edges):
        chain = [(0.0, u)] + sorted(splits.get(i, [])) + [(1.0, v)]
        out.extend((x, y, (ty - tx) * length, kind, code) for (tx, x), (ty, y) in zip(chain, chain[1:]))
    return out
