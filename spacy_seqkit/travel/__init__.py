"""French travel requests: gazetteer, templates, noise, corpus generation and conversion."""
from .gazetteer import Gazetteer, normalise
from .generate import generate_corpus, read_jsonl, rewrite_of, write_jsonl
from .docbin import convert_file, records_to_docbin

__all__ = [
    "Gazetteer", "normalise", "generate_corpus", "read_jsonl", "write_jsonl", "rewrite_of",
    "convert_file", "records_to_docbin",
]
