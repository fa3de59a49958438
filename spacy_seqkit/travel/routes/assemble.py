"""A `Route` from the stations a route goes through: its path (whole chains of the graph at a
time: the edges of a chain where its lines change are worked out once and reused), the
stations where it changes line, its named stops and the fastest train of each leg."""

from typing import Dict, List, Optional, Set, Tuple

import numpy as np

from .datafile import unpack_strings
from .graph import ContractedGraph
from .result import NodeTables, Route, Stop, TrainLeg

Point = Tuple[float, float]
Entry = Tuple[int, int]  # (node an edge leaves, the edge's lines as a bit mask)
Chain = Tuple[List[int], List[Entry]]


class RouteAssembler:
    """Builds the `Route` of a path through given stations, for `RailNetwork.route`."""

    def __init__(self, arrays: Dict[str, np.ndarray], graph: ContractedGraph, names: List[str], lines: List[str]):
        self.graph, self.names, self.line_codes = graph, names, lines
        self.n = n = len(arrays["uic"])
        # Lines of each edge as a bit mask: a route stays on a line while the masks intersect.
        # Equal masks are one object: an edge whose mask is the previous one's changes nothing.
        ptr, line = arrays["edge_line_ptr"].tolist(), arrays["edge_line"].tolist()
        self.lines: List[Dict[int, int]] = [{} for _ in range(n)]
        masks: Dict[int, int] = {}
        for e, (a, b) in enumerate(zip(arrays["edge_src"].tolist(), arrays["edge_dst"].tolist())):
            mask = sum(1 << i for i in line[ptr[e] : ptr[e + 1]])
            self.lines[a][b] = self.lines[b][a] = masks.setdefault(mask, mask)
        # Python lists: a route reads them node by node, faster than numpy scalars.
        self.uics: List[int] = arrays["uic"].tolist()
        self.points: List[Point] = list(zip(arrays["lon"].tolist(), arrays["lat"].tolist()))
        self.tables = NodeTables(self.uics, self.points)
        self.uic = arrays["uic"]
        self._train_key = arrays["train_from"].astype(np.int64) * n + arrays["train_to"]
        self._train_number = unpack_strings(arrays["train_number"])
        # (from node, to node) -> the first train of the pair in the file's (sorted) order
        self._train_at: Dict[Tuple[int, int], int] = {}
        for i, pair in enumerate(zip(arrays["train_from"].tolist(), arrays["train_to"].tolist())):
            self._train_at.setdefault(pair, i)
        self._minutes: List[int] = arrays["train_minutes"].tolist()
        self._legs: Dict[int, TrainLeg] = {}
        self._stops: Dict[Tuple[int, bool, bool, bool], Stop] = {}
        self._chains: Dict[int, Chain] = {}

    def route(self, points: List[int], layers: List[List[int]], km: float) -> Route:
        """The route through the nodes `points` (chosen among `layers`), `km` long."""
        path: List[int] = []
        entries: List[Entry] = []
        chains = self._chains
        for leg, (a, b) in enumerate(zip(points, points[1:])):
            head, steps, tail = self.graph.pieces(a, b)
            entries.extend(self._entries(head))
            path.extend(head if leg == 0 else head[1:])
            for key in steps:
                nodes, kept = chains.get(key) or self._chain(key)
                path.extend(nodes)
                entries.extend(kept)
            if tail:
                entries.extend(self._entries([path[-1]] + tail))
                path.extend(tail)
        changes, lines = self._changes(entries)
        trains, minutes, timetable = self._timetable(points, layers)
        return Route(
            stops=self._named(path, points, changes),
            km=round(km, 3),
            lines=tuple(lines),
            trains=trains,
            minutes=minutes,
            timetable=timetable,
            nodes=tuple(path),
            tables=self.tables,
        )

    def _named(self, path: List[int], points: List[int], changes: Set[int]) -> Tuple[Stop, ...]:
        """The stops a route names: its ends, the requested points, the changes of line."""
        requested = set(points[1:-1])
        first, last = path[0], path[-1]
        marks = {first, last} | requested | changes
        uics, cache = self.uics, self._stops
        stops = []
        for i in [i for i, n in enumerate(path) if n in marks]:
            n = path[i]
            if uics[n] and (i == 0 or n != path[i - 1]):
                key = (n, n == first or n == last, n in requested, n in changes)
                stop = cache.get(key)
                if stop is None:  # a Stop is immutable: one object for all routes
                    stop = cache[key] = Stop(uics[n], self.names[n], *self.points[n], *key[1:])
                stops.append(stop)
        return tuple(stops)

    def _timetable(self, points: List[int], layers: List[List[int]]) -> Tuple[Tuple[TrainLeg, ...], Optional[int], str]:
        """(the fastest train of each leg, their minutes, what the timetable says)."""
        found = [self.fastest_train(here, there) for here, there in zip(layers, layers[1:])]
        trains = tuple(t for t in found if t is not None)
        if len(trains) == len(found):
            text = "fastest TGV / Intercités train of each leg (calendars not matched, no connection times)"
            return trains, sum(t.minutes for t in trains), text
        missing = next(i for i, t in enumerate(found) if t is None)
        here, there = self.names[points[missing]], self.names[points[missing + 1]]
        return (), None, f"no timetable: no TGV or Intercités train runs from {here} to {there}"

    def _entries(self, nodes: List[int]) -> List[Entry]:
        lines = self.lines
        return [(a, lines[a][b]) for a, b in zip(nodes, nodes[1:])]

    def _chain(self, key: int) -> Chain:
        """A whole chain of a path, once: its nodes and the edges where its lines change
        (with its first edge: the one before may be on other lines)."""
        start, nodes = self.graph.step(key)
        kept: List[Entry] = []
        previous = None
        for a, mask in self._entries([start] + nodes):
            if mask and mask is not previous:
                kept.append((a, mask))
                previous = mask
        chain = self._chains[key] = (nodes, kept)
        return chain

    def _changes(self, entries: List[Entry]) -> Tuple[Set[int], List[str]]:
        """Nodes where the route leaves every line it was on, and the lines used, in order,
        from the route's edges (their first node and lines; edges left out are those whose
        lines are the previous edge's)."""
        changes: Set[int] = set()
        used: List[str] = []
        current = 0
        previous = None
        for a, mask in entries:
            # an inferred link has no line of its own (0); the previous line's mask again
            # changes nothing: the lines kept are already among its lines
            if mask is previous or not mask:
                continue
            previous = mask
            if current & mask:
                current &= mask
                continue
            if current:
                changes.add(a)
                used.append(self._first_line(current))
            current = mask
        if current:
            used.append(self._first_line(current))
        return changes, used

    def _first_line(self, mask: int) -> str:
        return self.line_codes[(mask & -mask).bit_length() - 1]

    def fastest_train(self, here: List[int], there: List[int]) -> Optional[TrainLeg]:
        """The fastest train calling at one of `here` then at one of `there`, if any."""
        best, at, minutes = None, self._train_at, self._minutes
        for a in here:
            for b in there:
                i = at.get((a, b))
                if i is not None and (best is None or minutes[i] < minutes[best]):
                    best = i
        if best is None:
            return None
        leg = self._legs.get(best)
        if leg is None:
            a, b = divmod(int(self._train_key[best]), self.n)
            leg = self._legs[best] = TrainLeg(
                int(self.uic[a]), int(self.uic[b]), self._train_number[best], int(self._minutes[best])
            )
        return leg
