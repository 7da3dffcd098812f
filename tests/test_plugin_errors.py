"""A plug-in that fails at run time is an error, never a result (issue 33, item 1): a
plug-in that raises stops the run at once with one line naming it and its exception
(numba's ``cfunc`` used to print "Exception ignored" for every call and play on, and
the run was reported as a result), and an answer out of range (a duel keep mask of -7)
is an illegal answer like any other. Every game's plug-in path: the kernel's plug-in
entry and the reference engine."""
import numpy as np
import pytest

from cli_runner import run_cli
from simcore.errors import PlaytestError
from simcore.game import game_names, game_type, get_game

MOVE_LIST = [g for g in game_names() if g != "duel"]
RAISING = "plugin_raising:decide"


def setup_of(name):
    api = get_game(name)
    gt = game_type(name)
    seats = max(2, gt.default_seats)
    rules = api.load_rules()
    setup = api.make_setup(rules, api.load_content(rules), seats)
    lineup = (0, 1) if gt.entrants == "heroes" else tuple(range(seats))
    return api, setup, lineup, seats


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("name", MOVE_LIST)
def test_a_plugin_that_raises_is_one_error_naming_it_in_every_game(name, engine, capfd):
    api, setup, lineup, seats = setup_of(name)
    specs = (RAISING,) + ("random",) * (seats - 1)
    with pytest.raises(PlaytestError) as e:
        api.play(0, 30, 5, setup, lineup, specs, engine)
    msg = str(e.value)
    assert RAISING in msg and "ValueError" in msg and "no idea what to play" in msg, msg
    assert "\n" not in msg
    err = capfd.readouterr().err
    assert "Exception ignored" not in err, err[:500]


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("spec, words", [("plugin_raising:keep", ("ValueError", "no idea what to keep")),
                                         ("plugin_raising:mask", ("keep mask",))])
def test_duel_plugin_that_raises_or_answers_a_bad_mask_is_an_error(spec, words, engine, capfd):
    api, setup, lineup, _ = setup_of("duel")
    with pytest.raises(PlaytestError) as e:
        api.play(0, 30, 5, setup, lineup, (spec, "greedy"), engine)
    msg = str(e.value)
    assert spec in msg and all(w in msg for w in words), msg
    assert "Exception ignored" not in capfd.readouterr().err


def test_duel_cli_stops_at_the_exception_exits_non_zero_and_stores_no_result(tmp_path, capsys):
    store = tmp_path / "store"
    code, out, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "200",
                             "--strategy", "plugin_raising:keep", "--store", str(store))
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "plugin_raising:keep" in lines[0] and "ValueError" in lines[0], err[:2000]
    assert "win rate" not in out
    from analysis.store import Store

    assert all(r["status"] != "complete" for r in Store(store).catalogue())


def test_duel_keep_mask_out_of_range_stops_the_game_in_both_engines():
    """The kernel and the reference engine stop the same game at the same answer (the
    twins stay equal on the illegal path)."""
    from strategies.duel.bind import play_range, seat_pair, strategy_datas

    api, setup, lineup, _ = setup_of("duel")
    pair = seat_pair(("greedy", "plugin_raising:mask"))
    data = strategy_datas(setup, pair)
    k = play_range(0, 20, setup, 0, 1, pair, data, 3, "kernel")
    r = play_range(0, 20, setup, 0, 1, pair, data, 3, "reference")
    for f in ("winner", "illegal", "turns", "hp", "cp"):
        np.testing.assert_array_equal(k[f], r[f], err_msg=f)
    # seat 1 is asked to keep in its first turn of every game (a game never ends in one turn)
    assert (k["illegal"] == 1).all()
