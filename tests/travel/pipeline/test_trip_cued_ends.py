"""An end the recognizer missed is read from the word before a known place (the steps
`lone_end_reversed`, `cued_ends`, `roles_reversed`, `roles/cued.py`)."""

import pytest
from trip_helpers import ends_of, marked_doc, read, without_steps


def trip_of(nlp, text, marked, cued=True, off=()):
    """(departure, arrival) of `text` with the entities `marked`; with `cued` False, as without the
    step `cued_ends`; without the steps `off`. Always without `lone_end_partner`, which takes the
    one other place before a lone end without a cue (`test_trip_pairs.py`)."""
    off = tuple(off) + ("lone_end_partner",) + (() if cued else ("cued_ends",))
    nlp = without_steps(*off)
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    return trip["departure"], trip["arrival"]


def trip_with_steps(nlp, text, marked):
    """(departure, steps, arrival) of `text` with the entities `marked`, without `lone_end_partner`."""
    trip = read(without_steps("lone_end_partner"), marked_doc(nlp, text, marked))._.trip
    return trip["departure"], trip["steps"], trip["arrival"]


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        ("le train de 16 h 40 entre Mâcon et Tournus circule le dimanche ?", [], ("Mâcon", "Tournus")),
        # the request's first place, right before the departure's "depuis"
        (
            "Hendaye depuis Bordeaux Saint-Jean, carte Senior",
            [("Bordeaux Saint-Jean", "DEPART")],
            ("Bordeaux Saint-Jean", "Hendaye"),
        ),
        ("un train le dimanche entre saint avold et forbach ?", [], ("Saint-Avold", "Forbach")),
        # "entre X et Y" after taking something along or asking how long
        ("pourrai-je emmener mon chat en caisse entre vire et caen svp", [], ("Vire", "Caen")),
        ("combien de temps entre Morlaix et Brest ?", [], ("Morlaix", "Brest")),
        ("Est-ce qu'il existe une liaison entre Saint-Brieuc et Lannion ?", [], ("Saint-Brieuc", "Lannion")),
        ("jpars de prades ce soir pr perpignan", [("prades", "DEPART")], ("Prades", "Perpignan")),
        # "jpar": partir as people type it
        ("faut ke j'aille a dijon, jpar de beaune", [("dijon", "ARRIVEE")], ("Beaune", "Dijon")),
        # a hashtag's "#" between the cue and the place
        ("le TER de #Nantes à #Pornic il roule ?", [("Nantes", "DEPART")], ("Nantes", "Pornic")),
        # a form's fields: the colon and the quotes between the field's word and the place
        ("Case « départ » : Auxerre ; case « arrivée » : Sens", [("Auxerre", "DEPART")], ("Auxerre", "Sens")),
        ("Départ : Vannes — Arrivée : Redon — Date : lundi", [("Vannes", "DEPART")], ("Vannes", "Redon")),
        # a French form's English labels, neither end marked
        ("From : Lourdes To : Tarbes date : demain nb : 3", [], ("Lourdes", "Tarbes")),
        # a bare pair, a train's words after it
        ("Peut-on faire Nantes Rennes en train ?", [], ("Nantes", "Rennes")),
        # a bare pair, seats after it, or the hour of its train
        ("Alerte « Laval – Vitré » : des places se libèrent", [], ("Laval", "Vitré")),
        ("quelqu'un sait si le Laval - Vitré de 7h12 roule ?", [], ("Laval", "Vitré")),
        # two places typed with a slip, none marked: "de" one, "à" the next
        ("je veut allez de bordeau a toulouze", [], ("Bordeaux", "Toulouse")),
        # a participle after a verb of wanting is its infinitive misspelt, no deed done
        ("je veu allé de bordeau a toulous", [], ("Bordeaux", "Toulouse")),
        # "celle de" standing for the station
        ("Un billet de la gare de Brest à celle de Morlaix", [("Brest", "DEPART")], ("Brest", "Morlaix")),
        # a name's silent final "s" left out, the word a common one ("valencienne": lace)
        ("dois aller de valencienne a maubeuge", [("maubeuge", "ARRIVEE")], ("Valenciennes", "Maubeuge")),
        # after a verb of reaching, a name of four letters without its silent "s"
        ("depuis avignon comment rejoindre arle", [("avignon", "DEPART")], ("Avignon", "Arles")),
        # "au" of a place whose name holds "Le": "à Le Mans"
        ("je dois me rendre de Laval au Mans pour le jury", [("Laval", "DEPART")], ("Laval", "Le Mans")),
        (
            "celle-ci devra quitter Bourges le 9 ; elle est attendue à Nevers",
            [("Bourges", "DEPART")],
            ("Bourges", "Nevers"),
        ),
        ("aller à Tours euh depuis Vendôme plutôt", [("Vendôme", "DEPART")], ("Vendôme", "Tours")),
        ("je pars de Pau pour rejoindre Lourdes", [("Lourdes", "ARRIVEE")], ("Pau", "Lourdes")),
        ("un billet pour euh cognac au départ de euh saintes", [("cognac", "ARRIVEE")], ("Saintes", "Cognac")),
        (
            "je dois aller a albertville jeudi, départ Moûtiers vers 6h",
            [("albertville", "ARRIVEE")],
            ("Moûtiers", "Albertville"),
        ),
        ("Un concours à Amiens le 4 juin. J'habite Abbeville.", [("Amiens", "ARRIVEE")], ("Abbeville", "Amiens")),
        ("Ma tante vit à Sellières et voudrait venir à Dole", [("Dole", "ARRIVEE")], ("Sellières", "Dole")),
        ("rejoindre Troyes depuis la gare de l'Est le mardi 16", [("Troyes", "ARRIVEE")], ("Paris Est", "Troyes")),
        ("partir de Modane samedi, toujours à destination de Chambéry", [("Modane", "DEPART")], ("Modane", "Chambéry")),
        ("nous quittons Nancy samedi pour Épinal", [("Épinal", "ARRIVEE")], ("Nancy", "Épinal")),
        ("embauchée à Rennes, j'habite toujours à Vitré", [("Rennes", "ARRIVEE")], ("Vitré", "Rennes")),
        (
            "J'ai raté mon train pour Annecy, je suis toujours à Aix-les-Bains",
            [("Annecy", "ARRIVEE")],
            ("Aix-les-Bains", "Annecy"),
        ),
        ("pour Caen, je me trouve à Vire", [("Caen", "ARRIVEE")], ("Vire", "Caen")),
        # where someone else lives, once the departure is named: the arrival
        (
            "Mes parents habitent Tarbes, je voudrais les rejoindre depuis Toulouse",
            [("Toulouse", "DEPART")],
            ("Toulouse", "Tarbes"),
        ),
        ("ma sœur qui vit toujours à Brest m'attend, je pars de Rennes", [("Rennes", "DEPART")], ("Rennes", "Brest")),
        # neither end read: the one its words say is left, then the other as for a departure read
        (
            "Mon ami habite à Lille et je veux aller le voir depuis Arras",
            [],
            ("Arras", "Lille"),
        ),
        ("Mon fils étudie à Grenoble, comment y aller depuis Valence ?", [], ("Valence", "Grenoble")),
        # two places in one token, which the tokenizer keeps whole ("Saint-" compounds)
        ("billet Paris-Saint-Malo demain", [], ("Paris", "Saint-Malo")),
        ("un train Lyon-Saint-Étienne", [], ("Lyon", "Saint-Étienne")),
        # a bare pair of places, when the request speaks of a train or a ticket
        ("Est-ce qu'il y a un direct Paris Toulouse ?", [], ("Paris", "Toulouse")),
        ("2 adultes 1 enfant Lyon Nice le 12/08", [], ("Lyon", "Nice")),
        ("Rennes Vannes, 2 adultes, samedi matin", [], ("Rennes", "Vannes")),
        ("billets Compiègne Paris", [], ("Compiègne", "Paris")),
        ("Combien de changements entre Limoges et Lyon ?", [], ("Limoges", "Lyon")),
        # "à" anywhere, once the departure's own words say it is left
        (
            "Je veux voir ma grand-mère à Guingamp, je pars de Paimpol",
            [("Paimpol", "DEPART")],
            ("Paimpol", "Guingamp"),
        ),
        (
            "Pour le mariage de ma soeur à Agen il me faut un train depuis Toulouse",
            [("Toulouse", "DEPART")],
            ("Toulouse", "Agen"),
        ),
        # a verb of reaching, its place right after it
        (
            "depuis Briançon, je compte bien atteindre Gap avant la nuit",
            [("Briançon", "DEPART")],
            ("Briançon", "Gap"),
        ),
        # then the town of a place one goes to
        ("J'ai un concert au Zénith de Lille, je pars d'Amiens", [("Amiens", "DEPART")], ("Amiens", "Lille")),
        ("Je vais au festival d'Avignon depuis Marseille", [("Marseille", "DEPART")], ("Marseille", "Avignon")),
        # the place as the subject, its end said after it
        (
            "Pontarlier est ma gare de départ et Besançon ma gare d'arrivée",
            [("Besançon", "ARRIVEE")],
            ("Pontarlier", "Besançon"),
        ),
        ("Je pars de Dijon demain et Dole sera ma destination", [("Dijon", "DEPART")], ("Dijon", "Dole")),
        ("Vierzon comme destination, au départ de Bourges", [("Bourges", "DEPART")], ("Bourges", "Vierzon")),
        ("Niort ma destination, je pars de Poitiers", [("Poitiers", "DEPART")], ("Poitiers", "Niort")),
        ("Quimper, ma destination ; Brest, mon départ.", [("Brest", "DEPART")], ("Brest", "Quimper")),
        # the place, then a clause that says one goes there
        ("Albi, j'y vais samedi depuis Rodez", [("Rodez", "DEPART")], ("Rodez", "Albi")),
        ("Guéret, c'est là que je dois aller, je pars de Limoges", [("Limoges", "DEPART")], ("Limoges", "Guéret")),
        # a departure after "origine", an arrival after "destination"; reaching in the future tense
        ("Destination Vannes, origine Lorient", [], ("Lorient", "Vannes")),
        ("je quitterai Laval demain et je rejoindrai Rennes", [("Laval", "DEPART")], ("Laval", "Rennes")),
        # ... each place so, the recognizer reading neither; or the departure so, then the arrival's cue
        ("avec Metz comme point de départ et Nancy comme destination", [], ("Metz", "Nancy")),
        ("Laval comme point de départ, je vais à Rennes", [], ("Laval", "Rennes")),
        # the one end read, the other by its cue: then the other end after its own
        (
            "Y a-t-il une gare à Rocamadour ? Je viens de Brive",
            [("Brive", "ARRIVEE")],
            ("Brive-la-Gaillarde", "Rocamadour"),
        ),
        # a place typed with a slip, right after its cue
        ("un billet pour marseile depuis Lyon", [("Lyon", "DEPART")], ("Lyon", "Marseille")),
        ("je veux aller à Nice, je pars de amien", [("Nice", "ARRIVEE")], ("Amiens", "Nice")),
        ("je veu allé de bordeau a toulous", [("toulous", "ARRIVEE")], ("Bordeaux", "Toulouse")),  # "de X à"
        # "jpars", "je pars" in SMS
        ("je prends le train pr Le Havre mardi, jpars de Dijon", [("Le Havre", "ARRIVEE")], ("Dijon", "Le Havre")),
        # the arrival opening the request, a comma and the departure's "depuis"
        ("Dijon, depuis Vernon, samedi", [("Vernon", "DEPART")], ("Vernon", "Dijon")),
        # the one end read, with no word of its role, is the other end where another place is
        # said to be its end
        ("saint malo. jpars de rennes dem matin", [("saint malo", "DEPART")], ("Rennes", "Saint-Malo")),
        # "go X": where one goes
        ("jsuis a la gare de narbonne go perpignan", [("narbonne", "DEPART")], ("Narbonne", "Perpignan")),
        # where one still is ("au" holding the name's article), stays with someone, or sleeps
        (
            "Demain je remonte sur Rouen ; pour l'instant je suis encore au Havre.",
            [("Rouen", "ARRIVEE")],
            ("Le Havre", "Rouen"),
        ),
        (
            "Entretien à Valence lundi. Je suis chez ma mère à Romans-sur-Isère",
            [("Valence", "ARRIVEE")],
            ("Romans-sur-Isère", "Valence"),
        ),
        (
            "Il me faut Landerneau pour 8 h ; je dormirai à Brest la veille.",
            [("Landerneau", "ARRIVEE")],
            ("Brest", "Landerneau"),
        ),
        # a leaving verb's "de" past an inverted pronoun and "toujours"
        (
            "Le train de nuit pour Nice part-il toujours de Paris Austerlitz ?",
            [("Nice", "ARRIVEE")],
            ("Paris Austerlitz", "Nice"),
        ),
        # the cue before "la gare de": a form's "Départ :", a leaving verb's "de"
        ('"Départ : Gare de Mulhouse Arrivée : Gare de Strasbourg Date : 03/09"', [], ("Mulhouse", "Strasbourg")),
        (
            "jpars de la gare de blanquefort, il me faut un billet pour bordeaux",
            [("bordeaux", "ARRIVEE")],
            ("Blanquefort", "Bordeaux"),
        ),
        # "de X à la gare de Y": X departs
        (
            "De la gare de Lyon-Part-Dieu à la gare de Grenoble",
            [("Grenoble", "ARRIVEE")],
            ("Lyon-Part-Dieu", "Grenoble"),
        ),
    ],
)
def test_a_missing_end_is_read_after_its_cue(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected
    assert trip_of(nlp, text, marked, cued=False) != expected


@pytest.mark.parametrize(
    "text,marked",
    [
        # a choice, not a trip
        ("j'hésite entre Lyon et Grenoble", [("Grenoble", "ARRIVEE")]),
        ("nous n'avons pas tranché entre Saint-Brieuc et Lannion", []),
        # a bare pair of places said of no train nor ticket
        ("Lyon Nice, quelle équipe gagnera ?", []),
        # a token that names one place as a whole, with its article or not
        ("le guichet de La Croix-Saint-Ouen est fermé", []),
        ("Villers-Saint-Paul ce soir", []),
        ("Mon abonnement Compiègne Paris est-il encore valable ?", []),  # no order
        ("mon train avait une heure de retard. Respectueusement, Luc Rivière", []),
        ("trains Orléans et Pavilly en retard ce matin", []),  # "et" joins no bare pair
        # "entre X et Y" not said of a train
        ("Mdr le contrôleur entre Dax et Bayonne il chantait", []),
        ("les travaux sur la ligne entre Bourges et Montluçon vont durer", []),
        # "de" alone is no departure ("l'hôpital de Guéret")
        ("voir ma mère à l'hôpital de Guéret, je pars ce soir pour Limoges", [("Limoges", "ARRIVEE")]),
        # "à" before the departure is where one is, not where one goes
        ("j'habite à Murat et je pars de Aurillac", [("Aurillac", "DEPART")]),
        ("je suis toujours à Murat, je pars de Aurillac demain", [("Aurillac", "DEPART")]),
        # nor, after a departure no word says is left, where someone is
        ("un rendez-vous à Murat, le train de Aurillac", [("Aurillac", "DEPART")]),
        ("un concert au Zénith de Lille, le train de Amiens", [("Amiens", "DEPART")]),
        # neither end read: a place left, and no word saying the other is reached, give nothing
        ("Nice est si belle, je pars de Lyon", []),
        # nor where one is or sleeps offered as one of two
        ("Ce soir je dors à Lunéville ou à Nancy ; demain je dois être à Strasbourg", [("Strasbourg", "ARRIVEE")]),
        ("jsuis a brive ou a tulle ca depend, et faut que jaille a ussel samedi", [("ussel", "ARRIVEE")]),
        # nor two places left
        ("je pars de Lyon ou depuis Lille, j'habite à Nice", []),
        # a place the request rules out is no end
        ("je pars de Dax mais pas pour Hendaye", [("Dax", "DEPART")]),
        # a possessive after a place that says no end of the trip
        ("Quimper ma ville natale, quel beau port", []),
        # nor a role word that opens a clause of its own, nor where one is
        ("je vais à Paris, mon départ est à 8 h", [("Paris", "ARRIVEE")]),
        ("Albi, j'y suis depuis hier, je veux aller à Rodez", [("Rodez", "ARRIVEE")]),
        # nor one of two places offered as a choice
        ("nous partirons de Sens mais nous hésitons entre Auxerre et Dijon comme destination", [("Sens", "DEPART")]),
        ("depuis Sens, entre Auxerre et Dijon comme destination je ne sais pas", [("Sens", "DEPART")]),
        # a name typed right that the runs leave out is no slip to correct ("Grand", Vosges)
        ("je pars de Menton pour le Grand Prix", [("Menton", "DEPART")]),
        # nor a word of fewer than 5 letters ("lile")
        ("je pars de Douai pour lile", [("Douai", "DEPART")]),
        # nor, after a verb of reaching, a person's name one letter from a place ("lucie": Lucé)
        ("je quitte Limoges vendredi et je rejoins lucie", [("Limoges", "DEPART")]),
        # a place before "depuis" is the arrival only as the request's first words
        ("Je veux aller en Bretagne depuis Paris.", [("Paris", "DEPART")]),
    ],
)
def test_no_end_without_a_cue_that_says_which(nlp, text, marked):
    assert trip_of(nlp, text, marked) == trip_of(nlp, text, marked, cued=False)


@pytest.mark.parametrize(
    "text",
    [
        "J'ai laissé mes lunettes dans le TER Laval – Rennes de 9 h, quelqu'un les a trouvées ?",
        "le tgv lille paris de dimanche avait 50 min de retard, on est remboursés comment ?",
        "Les trains entre Morlaix et Roscoff sont-ils rétablis depuis les travaux ?",
        "pourquoi le ter dax pau est tjs bondé le vendredi",
        # a ticket's error, a staff complaint, a surcharge, a refund asked, a thing left behind
        "Il y a une erreur de date sur mon billet Bayonne – Pau, comment la corriger ?",
        "le contrôleur du TER Brive Tulle de ce matin nous a parlé très mal",
        "On m'a demandé un supplément pour la trottinette dans le ter nimes ales, c'est normal ?",
        "Mon billet Caen – Rouen est-il remboursable si je pars plus tôt ?",
        "Je vous signale que le chauffage ne marche pas dans le TER Niort – Saintes.",
        "Ma valise est restée dans le TGV Angers Nantes, à qui m'adresser ?",
    ],
)
def test_no_pair_from_nothing_where_the_trip_is_named_for_what_came_of_it(nlp, text):
    """No end read, and the request speaks of lost property, a refund, a delay, a line's news: the
    places name a line, no trip is asked for (lexicon class `after_sales`)."""
    assert trip_of(nlp, text, []) == (None, None)
    # the same pair in a request gets its ends
    assert trip_of(nlp, "un TER Laval – Rennes demain vers 9 h ?", []) == ("Laval", "Rennes")


@pytest.mark.parametrize(
    "text,marked",
    [
        ("Le TER Épinal – Nancy a encore été supprimé, mon abonnement sera-t-il remboursé ?", [("Épinal", "DEPART")]),
        ("j'ai oublié mon écharpe dans le train de Laval au Mans", [("Mans", "ARRIVEE")]),
        ("retard de 40 min sur le tours poitiers tous les soirs", [("tours", "DEPART")]),
    ],
)
def test_one_end_of_a_line_named_for_what_came_of_it_is_no_trip(nlp, text, marked):
    """One end read, and the request speaks of what came of a trip and asks for nothing: no step
    pairs the end with the line's other place."""
    departure, arrival = trip_of(nlp, text, marked)
    assert departure is None or arrival is None


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # another train asked for, or a word of a request: the line is the trip
        (
            "Le TER Épinal – Nancy est supprimé, le prochain est à quelle heure ?",
            [("Épinal", "DEPART")],
            ("Épinal", "Nancy"),
        ),
        ("train Laval – Le Mans en retard, il m'en faut un autre", [("Laval", "DEPART")], ("Laval", "Le Mans")),
        ("retard sur le tours poitiers, je dois y être à 9 h", [("tours", "DEPART")], ("Tours", "Poitiers")),
    ],
)
def test_one_end_of_a_line_beside_a_request_is_paired(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected


def test_cued_ends_off_reads_no_cue(nlp):
    text = "le train de 16 h 40 entre Mâcon et Tournus"
    assert trip_of(nlp, text, []) == ("Mâcon", "Tournus")
    assert trip_of(nlp, text, [], cued=False) == (None, None)


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # The recognizer's roles, against the words right before the places (made-up requests).
        (
            "le lioran depuis aurillac samedi",
            [("le lioran", "DEPART"), ("aurillac", "ARRIVEE")],
            ("Aurillac", "Le Lioran"),
        ),
        (
            "chenonceaux au depart de tours, horaires ?",
            [("chenonceaux", "DEPART"), ("tours", "ARRIVEE")],
            ("Tours", "Chenonceaux"),
        ),
        (
            "Réunion au siège de Reims ; mon train devra partir de Charleville-Mézières",
            [("Reims", "DEPART"), ("Charleville-Mézières", "ARRIVEE")],
            ("Charleville-Mézières", "Reims"),
        ),
        (
            "Je serai à Angers demain, je partirai de Saumur",  # leaving in the future
            [("Angers", "DEPART"), ("Saumur", "ARRIVEE")],
            ("Saumur", "Angers"),
        ),
        (
            "Demain je pars à Auray, je suis à Vannes",  # "partir à": where one leaves for
            [("Auray", "DEPART"), ("Vannes", "ARRIVEE")],
            ("Vannes", "Auray"),
        ),
        (
            "Je pars en vacances à Barsac, je prends le train de Vannes",  # "partir en vacances à"
            [("Barsac", "DEPART"), ("Vannes", "ARRIVEE")],
            ("Vannes", "Barsac"),
        ),
        (
            "Je souhaite me rendre à Gap de Briançon en passant par Die",  # with a stop
            [("Gap", "DEPART"), ("Briançon", "ARRIVEE"), ("Die", "VIA")],
            ("Briançon", "Gap"),
        ),
        (
            "J'habite à Compiègne. Demain je pars de Saint-Quentin pour rentrer chez moi.",  # going home
            [("Compiègne", "DEPART"), ("Saint-Quentin", "ARRIVEE")],
            ("Saint-Quentin", "Compiègne"),
        ),
        (
            "un aller vers Gap, moi qui suis à Briançon",
            [("Gap", "DEPART"), ("Briançon", "ARRIVEE")],
            ("Briançon", "Gap"),
        ),
        (
            "Je voudrais aller au mariage de mon cousin à Vannes, je vis à Angers",
            [("Vannes", "DEPART"), ("Angers", "ARRIVEE")],
            ("Angers", "Vannes"),
        ),
        (
            "Grenoble sera mon arrivée, Chambéry mon départ",  # each end said after its place
            [("Grenoble", "DEPART"), ("Chambéry", "ARRIVEE")],
            ("Chambéry", "Grenoble"),
        ),
        (
            "Nous irons à Bayeux ; le départ se fera de Caen mardi",  # "départ" then "se fera de"
            [("Bayeux", "DEPART"), ("Caen", "ARRIVEE")],
            ("Caen", "Bayeux"),
        ),
        (
            "rdv fournisseur a cognac, dpt angouleme mercredi 8h",  # "dpt": départ
            [("cognac", "DEPART"), ("angouleme", "ARRIVEE")],
            ("Angoulême", "Cognac"),
        ),
        (
            "étudiante à Poitiers, je rentre de chez mes parents à Châtellerault dimanche",  # "de chez X à"
            [("Poitiers", "DEPART"), ("Châtellerault", "ARRIVEE")],
            ("Châtellerault", "Poitiers"),
        ),
        (
            "une formation à Saint-Lô. Ma commune de départ est Flers.",  # the role's word, then "est"
            [("Saint-Lô", "DEPART"), ("Flers", "ARRIVEE")],
            ("Flers", "Saint-Lô"),
        ),
        (
            "svp un billet pr aller a rennes jsuis a brest",  # going "à", being "à"
            [("rennes", "DEPART"), ("brest", "ARRIVEE")],
            ("Brest", "Rennes"),
        ),
    ],
)
def test_ends_the_recognizer_reversed_follow_their_cues(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected
    assert trip_of(nlp, text, marked, off=["roles_reversed"]) == expected[::-1]


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # Each end after its own cue, or the cue said of the pair: the recognizer's roles stay.
        ("depuis Lyon pour Paris", [("Lyon", "DEPART"), ("Paris", "ARRIVEE")], ("Lyon", "Paris")),
        ("billet pr evreux > rouen lundi", [("evreux", "DEPART"), ("rouen", "ARRIVEE")], ("Évreux", "Rouen")),
        ("combien pour Brest (Finistère) Quimper", [("Brest", "DEPART"), ("Quimper", "ARRIVEE")], ("Brest", "Quimper")),
        ("de Nantes à Angers", [("Nantes", "DEPART"), ("Angers", "ARRIVEE")], ("Nantes", "Angers")),
        # the train taken at a place departs from it, whatever "j'y vais" says after it
        (
            "C'est à Lisieux qu'on m'attend. Je prends le train à Évreux, j'y vais lundi.",
            [("Lisieux", "ARRIVEE"), ("Évreux", "DEPART")],
            ("Évreux", "Lisieux"),
        ),
    ],
)
def test_ends_after_their_own_cues_keep_their_roles(nlp, text, marked, expected):
    assert trip_of(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "Je veux aller à Lisieux puis Rouen en partant de Caen",
            [("Lisieux", "ARRIVEE"), ("Rouen", "ARRIVEE"), ("Caen", "DEPART")],
            ("Caen", ["Lisieux"], "Rouen"),
        ),
        # arrivals not chained by "puis": the first is the arrival, as the recognizer read it
        (
            "je veux aller à Lille depuis Paris, mon frère à Arras",
            [("Lille", "ARRIVEE"), ("Paris", "DEPART"), ("Arras", "ARRIVEE")],
            ("Paris", [], "Lille"),
        ),
    ],
)
def test_arrivals_chained_by_puis_end_at_the_last(nlp, text, marked, expected):
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], list(trip["steps"]), trip["arrival"]) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # an itinerary listed, arrivals and stops read among it: the last place is the arrival
        (
            "ordre : cahors mardi, brive mercredi, limoges jeudi. je pars de toulouse lundi soir",
            [("cahors", "ARRIVEE"), ("brive", "VIA"), ("limoges", "ARRIVEE"), ("toulouse", "DEPART")],
            ("Toulouse", ["Cahors", "Brive-la-Gaillarde"], "Limoges"),
        ),
        (
            "Itinéraire : 1) paris montparnasse 2) le mans 3) angers 4) nantes. depart mardi 6h.",
            [("paris montparnasse", "DEPART"), ("le mans", "ARRIVEE"), ("angers", "VIA"), ("nantes", "ARRIVEE")],
            ("Paris Montparnasse", ["Le Mans", "Angers"], "Nantes"),
        ),
        # not where the stops follow a stop's word or verb, nor where the last place is a stop named again
        (
            "je vais de Grenoble à Marseille et j'aimerais m'arrêter une journée à Gap puis à Sisteron",
            [("Grenoble", "DEPART"), ("Marseille", "ARRIVEE"), ("Gap", "VIA"), ("Sisteron", "ARRIVEE")],
            ("Grenoble", ["Gap"], "Marseille"),
        ),
        (
            "Nous partons de Langogne, nous changeons à Nîmes et allons jusqu'à Uchaud. Un ascenseur à nimes ?",
            [("Langogne", "DEPART"), ("Nîmes", "VIA"), ("Uchaud", "ARRIVEE"), ("nimes", "ARRIVEE")],
            ("Langogne", ["Nîmes"], "Uchaud"),
        ),
    ],
)
def test_an_itinerary_listed_ends_at_its_last_place(nlp, text, marked, expected):
    trip = read(nlp, marked_doc(nlp, text, marked))._.trip
    assert (trip["departure"], list(trip["steps"]), trip["arrival"]) == expected


def test_of_several_ends_read_with_one_role_the_one_after_its_cue(nlp):
    text = "Signé : Marie Lourdes. Je pars de Dax pour aller à Bayonne"
    marked = [("Marie", "ARRIVEE"), ("Lourdes", "ARRIVEE"), ("Dax", "DEPART"), ("Bayonne", "ARRIVEE")]
    assert trip_of(nlp, text, marked) == ("Dax", "Bayonne")
    assert trip_of(nlp, text, marked, off=["cued_first"]) == ("Dax", "Marie")
    # the first end read after its own cue stays first
    text = "Pour aller à Bayonne, je pars de Dax ; Lourdes plus tard"
    marked = [("Bayonne", "ARRIVEE"), ("Dax", "DEPART"), ("Lourdes", "ARRIVEE")]
    assert trip_of(nlp, text, marked) == ("Dax", "Bayonne")


def test_a_departure_that_is_the_arrival_gives_way_to_the_next_departure(nlp):
    text = "Plus aucun train ne s'arrête à Noyon le soir. Je dois rentrer de Compiègne à Noyon mardi."
    marked = [("à [Noyon] le", "DEPART"), ("Compiègne", "DEPART"), ("à [Noyon] mardi", "ARRIVEE")]
    assert trip_of(nlp, text, marked) == ("Compiègne", "Noyon")


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "Je commence mardi à Lyon et je termine jeudi à Besançon ; entre les deux, mercredi à Bourg-en-Bresse.",
            [("Lyon", "DEPART"), ("Besançon", "ARRIVEE"), ("Bourg-en-Bresse", "ARRIVEE")],
            ("Lyon", ["Bourg-en-Bresse"], "Besançon"),
        ),
        (
            "Rendez-vous à Fontainebleau puis à Montereau ; je pars de Melun et je finis la journée à Sens.",
            [("Fontainebleau", "ARRIVEE"), ("Montereau", "ARRIVEE"), ("Melun", "DEPART"), ("Sens", "ARRIVEE")],
            ("Melun", ["Fontainebleau", "Montereau-Fault-Yonne"], "Sens"),
        ),
    ],
)
def test_of_chained_arrivals_the_one_after_a_word_of_finishing_is_the_arrival(nlp, text, marked, expected):
    assert trip_with_steps(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "de Metz à Colmar avec un arrêt chez ma tante à Nancy",
            [("Metz", "DEPART"), ("Colmar", "ARRIVEE"), ("Nancy", "ARRIVEE")],
            ("Metz", ["Nancy"], "Colmar"),
        ),
        (
            "Rennes → Brest, une étape à Saint-Brieuc",
            [("Rennes", "DEPART"), ("Brest", "ARRIVEE"), ("Saint-Brieuc", "ARRIVEE")],
            ("Rennes", ["Saint-Brieuc"], "Brest"),
        ),
        # "via", "passer par"
        (
            "tgv lille bordeaux annulé, je peux le faire via paris montparnasse ?",
            [("lille", "DEPART"), ("bordeaux", "ARRIVEE"), ("paris montparnasse", "ARRIVEE")],
            ("Lille", ["Paris Montparnasse"], "Bordeaux"),
        ),
        (
            "De Metz à Colmar, je peux passer par Nancy ?",
            [("Metz", "DEPART"), ("Colmar", "ARRIVEE"), ("Nancy", "ARRIVEE")],
            ("Metz", ["Nancy"], "Colmar"),
        ),
        # a stop's word in another clause says nothing of the place
        (
            "je pars de Vannes, changement de programme : Lorient",
            [("Vannes", "DEPART"), ("Lorient", "ARRIVEE")],
            ("Vannes", [], "Lorient"),
        ),
    ],
)
def test_an_arrival_after_a_stops_word_is_a_stop(nlp, text, marked, expected):
    """Of several arrivals read, one after "arrêt", "étape", "escale", "changement"... is a stop."""
    assert trip_with_steps(nlp, text, marked) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        (
            "je vais à Poitiers depuis Niort, ça passe par Saint-Maixent ?",
            [("Poitiers", "ARRIVEE"), ("Saint-Maixent", "VIA")],
            ("Niort", ["Saint-Maixent"], "Poitiers"),
        ),
        (
            "de Redon à Rennes en changeant à Messac",
            [("Rennes", "ARRIVEE"), ("Messac", "VIA")],
            ("Redon", ["Messac"], "Rennes"),
        ),
    ],
)
def test_a_missing_departure_is_read_after_its_cue_before_the_stops_stand_in(nlp, text, marked, expected):
    """An arrival and stops read, no departure: a free place after a departure's cue departs; the
    first stop does not."""
    assert trip_with_steps(nlp, text, marked) == expected


def test_a_missing_arrival_beside_stops_is_read_after_its_cue(nlp):
    """A departure and stops read, two other places: the one after an arrival's cue arrives."""
    text = "je pars de Lille, une nuit à Arras, puis direction Amiens ; Douai ce sera pour une autre fois"
    marked = [("Lille", "DEPART"), ("Arras", "VIA")]
    assert trip_with_steps(nlp, text, marked) == ("Lille", ["Arras"], "Amiens")


@pytest.mark.parametrize(
    "text,expected",
    [
        # none read: "de" X "à" Y right after a verb of going, or after a train's word
        ("je voudrais aller de Pau à Lourdes avec ma mère", ("Pau", "Lourdes")),
        ("on veut partir demain de Quimper à Brest", ("Quimper", "Brest")),
        ("le train de 19 h de Toulouse à Montauban est-il plein le vendredi ?", ("Toulouse", "Montauban")),
        # "l'été", "cet été": the summer, not "a été"
        ("c'est possible d'aller de Auray à Quiberon en train l'été ?", ("Auray", "Quiberon")),
        ("demain faut que j'aille de rodez a millau pr le taf", ("Rodez", "Millau")),  # subjunctive
        # no verb of going, a time gone by, another means: no pair
        ("je déménage de Caen à Lyon le mois prochain, merci de changer mon adresse", (None, None)),
        ("l'an dernier je suis allé de Caen à Lyon, c'était long", (None, None)),
        ("il y a un bateau pour aller de Marseille à Ajaccio ?", (None, None)),
        ("on aimerait faire le canal de Nantes à Brest en pédalo", (None, None)),
    ],
)
def test_two_places_after_a_verb_of_going_none_read(nlp, text, expected):
    assert trip_of(nlp, text, []) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("les horaires de la ligne qui relie le village de Génolhac à Alès ?", ("Génolhac", "Alès")),
        (
            "est-il possible de relier en train Bourg-Saint-Andéol et Pont-Saint-Esprit ?",
            ("Bourg-Saint-Andéol", "Pont-Saint-Esprit"),
        ),
        # no request, no train's word: a line told of
        ("la vieille route qui reliait Génolhac à Alès passait par ici", (None, None)),
    ],
)
def test_two_places_after_a_verb_of_linking_none_read(nlp, text, expected):
    assert trip_of(nlp, text, []) == expected


def test_an_arrival_abroad_after_its_cue_leaves_the_arrival_unread(nlp):
    """'pour Lausanne': the trip goes abroad, no other place of the request is its arrival."""
    text = "un train de Dijon pour Lausanne dimanche, et je repasse à Auxonne voir mamie"
    doc = read(without_steps("lone_end_partner"), marked_doc(nlp, text, [("Dijon", "DEPART")]))
    assert (doc._.trip["departure"], doc._.trip["arrival"]) == ("Dijon", None)
    assert {"rule": "seqkit_trip.cued_ends", "abroad": True} in doc._.trip["why"]
    # a French arrival after its cue is read as before
    assert trip_of(nlp, "un train de Dijon pour Beaune dimanche", [("Dijon", "DEPART")]) == ("Dijon", "Beaune")


def test_of_several_stops_the_one_after_an_arrivals_cue_arrives(nlp):
    text = "Départ Rouen vers Lyon, escale à Paris Saint-Lazare puis changement à Dijon"
    marked = [("Rouen", "DEPART"), ("Lyon", "VIA"), ("Paris Saint-Lazare", "VIA"), ("Dijon", "VIA")]
    assert trip_with_steps(nlp, text, marked) == ("Rouen", ["Paris Saint-Lazare", "Dijon"], "Lyon")


def test_a_last_stop_named_again_is_no_arrival(nlp):
    """A chain of stops and no arrival, the last stop naming an earlier one again (where the stop
    is said): the arrival is the last place of the chain."""
    text = "Paris > Orléans > Blois / arrêt chez mamie à orleans / samedi 10h"
    marked = [("Paris", "DEPART"), ("Orléans", "VIA"), ("Blois", "VIA"), ("orleans", "VIA")]
    assert trip_with_steps(nlp, text, marked) == ("Paris", ["Orléans"], "Blois")
    # no place named again: the last stop arrives, as before
    marked = [("Paris", "DEPART"), ("Orléans", "VIA"), ("Blois", "VIA")]
    assert trip_with_steps(nlp, "Paris > Orléans > Blois samedi", marked) == ("Paris", ["Orléans"], "Blois")
    # the same read as the arrival after the stop's word: a stop named again, no arrival
    marked = [("Paris", "DEPART"), ("Orléans", "VIA"), ("Blois", "VIA"), ("orleans", "ARRIVEE")]
    assert trip_with_steps(nlp, text, marked) == ("Paris", ["Orléans"], "Blois")
    # an arrival after a stop's word that names no stop stays the arrival
    text = "de Paris à Tours par Orléans, arrêt à Blois"
    marked = [("Paris", "DEPART"), ("Orléans", "VIA"), ("Blois", "ARRIVEE")]
    assert trip_with_steps(nlp, text, marked) == ("Paris", ["Orléans"], "Blois")


@pytest.mark.parametrize(
    "text",
    [
        # a trip remembered, dreamt of, reviewed or in a story (lexicon class `told`)
        "Mon plus beau souvenir : le train de nuit Paris Briançon quand j'avais dix ans.",
        "Je rêve de faire un jour Quimper – Strasbourg en TER.",
        "Avis : le Ouigo Nantes Bordeaux est confortable et pas cher.",
        "Dans le roman, le héros prend chaque matin le train Lille Arras.",
        # a time gone by, with no word of a request
        "J'ai pris le TER Vannes Lorient tous les jours pendant deux ans.",
    ],
)
def test_no_pair_from_nothing_where_a_trip_is_told_not_asked(nlp, text):
    """No end read, and the request tells of a trip remembered, dreamt of, reviewed or gone by,
    asking for nothing: its two places are no pair."""
    assert trip_of(nlp, text, []) == (None, None)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("J'ai pris le TER Vannes Lorient hier, il m'en faut un demain aussi ?", ("Vannes", "Lorient")),
        ("un train de nuit Paris Briançon vendredi ?", ("Paris", "Briançon")),
    ],
)
def test_a_past_told_beside_a_request_keeps_its_pair(nlp, text, expected):
    assert trip_of(nlp, text, []) == expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # the place named right before "de là" departs, another departure read or not
        (
            "Ma fille vit à Rennes ; moi je suis à Vitré cette semaine, et c'est de là que je pars jeudi pour Laval",
            [("Rennes", "DEPART"), ("Laval", "ARRIVEE")],
            ("Vitré", "Laval"),
        ),
        (
            "Je serai en stage à Lens ; il me faut un train de là pour Lille vendredi",
            [("Lille", "ARRIVEE")],
            ("Lens", "Lille"),
        ),
        # read the other way round: the ends change places
        (
            "Je suis infirmière à Libourne, et c'est de là que je monte à Bordeaux lundi",
            [("Bordeaux", "DEPART"), ("Libourne", "ARRIVEE")],
            ("Libourne", "Bordeaux"),
        ),
    ],
)
def test_the_place_named_before_de_la_departs(nlp, text, marked, expected):
    assert ends_of(without_steps("lone_end_partner"), text, marked) == expected
    assert ends_of(without_steps("lone_end_partner", "from_there"), text, marked) != expected


@pytest.mark.parametrize(
    "text,marked,expected",
    [
        # a further leg, or a river or a region named with its article, is no place left
        (
            "De Lyon je gagne Chambéry, puis de là Modane",
            [("Lyon", "DEPART"), ("Chambéry", "VIA"), ("Modane", "ARRIVEE")],
            ("Lyon", "Modane"),
        ),
        (
            "Poitiers, la Vienne, c'est de là que je pars pour Tours",
            [("Poitiers", "DEPART"), ("Tours", "ARRIVEE")],
            ("Poitiers", "Tours"),
        ),
        (
            "Je pars de Brest pour Morlaix, pas loin de là",
            [("Brest", "DEPART"), ("Morlaix", "ARRIVEE")],
            ("Brest", "Morlaix"),
        ),
    ],
)
def test_no_departure_from_de_la_where_it_names_none(nlp, text, marked, expected):
    assert ends_of(without_steps("lone_end_partner"), text, marked) == expected
