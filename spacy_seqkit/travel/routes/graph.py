"""Shortest paths on the railway graph, fast: most stations sit on chains of degree-2 nodes,
so distances go through the small graph of the chains' ends ("core" nodes: junctions,
termini). scipy's `csgraph.dijkstra` computes all the core's shortest paths at the first
query (about 1,000 core nodes: 0.1 s and 13 MB), so that a route is table lookups; with
`all_pairs` False, only the rows a query needs, kept for the next."""

from typing import Dict, List, Sequence, Tuple

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

Anchor = Tuple[int, float, int]  # (core position, km from the node to it, chain end 0 or -1)


class ContractedGraph:
    """An undirected weighted graph, contracted to its core for distance queries."""

    def __init__(self, n: int, src: np.ndarray, dst: np.ndarray, km: np.ndarray) -> None:
        full = csr_matrix((np.r_[km, km], (np.r_[src, dst], np.r_[dst, src])), shape=(n, n))
        self.n = n
        indptr, indices, weights = full.indptr, full.indices.tolist(), full.data.tolist()
        degree = np.diff(indptr)
        core = degree != 2
        self.chains: List[List[int]] = []
        self.chain_km: List[List[float]] = []
        self.chain_of = np.full(n, -1, dtype=np.int64)
        self.offset = np.zeros(n)
        seen: Dict[Tuple[int, int], int] = {}
        while True:
            for c in np.flatnonzero(core).tolist():
                for j in range(indptr[c], indptr[c + 1]):
                    self._walk(c, indices[j], weights[j], indptr, indices, weights, core, seen)
            loose = np.flatnonzero(~core & (self.chain_of < 0))
            if not len(loose):
                break
            core[loose[0]] = True  # a ring of degree-2 nodes: one of them becomes core
        self.core_nodes = np.flatnonzero(core)
        self.core_pos = np.full(n, -1, dtype=np.int64)
        self.core_pos[self.core_nodes] = np.arange(len(self.core_nodes))
        best: Dict[Tuple[int, int], int] = {}
        for i, chain in enumerate(self.chains):
            a, b = sorted((int(self.core_pos[chain[0]]), int(self.core_pos[chain[-1]])))
            if a != b and (self.chain_km[i][-1] < self.chain_km[best[(a, b)]][-1] if (a, b) in best else True):
                best[(a, b)] = i
        self.core_chain = best
        pairs = np.array(sorted(best), dtype=np.int64).reshape(-1, 2)
        lengths = np.array([self.chain_km[best[p]][-1] for p in sorted(best)])
        m = len(self.core_nodes)
        self.core = csr_matrix(
            (np.r_[lengths, lengths], (np.r_[pairs[:, 0], pairs[:, 1]], np.r_[pairs[:, 1], pairs[:, 0]])), shape=(m, m)
        )
        self.rows: Dict[int, Tuple[np.ndarray, np.ndarray]] = {}
        self.all_pairs = True

    def _walk(
        self,
        start: int,
        nxt: int,
        km: float,
        indptr: np.ndarray,
        indices: List[int],
        weights: List[float],
        core: np.ndarray,
        seen: Dict[Tuple[int, int], int],
    ) -> None:
        """Follow the chain leaving `start` towards `nxt` to the next core node; keep it once."""
        nodes, dist, prev = [start, nxt], [0.0, km], start
        while not core[nodes[-1]]:
            here = nodes[-1]
            j = indptr[here] if indices[indptr[here]] != prev else indptr[here] + 1
            prev = here
            nodes.append(indices[j])
            dist.append(dist[-1] + weights[j])
        key, back = (start, nodes[1]), (nodes[-1], nodes[-2])
        if back in seen:
            return
        seen[key] = len(self.chains)
        for k, node in enumerate(nodes[1:-1], start=1):
            self.chain_of[node] = len(self.chains)
            self.offset[node] = dist[k]
        self.chains.append(nodes)
        self.chain_km.append(dist)

    def anchors(self, node: int) -> List[Anchor]:
        """The core nodes a node reaches along its chain, with the distance to each."""
        if self.core_pos[node] >= 0:
            return [(int(self.core_pos[node]), 0.0, 0)]
        chain, o = int(self.chain_of[node]), float(self.offset[node])
        nodes, km = self.chains[chain], self.chain_km[chain]
        return [(int(self.core_pos[nodes[0]]), o, 0), (int(self.core_pos[nodes[-1]]), km[-1] - o, -1)]

    def _row(self, positions: Sequence[int]) -> None:
        """Compute (once) the core shortest-path rows of `positions`, in one dijkstra call."""
        missing = sorted({p for p in positions if p not in self.rows})
        if missing and self.all_pairs:
            dist, pred = dijkstra(self.core, return_predecessors=True)
            self.rows = {p: (d, q) for p, (d, q) in enumerate(zip(dist, pred))}
        elif missing:
            dist, pred = dijkstra(self.core, indices=missing, return_predecessors=True)
            for p, d, q in zip(missing, dist, pred):
                self.rows[p] = (d, q)

    def distances(self, sources: Sequence[int], targets: Sequence[int]) -> np.ndarray:
        """Shortest distance (km, inf where unconnected) from each source to each target node."""
        src = [self.anchors(s) for s in sources]
        self._row([p for a in src for p, _, _ in a])
        out = np.full((len(sources), len(targets)), np.inf)
        tgt = [self.anchors(t) for t in targets]
        for i, (s, anchors) in enumerate(zip(sources, src)):
            for j, (t, ends) in enumerate(zip(targets, tgt)):
                best = min(d + self.rows[p][0][q] + e for p, d, _ in anchors for q, e, _ in ends)
                if s == t:
                    best = 0.0
                elif self.chain_of[s] >= 0 and self.chain_of[s] == self.chain_of[t]:
                    best = min(best, abs(float(self.offset[s] - self.offset[t])))
                out[i, j] = best
        return out

    def path(self, s: int, t: int) -> List[int]:
        """The nodes of a shortest path from s to t (which must be connected)."""
        if s == t:
            return [s]
        self._row([p for p, _, _ in self.anchors(s)])
        km, p, q, end_s, end_t = min(
            (d + self.rows[p][0][q] + e, p, q, i, j) for p, d, i in self.anchors(s) for q, e, j in self.anchors(t)
        )
        chain = int(self.chain_of[s])
        if chain >= 0 and chain == self.chain_of[t] and abs(float(self.offset[s] - self.offset[t])) <= km:
            nodes = self.chains[chain]
            i, j = nodes.index(s, 1), nodes.index(t, 1)
            return nodes[i : j + 1] if i <= j else nodes[j : i + 1][::-1]
        core_path = [q]
        while core_path[-1] != p:
            core_path.append(int(self.rows[p][1][core_path[-1]]))
        core_path.reverse()
        path = self._to_end(s, end_s)
        for u, v in zip(core_path, core_path[1:]):
            nodes = self.chains[self.core_chain[(min(u, v), max(u, v))]]
            path.extend((nodes if nodes[0] == self.core_nodes[u] else nodes[::-1])[1:])
        return path + self._to_end(t, end_t)[::-1][1:]

    def _to_end(self, node: int, end: int) -> List[int]:
        """Nodes from `node` to the core node at `end` (0 or -1) of its chain."""
        if self.core_pos[node] >= 0:
            return [node]
        nodes = self.chains[int(self.chain_of[node])]
        i = nodes.index(node, 1)
        return nodes[i::-1] if end == 0 else nodes[i:]
