"""Shortest paths on the railway graph, fast. Two reductions keep the graph that scipy's
`csgraph.dijkstra` works on small:

- dead-end trees (branch lines, spurs, stations attached by one link) are cut off, leaf by
  leaf: a node of a tree reaches everything outside it through the node the tree hangs from
  (its "root", in the rest of the graph, the 2-core), and two nodes of one tree are joined by
  the tree's own path;
- in the 2-core, most stations sit on chains of degree-2 nodes: distances go through the small
  graph of the chains' ends ("core" nodes: junctions, about 760).

All the core's shortest paths are computed when the network loads (`prepare`; else at the first
query; about 1,000 nodes: 0.1-0.2 s and 8 MB), so that a
distance is table lookups (numpy, over every pair of candidate stations at once) and a path is
the concatenation of whole chains; with `all_pairs` False, only the rows a query needs, kept
for the next."""

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

Anchor = Tuple[int, float, int]  # (core position, km from the node to it, chain end 0 or -1)


class ContractedGraph:
    """An undirected weighted graph, contracted to its core for distance queries."""

    def __init__(self, n: int, src: np.ndarray, dst: np.ndarray, km: np.ndarray) -> None:
        self.n = n
        full = csr_matrix((np.r_[km, km], (np.r_[src, dst], np.r_[dst, src])), shape=(n, n))
        self._prune(full)
        kept = self.root == np.arange(n)
        edges = kept[src] & kept[dst]
        s2, d2, km2 = src[edges], dst[edges], km[edges]
        ring = csr_matrix((np.r_[km2, km2], (np.r_[s2, d2], np.r_[d2, s2])), shape=(n, n))
        indptr, indices, weights = ring.indptr, ring.indices.tolist(), ring.data.tolist()
        core = (np.diff(indptr) != 2) & kept
        self.chains: List[List[int]] = []
        self.chain_km: List[List[float]] = []
        self.chain_of = np.full(n, -1, dtype=np.int64)
        self.offset = np.zeros(n)
        self.at = np.zeros(n, dtype=np.int64)  # position of a node in its chain
        seen: Dict[Tuple[int, int], int] = {}
        while True:
            for c in np.flatnonzero(core).tolist():
                for j in range(indptr[c], indptr[c + 1]):
                    self._walk(c, indices[j], weights[j], indptr, indices, weights, core, seen)
            loose = np.flatnonzero(kept & ~core & (self.chain_of < 0))
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
        # a chain's nodes after its first, each way: a path is extended by whole chains
        m = self.m = len(self.core_nodes)
        self._step: Dict[int, List[int]] = {}  # u * m + v -> the nodes after u to v
        for (a, b), c in best.items():
            ahead, back = self.chains[c][1:], self.chains[c][-2::-1]
            forward = self.chains[c][0] == self.core_nodes[a]
            self._step[a * m + b], self._step[b * m + a] = (ahead, back) if forward else (back, ahead)
        pairs = np.array(sorted(best), dtype=np.int64).reshape(-1, 2)
        lengths = np.array([self.chain_km[best[p]][-1] for p in sorted(best)])
        self.core = csr_matrix(
            (np.r_[lengths, lengths], (np.r_[pairs[:, 0], pairs[:, 1]], np.r_[pairs[:, 1], pairs[:, 0]])), shape=(m, m)
        )
        self._anchor_arrays()
        # Python lists: a route reads them node by node, faster than numpy scalars.
        self._root, self._chain_of, self._offset = self.root.tolist(), self.chain_of.tolist(), self.offset.tolist()
        self._anc: Dict[int, List[Tuple[int, float]]] = {}  # node -> its anchors, as needed
        self._pred: Dict[int, List[int]] = {}
        self._anchor_cache: Dict[int, List[Anchor]] = {}
        self._at, self._is_core = self.at.tolist(), (self.core_pos >= 0).tolist()
        self.rows: Dict[int, Tuple[np.ndarray, np.ndarray]] = {}
        self._dist: Optional[np.ndarray] = None
        self.all_pairs = True

    def _prune(self, full: csr_matrix) -> None:
        """Cut the dead-end trees off, leaf by leaf: each cut node's `parent` (towards the
        rest), the `root` it hangs from (itself for a node that stays), its `depth` (km to the
        root) and `hops` (edges to the root)."""
        n = self.n
        indptr, indices, weights = full.indptr.tolist(), full.indices.tolist(), full.data.tolist()
        degree = np.diff(full.indptr).tolist()
        parent, up, cut, order = [-1] * n, [0.0] * n, [False] * n, []
        stack = [v for v in range(n) if degree[v] == 1]
        while stack:
            v = stack.pop()
            if cut[v] or degree[v] != 1:
                continue
            cut[v] = True
            order.append(v)
            for j in range(indptr[v], indptr[v + 1]):
                u = indices[j]
                if not cut[u]:
                    parent[v], up[v] = u, weights[j]
                    degree[u] -= 1
                    if degree[u] == 1:
                        stack.append(u)
                    break
        root, depth, hops = list(range(n)), [0.0] * n, [0] * n
        for v in reversed(order):  # a parent is cut after its children: it comes first here
            p = parent[v]
            root[v], depth[v], hops[v] = root[p], depth[p] + up[v], hops[p] + 1
        self.parent, self.hops, self.depth = parent, hops, depth
        self.root = np.array(root, dtype=np.int64)
        self.depth_km = np.array(depth)

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
            self.at[node] = k
        self.chains.append(nodes)
        self.chain_km.append(dist)

    def _anchor_arrays(self) -> None:
        """Every node's two core anchors (position, km): through its root, to the core node
        itself (the second anchor then unreachable) or to both ends of the root's chain."""
        root = self.root
        pos = self.core_pos[root]
        chain = self.chain_of[root]
        on_chain = pos < 0
        ends = np.array([[c[0], c[-1]] for c in self.chains], dtype=np.int64).reshape(-1, 2)
        length = np.array([k[-1] for k in self.chain_km])
        self.anc_pos = np.c_[pos, pos]
        self.anc_km = np.c_[self.depth_km, np.full(self.n, np.inf)]
        c = chain[on_chain]
        o = self.offset[root[on_chain]]
        d = self.depth_km[on_chain]
        self.anc_pos[on_chain] = self.core_pos[ends[c]]
        self.anc_km[on_chain] = np.c_[d + o, d + (length[c] - o)]

    def anchors(self, node: int) -> List[Anchor]:
        """The core nodes a node of the 2-core reaches along its chain, with the distance to each."""
        found = self._anchor_cache.get(node)
        if found is None:
            if self.core_pos[node] >= 0:
                found = [(int(self.core_pos[node]), 0.0, 0)]
            else:
                chain, o = int(self.chain_of[node]), float(self.offset[node])
                nodes, km = self.chains[chain], self.chain_km[chain]
                found = [(int(self.core_pos[nodes[0]]), o, 0), (int(self.core_pos[nodes[-1]]), km[-1] - o, -1)]
            self._anchor_cache[node] = found
        return found

    def prepare(self) -> None:
        """Compute all the core's shortest paths now (`RailNetwork` does, as it loads)."""
        self.rows.clear()
        self._row([0] if self.m else [])

    def _row(self, positions: Sequence[int]) -> None:
        """Compute (once) the core shortest-path rows of `positions`, in one dijkstra call."""
        missing = sorted({p for p in positions if p not in self.rows})
        if missing:
            self._pred = {}
        if missing and self.all_pairs:
            dist, pred = dijkstra(self.core, directed=True, return_predecessors=True)
            self.rows = dict(enumerate(zip(dist, pred)))
            self._dist = dist
        elif missing:
            self._dist = None
            dist, pred = dijkstra(self.core, directed=True, indices=missing, return_predecessors=True)
            for p, d, q in zip(missing, dist, pred):
                self.rows[p] = (d, q)

    def distances(self, sources: Sequence[int], targets: Sequence[int]) -> np.ndarray:
        """Shortest distance (km, inf where unconnected) from each source to each target node."""
        if len(sources) * len(targets) <= 16:
            return np.array(self.small_distances(sources, targets)).reshape(len(sources), len(targets))
        s, t = np.asarray(sources, dtype=np.int64), np.asarray(targets, dtype=np.int64)
        sp, tp = self.anc_pos[s], self.anc_pos[t]
        self._row(sp.ravel().tolist())
        if self._dist is not None and len(self.rows) == self.m:
            rows = self._dist[sp]
        else:
            rows = np.array([[self.rows[p][0] for p in pair] for pair in sp.tolist()]).reshape(len(s), 2, self.m)
        out = (self.anc_km[s][:, :, None, None] + rows[:, :, tp] + self.anc_km[t][None, None]).min(axis=(1, 3))
        rs, rt = self.root[s], self.root[t]
        same = rs[:, None] == rt[None, :]
        cs, ct = self.chain_of[rs], self.chain_of[rt]
        chain = (cs[:, None] == ct[None, :]) & (cs[:, None] >= 0) & ~same
        for i, j in zip(*np.nonzero(same | chain)):
            a, b = int(s[i]), int(t[j])
            if a == b:
                out[i, j] = 0.0
            elif same[i, j]:
                out[i, j] = min(out[i, j], self._tree_km(a, b))
            else:
                along = abs(float(self.offset[rs[i]] - self.offset[rt[j]]))
                out[i, j] = min(out[i, j], self.depth[a] + self.depth[b] + along)
        return out

    def small_distances(self, sources: Sequence[int], targets: Sequence[int]) -> List[List[float]]:
        """`distances` as lists, in Python: faster for a few sources and targets."""
        anc, root, chain_of, depth = self._anc, self._root, self._chain_of, self.depth
        for node in (*sources, *targets):
            if node not in anc:
                pos, km = self.anc_pos[node].tolist(), self.anc_km[node].tolist()
                anc[node] = [(p, k) for p, k in zip(pos, km) if k != np.inf]
        self._row([p for s in sources for p, _ in anc[s]])
        rows = self.rows
        out = []
        for s in sources:
            rs, here = root[s], [(rows[p][0], d) for p, d in anc[s]]
            line = []
            for t in targets:
                best = min(d + row.item(q) + e for row, d in here for q, e in anc[t])
                rt = root[t]
                if s == t:
                    best = 0.0
                elif rs == rt:
                    best = min(best, self._tree_km(s, t))
                elif chain_of[rs] >= 0 and chain_of[rs] == chain_of[rt]:
                    best = min(best, depth[s] + depth[t] + abs(self._offset[rs] - self._offset[rt]))
                line.append(best)
            out.append(line)
        return out

    def _meet(self, a: int, b: int) -> int:
        """The node where the tree paths from a and from b to their common root meet."""
        hops, parent = self.hops, self.parent
        while hops[a] > hops[b]:
            a = parent[a]
        while hops[b] > hops[a]:
            b = parent[b]
        while a != b:
            a, b = parent[a], parent[b]
        return a

    def _tree_km(self, a: int, b: int) -> float:
        top = self._meet(a, b)
        return self.depth[a] - self.depth[top] + (self.depth[b] - self.depth[top])

    def _up(self, node: int, top: int) -> List[int]:
        """Nodes from `node` up its tree to `top`, both included."""
        out = [node]
        parent = self.parent
        while node != top:
            node = parent[node]
            out.append(node)
        return out

    def path(self, s: int, t: int) -> List[int]:
        """The nodes of a shortest path from s to t (which must be connected)."""
        head, steps, tail = self.pieces(s, t)
        for key in steps:
            head.extend(self._step[key])
        return head + tail

    def step(self, key: int) -> Tuple[int, List[int]]:
        """A whole chain of `pieces`: the core node it leaves and the nodes after it."""
        return int(self.core_nodes[key // self.m]), self._step[key]

    def pieces(self, s: int, t: int) -> Tuple[List[int], List[int], List[int]]:
        """A shortest path from s to t in three: its first nodes (s included), the keys of
        the whole chains that follow (`step`), and the nodes after them (a new list each)."""
        if s == t:
            return [s], [], []
        rs, rt = self._root[s], self._root[t]
        if rs == rt:
            top = self._meet(s, t)
            return self._up(s, top) + self._up(t, top)[-2::-1], [], []
        head, steps, tail = self._core_pieces(rs, rt)
        return self._up(s, rs)[:-1] + head, steps, tail + self._up(t, rt)[-2::-1]

    def _core_pieces(self, s: int, t: int) -> Tuple[List[int], List[int], List[int]]:
        """`pieces` of a shortest path between two nodes of the 2-core."""
        here, there = self.anchors(s), self.anchors(t)
        self._row([p for p, _, _ in here])
        rows = self.rows
        km, p, q, end_s, end_t = min((d + rows[p][0].item(q) + e, p, q, i, j) for p, d, i in here for q, e, j in there)
        chain = self._chain_of[s]
        if chain >= 0 and chain == self._chain_of[t] and abs(self._offset[s] - self._offset[t]) <= km:
            nodes = self.chains[chain]
            i, j = self._at[s], self._at[t]
            return (nodes[i : j + 1] if i <= j else nodes[j : i + 1][::-1]), [], []
        pred = self._pred.get(p)
        if pred is None:
            pred = self._pred[p] = self.rows[p][1].tolist()
        core_path = [q]
        while q != p:
            q = pred[q]
            core_path.append(q)
        core_path.reverse()
        m = self.m
        steps = [u * m + v for u, v in zip(core_path, core_path[1:])]
        return self._to_end(s, end_s), steps, self._to_end(t, end_t)[::-1][1:]

    def _to_end(self, node: int, end: int) -> List[int]:
        """Nodes from `node` to the core node at `end` (0 or -1) of its chain."""
        if self._is_core[node]:
            return [node]
        nodes, i = self.chains[self._chain_of[node]], self._at[node]
        return nodes[i::-1] if end == 0 else nodes[i:]
