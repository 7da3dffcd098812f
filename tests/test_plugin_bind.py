"""The plug-in dispatcher of move-list games (``strategies.bind.plugin_decider``): the
plug-in answers for its seats, each other seat's built-in for that seat, and two games
whose built-ins share an id never share a dispatcher."""
import numba as nb
import numpy as np

from strategies.bind import PLUGIN_SID, decide_types, plugin_decider


@nb.njit
def builtin_a(phase, obs, moves, n_moves, rules, data, rng):
    return 1


@nb.njit
def builtin_b(phase, obs, moves, n_moves, rules, data, rng):
    return 2


@nb.njit
def ask(decide, sid, n):
    z = np.zeros(4, np.int64)
    return decide(sid, 1, z, z, n, z, np.zeros(3), np.zeros(2, np.uint64))


def test_each_seat_gets_its_own_strategy_and_games_never_share_a_dispatcher():
    args = decide_types(np.zeros(4, np.int64), np.float64)
    sids = np.array([PLUGIN_SID, 1], np.int64)
    da = plugin_decider("plugin_any_move:decide", sids, {1: builtin_a}, args)
    db = plugin_decider("plugin_any_move:decide", sids, {1: builtin_b}, args)
    assert (ask(da, 1, 5), ask(db, 1, 5)) == (1, 2)       # the same id, each game's own built-in
    # the plug-in's seat: (phase * 7 + n_moves * 3 + obs[0] + data[0]) % n_moves = 19 % 4
    assert ask(da, PLUGIN_SID, 4) == 3 and ask(db, PLUGIN_SID, 4) == 3


def test_a_raising_plugin_answers_out_of_range_and_its_exception_is_one_error():
    """numba's cfunc printed "Exception ignored" and returned 0 (a legal move): the guard
    answers RAISED (outside every legal range) and ``plugin_errors`` raises one line naming
    the plug-in and its exception; the previous unraisable hook is back afterwards."""
    import sys

    import pytest

    from simcore.errors import PlaytestError
    from strategies.bind import RAISED, plugin_errors

    args = decide_types(np.zeros(4, np.int64), np.float64)
    sids = np.array([PLUGIN_SID, 1], np.int64)
    d = plugin_decider("plugin_raising:decide", sids, {1: builtin_a}, args)
    before = sys.unraisablehook
    with pytest.raises(PlaytestError) as e:
        with plugin_errors("plugin_raising:decide"):
            assert ask(d, PLUGIN_SID, 1) == 0            # one move: it answers
            assert ask(d, PLUGIN_SID, 3) == RAISED       # it raised: out of range, not move 0
            assert ask(d, 1, 3) == 1                     # the built-in's seat is untouched
    assert str(e.value) == ("--strategy: plug-in 'plugin_raising:decide' raised ValueError: no idea what to play; "
                            "the run is stopped and nothing is kept as a result")
    assert sys.unraisablehook is before
