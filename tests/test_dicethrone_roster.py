"""Dice Throne's roster (issue 30; ``season1/VOCABULARY.md`` section 12, step 2): the
heroes are the files of a heroes folder, content is built per matchup, records name
roster indices, and every verb plays a designer's own folder (``--content DIR``, old name
``--heroes``), with fixture heroes written to tmp_path so that 3- and 4-hero rosters run
the N x N paths. Game counts are tiny: these check the plumbing, not a balance figure."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import fixture_roster, hero_copy, run_cli  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from simcore.dicethrone.roster import Roster  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

def cli(capsys, argv):
    """``playtest ARGV`` in-process: an object with ``exit_code`` and ``output`` (stdout + stderr)."""
    from types import SimpleNamespace

    code, out, err = run_cli(capsys, *argv)
    return SimpleNamespace(exit_code=code, output=out + err, stdout=out)


EMBER = ("ember", "pyromancer", "Ember Mage", ("{ damage = 4 } ]", "{ damage = 5 } ]"))
CINDER = ("cinder", "pyromancer", "Cinder Witch", ("{ damage = 6 } ]", "{ damage = 7 } ]"))


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """paladin, pyromancer and Ember Mage (a Pyromancer whose Fireball I deals 5)."""
    return fixture_roster(tmp_path_factory.mktemp("three") / "heroes", copies=(EMBER,))


# ---------------------------------------------------------------- the roster and its content
def test_the_roster_is_the_hero_files_sorted_by_name(three):
    assert M.roster() == ("barbarian", "monk", "moon_elf", "ninja", "paladin", "pyromancer", "shadow_thief", "treant")
    r = Roster(three)
    assert r.names == ("ember", "paladin", "pyromancer") and r.index("paladin") == 1
    assert [h.name for h in r.heroes] == ["Ember Mage", "Paladin", "Pyromancer"]
    assert r.cards_file == M.CARDS_FILE     # no cards.toml in the folder: the shipped generic file


def test_content_is_per_matchup_in_roster_order(three):
    r = Roster(three)
    c = r.content(("pyromancer", "ember"))
    assert list(c.heroes) == ["ember", "pyromancer"]                 # roster order, any seat order
    # the generic tokens (Evasive, the Moon Elf's and the Monk's, is one of them since Season One
    # step 4b), then each hero's
    assert [t.id for t in c.tokens] == ["knockdown", "burn", "stun", "evasive", "ember_fire_mastery", "fire_mastery"]
    assert r.content(("ember", "pyromancer")) is c                    # both seat orders share it
    mirror = r.content(("paladin", "paladin"))
    assert list(mirror.heroes) == ["paladin"] and len(mirror.tokens) == 4 + 5   # a mirror loads its hero once
    assert M.build_tables(mirror).lineup.tolist() == [0, 0]
    assert len(c.cards) == 18 + 15 + 15 and c.heroes["ember"].abilities[0].tiers[0].effects[1].n == 5


def test_a_folder_with_its_own_cards_toml(tmp_path):
    cards = M.CARDS_FILE.read_text().replace('id = "play_six"\nname = "Play Six"\ncost = 1',
                                             'id = "play_six"\nname = "Play Six"\ncost = 3')
    assert cards != M.CARDS_FILE.read_text()
    d = fixture_roster(tmp_path / "heroes", copies=(), cards=cards)
    r = Roster(d)
    assert r.names == ("paladin", "pyromancer")                     # cards.toml is not a hero
    c = r.content(r.names)
    assert next(x for x in c.cards if x.id == "play_six").cost == 3


def test_a_hero_naming_another_heros_token_is_one_line(tmp_path):
    """A token resolves against the generic file and the hero's own only: naming another
    hero's token loads in no matchup (before: it loaded when the other hero came first)."""
    d = fixture_roster(tmp_path / "heroes", copies=())
    text = (d / "paladin.toml").read_text()
    (d / "paladin.toml").write_text(text.replace('{ gain = "crit", n = 1 }', '{ gain = "fire_mastery", n = 1 }', 1))
    assert (d / "paladin.toml").read_text() != text
    with pytest.raises(PlaytestError) as e:
        Roster(d)
    msg = e.value.one_line()
    assert "\n" not in msg and msg.startswith(str(d / "paladin.toml"))
    assert "token 'fire_mastery' belongs to hero pyromancer: a token two heroes use is defined in cards.toml" in msg


def test_a_hero_redefining_a_generic_token_or_an_id_of_another_hero(tmp_path):
    d = fixture_roster(tmp_path / "a", copies=())
    (d / "pyromancer.toml").write_text((d / "pyromancer.toml").read_text().replace('id = "fire_mastery"',
                                                                                   'id = "burn"', 1))
    with pytest.raises(PlaytestError, match="token 'burn' is defined in cards.toml: a hero file does not redefine"):
        Roster(d)
    d = fixture_roster(tmp_path / "b", copies=())
    (d / "twin.toml").write_text((M.HEROES_DIR / "pyromancer.toml").read_text())   # same ids
    with pytest.raises(PlaytestError, match="is defined by pyromancer too"):
        Roster(d)


def test_every_pair_fits_the_engine_when_the_roster_is_made(tmp_path, monkeypatch):
    """The per-matchup limits are checked for every pair before any game (here with a
    smaller limit: the Paladin and the Pyromancer need 4 + 5 + 1 tokens, the generic four
    counting Evasive since Season One step 4b)."""
    monkeypatch.setattr(M, "MAX_TOKENS", 9)
    with pytest.raises(PlaytestError, match="paladin against pyromancer needs 10 tokens"):
        Roster(fixture_roster(tmp_path / "heroes", copies=()))


@pytest.mark.parametrize("make,reason", [
    (lambda d: None, "no hero files"),
    (lambda d: (d / "x.toml").write_text("name = [\n"), "malformed TOML"),
    (lambda d: (d / "x.toml").write_text('name = "X"\n'), "missing 'faces'"),
])
def test_bad_folders_are_one_line_before_any_game(tmp_path, make, reason, capsys):
    d = tmp_path / "heroes"
    d.mkdir()
    make(d)
    r = cli(capsys, ["dicethrone", "matchups", "--content", str(d), "-n", "2", "--no-store"])
    assert r.exit_code != 0 and reason in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_an_unknown_hero_is_one_line(capsys):
    r = cli(capsys, ["dicethrone", "odds", "--hero", "gunslinger"])
    assert r.exit_code != 0 and "--hero" in r.output and len(r.output.strip().splitlines()) == 1, r.output
    from strategies.dicethrone.bind import hero_index

    with pytest.raises(PlaytestError, match=r"unknown hero 'gunslinger' \(known: barbarian, monk, moon_elf, ninja, "
                                            r"paladin, pyromancer, shadow_thief, treant\)"):
        hero_index("gunslinger")


# ---------------------------------------------------------------- games
def test_records_name_roster_indices(three):
    from strategies.dicethrone.bind import play_range

    r = Roster(three)
    for heroes in (("ember", "pyromancer"), ("pyromancer", "ember"), ("paladin", "paladin")):
        for engine in ("kernel", "reference"):
            rec = play_range(0, 3, 2, heroes, ("greedy", "greedy"), engine=engine, roster=r)
            assert rec["hero0"].tolist() == [r.index(heroes[0])] * 3
            assert rec["hero1"].tolist() == [r.index(heroes[1])] * 3


def test_the_ember_mage_plays_the_pyromancers_games_but_for_its_number(three):
    """A copy of a hero under other ids plays the same games (ids are the matchup's), until
    its one changed number (Fireball I: 5 damage, not 4) matters."""
    from strategies.dicethrone.bind import play_range

    r = Roster(three)
    a = play_range(0, 30, 7, ("pyromancer", "paladin"), roster=r)
    same = Roster(fixture_roster(three.parent.parent / "same" / "heroes",
                                 copies=(("ember", "pyromancer", "Ember Mage", None),)))
    b = play_range(0, 30, 7, ("ember", "paladin"), roster=same)
    c = play_range(0, 30, 7, ("ember", "paladin"), roster=r)
    for f in ("winner", "turns", "hp0", "hp1"):
        assert a[f].tolist() == b[f].tolist(), f
    assert a["hp1"].tolist() != c["hp1"].tolist()


def test_optimal_tables_are_built_once_per_hero(three):
    """optimal's DP tables depend on the hero alone: the matchups of a roster compute each
    hero's once (the scaling token takes its id in each matchup)."""
    from strategies.dicethrone import optimal as O
    from strategies.dicethrone.bind import full_data
    from strategies.dicethrone.optimal import H_HERO, HB_TOK, HH

    r = Roster(three)
    O._HERO_TABLES.clear()
    for pair in (("ember", "paladin"), ("paladin", "pyromancer"), ("ember", "pyromancer"), ("paladin", "paladin"),
                 ("pyromancer", "pyromancer")):
        c = r.content(pair)
        T = M.build_tables(c)
        data = full_data(c, T)
        from strategies.dicethrone.optimal import D_OPT

        o = int(data[D_OPT])
        for h, hid in enumerate(c.heroes):
            tk = int(data[o + H_HERO + h * HH + HB_TOK])
            want = {"paladin": -1, "pyromancer": c.token_ids.get("fire_mastery"),
                    "ember": c.token_ids.get("ember_fire_mastery")}[hid]
            assert tk == want, (pair, hid)
    assert len(O._HERO_TABLES) == 3


# ---------------------------------------------------------------- verbs over the roster
def test_matchups_and_tournament_over_three_heroes(three, capsys):
    r = cli(capsys, ["dicethrone", "matchups", "--content", str(three), "--strategy", "greedy", "-n", "6", "--seed", "3",
                 "--json", "--no-store"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["heroes"] == ["ember", "paladin", "pyromancer"] and len(doc["matchups"]) == 9
    assert doc["win_rate"][0][0] is None and doc["win_rate_games"][0][1] > 0
    assert "capped_games" in doc
    # the old name of --content, on a shared verb
    r = cli(capsys, ["dicethrone", "tournament", "--heroes", str(three), "--strategies", "greedy,random", "-n", "2",
                 "--json", "--no-store"])
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.stdout)["matchups"]) == 9 * 4


def test_report_of_a_four_hero_roster(tmp_path, capsys):
    d = fixture_roster(tmp_path / "heroes", copies=(EMBER, CINDER))
    out = tmp_path / "report"
    r = cli(capsys, ["report", "dicethrone", "--content", str(d), "--strategies", "random,greedy", "-n", "4",
                 "--out", str(out), "--no-store"])
    assert r.exit_code == 0, r.output
    html = (out / "report.html").read_text()
    for text in ("The roster at random: 4 heroes", "Tier list at greedy", "first-player edge",
                 "Does the order of heroes hold", "Kendall", "Cinder Witch", "card-value --hero A --vs B"):
        assert text in html, text
    # 16 ordered pairs at each level, each strategy against itself only
    assert json.loads((out / "run.json").read_text())["games"] == 4 * 16 * 2
    # one heatmap per level; the shared report's heatmap, which repeated them, is left out
    assert (out / "heatmap_random.png").exists() and (out / "heatmap_greedy.png").exists()
    assert not (out / "matchup_heatmap.png").exists()
    assert "heatmap and tier list are in their own section above" in html
    # the mode section: the four heroes' 3 compositions in 2v2 and their one free-for-all table,
    # 1 game a seating (the report's 4 games a pair / 125, at least 1)
    assert "Team games and free-for-all" in html and "(3), each in its 8 seatings (1 a seating)" in html
    assert "every table of four (1), each rotation (1 a rotation)" in html and (out / "modes.png").exists()
    # the levels' heatmaps and tier lists come before the shared tables of every pair
    assert html.index("Tier list at greedy") < html.index("Does the order of heroes hold") \
        < html.index("<h2>Matchups</h2>")


def test_odds_numbers_and_card_values_of_a_fixture_hero(three, capsys):
    r = cli(capsys, ["dicethrone", "odds", "--content", str(three), "--hero", "ember", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["hero"] == "Ember Mage" and len(doc["abilities"]) > 5
    r = cli(capsys, ["dicethrone", "numbers", "--heroes", str(three), "--match", "hero.ember.fireball.1", "--json"])
    assert r.exit_code == 0, r.output
    assert {e["name"]: e["value"] for e in json.loads(r.stdout)}["hero.ember.fireball.1.damage"] == 5
    r = cli(capsys, ["dicethrone", "card-value", "--content", str(three), "--hero", "ember", "--vs", "paladin",
                 "--card", "next_time", "-n", "6", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["cards"]
    assert [(x["hero"], x["vs"], x["card"]) for x in rows] == [("ember", "paladin", "next_time")]
    r = cli(capsys, ["dicethrone", "card-value", "--content", str(three), "--hero", "ember", "-n", "2"])
    assert r.exit_code != 0 and "--vs" in r.output


def test_edits_and_fix_space_cover_the_roster(three):
    from analysis.fix import EditableSpace, plan_for
    from simcore.game import get_game

    api = get_game("dicethrone")
    rules = api.load_rules()
    heroes = api.load_content(rules, three)
    keys = {e.key: e for e in api.editable_numbers(rules, heroes)}
    assert keys["hero.ember.fireball.1.damage"].value == 5 and keys["card.ember_fireball_2.cost"].file == \
        "heroes/ember.toml"
    _, new = api.apply_edits(rules, heroes, {"hero.ember.fireball.1.damage": 7})
    assert [h.key for h in new] == ["ember", "paladin", "pyromancer"]
    assert new[0].abilities[0].tiers[0].effects[1].n == 7 and heroes[0].abilities[0].tiers[0].effects[1].n == 5
    # the balance search's band covers every pair of the roster (each in both seat orders)
    sp = EditableSpace.of("dicethrone", rules, heroes, 2)
    plan = plan_for(sp, ["greedy"])
    assert sorted({tuple(sorted(lu)) for lu, _ in plan}) == [(0, 1), (0, 2), (1, 2)] and len(plan) == 6


def test_a_playground_subset_plays_the_heroes_it_names(three):
    """make_setup given some of the roster's heroes: the lineup's indices are into that list."""
    from strategies.dicethrone.bind import API

    rules = API.load_rules()
    heroes = API.load_content(rules, three)
    setup = API.make_setup(rules, [heroes[2], heroes[0]], 2)     # pyromancer, ember
    rec = API.play(0, 2, 1, setup, (0, 1), ("greedy", "greedy"))
    assert rec["hero0"].tolist() == [2, 2] and rec["hero1"].tolist() == [0, 0]


def test_hero_copy_fixture_renames_ids():
    text = hero_copy("pyromancer", "ember", "Ember Mage")
    assert 'id = "ember_fire_mastery"' in text and '"fire_mastery"' not in text
    assert 'id = "ember_fireball_2"' in text and 'id = "fireball"' in text    # cards renamed, abilities not
    assert 'name = "Ember Mage"' in text and "Pyromancer" not in text.split("[[tokens]]")[0].split("name = ")[1][:20]


def test_order_verdict_by_hand():
    """Kendall's tau and the pairs ordered beyond noise at both levels, from two tier tables:
    A > B > C at greedy, reversed at search (tau -1, every ordered pair flips); the same
    order (tau 1, no flip); an order within noise at the second level (no pair to compare)."""
    import pandas as pd

    from analysis.roster import order_verdict, verdict_text

    def table(rates, hw):
        return pd.DataFrame({"hero": ["A", "B", "C"], "win_rate": rates,
                             "ci_low": [r - hw for r in rates], "ci_high": [r + hw for r in rates]})

    g = table([0.60, 0.50, 0.40], 0.02)
    s = table([0.40, 0.50, 0.60], 0.02)
    v = order_verdict(g, s, reps=200)
    assert v["tau"] == pytest.approx(-1.0) and v["heroes"] == 3 and v["pairs"] == 3
    assert v["ordered_both"] == 3 and v["agree"] == 0 and ("A", "C") in v["flips"]
    assert v["tau_ci"][1] < 0
    same = order_verdict(g, table([0.62, 0.49, 0.41], 0.02), reps=200)
    assert same["flips"] == [] and same["agree"] == 3 and same["tau"] == pytest.approx(1.0)
    assert "holds" in verdict_text("greedy", "search", same) and "does not hold" in verdict_text("greedy", "search", v)
    noisy = order_verdict(g, table([0.52, 0.50, 0.48], 0.05), reps=200)
    text = verdict_text("greedy", "optimal", noisy)
    assert noisy["ordered_b"] == 0 and noisy["ordered_both"] == 0 and "no hero pair is ordered" in text
    # with no pair ordered beyond noise at both levels there is nothing that holds or flips
    assert "cannot be told from noise" in text and "holds" not in text


def test_the_reports_default_plan_fits_one_point_per_pair():
    """The report's default run: every ordered pair, optimal against itself, enough games per
    seat order that a pair's 95% interval (both seat orders pooled) is at most 1 point."""
    from analysis.stats import wilson
    from strategies.dicethrone.bind import API

    plan = API.report_plan()
    assert plan["strategies"] == ["optimal"] and plan["self_play"]
    n = 2 * plan["games"]
    lo, hi = wilson(n / 2, n)
    assert (hi - lo) / 2 <= 0.01


def test_report_sums_tokens_and_cards_by_id_over_matchups():
    """Token and card ids belong to a matchup (Fire Mastery is token 8 against the Paladin,
    3 in the mirror): the report's sums read each matchup's fields through its content."""
    from analysis.runs import Matchup
    from reports.dicethrone import hero_sums
    from strategies.dicethrone.bind import default_roster, play_range

    r = default_roster()
    PY, PA = r.index("pyromancer"), r.index("paladin")
    pair, mirror = r.content(("pyromancer", "paladin")), r.content(("pyromancer",))
    t_pair, t_mirror = pair.token_ids["fire_mastery"], mirror.token_ids["fire_mastery"]
    assert t_pair != t_mirror
    a = play_range(0, 20, 4, ("pyromancer", "paladin"))
    b = play_range(0, 20, 4, ("pyromancer", "pyromancer"))
    sums = hero_sums([Matchup((PY, PA), ("greedy", "greedy"), a), Matchup((PY, PY), ("greedy", "greedy"), b)], 2,
                     lambda lu: r.content([r.names[i] for i in lu]))
    want = int(a[f"tok{t_pair}_0"].sum() + b[f"tok{t_mirror}_0"].sum() + b[f"tok{t_mirror}_1"].sum())
    assert want > 0 and sums[(PY, "greedy")]["tok:fire_mastery"] == want
    c = pair.cards.index(next(x for x in pair.cards if x.id == "next_time"))
    assert sums[(PA, "greedy")]["card:next_time"] == int(a[f"card{c}_1"].sum())
