from ..base import register_qualifier
from .called_off import CalledOff

make_called_off = register_qualifier(
    "seqkit_called_off",
    CalledOff,
    """Sets `doc._.called_off` to "called_off" ("je ne veux pas aller à Lyon", "j'annule") or
    "told_of_the_past" ("hier je suis allé de Lille à Paris, c'était top"): the request asks for
    no trip.""",
)
