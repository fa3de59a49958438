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
