"""CamemBERT folders: check one against a config, or make a tiny random one."""

from pathlib import Path

import typer

from .app import app


@app.command("check-transformer")
def check_transformer_command(
    directory: Path = typer.Argument(
        ..., help="Local camembert-base directory (config.json, weights, sentencepiece.bpe.model)"
    ),
    config: Path = typer.Option(None, "--config", help="Config to fill, e.g. configs/ner_trf.cfg"),
    output: Path = typer.Option(
        None, "--output", "-o", help="Write the config with paths.transformer and the directory's hyper-parameters"
    ),
    read_weights: bool = typer.Option(
        True, "--read-weights/--no-read-weights", help="Also open the weights and check their shapes"
    ),
    variable: str = typer.Option(
        "paths.transformer",
        "--variable",
        help="Name of the setting that gave DIRECTORY, for error messages (e.g. vars.trf_model)",
    ),
) -> None:
    """Check a local CamemBERT directory before training `configs/ner_trf.cfg`,
    and write a config whose transformer matches it."""
    from wasabi import msg

    from ..loaders.camembert import check_transformer_dir, describe, fill_config

    if (config is None) != (output is None):
        raise typer.BadParameter("--config and --output go together", param_hint="--output")
    try:
        files = check_transformer_dir(directory, variable=variable, read_weights=read_weights)
    except ValueError as e:
        msg.fail(str(e))
        raise typer.Exit(2) from None
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
            raise typer.Exit(2) from None
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

    from ..loaders.tiny import build_tiny_camembert
    from ..travel.corpus.generate import generate_corpus

    def travel_requests():  # generated only once the sizes are checked
        train, _ = generate_corpus(seed=seed, n_train=2000, n_dev=0)
        yield from (r["text"] for r in train)

    try:
        build_tiny_camembert(
            directory,
            travel_requests(),
            n_layers=n_layers,
            width=width,
            n_heads=n_heads,
            intermediate_width=intermediate_width,
            n_pieces=n_pieces,
            weights=weights,
            seed=seed,
        )
    except ValueError as e:
        msg.fail(str(e))
        raise typer.Exit(2) from None
    msg.good(f"Wrote a tiny random CamemBERT to {directory}")
