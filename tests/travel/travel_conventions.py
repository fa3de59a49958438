"""Facts of the travel conventions that tests check the code and data against.

Kept apart from `spacy_seqkit.travel.stations` on purpose: a test must not take
its expectation from the code it checks."""

# The canonical station names of the travel conventions.
CONVENTION_STATIONS = (
    "Paris Gare de Lyon", "Paris Gare du Nord", "Paris Gare de l'Est", "Paris Montparnasse",
    "Paris Saint-Lazare", "Paris Austerlitz", "Paris Bercy", "Lyon Part-Dieu", "Lyon Perrache",
    "Marseille Saint-Charles", "Lille Flandres", "Lille Europe", "Bordeaux Saint-Jean",
    "Toulouse Matabiau", "Nice Ville", "Montpellier Saint-Roch", "Strasbourg Gare Centrale",
    "Nantes Gare", "Rennes Gare", "Aix-en-Provence TGV", "Avignon TGV", "Avignon Centre",
    "Marne-la-Vallée Chessy", "Aéroport Charles de Gaulle 2 TGV", "Massy TGV",
    "Lyon Saint-Exupéry TGV", "Grenoble Gare", "Dijon Ville", "Metz Ville", "Nancy Ville",
    "Tours Gare", "Saint-Pierre-des-Corps",
)
