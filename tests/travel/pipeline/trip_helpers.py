"""Docs whose entities the test sets by hand, as the recognizer might have marked them."""

from spacy.tokens import Doc


def marked_doc(nlp, text: str, marked) -> Doc:
    """`text` made a doc whose entities are the (mention, label) pairs `marked`, each mention
    at its first occurrence in the text; a mention written in a context, "de [Brest]", is the
    bracketed words at the context's first occurrence (a second "Brest" of the text)."""
    doc = nlp.make_doc(text)
    ents = []
    for mention, label in marked:
        before, bracket, rest = mention.partition("[")
        before, words, after = (before, *rest.split("]", 1)) if bracket else ("", mention, "")
        start = text.index(before + words + after) + len(before)
        ents.append(doc.char_span(start, start + len(words), label=label))
    doc.ents = ents
    return doc
