"""Hand-written phrasings of French travel requests, and of sentences that are not ones.

Slot syntax, inside a template's pattern:
- `{DEP}`, `{ARR}`, `{VIA}`, `{VIA2}`: a place that gets a span (DEPART, ARRIVEE, VIA, VIA).
  `{PLACE}` and `{PLACE2}` are places that get no span (negatives).
- A prefix joins a preposition to the place and contracts it with the place's article:
  `{de:DEP}` → "de Lyon", "d'Avignon", "du Havre", "de la gare de Lyon";
  `{à:ARR}` → "à Lyon", "au Havre", "aux Sables-d'Olonne", "à la Part-Dieu".
  No prefix keeps the article ("depuis {DEP}" → "depuis la gare de Lyon", "depuis Le Havre");
  `=` drops a station's article ("billet {=DEP} {=ARR}" → "billet gare de Lyon Dijon").
- Any other `{NAME}` is a filler drawn from `FILLERS[NAME]` (may be empty, e.g. greetings).
"""
import re
from typing import Dict, List, NamedTuple, Tuple

SLOT = re.compile(r"\{(?P<prep>de:|à:|=)?(?P<name>[A-Z]+[0-9]?)\}")
LABELS = {"DEP": "DEPART", "ARR": "ARRIVEE", "VIA": "VIA", "VIA2": "VIA"}
PLACE_SLOTS = set(LABELS) | {"PLACE", "PLACE2"}

# Families: valid trips, then INVALID ones.
VALID_FAMILIES = ("trip", "reverse", "via", "multi", "terse")
INVALID_FAMILIES = ("one_end", "no_travel", "place_thing", "foreign", "gibberish")


class Template(NamedTuple):
    id: str
    family: str
    pattern: str

    @property
    def slots(self) -> List[str]:
        return [m.group("name") for m in SLOT.finditer(self.pattern)]

    @property
    def is_valid_trip(self) -> bool:
        slots = self.slots
        return "DEP" in slots and "ARR" in slots


FILLERS: Dict[str, Tuple[str, ...]] = {
    "HELLO": ("", "", "", "Bonjour,", "Bonjour", "Salut,", "Bonsoir,", "Hello", "Coucou,",
              "Bonjour madame,", "Bonjour monsieur,", "Re,", "Hey"),
    "THANKS": ("", "", "Merci.", "Merci !", "merci d'avance", "Merci beaucoup.", "Cordialement.",
               "Merci bien", "Bonne journée.", "merci par avance"),
    "PLEASE": ("", "", "s'il vous plaît", "s'il te plaît", "svp", "stp", "SVP", "si possible"),
    "WANT": ("je veux", "je voudrais", "j'aimerais", "je souhaite", "je souhaiterais",
             "je dois", "je compte", "je vais"),
    "WANTN": ("je cherche", "je voudrais", "il me faudrait", "je veux", "je souhaite réserver",
              "je voudrais réserver", "j'aimerais acheter", "je recherche", "je dois prendre"),
    "TICKET": ("un billet", "un train", "un TGV", "un aller simple", "un aller-retour",
               "des billets", "un trajet", "une place", "un billet de train", "un TER", "deux billets",
               "un Ouigo", "un Intercités", "trois places"),
    "DATE": ("demain", "aujourd'hui", "ce soir", "demain matin", "lundi", "lundi prochain",
             "ce week-end", "le 14 juillet", "le 3 mars", "le 12/05", "dans deux jours",
             "la semaine prochaine", "vendredi soir", "après-demain", "le 1er décembre", "samedi 18",
             "jeudi 4 avril", "dimanche", "mardi matin", "le 25 décembre", "pendant les vacances",
             "début août", "fin septembre", "le 2 janvier"),
    "TIME": ("vers 8h", "à 7h30", "à 14 heures", "avant 10h", "après 18h", "en début de matinée",
             "en fin de journée", "vers midi", "le matin", "dans l'après-midi", "à 9h15", "à 21h",
             "le plus tôt possible", "en soirée", "vers 17h45", "avant 8 heures"),
    "PAX": ("pour 2 personnes", "pour deux adultes", "pour moi et mon fils", "pour une personne",
            "pour 4 personnes dont 2 enfants", "pour nous trois", "avec mon chien", "avec un bébé",
            "pour un adulte et un enfant", "pour ma femme et moi", "pour cinq", "pour 3 adultes"),
    "CLASS": ("en première classe", "en seconde classe", "en 1ère", "en 2nde", "en première",
              "en seconde", "en 2e classe", "en 1re classe"),
    "PERSON": ("mon ami Albert", "ma cousine Nancy", "Paris Hilton", "le prince Albert",
               "Valence, ma voisine,", "mon collègue Mathieu", "Albert", "Nancy", "le petit Albert",
               "tonton Albert", "la chanteuse Nancy"),
    "THING": ("une saucisse de Strasbourg", "de la moutarde de Dijon", "des pruneaux d'Agen",
              "du nougat de Montélimar", "des bêtises de Cambrai", "un calisson d'Aix",
              "une salade niçoise", "des macarons de Nancy", "des rillettes du Mans",
              "du jambon de Bayonne", "un Paris-Brest", "une andouille de Vire",
              "l'orange de Nice", "un forfait Orange", "une box Orange", "un camembert de Normandie",
              "une quiche lorraine", "des berlingots de Carpentras", "des rillettes de Tours",
              "une bouteille de Sancerre", "des galettes de Pont-Aven"),
    "GIB": (),  # drawn by generate.gibberish()
}

_RAW: Dict[str, Tuple[str, ...]] = {
    "trip": (
        "{HELLO} {WANT} aller {de:DEP} {à:ARR} {DATE}",
        "Je veux aller {de:DEP} {à:ARR}",
        "je voudrais aller {de:DEP} {à:ARR} {PLEASE}",
        "{WANTN} {TICKET} {de:DEP} {à:ARR} {DATE} {TIME}",
        "{WANTN} {TICKET} {de:DEP} pour {ARR} {PAX}",
        "Un billet {de:DEP} {à:ARR} {PLEASE}",
        "Comment aller {de:DEP} {à:ARR} ?",
        "Comment je fais pour aller {de:DEP} {à:ARR} {DATE} ?",
        "Quel train pour aller {de:DEP} {à:ARR} {DATE} {TIME} ?",
        "Y a-t-il un train {de:DEP} {à:ARR} {DATE} ?",
        "Il y a des trains {de:DEP} {à:ARR} {TIME} ?",
        "Est-ce qu'il y a un TGV entre {DEP} et {ARR} {DATE} ?",
        "Quels sont les horaires des trains entre {DEP} et {ARR} ?",
        "Je pars {de:DEP} {DATE} et je vais {à:ARR}",
        "Je pars depuis {DEP} pour aller {à:ARR} {DATE}",
        "Je partirai {de:DEP} {DATE} {TIME} direction {=ARR}",
        "Départ {=DEP}, arrivée {=ARR}, {DATE} {TIME}",
        "départ {de:DEP} arrivée {à:ARR}",
        "Au départ {de:DEP} et à destination {de:ARR}, {TICKET} {CLASS} {PLEASE}",
        "Je cherche un trajet depuis {DEP} jusqu'{à:ARR}",
        "depuis {DEP} jusqu'{à:ARR} {DATE} c'est possible ?",
        "Réserve-moi {TICKET} {de:DEP} {à:ARR} {CLASS}",
        "Trouve-moi un train {de:DEP} vers {ARR} {DATE} {TIME}",
        "Donne-moi les trains {de:DEP} {à:ARR}",
        "Peux-tu me trouver {TICKET} {de:DEP} {à:ARR} {DATE} ?",
        "Pouvez-vous me réserver {TICKET} {de:DEP} {à:ARR} {PAX} {PLEASE} ?",
        "Pourriez-vous m'indiquer un train {de:DEP} {à:ARR} {DATE} ?",
        "J'ai besoin d'aller {de:DEP} {à:ARR} {DATE} {TIME}",
        "J'ai besoin d'un billet {de:DEP} pour {ARR}",
        "Je suis {à:DEP} et je veux aller {à:ARR}",
        "je suis actuellement {à:DEP} et je dois me rendre {à:ARR} {DATE}",
        "Je me trouve {à:DEP}, je voudrais rejoindre {ARR} {TIME}",
        "J'habite {à:DEP} et je dois aller {à:ARR} {DATE} pour le travail",
        "Je rentre {à:ARR} depuis {DEP} {DATE}",
        "On part {de:DEP} {DATE} pour {ARR}, {PAX}",
        "Nous voulons aller {de:DEP} {à:ARR} {PAX} {DATE}",
        "Nous partons {de:DEP} et allons {à:ARR} {DATE}",
        "Mon fils doit aller {de:DEP} {à:ARR} {DATE}, il lui faut un billet",
        "Ma mère prend le train {de:DEP} {à:ARR} {DATE}, quel horaire me conseillez-vous ?",
        "Quel est le prochain train {de:DEP} pour {ARR} ?",
        "Le prochain départ {de:DEP} vers {ARR} c'est quand ?",
        "A quelle heure part le train {de:DEP} pour {ARR} {DATE} ?",
        "À quelle heure est le premier train {de:DEP} {à:ARR} {DATE} ?",
        "Combien coûte un billet {de:DEP} {à:ARR} {CLASS} ?",
        "Quel est le prix d'un aller {de:DEP} {à:ARR} ?",
        "C'est combien {de:DEP} {à:ARR} en train ?",
        "Combien de temps faut-il pour aller {de:DEP} {à:ARR} ?",
        "Il faut combien de temps {de:DEP} {à:ARR} en TGV ?",
        "Je souhaite voyager {de:DEP} {à:ARR} {DATE} {CLASS}",
        "Je voyage {de:DEP} {à:ARR} {DATE}, {PAX}",
        "J'aimerais prendre le train {de:DEP} {à:ARR} {TIME}",
        "Je prends le train {de:DEP} {à:ARR} {DATE}, je voudrais réserver",
        "Pour aller {de:DEP} {à:ARR} {DATE}, vous avez quoi ?",
        "Vous avez quelque chose {de:DEP} {à:ARR} {DATE} {TIME} ?",
        "Il me faut un aller {de:DEP} {à:ARR} {CLASS} {PAX}",
        "Aller simple {de:DEP} {à:ARR} {DATE} {PLEASE}",
        "Aller-retour {=DEP} {=ARR} {DATE}",
        "Je dois être {à:ARR} {TIME}, je pars {de:DEP}",
        "Je voudrais partir {de:DEP} {DATE} et arriver {à:ARR} {TIME}",
        "Partir {de:DEP}, arriver {à:ARR}, {DATE} {PLEASE}",
        "Itinéraire {de:DEP} {à:ARR}",
        "Trajet {de:DEP} {à:ARR} {DATE}",
        "Un trajet entre {DEP} et {ARR} {TIME}",
        "Quels trains relient {DEP} et {ARR} {DATE} ?",
        "Est-ce qu'on peut aller {de:DEP} {à:ARR} en train ?",
        "Il y a une liaison directe {de:DEP} {à:ARR} ?",
        "Je cherche une correspondance {de:DEP} vers {ARR}",
        "{HELLO} je voudrais un billet {de:DEP} {à:ARR} {DATE} {TIME} {PAX} {THANKS}",
        "Bonjour, je souhaiterais me rendre {à:ARR} en partant {de:DEP} {DATE}",
        "Salut ! Tu peux me dire comment aller {de:DEP} {à:ARR} ?",
        "Je veux faire {DEP} - {ARR} {DATE}",
        "J'aimerais faire le trajet {DEP} {ARR} {DATE} {TIME}",
        "Je fais {DEP} {ARR} {DATE}, il reste des places ?",
        "Tu sais s'il y a un train {de:DEP} {à:ARR} {DATE} ?",
    ),
    "reverse": (
        "{WANT} aller {à:ARR} depuis {DEP}",
        "Je veux aller {à:ARR} {de:DEP}",
        "Pour {ARR} en partant {de:DEP}, {TICKET} {PLEASE}",
        "Un billet pour {ARR} au départ {de:DEP} {DATE}",
        "{WANTN} {TICKET} pour {ARR} depuis {DEP} {DATE} {TIME}",
        "Je vais {à:ARR} {DATE}, je pars {de:DEP}",
        "Je veux me rendre {à:ARR}, je suis {à:DEP}",
        "Aller {à:ARR} depuis {DEP} {DATE}, c'est possible ?",
        "Comment rejoindre {ARR} depuis {DEP} ?",
        "Comment aller {à:ARR} quand on est {à:DEP} ?",
        "Quel train pour {ARR} au départ {de:DEP} ?",
        "Y a-t-il des trains pour {ARR} {de:DEP} {TIME} ?",
        "Je dois rejoindre {ARR} {DATE} en partant {de:DEP}",
        "Destination {=ARR}, départ {=DEP}, {DATE}",
        "Arrivée {à:ARR}, départ {de:DEP} {TIME}",
        "{ARR} depuis {DEP} {DATE} {PLEASE}",
        "Je cherche un train à destination {de:ARR} au départ {de:DEP}",
        "Je voudrais arriver {à:ARR} {TIME} en venant {de:DEP}",
        "Pour aller {à:ARR} {de:DEP} il faut combien de temps ?",
        "Réservez-moi {TICKET} pour {ARR}, je pars {de:DEP} {DATE}",
        "On doit être {à:ARR} {DATE}, on part {de:DEP}",
        "Il me faut un billet vers {ARR} depuis {DEP} {CLASS}",
    ),
    "via": (
        "{WANT} aller {de:DEP} {à:ARR} en passant par {VIA}",
        "Je veux aller {de:DEP} {à:ARR} via {VIA} {DATE}",
        "Un billet {de:DEP} {à:ARR} avec une correspondance {à:VIA}",
        "{WANTN} {TICKET} {de:DEP} {à:ARR} avec un arrêt {à:VIA}",
        "Je pars {de:DEP}, je passe par {VIA} et je termine {à:ARR}",
        "Je voudrais aller {de:DEP} {à:VIA} puis continuer jusqu'{à:ARR}",
        "Trajet {de:DEP} {à:ARR} via {VIA} et {VIA2}",
        "Je vais {de:DEP} {à:ARR} en m'arrêtant {à:VIA} {DATE}",
        "Je dois aller {de:DEP} {à:ARR} mais je veux passer par {VIA}",
        "Itinéraire {=DEP} > {=VIA} > {=ARR}",
        "{DEP} - {VIA} - {ARR} {DATE} {PLEASE}",
        "Est-ce qu'il y a un train {de:DEP} {à:ARR} qui passe par {VIA} ?",
        "Je veux faire {DEP} {ARR} avec un changement {à:VIA}",
        "Départ {=DEP}, escale {à:VIA}, arrivée {=ARR}",
        "Je pars {de:DEP} {DATE}, je fais une étape {à:VIA} puis {à:VIA2} et j'arrive {à:ARR}",
        "Pour aller {à:ARR} depuis {DEP}, je veux passer par {VIA}",
        "Je cherche un trajet {de:DEP} vers {ARR} en passant par {VIA} {TIME}",
        "J'aimerais aller {de:DEP} {à:ARR} en faisant un crochet par {VIA}",
        "Bonjour, je voudrais un billet {de:DEP} {à:ARR}, avec une correspondance {à:VIA} si possible",
        "Je vais {à:ARR} depuis {DEP} via {VIA}",
        "Je voudrais m'arrêter {à:VIA} sur la route entre {DEP} et {ARR}",
        "Je quitte {DEP} {DATE}, je dors {à:VIA} et je repars pour {ARR}",
    ),
    "multi": (
        "Bonjour. Je suis {à:DEP} en ce moment. Je dois être {à:ARR} {DATE}.",
        "Salut ! Je pars {DATE}. Je voudrais aller {de:DEP} {à:ARR}. Merci !",
        "J'ai un rendez-vous {à:ARR} {DATE}. Je pars {de:DEP}. Vous avez un train ?",
        "Je suis étudiant {à:DEP}. Je veux rentrer chez mes parents {à:ARR} ce week-end.",
        "Bonjour, j'ai une question. Comment aller {de:DEP} {à:ARR} sans voiture ?",
        "Mon train a été annulé. Je dois quand même aller {de:DEP} {à:ARR} {DATE}. Une solution ?",
        "On est {PAX}. On veut aller {de:DEP} {à:ARR} {DATE}. C'est possible ?",
        "Je travaille {à:ARR}. J'habite {à:DEP}. Quels trains le matin ?",
        "Bonjour. Je cherche un billet. Départ {de:DEP}, arrivée {à:ARR}. {THANKS}",
        "Hello. Je veux partir {de:DEP} {DATE}. Destination : {=ARR}. {THANKS}",
        "Il pleut ici. Je veux partir {de:DEP} pour aller au soleil {à:ARR} !",
        "Je n'ai pas de voiture. Je dois aller {de:DEP} {à:ARR} {DATE} {TIME}.",
        "Bonsoir. Demain je dois me rendre {à:ARR}. Je serai {à:DEP} avant. Un train ?",
        "J'arrive {à:DEP} en avion {DATE}. Ensuite je veux aller {à:ARR} en train.",
        "C'est pour un mariage. Il faut aller {de:DEP} {à:ARR} {DATE}. Merci de m'aider.",
        "Je suis en vacances {à:DEP}. Je voudrais visiter {ARR} {DATE}. Quel train prendre ?",
        "Question rapide : train {de:DEP} {à:ARR} {DATE} ? Merci",
        "Voilà, je suis {à:DEP}. Je dois aller {à:ARR} en passant par {VIA}. Merci.",
    ),
    "terse": (
        "{=DEP} → {=ARR}",
        "{=DEP} -> {=ARR} {DATE}",
        "{=DEP} - {=ARR}",
        "{DEP}-{ARR} {DATE} {TIME}",
        "billet {=DEP} {=ARR}",
        "train {=DEP} {=ARR} {DATE}",
        "{=DEP} {=ARR} {DATE} {TIME}",
        "{=DEP} vers {=ARR}",
        "{=DEP} > {=ARR} {PAX}",
        "{=DEP} / {=ARR} {DATE}",
        "de {=DEP} à {=ARR}",
        "{=DEP} à {=ARR} {DATE} ?",
        "tgv {=DEP} {=ARR} {CLASS}",
        "horaires {=DEP} {=ARR}",
        "{=DEP} pour {=ARR} {PLEASE}",
        "{=DEP}, {=ARR}, {DATE}",
        "{=DEP} {=ARR}",
        "{=DEP} {=ARR} {PLEASE}",
        "aller simple {=DEP} {=ARR} {DATE}",
        "aller retour {=DEP} {=ARR} {DATE} {TIME}",
        "un {=DEP} {=ARR} pour {DATE} {TIME}",
        "trajet {=DEP} {=ARR} {PAX}",
        "{HELLO} un billet {=DEP} {=ARR} {DATE} {PAX}",
        "{=DEP} {=ARR} {DATE} {PAX} {CLASS}",
        "{HELLO} je cherche un train {=DEP} {=ARR} pour {DATE}",
        "{TICKET} {=DEP} {=ARR} {DATE} {TIME} {PLEASE}",
        "dispo {=DEP} {=ARR} {DATE} ?",
        "prix {=DEP} {=ARR} {CLASS} ?",
        "réserver {=DEP} {=ARR} {DATE}",
        "{=DEP} à destination de {=ARR}",
        "départ {=DEP} arrivée {=ARR} {DATE}",
        "{=DEP} jusqu'à {=ARR} {TIME}",
    ),
    "one_end": (
        "Je veux aller {à:ARR}",
        "{WANTN} {TICKET} pour {ARR} {DATE}",
        "Comment aller {à:ARR} ?",
        "Je pars {de:DEP} {DATE}",
        "Quels trains partent {de:DEP} {TIME} ?",
        "Un billet pour {ARR} {PLEASE}",
        "Je voudrais partir {de:DEP} mais je ne sais pas où aller",
        "Train pour {=ARR} {DATE}",
        "Je dois me rendre {à:ARR} {DATE} {TIME}",
        "Quel est le prochain départ {de:DEP} ?",
        "Je veux quitter {DEP} {DATE}",
        "Je suis {à:DEP}, où est-ce que je peux aller ce week-end ?",
        "Une place pour {ARR} {CLASS} {PAX}",
        "J'arrive {à:ARR} {TIME}",
        "Je voudrais aller quelque part depuis {DEP}",
    ),
    "no_travel": (
        "Il fait beau {à:PLACE} aujourd'hui",
        "J'ai grandi {à:PLACE} et j'y ai encore de la famille",
        "Quelle est la population {de:PLACE} ?",
        "Le marché {de:PLACE} est ouvert le samedi",
        "Mon frère travaille {à:PLACE} depuis deux ans",
        "Quel temps fera-t-il {DATE} ?",
        "Bonjour, comment allez-vous ?",
        "Je voudrais annuler ma réservation",
        "Mon train avait trois heures de retard, je veux être remboursé",
        "Quelle est la meilleure pizzeria {de:PLACE} ?",
        "Le match entre {PLACE} et {PLACE2} était nul",
        "Je n'aime pas les trains, ils sont toujours en retard",
        "Est-ce que le wifi marche dans le TGV ?",
        "Rappelle-moi d'acheter du pain {DATE}",
        "Combien coûte une carte de réduction jeune ?",
        "Je cherche un appartement {à:PLACE}",
        "Ça n'a aucun sens, j'ai eu une journée horrible",
        "Il faut faire trois tours de piste avant de s'arrêter",
        "Dis-moi une blague",
        "Merci pour votre aide, bonne soirée",
        "Le musée {de:PLACE} ferme à 18h {DATE}",
        "J'ai perdu ma valise dans le train hier",
        "Qu'il vienne quand il veut, je suis à la maison",
        "C'est trop nice ce que tu as fait",
        "Je suis né {à:PLACE} en 1987",
        "{PLACE} est une belle ville",
        "On a fait du canoë sur la Vienne {DATE}",
        "Il y a un gros gap entre les deux offres",
        "Le ciel vire au gris, il va pleuvoir",
        "Il y a une fontaine devant la gare",
        "Je voudrais un billet de train pour {DATE} {TIME}",
        "Je veux aller à la plage {DATE}",
        "Il faut que j'aille chez le médecin {DATE}",
        "Je veux partir en vacances, mais je ne sais pas où",
        "Quel est le prochain train ?",
        "Mes parents habitent entre {PLACE} et {PLACE2}",
        "J'habite {à:PLACE} et je travaille {à:PLACE2}",
        "Ma sœur vit {à:PLACE} avec son mari",
        "Les trains entre {PLACE} et {PLACE2} sont souvent en retard",
        "{PLACE} est plus grande que {PLACE2}, non ?",
        "Je connais bien {PLACE}, j'y allais en vacances petit",
        "Tu préfères {PLACE} ou {PLACE2} ?",
    ),
    "place_thing": (
        "J'ai acheté {THING} au marché",
        "{PERSON} vient dîner ce soir",
        "Tu connais {PERSON} ?",
        "J'ai goûté {THING}, c'était délicieux",
        "{PERSON} m'a offert {THING}",
        "Je mange {THING} {DATE}",
        "Paris Hilton a sorti un nouvel album",
        "Où est-ce que je peux trouver {THING} ?",
        "Mon ami Albert part en vacances demain",
        "Nancy m'a appelé {DATE} pour parler de son travail",
        "{PERSON} est en retard comme d'habitude",
        "{THING}, ça coûte combien maintenant ?",
        "Ma grand-mère fait {THING} pour Noël",
        "J'ai résilié mon forfait Orange, je passe chez un autre opérateur",
        "Il a offert {THING} à {PERSON}",
        "Ma tante a une recette secrète pour {THING}",
        "Le RC Lens a gagné hier soir",
        "Les Girondins de Bordeaux jouent contre l'OGC Nice {DATE}",
        "J'ai vu {PERSON} à la gare {DATE}",
        "Le Paris-Brest de cette pâtisserie est énorme",
    ),
    "foreign": (
        "I want to go from {PLACE} to {PLACE2} tomorrow",
        "How do I get to {PLACE} by train?",
        "Quiero ir de {PLACE} a {PLACE2} mañana",
        "Ich möchte von {PLACE} nach {PLACE2} fahren",
        "Vorrei andare da {PLACE} a {PLACE2}",
        "What time is it?",
        "Hello, can you help me with my booking?",
        "Where is the nearest station?",
        "¿Dónde está la estación de tren?",
        "Wie spät ist es?",
    ),
    "gibberish": (
        "{GIB}",
        "{GIB} {GIB}",
        "{GIB} ?",
        "{GIB} {GIB} {GIB}",
        "{GIB} {PLACE}",
    ),
}


def _build() -> Tuple[Template, ...]:
    templates = []
    for family, patterns in _RAW.items():
        for i, pattern in enumerate(patterns):
            templates.append(Template(f"{family}-{i:03d}", family, pattern))
    return tuple(templates)


TEMPLATES: Tuple[Template, ...] = _build()


def check_templates(templates=TEMPLATES) -> None:
    """Raise ValueError for a malformed template (unknown slot, family/slot mismatch, duplicate)."""
    seen = set()
    for t in templates:
        if t.pattern in seen:
            raise ValueError(f"template {t.id}: duplicate pattern {t.pattern!r}")
        seen.add(t.pattern)
        for name in t.slots:
            if name not in PLACE_SLOTS and name not in FILLERS:
                raise ValueError(f"template {t.id}: unknown slot {{{name}}}")
        if (t.family in VALID_FAMILIES) != t.is_valid_trip:
            raise ValueError(f"template {t.id}: family {t.family!r} does not match its slots")
        if t.family in INVALID_FAMILIES and t.family != "one_end" and set(t.slots) & set(LABELS):
            raise ValueError(f"template {t.id}: a negative must not have labelled slots")
