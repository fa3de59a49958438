"""`seqkit_other_means`: does a request travel by another means than the train? One that asks for
no train is INVALID; one that also asks for a train has legs by each, and the places of a clause
by the other means alone are that leg's ("je vais en voiture de Lyon à Chambéry, puis de Chambéry
je prends le train pour Modane"). The rules: `patterns.toml`."""

import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set

from spacy.tokens import Doc, Span

from ....places.place import Place
from ...base import PLACE
from ...words import Words
from ..base import Fired, Qualifier

NEGATION_WINDOW = 3


class OtherMeans(Qualifier):
    attr = "other_means"
    folder = Path(__file__).parent

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        lex = self.lex
        # Any word that may name a means, in the raw text lowercased (the words are; a search that
        # ignores case took three times as long): most requests have none, and need no more.
        words = lex["other_means_words"] | lex["after_determiner"] | lex["cars"] | lex["on_foot"]
        # (Not "\b": an emoji has no word's edge.)
        self.any_means = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(words))) + r")(?!\w)")

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        if not self.any_means.search(words.span(0, len(words)).lower()):
            return
        marked = [m for m in mentions if m.label_ != PLACE]
        # The words of the places are no means of transport ("je serai à Avion"), unless typed as one.
        blank = {i for m in marked for i in range(m.start, m.end) if not self.means_read_as_place(words, i, m)}
        read = ["" if i in blank else w for i, w in enumerate(words.lower)]
        cue = next((i for i in range(len(read)) if self.mode_at(read, i) and not self.ruled_out(read, i)), None)
        if cue is None:
            return
        if cue <= 1 and words[cue + 1] in self.lex["heading_ends"]:
            yield None, "other_means", cue  # the request's heading: "Covoiturage — départ : Angers / arrivée : Le Mans"
            return
        trip = self.trip_elsewhere(words, marked, cue)
        if trip is not None and trip.start > cue and self.told_of_the_past(words, cue):
            return  # "Quand j'étais jeune, je montais à Paris en stop. Je vais de Troyes à Paris jeudi"
        if trip is not None and (
            (trip.start < cue and words.lower[trip.stop] in self.lex["full_stops"])
            or any(w in self.lex["ticket_words"] for w in words.lower[trip.start : trip.stop])
        ):
            return  # a ticket asked for in a sentence of its own: the means is another leg's, or another's
        legs = self.other_legs(read, {m.start for m in marked}, {m.start: m._.place for m in mentions})
        if legs is None:
            yield None, "other_means", cue
            return
        for k, m in enumerate(mentions):
            if m.start in legs:
                yield k, "other_leg", m.start

    def told_of_the_past(self, words: Words, cue: int) -> bool:
        """The sentence of the means at `cue` tells of a time gone by ("il est parti de Marseille en
        bateau", "l'été dernier on avait pris le car")."""
        sentence = self.sentence_of(words, cue)
        return words.tells_the_past(self.lex, sentence.start, sentence.stop)

    def names_a_train(self, words: Sequence[str]) -> bool:
        """A train word, not the "en train de" of an action in progress, nor a train ruled out,
        compared or refused."""
        lex = self.lex
        for i, word in enumerate(words):
            if word in lex["mode_train_words"] and not self.ruled_out(words, i) and not self.dismissed(words, i):
                progressive = (  # "en train de chercher", not "en train de [Nantes]" (a place read, blanked)
                    word == "train"
                    and 0 < i < len(words) - 2
                    and words[i - 1] == "en"
                    and words[i + 1] in lex["from"]
                    and words[i + 2] != ""
                )
                if not progressive:
                    return True
        return False

    def dismissed(self, words: Sequence[str], i: int) -> bool:
        lex = self.lex
        if any(w in lex["refusing"] for w in words[max(0, i - 5) : i]):
            return True
        for j in range(max(0, i - 3), i):
            if words[j] in lex["that"] and any(w in lex["comparing"] for w in words[max(0, j - 3) : j]):
                return True
        return "trop" in words[i + 1 : i + 5]

    def mode_at(self, words: Sequence[str], i: int) -> bool:
        lex = self.lex
        word, before = words[i], words[i - 1] if i > 0 else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        if i > 1 and words[i - 2] in lex["seeing"] and before in lex["articles"]:
            return False  # a means looked at, not taken: "voir les bateaux", "admirer les avions"
        if any(w in lex["replacing"] for w in words[i + 1 : i + 4]) and any(
            w in lex["is_there"] for w in words[max(0, i - 3) : i]
        ):
            return False  # asked whether a coach replaces the train: "y a un bus de remplacement ?"
        if word in lex["luggage"]:
            return before in lex["ridden"]
        if word in lex["other_leg_words"]:
            around = words[max(0, i - 2) : i]
            if any(w in lex["possessives"] or w in lex["catching"] for w in around):
                return False
            if around[:1] == ["pour"] and around[-1] in lex["determiners"]:
                return False  # "revenir avant 18h pour le bateau"
            if any(w in lex["arriving_by"] for w in words[max(0, i - 3) : i]):
                return False  # "j'arrive avec le bateau de croisière ... aller du Havre à Paris"
            if len(around) == 2 and around[0] in lex["having"] and words[i - 3 : i - 2] != ["y"]:
                return False  # "j'ai un vol", not "il y a un bateau"
            if around[-1:] == ["du"] or around == ["de", "l'"]:
                return False  # left: "je débarque du ferry"
        if word in lex["flying"]:
            return before not in lex["made"]  # not "je me suis fait voler mon billet"
        if word in lex["other_means_words"] or (
            i > 1 and before == "-" and f"{words[i - 2]}-{word}" in lex["other_means_words"]
        ):
            return True  # a word, or the end of a compound the tokenizer split: "camping - car"
        if word in lex["after_determiner"]:  # or a flight search's first word: "vol Paris Ajaccio"
            return before in lex["determiners"] or (i == 0 and word == "vol")
        if word in lex["cars"]:  # a car, not a train's coach: "voiture 12", "la même voiture", "voiture bar"
            return not after.isdigit() and after not in lex["coaches_after"] and before not in lex["coaches_before"]
        if word == "pied":  # walking, not a foot: "à pied"
            return before in lex["locative"]
        return word == "stop" and before in lex["hitching"]  # "en stop", "du stop", not a stop sign

    def ruled_out(self, words: Sequence[str], i: int) -> bool:
        start = max(0, i - NEGATION_WINDOW)
        if any(w in self.lex["mode_negations"] for w in words[start:i]):
            return True
        if any(w in self.lex["out_of_use"] for w in words[i + 1 : i + 1 + NEGATION_WINDOW + 1]):
            return True  # "ma voiture est en panne"
        return any(
            words[j] in self.lex["that"] and j > 0 and words[j - 1] in self.lex["rather"] for j in range(start, i)
        )

    def names_another_mode(self, words: Sequence[str]) -> bool:
        return any(self.mode_at(words, i) and not self.ruled_out(words, i) for i in range(len(words)))

    def other_legs(self, words: Sequence[str], starts: Set[int], places: Dict[int, Place]) -> Optional[Set[int]]:
        """The positions of the clauses that travel by another means and name no train (`starts`: the
        marked places), but for the last place of one that the words naming a train and another place
        (of `places`, by token) follow: where that train leaves. None where the request travels by
        another means: it names no train, and some clause by another means is neither its return nor
        what follows it, or the rest names fewer than two places."""
        clauses, start = [], 0
        for i in range(len(words) + 1):
            if i == len(words) or words[i] in self.lex["clause_breaks"]:
                clause = words[start:i]
                if self.names_another_mode(clause) and not self.names_a_train(clause):
                    clauses.append((start, i))
                start = i + 1
        legs = {i for s, e in clauses for i in range(s, e)}
        if not clauses or self.names_a_train(words):
            for s, e in clauses:
                last = max((i for i in places if s <= i < e), default=None)
                later = [place for i, place in places.items() if i >= e]
                if last is not None and later and places[last] not in later and self.names_a_train(words[e:]):
                    legs -= set(range(last, e))  # "le bateau nous dépose à Marseille, puis le train pour Paris"
            return legs
        then, returns, onward = self.lex["then"], self.lex["returns"], self.lex["onward"]
        going = any(self.asks_to_go(words, i) for i in range(len(words)) if i not in legs)
        other_legs = all(
            (s > 0 and words[s - 1] in then)
            or any(w in onward for w in words[s : s + 3])
            or any(w in returns for w in words[s:e])
            or (going and self.aside(words[s:e], any(s <= i < e for i in starts)))
            for s, e in clauses
        )
        return legs if other_legs and len([i for i in starts if i not in legs]) >= 2 else None

    def asks_to_go(self, words: Sequence[str], i: int) -> bool:
        """Word `i` asks for a trip: a verb of going, a ticket ("billets", "réserver"), a fare
        ("un aller simple", "deux allers-retours")."""
        word, lex = words[i], self.lex
        if word in lex["going_or_leaving"] or word in lex["ticket_words"]:
            return True
        before = words[i - 2 : i] if i > 1 and words[i - 1] == "-" else words[i - 1 : i]
        return word in lex["fares"] and bool(before) and before[0] in lex["fares_after"]

    def aside(self, clause: Sequence[str], names_a_place: bool) -> bool:
        """A clause by another means said aside from a trip asked for elsewhere (`asks_to_go`): it
        names no place, nor the means as the trip's manner ("..., en covoiturage"), taken ("..., je
        prendrai le bus") or asked about ("..., il y a un car ?"): 'Pour notre vol en montgolfière,
        je pars de Paris Est vers Metz', 'il faudra le bateau après... mais d'abord je vais de
        Quimper à Brest'."""
        lex = self.lex
        return (
            not names_a_place
            and clause[0] not in lex["ridden"]
            and not any(w in lex["is_there"] or w in lex["taking"] for w in clause)
        )

    def means_read_as_place(self, words: Words, i: int, span: Span) -> bool:
        """Token `i` of the place mention `span` is a means of transport: the mention's one word
        or its first before another place ("avion de Belfort"), typed in lowercase ("un billet
        d'avion", "nice a velo") or after "d'", "en", "l'", or the request's first word before a
        place's ("Covoiturage Pont Sainte Maxence"); not the town of "je serai à Avion"."""
        if words[i] not in self.lex["other_means_words"] or i != span.start:
            return False
        if i == 0 and span.end > 1:  # "Covoiturage Pont Sainte Maxence ...": a heading
            return True
        if i + 1 < span.end and words[i + 1] not in self.lex["read_as_place_joiners"]:
            return False
        return words.text[i].islower() or words[i - 1] in self.lex["before_means"]
