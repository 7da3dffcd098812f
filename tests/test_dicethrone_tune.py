"""Every number of the Dice Throne data by name (simcore/dicethrone/edits.py), the game
interface's editable_numbers/apply_edits, and ``playtest dicethrone tune`` over them."""
from __future__ import annotations

import json

import numpy as np
import pytest

from simcore.dicethrone import model as M
from simcore.dicethrone.edits import roster_of
from simcore.errors import PlaytestError
from simcore.game import get_game
from simcore.toml_io import tomllib


@pytest.fixture(scope="module")
def api():
    return get_game("dicethrone")


@pytest.fixture(scope="module")
def rules(api):
    return api.load_rules()


@pytest.fixture(scope="module")
def heroes(api, rules):
    return api.load_content(rules)


def test_names_read_like_the_data_lines(api, rules, heroes):
    """Each name addresses the number of the data line it reads like (values from the files)."""
    es = api.editable_numbers(rules, heroes)
    vals = {e.key: e.value for e in es}
    assert len(vals) == len(es)                                        # unique names
    assert vals["hero.pyromancer.fireball.1.damage"] == 4
    assert vals["hero.pyromancer.fireball.1.gain.n"] == 1
    assert vals["hero.pyromancer.meteorite.1.damage2"] == 2           # the collateral 2
    assert vals["hero.pyromancer.pyroblast.1.roll.fire.damage"] == 3  # a bonus-roll outcome
    assert vals["hero.pyromancer.hot_streak.1.damage.per"] == 1
    assert vals["hero.paladin.passive.reroll_cost"] == 1
    assert vals["hero.paladin.divine_defense.1.prevent2.per"] == 2    # 2 per heart
    assert vals["card.surprise.cost"] == 2 and vals["card.unexpected.set_die.n"] == 2
    assert vals["token.fire_mastery.limit"] == 5 and vals["token.crit.spend1.add_damage"] == 4
    assert vals["token.crit.spend1.if_attack.at_least"] == 5 and vals["token.blessing.knocked_out.set_hp"] == 1
    assert vals["token.burn.upkeep.damage"] == 2 and vals["token.knockdown.spend1.cost_cp"] == 2
    assert vals["token.retribution.spend1.damage.per"] == 1
    assert "token.protect.spend1.prevent_half" not in vals                # a flag (= 1), not an amount
    assert vals["rules.start_hp"] == 50


PAIR = ("paladin", "pyromancer")


@pytest.fixture(scope="module")
def pair_heroes(api, rules, tmp_path_factory):
    """A content folder of the Paladin and the Pyromancer alone (the shipped cards.toml): the
    tests below edit every number of one matchup's content, and an edit re-loads the whole
    folder (the roster of eight took a minute for the same checks)."""
    import shutil

    folder = tmp_path_factory.mktemp("pair")
    for h in PAIR:
        shutil.copy(M.HEROES_DIR / f"{h}.toml", folder / f"{h}.toml")
    return api.load_content(rules, folder)


def full_content(heroes):
    """The content of the Paladin against the Pyromancer in the roster a hero list was loaded
    with."""
    return roster_of(heroes).content(PAIR)


def _tables_equal(a, b):
    return all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b))


def test_every_name_reaches_the_kernel_tables(api, rules, pair_heroes):
    """Changing any data number by one (through the game's loader) changes the kernel's
    tables; writing every number's own value back changes nothing."""
    heroes = pair_heroes
    base = M.build_tables(full_content(heroes))
    data = [e for e in api.editable_numbers(rules, heroes) if not e.key.startswith("rules.")]
    _, same = api.apply_edits(rules, heroes, {e.key: e.value for e in data})
    assert _tables_equal(M.build_tables(full_content(same)), base)
    for e in data:
        h2 = None
        for v in (e.value + 1, e.value - 1):   # one step up, or down where the loader caps it
            if e.lo <= v <= e.hi:
                try:
                    _, h2 = api.apply_edits(rules, heroes, {e.key: v})
                    break
                except PlaytestError as err:
                    assert err.field == e.key
        assert h2 is not None, e.key
        assert not _tables_equal(M.build_tables(full_content(h2)), base), e.key


def test_edit_is_a_copy_and_reaches_the_kernel_tables(api, rules, heroes):
    """An edit leaves the loaded content alone and lands in the right table cells."""
    _, new = api.apply_edits(rules, heroes, {"hero.pyromancer.fireball.1.damage": 9, "card.surprise.cost": 0,
                                             "token.fire_mastery.limit": 3})
    assert full_content(heroes).heroes["pyromancer"].abilities[0].tiers[0].effects[1].n == 4
    c = full_content(new)
    T = M.build_tables(c)
    row = T.tier_start[list(c.heroes).index("pyromancer"), 0, 0] + 1
    assert T.eff[row, M.C_OP] == M.OP_DAMAGE and T.eff[row, M.C_N] == 9
    assert T.card[[x.id for x in c.cards].index("surprise"), 0] == 0
    assert T.tok[c.token_ids["fire_mastery"], 1] == 3


@pytest.mark.parametrize("old,new", [("token.crit.bonus", "token.crit.spend1.add_damage"),
                                     ("token.crit.threshold", "token.crit.spend1.if_attack.at_least"),
                                     ("token.knockdown.cost", "token.knockdown.spend1.cost_cp"),
                                     ("token.blessing.bonus", "token.blessing.knocked_out.set_hp")])
def test_a_branch_tokens_old_key_names_its_new_key(api, rules, heroes, old, new):
    """Saved edits from before plan step 5 (the branch tokens' threshold, bonus and cost):
    one line naming the key that replaced it, and the new key edits that number."""
    with pytest.raises(PlaytestError) as e:
        api.apply_edits(rules, heroes, {old: 3})
    assert e.value.field == old and str(e.value).count("\n") == 0 and new in str(e.value)
    _, h2 = api.apply_edits(rules, heroes, {new: 3})
    assert {x.key: x.value for x in api.editable_numbers(rules, h2)}[new] == 3


def test_fix_names_the_new_key_of_an_old_token_key():
    """``playtest dicethrone fix --vary token.crit.bonus=..``: one line naming the new key."""
    from analysis import fix as F

    with pytest.raises(PlaytestError, match="'token.crit.bonus' is token.crit.spend1.add_damage now") as e:
        F.build_params(F.space_for("dicethrone"), ["token.crit.bonus=1..4"])
    assert e.value.field == "--vary"


@pytest.mark.parametrize("edits,field,text", [
    ({"hero.pyromancer.fireball.1.dmg": 3}, "hero.pyromancer.fireball.1.dmg", "hero.pyromancer.fireball.1.damage"),
    ({"card.surprize.cost": 3}, "card.surprize.cost", "card.surprise.cost"),
    ({"hero.pyromancer.fireball.1.damage": -1}, "hero.pyromancer.fireball.1.damage", "-1"),
    ({"token.fire_mastery.limit": "x"}, "token.fire_mastery.limit", "x"),
])
def test_bad_edits(api, rules, heroes, edits, field, text):
    """An unknown name (with the close names), a number out of bounds or not a number: one
    error naming the key."""
    with pytest.raises(PlaytestError) as e:
        api.apply_edits(rules, heroes, edits)
    assert e.value.field == field and text in e.value.one_line()


def test_api_edits_play_through_make_setup(api, rules, heroes):
    """Edited numbers reach the engine through make_setup and the exported files load back."""
    r2, h2 = api.apply_edits(rules, heroes, {"hero.pyromancer.fireball.1.damage": 40, "rules.start_hp": 40})
    assert r2["start_hp"] == 40 and [h.key for h in h2] == [h.key for h in heroes]
    files = api.export_files(r2, h2, rules)
    assert "start_hp = 40" in files["rules.toml"]
    pyro = tomllib.loads(files["heroes/pyromancer.toml"])
    fb = next(a for a in pyro["abilities"] if a["id"] == "fireball")
    assert fb["tiers"][0]["effects"][1]["damage"] == 40
    py = [h.key for h in heroes].index("pyromancer")     # the Pyromancer in seat 0
    base = api.play(0, 30, 2, api.make_setup(rules, heroes, 2), (py, 1 - py), ("greedy", "greedy"))
    big = api.play(0, 30, 2, api.make_setup(rules, h2, 2), (py, 1 - py), ("greedy", "greedy"))
    # a 40-damage Fireball (3 fire, the easiest attack) ends most games at once
    assert (big["winner"] == 0).sum() > (base["winner"] == 0).sum()
    assert big["turns"].mean() < base["turns"].mean()


from dicethrone_helpers import run_cli as run  # noqa: E402  (playtest ARGV in-process)


def test_cli_tune_data_number(capsys):
    """`tune --option <data number>` plays each value: a 30-damage Fireball shortens games."""
    code, out, _ = run(capsys, "dicethrone", "tune", "--option", "hero.pyromancer.fireball.1.damage",
                       "--values", "4,30", "-n", "10", "--json")
    assert code == 0
    d = json.loads(out)
    assert [v["value"] for v in d["variants"]] == [4, 30]
    assert d["variants"][0]["metrics"]["duration"]["x"] > d["variants"][1]["metrics"]["duration"]["x"]


@pytest.mark.parametrize("argv,field,text", [
    (("--option", "hero.pyromancer.fireball.1.damag", "--values", "3"), "--option", "hero.pyromancer.fireball.1.damage"),
    (("--option", "start_hpp", "--values", "3"), "--option", "start_hp"),
    (("--option", "card.surprise.cost", "--values", "2,-5"), "card.surprise.cost", "-5"),
])
def test_cli_tune_errors_before_any_game(capsys, argv, field, text):
    """A misspelt name or a bad value: one line naming it, before any game."""
    code, out, err = run(capsys, "dicethrone", "tune", *argv, "-n", "10")
    assert code != 0 and out == "" and len(err.strip().splitlines()) == 1
    assert field in err and text in err


def test_cli_numbers_lists_names(capsys):
    """`dicethrone numbers --match` lists exactly the matching names."""
    code, out, _ = run(capsys, "dicethrone", "numbers", "--match", "surprise", "--json")
    assert code == 0
    assert {r["name"] for r in json.loads(out)} == {"card.surprise.cost"}
