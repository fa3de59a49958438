"""Training time of travel configs on the CPU and on GPUs, in one run.

Each (config, device) trains in a fresh spawned process, as `spacy train
--gpu-id N` does (`init_nlp`, then spaCy's training loop), for the same number
of steps on the same corpus. The table gives the initialize and training-loop
seconds, steps/s, the speed-up over the CPU row of the same config, the dev
scores at the last step and the trained pipeline's `nlp.pipe` words/s on the
dev texts, on the device it was trained on."""

import io
import json
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

COLUMNS = [
    "config",
    "device",
    "steps",
    "init s",
    "train s",
    "steps/s",
    "vs CPU",
    "dev ents F",
    "dev trip acc",
    "pipe words/s",
]


def check_gpu_ids(gpu_ids: List[int]) -> None:
    """Fail before any training when a GPU id names no CUDA device here."""
    if not any(gpu_id >= 0 for gpu_id in gpu_ids):
        return
    import torch

    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    missing = [gpu_id for gpu_id in gpu_ids if gpu_id >= count]
    if missing:
        raise ValueError(f"--gpu-ids {missing[0]}: this machine has {count} CUDA GPU(s); use -1 for the CPU")


def run_training_benchmark(
    configs: List[Path],
    gpu_ids: List[int],
    train: Path,
    dev: Path,
    steps: int,
    out_dir: Path,
    threads: int,
    vectors: Optional[str] = None,
) -> List[Dict[str, Any]]:
    from wasabi import msg

    from ...benchmarks.report import environment, print_table, save_plot, write_results, wrote

    check_gpu_ids(gpu_ids)
    for path in (*configs, train, dev):
        if not path.exists():
            raise ValueError(f"Not found: {path}")
    rows = []
    context = multiprocessing.get_context("spawn")
    for config in configs:
        runs = {}
        for gpu_id in gpu_ids:
            with context.Pool(1) as pool:
                runs[gpu_id] = pool.apply(
                    train_once, (str(config), gpu_id, str(train), str(dev), steps, threads, vectors)
                )
            msg.info(f"{config.stem} on {runs[gpu_id]['device']}: {runs[gpu_id]['train s']:.1f} s for {steps} steps")
        cpu = runs.get(-1)
        for row in runs.values():
            row["vs CPU"] = cpu["train s"] / row["train s"] if cpu else None
            rows.append(row)
    print_table(f"Training {steps} steps on {train} (CPU rows: {threads} threads)", rows, COLUMNS)
    extra = {"train": str(train), "dev": str(dev), "steps": steps, "vectors": vectors}
    json_path = write_results(out_dir, "training", rows, environment(threads), extra=extra)

    def draw(ax) -> None:
        labels = [f"{r['config']}\n{r['device']}" for r in rows]
        ax.barh(labels, [r["train s"] for r in rows])
        ax.set_xlabel(f"seconds for {steps} training steps (lower is better)")
        ax.set_title("spacy train: CPU and GPU")
        ax.invert_yaxis()

    msg.good(wrote(json_path, save_plot(out_dir, "training", draw)))
    return rows


def train_once(
    config_path: str, gpu_id: int, train: str, dev: str, steps: int, threads: int, vectors: Optional[str]
) -> Dict[str, Any]:
    """One `spacy train` of `steps` steps in this (fresh) process: its timings,
    dev scores and the trained pipeline's words/s on the dev texts."""
    from ...benchmarks.report import pin_threads

    pin_threads(threads)
    import spacy
    import torch
    from spacy import util
    from spacy.tokens import DocBin
    from spacy.training.initialize import init_nlp
    from spacy.training.loop import train as train_loop
    from thinc.api import require_gpu

    if gpu_id >= 0:
        require_gpu(gpu_id)
        device = torch.cuda.get_device_name(gpu_id)
    else:
        device = f"CPU x{threads}"
    overrides: Dict[str, Any] = {"paths.train": train, "paths.dev": dev, "training.max_steps": steps}
    if vectors is not None:
        overrides["paths.vectors"] = vectors
    config = util.load_config(Path(config_path), overrides=overrides, interpolate=False)
    # An evaluation at the last step at least, so that the dev scores are the last step's.
    config["training"]["eval_frequency"] = min(steps, config["training"]["eval_frequency"])
    start = time.perf_counter()
    nlp = init_nlp(config, use_gpu=gpu_id)
    init_seconds = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        train_loop(nlp, Path(tmp), use_gpu=gpu_id, stdout=io.StringIO(), stderr=io.StringIO())
        train_seconds = time.perf_counter() - start
        meta = json.loads((Path(tmp) / "model-last" / "meta.json").read_text(encoding="utf8"))
        trained = spacy.load(Path(tmp) / "model-last")
    texts = [doc.text for doc in DocBin().from_disk(dev).get_docs(trained.vocab)]
    n_words = sum(len(trained.make_doc(text)) for text in texts)
    list(trained.pipe(texts, batch_size=256))
    start = time.perf_counter()
    list(trained.pipe(texts, batch_size=256))
    pipe_seconds = time.perf_counter() - start
    performance = meta.get("performance", {})
    return {
        "config": Path(config_path).stem,
        "device": device,
        "steps": steps,
        "init s": init_seconds,
        "train s": train_seconds,
        "steps/s": steps / train_seconds,
        "dev ents F": performance.get("ents_f"),
        "dev trip acc": performance.get("trip_acc"),
        "pipe words/s": n_words / pipe_seconds,
    }
