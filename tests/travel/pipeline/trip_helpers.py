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


def read(nlp, doc: Doc) -> Doc:
    """`doc` (its entities set) through every pipe of `nlp`: as the recognizer's output is read."""
    for _, pipe in nlp.pipeline:
        doc = pipe(doc)
    return doc


def ends_of(nlp, text: str, marked) -> tuple:
    """(departure, arrival) of `text` read with the entities `marked` (`marked_doc`)."""
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    return trip["departure"], trip["arrival"]


_READINGS: dict = {}


def without_steps(*steps: str):
    """The reading pipes with `seqkit_trip` reading through every default step but `steps` (a
    rule switched off in the config)."""
    from spacy_seqkit.travel.pipeline.roles.steps import DEFAULT_STEPS

    if steps not in _READINGS:
        _READINGS[steps] = reading(seqkit_trip={"steps": [s for s in DEFAULT_STEPS if s not in steps]})
    return _READINGS[steps]


def reading(without=(), **configs):
    """A blank French pipeline with the reading pipes but those `without`, `configs` giving each
    factory its config."""
    import spacy

    from spacy_seqkit.travel.pipeline.reading import add_reading

    nlp = add_reading(spacy.blank("fr"), configs)
    for name in without:
        nlp.remove_pipe(name)
    return nlp
