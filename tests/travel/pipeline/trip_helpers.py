"""Docs whose entities the test sets by hand, as the recognizer might have marked them."""

from spacy.tokens import Doc


def marked_doc(nlp, text: str, marked) -> Doc:
    """`text` made a doc whose entities are the (mention, label) pairs `marked` (each mention
    at its first occurrence in the text)."""
    doc = nlp.make_doc(text)
    ents = []
    for mention, label in marked:
        start = text.index(mention)
        ents.append(doc.char_span(start, start + len(mention), label=label))
    doc.ents = ents
    return doc
