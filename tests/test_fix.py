"""The balance search (``playtest GAME fix``): known answers on made-up games, a target no
allowed edit can meet, the proof's interval width, patched files and diffs, and one-line
errors for bad input before any game."""
import json

import numpy as np

import pytest

from analysis import fix as F
from analysis.stats import wilson
from scripts.cli import main
from scripts.fix_cli import run_fix
from simcore.duel.model import HEROES_DIR, load_hero, load_heroes


def run_cli(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
        raise SystemExit(0)
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


@pytest.fixture(scope="module")
def twin_heroes(tmp_path_factory):
    """Two identical heroes, except that b's commonest attack (Sword Strike tier 1) does
    twice the damage: 8 instead of 4."""
    d = tmp_path_factory.mktemp("twins")
    src = (HEROES_DIR / "mountain_warrior.toml").read_text()
    (d / "a.toml").write_text(src)
    strong = src.replace('{ target = "3*sword", damage = 4 }', '{ target = "3*sword", damage = 8 }')
    assert strong != src
    (d / "b.toml").write_text(strong.replace('name = "Mountain Warrior"', 'name = "Strong Warrior"'))
    return d


# ---------------------------------------------------------------- known answers
def test_duel_search_finds_and_undoes_the_doubled_number(twin_heroes, tmp_path, capsys):
    out = tmp_path / "fix"
    code, stdout, err = run_cli(capsys, "duel", "fix", "--heroes", str(twin_heroes), "-s", "greedy",
                                "--vary", "b.Sword Strike.tier1.damage=2..10", "--band", "49,51",
                                "--budget", "100000", "--out", str(out), "--json")
    assert code == 0, err
    d = json.loads(stdout)
    assert d["edits"] == [{"name": "b.Sword Strike.tier1.damage", "from": 8, "to": 4, "cost": 0.5}]
    assert d["meets_band"] is True and d["cost"] == 0.5
    # the search aimed half a point (the proof's half-width) inside the band
    assert d["search"]["margin_points"] == 0.5 and d["search"]["target"]["band"] == pytest.approx([49.5, 50.5])
    # the proof: a fresh seed, every interval inside the band with half-width <= 0.5 points
    p = d["proof"]
    assert p["seed"] != d["search"]["seed"] and p["half_width_max_points"] <= 0.5
    for r in p["rows"]:
        lo, hi = r["win_rate_ci"]
        assert 0.49 <= lo <= r["win_rate"] <= hi <= 0.51 and (hi - lo) / 2 <= 0.005
    # the shared schema underneath
    for k in ("game", "seed", "games", "matchups", "entrants", "metrics", "ratings", "version"):
        assert k in d
    # every candidate kept, the patched hero plays, the diff shows the one edit
    import pandas as pd

    cands = pd.read_csv(out / "fix_candidates.csv")
    assert len(cands) == d["search"]["candidates"] and cands.phase.iloc[0] == "baseline"
    assert cands["b.Sword Strike.tier1.damage"].iloc[0] == 8
    heroes = load_heroes(out / "patched" / "heroes")
    b = next(h for h in heroes if h.key == "b")
    assert b.abilities[0].tiers[0].effects["damage"] == 4
    assert "-  { target = \"3*sword\", damage = 8 }," in d["diff"]
    assert "+  { target = \"3*sword\", damage = 4 }," in d["diff"]
    assert "Proposed fix" in (out / "report.html").read_text()


def test_duel_target_no_edit_can_meet_is_reported(twin_heroes, capsys):
    # a harder stun cannot make up for doubled damage
    code, stdout, err = run_cli(capsys, "duel", "fix", "--heroes", str(twin_heroes), "-s", "greedy",
                                "--vary", "a.Stunning Blow.damage=4..6", "--band", "49,51", "--budget", "30000")
    assert code == 0, err
    assert "DOES NOT MEET THE TARGET" in stdout
    assert "points outside" in stdout


def test_duel_unmet_target_json(twin_heroes, capsys):
    code, stdout, err = run_cli(capsys, "duel", "fix", "--heroes", str(twin_heroes), "-s", "greedy",
                                "--vary", "a.Stunning Blow.damage=4..6", "--band", "49,51", "--budget", "30000",
                                "--json")
    d = json.loads(stdout)
    assert d["meets_band"] is False
    assert d["miss"]["intervals_points"] > 1.0  # doubled damage: far outside, not hidden
    assert d["search"]["stopped_by"].startswith("every combination")


def test_focus_screening_ranks_the_doubled_number_first(twin_heroes):
    d = run_fix("duel", "49,51", None, "greedy", ["auto=b"], budget="150000", heroes=str(twin_heroes), focus=3,
                screen_games=500, stages=1)  # one search: its screening is what is checked
    s = d["search"]
    assert len(s["params"]) > 3 and 1 <= len(s["focus"]) <= 3  # only numbers that help alone
    assert s["focus"][0] == "b.Sword Strike.tier1.damage"  # alone, it moves the matchup most
    assert s["sensitivity_candidates"] == 2 * len(s["params"]) - sum(p["lo"] == p["from"] for p in s["params"])
    assert {e["name"] for e in d["edits"]} <= set(s["focus"])  # the sampler edits only the focus


@pytest.fixture
def coin_game(monkeypatch):
    import fake_role_game
    import simcore.game as sg

    monkeypatch.setitem(sg._TYPES, "coinroles", fake_role_game.GAME)
    monkeypatch.setitem(sg._APIS, "coinroles", fake_role_game.API)
    return fake_role_game


def test_role_game_rule_fix_known_answer(coin_game, tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text("# the attacker's strength\nattack = 10\ndefence = 20  # the defender's\n")
    # attack 20 (of 10, 20, 30, 40) is the one value inside 45-55%: 50% exactly
    d = run_fix("coinroles", "45,55", None, "plain", ["rules.attack=10..40:10"], budget="400000",
                rules=str(rules), out=tmp_path / "out")
    assert d["edits"] == [{"name": "rules.attack", "from": 10, "to": 20, "cost": 1.0}]
    assert d["meets_band"] is True
    assert [r["matchup"] for r in d["proof"]["rows"]] == ["attacker", "defender"]
    assert "-attack = 10\n" in d["diff"] and "+attack = 20\n" in d["diff"]
    patched = (tmp_path / "out" / "patched" / "rules.toml").read_text()
    assert patched.startswith("# the attacker's strength\nattack = 20\n")


def test_role_game_unreachable_band(coin_game, tmp_path):
    d = run_fix("coinroles", "49,51", None, "plain", ["rules.attack=11..14"], budget="200000")
    # 14 / (14 + 20) = 41.2%: the closest allowed value is proposed, and its miss is said
    assert d["meets_band"] is False and d["miss"]["intervals_points"] > 5
    assert d["edits"][0]["to"] == 14


def test_a_proof_that_misses_starts_a_second_stage_from_the_proposal(coin_game, tmp_path):
    """attack 9 against defence 11 wins exactly 45.0%: on the band's edge. Aimed with no
    margin, stage 1 (seed 4) proposes 9 and its proof's interval straddles 45 (misses);
    stage 2 starts from 9 on fresh common seeds, aims 0.5 points inside, moves to 10
    (47.6%) and its own fresh proof meets the band. Every stage is reported, the result
    is the last stage's, costs count from the shipped value, and no seed is used twice."""
    from analysis.store import Store

    rules = tmp_path / "rules.toml"
    rules.write_text("attack = 5\ndefence = 11\n")
    d = run_fix("coinroles", "45,55", None, "plain", ["rules.attack=5..15"], budget="100000", rules=str(rules),
                seed=4, margin=0, out=tmp_path / "out", store=str(tmp_path / "store"))
    s1, s2 = d["stages"]
    assert [e["to"] for e in s1["edits"]] == [9] and s1["proof"]["meets_band"] is False
    assert s1["proof"]["miss_intervals_points"] > 0 and s1["margin_points"] == 0
    assert s2["start"] == "the previous stage's proposal" and s2["margin_points"] == 0.5
    assert [e["to"] for e in s2["edits"]] == [10] and s2["proof"]["meets_band"] is True
    assert d["meets_band"] is True and d["edits"] == [{"name": "rules.attack", "from": 5, "to": 10, "cost": 1.0}]
    seeds = [s1["search"]["seed"], s1["proof"]["seed"], s2["search"]["seed"], s2["proof"]["seed"]]
    assert len(set(seeds)) == 4 and d["proof"]["seed"] == s2["proof"]["seed"]
    assert d["games_total"] == sum(st["search"]["games"] + st["proof"]["games"] for st in d["stages"])
    # stage 2 started from stage 1's proposal, and the stored candidates are numbered on
    cands = Store(tmp_path / "store").open(d["fix_run_id"]).candidates()
    assert [c["id"] for c in cands] == list(range(len(cands)))
    starts = [c for c in cands if c["phase"] == "start"]
    assert len(starts) == 1 and starts[0]["stage"] == 2 and starts[0]["values"] == {"rules.attack": 9}
    table = __import__("pandas").read_csv(tmp_path / "out" / "fix_candidates.csv")
    assert sorted(set(table.stage)) == [1, 2] and table.id.is_unique
    # one stage only: the miss is the answer
    one = run_fix("coinroles", "45,55", None, "plain", ["rules.attack=5..15"], budget="100000", rules=str(rules),
                  seed=4, margin=0, stages=1, no_store=True)
    assert len(one["stages"]) == 1 and one["meets_band"] is False and one["edits"][0]["to"] == 9


def test_stage_seeds_are_fresh():
    plan = F.stage_seeds(7, F.derive_proof_seed(7), 5)
    flat = [x for pair in plan for x in pair]
    assert plan[0] == (7, F.derive_proof_seed(7)) and len(set(flat)) == 10


def test_spread_target_on_roles(coin_game):
    d = run_fix("coinroles", None, 4, "plain", ["rules.defence=5..40:5"], budget="200000")
    # spread = |attack - defence| / (attack + defence) <= 4 points: defence 10 (exact tie)
    assert d["edits"] == [{"name": "rules.defence", "from": 20, "to": 10, "cost": 0.5}]
    assert d["meets_band"] is True


# ---------------------------------------------------------------- pieces
def test_proof_games_bound_the_half_width():
    for w in (0.005, 0.01, 0.02):
        n = F.proof_games(w)
        for p in (0.5, 0.3, 0.01):
            lo, hi = wilson(p * n, n)
            assert (hi - lo) / 2 <= w + 1e-12
        lo, hi = wilson(0.5 * (n - 10), n - 10)
        assert (hi - lo) / 2 > w  # and not many more than needed


def test_parsers():
    assert F.parse_vary("light.Holy Attack.damage = 5..14") == ("light.Holy Attack.damage", 5, 14, 1, 1.0)
    assert F.parse_vary("rules.start_hp=25..40:5@2") == ("rules.start_hp", 25, 40, 5, 2.0)
    assert F.parse_vary("auto=light, fire") == ("auto", ["light", "fire"])
    assert F.parse_band("45,55") == (0.45, 0.55)
    assert F.parse_budget("300s") == ("seconds", 300.0) and F.parse_budget("5m") == ("seconds", 300.0)
    assert F.parse_budget("2e6") == ("games", 2e6)
    p = F.Param("x", 4, 2, 10, 3)
    assert p.grid == [2, 4, 5, 8, 10]
    assert p.cost(8) == 1.0 and p.cost(8, "units") == 4
    assert F.auto_range(1) == (0, 2) and F.auto_range(7) == (4, 10) and F.auto_range(14) == (7, 21)
    assert F.auto_range(-1) == (-2, 0) and F.auto_range(-4) == (-6, -2)   # a CP loss stays a loss


def test_auto_names_every_number_of_the_named_heroes():
    sp = F.space_for("duel")
    names = [n for n, _ in sp.auto_params(["light"])]
    assert "light_guardian.Holy Attack.damage" in names
    assert "light_guardian.Justice Strike.tier3.heal" in names
    assert "light_guardian.defence.helmet.shield" in names
    assert all(n.startswith("light_guardian.") for n in names)
    params = F.build_params(sp, ["auto=light"])
    hp = next(p for p in params if p.name == "light_guardian.Holy Attack.damage")
    assert (hp.base, hp.lo, hp.hi) == (7, 4, 10)


def test_patched_hero_file_keeps_its_layout(tmp_path):
    sp = F.space_for("duel")
    files = sp.patched_files({"fire_kindler.Flame.tier2.damage": 4, "fire_kindler.defence.spark.shield": 2,
                              "rules.start_hp": 35})
    by = {rel: (old, new) for rel, old, new in files}
    old, new = by["heroes/fire_kindler.toml"]
    changed = [ln for ln in new.splitlines() if ln not in old.splitlines()]
    assert changed == ['  { target = "4*fire", damage = 4, wounds = 1 },',
                       'symbols = { spark = { shield = 2 }, fire = { strike = 1 } }']
    p = tmp_path / "fire_kindler.toml"
    p.write_text(new)
    h = load_hero(p)
    assert h.abilities[0].tiers[1].effects["damage"] == 4 and h.defence["spark"]["shield"] == 2
    assert "start_hp = 35" in by["rules.toml"][1]


# ---------------------------------------------------------------- bad input
BAD = [
    (["--vary", "nobody.Flame.damage=1..3"], "unknown hero"),
    (["--vary", "fire.Fireball.damage=1..3"], "no ability"),
    (["--vary", "fire.Sparks.power=1..3"], "unknown effect"),
    (["--vary", "fire.Flame.damage=1..3"], "name one"),
    (["--vary", "mountain.Stunning Blow.daze=0..1"], "true/false"),
    (["--vary", "fire.Sparks.damage=5-9"], "malformed"),
    (["--vary", "fire.Sparks.damage=9..5"], "empty range"),
    (["--vary", "fire.Sparks.damage=1..5:0"], "step"),
    (["--vary", "rules.start_hpp=20..30"], "unknown rule option"),
    (["--vary", "rules.start_hp=0..30"], "not a valid value"),
    (["--vary", "fire.Sparks.damage=1..5", "--band", "45,155"], "--band"),
    (["--vary", "fire.Sparks.damage=1..5", "--band", "55,45"], "--band"),
    (["--vary", "fire.Sparks.damage=1..5", "--budget", "-5"], "--budget"),
    (["--vary", "fire.Sparks.damage=1..5", "--budget", "-10s"], "--budget"),
    (["--vary", "fire.Sparks.damage=1..5", "--band", "45,55", "--spread", "5"], "not both"),
    (["--vary", "fire.Sparks.damage=1..5", "--spread", "0"], "--spread"),
    (["--vary", "fire.Sparks.damage=1..5", "-s", "optimal,nope"], "--strategy"),
    (["--vary", "fire.Sparks.damage=5..5"], "nothing to vary"),
    (["--vary", "fire.Sparks.damage=1..5", "--band", "49,51", "--margin", "1"], "too narrow"),
    (["--vary", "fire.Sparks.damage=1..5", "--margin", "-1"], "--margin"),
    (["--vary", "fire.Sparks.damage=1..5", "--stages", "0"], "--stages"),
    (["--vary", "fire.Sparks.damage=1..5", "--stages", "6"], "--stages"),
]


def test_the_search_aims_inside_the_band_by_the_margin():
    """The search's target is the band narrowed by the margin on each side (the spread by
    twice it), so that a candidate at the band's edge is not taken for a fix the proof's
    fresh intervals would reject; no margin leaves the target as it is."""
    t = F.Target(band=(0.45, 0.55))
    assert t.shrunk(0.005).band == pytest.approx((0.455, 0.545))
    assert t.shrunk(0) is t
    assert F.Target(spread=0.04).shrunk(0.005).spread == pytest.approx(0.03)
    with pytest.raises(F.PlaytestError, match="too narrow"):
        t.shrunk(0.05)


@pytest.mark.parametrize("args,needle", BAD, ids=[b[1] + str(i) for i, b in enumerate(BAD)])
def test_bad_input_is_one_line_before_any_game(args, needle, capsys, monkeypatch):
    import analysis.runs

    def no_games(*a, **k):
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(analysis.runs, "run", no_games)
    code, out, err = run_cli(capsys, "duel", "fix", *args)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("playtest: error: "), err
    assert needle in lines[0], lines[0]


def test_balanced_under_two_strategies_at_once(twin_heroes, capsys):
    code, stdout, err = run_cli(capsys, "duel", "fix", "--heroes", str(twin_heroes), "-s", "greedy,random",
                                "--vary", "b.Sword Strike.tier1.damage=2..10", "--band", "47,53",
                                "--budget", "80000", "--json")
    assert code == 0, err
    d = json.loads(stdout)
    assert d["strategies"] == ["greedy", "random"]
    assert sorted(r["strategy"] for r in d["proof"]["rows"]) == ["greedy", "random"]
    assert d["edits"][0]["to"] == 4 and d["meets_band"] is True


# ---------------------------------------------------------------- the results store
def test_every_candidate_is_kept_in_the_store(coin_game, tmp_path, capsys):
    from analysis.store import Store

    store = tmp_path / "store"
    d = run_fix("coinroles", "45,55", None, "plain", ["rules.attack=10..40:10"], budget="400000",
                store=str(store), command="playtest coinroles fix --vary rules.attack=10..40:10")
    fix_id, proof_id = d["fix_run_id"], d["proof_run_id"]
    assert fix_id and proof_id and fix_id != proof_id
    st = Store(store)
    rows = {r["run_id"]: r for r in st.catalogue()}
    assert rows[fix_id]["status"] == "complete" and rows[proof_id]["status"] == "complete"
    assert rows[fix_id]["games_played"] == d["search"]["games"] + d["proof"]["games"]
    cands = st.open(fix_id).candidates()
    # every candidate the search evaluated, in order, with its values and its rates' intervals
    assert [c["id"] for c in cands] == list(range(d["search"]["candidates"]))
    assert cands[0]["phase"] == "baseline" and cands[0]["values"] == {"rules.attack": 10}
    for c in cands:
        assert [r["matchup"] for r in c["rates"]] == ["attacker", "defender"]
        for r in c["rates"]:
            lo, hi = r["win_rate_ci"]
            assert lo <= r["win_rate"] <= hi and r["games"] > 0
    # attack 10 against 20: the attacker wins a third; the best candidate is attack 20
    a = cands[0]["rates"][0]
    assert a["win_rate_ci"][0] < 1 / 3 < a["win_rate_ci"][1]
    best = cands[d["search"]["best_candidate"]]
    assert best["values"] == {"rules.attack": 20} and best["feasible"]
    # playtest runs show FIX_RUN: the summary, the candidates and the proof's tables
    code, out, err = run_cli(capsys, "runs", "show", fix_id, "--store", str(store))
    assert code == 0, err
    assert f"fix run {fix_id} (complete)" in out and "rules.attack: 10 -> 20" in out
    assert "baseline" in out and "rules.attack=20" in out and f"proof run {proof_id}" in out
    assert "attacker 33." in out  # the baseline's rate with its interval
    code, out, err = run_cli(capsys, "runs", "show", fix_id, "--store", str(store), "--json")
    j = json.loads(out)
    assert j["kind"] == "fix" and len(j["candidates"]) == len(cands) and j["fix"]["meets_band"] is True
    # runs compare reads a fix run as its proof
    code, out, err = run_cli(capsys, "runs", "compare", fix_id, proof_id, "--store", str(store), "--json")
    assert code == 0, err
    assert json.loads(out)["differences_beyond_noise"] == 0


def test_no_store_keeps_nothing(coin_game, tmp_path):
    store = tmp_path / "store"
    d = run_fix("coinroles", "45,55", None, "plain", ["rules.attack=10..40:10"], budget="100000",
                store=None, no_store=True)
    assert "fix_run_id" not in d and not store.exists()


# ---------------------------------------------------------------- the generic path (every game)
def test_generic_path_finds_and_undoes_the_doubled_number(twin_heroes):
    """The generic edit space (the game's own editable numbers, by the playground's keys)
    on the duel's twins: the known answer again, through GameAPI.apply_edits/export_files."""
    sp = F.space_for("duel", content=str(twin_heroes), generic=True)
    assert type(sp).__name__ == "EditableSpace"
    params = F.build_params(sp, ["hero.b.0.0.damage=2..10"])   # b's Sword Strike tier 1
    assert (params[0].base, params[0].lo, params[0].hi) == (8, 2, 10)
    target = F.Target(band=(0.49, 0.51))
    res = F.search(sp, params, target, ["greedy"], ("games", 100000), seed=1)
    assert res.edits() == [{"name": "hero.b.0.0.damage", "from": 8, "to": 4, "cost": 0.5}]
    proof = F.prove(sp, res.best.values, target, ["greedy"], seed=7, width=0.01)
    assert proof.meets and proof.seed == 7
    files = {rel: (old, new) for rel, old, new in sp.patched_files(res.best.values)}
    assert list(files) == ["heroes/b.toml"]
    old, new = files["heroes/b.toml"]
    assert '{ target = "3*sword", damage = 8 }' in old and '{ target = "3*sword", damage = 4 }' in new


def test_generic_path_names_and_bounds(twin_heroes):
    sp = F.space_for("duel", content=str(twin_heroes), generic=True)
    auto = dict(sp.auto_params(["b"]))
    assert auto["hero.b.0.0.damage"] == 8 and all(k.startswith("hero.b.") for k in auto)
    assert not any(k.startswith("rules.") for k, _ in sp.auto_params([]))
    for bad, needle in (("hero.b.0.0.dmg=1..3", "unknown number"), ("hero.b.1.undefendable=0..1", "not a whole"),
                        ("hero.b.0.0.damage=1..2000", "takes values")):
        with pytest.raises(F.PlaytestError, match=needle):
            F.build_params(sp, [bad])


def dicethrone_pair(folder):
    """A Dice Throne content folder of the Paladin and the Pyromancer only (the shipped cards):
    the fix tests below check the plumbing on one matchup, not the roster's 28."""
    import shutil

    from simcore.dicethrone.model import HEROES_DIR

    folder.mkdir(parents=True, exist_ok=True)
    for h in ("paladin", "pyromancer"):
        shutil.copy(HEROES_DIR / f"{h}.toml", folder / f"{h}.toml")
    return str(folder)


def test_dicethrone_fix_through_the_generic_path(tmp_path):
    """Dice Throne's hero and card numbers reach the engine and the files: a tiny search
    (few games, a wide proof) that only checks the plumbing, not a balance figure."""
    from simcore.dicethrone.model import load_content

    out = tmp_path / "out"
    d = run_fix("dicethrone", "45,55", None, "greedy",
                ["hero.pyromancer.fireball.1.damage=2..8", "card.play_six.cost=0..3"], budget="3000",
                screen_games=100, refine_games=200, proof_width=5, out=out, store=str(tmp_path / "store"),
                stages=1, heroes=dicethrone_pair(tmp_path / "pair"))  # the plumbing, once: stages: the coin game
    assert [r["matchup"] for r in d["proof"]["rows"]] == ["paladin vs pyromancer"]
    assert {p["name"] for p in d["search"]["params"]} == {"hero.pyromancer.fireball.1.damage", "card.play_six.cost"}
    c = load_content(("paladin", "pyromancer"), heroes_dir=out / "patched" / "heroes")   # with its cards.toml
    want = {e["name"]: e["to"] for e in d["edits"]}
    assert c.heroes["pyromancer"].abilities[0].tiers[0].effects[1].n == want.get("hero.pyromancer.fireball.1.damage", 4)
    assert next(x for x in c.cards if x.id == "play_six").cost == want.get("card.play_six.cost", 1)
    from analysis.store import Store

    # every stage's candidates are kept (a proof that misses starts another stage)
    assert len(Store(tmp_path / "store").open(d["fix_run_id"]).candidates()) == \
        sum(st["search"]["candidates"] for st in d["stages"])


def test_dicethrone_auto_names_the_heros_own_numbers():
    sp = F.space_for("dicethrone")
    names = {n for n, _ in sp.auto_params(["paladin"])}
    assert "hero.paladin.passive.reroll_cost" in names
    assert any(n.startswith("card.") for n in names)          # the Paladin's own cards
    assert not any(n.startswith("hero.pyromancer.") for n in names)
    assert "card.play_six.cost" not in names                   # a generic card is nobody's
    assert "card.play_six.cost" in {n for n, _ in sp.auto_params([])}


def test_dicethrone_edits_reach_the_engine():
    from simcore.game import get_game

    api = get_game("dicethrone")
    rules = api.load_rules()
    base = api.load_content(rules)
    keys = {e.key for e in api.editable_numbers(rules, base)}
    assert {"hero.pyromancer.fireball.1.damage", "hero.paladin.passive.reroll_cost", "card.play_six.cost",
            "token.burn.upkeep.damage", "hero.pyromancer.pyroblast.1.roll.fire.damage"} <= keys
    # a Pyromancer whose attacks deal no damage loses far more often, on the same seeds
    zero = {k: 0 for k in keys if k.startswith("hero.pyromancer.") and ".damage" in k}
    assert len(zero) > 10
    _, weak = api.apply_edits(rules, base, zero)
    n = 300
    wins = []
    py = [h.key for h in base].index("pyromancer")    # the Pyromancer's wins, in both seats
    for content in (base, weak):
        setup = api.make_setup(rules, content, 2)
        wins.append(sum(int((api.play(0, n, 3, setup, lu, ("greedy", "greedy"))["winner"] == seat).sum())
                        for lu, seat in (((py, 1 - py), 0), ((1 - py, py), 1))))
    assert wins[1] < wins[0] / 2, wins
    with pytest.raises(F.PlaytestError) as e:
        api.apply_edits(rules, base, {"token.fire_mastery.limit": 0})
    assert e.value.field == "token.fire_mastery.limit"


def test_river_rule_fix_moves_the_attacker_rate():
    """The river battle's rule numbers through the generic path: the heuristic attacker wins
    far too often (82%); a higher dams_to_win is the only way down in this space."""
    d = run_fix("river", "45,55", None, "heuristic", ["rules.dams_to_win=4..7"], budget="4000", screen_games=200,
                refine_games=400, proof_width=4, no_store=True, stages=1)
    assert [r["matchup"] for r in d["proof"]["rows"]] == ["attacker", "defender"]
    assert d["edits"] and d["edits"][0]["name"] == "rules.dams_to_win" and d["edits"][0]["to"] > 4
    base = d["baseline"]["rows"][0]["win_rate"]
    assert d["proof"]["rows"][0]["win_rate"] < base - 0.1
    assert "+dams_to_win = " in d["diff"]


def test_dicethrone_fix_param_sets_the_search_budget(tmp_path):
    """``fix --param``: every variant the fix evaluates plays search at that budget (its
    Pyromancer-Paladin games are ``play_range``'s at budget 2); a bad value stops before
    any game and keeps nothing."""
    from strategies.dicethrone.bind import play_range

    space = F.space_for("dicethrone", content=dicethrone_pair(tmp_path / "pair"))
    space.params = "2"
    ev = F.evaluate(space, {}, ["search"], 3, 5)
    (m,) = [m for m in ev.result.matchups if tuple(m.lineup) == (0, 1)]
    want = play_range(0, 3, 5, ("paladin", "pyromancer"), ("search", "search"), search_budget=2)   # roster 0, 1
    from analysis.aggregate import Aggregate

    a, b = m.aggregate(2), Aggregate.of_records(want, 2)
    np.testing.assert_array_equal(a.outcome, b.outcome)   # winner by seat, capped
    np.testing.assert_array_equal(a.turns, b.turns)       # game lengths
    with pytest.raises(F.PlaytestError) as e:
        run_fix("dicethrone", "45,55", None, "search", ["card.play_six.cost=0..3"], budget="100", param="0",
                store=str(tmp_path / "store"))
    assert e.value.field == "--param" and "got 0" in str(e.value) and not (tmp_path / "store").exists()


def test_auto_ranges_shrink_to_what_the_loader_takes(tmp_path):
    """--vary auto=paladin on a Dice Throne folder: the Paladin's tokens have a limit of 1,
    which -50% would take to 0, which the loader refuses; the auto range starts at 1 instead
    (an explicit --vary of 0 is still a one-line error)."""
    space = F.space_for("dicethrone", None, None, dicethrone_pair(tmp_path / "pair"), None)
    params = F.build_params(space, ["auto=paladin"])
    space.check_values(params)
    limits = [p for p in params if p.name.endswith(".limit")]
    assert limits and all(p.lo >= 1 for p in limits)
    with pytest.raises(F.PlaytestError) as e:
        explicit = F.build_params(space, ["token.knockdown.limit=0..2"])
        space.check_values(explicit)
    assert e.value.field == "--vary" and "token.knockdown.limit=0" in str(e.value)
