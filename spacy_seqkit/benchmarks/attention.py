"""Attention encoder (full, local, linear) against the maxout window encoder.

Part 1, the encoder alone: words/s of `predict` and the peak memory one call
adds, at sequence lengths 8 ... 8192 with the same number of tokens per batch
(so 1024 docs of 8 tokens, ..., 1 doc of 8192), same width and depth.
Part 2, whole pipelines: `ner_maxout` vs `ner_attention` (MultiHashEmbed width
96 + encoder + ner) running `nlp.pipe` on short (≤ 32 tokens) travel requests.
Every model is built from a config string, as `spacy train` builds it.
"""

from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from .report import build_model, config_lines

WIDTH, DEPTH = 96, 4
BASELINE = "maxout"
LENGTHS = (8, 32, 128, 512, 2048, 8192)

ENCODER_CONFIGS = {
    "maxout": f"""
        @architectures = "spacy-seqkit.MaxoutWindowEncoder.v1"
        width = {WIDTH}
        depth = {DEPTH}
        window_size = 1
        maxout_pieces = 3
    """,
    **{
        f"attention {mode}": f"""
        @architectures = "spacy-seqkit.AttentionEncoder.v1"
        width = {WIDTH}
        depth = {DEPTH}
        n_heads = 4
        ffn_width = {2 * WIDTH}
        attention = "{mode}"
        window = 8
        positions = "sinusoidal"
        dropout = 0.1
        """
        for mode in ("full", "local", "linear")
    },
}
# Reference row: full attention forced onto SDPA's plain "math" kernel, which
# materializes the n×n scores as a naive implementation would. The default
# fused CPU/GPU kernels keep full attention's memory linear in n.
MATH_KERNEL = "attention full (math kernel)"
ENCODER_CONFIGS[MATH_KERNEL] = ENCODER_CONFIGS["attention full"]

PIPELINE_CONFIG = """
[nlp]
lang = "fr"
pipeline = ["tok2vec", "ner"]

[components]

[components.tok2vec]
factory = "tok2vec"

[components.tok2vec.model]
@architectures = "spacy.Tok2Vec.v2"

[components.tok2vec.model.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = {width}
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [5000, 1000, 2500, 2500]
include_static_vectors = false

[components.tok2vec.model.encode]
{encoder}

[components.ner]
factory = "ner"

[components.ner.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "ner"
extra_state_tokens = false
hidden_width = 64
maxout_pieces = 2
use_upper = true

[components.ner.model.tok2vec]
@architectures = "spacy.Tok2VecListener.v1"
width = {width}
upstream = "*"
"""

# A few real French places and made-up request patterns: enough for `ner` to
# see its labels at initialization; the timing does not depend on the words.
PLACES = [
    "Paris",
    "Marseille",
    "Lyon",
    "Toulouse",
    "Nantes",
    "Brest",
    "Lille",
    "Rennes",
    "Bordeaux",
    "Grenoble",
    "Dijon",
    "Angers",
    "Nîmes",
    "Metz",
    "Tours",
    "Pau",
]
PATTERNS = [
    "Je voudrais un billet de {a} à {b}",
    "Comment aller de {a} jusqu'à {b} demain matin ?",
    "Bonjour , je pars de {a} pour rejoindre {b} vendredi",
    "Y a-t-il un train entre {a} et {b} ce soir après le travail ?",
    "Mon amie et moi cherchons le trajet le plus rapide depuis {a} vers {b} pour le "
    "week-end prochain , avec deux valises et un vélo",
]


def setup_encoder_run(name: str, length: int, n_tokens: int, seed: int, gpu_id: int = -1) -> Callable[[], Any]:
    """Build the encoder and a batch of n_tokens // length docs of `length`
    tokens; return one `predict` over the batch, already warmed up (on a GPU, it
    returns once the device has finished)."""
    import numpy
    from thinc.api import fix_random_seed

    from .report import synchronize, use_device

    use_device(gpu_id)
    fix_random_seed(seed)
    model = build_model(ENCODER_CONFIGS[name])
    rng = numpy.random.default_rng(seed)
    n_docs = max(n_tokens // length, 1)
    docs = [model.ops.asarray2f(rng.standard_normal((length, WIDTH)).astype("float32")) for _ in range(n_docs)]
    model.initialize(X=docs[:2])

    def run() -> Any:
        if name != MATH_KERNEL:
            Ys = model.predict(docs)
        else:
            from torch.nn.attention import SDPBackend, sdpa_kernel

            with sdpa_kernel([SDPBackend.MATH]):
                Ys = model.predict(docs)
        synchronize(gpu_id)
        return Ys

    run()  # warm-up on the real batch: lazy allocations are not the call's cost
    return run


def make_requests(nlp, n_docs: int, seed: int):
    """Travel requests of 8 to 32 tokens, as Docs, with DEPART / ARRIVEE spans."""
    import random

    from spacy.tokens import Span

    rng = random.Random(seed)
    docs = []
    for _ in range(n_docs):
        a, b = rng.sample(PLACES, 2)
        pattern = rng.choice(PATTERNS)
        text = pattern.format(a=a, b=b)
        doc = nlp.make_doc(text)
        spans = []
        for place, label in ((a, "DEPART"), (b, "ARRIVEE")):
            start = text.index(place)
            spans.append(doc.char_span(start, start + len(place), label=label))
        doc.ents = [s for s in spans if isinstance(s, Span)]
        docs.append(doc)
    return docs


def build_pipeline(name: str, seed: int):
    from spacy.training import Example
    from spacy.util import load_model_from_config
    from thinc.api import Config, fix_random_seed

    fix_random_seed(seed)
    encoder = config_lines(ENCODER_CONFIGS[name])
    config = Config().from_str(PIPELINE_CONFIG.format(width=WIDTH, encoder=encoder))
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    gold = make_requests(nlp, 20, seed)
    examples = [Example(nlp.make_doc(doc.text), doc) for doc in gold]
    nlp.initialize(lambda: examples)
    return nlp


def run_attention_benchmark(
    out_dir: Path,
    threads: int,
    n_tokens: int,
    lengths: Sequence[int],
    n_pipeline_docs: int,
    repeats: int,
    seed: int,
    gpu_id: int = -1,
) -> Dict[str, List[Dict[str, Any]]]:
    from wasabi import msg

    from .report import (
        best_time,
        describe_machine,
        environment,
        peak_memory,
        print_table,
        use_device,
        write_results,
        wrote,
    )

    env = environment(threads, use_device(gpu_id))
    msg.info(describe_machine(env))
    msg.info(
        f"{n_tokens} tokens per batch, lengths {list(lengths)}, width {WIDTH}, depth {DEPTH}, "
        f"threads={threads}, device={env['device']}, best of {repeats}"
    )
    rows: List[Dict[str, Any]] = []
    for length in lengths:
        for name in ENCODER_CONFIGS:
            run = setup_encoder_run(name, length, n_tokens, seed, gpu_id)
            words = max(n_tokens // length, 1) * length
            seconds = best_time(run, repeats=repeats, warmup=0)
            mib = peak_memory(setup_encoder_run, name, length, n_tokens, seed, gpu_id, threads=threads, gpu_id=gpu_id)
            rows.append({"encoder": name, "length": length, "words/s": words / seconds, "peak MiB": mib})
            del run
    for row in rows:
        base = next(r for r in rows if r["length"] == row["length"] and r["encoder"] == BASELINE)
        full = next(r for r in rows if r["length"] == row["length"] and r["encoder"] == "attention full")
        row[f"× {BASELINE}"] = row["words/s"] / base["words/s"]
        row["× full (speed)"] = row["words/s"] / full["words/s"]
        math = next(r for r in rows if r["length"] == row["length"] and r["encoder"] == MATH_KERNEL)
        row["full mem ÷ this"] = full["peak MiB"] / max(row["peak MiB"], 1e-3)
        row["math mem ÷ this"] = math["peak MiB"] / max(row["peak MiB"], 1e-3)
    print_table(
        f"Encoders alone, predict, {n_tokens} tokens per batch (threads={threads}, {env['device']})",
        rows,
        [
            "encoder",
            "length",
            "words/s",
            f"× {BASELINE}",
            "× full (speed)",
            "peak MiB",
            "full mem ÷ this",
            "math mem ÷ this",
        ],
    )
    pipe_rows = run_pipeline_rows(n_pipeline_docs, repeats, seed, best_time, gpu_id)
    print_table(
        f"Pipelines (tok2vec + ner), nlp.pipe on {n_pipeline_docs} requests of ≤ 32 tokens (threads={threads})",
        pipe_rows,
        ["pipeline", "words/s", "× ner_maxout"],
    )
    check_targets(rows, pipe_rows, max(lengths))
    extra = {"n_tokens": n_tokens, "pipelines": pipe_rows, "width": WIDTH, "depth": DEPTH}
    name = "attention" if gpu_id < 0 else "attention_gpu"
    json_path = write_results(out_dir, name, rows, env, extra=extra)
    png_path = plot(rows, out_dir, threads, n_tokens, name)
    msg.good(wrote(json_path, png_path))
    return {"encoders": rows, "pipelines": pipe_rows}


def run_pipeline_rows(n_docs: int, repeats: int, seed: int, best_time, gpu_id: int = -1) -> List[Dict[str, Any]]:
    from .report import synchronize

    rows = []
    for name in ENCODER_CONFIGS:
        if name == MATH_KERNEL:
            continue
        nlp = build_pipeline(name, seed)
        texts = [doc.text for doc in make_requests(nlp, n_docs, seed + 1)]
        n_words = sum(len(nlp.make_doc(t)) for t in texts)

        def pipe(nlp=nlp, texts=texts) -> None:
            list(nlp.pipe(texts, batch_size=256))
            synchronize(gpu_id)

        seconds = best_time(pipe, repeats=repeats)
        label = "ner_maxout" if name == BASELINE else f"ner_{name.replace(' ', '_')}"
        rows.append(
            {"pipeline": label, "words/s": n_words / seconds, "max tokens": max(len(nlp.make_doc(t)) for t in texts)}
        )
    for row in rows:
        row["× ner_maxout"] = row["words/s"] / rows[0]["words/s"]
    return rows


def check_targets(rows, pipe_rows, longest: int) -> None:
    """Say plainly which of the issue's targets this run meets."""
    from wasabi import msg

    at_longest = {r["encoder"]: r for r in rows if r["length"] == longest}
    for name in ("attention local", "attention linear"):
        row = at_longest.get(name)
        if row is None:
            continue
        for key, target, what in (
            ("× full (speed)", 4.0, "faster than full"),
            ("full mem ÷ this", 8.0, "less memory than full"),
            ("math mem ÷ this", 8.0, "less memory than full on the math kernel"),
        ):
            ok = row[key] >= target
            (msg.good if ok else msg.warn)(f"{name} at {longest} tokens: {row[key]:.2f}× {what} (target ≥ {target}×)")
    for row in pipe_rows[1:]:
        ok = row["× ner_maxout"] >= 0.5
        (msg.good if ok else msg.warn)(
            f"{row['pipeline']}: {row['× ner_maxout']:.2f}× ner_maxout's words/s (target ≥ 0.5×)"
        )


def plot(rows: List[Dict[str, Any]], out_dir: Path, threads: int, n_tokens: int, name: str) -> Optional[Path]:
    from .report import save_plot

    def draw(ax_speed, ax_mem) -> None:
        for name in ENCODER_CONFIGS:
            own = [r for r in rows if r["encoder"] == name]
            x = [r["length"] for r in own]
            ax_speed.plot(x, [r["words/s"] for r in own], marker="o", label=name)
            ax_mem.plot(x, [max(r["peak MiB"], 0.1) for r in own], marker="o", label=name)
        ax_speed.set_ylabel("words / second (higher is better)")
        ax_speed.set_title(f"Predict speed, {n_tokens} tokens per batch, {threads} thread(s)")
        ax_mem.set_ylabel("peak memory added by one call, MiB")
        ax_mem.set_title("Memory")
        for ax in (ax_speed, ax_mem):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("tokens per doc")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)

    return save_plot(out_dir, name, draw, 2, width=6.0, height=4.5)
