"""Travel JSONL records → spaCy `DocBin` (spans as `doc.ents`, target string as `doc._.rewrite`)."""
from pathlib import Path
from typing import Dict, Iterable, Union

from .generate import read_jsonl, rewrite_of

# Where `doc._.rewrite` keeps its value: spaCy stores extension attributes in
# doc.user_data under this key, so the value is there before the extension is registered.
REWRITE_KEY = ("._.", "rewrite", None, None)


def records_to_docbin(records: Iterable[Dict], lang: str = "fr"):
    """A DocBin (user data stored) with one doc per record, tokenized by `spacy.blank(lang)`."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank(lang)
    docbin = DocBin(store_user_data=True)
    for n, record in enumerate(records):
        record_id = record.get("id", f"#{n}")
        doc = nlp.make_doc(record["text"])
        ents = []
        for span in record.get("spans", []):
            ent = doc.char_span(span["start"], span["end"], label=span["label"])
            if ent is None:
                mention = record["text"][span["start"]: span["end"]]
                raise ValueError(
                    f"record {record_id}: span {span['start']}-{span['end']} ({mention!r}, "
                    f"{span['label']}) does not fall on token boundaries of spacy.blank({lang!r}): "
                    f"{[t.text for t in doc]}"
                )
            ents.append(ent)
        try:
            doc.ents = ents
        except ValueError as err:
            raise ValueError(f"record {record_id}: overlapping spans ({err})") from None
        doc.user_data[REWRITE_KEY] = record.get("rewrite") or rewrite_of(record.get("trip"))
        docbin.add(doc)
    return docbin


def convert_file(input_path: Union[str, Path], output_path: Union[str, Path], lang: str = "fr") -> int:
    """Convert a travel JSONL file to a .spacy file; returns the number of docs."""
    docbin = records_to_docbin(read_jsonl(input_path), lang=lang)
    output_path = Path(output_path)
    output_path.parent.mkdir(parents=True, exist_ok=True)
    docbin.to_disk(output_path)
    return len(docbin)
