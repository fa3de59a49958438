"""Decoding strategies, outside any nn.Module, in two tables with one
signature each: `SEARCHES` (greedy, batched beam search, and a naive beam
search kept as the reference implementation) and `LENGTH_PENALTIES` (GNMT,
average, none; `build_length_penalty` makes one, as OpenNMT's PenaltyBuilder).

A decoder is given as two functions:

- `step(tokens, state) -> (log_probs, state)`: tokens (rows,) are the previous
  units of every row, log_probs (rows, n_units);
- `reorder(state, index, beams_only) -> state`: keep / repeat the rows of
  `state` named by `index`. `beams_only` is True when `index` only permutes the
  beams of each batch item, so per-item data that is the same for all its beams
  (the encoder memory) can stay where it is.

Every search is `search(step, reorder, state, max_lengths, *, bos, eos,
beam_size, n_best, length_penalty)`, where `length_penalty(length)` is the
normaliser of a finished hypothesis's summed log-probability (length counts
EOS). The rules (the same for batched and naive): every alive hypothesis is
extended by every unit; the `beam_size` best candidates of a batch item by
summed log-probability are kept; a kept candidate ending in EOS is finished and
scored sum / length_penalty(length), the others stay alive. An item is done
when no hypothesis is alive, when it reaches its maximum length (alive
hypotheses are then finished as they are), or once it has `beam_size` finished
hypotheses and no alive one can still beat the best of them: log-probs only
fall and the penalties do not decrease with length, so an alive sum s can at
best reach s / length_penalty(max_length). (Stopping at `beam_size` finished
hypotheses alone lets a few improbable early EOS end the search before the
good, longer hypothesis is complete.) Results are the n best finished
hypotheses, best first, as (unit ids without BOS / EOS, normalised score).
"""

import functools
import heapq
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple, Union

import torch

from ..util import check_choice, check_int, check_number, check_positive_int

Hypothesis = Tuple[List[int], float]
StepFn = Callable[[torch.Tensor, Any], Tuple[torch.Tensor, Any]]
ReorderFn = Callable[[Any, torch.Tensor, bool], Any]
LengthPenalty = Callable[[int], float]


# ---------------------------------------------------------------- length penalties
# One signature: (length, alpha) -> the normaliser of a summed log-probability.


class PenaltyFn(Protocol):
    def __call__(self, length: int, alpha: float) -> float: ...


def gnmt_penalty(length: int, alpha: float) -> float:
    """GNMT's ((5 + length) / 6) ** alpha (Wu et al. 2016); alpha 0 turns it off."""
    return ((5.0 + length) / 6.0) ** alpha


def average_penalty(length: int, alpha: float) -> float:
    """The mean log-probability per unit."""
    return float(length)


def no_penalty(length: int, alpha: float) -> float:
    """The raw summed log-probability."""
    return 1.0


LENGTH_PENALTIES: Dict[str, PenaltyFn] = {
    "gnmt": gnmt_penalty,
    "average": average_penalty,
    "none": no_penalty,
}


def build_length_penalty(name: Union[str, float] = "none", alpha: float = 0.0) -> LengthPenalty:
    """The penalty `name` of LENGTH_PENALTIES with its `alpha` (used by "gnmt"),
    as a function of the length. A number for `name` means GNMT with that
    alpha, as `length_penalty = 0.6` in configs written before the table."""
    if isinstance(name, (int, float)) and not isinstance(name, bool):
        if name < 0:
            raise ValueError(f"'length_penalty' as a number is GNMT's alpha, >= 0; got {name!r}")
        name, alpha = "gnmt", float(name)
    key = check_choice("length_penalty", name, LENGTH_PENALTIES)
    return functools.partial(LENGTH_PENALTIES[key], alpha=check_number("length_alpha", alpha, 0.0))


NO_LENGTH_PENALTY = build_length_penalty("none")


# ---------------------------------------------------------------- searches


def _cannot_improve(
    best_alive: float, finished: List[Hypothesis], k: int, max_len: int, length_penalty: LengthPenalty
) -> bool:
    """True when `k` hypotheses are finished and the best alive sum, even kept
    to the maximum length, scores below the best finished one."""
    if len(finished) < k:
        return False
    return best_alive / length_penalty(max_len) <= max(score for _, score in finished)


def _check(beam_size: int, n_best: int) -> None:
    check_positive_int("beam_size", beam_size)
    check_int("n_best", n_best, 1, beam_size, "beam_size")


def greedy_search(
    step: StepFn,
    reorder: Optional[ReorderFn],
    state: Any,
    max_lengths: Sequence[int],
    *,
    bos: int,
    eos: int,
    beam_size: int = 1,
    n_best: int = 1,
    length_penalty: LengthPenalty = NO_LENGTH_PENALTY,
) -> List[List[Hypothesis]]:
    """Pick the most probable unit at every step, for the whole batch at once
    (one hypothesis per item: `reorder`, `beam_size` and `n_best` are unused)."""
    max_lengths = [max(1, int(m)) for m in max_lengths]
    n = len(max_lengths)
    device = _device_of(state)
    tokens = torch.full((n,), bos, dtype=torch.long, device=device)
    scores = torch.zeros(n, dtype=torch.float64)
    outputs: List[List[int]] = [[] for _ in range(n)]
    done = [False] * n
    for _ in range(max(max_lengths, default=0)):
        if all(done):
            break
        log_probs, state = step(tokens, state)
        best_lp, tokens = log_probs.max(dim=-1)
        best_cpu, tokens_cpu = best_lp.double().cpu(), tokens.cpu().tolist()
        for i in range(n):
            if done[i]:
                continue
            scores[i] += best_cpu[i]
            if tokens_cpu[i] == eos:
                done[i] = True
            else:
                outputs[i].append(tokens_cpu[i])
                done[i] = len(outputs[i]) >= max_lengths[i]
    results = []
    for i in range(n):
        # EOS counts in the length unless the hypothesis was cut at max length.
        length = len(outputs[i]) + (0 if len(outputs[i]) >= max_lengths[i] else 1)
        results.append([(outputs[i], float(scores[i]) / length_penalty(length))])
    return results


def beam_search(
    step: StepFn,
    reorder: ReorderFn,
    state: Any,
    max_lengths: Sequence[int],
    *,
    bos: int,
    eos: int,
    beam_size: int = 5,
    n_best: int = 1,
    length_penalty: LengthPenalty = NO_LENGTH_PENALTY,
) -> List[List[Hypothesis]]:
    """Beam search over the whole batch at once: rows are batch × beam, one
    `step` call per time step, states reordered with the chosen parent rows.

    `state` holds one row per batch item; it is repeated `beam_size` times.
    """
    _check(beam_size, n_best)
    max_lengths = [max(1, int(m)) for m in max_lengths]
    n_items, k = len(max_lengths), beam_size
    if n_items == 0:
        return []
    device = _device_of(state)
    state = reorder(state, torch.arange(n_items, device=device).repeat_interleave(k), False)
    scores, tokens, history = _first_beams(n_items, k, bos, device)
    finished: List[List[Hypothesis]] = [[] for _ in range(n_items)]
    active = list(range(n_items))  # batch items still searching, in row order
    t = 0
    while active:
        log_probs, state = step(tokens, state)
        n_units = log_probs.shape[-1]
        cand = scores[:, :, None] + log_probs.double().view(len(active), k, n_units)
        top_scores, top_ids = cand.view(len(active), k * n_units).topk(k, dim=-1)
        parents, units = top_ids // n_units, top_ids % n_units
        history = torch.cat([history.gather(1, parents[:, :, None].expand(-1, -1, t)), units[:, :, None]], -1)
        t += 1
        scores = top_scores.masked_fill(units == eos, float("-inf"))
        keep_rows = _end_of_step(
            active, finished, units == eos, top_scores, scores, history, t, max_lengths, length_penalty
        )
        beam_rows = (torch.arange(len(active), device=device)[:, None] * k + parents).view(-1)
        if len(keep_rows) == len(active):
            state = reorder(state, beam_rows, True)
            tokens = units.view(-1)
            continue
        active = [active[r] for r in keep_rows]
        if not active:
            break
        keep = torch.as_tensor(keep_rows, device=device)
        rows = beam_rows.view(-1, k)[keep].view(-1)
        state = reorder(state, rows, False)
        tokens = units[keep].view(-1)
        scores, history = scores[keep], history[keep]
    return [_n_best(hyps, n_best) for hyps in finished]


def _first_beams(n_items: int, k: int, bos: int, device):
    """(scores (n_items, k), tokens (n_items * k,), history (n_items, k, 0)) at
    the start: only the first beam of each item is alive (the others would
    duplicate it)."""
    scores = torch.full((n_items, k), float("-inf"), dtype=torch.float64, device=device)
    scores[:, 0] = 0.0
    tokens = torch.full((n_items * k,), bos, dtype=torch.long, device=device)
    history = torch.zeros((n_items, k, 0), dtype=torch.long, device=device)
    return scores, tokens, history


def _end_of_step(active, finished, ended, top_scores, scores, history, t, max_lengths, length_penalty):
    """Finish the kept candidates that `ended` with EOS, and the alive ones of
    items at their maximum length; return the rows of the items that go on."""
    k = scores.shape[1]
    is_eos = ended & torch.isfinite(top_scores)
    lp = length_penalty(t)
    # Python only touches the (few) finished hypotheses.
    for row, beam in is_eos.nonzero().tolist():
        finished[active[row]].append((history[row, beam, :-1].tolist(), float(top_scores[row, beam]) / lp))
    keep_rows = []
    scores_cpu = scores.cpu()
    best_alive = scores_cpu.max(dim=-1).values.tolist()
    for row, item in enumerate(active):
        if best_alive[row] == float("-inf"):
            continue
        if _cannot_improve(best_alive[row], finished[item], k, max_lengths[item], length_penalty):
            continue
        if t >= max_lengths[item]:
            for beam in range(k):
                if torch.isfinite(scores_cpu[row, beam]):
                    finished[item].append((history[row, beam].tolist(), float(scores_cpu[row, beam]) / lp))
            continue
        keep_rows.append(row)
    return keep_rows


def beam_search_or_greedy(
    step: StepFn,
    reorder: ReorderFn,
    state: Any,
    max_lengths: Sequence[int],
    *,
    bos: int,
    eos: int,
    beam_size: int = 5,
    n_best: int = 1,
    length_penalty: LengthPenalty = NO_LENGTH_PENALTY,
) -> List[List[Hypothesis]]:
    """Beam search; a beam of 1 runs greedy search (the same, with less work)."""
    search = greedy_search if beam_size == 1 else beam_search
    return search(
        step,
        reorder,
        state,
        max_lengths,
        bos=bos,
        eos=eos,
        beam_size=beam_size,
        n_best=n_best,
        length_penalty=length_penalty,
    )


def naive_beam_search(
    step: StepFn,
    reorder: ReorderFn,
    state: Any,
    max_lengths: Sequence[int],
    *,
    bos: int,
    eos: int,
    beam_size: int = 5,
    n_best: int = 1,
    length_penalty: LengthPenalty = NO_LENGTH_PENALTY,
) -> List[List[Hypothesis]]:
    """The reference: item by item, one `step` call per hypothesis, a bounded
    priority queue of the `beam_size` best candidates per step. Slow on purpose."""
    _check(beam_size, n_best)
    max_lengths = [max(1, int(m)) for m in max_lengths]
    device = _device_of(state)
    results = []
    for item, max_len in enumerate(max_lengths):
        item_state = reorder(state, torch.tensor([item], device=device), False)
        alive: List[Tuple[float, List[int], Any]] = [(0.0, [], item_state)]
        finished: List[Hypothesis] = []
        t = 0
        while alive:
            queue: List[Tuple[float, int, int, int]] = []  # min-heap of the k best
            expanded = []
            for h, (score, seq, h_state) in enumerate(alive):
                prev = seq[-1] if seq else bos
                log_probs, new_state = step(torch.tensor([prev], device=device), h_state)
                expanded.append(new_state)
                lp = log_probs[0].double().cpu()
                best, ids = lp.topk(min(beam_size, lp.shape[0]))
                for s, u in zip(best.tolist(), ids.tolist()):
                    entry = (score + s, -h, -u, u)
                    if len(queue) < beam_size:
                        heapq.heappush(queue, entry)
                    elif entry > queue[0]:
                        heapq.heapreplace(queue, entry)
            t += 1
            next_alive = []
            for total, neg_h, _, unit in sorted(queue, reverse=True):
                if total == float("-inf"):
                    continue
                seq = alive[-neg_h][1]
                if unit == eos:
                    finished.append((list(seq), total / length_penalty(t)))
                else:
                    next_alive.append((total, seq + [unit], expanded[-neg_h]))
            alive = next_alive
            if not alive or _cannot_improve(max(a[0] for a in alive), finished, beam_size, max_len, length_penalty):
                break
            if t >= max_len:
                finished.extend((seq, s / length_penalty(t)) for s, seq, _ in alive)
                break
        results.append(_n_best(finished, n_best))
    return results


SEARCHES: Dict[str, Callable[..., List[List[Hypothesis]]]] = {
    "greedy": greedy_search,
    "beam": beam_search_or_greedy,
    "naive_beam": naive_beam_search,
}


def _n_best(hyps: List[Hypothesis], n_best: int) -> List[Hypothesis]:
    return sorted(hyps, key=lambda h: -h[1])[:n_best] or [([], float("-inf"))]


def _device_of(state: Any) -> Optional[torch.device]:
    values = state.values() if isinstance(state, dict) else state
    if isinstance(values, torch.Tensor):
        return values.device
    for value in values if not isinstance(values, (str, bytes)) else []:
        if isinstance(value, torch.Tensor):
            return value.device
    return None
