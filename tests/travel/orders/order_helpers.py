"""Answer a CSV held in memory through `resolve`'s one streaming path, in this process."""

import io
from typing import Dict, Tuple

from spacy_seqkit.travel.orders.backends import InProcess
from spacy_seqkit.travel.orders.stream import resolve_inputs


def answer_csv(nlp, data: bytes, **kwargs) -> Tuple[str, str, Dict[str, int]]:
    """The output, the report and the counts of `resolve` on `data`."""
    out, err = io.StringIO(), io.StringIO()
    counts = resolve_inputs([io.BytesIO(data)], InProcess(nlp), out=out, err=err, **kwargs)
    return out.getvalue(), err.getvalue(), counts


def refused(args):
    """`python -m spacy_seqkit` with `args`, in this process (typer's runner): its exit code,
    its stderr, its stdout, and whether it ended in an exception other than its exit (a
    traceback for a user). For the refusals made before any pipeline is loaded: a fresh
    process would only add the seconds of importing spaCy and torch."""
    from typer.testing import CliRunner

    from spacy_seqkit.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    return result.exit_code, result.stderr, result.stdout, crashed
