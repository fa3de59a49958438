"""Decoding and output-layer speed of the seq2seq rewriters.

1. One trained model, the same inputs: the naive beam search (one decoder call
   per hypothesis, a bounded priority queue per step; the reference) against
   our batched beam search (one decoder call per step for batch × beam), both
   at beam 5, and greedy decoding. The two beam searches must give the same
   n-best lists; sentences/s of each.
2. The Transformer rewriter's batched beam search with its key/value cache
   against recomputing the whole prefix at every step (identical n-best
   lists), and the recurrent rewriter's, at fixed target lengths (20 and 80
   units: the end marker is forbidden until then, so every hypothesis has
   that length and the cost of the length is what is measured).
3. Training words/s (target words) of the output layers (full softmax,
   negative sampling, hierarchical softmax) as the target vocabulary grows to
   20,000 words.

The models are trained here on a small synthetic rewriting task (requests
between invented place names -> "A > B" or "INVALID"), unless `model_path`
(and `transformer_path`) name spaCy pipelines with a `seqkit_rewriter`.
"""

import random
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

SYLLABLES = ["ba", "ro", "mi", "lan", "ter", "vo", "ni", "sa", "gue", "pol", "den", "ru", "chi", "vel", "mar"]
TEMPLATES = [
    ("je vais de {a} a {b}", True),
    ("un billet {a} {b} svp", True),
    ("pour aller a {b} depuis {a}", True),
    ("trajet de {a} vers {b} demain", True),
    ("bonjour je cherche {a}", False),
    ("quel temps fait il a {a}", False),
]
N_BEST = 5
# The Transformer of the synthetic task: the sizes of configs/rewriter_transformer.cfg.
TRANSFORMER = {
    "@architectures": "spacy-seqkit.TransformerRewriter.v1",
    **dict(width=128, encoder_depth=3, decoder_depth=2, n_heads=4, ffn_width=512, dropout=0.0, label_smoothing=0.0),
}
TARGET_LENGTHS = (20, 80)


def synthetic_requests(n: int, seed: int) -> Tuple[List[str], List[str]]:
    """Travel-like requests with invented names, and their canonical rewrites."""
    rng = random.Random(seed)

    def name() -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))

    texts, rewrites = [], []
    for _ in range(n):
        template, valid = rng.choice(TEMPLATES)
        a, b = name(), name()
        texts.append(template.format(a=a, b=b))
        rewrites.append(f"{a.capitalize()} > {b.capitalize()}" if valid else "INVALID")
    return texts, rewrites


def train_char_model(
    n_steps: int, seed: int, batch_size: int = 32, model: Optional[Dict[str, Any]] = None, learn_rate: float = 0.005
):
    """A small character rewriter trained on the synthetic task (`model`: the
    architecture's settings; by default a recurrent rewriter)."""
    import spacy
    from thinc.api import fix_random_seed

    from ..readers import rewrite_example

    fix_random_seed(seed)
    nlp = spacy.blank("fr")
    nlp.add_pipe(
        "seqkit_rewriter",
        config={
            "model": model or {"embed_width": 32, "hidden_width": 96, "dropout": 0.0, "label_smoothing": 0.0},
            "beam_size": 5,
            "n_best": N_BEST,
        },
    )
    texts, rewrites = synthetic_requests(2000, seed)
    examples = [rewrite_example(nlp, text, rewrite) for text, rewrite in zip(texts, rewrites)]
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = learn_rate
    rng = random.Random(seed)
    loss = 0.0
    for _ in range(n_steps):
        batch = rng.sample(examples, batch_size)
        loss = nlp.update(batch, sgd=optimizer)["seqkit_rewriter"]
    return nlp, loss


def same_nbest(a: Sequence, b: Sequence, tol: float = 1e-4) -> bool:
    return len(a) == len(b) and all(ha == hb and abs(sa - sb) <= tol for (ha, sa), (hb, sb) in zip(a, b))


def decode_all(model, docs, batch_size: int, **kwargs) -> List:
    from ..layers.seq2seq import predict_rewrites

    out: List = []
    for start in range(0, len(docs), batch_size):
        out.extend(predict_rewrites(model, docs[start : start + batch_size], **kwargs))
    return out


def decode_fixed_length(model, docs, length: int, beam_size: int, batch_size: int, use_cache: bool = True) -> List:
    """Batched beam search (n-best = beam) where every hypothesis has `length`
    units: the end marker is forbidden before that."""
    import torch

    from ..layers.decoding import beam_search_or_greedy, build_length_penalty
    from ..layers.seq2seq import start_search, torch_module
    from ..layers.seq2seq.units import BOS, EOS

    module = torch_module(model)
    module.eval()
    out: List = []

    def step_without_end(step):
        def run(tokens, state):
            log_probs, state = step(tokens, state)
            return log_probs.index_fill(1, torch.tensor([EOS]), float("-inf")), state

        return run

    with torch.no_grad():
        for first in range(0, len(docs), batch_size):
            start = start_search(model, docs[first : first + batch_size], use_cache)
            out.extend(
                beam_search_or_greedy(
                    step_without_end(start.step),
                    module.reorder,
                    start.state,
                    [length] * len(start.todo),
                    bos=BOS,
                    eos=EOS,
                    beam_size=beam_size,
                    n_best=beam_size,
                    length_penalty=build_length_penalty("gnmt", 0.6),
                )
            )
    return out


def cache_rows(
    models: Dict[str, Any], docs, lengths: Sequence[int], beam_size: int, batch_size: int, repeats: int
) -> List[Dict[str, Any]]:
    """sentences/s of batched beam search at each target length: the
    Transformer with its cache and recomputing the prefix (same n-best), the
    recurrent rewriter."""
    from .report import best_time

    rows = []
    for length in lengths:
        found: Dict[str, List] = {}

        def timed(name, model, use_cache, n_repeats, found=found, length=length):
            def run():
                found[name] = decode_fixed_length(model, docs, length, beam_size, batch_size, use_cache)

            seconds = best_time(run, repeats=n_repeats, warmup=0)
            rows.append(
                {"decoder": name, "target length": length, "sentences/s": len(docs) / seconds, "seconds": seconds}
            )
            return rows[-1]

        cached = timed("transformer, key/value cache", models["transformer"], True, repeats)
        recomputed = timed("transformer, prefix recomputed", models["transformer"], False, 1)
        timed("recurrent (LSTM)", models["recurrent"], True, repeats)
        same = sum(
            same_nbest(a, b)
            for a, b in zip(found["transformer, key/value cache"], found["transformer, prefix recomputed"])
        )
        cached["identical n-best"] = f"{same}/{len(docs)}"
        for row in rows[-3:]:
            row["× recomputed"] = row["sentences/s"] / recomputed["sentences/s"]
    return rows


def output_layer_rows(vocab_sizes: Sequence[int], threads: int, repeats: int, seed: int) -> List[Dict[str, Any]]:
    """Training words/s of each output layer on Zipf-distributed word targets."""
    import numpy
    import spacy
    from thinc.api import Adam, fix_random_seed

    from ..architectures import build_seq2seq_rewriter_v1
    from ..benchmarks.report import best_time
    from ..layers.output_layers import OUTPUT_LAYERS
    from ..layers.seq2seq import RewriteBatch

    nlp = spacy.blank("fr")
    rows: List[Dict[str, Any]] = []
    n_seqs, seq_len = 64, 20
    for vocab_size in vocab_sizes:
        rng = numpy.random.default_rng(seed)
        words = [f"w{i}" for i in range(vocab_size)]
        # Zipf over the vocabulary, every word seen at least once so the
        # vocabulary is the full `vocab_size`.
        ranks = numpy.arange(1, vocab_size + 1)
        probs = (1.0 / ranks) / (1.0 / ranks).sum()
        corpus = [" ".join(words)] + [
            " ".join(words[i] for i in rng.choice(vocab_size, seq_len, p=probs)) for _ in range(n_seqs)
        ]
        sources = ["".join(rng.choice(list("abcdefgh"), 20)) for _ in corpus]
        docs = [nlp.make_doc(s) for s in sources]
        batch = RewriteBatch(docs[1:], corpus[1:])
        n_words = n_seqs * (seq_len + 1)  # EOS is a predicted unit too
        for kind in OUTPUT_LAYERS:
            fix_random_seed(seed)
            model = build_seq2seq_rewriter_v1(
                target="words",
                embed_width=64,
                hidden_width=128,
                dropout=0.0,
                output_layer=kind,
                n_samples=25,
                max_vocab=vocab_size + 4,
            )
            model.initialize(X=docs, Y=corpus)
            optimizer = Adam(0.001)

            def step(model=model, batch=batch, optimizer=optimizer):
                loss, backprop = model.begin_update(batch)
                backprop(model.ops.xp.ones_like(loss))
                model.finish_update(optimizer)

            seconds = best_time(step, repeats=repeats)
            rows.append(
                {
                    "vocab size": vocab_size,
                    "output layer": kind,
                    "train words/s": n_words / seconds,
                    "ms/step": seconds * 1000,
                }
            )
    for row in rows:
        base = next(r for r in rows if r["vocab size"] == row["vocab size"] and r["output layer"] == "softmax")
        row["× softmax"] = row["train words/s"] / base["train words/s"]
    return rows


def run_decoding_benchmark(
    out_dir: Path,
    threads: int,
    n_sentences: int = 200,
    beam_size: int = 5,
    batch_size: int = 64,
    train_steps: int = 300,
    vocab_sizes: Sequence[int] = (1000, 5000, 20000),
    repeats: int = 3,
    seed: int = 0,
    model_path: Optional[Path] = None,
    data_path: Optional[Path] = None,
    transformer_path: Optional[Path] = None,
    target_lengths: Sequence[int] = TARGET_LENGTHS,
    n_cache_sentences: int = 64,
) -> Dict[str, Any]:
    from wasabi import msg

    from ..layers.output_layers import OUTPUT_LAYERS
    from .report import best_time, environment, print_table, rewriter_model, save_plot, write_results, wrote

    env = environment(threads)
    start = time.perf_counter()
    if (model_path is None) != (transformer_path is None):
        raise ValueError("--model and --transformer-model go together (or neither: synthetic models)")
    if model_path is not None and transformer_path is not None:
        import spacy
        import srsly

        nlp, transformer_nlp = spacy.load(model_path), spacy.load(transformer_path)
        if data_path is None:
            raise ValueError("--data is needed with --model: a JSONL file with a 'text' field")
        texts = [r["text"] for r in srsly.read_jsonl(data_path)][:n_sentences]
        final_loss = transformer_loss = None
    else:
        nlp, final_loss = train_char_model(train_steps, seed)
        transformer_nlp, transformer_loss = train_char_model(train_steps, seed, model=TRANSFORMER, learn_rate=0.001)
        texts, _ = synthetic_requests(n_sentences, seed + 1)
    msg.info(
        f"Models ready in {time.perf_counter() - start:.0f}s (final training losses: recurrent "
        f"{final_loss}, transformer {transformer_loss})"
    )
    model = rewriter_model(nlp)
    docs = [nlp.make_doc(t) for t in texts]
    common = dict(length_penalty="gnmt", length_alpha=0.6, max_length_ratio=2.0, max_length_extra=10)
    beam = dict(beam_size=beam_size, n_best=min(N_BEST, beam_size), **common)

    results: Dict[str, Any] = {}

    def timed(name, search, kwargs, n_repeats) -> Dict[str, Any]:
        holder = {}

        def run():
            holder["out"] = decode_all(model, docs, batch_size, search=search, **kwargs)

        seconds = best_time(run, repeats=n_repeats, warmup=0)
        results[name] = holder["out"]
        return {"decoder": name, "beam": kwargs["beam_size"], "sentences/s": len(docs) / seconds, "seconds": seconds}

    rows = [
        timed("naive beam search (reference)", "naive_beam", beam, 1),
        timed("batched beam search", "beam", beam, repeats),
        timed("greedy", "greedy", dict(beam_size=1, n_best=1, **common), repeats),
    ]
    naive, batched = results["naive beam search (reference)"], results["batched beam search"]
    n_same = sum(same_nbest(a, b) for a, b in zip(naive, batched))
    n_same_top = sum(a[0][0] == b[0][0] for a, b in zip(naive, batched))
    greedy_agrees = sum(g[0][0] == b[0][0] for g, b in zip(results["greedy"], batched))
    base = rows[0]["sentences/s"]
    for row in rows:
        row["× naive"] = row["sentences/s"] / base
    rows[1]["identical n-best"] = f"{n_same}/{len(docs)}"
    rows[2]["same top-1 as beam"] = f"{greedy_agrees}/{len(docs)}"
    print_table(
        f"Decoding {len(docs)} sentences (threads={threads}, batch {batch_size})",
        rows,
        ["decoder", "beam", "sentences/s", "× naive", "identical n-best", "same top-1 as beam"],
    )
    speedup = rows[1]["× naive"]
    (msg.good if speedup >= 5 else msg.warn)(f"batched vs naive: {speedup:.1f}× (target ≥ 5×)")
    identical = f"identical n-best lists: {n_same}/{len(docs)} (top-1: {n_same_top}/{len(docs)})"
    msg.good(identical) if n_same == len(docs) else msg.fail(identical)

    cache_docs = docs[:n_cache_sentences]
    models = {"transformer": rewriter_model(transformer_nlp), "recurrent": model}
    length_rows = cache_rows(models, cache_docs, target_lengths, beam_size, batch_size, repeats)
    print_table(
        f"Batched beam search (beam {beam_size}) at fixed target lengths, {len(cache_docs)} sentences "
        f"(threads={threads}, batch {batch_size})",
        length_rows,
        ["decoder", "target length", "sentences/s", "× recomputed", "identical n-best"],
    )
    longest = max(target_lengths)
    cache_speedup = next(
        r["× recomputed"] for r in length_rows if r["target length"] == longest and r["decoder"].endswith("cache")
    )
    cache_same = all(
        r["identical n-best"].split("/")[0] == r["identical n-best"].split("/")[1]
        for r in length_rows
        if "identical n-best" in r
    )
    (msg.good if cache_speedup >= 3 else msg.warn)(
        f"cache vs recomputed prefix at length {longest}: {cache_speedup:.1f}× (target ≥ 3×)"
    )
    identical = f"identical n-best with and without the cache: {cache_same}"
    msg.good(identical) if cache_same else msg.fail(identical)

    layer_rows = output_layer_rows(vocab_sizes, threads, repeats, seed)
    print_table(
        f"Training words/s by output layer (threads={threads}, 64 × 20 target words per step)",
        layer_rows,
        ["vocab size", "output layer", "train words/s", "× softmax", "ms/step"],
    )
    examples = [{"text": t, "rewrite": b[0][0]} for t, b in list(zip(texts, batched))[:5]]
    json_path = write_results(
        out_dir,
        "decoding",
        rows,
        env,
        extra={
            "output_layers": layer_rows,
            "target_lengths": length_rows,
            "cache_speedup": cache_speedup,
            "target_cache_speedup": 3.0,
            "final_transformer_loss": transformer_loss,
            "n_sentences": len(docs),
            "beam_size": beam_size,
            "identical_nbest": n_same,
            "identical_top1": n_same_top,
            "batched_speedup": speedup,
            "target_speedup": 5.0,
            "final_training_loss": final_loss,
            "examples": examples,
        },
    )

    def draw(ax1, ax2, ax3) -> None:
        ax1.bar([r["decoder"].replace(" (reference)", "\n(reference)") for r in rows], [r["sentences/s"] for r in rows])
        ax1.set_ylabel("sentences / s")
        ax1.set_title(f"Decoding, beam {beam_size} (threads={threads})")
        for name in dict.fromkeys(r["decoder"] for r in length_rows):
            pts = [(r["target length"], r["sentences/s"]) for r in length_rows if r["decoder"] == name]
            ax3.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
        ax3.set_xlabel("target length (units)")
        ax3.set_ylabel("sentences / s")
        ax3.set_yscale("log")
        ax3.set_title(f"Beam {beam_size} by target length")
        ax3.legend()
        for kind in OUTPUT_LAYERS:
            pts = [(r["vocab size"], r["train words/s"]) for r in layer_rows if r["output layer"] == kind]
            ax2.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=kind)
        ax2.set_xscale("log")
        ax2.set_xlabel("target vocabulary size")
        ax2.set_ylabel("training target words / s")
        ax2.set_title("Output layers")
        ax2.legend()

    msg.info(wrote(json_path, save_plot(out_dir, "decoding", draw, 3)))
    return {"rows": rows, "target_lengths": length_rows, "output_layers": layer_rows}
