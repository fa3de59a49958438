"""`pretrain-vectors` against gensim as whole processes: what a user waits for.

Each side is one process on the same text file, timed from its start to its exit: our
`python -m spacy_seqkit pretrain-vectors TEXT OUT.txt`, and gensim_pretrain.py, a script
that reads the file, tokenises each line with a blank spaCy tokenizer as we do, trains
gensim's `Word2Vec` with the same settings and threads and writes word2vec's text format.
Both pay their start, imports, reading and tokenising, training and writing. The runs
alternate (ours then gensim's, then the other way round) `repeats` times, so a busy
spell of a shared machine falls on both; the table gives each side's median wall time,
its spread (min-max), the CPU seconds and peak resident memory of the process (from
wait4), and the seconds of each step as the process reports them, the rest (start,
imports, exit) being the wall time they leave.

Quality, from the outputs of the first two runs a side: both vocabularies must be the
same words (same tokenising, same counts); sim_acc is the similarity check of `benchmark
vectors` (a word closer to one of its own group than to another group's, over the groups
found in the text); nn_agree is the overlap of the 10 nearest neighbours of the 300 most
frequent words between our vectors and gensim's, beside nn_ref, the same between two
gensim runs, and nn_ours, between two of ours (run k of each side has seed `seed + k`).
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import numpy

SIDES = ("spacy_seqkit", "gensim")


def plain_text(path: Path, out_dir: Path) -> Path:
    """The text as both processes read it: one text a line. A .jsonl file (a "text"
    field per record, as the travel corpus) becomes a .txt file in out_dir; a text
    file is used as it is."""
    if path.suffix != ".jsonl":
        return path
    from ..vectors import read_texts

    target = out_dir / f"{path.parent.name}_{path.stem}.txt"
    with target.open("w", encoding="utf8") as f:
        for text in read_texts(path):
            f.write(" ".join(text.split("\n")).strip() + "\n")
    return target


def command(side: str, text: Path, output: Path, timings: Path, settings: Dict[str, Any]) -> List[str]:
    options = [
        f"--{name.replace('_', '-')}={value}"
        for name, value in settings.items()
        if name in ("model", "loss", "dim", "window", "negative", "min_count", "sample", "epochs", "threads", "seed")
    ]
    if side == "gensim":
        script = Path(__file__).with_name("gensim_pretrain.py")
        return [sys.executable, str(script), str(text), str(output), *options]
    return [sys.executable, "-m", "spacy_seqkit", "pretrain-vectors", str(text), str(output), *options] + [
        "--timings",
        str(timings),
    ]


def run_process(args: List[str], timings: Path) -> Dict[str, Any]:
    """Run one process to its exit: its wall seconds, CPU seconds (user + system) and peak
    resident memory (wait4), and the seconds of its steps (our --timings file, gensim's
    last line of output)."""
    out, err = timings.with_suffix(".out"), timings.with_suffix(".err")
    with out.open("wb") as stdout, err.open("wb") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        tail = err.read_text(encoding="utf8", errors="replace")[-2000:]
        raise RuntimeError(f"{' '.join(args[:5])} ... failed ({process.returncode}):\n{tail}")
    report = timings if timings.exists() else None
    text = report.read_text(encoding="utf8") if report else out.read_text(encoding="utf8").strip().splitlines()[-1]
    return {
        "wall s": wall,
        "cpu s": usage.ru_utime + usage.ru_stime,
        "peak MiB": usage.ru_maxrss / 1024,
        **json.loads(text),
    }


def run_pretrain_benchmark(
    texts: Sequence[Path],
    out_dir: Path,
    threads: int = 2,
    repeats: int = 3,
    settings: Optional[Dict[str, Any]] = None,
) -> List[Dict[str, Any]]:
    from wasabi import msg

    from .report import cpu_info, describe_machine, print_table, save_plot, write_results, wrote

    settings = {
        "model": "skipgram",
        "loss": "ns",
        "dim": 100,
        "window": 5,
        "negative": 5,
        "min_count": 5,
        "sample": 1e-3,
        "epochs": 5,
        "seed": 0,
        **(settings or {}),
        "threads": threads,
    }
    env = {**cpu_info(), "python": sys.version.split()[0], "gensim": _version("gensim"), "spacy": _version("spacy")}
    msg.info(describe_machine(env))
    msg.info(
        f"{settings['model']} {settings['loss']}, dim {settings['dim']}, {settings['epochs']} epochs, "
        f"min count {settings['min_count']}, {threads} threads, {repeats} runs a side in turn"
    )
    work = out_dir / "pretrain_runs"
    work.mkdir(parents=True, exist_ok=True)
    rows: List[Dict[str, Any]] = []
    for path in texts:
        text = plain_text(Path(path), work)
        runs: Dict[str, List[Dict[str, Any]]] = {side: [] for side in SIDES}
        for k in range(repeats):
            for side in SIDES if k % 2 == 0 else SIDES[::-1]:
                output, timings = work / f"{side}_{k}.txt", work / f"{side}_{k}.json"
                timings.unlink(missing_ok=True)
                # Run k of each side has seed `seed + k`: nn_ref and nn_ours compare runs that differ by their seed.
                seeded = {**settings, "seed": settings["seed"] + k}
                runs[side].append(run_process(command(side, text, output, timings, seeded), timings))
                msg.text(f"{text.name}: {side} run {k + 1}: {runs[side][-1]['wall s']:.1f} s", show=True)
        quality = compare_outputs(work, min(repeats, 2))
        base = statistics.median(r["wall s"] for r in runs["gensim"])
        for side in SIDES:
            wall = [r["wall s"] for r in runs[side]]
            steps = {key: statistics.median(r.get(key, 0.0) for r in runs[side]) for key in STEPS}
            row = {
                "text": text.name,
                "words": runs[side][0]["words"],
                "side": side,
                "wall s": statistics.median(wall),
                "min s": min(wall),
                "max s": max(wall),
                "× gensim": base / statistics.median(wall),
                "cpu s": statistics.median(r["cpu s"] for r in runs[side]),
                "peak MiB": max(r["peak MiB"] for r in runs[side]),
                **steps,
                "rest s": statistics.median(wall) - sum(steps.values()),
                "vocab": runs[side][0]["vocab"],
                "sim_acc": quality[f"{side} sim_acc"],
                "runs s": wall,
            }
            rows.append(row)
        for key in ("same_vocab", "nn_agree", "nn_ref", "nn_ours"):
            rows[-2][key] = rows[-1][key] = quality[key]
        ours = rows[-2]
        (msg.good if ours["× gensim"] >= 1.5 else msg.warn)(
            f"{text.name}: {ours['× gensim']:.2f}× gensim's whole-process speed (target 1.5×); "
            f"same vocabulary: {quality['same_vocab']}; sim_acc {ours['sim_acc']:.3f} vs {rows[-1]['sim_acc']:.3f}; "
            f"nn_agree {quality['nn_agree']:.2f} (gensim vs gensim {quality['nn_ref']:.2f})"
        )
    columns = ["text", "words", "side", "wall s", "min s", "max s", "× gensim", "cpu s", "peak MiB", *STEPS]
    columns += ["rest s", "vocab", "sim_acc"]
    print_table(f"pretrain-vectors vs gensim, whole processes ({env['cpu']}, {threads} threads)", rows, columns)
    json_path = write_results(out_dir, "pretrain_vectors", rows, env, extra={"settings": settings})
    msg.good(wrote(json_path, save_plot(out_dir, "pretrain_vectors", lambda ax: _draw(ax, rows, env), 1, width=8.5)))
    return rows


# The steps each process reports: reading and tokenising (with the vocabulary count for
# ours), loading the compiled kernel (ours), training (gensim's with its vocabulary), writing.
STEPS = ("read s", "setup s", "train s", "write s")


def compare_outputs(work: Path, n_runs: int) -> Dict[str, Any]:
    """The quality checks of the first n_runs outputs a side (see the module's docstring)."""
    from ..vectors import read_word2vec_text
    from .vector_checks import neighbour_agreement, similarity_accuracy
    from .vectors import similarity_triples

    outputs = {side: [read_word2vec_text(work / f"{side}_{k}.txt") for k in range(n_runs)] for side in SIDES}
    words = outputs["spacy_seqkit"][0][0]
    same_vocab = all(sorted(w) == sorted(words) for side in SIDES for w, _ in outputs[side])
    quality: Dict[str, Any] = {"same_vocab": same_vocab}
    quality.update({key: float("nan") for key in ("gensim sim_acc", "nn_agree", "nn_ref", "nn_ours")})
    index = {w: i for i, w in enumerate(words)}
    triples = similarity_triples(index, 4000, seed=0)
    quality["spacy_seqkit sim_acc"] = similarity_accuracy(outputs["spacy_seqkit"][0][1], triples)
    if not same_vocab:
        return quality
    # Every run's rows in the order of our first run's words.
    aligned = {side: [_rows_in_order(ws, vectors, words) for ws, vectors in outputs[side]] for side in SIDES}
    ours, theirs = aligned["spacy_seqkit"], aligned["gensim"]
    queries = numpy.arange(min(300, len(words)))
    quality["gensim sim_acc"] = similarity_accuracy(theirs[0], triples)
    quality["nn_agree"] = neighbour_agreement(ours[0], theirs[0], queries)
    if n_runs > 1:
        quality["nn_ref"] = neighbour_agreement(theirs[0], theirs[1], queries)
        quality["nn_ours"] = neighbour_agreement(ours[0], ours[1], queries)
    return quality


def _rows_in_order(words: List[str], vectors: numpy.ndarray, order: List[str]) -> numpy.ndarray:
    """The rows of `vectors` (one per word of `words`) in the order of the words of `order`."""
    row = {w: i for i, w in enumerate(words)}
    return vectors[[row[w] for w in order]]


def _draw(ax, rows: List[Dict[str, Any]], env: Dict[str, Any]) -> None:
    labels = [f"{r['text']}\n{r['side']}" for r in rows]
    y = numpy.arange(len(rows))
    left = numpy.zeros(len(rows))
    for key, label in (("rest s", "start, imports, exit"), *((s, s[:-2]) for s in STEPS)):
        values = numpy.array([r[key] for r in rows])
        ax.barh(y, values, left=left, label=label)
        left += values
    for i, r in enumerate(rows):
        ax.text(left[i], i, f" {r['wall s']:.1f} s" + (f" ({r['× gensim']:.2f}×)" if r["side"] != "gensim" else ""))
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, left.max() * 1.25)
    ax.set_xlabel("seconds, start to exit (median)")
    ax.set_title(f"pretrain-vectors vs gensim, whole processes\n{env['cpu']}", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module)
    except PackageNotFoundError:
        return "not installed"
