"""Property-based tests of every loader a user's text reaches: random malformed hero
files (the duel's, and Dice Throne's hero and card files), the river's and the arcade's
deck, tile and tactic files, rule files, ``--set`` values
and target strings must give a one-line ``PlaytestError`` (or load), never another
exception."""
import copy
import math
import string
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simcore.dice import Face, parse_die, parse_target
from simcore.arcade import model as am
from simcore.dicethrone import model as dtm
from simcore.duel import model as dm
from simcore.errors import PlaytestError
from simcore.regicide import model as rm
from simcore.river import model as rvm
from simcore.toml_io import parse_set_options

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])

HERO_FILES = sorted(dm.HEROES_DIR.glob("*.toml"))
HERO_DICTS = [tomllib.loads(p.read_text()) for p in HERO_FILES]


# ------------------------------------------------------------------ TOML text
def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml_key(k: str) -> str:
    return k if k and all(c.isalnum() or c in "_-" for c in k) else toml_value(str(k))


def toml_doc(d: dict) -> str:
    return "\n".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in d.items()) + "\n"


SYMBOLS = ["sword", "heart", "fist", "dagger", "bag", "shadow", "fire", "x"]
words = st.sampled_from(["damage", "heal", "cp", "wounds", "daze", "shield", "steal", "undefendable",
                         "target", "tiers", "name", "dice", "symbols", "strike", "order", "faces"]
                        + SYMBOLS)
scalars = st.one_of(
    st.integers(min_value=-2**70, max_value=2**70), st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=string.printable, max_size=12),
    st.sampled_from(["3*sword", "2*x+1*y", "small-straight", "large-straight", "5*", "*3", "0*fire",
                     "3*dagger|4*bag", "1:sword", "7:x", "", " ", "lot", "seat0", "99*sword"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(words, st.text(max_size=5)), inner, max_size=4)),
    max_leaves=10)


def paths(d, prefix=()):
    """Every (path) into a nested dict/list structure."""
    out = []
    if isinstance(d, dict):
        for k, v in d.items():
            out.append(prefix + (k,))
            out += paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out.append(prefix + (i,))
            out += paths(v, prefix + (i,))
    return out


@st.composite
def mutated_hero(draw):
    return mutated(draw, draw(st.sampled_from(HERO_DICTS)))


def mutated(draw, original: dict) -> dict:
    """A copy of a parsed data file with 1-3 values replaced, deleted or added."""
    d = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        ps = paths(d)
        p = draw(st.sampled_from(ps))
        parent = d
        for k in p[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[p[-1]] = draw(values)
        elif action == "delete":
            del parent[p[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.one_of(words, st.text(max_size=6)))] = draw(values)
        else:
            parent.append(draw(values))
    return d


def assert_one_line(e: PlaytestError):
    text = str(e)
    assert text and len(text.splitlines()) == 1 and text == e.one_line()


def load_or_error(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except PlaytestError as e:
        assert_one_line(e)
        return None


# ------------------------------------------------------------------ hero files
@FAST
@given(hero=mutated_hero())
def test_mutated_hero_files(tmp_path_factory, hero):
    try:
        text = toml_doc(hero)
    except TypeError:
        return
    d = tmp_path_factory.mktemp("h")
    path = d / "hero.toml"
    path.write_text(text, encoding="utf-8")
    h = load_or_error(dm.load_hero, path)
    if h is not None:
        # a hero that loads must pack into the kernel's tables
        dm.build_tables([h])


@FAST
@given(data=st.data())
def test_corrupted_hero_text(tmp_path_factory, data):
    src = data.draw(st.sampled_from(HERO_FILES)).read_text()
    i = data.draw(st.integers(0, len(src)))
    j = data.draw(st.integers(i, min(len(src), i + 40)))
    junk = data.draw(st.text(alphabet=string.printable + "éλ\x00\ufeff", max_size=20))
    d = tmp_path_factory.mktemp("t")
    path = d / "hero.toml"
    path.write_text(src[:i] + junk + src[j:], encoding="utf-8", errors="surrogatepass")
    h = load_or_error(dm.load_hero, path)
    if h is not None:
        dm.build_tables([h])


@FAST
@given(raw=st.binary(max_size=64))
def test_binary_hero_file(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("b") / "hero.toml"
    path.write_bytes(raw)
    load_or_error(dm.load_hero, path)


# ------------------------------------------------------------------ Dice Throne content
DT_FILES = {"heroes/cards.toml": dtm.CARDS_FILE, **{f"heroes/{p.name}": p for p in sorted(dtm.HEROES_DIR.glob("*.toml"))}}
DT_DICTS = {k: tomllib.loads(p.read_text()) for k, p in DT_FILES.items()}


@FAST
@given(data=st.data())
def test_mutated_dicethrone_content(tmp_path_factory, data):
    """One of the shipped Dice Throne files (the generic cards or a hero) with 1-3 values
    replaced, deleted or added: the content loads and packs into the kernel's tables, or
    the loader gives a one-line error. Before these checks, 32 of 300 such files raised
    TypeError, AttributeError or OverflowError (a table given as a number, an id given
    as a list, a cost of 10**30)."""
    name = data.draw(st.sampled_from(sorted(DT_DICTS)))
    try:
        text = toml_doc(mutated(data.draw, DT_DICTS[name]))
    except TypeError:
        return
    d = tmp_path_factory.mktemp("dt")
    (d / "heroes").mkdir()
    for k, p in DT_FILES.items():
        (d / k).write_text(text if k == name else p.read_text(), encoding="utf-8")
    content = load_or_error(dtm.load_content, dtm.roster(d / "heroes"), heroes_dir=d / "heroes")
    if content is not None:
        dtm.build_tables(content)


# ------------------------------------------------------------------ river and arcade data files
CARD_GAME_FILES = {
    "river deck": (rvm.DECK_FILE, lambda p: rvm.make_tables(deck=rvm.load_deck(p))),
    "river tiles": (rvm.TILES_FILE, lambda p: rvm.make_tables(tiles=rvm.load_tiles(p))),
    "river tactics": (rvm.TACTICS_FILE, lambda p: rvm.make_tables(tactics=rvm.load_tactics(p))),
    "arcade deck": (am.DECK_FILE, lambda p: am.build_tables(am.load_deck(p), am.load_rules())),
}
CARD_GAME_DICTS = {k: tomllib.loads(f.read_text()) for k, (f, _) in CARD_GAME_FILES.items()}


@FAST
@given(data=st.data())
def test_mutated_river_and_arcade_files(tmp_path_factory, data):
    """A shipped river deck, tile or tactic file, or the arcade's deck, with 1-3 values
    replaced, deleted or added: it loads into the game's tables, or gives a one-line
    error. Before these checks, 76 of 400 such files raised (a tile or a tactic card
    given as a number, a colour given as a table, a card given as a list)."""
    name = data.draw(st.sampled_from(sorted(CARD_GAME_DICTS)))
    try:
        text = toml_doc(mutated(data.draw, CARD_GAME_DICTS[name]))
    except TypeError:
        return
    f, load = CARD_GAME_FILES[name]
    path = tmp_path_factory.mktemp("cg") / f.name
    path.write_text(text, encoding="utf-8")
    load_or_error(load, path)


# ------------------------------------------------------------------ rule files and --set
DUEL_KEYS = list(dm.default_rules())
REG_KEYS = list(rm.RULE_KEYS)


@FAST
@given(game=st.sampled_from(["duel", "regicide"]), data=st.data())
def test_rule_files(tmp_path_factory, game, data):
    keys = DUEL_KEYS if game == "duel" else REG_KEYS
    d = data.draw(st.dictionaries(st.one_of(st.sampled_from(keys), words), values, max_size=4))
    try:
        text = toml_doc(d)
    except TypeError:
        return
    path = tmp_path_factory.mktemp("r") / "rules.toml"
    path.write_text(text, encoding="utf-8")
    load = dm.load_rules if game == "duel" else rm.load_rules
    r = load_or_error(load, path)
    if r is not None:
        (dm.rules_vector if game == "duel" else rm.rules_vector)(r)


set_text = st.one_of(
    st.text(alphabet=string.printable, max_size=30),
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from(DUEL_KEYS + REG_KEYS + ["", " ", "x"]),
              st.one_of(st.text(alphabet=string.printable, max_size=15),
                        st.integers(-2**70, 2**70).map(str),
                        st.sampled_from(["true", "1.5", "inf", "nan", "[1]", "{a=1}", '"lot"', "lot", "1e400",
                                         "0x10", "1_000", "-0", "'x'"]))))


@FAST
@given(game=st.sampled_from(["duel", "regicide"]), sets=st.lists(set_text, min_size=1, max_size=3))
def test_set_values(game, sets):
    ov = load_or_error(parse_set_options, sets)
    if ov is None:
        return
    load = dm.load_rules if game == "duel" else rm.load_rules
    r = load_or_error(load, None, ov)
    if r is not None:
        (dm.rules_vector if game == "duel" else rm.rules_vector)(r)


# ------------------------------------------------------------------ targets and dice
target_text = st.one_of(
    st.text(alphabet="0123456789*+|- :swordheartfistxSMALstraightlarge", max_size=25),
    st.text(max_size=15),
    st.builds(lambda a, b, c: f"{a}*{b}{c}", st.integers(-3, 99), st.sampled_from(SYMBOLS + ["", "1", "*"]),
              st.sampled_from(["", "+2*heart", "|5*fist", "+", "|", "**", "+0*sword"])),
)


@FAST
@given(text=target_text, n_dice=st.integers(1, 8))
def test_target_strings(text, n_dice):
    t = load_or_error(parse_target, text, ["sword", "heart", "fist"], n_dice, "hero.toml", "target")
    if t is not None:
        t.met([Face(1, "sword")] * n_dice)


@FAST
@given(spec=st.one_of(st.text(alphabet="0123456789:,abcsword -", max_size=40),
                      st.lists(st.one_of(st.text(max_size=8), st.integers(-5, 9), st.booleans(),
                                         st.dictionaries(st.text(max_size=6), st.integers(-2, 9), max_size=3)),
                               max_size=8)))
def test_die_specs(spec):
    load_or_error(parse_die, spec, "hero.toml", "faces")
