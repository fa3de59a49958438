"""`python -m spacy_seqkit serve MODEL`: the travel pipeline over HTTP."""
import typer

from . import app


@app.command("serve")
def serve_command(
    model: str = typer.Argument(..., help="Trained pipeline: a directory or an installed package"),
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (0.0.0.0: every one)"),
    port: int = typer.Option(8000, "--port", "-p", help="TCP port"),
    max_body_bytes: int = typer.Option(1_000_000, "--max-body-bytes", help="Largest request body (larger: 413)"),
    max_orders: int = typer.Option(1_000, "--max-orders", help="Most orders in one request (more: 413)"),
    batch_size: int = typer.Option(64, "--batch-size", "-b", help="Orders per nlp.pipe batch"),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's log level (warning: no line per request)"),
) -> None:
    """HTTP service (FastAPI + uvicorn): POST /resolve with {"text": ...} or
    {"orders": [{"id", "sentence"}, ...]}, GET /health, and GET / a page that
    shows a request's entities and trip (the serve extra: FastAPI, uvicorn)."""
    for hint, value in (("--max-body-bytes", max_body_bytes), ("--max-orders", max_orders), ("--batch-size", batch_size)):
        if value < 1:
            raise typer.BadParameter(f"must be a positive integer, got {value}", param_hint=hint)
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        typer.echo("serve needs FastAPI and uvicorn: pip install 'spacy-seqkit[serve]'", err=True)
        raise typer.Exit(2)
    from ..travel.serve import serve
    from ..travel.stream import load_pipeline

    try:
        nlp = load_pipeline(model)
    except (OSError, ValueError) as e:
        typer.echo(f"Cannot use model '{model}': {e}", err=True)
        raise typer.Exit(2)
    serve(nlp, host=host, port=port, log_level=log_level, max_body_bytes=max_body_bytes,
          max_orders=max_orders, batch_size=batch_size)
