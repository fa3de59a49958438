"""The quality measures and corpus of `python -m spacy_seqkit benchmark vectors`."""

import json

import numpy
import pytest

from spacy_seqkit.benchmarks.vectors import (
    city_regions,
    load_corpus,
    neighbour_agreement,
    region_groups,
    region_summary,
    similarity_accuracy,
    similarity_triples,
    synthetic_sentences,
    word_groups,
)


def test_vectors_benchmark_synthetic_corpus_is_seeded():
    assert synthetic_sentences(50, seed=3) == synthetic_sentences(50, seed=3)
    assert synthetic_sentences(50, seed=3) != synthetic_sentences(50, seed=4)
    cities = set(word_groups()["city"])
    assert "Paris" in cities and "Lyon" in cities
    assert any(tok in cities for s in synthetic_sentences(20, seed=0) for tok in s.split())


def test_vectors_benchmark_similarity_accuracy_separates_groups():
    groups = word_groups()
    words = groups["city"][:5] + groups["verb"][:5]
    index = {w: i for i, w in enumerate(words)}
    triples = similarity_triples(index, 200, seed=0)
    assert len(triples) == 200
    # grouped vectors: all correct; the same vectors with the groups swapped for half: worse
    grouped = numpy.zeros((10, 2), dtype="float32")
    grouped[:5, 0] = 1.0
    grouped[5:, 1] = 1.0
    grouped += numpy.random.default_rng(0).normal(scale=0.05, size=grouped.shape)
    assert similarity_accuracy(grouped, triples) == 1.0
    shuffled = grouped[numpy.random.default_rng(1).permutation(10)]
    assert similarity_accuracy(shuffled, triples) < 0.9


def test_vectors_benchmark_region_check_cannot_pass_by_chance():
    """The region check: a and b of one region, c of another; random vectors
    score about 0.5, vectors that hold the regions 1.0, and the synthetic
    corpus puts cities of one region together more often than chance."""
    groups = [g for g in region_groups() if len(g) >= 2]
    assert len(groups) >= 5
    words = [w for g in groups for w in g]
    index = {w: i for i, w in enumerate(words)}
    triples = similarity_triples(index, 4000, seed=0, word_lists=groups)
    regions = city_regions()
    assert all(regions[words[a]] == regions[words[b]] != regions[words[c]] for a, b, c in triples.tolist())
    rng = numpy.random.default_rng(0)
    # triples reuse 150 words, so one random draw varies more than 4000 coin flips
    chance = numpy.mean([similarity_accuracy(rng.normal(size=(len(words), 50)), triples) for _ in range(20)])
    assert abs(chance - 0.5) < 0.02
    by_region = numpy.zeros((len(words), len(groups)))
    for g, group in enumerate(groups):
        by_region[[index[w] for w in group], g] = 1.0
    assert similarity_accuracy(by_region + rng.normal(scale=0.05, size=by_region.shape), triples) == 1.0
    pairs = same = 0
    for sentence in synthetic_sentences(3000, seed=0):
        cities = [t for t in sentence.split() if t in regions]
        if len(cities) == 2:
            pairs, same = pairs + 1, same + (regions[cities[0]] == regions[cities[1]])
    assert same / pairs > 0.35  # 0.3 regional draws plus the chance of any two cities


def test_vectors_benchmark_region_summary_is_mean_gap_and_standard_error():
    """The region check compares the means of several runs a side; its gap's
    standard error comes from the runs' own spread."""
    summary = region_summary([0.90, 0.88, 0.92], [0.89, 0.91])
    assert summary["ours_region_acc"] == pytest.approx(0.90)
    assert summary["gensim_region_acc"] == pytest.approx(0.90)
    assert summary["region_gap"] == pytest.approx(0.0, abs=1e-12)
    assert summary["ours_region_sd"] == pytest.approx(0.02)
    assert summary["region_gap_se"] == pytest.approx(numpy.sqrt(0.02**2 / 3 + 0.02**2 / 2 / 2))
    assert summary["region_met"] and summary["ours_region_runs"] == pytest.approx([0.90, 0.88, 0.92])
    below = region_summary([0.86, 0.88], [0.90, 0.92])
    assert below["region_gap"] == pytest.approx(-0.04) and not below["region_met"]
    with pytest.raises(ValueError, match="at least 2 runs"):
        region_summary([0.9], [0.9, 0.91])


def test_vectors_benchmark_neighbour_agreement_bounds():
    rng = numpy.random.default_rng(0)
    x = rng.normal(size=(50, 8))
    queries = numpy.arange(20)
    assert neighbour_agreement(x, x, queries) == 1.0
    # a rotation keeps every cosine, so every neighbour
    q, _ = numpy.linalg.qr(rng.normal(size=(8, 8)))
    assert neighbour_agreement(x, x @ q, queries) == pytest.approx(1.0)
    assert neighbour_agreement(x, rng.normal(size=(50, 8)), queries) < 0.5


def test_vectors_benchmark_reads_jsonl_and_caps_words(tmp_path):
    path = tmp_path / "train.jsonl"
    rows = [{"text": f"Je veux aller de Paris à Lyon {i}"} for i in range(10)]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf8")
    source, sentences = load_corpus(path, max_words=20, seed=0)
    assert "travel corpus" in source
    assert sentences[0][:4] == ["Je", "veux", "aller", "de"]
    assert 20 <= sum(map(len, sentences)) < 30


@pytest.mark.slow
def test_vectors_benchmark_runs_end_to_end(tmp_path):
    pytest.importorskip("gensim")
    pytest.importorskip("matplotlib")  # both from the `bench` extra
    from spacy_seqkit.benchmarks.vectors import run_vectors_benchmark

    text = tmp_path / "text.txt"
    text.write_text("\n".join(synthetic_sentences(3000, seed=0)) + "\n", encoding="utf8")
    rows = run_vectors_benchmark(tmp_path / "out", text=text, dim=16, epochs=2, max_words=30_000, seeds=3)
    assert [r["config"] for r in rows] == ["skipgram ns", "skipgram hs", "cbow ns", "cbow hs"]
    for row in rows:
        assert row["ratio"] > 0
        assert row["ours_sim_acc"] > 0.8
        assert len(row["ours_region_runs"]) == len(row["gensim_region_runs"]) == 3
        assert row["ours_region_acc"] == pytest.approx(numpy.mean(row["ours_region_runs"]))
    data = json.loads((tmp_path / "out" / "vectors_t1.json").read_text())
    assert data["settings"]["corpus"].startswith("file")
    assert (tmp_path / "out" / "vectors_t1.png").is_file()


def test_pretrain_benchmark_gensim_process_tokenises_as_pretrain_vectors(tmp_path):
    """The baseline process reads and tokenises the file as `pretrain-vectors` does, so the
    two vocabularies are the same words."""
    pytest.importorskip("gensim")
    import subprocess

    from spacy_seqkit.benchmarks.pretrain import command
    from spacy_seqkit.vectors import read_corpus, read_texts

    text = tmp_path / "t.txt"
    lines = ["Je veux aller de Saint-Étienne à l'aéroport ,  demain !", "", "  un billet\tpour Lyon-Part-Dieu svp"]
    text.write_text("\ufeff" + "\n".join(lines * 30) + "\n", encoding="utf8")
    settings = {"dim": 8, "epochs": 1, "min_count": 2, "threads": 1, "seed": 0}
    args = command("gensim", text, tmp_path / "g.txt", tmp_path / "g.json", settings)
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    steps = json.loads(done.stdout.strip().splitlines()[-1])
    vocab, _, n_words = read_corpus(read_texts(text), min_count=2)
    assert steps["words"] == n_words and steps["vocab"] == len(vocab)
    words = [line.split(" ")[0] for line in (tmp_path / "g.txt").read_text(encoding="utf8").splitlines()[1:]]
    assert sorted(words) == sorted(vocab.words)


@pytest.mark.slow
def test_pretrain_benchmark_runs_both_processes_end_to_end(tmp_path):
    pytest.importorskip("gensim")
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    text = tmp_path / "text.jsonl"
    rows = [{"text": s} for s in synthetic_sentences(2000, seed=0)]
    text.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf8")
    args = ["benchmark", "pretrain-vectors", str(text), "-o", str(tmp_path / "out"), "--repeats", "2"]
    result = CliRunner().invoke(app, args + ["--epochs", "2", "--threads", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "pretrain_vectors.json").read_text())
    ours, gensim = data["rows"]
    assert (ours["side"], gensim["side"]) == ("spacy_seqkit", "gensim")
    assert ours["same_vocab"] and ours["words"] == gensim["words"] > 15_000
    assert ours["× gensim"] > 0 and len(ours["runs s"]) == 2
    assert ours["sim_acc"] > 0.6 and gensim["sim_acc"] > 0.6  # chance: 0.5
    assert "cpu" in data["environment"] and data["environment"]["cpu_flags"] is not None


def test_pretrain_benchmark_names_the_bad_option(tmp_path):
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    result = CliRunner().invoke(app, ["benchmark", "pretrain-vectors", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2 and "TEXTS" in result.output
    (tmp_path / "t.txt").write_text("un deux\n", encoding="utf8")
    result = CliRunner().invoke(app, ["benchmark", "pretrain-vectors", str(tmp_path / "t.txt"), "--repeats", "0"])
    assert result.exit_code == 2 and "--repeats" in result.output
