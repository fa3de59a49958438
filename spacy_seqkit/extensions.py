"""The Doc extensions of rewriting: `doc._.rewrite` (str: the rewrite, or the
gold on a reference doc) and `doc._.rewrite_nbest` (list of (string, score),
best first). The reader, the scorer and the rewriter component install them."""

from spacy.tokens import Doc

REWRITE_EXTENSIONS = ("rewrite", "rewrite_nbest")


def install_rewrite_extensions() -> None:
    """Idempotent: every user asks for them."""
    for name in REWRITE_EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
