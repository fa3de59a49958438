"""`seqkit_alternative`: an end offered with an alternative ("de Nîmes ou d'Arles à Aix",
"soit Lyon soit Grenoble") or compared with another ("je préfère Dunkerque à Albertville") makes
no single trip (the rules: `patterns.toml`)."""

from pathlib import Path
from typing import Dict, Iterable, List, Set

from spacy.tokens import Doc, Span

from ....places.names import FOREIGN_PLACES, normalise
from ...words import Words
from ..base import Fired, Qualifier


class Alternative(Qualifier):
    attr = "alternative"
    folder = Path(__file__).parent

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        lex = self.lex
        self.choosing = lex["choosing"] | lex["which_one"]  # a request choosing between places
        self.second_of_each = lex["one_each"] | lex["the_other"]

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        lex = self.lex
        starts, ends = {m.start for m in mentions}, {m.end for m in mentions}
        chooses = words.any_in(0, words.n, self.choosing)
        each = self.one_of_each(words, starts) if chooses else {}
        between = self.chosen_between(words, starts) if chooses else {}
        for k, m in enumerate(mentions):
            if m.start in each:
                yield k, "one_of_each", each[m.start]
            elif m.start in between:
                yield k, "choice_between", between[m.start]
        chosen = each.keys() | between.keys()
        if not any(w in lex["alternatives"] or w in lex["preferring"] for w in words.lower):
            return
        links = lex["alternative_links"]

        def names_place(start: int, end: int) -> bool:  # tokens `start:end` name a place, maybe mistyped
            if not words.text[end - 1].replace("-", "").isalpha():
                return False
            text = words.text[start:end]
            return self.places.resolve(doc[start:end].text) is not None or self.places.name_spans(text) == [
                (0, end - start)
            ]

        def place_at(start: int) -> bool:  # a place starts at `start`, after "ou de", "ou bien à"...
            while start < words.n and words[start] in links:
                start += 1
            if start in starts or words.any_in(start, start + 2, lex["elsewhere"]):  # "ou plus loin"
                return True
            return normalise(words[start]) in FOREIGN_PLACES or any(
                names_place(start, end) for end in range(start + 1, min(start + 4, words.n) + 1)
            )

        def place_before(end: int) -> bool:  # a place ends at `end`
            return end in ends or any(names_place(start, end) for start in range(max(0, end - 3), end))

        doubted = self.in_doubt(words, starts)
        for k, m in enumerate(mentions):
            if m.start in chosen:
                continue
            if m.start in doubted:
                yield k, "in_doubt", doubted[m.start]
                continue
            after = m.end + (m.end < words.n and words.text[m.end] == ",")
            before = m.start
            while before > 0 and words[before - 1] in links:
                before -= 1
            if words[after] in lex["alternatives"] and place_at(after + 1):
                yield k, "alternative", after
            elif words[before - 1] in lex["preferring"] and before > 0 and words[after] in lex["locative"]:
                if place_at(after + 1):  # "je préfère Saintes à Roubaix", not "... Saintes à 8 h"
                    yield k, "compared", before - 1
            elif (
                before > 0
                and words[before - 1] in lex["alternatives"]
                and (words[before - 1] == "soit" or place_before(before - 1))
            ):
                yield k, "alternative", before - 1

    def chosen_between(self, words: Words, starts: Set[int]) -> Dict[int, int]:
        """The starts of the two places of "entre X et Y" within four words of choosing ("nous
        hésitons entre Royan et La Rochelle"), each with its "entre"."""
        found: Dict[int, int] = {}
        for i in range(words.n):
            if words[i] != "entre" or i + 1 not in starts or not words.any_in(i - 4, i, self.lex["choosing"]):
                continue
            other = next(
                (j + 1 for j in range(i + 2, min(i + 8, words.n)) if words[j] == "et" and j + 1 in starts), None
            )
            if other is not None:
                found.update({i + 1: i, other: i})
        return found

    def one_of_each(self, words: Words, starts: Set[int]) -> Dict[int, int]:
        """The starts of two places named one each in a sentence ("l'un à Quimper, l'autre à
        Lorient", "un à Vannes et un à Saint-Brieuc"), each with its "un" or "autre"; read only in a
        request that chooses between places ("choisir", "lequel": `process`), not where both are
        visited ("l'un à Bayeux le matin et l'autre à Saint-Lô à 15 h")."""
        lex = self.lex

        def named_at(i: int, heads) -> bool:
            return words[i] in heads and words[i + 1] in lex["locative"] and i + 2 in starts

        found: Dict[int, int] = {}
        for sentence in self.sentences(words):
            firsts = [i for i in sentence if named_at(i, lex["one_each"])]
            for i in firsts:
                other = next((j for j in range(i + 3, sentence.stop) if named_at(j, self.second_of_each)), None)
                if other is not None:
                    found.update({i + 2: i, other + 2: other})
                    break
        return found

    def in_doubt(self, words: Words, starts: Set[int]) -> Dict[int, int]:
        """The positions of the words said after a doubt ("je ne sais pas encore si") up to the last
        "ou" of its sentence that a place follows within five words ("ou chez ma mère à Bayeux";
        not "ou pas"), each with the doubt's "si"."""
        lex, doubted = self.lex, {}
        for sentence in self.sentences(words):
            for i in sentence:
                if words[i] not in lex["whether"] or not any(
                    words[j] in lex["not_knowing"] and "pas" in words.lower[j:i]
                    for j in range(max(sentence.start, i - 4), i)
                ):
                    continue
                offered = [
                    j
                    for j in range(i + 1, sentence.stop)
                    if words[j] == "ou" and any(k in starts for k in range(j + 1, min(j + 6, sentence.stop)))
                ]
                last_or = max(offered, default=None)
                if last_or is not None:
                    doubted.update({j: i for j in range(i + 1, last_or)})
                break
        return doubted
