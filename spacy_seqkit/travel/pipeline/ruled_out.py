"""Places a request rules out: "pas Hendaye finalement : de Dax à Libourne", "à Sedan, non
pardon, à Reims". Such a mention is no end and no stop; `seqkit_trip` drops it before it
assigns the roles.

Two shapes, each narrow enough that an ordinary "pas" keeps its places:

- a cue right before the place, with only prepositions and articles between: "pas (à)
  Hendaye", "non pas Lyon", "et non de Rennes", "plutôt que Nantes", "au lieu de Rennes",
  "sauf Tours", "excepté Lyon", "oubliez Lille Europe", "pas de départ de Massy" (a bare
  "non" before a place is the correction's, below). Any other word between breaks it: in "je ne veux pas partir trop tard
  de Lyon" the "pas" denies the hour, not Lyon. Only after "plutôt que", "au lieu de" and
  "sans" (and "pas passer par") may a verb of travel stand between ("au lieu d'aller à
  Rennes", "sans passer par Tours"), and after a "pas" that denies a verb of travel ("je ne veux
  pas aller à Lille, ..."), as below. A "pas" that follows a verb ("je ne pars pas de Lyon")
  may deny the verb's circumstances ("... avant dix heures" keeps Lyon): it rules the place
  out only when a contrast follows it ("je ne vais pas à Lyon mais à Grenoble", "..., à
  Grenoble"); a "pas" that opens its clause ("pas Hendaye", "non pas Lyon", ", mais pas
  par Tours") needs none;
- a correction right after the place, then another place: "à Sedan, non pardon, à Reims",
  "de Paris, enfin non, de Versailles", "à Brive, ou plutôt à Souillac" (", enfin plutôt",
  ", plutôt", ", enfin": "de Nancy, enfin de Metz"), "à Lens mais finalement ce sera Béthune". The other place must
  follow, so that a trailing "non ?" rules nothing out, and "non pas" leaves the place before
  it alone ("à Lyon, non pas à Grenoble" rules out Grenoble, by the first shape).

A third: where someone lives, works or is ("j'habite à Rouen", "je travaille à Nantes", "mes
parents sont à Brest"), when a pair "de X à Y" of mentions follows it: the request's context,
not one of its ends (`context_before_pair`). Such a place is never a stop either, and of two
ends read with one role, the other goes first (`where_one_is`, read by `pairs.cued_first`).

A fourth: a place the words after it put abroad ("Vienne en Autriche": `abroad_after`); a
fifth, a person named like a town ("Mme Laval", "ma sœur Nancy": `named_person`); a sixth,
where one was born or grew up ("j'ai grandi à Nancy": `where_one_grew_up`).

And two corrections that rule nothing out: an end a correction brings ("..., finalement plutôt
au départ d'Angers", "en fait pour Béziers") goes before the one it corrects
(`corrects_before`, read by `pairs.cued_first`), and "euh non, l'inverse", "pardon, c'est le
contraire" after the trip's ends swaps them (`reversed_after`, read by
`cued_ends.roles_reversed`).
"""

from typing import Collection

from spacy.tokens import Span

from .written import POSSESSIVES

# What may stand between a cue and its place.
LINKS = frozenset("à a au aux de d' d du des pour par vers en la le les l' l depuis jusqu' jusqu'à jusque sur".split())
CUES_BEFORE = frozenset({"pas", "sauf", "excepté", "excepte", "hormis", "oubliez", "oublie", "oublions"})
# What a denied "pas de" may name before the place: "pas de départ de Massy TGV".
DENIED_LEGS = frozenset({"départ", "depart", "arrivée", "arrivee", "arrêt", "arret", "escale", "passage"})
# What a "pas" that opens its clause follows; and what follows a place denied after a verb.
CLAUSE_OPENERS = frozenset({"non", "mais", "et", "ou", "surtout", "donc", "alors", "puis"})
RATHER = frozenset({"plutôt", "plutot"})
CONTRASTS = frozenset({",", ";", ":", ".", "!", "mais", "finalement"}) | RATHER
TRAVEL_VERBS = frozenset("aller partir passer arriver descendre monter rentrer rejoindre voyager transiter".split())
# Words that say the place before them was a slip; one of them makes a correction.
CORRECTIONS = frozenset(
    {"non", "pardon", "oups", "erreur", "correction", "dire", "trompé", "trompée", "trompe", "trompais"}
)
# Words a correction may hold beside those: "enfin non", "euh non pardon", "je veux dire".
CORRECTION_FILLERS = frozenset(
    "enfin euh heu hum ah oh bah ben zut mince attendez attends désolé désolée je j' veux voulais me m' suis "
    "ou plutôt plutot mais ce ça sera serait c' est".split()
)
MAX_CORRECTION_TOKENS = 8


def _word(doc, i: int) -> str:
    return doc[i].lower_.replace("’", "'")


def _skip_links_back(doc, i: int) -> int:
    while i >= 0 and _word(doc, i) in LINKS:
        i -= 1
    return i


def _preference_cue_ends_at(doc, i: int) -> bool:
    """ "plutôt que", "au lieu (de)" or "sans" ends at token i."""
    if i < 0:
        return False
    word = _word(doc, i)
    if word in {"que", "qu'"}:
        return i > 0 and _word(doc, i - 1) in RATHER
    if word == "lieu":
        return i > 0 and _word(doc, i - 1) == "au"
    return word == "sans"


def _opens_clause(doc, i: int) -> bool:
    return i == 0 or doc[i - 1].is_punct or _word(doc, i - 1) in CLAUSE_OPENERS


def ruled_out_before(mention: Span) -> bool:
    """A cue before the mention rules it out (the first shape of the module docstring)."""
    doc = mention.doc
    i = _skip_links_back(doc, mention.start - 1)
    if i < 0:
        return False
    word = _word(doc, i)
    if word == "plus" and any(_word(doc, k) in {"ne", "n'"} for k in range(max(0, i - 3), i)):
        word = "pas"  # "je ne pars plus de Lyon, ..."
    if word == "pas" and not _opens_clause(doc, i):
        return mention.end < len(doc) and _word(doc, mention.end) in CONTRASTS
    if word in CUES_BEFORE or _preference_cue_ends_at(doc, i):
        return True
    if word == "non" and i > 0 and _word(doc, i - 1) == "et":  # "de Laval et non de Rennes"
        return True
    if word in DENIED_LEGS:  # "pas de départ de Massy", "pas d'arrêt à Dijon"
        return _word(doc, max(0, _skip_links_back(doc, i - 1))) == "pas"
    if word in TRAVEL_VERBS:
        before = _skip_links_back(doc, i - 1)
        if _preference_cue_ends_at(doc, before):
            return True
        if before < 0 or _word(doc, before) != "pas":
            return False
        # "sans / pas passer par Tours"; "je ne veux pas aller à Lille, ..." as a "pas" after a verb
        return word == "passer" or (mention.end < len(doc) and _word(doc, mention.end) in CONTRASTS)
    return False


def corrected_after(mention: Span, mention_starts: Collection[int]) -> bool:
    """A correction after the mention, then another place mention (the second shape)."""
    doc = mention.doc
    corrected = False
    for i in range(mention.end, min(len(doc), mention.end + MAX_CORRECTION_TOKENS)):
        word = _word(doc, i)
        if i in mention_starts:
            return corrected
        before = _word(doc, i - 1)
        if (
            word in CORRECTIONS
            or (word in RATHER and (before in {"ou", "enfin"} or doc[i - 1].is_punct))  # "ou plutôt", ", plutôt"
            or (word == "enfin" and doc[i - 1].is_punct)  # "de Nancy, enfin de Metz,"
            or (word == "finalement" and before == "mais")  # "à Lens mais finalement ce sera Béthune"
        ):
            corrected = True
        elif word == "pas" or not (doc[i].is_punct or word in CORRECTION_FILLERS or (corrected and word in LINKS)):
            return False
    return False


def corrects_before(mention: Span) -> bool:
    """The words right before the mention bring it as a correction of what was said before:
    "..., finalement plutôt au départ d'Angers", "..., non pardon, pour Beaune", "en fait de
    Lille", "je voulais dire à Tours" (`pairs.cued_first`: of two ends read with one role, the
    one so brought)."""
    doc = mention.doc
    for i in range(mention.start - 1, max(-1, mention.start - 1 - MAX_CORRECTION_TOKENS), -1):
        word = _word(doc, i)
        if word in CORRECTIONS or word == "finalement" or (word == "fait" and i > 0 and _word(doc, i - 1) == "en"):
            return True
        if word in RATHER and i > 0 and (doc[i - 1].is_punct or _word(doc, i - 1) in {"ou", "enfin", "finalement"}):
            return True
        if not (doc[i].is_punct or word in LINKS or word in DENIED_LEGS or word in CORRECTION_FILLERS or word == "en"):
            return False
    return False


# "..., euh non, l'inverse": the two ends the other way round.
REVERSE = frozenset({"inverse", "contraire"})


def reversed_after(doc, end: int) -> bool:
    """After the trip's last end (token `end`), only a correction's words then "l'inverse" or
    "le contraire": "Départ Lille, arrivée Paris, euh non, l'inverse" goes from Paris."""
    for i in range(end, min(len(doc), end + MAX_CORRECTION_TOKENS)):
        word = _word(doc, i)
        if word in REVERSE:
            return i > end and _word(doc, i - 1) in {"l'", "le", "au", "c'est"}
        if not (doc[i].is_punct or word in CORRECTIONS or word in CORRECTION_FILLERS or word in {"l'", "le", "au"}):
            return False
    return False


# Where one lives, works or is: the request's context, no end, once it names both ends after it
# as a pair ("J'habite à Rouen mais je bosse à Paris. Là je cherche un train de Caen à Granville").
WHERE_ONE_IS = frozenset(
    "habite habites habitons habitez habitent vis vit vivons vivez vivent réside résident suis es est sommes "
    "êtes sont trouve trouvons travaille travailles travaillons travaillez travaillent bosse bosses bossons "
    "bossez bossent basé basée basés basées domicilié domiciliée installé installée installés".split()
)
AT_PLACE = frozenset("à a au en sur encore toujours actuellement".split())
PAIR_FROM = frozenset({"de", "d'", "du", "depuis"})
PAIR_TO = frozenset({"à", "a", "au", "pour", "vers", "jusqu'à"})


def _verb_before(mention: Span) -> int:
    """Where the word before the mention is, "à", "en", "encore"... aside ("j'habite encore à
    Rouen"); -1 at the start."""
    doc = mention.doc
    i = mention.start - 1
    while i >= 0 and _word(doc, i) in AT_PLACE:
        i -= 1
    return i


def where_one_is(mention: Span) -> bool:
    """The mention is where someone lives, works or is: "j'habite à Rouen", "je travaille à
    Nantes", "mes parents sont à Brest", "basé à Niort"."""
    doc = mention.doc
    i = _verb_before(mention)
    # not the "Est" of a station's name: "de Paris Est a Crest"
    return i >= 0 and _word(doc, i) in WHERE_ONE_IS and not doc[i].ent_type_ and not doc[i].is_title


def context_before_pair(mention: Span, mention_starts: Collection[int]) -> bool:
    """The mention is where someone lives, works or is (`where_one_is`), and a pair of mentions
    "de X à Y" follows it."""
    if not where_one_is(mention):
        return False
    doc = mention.doc
    for j in range(mention.end, len(doc) - 1):
        if _word(doc, j) in PAIR_FROM and j + 1 in mention_starts:
            to = range(j + 2, min(len(doc) - 1, j + 2 + MAX_CORRECTION_TOKENS))
            if any(_word(doc, k) in PAIR_TO and k + 1 in mention_starts for k in to):
                return True
    return False


# Countries a place may be said to be in, right after it: "Vienne en Autriche" is no French end.
ABROAD = frozenset(
    "autriche italie espagne suisse allemagne belgique angleterre irlande écosse ecosse portugal pologne grèce "
    "grece croatie hongrie roumanie suède suede norvège norvege danemark finlande tchéquie tchequie slovaquie "
    "slovénie slovenie bulgarie serbie russie ukraine turquie maroc algérie algerie tunisie canada québec "
    "quebec luxembourg japon chine brésil bresil mexique argentine inde égypte egypte sénégal senegal "
    "états-unis etats-unis pays-bas royaume-uni usa".split()
)


def abroad_after(mention: Span) -> bool:
    """The words right after the mention put it in another country: "Vienne en Autriche",
    "Valence, en Espagne", "Montréal au Canada"."""
    doc = mention.doc
    i = mention.end + (1 if mention.end < len(doc) and doc[mention.end].text == "," else 0)
    return i + 1 < len(doc) and _word(doc, i) in {"en", "au", "aux"} and _word(doc, i + 1) in ABROAD


# A person's title, or a relative after a possessive, right before a name: "Mme Laval", "mon
# cousin Florent" (a person named like a town is no place).
TITLES = frozenset("mme madame monsieur m. mr mlle mademoiselle dr docteur maître".split())
RELATIVES = frozenset(
    "cousin cousine frère frere sœur soeur ami amie pote copain copine oncle tante fils fille mari femme "
    "neveu nièce niece collègue collegue voisin voisine".split()
)


def named_person(mention: Span) -> bool:
    """The mention is a person's name: after a title ("Mme Laval", "M. Tours") or a relative
    after a possessive ("ma sœur Florence", "mon pote Maxime")."""
    doc = mention.doc
    i = mention.start - 1
    if i >= 0 and doc[i].text == ".":
        i -= 1
    if i < 0:
        return False
    word = _word(doc, i)
    return word in TITLES or (word in RELATIVES and i > 0 and _word(doc, i - 1) in POSSESSIVES)


# Where one was born or grew up: "j'ai grandi à Nancy mais j'habite à Montreuil" asks for no trip.
BIOGRAPHY = frozenset("grandi né née nés nées vécu élevé élevée élevés".split())


def where_one_grew_up(mention: Span) -> bool:
    """The mention is where someone was born, grew up or lived ("j'ai grandi à Brest", "je suis
    née à Lens"), and no "y" after it makes it where one goes ("... et je veux y retourner")."""
    doc = mention.doc
    i = _verb_before(mention)
    return i >= 0 and _word(doc, i) in BIOGRAPHY and not any(_word(doc, j) == "y" for j in range(mention.end, len(doc)))


def is_ruled_out(mention: Span, mention_starts: Collection[int]) -> bool:
    """The request rules the place of `mention` out; `mention_starts`: where the place
    mentions of the request start (a correction must lead to one)."""
    return (
        ruled_out_before(mention)
        or corrected_after(mention, mention_starts)
        or context_before_pair(mention, mention_starts)
        or abroad_after(mention)
        or named_person(mention)
        or where_one_grew_up(mention)
    )
