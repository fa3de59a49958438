"""Command line: `python -m spacy_seqkit COMMAND`.

Heavy imports (torch, spaCy models) happen inside the commands, so `--help`
stays instant and benchmarks can pin thread counts before numpy loads.
"""
from pathlib import Path
from typing import List

import typer

app = typer.Typer(
    name="spacy_seqkit",
    help="spacy_seqkit: encoders, travel pipeline, rewriting and word vectors for spaCy.",
    no_args_is_help=True,
    add_completion=False,
)
benchmark_app = typer.Typer(help="Speed and memory benchmarks (table, JSON and PNG).", no_args_is_help=True)
app.add_typer(benchmark_app, name="benchmark")

DEFAULT_BENCH_DIR = Path("benchmarks/results")


@benchmark_app.command("encoders")
def benchmark_encoders(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for every library"),
    n_docs: int = typer.Option(2000, "--n-docs", help="Docs per batch"),
    batch_size: int = typer.Option(1000, "--batch-size", help="Docs per predict / update call"),
    repeats: int = typer.Option(3, "--repeats", help="Timed repeats (best is kept)"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Our MaxoutWindowEncoder vs spacy.MaxoutWindowEncoder.v2: words/s for
    predict and for a training step, peak memory, and a whole tok2vec row."""
    from .benchmarks.report import pin_threads

    pin_threads(threads)
    from .benchmarks.encoders import run_encoder_benchmark

    run_encoder_benchmark(
        out_dir=out_dir, threads=threads, n_docs=n_docs, batch_size=batch_size, repeats=repeats, seed=seed
    )


@benchmark_app.command("decoding")
def benchmark_decoding(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for every library"),
    n_sentences: int = typer.Option(200, "--n-sentences", help="Sentences to decode"),
    beam_size: int = typer.Option(5, "--beam-size", help="Beam of both beam searches"),
    batch_size: int = typer.Option(64, "--batch-size", help="Docs per batched decoding call"),
    train_steps: int = typer.Option(300, "--train-steps", help="Updates of the synthetic model"),
    vocab_sizes: str = typer.Option("1000,5000,20000", "--vocab-sizes", help="Target vocabularies for the output-layer rows"),
    repeats: int = typer.Option(3, "--repeats", help="Timed repeats (best is kept)"),
    seed: int = typer.Option(0, "--seed"),
    model: Path = typer.Option(None, "--model", help="A pipeline with seqkit_rewriter, instead of training one"),
    data: Path = typer.Option(None, "--data", help="JSONL with 'text' to decode (with --model)"),
) -> None:
    """Naive vs batched beam search (same model and inputs, identical n-best),
    greedy, and training words/s of the softmax / negative sampling /
    hierarchical output layers."""
    try:
        sizes = [int(v) for v in vocab_sizes.split(",") if v.strip()]
    except ValueError:
        raise typer.BadParameter(f"comma-separated integers expected, got {vocab_sizes!r}", param_hint="--vocab-sizes")
    if not sizes or min(sizes) < 2:
        raise typer.BadParameter(f"vocabulary sizes must be >= 2, got {vocab_sizes!r}", param_hint="--vocab-sizes")
    for hint, value in (("--n-sentences", n_sentences), ("--beam-size", beam_size),
                        ("--batch-size", batch_size), ("--repeats", repeats)):
        if value < 1:
            raise typer.BadParameter(f"must be a positive integer, got {value}", param_hint=hint)
    from .benchmarks.report import pin_threads

    pin_threads(threads)
    from .benchmarks.decoding import run_decoding_benchmark

    run_decoding_benchmark(
        out_dir=out_dir, threads=threads, n_sentences=n_sentences, beam_size=beam_size,
        batch_size=batch_size, train_steps=train_steps,
        vocab_sizes=sizes,
        repeats=repeats, seed=seed, model_path=model, data_path=data,
    )


@benchmark_app.command("attention")
def benchmark_attention(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for every library"),
    n_tokens: int = typer.Option(8192, "--n-tokens", help="Tokens per batch, at every length"),
    lengths: str = typer.Option("8,32,128,512,2048,8192", "--lengths", help="Tokens per doc, comma-separated"),
    pipeline_docs: int = typer.Option(2000, "--pipeline-docs", help="Requests for the nlp.pipe rows"),
    repeats: int = typer.Option(3, "--repeats", help="Timed repeats (best is kept)"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Attention encoder (full, local, linear) vs the maxout encoder: words/s
    and peak memory by sequence length (log-log PNG), and ner pipelines on
    short docs."""
    try:
        seq_lengths = [int(n) for n in lengths.split(",")]
    except ValueError:
        raise typer.BadParameter(f"comma-separated integers expected, got {lengths!r}", param_hint="--lengths")
    if not seq_lengths or min(seq_lengths) < 1 or n_tokens < 1:
        raise typer.BadParameter("lengths and --n-tokens must be positive", param_hint="--lengths")
    from .benchmarks.report import pin_threads

    pin_threads(threads)
    from .benchmarks.attention import run_attention_benchmark

    run_attention_benchmark(
        out_dir=out_dir, threads=threads, n_tokens=n_tokens, lengths=seq_lengths,
        n_pipeline_docs=pipeline_docs, repeats=repeats, seed=seed,
    )


@app.command("generate")
def generate_command(
    output_dir: Path = typer.Argument(..., help="Folder for train.jsonl and dev.jsonl"),
    seed: int = typer.Option(0, "--seed", help="Same seed, byte-identical files"),
    n_train: int = typer.Option(8000, "--n-train", help="Training sentences"),
    n_dev: int = typer.Option(1500, "--n-dev", help="Dev sentences (held-out phrasings and places)"),
    noise_rate: float = typer.Option(0.5, "--noise-rate", help="Share of sentences with typing noise"),
    exclude: list[Path] = typer.Option(
        [Path("corpus/test.jsonl"), Path("corpus/dev.jsonl")], "--exclude",
        help="JSONL files whose sentences must never be generated (missing files are skipped)",
    ),
    label_single_end: bool = typer.Option(
        True, "--label-single-end/--no-label-single-end",
        help="Give the one end of an INVALID one-ended request its DEPART/ARRIVEE span",
    ),
) -> None:
    """Generate the French travel corpus (templates × gazetteer × noise) as JSONL."""
    import time

    from .travel.generate import generate_corpus, read_sentence_keys
    from .travel.records import write_records

    start = time.perf_counter()
    try:
        train, dev = generate_corpus(
            seed=seed, n_train=n_train, n_dev=n_dev, noise_rate=noise_rate,
            exclude_texts=read_sentence_keys(exclude), label_single_end=label_single_end,
        )
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
    write_records(train, output_dir / "train.jsonl")
    write_records(dev, output_dir / "dev.jsonl")
    typer.echo(
        f"{len(train)} train and {len(dev)} dev records in {output_dir} "
        f"({time.perf_counter() - start:.1f}s)"
    )


@app.command("convert")
def convert_command(
    input_path: Path = typer.Argument(..., help="Travel JSONL file", exists=True, dir_okay=False),
    output_path: Path = typer.Argument(..., help=".spacy file to write"),
    lang: str = typer.Option("fr", "--lang", help="Language of the blank tokenizer"),
) -> None:
    """Convert travel JSONL to a DocBin: spans as doc.ents, target string as doc._.rewrite."""
    from .travel.docbin import convert_file

    try:
        n = convert_file(input_path, output_path, lang=lang)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)
    typer.echo(f"{n} docs written to {output_path}")


@app.command("resolve")
def resolve_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    input_path: str = typer.Argument("-", metavar="INPUT", help="sentenceID,sentence CSV; '-' for stdin"),
    output: Path = typer.Option(None, "--output", "-o", help="Answers CSV (default: stdout)"),
    batch_size: int = typer.Option(64, "--batch-size", "-b", help="Sentences per nlp.pipe batch"),
) -> None:
    """Travel Order Resolver: answer `sentenceID,departure,arrival[,step...]` or
    `sentenceID,INVALID` for every order, in order. Malformed lines are reported on
    stderr with their line number and answered INVALID."""
    import sys

    import spacy

    from .travel.tor import prepare_pipeline, resolve_orders

    try:
        nlp = prepare_pipeline(spacy.load(model))
    except (OSError, ValueError) as e:
        typer.echo(f"Cannot use model '{model}': {e}", err=True)
        raise typer.Exit(2)
    if input_path != "-" and not Path(input_path).is_file():
        typer.echo(f"No such input file: {input_path}", err=True)
        raise typer.Exit(2)
    stream = sys.stdin.buffer if input_path == "-" else open(input_path, "rb")
    out = sys.stdout if output is None else open(output, "w", encoding="utf8", newline="")
    try:
        counts = resolve_orders(nlp, stream, out, batch_size=batch_size)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
        if out is not sys.stdout:
            out.close()
    typer.echo(
        f"{counts['orders']} orders: {counts['valid']} trips, {counts['invalid']} INVALID "
        f"({counts['malformed']} malformed lines)",
        err=True,
    )


@app.command("evaluate-trips")
def evaluate_trips_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    data: Path = typer.Argument(..., help="JSONL with text, spans and trip (e.g. corpus/test.jsonl)"),
    output: Path = typer.Option(None, "--output", "-o", help="Write the figures as JSON"),
    baseline: bool = typer.Option(True, "--baseline/--no-baseline", help="Also score fr_core_news_md + rules"),
    errors: Path = typer.Option(None, "--errors", help="Write the wrong trips as JSONL"),
) -> None:
    """Per-label entity P/R/F, validity accuracy and trip accuracy (both ends
    right, or correctly INVALID), beside a fr_core_news_md + rules baseline."""
    from .travel.evaluate import evaluate_trips

    if not data.is_file():
        typer.echo(f"No such data file: {data}", err=True)
        raise typer.Exit(2)
    try:
        evaluate_trips(model, data, output=output, baseline=baseline, errors_path=errors)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)


@benchmark_app.command("pipelines")
def benchmark_pipelines(
    training_dir: Path = typer.Argument(Path("training"), help="Folder of <config>/model-best pipelines"),
    data: Path = typer.Option(Path("corpus/test.jsonl"), "--data", help="JSONL whose texts are timed"),
    out_dir: Path = typer.Option(Path("metrics"), "--out", "-o", help="Where metrics JSON are read and results go"),
    threads: int = typer.Option(1, "--threads", "-t"),
    repeats: int = typer.Option(3, "--repeats"),
) -> None:
    """Words/s of every trained travel pipeline on the same texts, in one run,
    beside its entity F and trip accuracy."""
    from .benchmarks.report import pin_threads

    pin_threads(threads)
    from .benchmarks.pipelines import run_pipeline_benchmark

    try:
        run_pipeline_benchmark(training_dir, data, out_dir, threads, repeats)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2)


@app.command("pretrain-vectors")
def pretrain_vectors_command(
    text: Path = typer.Argument(..., help="UTF-8 text, one sentence or paragraph a line (or .jsonl with a text field)"),
    output: Path = typer.Argument(..., help="word2vec text file to write (.txt or .txt.gz)"),
    model: str = typer.Option("skipgram", "--model", help="skipgram or cbow"),
    loss: str = typer.Option("ns", "--loss", help="ns (negative sampling) or hs (hierarchical softmax)"),
    dim: int = typer.Option(100, "--dim", help="Vector width"),
    window: int = typer.Option(5, "--window", help="Max context distance (each center draws a window in 1..window)"),
    negative: int = typer.Option(5, "--negative", help="Noise words per example (ns)"),
    min_count: int = typer.Option(5, "--min-count", help="Drop words rarer than this"),
    sample: float = typer.Option(1e-3, "--sample", help="Subsampling threshold of frequent words (0 = off)"),
    epochs: int = typer.Option(5, "--epochs", help="Passes over the text"),
    lr: float = typer.Option(None, "--lr", help="Initial learning rate, decayed linearly (default: 0.025 skipgram, 0.05 cbow)"),
    threads: int = typer.Option(None, "--threads", help="Torch threads (default: all cores)"),
    seed: int = typer.Option(0, "--seed"),
    batch_size: int = typer.Option(None, "--batch-size", help="Center words per SGD step (default: 4096 skipgram, 2048 cbow, at most 1/100 of the text)"),
    pipeline: str = typer.Option(None, "--pipeline", help="spaCy pipeline whose tokenizer to use (default: a blank LANG one)"),
    lang: str = typer.Option("fr", "--lang", help="Language of the blank tokenizer"),
    extra: List[Path] = typer.Option([], "--extra", help="More text: a file, or a folder of .txt / .jsonl files (repeatable)"),
) -> None:
    """Train static word vectors (word2vec: skip-gram or CBOW, negative sampling
    or hierarchical softmax) for `spacy init vectors LANG OUTPUT DIR`."""
    import os

    from wasabi import msg

    from .vectors import Word2VecConfig
    from .vectors.pretrain import pretrain_vectors

    try:
        config = Word2VecConfig(
            model=model, loss=loss, dim=dim, window=window, negative=negative, min_count=min_count,
            sample=sample, epochs=epochs, lr=lr, threads=threads or os.cpu_count() or 1, seed=seed,
            batch_size=batch_size,
        )
        result = pretrain_vectors(text, output, config, pipeline=pipeline, lang=lang, extra=extra)
    except (ValueError, OSError) as e:
        msg.fail(str(e))
        raise typer.Exit(2)
    msg.good(
        f"Wrote {output}: {result.words:,} words trained in {result.seconds:.1f}s "
        f"({result.words_per_second:,.0f} words/s), final loss {result.epoch_losses[-1]:.4f}"
    )


@benchmark_app.command("vectors")
def benchmark_vectors(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    text: Path = typer.Option(None, "--text", help="Corpus: text, one sentence a line, or JSONL with a text field (default: corpus/generated/train.jsonl, else a synthetic corpus)"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for both trainers"),
    dim: int = typer.Option(100, "--dim"),
    window: int = typer.Option(5, "--window"),
    negative: int = typer.Option(5, "--negative"),
    min_count: int = typer.Option(5, "--min-count"),
    sample: float = typer.Option(1e-3, "--sample"),
    epochs: int = typer.Option(5, "--epochs"),
    max_words: int = typer.Option(600_000, "--max-words", help="Corpus tokens used (first sentences)"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Our word2vec vs gensim Word2Vec (skip-gram/CBOW × NS/HS): training
    words/s, ratio, and the same quality checks for both."""
    from .benchmarks.report import pin_threads

    pin_threads(threads)
    from .benchmarks.vectors import run_vectors_benchmark

    run_vectors_benchmark(
        out_dir=out_dir, text=text, threads=threads, dim=dim, window=window, negative=negative,
        min_count=min_count, sample=sample, epochs=epochs, max_words=max_words, seed=seed,
    )


@app.command("check-transformer")
def check_transformer_command(
    directory: Path = typer.Argument(..., help="Local camembert-base directory (config.json, weights, sentencepiece.bpe.model)"),
    config: Path = typer.Option(None, "--config", help="Config to fill, e.g. configs/ner_trf.cfg"),
    output: Path = typer.Option(None, "--output", "-o", help="Write the config with paths.transformer and the directory's hyper-parameters"),
    read_weights: bool = typer.Option(True, "--read-weights/--no-read-weights", help="Also open the weights and check their shapes"),
    variable: str = typer.Option("paths.transformer", "--variable", help="Name of the setting that gave DIRECTORY, for error messages (e.g. vars.trf_model)"),
) -> None:
    """Check a local CamemBERT directory before training `configs/ner_trf.cfg`,
    and write a config whose transformer matches it."""
    from wasabi import msg

    from .loaders.camembert import check_transformer_dir, describe, fill_config

    if (config is None) != (output is None):
        raise typer.BadParameter("--config and --output go together", param_hint="--output")
    try:
        files = check_transformer_dir(directory, variable=variable, read_weights=read_weights)
    except ValueError as e:
        msg.fail(str(e))
        raise typer.Exit(2)
    msg.good(f"{directory} is usable: {files.weights.name}, {files.sentencepiece.name}, config.json")
    for line in describe(files):
        msg.text(f"  {line}")
    if config is not None:
        from thinc.api import Config

        if not config.is_file():
            msg.fail(f"No such config: {config}")
            raise typer.Exit(2)
        try:
            filled = fill_config(Config().from_disk(config, interpolate=False), directory, variable=variable)
        except ValueError as e:
            msg.fail(str(e))
            raise typer.Exit(2)
        output.parent.mkdir(parents=True, exist_ok=True)
        filled.to_disk(output, interpolate=False)
        msg.good(f"Wrote {output} (train with: python -m spacy train {output} ...)")


@app.command("make-tiny-transformer")
def make_tiny_transformer_command(
    directory: Path = typer.Argument(..., help="Folder to write (created if missing)"),
    n_layers: int = typer.Option(2, "--layers"),
    width: int = typer.Option(32, "--width"),
    n_heads: int = typer.Option(2, "--heads"),
    intermediate_width: int = typer.Option(64, "--intermediate-width"),
    n_pieces: int = typer.Option(1000, "--pieces", help="Sentencepiece vocabulary (at most)"),
    weights: str = typer.Option("safetensors", "--weights", help="safetensors or bin"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Write a small random CamemBERT in the Hugging Face layout (tokenizer
    trained on generated travel requests), to try the `trf` workflow without
    the real weights. Its predictions mean nothing until trained."""
    from wasabi import msg

    from .loaders.tiny import build_tiny_camembert
    from .travel.generate import generate_corpus

    def travel_requests():  # generated only once the sizes are checked
        train, _ = generate_corpus(seed=seed, n_train=2000, n_dev=0)
        yield from (r["text"] for r in train)

    try:
        build_tiny_camembert(
            directory, travel_requests(), n_layers=n_layers, width=width, n_heads=n_heads,
            intermediate_width=intermediate_width, n_pieces=n_pieces, weights=weights, seed=seed,
        )
    except ValueError as e:
        msg.fail(str(e))
        raise typer.Exit(2)
    msg.good(f"Wrote a tiny random CamemBERT to {directory}")
