"""The words the reading uses are data, written once: no word list in the code of pipeline/, no
two word classes alike, every class the code reads exists, the verbs' forms come from the
conjugation table, and the rules table of docs/travel.md is made from the pattern data."""

import ast
import re
from pathlib import Path

import pytest
from script_loader import load_script

from spacy_seqkit.travel.pipeline.lexicon import Lexicon, conjugate, fold, lexicon, patterns

ROOT = Path(__file__).resolve().parents[3]
PIPELINE = ROOT / "spacy_seqkit" / "travel" / "pipeline"
MODULES = sorted(PIPELINE.rglob("*.py"))
QUALIFIER_FOLDERS = sorted(p.parent for p in PIPELINE.glob("qualifiers/*/patterns.toml"))
WORD = re.compile(r"^[a-zà-ÿœ'’-]+$")


def word_lists(path: Path):
    """The word lists written in a module: `"a b c".split()` and literals of two or more words."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split":
            if isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
                yield frozenset(node.func.value.value.split())
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(words) >= 2 and len(words) == len(node.elts) and all(WORD.match(w) for w in words):
                yield frozenset(words)


def test_lexicon_no_word_list_in_two_modules_of_the_pipeline():
    seen = {}
    for path in MODULES:
        for words in set(word_lists(path)):
            other = seen.setdefault(words, path)
            assert other == path, f"{sorted(words)} written in {other.name} and {path.name}: a lexicon class"


def test_lexicon_no_long_word_list_in_the_code():
    long = [(p.relative_to(PIPELINE), sorted(w)) for p in MODULES for w in word_lists(p) if len(w) > 3]
    assert not long, f"word lists belong in the lexicon data: {long}"


def every_class():
    """(where, name, spec) of every word class: the lexicon's and each qualifier's."""
    for name, spec in lexicon().specs.items():
        yield "words.toml", name, spec
    for folder in QUALIFIER_FOLDERS:
        for name, spec in patterns(folder).items():
            if name != "rules":
                yield folder.name, name, spec


def test_lexicon_no_two_classes_alike_and_no_class_shadowed():
    words = {}
    shared = set(lexicon().specs)
    for where, name, spec in every_class():
        if where != "words.toml":
            assert name not in shared, f"{where}/patterns.toml redefines the lexicon's class {name!r}"
        lex = lexicon().extended({name: spec})
        found = lex[name]
        assert found, f"{where}: {name!r} holds no word"
        other = words.setdefault(found, (where, name))
        assert other == (where, name), f"{where}:{name} has the words of {other}: include it instead"
        assert spec.get("doc"), f"{where}: {name!r} says not what it is for"


def test_lexicon_every_class_the_code_reads_exists():
    classes = {name for _, name, _ in every_class()}
    read = set()
    for path in MODULES:
        read |= set(re.findall(r"""(?:LEX|lex|lexicon\(\))\[["'](\w+)["']\]""", path.read_text(encoding="utf8")))
    assert read and not read - classes, f"classes read but never defined: {sorted(read - classes)}"


def test_lexicon_words_are_folded_and_optional_accents_added():
    lex = Lexicon({"c": {"words": "D’ Départ Hésite", "accents": "optional"}}, {})
    assert lex["c"] == {"d'", "départ", "depart", "hésite", "hesite"}
    assert fold("L’Isle") == "l'isle"
    # a ligature is written out, not dropped: "sœur" is "soeur" bare, never "sur"
    assert Lexicon({"c": {"words": "sœur", "accents": "optional"}}, {})["c"] == {"sœur", "soeur"}


def test_lexicon_after_sales_participles_keep_their_accent_where_bare_they_are_another_word():
    """ "le taxi me laisse à la gare", "si je rate la correspondance", "ça coupe": no deed done."""
    after_sales = lexicon()["after_sales"]
    assert {"laissé", "raté", "coupé", "oublié"} <= after_sales
    assert not {"laisse", "rate", "coupe", "oublie"} & after_sales


@pytest.mark.parametrize(
    "lemma,tense,forms",
    [
        ("quitter", "present", "quitte quittes quitte quittons quittez quittent"),
        ("quitter", "future", "quitterai quitteras quittera quitterons quitterez quitteront"),
        ("préférer", "present", "préfère préfères préfère préférons préférez préfèrent"),
        ("emmener", "present", "emmène emmènes emmène emmenons emmenez emmènent"),
        # e before two consonants keeps its sound: no grave accent
        ("rentrer", "present", "rentre rentres rentre rentrons rentrez rentrent"),
        ("réserver", "present", "réserve réserves réserve réservons réservez réservent"),
        ("loger", "present", "loge loges loge logeons logez logent"),
        ("voyager", "gerund", "voyageant"),
        ("habiter", "participle", "habité habitée habités habitées"),
    ],
)
def test_lexicon_regular_verbs_are_conjugated(lemma, tense, forms):
    assert conjugate(lemma, tense) == forms


def test_lexicon_classes_take_verbs_by_tense_and_fail_clearly():
    verbs = {"partir": {"present": "pars part", "future": "partirai"}, "quitter": {"group": 1}}
    lex = Lexicon(
        {"a": {"verbs": ["partir:future", "quitter:infinitive"]}, "b": {"include": ["a"], "words": "x"}}, verbs
    )
    assert lex["a"] == {"partirai", "quitter"} and lex["b"] == {"partirai", "quitter", "x"}
    with pytest.raises(ValueError, match="no verb 'aller'"):
        Lexicon({"a": {"verbs": ["aller"]}}, verbs)["a"]
    with pytest.raises(ValueError, match="unknown tense 'past'"):
        Lexicon({"a": {"verbs": ["partir:past"]}}, verbs)["a"]
    with pytest.raises(ValueError, match="no word class 'zz'"):
        Lexicon({"a": {"include": ["zz"]}}, verbs)["a"]
    with pytest.raises(ValueError, match="includes itself"):
        Lexicon({"a": {"include": ["a"]}}, verbs)["a"]


def test_lexicon_rules_table_of_the_docs_is_current():
    module = load_script(ROOT / "scripts" / "reading_rules.py")
    assert module.current_docs() == module.tables(), "run: python scripts/reading_rules.py --write"
    for step in module.read_toml(PIPELINE / "roles" / "steps.toml")["steps"]:
        from spacy_seqkit.travel.pipeline.roles.steps import trip_steps

        assert step in trip_steps.get_all(), f"steps.toml documents {step!r}, which no step registers"
