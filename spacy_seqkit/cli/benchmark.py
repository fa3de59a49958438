"""`python -m spacy_seqkit benchmark ...`: speed and memory benchmarks (table, JSON, PNG)."""

from pathlib import Path
from typing import Dict, List

import typer

from .app import DEFAULT_BENCH_DIR, benchmark_app


@benchmark_app.command("encoders")
def benchmark_encoders(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for every library"),
    n_docs: int = typer.Option(2000, "--n-docs", help="Docs per batch"),
    batch_size: int = typer.Option(1000, "--batch-size", help="Docs per predict / update call"),
    repeats: int = typer.Option(3, "--repeats", help="Timed passes of each model, in turn (the best is kept)"),
    seed: int = typer.Option(0, "--seed"),
    gpu_id: int = typer.Option(-1, "--gpu-id", help="GPU to run every model on (-1: the CPU)"),
    attention: bool = typer.Option(
        False, "--attention", help="Add the attention encoder of configs/ner_attention.cfg (AttentionEncoder.v2)"
    ),
) -> None:
    """Our MaxoutWindowEncoder vs spacy.MaxoutWindowEncoder.v2: words/s for
    predict and for a training step, peak memory, and a whole tok2vec row, on the
    CPU or a GPU; prints the CPU (model, flags) and the device."""
    _at_least(1, {"--threads": threads, "--n-docs": n_docs, "--batch-size": batch_size, "--repeats": repeats})
    _check_gpu(gpu_id)
    from ..benchmarks.report import pin_threads

    pin_threads(threads)
    from ..benchmarks.encoders import run_encoder_benchmark

    run_encoder_benchmark(
        out_dir=out_dir,
        threads=threads,
        n_docs=n_docs,
        batch_size=batch_size,
        repeats=repeats,
        seed=seed,
        gpu_id=gpu_id,
        attention=attention,
    )


def _check_gpu(gpu_id: int) -> None:
    """A BadParameter naming --gpu-id when that GPU is not here."""
    if gpu_id < 0:
        return
    import torch

    if not torch.cuda.is_available() or gpu_id >= torch.cuda.device_count():
        raise typer.BadParameter(
            f"no CUDA device {gpu_id} here ({torch.cuda.device_count()} visible); -1 runs on the CPU",
            param_hint="--gpu-id",
        )


@benchmark_app.command("decoding")
def benchmark_decoding(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for every library"),
    n_sentences: int = typer.Option(200, "--n-sentences", help="Sentences to decode"),
    beam_size: int = typer.Option(5, "--beam-size", help="Beam of both beam searches"),
    batch_size: int = typer.Option(64, "--batch-size", help="Docs per batched decoding call"),
    train_steps: int = typer.Option(300, "--train-steps", help="Updates of the synthetic model"),
    vocab_sizes: str = typer.Option(
        "1000,5000,20000", "--vocab-sizes", help="Target vocabularies for the output-layer rows"
    ),
    repeats: int = typer.Option(3, "--repeats", help="Timed repeats (best is kept)"),
    seed: int = typer.Option(0, "--seed"),
    model: Path = typer.Option(
        None, "--model", help="A pipeline with a recurrent seqkit_rewriter, instead of training one"
    ),
    transformer_model: Path = typer.Option(
        None, "--transformer-model", help="A pipeline with a Transformer seqkit_rewriter (with --model)"
    ),
    data: Path = typer.Option(None, "--data", help="JSONL with 'text' to decode (with --model)"),
    target_lengths: str = typer.Option("20,80", "--target-lengths", help="Fixed target lengths of the cache rows"),
    n_cache_sentences: int = typer.Option(64, "--n-cache-sentences", help="Sentences decoded at each fixed length"),
) -> None:
    """Naive vs batched beam search (same model and inputs, identical n-best),
    greedy; the Transformer's key/value cache vs recomputing the prefix, and
    the recurrent rewriter, at fixed target lengths; training words/s of the
    softmax / negative sampling / hierarchical output layers."""
    sizes = _positive_ints(vocab_sizes, "--vocab-sizes", minimum=2, what="vocabulary sizes")
    lengths = _positive_ints(target_lengths, "--target-lengths", minimum=1, what="target lengths")
    _at_least(
        1,
        {
            "--n-sentences": n_sentences,
            "--beam-size": beam_size,
            "--batch-size": batch_size,
            "--repeats": repeats,
            "--n-cache-sentences": n_cache_sentences,
        },
    )
    from ..benchmarks.report import pin_threads

    pin_threads(threads)
    from ..benchmarks.decoding import run_decoding_benchmark

    run_decoding_benchmark(
        out_dir=out_dir,
        threads=threads,
        n_sentences=n_sentences,
        beam_size=beam_size,
        batch_size=batch_size,
        train_steps=train_steps,
        vocab_sizes=sizes,
        repeats=repeats,
        seed=seed,
        model_path=model,
        data_path=data,
        transformer_path=transformer_model,
        target_lengths=lengths,
        n_cache_sentences=n_cache_sentences,
    )


def _positive_ints(text: str, hint: str, minimum: int, what: str) -> list:
    """Comma-separated integers >= minimum, or a BadParameter naming `hint`."""
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise typer.BadParameter(f"comma-separated integers expected, got {text!r}", param_hint=hint) from None
    if not values or min(values) < minimum:
        raise typer.BadParameter(f"{what} must be >= {minimum}, got {text!r}", param_hint=hint)
    return values


def _at_least(minimum: int, options: Dict[str, int]) -> None:
    """A BadParameter naming the first option below `minimum`."""
    for hint, value in options.items():
        if value < minimum:
            raise typer.BadParameter(
                f"must be {'a positive integer' if minimum == 1 else f'{minimum} or more'}, got {value}",
                param_hint=hint,
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
    gpu_id: int = typer.Option(-1, "--gpu-id", help="GPU to run every model on (-1: the CPU)"),
) -> None:
    """Attention encoder (full, local, linear) vs the maxout encoder: words/s
    and peak memory by sequence length (log-log PNG), and ner pipelines on
    short docs, on the CPU or a GPU."""
    seq_lengths = _positive_ints(lengths, "--lengths", minimum=1, what="lengths")
    _at_least(1, {"--n-tokens": n_tokens})
    _check_gpu(gpu_id)
    from ..benchmarks.report import pin_threads

    pin_threads(threads)
    from ..benchmarks.attention import run_attention_benchmark

    run_attention_benchmark(
        out_dir=out_dir,
        threads=threads,
        n_tokens=n_tokens,
        lengths=seq_lengths,
        n_pipeline_docs=pipeline_docs,
        repeats=repeats,
        seed=seed,
        gpu_id=gpu_id,
    )


@benchmark_app.command("vectors")
def benchmark_vectors(
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON and PNG go"),
    text: Path = typer.Option(
        None,
        "--text",
        help="Corpus: text, one sentence a line, or JSONL with a text field (default: corpus/generated/train.jsonl, else a synthetic corpus)",
    ),
    threads: int = typer.Option(1, "--threads", "-t", help="Threads for both trainers"),
    dim: int = typer.Option(100, "--dim"),
    window: int = typer.Option(5, "--window"),
    negative: int = typer.Option(5, "--negative"),
    min_count: int = typer.Option(5, "--min-count"),
    sample: float = typer.Option(1e-3, "--sample"),
    epochs: int = typer.Option(5, "--epochs"),
    max_words: int = typer.Option(600_000, "--max-words", help="Corpus tokens used (first sentences)"),
    seed: int = typer.Option(0, "--seed"),
    seeds: int = typer.Option(
        10, "--seeds", help="Runs a side (seeds seed, seed + 1, ...) whose mean is the region check (at least 2)"
    ),
) -> None:
    """Our word2vec vs gensim Word2Vec (skip-gram/CBOW × NS/HS): training
    words/s, ratio, and the same quality checks for both."""
    from ..benchmarks.report import pin_threads

    pin_threads(threads)
    from ..benchmarks.vectors import run_vectors_benchmark

    run_vectors_benchmark(
        out_dir=out_dir,
        text=text,
        threads=threads,
        dim=dim,
        window=window,
        negative=negative,
        min_count=min_count,
        sample=sample,
        epochs=epochs,
        max_words=max_words,
        seed=seed,
        seeds=seeds,
    )


@benchmark_app.command("pretrain-vectors")
def benchmark_pretrain_vectors(
    texts: List[Path] = typer.Argument(
        ..., help="French texts, one sentence a line (or .jsonl with a text field); each is one row pair"
    ),
    out_dir: Path = typer.Option(DEFAULT_BENCH_DIR, "--out", "-o", help="Where JSON, PNG and the runs' files go"),
    threads: int = typer.Option(2, "--threads", "-t", help="Training threads of both sides"),
    repeats: int = typer.Option(3, "--repeats", help="Runs a side, in turn (the median is kept)"),
    model: str = typer.Option("skipgram", "--model", help="skipgram or cbow"),
    loss: str = typer.Option("ns", "--loss", help="ns or hs"),
    epochs: int = typer.Option(5, "--epochs"),
    min_count: int = typer.Option(5, "--min-count"),
) -> None:
    """`pretrain-vectors` against gensim's Word2Vec as whole processes (start to exit,
    same text, same spaCy tokenising, same settings and threads): wall and CPU seconds,
    peak memory, each step's seconds, and the same quality checks for both outputs."""
    _at_least(1, {"--threads": threads, "--repeats": repeats, "--epochs": epochs, "--min-count": min_count})
    for name, value, allowed in (("--model", model, ("skipgram", "cbow")), ("--loss", loss, ("ns", "hs"))):
        if value not in allowed:
            raise typer.BadParameter(f"must be one of {', '.join(allowed)}, got {value!r}", param_hint=name)
    for text in texts:
        if not text.is_file():
            raise typer.BadParameter(f"{text} is not a file", param_hint="TEXTS")
    from ..benchmarks.pretrain import run_pretrain_benchmark

    settings = {"model": model, "loss": loss, "epochs": epochs, "min_count": min_count}
    run_pretrain_benchmark(texts, out_dir, threads=threads, repeats=repeats, settings=settings)
