"""The travel application's commands: resolve, evaluate-trips, compare-rewriters, serve (the
corpus's commands are in `corpus/commands.py`, the travel benchmarks' in `benchmarks/commands.py`)."""

from pathlib import Path
from typing import List, Optional

import typer

from ..cli.app import app


@app.command("resolve")
def resolve_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    inputs: List[str] = typer.Argument(
        None,
        metavar="INPUT",
        help="sentenceID,sentence CSV files, globs ('orders/*.csv') or folders (their *.csv, by name); "
        "none or '-' for stdin",
    ),
    output: Path = typer.Option(None, "--output", "-o", help="Answers CSV (default: stdout); its folder is created"),
    output_dir: Path = typer.Option(
        None, "--output-dir", help="One answers file per partition (part-00000.csv, ...) instead of one"
    ),
    batch_size: int = typer.Option(256, "--batch-size", "-b", help="Sentences per nlp.pipe batch"),
    n_process: int = typer.Option(
        1,
        "--n-process",
        "-n",
        help="Processes answering (each loads the pipeline); with --dask, the local cluster's workers (default: one per core)",
    ),
    partition_size: int = typer.Option(
        1024, "--partition-size", help="Orders handed to a process or worker at a time (a whole number of batches)"
    ),
    dask: bool = typer.Option(
        False,
        "--dask",
        help="Answer on a Dask cluster: a local one, or the scheduler whose address follows (--dask tcp://HOST:8786); needs the dask extra",
    ),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="No progress bar (there is none when stderr is not a terminal) and no summary"
    ),
    steps: bool = typer.Option(
        False,
        "--steps",
        help="Write the stops the request asks for between the ends: sentenceID,Departure,Step1,...,Destination",
    ),
    route: bool = typer.Option(
        False,
        "--route",
        help="Write each trip's route: sentenceID,Departure,Step1,...,Destination; by default the trains a traveller "
        "takes on SNCF's timetables, its steps the stations where one changes trains (where no train answers, the "
        "network's route, why on stderr); INVALID where there is no route at all, why on stderr",
    ),
    route_by: str = typer.Option(
        "timetable",
        "--route-by",
        help="With --route: timetable (the trains and their changes) or network (the shortest route over SNCF's "
        "lines, its steps the changes of line, as before the timetables)",
    ),
    when: str = typer.Option(
        None,
        "--when",
        help="With --route: when the journeys leave, 2024-07-02T08:00, a day (2024-07-02) or a time (8h30) on "
        "2024-07-02; a day or a time the request says wins (default: 08:00 on Tuesday 2024-07-02)",
    ),
    explain: Path = typer.Option(
        None,
        "--explain",
        help="Also write, one JSON line per order, what decided its answer: the rules of the reading and the cues "
        "its qualifiers found ({line, id, answer, why})",
    ),
    threads: int = typer.Option(
        1,
        "--threads",
        help="Threads the answering process computes with (torch and BLAS). One per process answers short "
        "requests fastest; to use more cores, answer in more processes (--n-process)",
    ),
) -> None:
    """Travel Order Resolver: answer `sentenceID,Departure,Destination` or
    `sentenceID,INVALID` for every order (with --steps, the stops asked for between the
    ends; with --route, the trains' stations of the journey on SNCF's timetables, with
    --route-by network those of the route over SNCF's lines), in input order, as a stream; with
    --explain, what decided each answer beside them. Malformed lines, orders over the limits on one order (see
    `travel.orders.format`) and trips without a route are reported on stderr with their
    line number and answered INVALID."""
    import contextlib
    import sys

    from ..util import collector_paused

    with collector_paused():  # the first answer comes 0.3 s sooner (see `collector_paused`)
        from spacy.util import is_package

    from .orders.dask_backend import is_scheduler_address
    from .orders.stream import (
        FIRST_PARTITION,
        expand_inputs,
        make_backend,
        open_output,
        partition_size_for,
        resolve_inputs,
        wants_progress,
    )

    def fail(message: str) -> None:
        typer.echo(message, err=True)
        raise typer.Exit(2)

    sizes = (("--batch-size", batch_size), ("--n-process", n_process), ("--partition-size", partition_size))
    for hint, value in sizes + (("--threads", threads),):
        if value < 1:
            raise typer.BadParameter(f"must be a positive integer, got {value}", param_hint=hint)
    if output is not None and output_dir is not None:
        raise typer.BadParameter("give --output or --output-dir, not both", param_hint="--output-dir")
    check_steps_or_route(steps, route)
    day, time = check_when(when, route, route_by)
    addresses = [i for i in inputs or [] if is_scheduler_address(i)]
    if addresses and not dask:
        fail(f"{addresses[0]} is a scheduler address: give it after --dask")
    if len(addresses) > 1:
        fail(f"one scheduler address expected after --dask, got {', '.join(addresses)}")
    try:
        sources = expand_inputs([i for i in inputs or [] if i not in addresses])
    except ValueError as e:
        fail(str(e))
    if not addresses and not (is_package(model) or Path(model).is_dir()):
        fail(f"Cannot use model '{model}': neither a pipeline folder nor an installed package")
    routes = None
    if route:
        from .orders.routing import JourneyAnswers, RouteAnswers
        from .routes import NetworkFileError

        try:
            routes = RouteAnswers() if route_by == "network" else JourneyAnswers(day=day, time=time)
        except NetworkFileError as e:  # the network's or the timetable's file
            fail(str(e))
    with contextlib.ExitStack() as stack:
        out = sys.stdout if output is None and output_dir is None else None
        opened = {}
        for path in (output, explain):
            if path is not None:
                try:
                    opened[path] = stack.enter_context(open_output(path))
                except OSError as e:
                    fail(f"Cannot write {path}: {e}")
        out = opened.get(output, out)
        explained = opened.get(explain)
        try:
            address = (addresses or [None])[0]
            backend = make_backend(
                model, batch_size, n_process, dask=dask, address=address, threads=threads, explain=explain is not None
            )
        except ImportError as e:
            fail(str(e))
        except (OSError, ValueError) as e:
            fail(str(e) if dask else f"Cannot use model '{model}': {e}")
        stack.callback(backend.close)
        try:
            counts = resolve_inputs(
                sources,
                backend,
                out=out,
                output_dir=output_dir,
                partition_size=partition_size_for(partition_size, batch_size),
                first_partition_size=min(batch_size, FIRST_PARTITION),
                progress=wants_progress(quiet),
                steps=steps,
                route=routes,
                explain=explained,
            )
        except (OSError, ValueError) as e:
            fail(f"Cannot resolve: {e}")
    if not quiet:
        typer.echo(
            f"{counts['orders']} orders: {counts['valid']} trips, {counts['invalid']} INVALID "
            f"({counts['malformed']} malformed lines or orders over the limits"
            + (f", {counts.get('no_route', 0)} trips without a route" if route else "")
            + (
                f", {counts.get('no_train', 0)} answered by the network's route"
                if route and route_by == "timetable"
                else ""
            )
            + ")",
            err=True,
        )


def check_steps_or_route(steps: bool, route: bool) -> None:
    if steps and route:
        raise typer.BadParameter("give --steps or --route, not both (a route names its stops)", param_hint="--route")


def check_when(when: Optional[str], route: bool, route_by: str):
    """The day and time of `--when` (see `orders.when.parse_when`), and `--route-by`,
    refused before any work."""
    if route_by not in ("timetable", "network"):
        raise typer.BadParameter(f"{route_by!r} is no kind of route: timetable or network", param_hint="--route-by")
    if when is None:
        return None, None
    if not route or route_by != "timetable":
        raise typer.BadParameter("--when chooses the trains of --route (by timetable)", param_hint="--when")
    from .orders.when import parse_when

    try:
        return parse_when(when)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--when") from None


@app.command("evaluate-trips")
def evaluate_trips_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    data: List[Path] = typer.Argument(..., help="JSONL sets with text, spans and trip (e.g. corpus/test.jsonl)"),
    output: List[Path] = typer.Option(
        [], "--output", "-o", help="Write the figures as JSON: one per data set, in their order (repeatable)"
    ),
    baseline: bool = typer.Option(True, "--baseline/--no-baseline", help="Also score fr_core_news_md + rules"),
    errors: List[Path] = typer.Option(
        [], "--errors", help="Write the wrong trips as JSONL: one per data set, in their order (repeatable)"
    ),
) -> None:
    """Per-label entity P/R/F, validity accuracy and trip accuracy (both ends
    right, or correctly INVALID), beside a fr_core_news_md + rules baseline, on
    each data set (the pipelines loaded once)."""
    from .evaluation import evaluate_trip_sets

    for path in data:
        if not path.is_file():
            typer.echo(f"No such data file: {path}", err=True)
            raise typer.Exit(2)
    for name, given in (("--output", output), ("--errors", errors)):
        if given and len(given) != len(data):
            typer.echo(f"{name} given {len(given)} times for {len(data)} data sets: give it once per set", err=True)
            raise typer.Exit(2)
    sets = [(path, output[i] if output else None, errors[i] if errors else None) for i, path in enumerate(data)]
    try:
        evaluate_trip_sets(model, sets, baseline=baseline)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None


@app.command("compare-rewriters")
def compare_rewriters_command(
    models: List[str] = typer.Argument(..., help="NAME=PIPELINE pairs, e.g. lstm=training/rewriter/model-best"),
    data: List[Path] = typer.Option([Path("corpus/test.jsonl")], "--data", help="Hand-written JSONL sets (repeatable)"),
    output: Path = typer.Option(None, "--output", "-o", help="Write the figures as JSON"),
    baseline: bool = typer.Option(True, "--baseline/--no-baseline", help="Also score fr_core_news_md + rules"),
) -> None:
    """Trip accuracy, validity accuracy, exact match and chrF of the rewrite,
    and words/s of rewriters beside the baseline: one table per data set."""
    pairs = []
    for item in models:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise typer.BadParameter(f"NAME=PIPELINE expected, got {item!r}", param_hint="MODELS")
        pairs.append((name, path))
    for data_path in data:
        if not data_path.is_file():
            raise typer.BadParameter(f"no such file: {data_path}", param_hint="--data")
    from .evaluation import compare_rewriters

    try:
        compare_rewriters(pairs, data, output=output, baseline=baseline)
    except (OSError, ValueError) as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None


@app.command("serve")
def serve_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (0.0.0.0: every one)"),
    port: int = typer.Option(8000, "--port", "-p", help="TCP port"),
    max_body_bytes: int = typer.Option(1_000_000, "--max-body-bytes", help="Largest request body (larger: 413)"),
    max_orders: int = typer.Option(1_000, "--max-orders", help="Most orders in one request (more: 413)"),
    batch_size: int = typer.Option(64, "--batch-size", "-b", help="Orders per nlp.pipe batch"),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's log level (warning: no line per request)"),
    steps: bool = typer.Option(
        False, "--steps", help="Each order's line holds the stops between the ends, as `resolve --steps`"
    ),
    route: bool = typer.Option(
        False, "--route", help="Each order's line is its route's stations, as `resolve --route`, with the route"
    ),
) -> None:
    """HTTP service (FastAPI + uvicorn): POST /resolve with {"text": ...} or
    {"orders": [{"id", "sentence"}, ...]}, POST /route with {"text": ...}, GET /network,
    GET /health, and GET / a page that shows a request's entities, trip and route drawn
    on SNCF's network (the serve extra: FastAPI, uvicorn)."""
    check_steps_or_route(steps, route)
    for hint, value in (
        ("--max-body-bytes", max_body_bytes),
        ("--max-orders", max_orders),
        ("--batch-size", batch_size),
    ):
        if value < 1:
            raise typer.BadParameter(f"must be a positive integer, got {value}", param_hint=hint)
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        typer.echo("serve needs FastAPI and uvicorn: pip install 'spacy-seqkit[serve]'", err=True)
        raise typer.Exit(2) from None
    from .orders.backends import load_pipeline
    from .orders.service import serve

    try:
        nlp = load_pipeline(model, threads=1, explain=True)  # the page shows why, with the cues
    except (OSError, ValueError) as e:
        typer.echo(f"Cannot use model '{model}': {e}", err=True)
        raise typer.Exit(2) from None
    serve(
        nlp,
        host=host,
        port=port,
        log_level=log_level,
        max_body_bytes=max_body_bytes,
        max_orders=max_orders,
        batch_size=batch_size,
        steps=steps,
        route=route,
    )
