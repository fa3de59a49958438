"""The rewriter's commands: `attention-map` (what a model attends to, as a
picture) and `compare-rewriters` (trained rewriters beside the baseline on the
hand-written sets, in one table)."""

from pathlib import Path

import typer

from .app import app

MATPLOTLIB_MISSING = (
    "attention-map draws with matplotlib, which is not installed: "
    "pip install -c constraints.txt '.[bench]' (or pip install matplotlib)"
)


@app.command("attention-map")
def attention_map_command(
    model: str = typer.Argument(..., help="A pipeline with a seqkit_rewriter, or with an attention encoder"),
    text: str = typer.Argument(..., help="The text to read"),
    output: Path = typer.Option(Path("attention.png"), "--output", "-o", help="PNG to write"),
    rewrite: str = typer.Option(None, "--rewrite", help="Draw this rewrite instead of the model's own"),
) -> None:
    """Draw what a model attends to, units written against units read: a
    recurrent rewriter's alignment, a Transformer rewriter's cross-attention
    per layer and head, or an attention encoder's self-attention per layer and
    head (tokens against tokens)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        typer.echo(MATPLOTLIB_MISSING, err=True)
        raise typer.Exit(2) from None
    import spacy

    try:
        nlp = spacy.load(model)
    except (OSError, ValueError) as e:
        typer.echo(f"Cannot load model '{model}': {e}", err=True)
        raise typer.Exit(2) from None
    try:
        maps, title = _attention_maps(nlp, text, rewrite)
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    if not maps:
        typer.echo(f"Nothing to draw: {text!r} has no source units", err=True)
        raise typer.Exit(2)
    draw_attention_maps(maps, output, title)
    typer.echo(f"Wrote {output} ({len(maps)} maps)")


def _attention_maps(nlp, text: str, rewrite):
    """(maps, title) of the pipeline's rewriter, else of its attention encoder."""
    from ..layers.attention import recorded_attention
    from ..layers.seq2seq.alignment import AttentionMap, rewrite_attention

    rewriters = [name for name, factory in nlp.pipe_factories.items() if factory == "seqkit_rewriter"]
    if rewriters:
        pipe = nlp.get_pipe(rewriters[0])
        if rewrite is None:
            rewrite = nlp(text)._.rewrite
        kind = pipe.model.name.replace("seqkit_", "").replace("_", " ")
        return rewrite_attention(pipe.model, nlp.make_doc(text), rewrite), f"{kind}: {text!r} -> {rewrite!r}"
    stacks = [
        node.layers[0].shims[0]._model
        for _, pipe in nlp.pipeline
        if hasattr(pipe, "model")
        for node in pipe.model.walk()
        if node.name == "seqkit_attention_encoder"
    ]
    if not stacks:
        raise ValueError(f"The pipeline (components: {nlp.pipe_names}) has no seqkit_rewriter and no attention encoder")
    with recorded_attention(stacks[0]) as records:
        doc = nlp(text)
    tokens = [t.text for t in doc]
    maps = [
        AttentionMap(f"layer {i + 1}, head {h + 1}", w[0, h].cpu().numpy(), tokens, tokens)
        for i, w in enumerate(records)
        for h in range(w.shape[1])
    ]
    return maps, f"attention encoder self-attention: {text!r}"


def draw_attention_maps(maps, path: Path, title: str, max_columns: int = 4) -> None:
    """One heat map per AttentionMap in a grid (`max_columns` wide: the heads
    of a layer side by side), units read along x, units written along y."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n_columns = min(max_columns, len(maps))
    n_rows = -(-len(maps) // n_columns)
    width = max(len(m.columns) for m in maps)
    height = max(len(m.rows) for m in maps)
    # Wide enough for the title too (about 0.075 inch a character at 10 points).
    size = (max(max(3.0, 0.18 * width + 1.5) * n_columns, 0.075 * len(title)), max(2.5, 0.18 * height + 1.5) * n_rows)
    fig, axes = plt.subplots(n_rows, n_columns, figsize=size, squeeze=False)
    for ax in axes.flat[len(maps) :]:
        ax.axis("off")
    for ax, amap in zip(axes.flat, maps):
        ax.imshow(amap.weights, cmap="Greys", vmin=0.0, vmax=1.0, aspect="auto")
        ax.set_xticks(range(len(amap.columns)), [_label(u) for u in amap.columns], rotation=90, fontsize=7)
        ax.set_yticks(range(len(amap.rows)), [_label(u) for u in amap.rows], fontsize=7)
        ax.set_title(amap.title, fontsize=9)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _label(unit: str) -> str:
    """A unit as a tick label: a space is shown as ␣."""
    return unit.replace(" ", "\u2423") if unit.strip() != unit or not unit else unit
