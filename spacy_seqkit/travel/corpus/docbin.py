"""Travel JSONL records → spaCy `DocBin` (spans as `doc.ents`, target string as `doc._.rewrite`)."""
from pathlib import Path
from typing import Dict, Iterable, Union

from .records import read_records, record_doc


def records_to_docbin(records: Iterable[Dict], lang: str = "fr", rewrite: bool = True):
    """A DocBin with one doc per record, tokenized by `spacy.blank(lang)`; with
    `rewrite`, each doc's user data (its `doc._.rewrite`) is stored too.

    Leave the rewrite out of a corpus that trains no rewriter: spaCy decodes a
    stored doc's user data with srsly, which looks its decoders up among every
    installed package's entry points, about a millisecond a doc, and `spacy
    train` pays it for every doc it initializes on and at every dev evaluation.
    """
    from spacy.tokens import DocBin

    from ...regex_cache import blank

    nlp = blank(lang)  # the tokenizer's largest pattern from the start-up cache
    docbin = DocBin(store_user_data=rewrite)
    for record in records:
        docbin.add(record_doc(nlp.make_doc, record))
    return docbin


def convert_file(
    input_path: Union[str, Path], output_path: Union[str, Path], lang: str = "fr", rewrite: bool = True
) -> int:
    """Convert a travel JSONL file to a .spacy file; returns the number of docs."""
    docbin = records_to_docbin(read_records(input_path), lang=lang, rewrite=rewrite)
    output_path = Path(output_path)
    output_path.parent.mkdir(parents=True, exist_ok=True)
    docbin.to_disk(output_path)
    return len(docbin)
