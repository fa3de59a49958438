"""The quality measures of `benchmark vectors` (see benchmarks/vectors.py):
triple accuracy, the region check's summary over seeds, neighbour agreement."""

from typing import Any, Dict, Sequence

import numpy

# Runs per side of the region check, and how far our mean may be from gensim's.
REGION_SEEDS = 10
REGION_TOLERANCE = 0.02


def _unit(vectors: numpy.ndarray) -> numpy.ndarray:
    norms = numpy.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / numpy.maximum(norms, 1e-12)


def similarity_accuracy(vectors: numpy.ndarray, triples: numpy.ndarray) -> float:
    if len(triples) == 0:
        return float("nan")
    unit = _unit(vectors)
    a, b, c = unit[triples[:, 0]], unit[triples[:, 1]], unit[triples[:, 2]]
    return float(((a * b).sum(1) > (a * c).sum(1)).mean())


def region_summary(ours: Sequence[float], gensim: Sequence[float]) -> Dict[str, Any]:
    """The region check from each side's per-seed region_acc: the means, the
    spread of one run (sample sd), our mean minus gensim's (region_gap), its
    standard error, and whether |region_gap| <= REGION_TOLERANCE."""
    o, g = numpy.asarray(ours, dtype="float64"), numpy.asarray(gensim, dtype="float64")
    if o.size < 2 or g.size < 2:
        raise ValueError("the region check needs at least 2 runs a side")
    gap = float(o.mean() - g.mean())
    return {
        "ours_region_acc": float(o.mean()),
        "gensim_region_acc": float(g.mean()),
        "region_gap": gap,
        "region_gap_se": float(numpy.sqrt(o.var(ddof=1) / o.size + g.var(ddof=1) / g.size)),
        "ours_region_sd": float(o.std(ddof=1)),
        "gensim_region_sd": float(g.std(ddof=1)),
        "region_met": abs(gap) <= REGION_TOLERANCE,
        "ours_region_runs": o.tolist(),
        "gensim_region_runs": g.tolist(),
    }


def neighbours(vectors: numpy.ndarray, queries: numpy.ndarray, k: int = 10) -> numpy.ndarray:
    unit = _unit(vectors)
    sims = unit[queries] @ unit.T
    sims[numpy.arange(len(queries)), queries] = -numpy.inf
    return numpy.argsort(-sims, axis=1)[:, :k]


def neighbour_agreement(x: numpy.ndarray, y: numpy.ndarray, queries: numpy.ndarray, k: int = 10) -> float:
    nx, ny = neighbours(x, queries, k), neighbours(y, queries, k)
    return float(numpy.mean([len(set(a) & set(b)) / k for a, b in zip(nx.tolist(), ny.tolist())]))
