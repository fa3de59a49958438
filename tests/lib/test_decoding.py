"""Decoding on hand-built log-prob tables with known answers, batched vs naive
beam search on random models, and the approximate softmax structures."""

import math

import numpy
import pytest
import torch

from spacy_seqkit.layers.approx_softmax import AliasSampler, huffman_codes, noise_distribution
from spacy_seqkit.layers.decoding import (
    LENGTH_PENALTIES,
    SEARCHES,
    beam_search,
    build_length_penalty,
    greedy_search,
    naive_beam_search,
)
from spacy_seqkit.layers.decoding import (
    gnmt_penalty as length_penalty,
)
from spacy_seqkit.layers.output_layers import build_output_layer

pytestmark = pytest.mark.usefixtures("one_torch_thread")

PAD, BOS, EOS, A, B = 0, 1, 2, 3, 4
N_UNITS = 5


class TableDecoder:
    """A decoder whose next-unit distribution is a hand-written table keyed by
    the prefix (units after BOS). Unlisted prefixes end with probability 0.9.
    State: one prefix-node id per row."""

    def __init__(self, table, depth=4):
        self.prefixes = [()]
        for _ in range(depth):
            self.prefixes += [p + (u,) for p in self.prefixes if len(p) == len(self.prefixes[-1]) for u in (A, B)]
        self.prefixes = sorted(set(self.prefixes), key=lambda p: (len(p), p))
        self.node = {p: i for i, p in enumerate(self.prefixes)}
        dead = len(self.prefixes)
        n_nodes = dead + 1
        self.log_probs = torch.full((n_nodes, N_UNITS), float("-inf"), dtype=torch.float64)
        self.next = torch.full((n_nodes, N_UNITS), dead, dtype=torch.long)
        for prefix, i in self.node.items():
            dist = table.get(prefix, {EOS: 0.9, A: 0.05, B: 0.05})
            for unit, p in dist.items():
                self.log_probs[i, unit] = math.log(p)
            for unit in (A, B):
                if prefix + (unit,) in self.node:
                    self.next[i, unit] = self.node[prefix + (unit,)]
        self.log_probs[dead] = math.log(1.0 / N_UNITS)
        self.next[self.node[()], BOS] = self.node[()]
        self.calls = 0

    def initial_state(self, n_items):
        return {"node": torch.zeros(n_items, dtype=torch.long)}

    def step(self, tokens, state):
        self.calls += 1
        node = self.next[state["node"], tokens]
        return self.log_probs[node], {"node": node}

    @staticmethod
    def reorder(state, index, beams_only):
        return {"node": state["node"].index_select(0, index)}


# Greedy takes A (0.6), then A again (0.4): p(A A) = 0.24. Beam 2 also keeps B,
# which ends at once with 0.9: p(B) = 0.36 is the best sequence.
TRAP = {
    (): {A: 0.6, B: 0.4},
    (A,): {A: 0.4, B: 0.39, EOS: 0.21},
    (A, A): {EOS: 1.0},
    (B,): {EOS: 0.9, A: 0.05, B: 0.05},
}


def search(kind, table, max_lengths=(10,), alpha=0.0, **kwargs):
    dec = TableDecoder(table)
    state = dec.initial_state(len(max_lengths))
    fn = {"greedy": greedy_search, "batched": beam_search, "naive": naive_beam_search}[kind]
    penalty = build_length_penalty("gnmt", alpha)
    return fn(dec.step, dec.reorder, state, list(max_lengths), bos=BOS, eos=EOS, length_penalty=penalty, **kwargs)


def test_decoding_greedy_is_wrong_and_beam_2_is_right():
    (greedy,) = search("greedy", TRAP)
    assert greedy[0][0] == [A, A]
    assert greedy[0][1] == pytest.approx(math.log(0.6 * 0.4 * 1.0))
    for kind in ("batched", "naive"):
        (beam,) = search(kind, TRAP, beam_size=2, n_best=2)
        assert [ids for ids, _ in beam] == [[B], [A, A]]
        assert [s for _, s in beam] == pytest.approx([math.log(0.36), math.log(0.24)])


@pytest.mark.parametrize("kind", ["batched", "naive"])
def test_decoding_beam_1_equals_greedy(kind):
    tables = [TRAP, {(): {A: 0.5, B: 0.3, EOS: 0.2}, (A,): {B: 0.7, EOS: 0.3}, (A, B): {A: 0.6, EOS: 0.4}}]
    for table in tables:
        for alpha in (0.0, 0.6):
            for max_len in (1, 2, 10):
                greedy = search("greedy", table, (max_len,), alpha=alpha)
                beam = search(kind, table, (max_len,), beam_size=1, n_best=1, alpha=alpha)
                assert [ids for ids, _ in beam[0]] == [ids for ids, _ in greedy[0]]
                assert beam[0][0][1] == pytest.approx(greedy[0][0][1])


def test_decoding_length_penalty_prefers_longer_outputs():
    # "B": 0.6 * 0.5 = 0.30 (2 units with EOS); "A A A": 0.4 * 0.9 * 1.0 * 0.8 =
    # 0.288 (4 units). Raw, the short one wins; GNMT's penalty with a large alpha
    # divides the longer one's log-prob by more, and it wins.
    table = {
        (): {A: 0.4, B: 0.6},
        (B,): {EOS: 0.5, A: 0.25, B: 0.25},
        (A,): {A: 0.9, EOS: 0.1},
        (A, A): {A: 1.0},
        (A, A, A): {EOS: 0.8, A: 0.2},
    }
    short_score, long_score = math.log(0.30), math.log(0.288)
    alpha = 2.0
    assert long_score / length_penalty(4, alpha) > short_score / length_penalty(2, alpha)
    for kind in ("batched", "naive"):
        (plain,) = search(kind, table, beam_size=2, n_best=2, alpha=0.0)
        assert [ids for ids, _ in plain] == [[B], [A, A, A]]
        assert [s for _, s in plain] == pytest.approx([short_score, long_score])
        (penalised,) = search(kind, table, beam_size=2, n_best=2, alpha=alpha)
        assert [ids for ids, _ in penalised] == [[A, A, A], [B]]
        assert penalised[0][1] == pytest.approx(long_score / length_penalty(4, alpha))


def test_decoding_improbable_early_endings_do_not_stop_the_search():
    # Beam 2 finishes "B" (0.05) and "A A" (0.04) before "A A A A" (0.73) is
    # complete: the search must go on while an alive hypothesis can still win.
    table = {
        (): {A: 0.9, B: 0.1},
        (B,): {EOS: 0.5, A: 0.25, B: 0.25},
        (A,): {A: 0.9, EOS: 0.05, B: 0.05},
        (A, A): {A: 0.95, EOS: 0.05},
        (A, A, A): {A: 0.95, EOS: 0.05},
        (A, A, A, A): {EOS: 1.0},
    }
    for kind in ("batched", "naive"):
        for alpha in (0.0, 0.6):
            (hyps,) = search(kind, table, beam_size=2, n_best=2, alpha=alpha)
            assert hyps[0][0] == [A, A, A, A]
            assert hyps[0][1] == pytest.approx(math.log(0.9 * 0.9 * 0.95 * 0.95) / length_penalty(5, alpha))


def test_decoding_max_length_cuts_and_items_differ():
    never_ends = {p: {A: 0.7, B: 0.3} for p in [(), (A,), (A, A), (A, A, A)]}
    results = search("batched", never_ends, max_lengths=(2, 3), beam_size=2, n_best=2)
    assert [len(results[0][0][0]), len(results[1][0][0])] == [2, 3]
    assert results[0][0][0] == [A, A]
    naive = search("naive", never_ends, max_lengths=(2, 3), beam_size=2, n_best=2)
    assert [[ids for ids, _ in r] for r in results] == [[ids for ids, _ in r] for r in naive]


def test_decoding_batched_makes_one_call_per_step():
    dec = TableDecoder(TRAP)
    beam_search(dec.step, dec.reorder, dec.initial_state(6), [10] * 6, bos=BOS, eos=EOS, beam_size=2, n_best=1)
    assert dec.calls <= 3
    naive = TableDecoder(TRAP)
    naive_beam_search(naive.step, naive.reorder, naive.initial_state(6), [10] * 6, bos=BOS, eos=EOS, beam_size=2)
    assert naive.calls > 6 * 3


class RandomDecoder:
    """A random recurrent model: h' = tanh(E[token] + h U), log_softmax(h' O)."""

    def __init__(self, n_units, width=8, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.E = torch.randn(n_units, width, generator=g)
        self.U = torch.randn(width, width, generator=g) / width**0.5
        self.O = torch.randn(width, n_units, generator=g) * 2.0

    def step(self, tokens, state):
        h = torch.tanh(self.E[tokens] + state["h"] @ self.U)
        lp = torch.log_softmax(h @ self.O, -1)
        lp[:, [PAD, BOS]] = float("-inf")
        return lp, {"h": h, "memory": state["memory"]}

    @staticmethod
    def reorder(state, index, beams_only):
        memory = state["memory"] if beams_only else state["memory"].index_select(0, index)
        return {"h": state["h"].index_select(0, index), "memory": memory}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("beam_size,alpha", [(2, 0.0), (5, 0.6), (7, 1.0)])
def test_decoding_batched_beam_equals_naive_on_random_models(seed, beam_size, alpha):
    n_units = 6 + seed
    dec = RandomDecoder(n_units, seed=seed)
    g = torch.Generator().manual_seed(100 + seed)
    n_items = 4
    state = {"h": torch.randn(n_items, 8, generator=g), "memory": torch.arange(n_items)}
    max_lengths = [3, 7, 1, 12]
    kwargs = dict(bos=BOS, eos=EOS, beam_size=beam_size, n_best=beam_size, length_penalty=build_length_penalty(alpha))
    batched = beam_search(dec.step, dec.reorder, state, max_lengths, **kwargs)
    naive = naive_beam_search(dec.step, dec.reorder, state, max_lengths, **kwargs)
    for b, n, max_len in zip(batched, naive, max_lengths):
        assert [ids for ids, _ in b] == [ids for ids, _ in n]
        assert [s for _, s in b] == pytest.approx([s for _, s in n], abs=1e-5)
        assert all(len(ids) <= max_len for ids, _ in b)
        assert [s for _, s in b] == sorted((s for _, s in b), reverse=True)


@pytest.mark.parametrize("beam_size,n_best", [(0, 1), (2, 3), (True, 1)])
def test_decoding_bad_arguments(beam_size, n_best):
    dec = TableDecoder(TRAP)
    with pytest.raises(ValueError, match="beam_size|n_best"):
        beam_search(
            dec.step, dec.reorder, dec.initial_state(1), [5], bos=BOS, eos=EOS, beam_size=beam_size, n_best=n_best
        )


def test_decoding_empty_batch():
    dec = TableDecoder(TRAP)
    assert beam_search(dec.step, dec.reorder, dec.initial_state(0), [], bos=BOS, eos=EOS) == []


def test_decoding_length_penalties_table():
    assert LENGTH_PENALTIES["gnmt"](4, 0.6) == pytest.approx((9 / 6) ** 0.6)
    assert LENGTH_PENALTIES["average"](4, 0.6) == 4.0
    assert LENGTH_PENALTIES["none"](4, 0.6) == 1.0
    # A number is GNMT's alpha, as `length_penalty = 0.6` in older configs.
    assert build_length_penalty(0.6)(4) == build_length_penalty("gnmt", 0.6)(4) == length_penalty(4, 0.6)
    assert build_length_penalty("gnmt", 0.0)(7) == build_length_penalty("none")(7) == 1.0
    for bad, name in (("wu", "length_penalty"), (-0.1, "length_penalty"), (True, "length_penalty")):
        with pytest.raises(ValueError, match=name):
            build_length_penalty(bad)
    with pytest.raises(ValueError, match="length_alpha"):
        build_length_penalty("gnmt", -1.0)


@pytest.mark.parametrize("penalty", ["average", "none"])
def test_decoding_batched_equals_naive_with_every_penalty(penalty):
    dec = RandomDecoder(7, seed=1)
    g = torch.Generator().manual_seed(5)
    state = {"h": torch.randn(3, 8, generator=g), "memory": torch.arange(3)}
    kwargs = dict(bos=BOS, eos=EOS, beam_size=4, n_best=4, length_penalty=build_length_penalty(penalty))
    batched = beam_search(dec.step, dec.reorder, state, [6, 2, 9], **kwargs)
    naive = naive_beam_search(dec.step, dec.reorder, state, [6, 2, 9], **kwargs)
    for b, n in zip(batched, naive):
        assert [ids for ids, _ in b] == [ids for ids, _ in n]
        assert [s for _, s in b] == pytest.approx([s for _, s in n], abs=1e-5)


def test_decoding_searches_table_shares_one_signature():
    penalty = build_length_penalty("gnmt", 0.6)
    results = {}
    for name, run in SEARCHES.items():
        dec = TableDecoder(TRAP)
        results[name] = run(
            dec.step,
            dec.reorder,
            dec.initial_state(1),
            [10],
            bos=BOS,
            eos=EOS,
            beam_size=2,
            n_best=1,
            length_penalty=penalty,
        )
    assert results["beam"] == results["naive_beam"] != results["greedy"]
    # "beam" with a beam of 1 is greedy search.
    dec = TableDecoder(TRAP)
    one = SEARCHES["beam"](
        dec.step, dec.reorder, dec.initial_state(1), [10], bos=BOS, eos=EOS, beam_size=1, length_penalty=penalty
    )
    assert one == results["greedy"]


# ---------------------------------------------------------------- approximate softmax


def test_huffman_codes_are_prefix_free_and_frequent_units_short():
    counts = [50, 1, 1, 3, 20, 8, 0, 2]
    codes, points, lengths = huffman_codes(counts)
    words = ["".join(map(str, codes[i, : lengths[i]])) for i in range(len(counts))]
    for i, w in enumerate(words):
        for j, v in enumerate(words):
            assert i == j or not v.startswith(w)
    assert lengths[0] == min(lengths)
    assert lengths[0] <= lengths[1]
    assert points.max() == len(counts) - 2  # the root is the last inner node
    assert (points[:, 0] == len(counts) - 2).all()
    # Huffman: the Kraft sum of a full binary tree is exactly 1.
    assert sum(2.0 ** -int(n) for n in lengths) == pytest.approx(1.0)


def test_huffman_codes_single_unit_and_bad_counts():
    codes, points, lengths = huffman_codes([7])
    assert lengths.tolist() == [0] and codes.shape == (1, 1)
    with pytest.raises(ValueError, match="counts"):
        huffman_codes([])
    with pytest.raises(ValueError, match="counts"):
        huffman_codes([1, -1])


def test_noise_distribution_and_sampler():
    probs = noise_distribution([16, 1, 0, 81])
    expected = numpy.array([8.0, 1.0, 0.0, 27.0]) / 36.0  # counts ** 0.75
    assert probs == pytest.approx(expected)
    draws = AliasSampler(probs)((20000,), torch.Generator().manual_seed(0)).numpy()
    assert (draws != 2).all()
    assert numpy.bincount(draws, minlength=4) / 20000 == pytest.approx(expected, abs=0.02)
    assert noise_distribution([0, 0]) == pytest.approx([0.5, 0.5])


@pytest.mark.parametrize("n_units", [2, 3, 17, 200])
def test_hierarchical_softmax_sums_to_one(n_units):
    torch.manual_seed(0)
    counts = numpy.random.default_rng(n_units).integers(0, 100, n_units)
    layer = build_output_layer("hierarchical", 12, n_units, counts, 5)
    o = torch.randn(6, 12) * 3
    with torch.no_grad():
        lp = layer.log_probs(o)
        assert lp.shape == (6, n_units)
        assert lp.exp().sum(-1).tolist() == pytest.approx([1.0] * 6, abs=1e-5)
        y = torch.randint(0, n_units, (6,))
        gold = layer.target_log_prob(o, y)
        assert gold.tolist() == pytest.approx(lp.gather(1, y[:, None])[:, 0].tolist(), abs=1e-5)


@pytest.mark.parametrize("name", ["negative_sampling", "sampled"])
def test_negative_sampling_trains_toward_the_full_softmax(name):
    """Negative sampling's loss rises with the gold unit's score falling, and
    inference uses the normalised full softmax over the same weights ("sampled"
    is its older name)."""
    torch.manual_seed(0)
    layer = build_output_layer(name, 8, 50, list(range(1, 51)), 5)
    o = torch.randn(4, 8)
    assert layer.log_probs(o).exp().sum(-1).tolist() == pytest.approx([1.0] * 4, abs=1e-5)
    y = torch.tensor([3, 7, 9, 11])
    loss = layer.loss(o, y)
    assert loss.shape == (4,) and bool((loss > 0).all())
    # 300 steps: with 100, the old sampler (torch.multinomial) got there for 39
    # seeds in 40, the alias sampler for 36 (seed 0 not among them: the draws
    # differ); with 300, the alias sampler for all 40.
    for _ in range(300):
        layer.zero_grad()
        layer.loss(o, y).sum().backward()
        with torch.no_grad():
            for param in layer.parameters():
                param -= 0.5 * param.grad
    assert (layer.log_probs(o).argmax(-1) == y).all()
