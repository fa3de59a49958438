"""Our MaxoutWindowEncoder against spaCy's `spacy.MaxoutWindowEncoder.v2`.

Same docs, same hyperparameters (width 96, depth 4, window 1, pieces 3), same
thread count and device, one run. Every model is built from a config string, the
way a user's `spacy train` builds it. With `attention`, the attention encoder of
the travel project's `ner_attention` config joins them. The passes of each model
take turns (`repeats` rounds of one pass each), so a busy spell of a shared
machine falls on all of them; the best pass of each is kept.
"""

import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from .report import build_model

WIDTH, DEPTH, WINDOW, PIECES = 96, 4, 1, 3
BASELINE = "spacy.MaxoutWindowEncoder.v2"

ENCODER_CONFIGS = {
    BASELINE: f"""
        @architectures = "spacy.MaxoutWindowEncoder.v2"
        width = {WIDTH}
        depth = {DEPTH}
        window_size = {WINDOW}
        maxout_pieces = {PIECES}
    """,
    "spacy-seqkit.MaxoutWindowEncoder.v1": f"""
        @architectures = "spacy-seqkit.MaxoutWindowEncoder.v1"
        width = {WIDTH}
        depth = {DEPTH}
        window_size = {WINDOW}
        maxout_pieces = {PIECES}
        dilation = 1
    """,
    "spacy-seqkit.MaxoutWindowEncoder.v1 (exponential dilation)": f"""
        @architectures = "spacy-seqkit.MaxoutWindowEncoder.v1"
        width = {WIDTH}
        depth = {DEPTH}
        window_size = {WINDOW}
        maxout_pieces = {PIECES}
        dilation = "exponential"
    """,
}
# The encoder of configs/ner_attention.cfg: two maxout window layers, then two blocks
# of full attention.
ATTENTION = "spacy-seqkit.AttentionEncoder.v2 (ner_attention)"
ATTENTION_CONFIG = f"""
    @architectures = "spacy-seqkit.AttentionEncoder.v2"
    width = {WIDTH}
    depth = 2
    n_heads = 4
    ffn_width = {2 * WIDTH}
    attention = "full"
    window = 8
    positions = "sinusoidal"
    max_length = 512
    dropout = 0.1
    attention_dropout = 0.0
    front_depth = 2
    front_window = 1
    front_pieces = 3
"""


def encoder_config(name: str) -> str:
    return ATTENTION_CONFIG if name == ATTENTION else ENCODER_CONFIGS[name]


TOK2VEC_CONFIG = """
[model]
@architectures = "spacy.Tok2Vec.v2"

[model.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = {width}
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [5000, 1000, 2500, 2500]
include_static_vectors = false

[model.encode]
{block}
"""


def doc_lengths(n_docs: int, seed: int) -> List[int]:
    """Sentence-like lengths: mostly 5-40 tokens, a tail up to 120."""
    import numpy

    rng = numpy.random.default_rng(seed)
    lengths = rng.lognormal(mean=2.9, sigma=0.55, size=n_docs).astype(int)
    return [int(n) for n in numpy.clip(lengths, 1, 120)]


def make_vectors(n_docs: int, seed: int):
    import numpy

    rng = numpy.random.default_rng(seed)
    return [rng.standard_normal((n, WIDTH)).astype("float32") for n in doc_lengths(n_docs, seed)]


def make_docs(n_docs: int, seed: int):
    """Docs of made-up words with a Zipf-like frequency profile."""
    import numpy
    import spacy
    from spacy.tokens import Doc

    rng = numpy.random.default_rng(seed)
    vocab_size = 20000
    letters = numpy.array(list("abcdefghijklmnopqrstuvwxyzéèàç"))
    words = ["".join(rng.choice(letters, size=rng.integers(2, 11))) for _ in range(vocab_size)]
    words = [w.capitalize() if i % 7 == 0 else w for i, w in enumerate(words)]
    probs = 1.0 / numpy.arange(1, vocab_size + 1)
    probs /= probs.sum()
    nlp = spacy.blank("fr")
    return [
        Doc(nlp.vocab, words=[words[i] for i in rng.choice(vocab_size, size=n, p=probs)])
        for n in doc_lengths(n_docs, seed)
    ]


def batches(items: List[Any], size: int) -> List[List[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def setup_run(kind: str, name: str, mode: str, n_docs: int, batch_size: int, seed: int, gpu_id: int = -1) -> Callable:
    """Build model and data, return the call to time: a whole pass over the
    docs, either `predict` or training steps (forward + backward + Adam), run once
    already (lazy allocations, kernels loaded or compiled: what a pass adds is
    measured, not the first pass's loading). On a GPU the pass ends when the device
    has finished its work."""
    import numpy
    from thinc.api import Adam, fix_random_seed

    from .report import synchronize, use_device

    use_device(gpu_id)
    fix_random_seed(seed)
    if kind == "encoder":
        model = build_model(encoder_config(name))
        data = [model.ops.asarray2f(x) for x in make_vectors(n_docs, seed)]
    else:
        model, data = build_model(encoder_config(name), TOK2VEC_CONFIG, width=WIDTH), make_docs(n_docs, seed)
    model.initialize(X=data[:10])
    groups = batches(data, batch_size)
    if mode == "predict":

        def predict_pass() -> None:
            for group in groups:
                model.predict(group)
            synchronize(gpu_id)

        predict_pass()
        return predict_pass
    optimizer = Adam(0.001)
    rng = numpy.random.default_rng(seed + 1)
    grads = [[model.ops.asarray2f(rng.standard_normal((len(x), WIDTH)).astype("f") * 0.01) for x in g] for g in groups]

    def train_pass() -> None:
        for group, dYs in zip(groups, grads):
            _, backprop = model.begin_update(group)
            backprop(dYs)
            model.finish_update(optimizer)
        synchronize(gpu_id)

    train_pass()
    return train_pass


def run_encoder_benchmark(
    out_dir: Path,
    threads: int,
    n_docs: int,
    batch_size: int,
    repeats: int,
    seed: int,
    gpu_id: int = -1,
    attention: bool = False,
) -> List[Dict[str, Any]]:
    from wasabi import msg

    from .report import describe_machine, environment, peak_memory, print_table, use_device, write_results, wrote

    n_words = sum(doc_lengths(n_docs, seed))
    device = use_device(gpu_id)
    env = environment(threads, device)
    msg.info(describe_machine(env))
    msg.info(
        f"{n_docs} docs, {n_words} words, batches of {batch_size} docs, threads={threads}, "
        f"device={device}, best of {repeats} passes in turn"
    )
    names = list(ENCODER_CONFIGS) + ([ATTENTION] if attention else [])
    rows: List[Dict[str, Any]] = []
    runs: Dict[Any, Any] = {}
    for kind in ("encoder", "tok2vec"):
        for name in names:
            row: Dict[str, Any] = {"model": name if kind == "encoder" else f"tok2vec + {name}", "kind": kind}
            rows.append(row)
            for mode in ("predict", "train"):
                run = setup_run(kind, name, mode, n_docs, batch_size, seed, gpu_id)
                runs[(len(rows) - 1, mode)] = (run, [])
                row[f"{mode} peak MiB"] = peak_memory(
                    setup_run, kind, name, mode, n_docs, batch_size, seed, gpu_id, threads=threads, gpu_id=gpu_id
                )
    for _ in range(repeats):
        for run, times in runs.values():
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
    for (i, mode), (_, times) in runs.items():
        rows[i][f"{mode} words/s"] = n_words / min(times)
        rows[i][f"{mode} spread"] = max(times) / min(times)
    for row in rows:
        base = next(r for r in rows if r["kind"] == row["kind"] and r["model"].endswith(BASELINE))
        row["predict ×"] = row["predict words/s"] / base["predict words/s"]
        row["train ×"] = row["train words/s"] / base["train words/s"]
    columns = [
        "model",
        "predict words/s",
        "predict ×",
        "train words/s",
        "train ×",
        "predict peak MiB",
        "train peak MiB",
    ]
    print_table(f"Encoders against {BASELINE} (threads={threads}, {device})", rows, columns)
    targets = {"encoder": {"predict ×": 3.0, "train ×": 2.5}, "tok2vec": {"predict ×": 2.0, "train ×": 2.0}}
    for kind, wanted in targets.items():
        ours = next(r for r in rows if r["kind"] == kind and r["model"].endswith("MaxoutWindowEncoder.v1"))
        for key, target in wanted.items():
            ok = ours[key] >= target
            (msg.good if ok else msg.warn)(
                f"{ours['model']}: {key[:-2]} speed-up {ours[key]:.2f}× (target ≥ {target}×)"
            )
    json_path = write_results(
        out_dir,
        "encoders" if gpu_id < 0 else "encoders_gpu",
        rows,
        env,
        extra={"n_docs": n_docs, "n_words": n_words, "batch_size": batch_size, "targets": targets},
    )
    png_path = plot(rows, out_dir, threads, device, "encoders" if gpu_id < 0 else "encoders_gpu")
    msg.good(wrote(json_path, png_path))
    return rows


def plot(rows: List[Dict[str, Any]], out_dir: Path, threads: int, device: str, name: str) -> Optional[Path]:
    from .report import save_plot

    def draw(ax_speed, ax_mem) -> None:
        labels = [
            r["model"]
            .replace("spacy-seqkit.", "seqkit.")
            .replace(" (exponential dilation)", "\n(exp. dilation)")
            .replace(" (ner_attention)", "\n(ner_attention)")
            for r in rows
        ]
        y = range(len(rows))
        h = 0.4
        ax_speed.barh([i - h / 2 for i in y], [r["predict words/s"] for r in rows], h, label="predict")
        ax_speed.barh([i + h / 2 for i in y], [r["train words/s"] for r in rows], h, label="train step")
        ax_speed.set_xlabel("words / second (higher is better)")
        ax_speed.set_title(f"Speed, {device if device != 'cpu' else f'{threads} thread(s)'}")
        ax_mem.barh([i - h / 2 for i in y], [r["predict peak MiB"] for r in rows], h, label="predict")
        ax_mem.barh([i + h / 2 for i in y], [r["train peak MiB"] for r in rows], h, label="train step")
        ax_mem.set_xlabel("peak memory added, MiB (lower is better)")
        ax_mem.set_title("Memory")
        for ax in (ax_speed, ax_mem):
            ax.set_yticks(list(y))
            ax.set_yticklabels(labels, fontsize=7)
            ax.invert_yaxis()
            ax.legend(fontsize=8)
        ax_mem.set_yticklabels([])

    return save_plot(out_dir, name, draw, 2, width=7.5, height=4.5)
