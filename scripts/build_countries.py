"""Write `spacy_seqkit/travel/places/data/countries.txt`: the countries a request may name, in
French. The hand-kept names (`KEPT`: "Angleterre", "Écosse", "Québec", "USA": what people say)
and ISO 3166-1's countries in French, from pycountry's translations (the iso-codes project's
data, LGPL 2.1; `pip install pycountry` to run this, nothing reads it at run time). Left out: France
and its overseas territories (Guadeloupe, La Réunion...: French places), names with a comma or a
parenthesis (ISO's formal forms), and names a French commune also bears (Grenade, Macau, Soudan:
the commune). Run it, then `scripts/build_gazetteer_index.py` (the index is built from the file).

    python scripts/build_countries.py
"""

import gettext
from pathlib import Path

import pycountry

from spacy_seqkit.travel.places.index import load_index
from spacy_seqkit.travel.places.names import normalise

OUT = Path(__file__).resolve().parents[1] / "spacy_seqkit" / "travel" / "places" / "data" / "countries.txt"
KEPT = (
    "Algérie Allemagne Angleterre Argentine Autriche Belgique Brésil Bulgarie Canada Chine Croatie Danemark Écosse "
    "Égypte Espagne États-Unis Finlande Grèce Hongrie Inde Irlande Italie Japon Luxembourg Maroc Mexique Norvège "
    "Pays-Bas Pologne Portugal Québec Roumanie Royaume-Uni Russie Sénégal Serbie Slovaquie Slovénie Suède Suisse "
    "Tchéquie Tunisie Turquie Ukraine USA"
).split()
FRENCH = {"FR", "GP", "MQ", "GF", "RE", "YT", "NC", "PF", "PM", "WF", "BL", "MF", "TF"}
HEADER = """\
# Countries a request may name, one per line: a place after them ("Londres, Angleterre") or said
# to be in them ("Vienne en Autriche") is abroad. Read by names.py (FOREIGN_PLACES) and by the
# reading's context qualifier. Written by scripts/build_countries.py: hand-kept names and ISO
# 3166-1's countries in French (pycountry's translations, from the iso-codes project, LGPL 2.1).
"""


def iso_names():
    french = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["fr"])
    for country in pycountry.countries:
        if country.alpha_2 not in FRENCH:
            for name in {country.name, getattr(country, "common_name", country.name)}:
                text = french.gettext(name)
                if "," not in text and "(" not in text:
                    yield text


def main() -> None:
    communes = load_index(0).by_key
    kept = {normalise(name) for name in KEPT}
    names = set(KEPT) | {n for n in iso_names() if normalise(n) not in communes or normalise(n) in kept}
    by_key = {}
    for name in sorted(names, key=lambda n: (normalise(n), n)):
        by_key.setdefault(normalise(name), name)  # one spelling per key
    OUT.write_text(HEADER + "".join(f"{name}\n" for name in sorted(by_key.values(), key=normalise)), encoding="utf8")
    print(f"wrote {OUT} ({len(by_key)} countries)")


if __name__ == "__main__":
    main()
