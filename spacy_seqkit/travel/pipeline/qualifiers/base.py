"""A qualifier: a pipe that reads the place mentions of `doc.spans["places"]` and the doc's words
with its word classes and sets one attribute, `span._.<attr>` of a mention or `doc._.<attr>`, to
the id of the rule that fired there, or None. Its rules and words are data (its folder's
`patterns.toml`, which may use the shared classes of `lexicon/words.toml`); the config may give any
class other words (`words`); with `explain`, each rule that fires is recorded with its cue in
`doc._.cues`. A rule whose `rules_out` is true makes its mention no end and no stop of the trip."""

from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Type

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..base import ReadingPipe
from ..extensions import install_extensions
from ..lexicon import lexicon, patterns
from ..words import Words, words_of

# A rule that fired: (the mention it is about, or None for the doc; the rule's id; the token the
# cue is at, or None).
Fired = Tuple[Optional[int], str, Optional[int]]
KEY = "places"


class Qualifier(ReadingPipe):
    attr: str  # the attribute it sets, on the doc or on each mention
    folder: Path  # where patterns.toml is

    def __init__(
        self,
        name: str,
        *,
        words: Optional[Mapping[str, str]] = None,
        explain: bool = False,
        places=None,
    ) -> None:
        data = patterns(self.folder)
        self.rules: Dict[str, Dict[str, Any]] = data.pop("rules", {})
        overrides = {}
        for cls, value in (words or {}).items():
            if cls not in data and cls not in lexicon().specs:
                raise ValueError(f"{name}: 'words' names no word class {cls!r} (one of {', '.join(sorted(data))})")
            if not isinstance(value, str):
                raise ValueError(f"{name}: the words of {cls!r} must be a string of words, got {value!r}")
            overrides[cls] = {"words": value}
        self.lex = lexicon().extended({**data, **overrides})
        self.name, self.explain, self._places = name, explain, places
        install_extensions()
        for target in (Doc, Span):
            if not target.has_extension(self.attr):
                target.set_extension(self.attr, default=None)

    def rules_out(self, rule: Optional[str]) -> bool:
        return bool(rule and self.rules.get(rule, {}).get("rules_out"))

    def __call__(self, doc: Doc) -> Doc:
        mentions = list(doc.spans[KEY]) if KEY in doc.spans else []
        words = words_of(doc)
        fired = list(self.process(doc, words, mentions))
        for index, rule, cue in fired:
            target = doc if index is None else mentions[index]
            if getattr(target._, self.attr) is None:  # the first rule of a mention is its
                setattr(target._, self.attr, rule)
            if self.explain:
                record = {"qualifier": self.name, "rule": rule, "cue": words.text[cue] if cue is not None else None}
                if index is not None:
                    record["mention"] = mentions[index].text
                doc._.cues = [*(doc._.cues or []), record]
        return doc

    def process(self, doc: Doc, words: Words, mentions: List[Span]) -> Iterable[Fired]:
        raise NotImplementedError

    def trip_asked_after(self, words: Words, mentions: List[Span], cue: int) -> bool:
        """A departure and an arrival the recognizer marked both stand in a sentence after the one
        of the cue at `cue`: what the cue says ("Billet Quimper – Paris annulé. Merci de me proposer
        un train de Quimper à Paris jeudi") is not said of that trip, whatever sentence before the
        cue names one too."""
        return any(sentence.start > cue for sentence in self.trip_sentences(words, mentions, cue))

    def trip_elsewhere(self, words: Words, mentions: List[Span], cue: int) -> Optional[range]:
        """The first sentence other than the cue's that holds a departure and an arrival the
        recognizer marked, or None."""
        return next(self.trip_sentences(words, mentions, cue), None)

    def sentences(self, words: Words) -> Iterator[range]:
        """The sentences of `words` in order, between the words of `sentence_ends`."""
        ends, start = self.lex["sentence_ends"], 0
        for i in range(len(words) + 1):
            if i == len(words) or words.lower[i] in ends:
                yield range(start, i)
                start = i + 1

    def sentence_of(self, words: Words, i: int) -> range:
        """The sentence token `i` stands in."""
        return next(s for s in self.sentences(words) if i in s)

    def trip_sentences(self, words: Words, mentions: List[Span], cue: int) -> Iterator[range]:
        """The sentences other than the cue's that hold a departure and an arrival the recognizer
        marked, in order."""
        for sentence in self.sentences(words):
            labels = {m.label_ for m in mentions if m.start in sentence}
            if cue not in sentence and {"DEPART", "ARRIVEE"} <= labels:
                yield sentence


def qualifier_rules(qualifiers: Iterable[Qualifier]) -> Dict[str, bool]:
    """Whether each rule of the qualifiers rules its mention out, by "qualifier.rule"."""
    return {f"{q.attr}.{rule}": q.rules_out(rule) for q in qualifiers for rule in q.rules}


def register_qualifier(factory: str, cls: Type[Qualifier], doc: str):
    """The spaCy factory `factory` of the qualifier class `cls` (settings: `words`, the word
    classes the config gives other words, and `explain`), documented by `doc`."""

    def make(nlp: Language, name: str, words: Optional[Dict[str, str]], explain: bool) -> Qualifier:
        return cls(name, words=words, explain=explain)

    make.__doc__ = doc
    assigns = [f"doc._.{cls.attr}", f"span._.{cls.attr}"]
    Language.factory(
        factory, assigns=assigns, requires=["doc.spans"], default_config={"words": None, "explain": False}
    )(make)
    return make
