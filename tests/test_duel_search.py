"""The duel's ``search`` (shared Monte Carlo machinery, ``strategies/mcsearch.py``): at a
tiny budget it is legal, deterministic for a seed, and the kernel and the reference engine
play it identically in either seat; the shared pick rule keeps the prior's choice unless
another candidate beats it by the margin. The shared ``--param`` sets its budget (checked
before any game) in both engines and in the replay."""
import numpy as np
import pytest
from cli_runner import run_cli

from simcore.duel.model import load_setup
from strategies.duel import builtin_strategies
from simcore.errors import PlaytestError
from simcore.game import get_game
from strategies.duel.bind import play_range, seat_pair, simulate, strategy_datas
from strategies.duel.search import make_data
from strategies.mcsearch import budget_of, pick_nb

SETUP = load_setup()


def tiny(pair, budget=2):
    data = strategy_datas(SETUP, seat_pair(pair))
    data[3][0][0] = budget
    return data


def test_search_is_registered_and_twinned():
    b = builtin_strategies()
    assert b["search"].sid == 3
    for pair in (("search", "optimal"), ("greedy", "search")):
        data = tiny(pair)
        for a, h in ((0, 1), (2, 3)):
            k = simulate(SETUP, a, h, pair, 6, 21, data=data)
            k2 = simulate(SETUP, a, h, pair, 6, 21, data=data)
            r = simulate(SETUP, a, h, pair, 6, 21, data=data, engine="reference")
            for f in k:
                np.testing.assert_array_equal(k[f], r[f], err_msg=f"{pair} {a}v{h} {f}")
                np.testing.assert_array_equal(k[f], k2[f], err_msg=f"{pair} {a}v{h} {f}")
            assert (k["illegal"] < 0).all() and (k["turns"] > 1).all()


def test_shared_pick_rule_and_budget():
    vals = np.array([0.50, 0.52, 0.60, 0.60])
    assert pick_nb(vals, 4, 1, 0.05) == 2          # beats the default by more than the margin; ties: lowest
    assert pick_nb(vals, 4, 1, 0.10) == 1          # within the margin: the default stands
    assert pick_nb(vals, 2, 0, 0.05) == 0
    assert budget_of(np.array([0.0]), 0, 7) == 7 and budget_of(np.array([12.0]), 0, 7) == 12


def test_param_sets_the_search_budget_in_both_engines():
    api = get_game("duel")
    setup = api.make_setup(SETUP.rules, SETUP.heroes, 2, "2")
    assert setup.search_budget == 2 and make_data(setup)[0][0] == 2   # the replay's data too
    assert api.make_setup(SETUP.rules, SETUP.heroes, 2, None).search_budget is None
    pair = ("search", "optimal")
    want = play_range(0, 4, SETUP, 0, 1, pair, tiny(pair, 2), 21)
    for engine in ("kernel", "reference"):
        got = api.play(0, 4, 21, setup, (0, 1), pair, engine=engine)
        for f in ("winner", "turns", "hp", "abilities"):
            np.testing.assert_array_equal(got[f], want[f], err_msg=f"{engine} {f}")
    # the budget is really used: budget 1 plays other games on these seeds
    other = play_range(0, 4, SETUP, 0, 1, pair, tiny(pair, 1), 21)
    assert any(not np.array_equal(other[f], want[f]) for f in ("winner", "turns", "hp", "abilities"))


@pytest.mark.parametrize("value,needle", [("banana", "'banana'"), ("0", "got 0"), ("2.5", "got 2.5"),
                                          ("1e9", "got 1e+09"), ("4,2", "one number")])
def test_bad_param_is_one_line_before_any_game(capsys, tmp_path, value, needle):
    with pytest.raises(PlaytestError) as e:
        get_game("duel").make_setup(SETUP.rules, SETUP.heroes, 2, value)
    assert e.value.field == "--param" and needle in str(e.value)
    out = tmp_path / "t"
    code, stdout, err = run_cli(capsys, "duel", "run", "--hero", "fire", "--vs", "light", "--strategy", "search",
                                "-n", "2", f"--param={value}", "--out", str(out), "--no-store")
    lines = err.strip().splitlines()
    assert code == 2 and stdout == "" and len(lines) == 1 and lines[0].startswith("playtest: error: --param: ")
    assert not out.exists()


def test_every_duel_verb_takes_the_budget(capsys, tmp_path):
    """The duel's own verbs (play, matchups, replay, tune, report) check ``--param``
    before any game; a replay at budget 1 plays one game."""
    for argv in (("duel", "play", "--hero", "fire", "--vs", "light", "-n", "2"), ("duel", "matchups", "-n", "2"),
                 ("duel", "replay", "--hero", "fire", "--vs", "light"),
                 ("duel", "tune", "--option", "start_hp", "--values", "30", "-n", "2"),
                 ("report", "duel", "--out", str(tmp_path / "r"))):
        code, out, err = run_cli(capsys, *argv, "--strategy", "search", "--param", "0")
        assert code == 2 and out == "" and err.strip().splitlines() == [
            "playtest: error: --param: search budget (rollouts per candidate) must be a whole number 1..100000, got 0"], argv
    assert not (tmp_path / "r").exists()
    code, out, err = run_cli(capsys, "duel", "replay", "--hero", "fire", "--vs", "light", "--strategy", "search",
                             "--param", "1", "--seed", "2")
    assert code == 0 and out.strip().splitlines()[-1].startswith("result:")
