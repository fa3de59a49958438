"""`seqkit_called_off`: requests that call their trip off ("je ne veux pas aller à Lyon", "j'annule
mon Paris-Lyon"), tell one gone by and ask for none ("hier je suis allé de Lille à Paris") or
remember, dream of or review one ("mon rêve : de Strasbourg à Hendaye"), or hold its ticket
already ("j'ai déjà mes billets Nancy-Épinal, ..."):
INVALID, whatever places they name (the rules: `patterns.toml`)."""

from pathlib import Path
from typing import Iterable, List, Optional, Set

from spacy.tokens import Doc, Span

from ...words import Words
from ..base import Fired, Qualifier


class CalledOff(Qualifier):
    attr = "called_off"
    folder = Path(__file__).parent

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        cue = self.calls_off(words.lower)
        if cue is not None:
            if not self.trip_asked_after(words, mentions, cue):
                yield None, "called_off", cue
            return
        lex, seen = self.lex, set(words.lower)
        held = self.ticket_held(words.lower, seen)
        if held is not None:
            yield None, "ticket_held", held
            return
        if seen & lex["weather"] and not seen & lex["weather_asking"]:
            yield None, "weather", next(i for i, w in enumerate(words.lower) if w in lex["weather"])
            return
        if seen & lex["stories"] and not seen & lex["request_words"]:
            named = {i for m in mentions for i in range(m.start, m.end)}  # "Breuil Roman" is a place
            told = [i for i, w in enumerate(words.lower) if w in lex["stories"] and i not in named]
            if told:
                yield None, "told", told[0]
                return
        deeds = words.deeds_done(lex) if seen & lex["past_times"] and not seen & lex["requesting"] else []
        if deeds:
            yield None, "told_of_the_past", deeds[0]

    def ticket_held(self, words: List[str], seen: Set[str]) -> Optional[int]:
        """Where one's own ticket is said to be held already ("j'ai déjà mes billets Nancy-Épinal",
        "mon billet Angoulême-Bordeaux est déjà imprimé"), in a request that asks for no other one
        (`another_asked`) nor the way back, or None; `seen`: the set of `words`."""
        lex = self.lex
        if not seen & lex["already"] or "retour" in seen or self.another_asked(words):
            return None
        for i, word in enumerate(words):
            if word in lex["held_tickets"] and words[i - 1 : i] and words[i - 1] in lex["own"]:
                if any(w in lex["already"] for w in words[max(0, i - 4) : i + 8]):
                    return i
        return None

    def denied_at(self, words: List[str], i: int) -> int:
        """Where a denied trip ends, its "ne" at `i` ("ne veux pas aller", "n'irai pas", "n'y vais
        plus", "n'ai pas envie d'aller"), or -1."""
        lex, n = self.lex, len(words)
        j = i + 1 + (i + 1 < n and words[i + 1] in lex["object_pronouns"])
        if j + 1 >= n or words[j + 1] not in lex["denials"]:
            return -1
        verb, j = words[j], j + 2
        if j + 1 < n and words[j] == "du" and words[j + 1] == "tout":
            j += 2
        if verb in lex["having"]:  # "je n'ai pas envie d'aller"
            if words[j : j + 2] != ["envie", "d'"]:
                return -1
            verb, j = "veux", j + 2
        if verb in lex["wanting"]:
            j += j < n and words[j] in lex["object_pronouns"]
            if j >= n or words[j] not in lex["to_go"]:
                return -1
            j += 1
        elif verb not in lex["going_or_leaving"]:
            return -1
        if j < n and words[j] in lex["object_pronouns"]:  # "faire" / "rendre" need their object
            return -1
        if j < n and words[j] not in lex["trip_words"] and words[j] not in lex["clause_ends"]:
            return -1
        if j < n and any(w in lex["no_trip_after"] for w in words[j + 1 : j + 3]):
            return -1  # "je ne peux pas monter à l'étage": no place
        clause = j
        while clause < n and words[clause] not in lex["clause_ends"]:
            if words[clause] in lex["circumstances"] or any(c.isdigit() for c in words[clause]):
                return -1  # "je ne veux pas aller à Lyon avant midi": the hour denied
            clause += 1
        return j

    def another_asked(self, words: List[str]) -> bool:
        """A train or a ticket asked for anew, wherever it stands: "un train", "quoi comme train",
        "un autre", "le suivant"."""
        lex = self.lex
        return any(
            (
                w in lex["a_new_one"]
                and words[k + 1 : k + 2]
                and (words[k + 1] in lex["trains"] or words[k + 1] in lex["new_one_of"])
            )
            or w in lex["another_one"]
            for k, w in enumerate(words)
        )

    def asking(self, words: List[str]) -> List[bool]:
        """For each position, whether a contrast, or a verb of going, needing or booking not
        denied, stands there or after it (one pass from the end: a long request is read once)."""
        lex = self.lex
        asking = [False] * (len(words) + 1)
        for k in range(len(words) - 1, -1, -1):
            word = words[k]
            verb = (
                word in lex["going_or_leaving"]
                or word in lex["needing"]
                or word in lex["to_go"]
                or word in lex["booking"]
            )
            denied = any(w in lex["not"] for w in words[max(0, k - 3) : k])
            asking[k] = word in lex["contrasts"] or (verb and not denied) or asking[k + 1]
        return asking

    def calls_off(self, words: List[str]) -> Optional[int]:
        """Where the words that call the trip off are, or None."""
        lex, asking = self.lex, None
        for i, word in enumerate(words):
            if word in lex["not"]:
                end = self.denied_at(words, i)
            elif word in lex["cancelling"] and not any(w in lex["cancelled_things"] for w in words[max(0, i - 6) : i]):
                if self.another_asked(words):
                    continue  # "le 7h34 a l'air annulé, il y en a un autre ?"
                end = i + 1
            elif word == "finalement" and words[i + 1 : i + 2] in (["non"], ["pas"]):
                end = i + 2 + (i + 2 < len(words) and words[i + 2] in lex["clause_ends"])
                if end < len(words) and words[end] not in lex["saying_so"]:
                    continue  # "finalement non, (de) Lyon": a correction
            else:
                continue
            if end < 0:
                continue
            asking = asking or self.asking(words)
            if not asking[min(end, len(words))]:
                return i
        return None
