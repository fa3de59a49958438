"""Trained travel pipelines side by side: words/s measured now, on the same
texts and thread count, with their accuracy from `evaluate-trips`
(`<out>/<name>.json` on the test set, `<out>/<name>_blind.json`,
`<out>/<name>_holdout.json` and `<out>/<name>_stations.json` on the blind, holdout and
stations sets)."""

import json
from pathlib import Path
from typing import Any, Dict, List


def find_pipelines(root: Path) -> Dict[str, Path]:
    """`training/<config>/model-best` for every trained config under root."""
    return {p.parent.name: p for p in sorted(root.glob("*/model-best")) if p.is_dir()}


def run_pipeline_benchmark(
    training_dir: Path, data: Path, out_dir: Path, threads: int, repeats: int
) -> List[Dict[str, Any]]:
    from wasabi import msg

    from ...benchmarks.report import best_time, environment, print_table, save_plot, write_results, wrote
    from ..corpus.records import read_records
    from ..orders.answer import load_answering

    pipelines = find_pipelines(training_dir)
    if not pipelines:
        raise ValueError(f"No trained pipelines (*/model-best) under {training_dir}")
    texts = [r["text"] for r in read_records(data)]
    rows = []
    for name, path in pipelines.items():
        nlp = load_answering(path)
        n_words = sum(len(d) for d in nlp.tokenizer.pipe(texts))

        def run(nlp=nlp) -> List[Any]:
            return list(nlp.pipe(texts, batch_size=256))

        seconds = best_time(run, repeats=repeats)
        row: Dict[str, Any] = {"pipeline": name, "words/s": n_words / seconds}
        for suffix, prefix in (("", ""), ("_blind", "blind "), ("_holdout", "holdout "), ("_stations", "stations ")):
            metrics_path = out_dir / f"{name}{suffix}.json"
            if metrics_path.exists():
                results = json.loads(metrics_path.read_text(encoding="utf8"))["results"]["model"]
                row[f"{prefix}entity F"] = results["ents_f"]
                row[f"{prefix}trip acc"] = results["trip_acc"]
        rows.append(row)
    columns = ["pipeline", "words/s", "entity F", "trip acc", "blind trip acc", "holdout trip acc", "stations trip acc"]
    print_table(f"Travel pipelines on {len(texts)} sentences of {data} (threads={threads})", rows, columns)
    env = environment(threads)
    json_path = write_results(out_dir, "pipelines", rows, env, extra={"data": str(data)})

    def draw(ax) -> None:
        ax.barh([r["pipeline"] for r in rows], [r["words/s"] for r in rows])
        ax.set_xlabel("words / second (higher is better)")
        ax.set_title(f"nlp.pipe speed, {threads} thread(s)")
        ax.invert_yaxis()

    msg.good(wrote(json_path, save_plot(out_dir, "pipelines", draw)))
    return rows
