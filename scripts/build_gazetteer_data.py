"""Build the travel gazetteer's data files from published packages (run while developing;
nothing is fetched at run time).

    python scripts/build_gazetteer_data.py            # fetches both packages into a temp dir
    python scripts/build_gazetteer_data.py --communes PATH/communes.json --lemmas PATH/fr_lemma_lookup.json.gz

Writes, in spacy_seqkit/travel/places/data/:
- communes.tsv.gz: every commune of metropolitan France (current, delegated and associated
  communes, and the municipal arrondissements of Paris, Lyon and Marseille) from INSEE's
  Code officiel géographique as packaged by @etalab/decoupage-administratif (npm, MIT; data
  under the Licence Ouverte / Etalab): INSEE code, official name, kind, département,
  population (legal population; empty for delegated and associated communes), and the
  INSEE code of the commune a delegated / associated commune or arrondissement belongs to.
- departements.tsv.gz: the départements (code, official name), from the same package.
- french_words.txt.gz: French word forms from the lemmatizer tables of spacy-lookups-data
  (PyPI, MIT), normalised as the gazetteer compares names (lowercase, no accents), so that
  typo correction never turns an ordinary word into a place.
"""

import argparse
import csv
import gzip
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from spacy_seqkit.travel.places.names import normalise  # noqa: E402  (one normalisation for data and look-ups)

OUT = Path(__file__).resolve().parent.parent / "spacy_seqkit" / "travel" / "places" / "data"
NPM_PACKAGE = "@etalab/decoupage-administratif@6.0.0"
LOOKUPS_PACKAGE = "spacy-lookups-data==1.0.5"
KINDS = {
    "commune-actuelle": "C",
    "commune-deleguee": "D",
    "commune-associee": "A",
    "arrondissement-municipal": "R",
}
LEMMA_TABLES = ("fr_lemma_lookup.json.gz", "fr_lemma_index.json.gz", "fr_lemma_exc.json.gz")


def fetch_communes(workdir: Path) -> Path:
    subprocess.run(["npm", "pack", NPM_PACKAGE, "--silent"], cwd=workdir, check=True, stdout=subprocess.DEVNULL)
    tarball = next(workdir.glob("etalab-decoupage-administratif-*.tgz"))
    with tarfile.open(tarball) as tar:
        for name in ("communes.json", "departements.json"):
            tar.extract(f"package/data/{name}", workdir, filter="data")
    return workdir / "package" / "data" / "communes.json"


def fetch_lemma_tables(workdir: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(workdir), LOOKUPS_PACKAGE], check=True
    )
    wheel = next(workdir.glob("spacy_lookups_data-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        for name in LEMMA_TABLES:
            zf.extract(f"spacy_lookups_data/data/{name}", workdir)
    return workdir / "spacy_lookups_data" / "data"


def write_communes(source: Path) -> int:
    communes = json.loads(source.read_text(encoding="utf8"))
    rows = []
    for c in communes:
        if c["zone"] != "metro":
            continue
        parent = c.get("commune") or (c.get("chefLieu") if c["type"] != "commune-actuelle" else "") or ""
        population = c.get("population")
        rows.append(
            (
                c["code"],
                c["nom"],
                KINDS[c["type"]],
                c["departement"],
                "" if population is None else str(population),
                parent,
            )
        )
    rows.sort(key=lambda r: (r[0], r[2], r[1]))
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
    writer.writerow(("code", "name", "kind", "departement", "population", "parent"))
    writer.writerows(rows)
    # mtime=0: the same data gives the same bytes.
    (OUT / "communes.tsv.gz").write_bytes(gzip.compress(buffer.getvalue().encode("utf8"), mtime=0))
    departements = json.loads((source.parent / "departements.json").read_text(encoding="utf8"))
    lines = ["code\tname"] + [f"{d['code']}\t{d['nom']}" for d in departements if d["zone"] == "metro"]
    (OUT / "departements.tsv.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf8"), mtime=0))
    return len(rows)


def write_words(tables: Path) -> int:
    words = set()
    for name in LEMMA_TABLES:
        table = json.loads(gzip.decompress((tables / name).read_bytes()))
        if name.endswith("lookup.json.gz"):  # form -> lemmas
            for form, lemmas in table.items():
                words.add(form)
                words.update(lemmas if isinstance(lemmas, list) else [lemmas])
        else:  # part of speech -> words (index) or form -> lemmas (exceptions)
            for entries in table.values():
                for form, lemmas in entries.items() if isinstance(entries, dict) else ((w, []) for w in entries):
                    words.add(form)
                    words.update(lemmas)
    keys = {normalise(w) for w in words if w and w.replace("-", "").replace("'", "").isalpha()}
    text = "\n".join(sorted(k for k in keys if k)) + "\n"
    (OUT / "french_words.txt.gz").write_bytes(gzip.compress(text.encode("utf8"), mtime=0))
    return text.count("\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--communes", type=Path, help="communes.json of @etalab/decoupage-administratif")
    parser.add_argument("--lemmas", type=Path, help="folder with spacy-lookups-data's fr_lemma_*.json.gz")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        communes = args.communes or fetch_communes(Path(tmp))
        lemmas = args.lemmas or fetch_lemma_tables(Path(tmp))
        print(f"{write_communes(communes)} communes -> {OUT / 'communes.tsv.gz'}")
        print(f"{write_words(lemmas)} words -> {OUT / 'french_words.txt.gz'}")


if __name__ == "__main__":
    main()
