"""Two towns' teams in a match are no ends of a trip: "Lens contre Lille", "Nantes reçoit
Toulouse", "Béziers a battu Narbonne", "le match Nantes - Lens", "score match lens lille"."""

from typing import Sequence, Set, Tuple

from ..lexicon import lexicon
from ..words import Words

# Word classes (lexicon/words.toml): "match_words" (what joins two teams: "contre", "reçoit"),
# "match_auxiliaries" (before it: "a battu"), "match_openers" (a match named before its two
# teams: "match", "score"), "pair_joiners" (a dash between them), "from_any" ("le match de Lens").
LEX = lexicon()


def match_sides(words: Words, mentions: Sequence[Tuple[int, int]]) -> Set[Tuple[int, int]]:
    """The mentions, (start, end) in reading order, that are the two sides of a match: two
    mentions with only a match's word between them ("Lens contre Lille", "Lens a battu Metz"),
    or two right after a match's name with a dash or nothing between them ("le match Nantes -
    Lens"). "Le match de Lens" alone, or "je vais au match à Lens depuis Lille", names none."""
    sides: Set[Tuple[int, int]] = set()
    for first, second in zip(mentions, mentions[1:]):
        between = [words[i] for i in range(first[1], second[0]) if words[i] != "#"]  # "#Bordeaux vs #Toulouse"
        if between[:1] and between[0] in LEX["match_auxiliaries"]:
            between = between[1:]
        joined = len(between) == 1 and between[0] in LEX["match_words"]
        i = first[0] - 1
        while words[i] in LEX["from_any"] or words[i] == "#":
            i -= 1
        opened = words[i] in LEX["match_openers"] and (
            not between or (len(between) == 1 and between[0] in LEX["pair_joiners"] | LEX["match_words"])
        )
        if joined or opened:
            sides.update((first, second))
    return sides
