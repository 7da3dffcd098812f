"""The balance metrics, lead statistics and ratings of the game interface, checked on
small made-up traces and records worked out by hand, and on synthetic games with known
strengths."""
import math

import numpy as np
import pytest

from analysis.metrics import metrics, spread
from analysis.ratings import elo, pairwise, ratings
from simcore.leads import lead_stats, lead_stats_nb

# trace rows: score of (seat 0, seat 1[, seat 2]) after each turn
CASES = [
    # leaders 0, 1, tie, 0: changes 0->1->0 = 2; seat 0 leads for good from turn 3 of 4;
    # deficits of the winner 0, 4, 0, 0 -> mean 1
    ([[10, 5], [4, 8], [6, 6], [9, 3]], 0, (2.0, 0.75, 1.0)),
    # the winner leads throughout: no change, decided at 0, no deficit
    ([[3, 1], [5, 2], [7, 0]], 0, (0.0, 0.0, 0.0)),
    # three seats: leaders 1, 1, 2, 2; winner 2 leads for good from turn 2 (t*=2 of 4);
    # deficits of seat 2: 3, 2, 0, 0 -> 5/4
    ([[1, 4, 1], [0, 3, 1], [2, 2, 5], [0, 1, 6]], 2, (1.0, 0.5, 1.25)),
    # leaders 0, tie, 1: one change (the tie is skipped); winner 1 leads only after the
    # last of 3 turns: decided_at 2/3; deficits 2, 0, 0 -> 2/3
    ([[5, 3], [4, 4], [1, 6]], 1, (1.0, 2 / 3, 2 / 3)),
]


@pytest.mark.parametrize("trace,winner,expected", CASES)
def test_lead_stats_by_hand_and_the_compiled_twin(trace, winner, expected):
    assert lead_stats(trace, winner) == pytest.approx(expected)
    arr = np.array(trace, np.float64)
    out = np.zeros(3)
    lead_stats_nb(arr, arr.shape[0], arr.shape[1], winner, out)
    assert tuple(out) == pytest.approx(expected)


def test_no_winner_has_no_lead_statistics():
    assert all(math.isnan(x) for x in lead_stats([[1, 2]], -1))
    out = np.zeros(3)
    lead_stats_nb(np.array([[1.0, 2.0]]), 1, 2, -1, out)
    assert np.isnan(out).all()


def test_metrics_on_hand_made_records():
    rec = {"winner": np.array([0, 1, -1, 0, -1]), "capped": np.array([False, False, True, False, False]),
           "first": np.array([0, 0, 1, 1, 1]), "turns": np.array([10, 20, 30, 40, 50]),
           "leads": np.array([[1, 0.5, 2], [3, 0.25, 0], [np.nan] * 3, [0, 0, 0], [np.nan] * 3])}
    m = metrics(rec, [0.6, 0.4], [100, 100])
    # games not capped: 0, 1, 3, 4; the first mover (0, 0, 1, 1) wins game 0, draws game 4: 1.5 / 4
    assert m["advantage_p1"]["x"] == pytest.approx(1.5 / 4) and m["advantage_p1"]["n"] == 4
    assert m["drawishness"]["x"] == pytest.approx(1 / 5)          # game 4 (game 2 was capped)
    assert m["completion"]["x"] == pytest.approx(1 / 5) and m["completion"]["capped_games"] == 1
    assert m["duration"]["x"] == 30 and m["duration"]["median"] == 30
    assert m["lead_change"]["x"] == pytest.approx(4 / 3) and m["lead_change"]["n"] == 3
    assert m["decisiveness"]["x"] == pytest.approx(0.75 / 3)
    assert m["drama"]["x"] == pytest.approx(2 / 3)
    assert m["balance"]["x"] == pytest.approx(0.2)
    lo, hi = m["balance"]["x_ci"]
    assert lo < 0.2 < hi
    for k in ("advantage_p1", "drawishness", "completion"):
        lo, hi = m[k]["x_ci"]
        assert lo <= m[k]["x"] <= hi


def test_balance_interval_is_not_degenerate_at_zero_and_one():
    """0 wins of 40 against 40 of 40: each rate's own 95% Wilson interval is 8.8 points
    wide, so the spread's interval must reach well below 1 (it read [1.0, 1.0] when each
    rate was bootstrapped as a normal with the plug-in error r(1 - r)/n)."""
    b = spread([0.0, 1.0], [40, 40])
    assert b["x"] == 1.0
    lo, hi = b["x_ci"]
    assert lo < 0.95 and hi == 1.0
    mid = spread([0.5, 0.5], [10_000, 10_000])      # mid range: about the normal's width
    assert 0.0 <= mid["x_ci"][0] and 0.01 < mid["x_ci"][1] < 0.04


def test_cooperative_games_say_what_is_not_defined():
    rec = {"winner": np.array([0, -1]), "capped": np.array([False, False]), "first": np.zeros(2),
           "turns": np.array([5, 6])}
    m = metrics(rec, cooperative=True)
    assert m["advantage_p1"]["x"] is None and "cooperative" in m["advantage_p1"]["note"]
    assert m["drama"]["x"] is None


def test_bradley_terry_recovers_known_strengths():
    """Strengths 1, 2, 4, 8: the true Elo-scale ratings lie inside the bootstrap intervals."""
    p = np.array([1.0, 2.0, 4.0, 8.0])
    rng = np.random.default_rng(3)
    k = len(p)
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            n = 3000
            w = rng.binomial(n, p[i] / (p[i] + p[j]))
            wins[i, j], wins[j, i] = w, n - w
            games[i, j] = games[j, i] = n
    names = ["a", "b", "c", "d"]
    table = ratings(names, wins, games, reps=200)
    assert [r["entrant"] for r in table] == ["d", "c", "b", "a"]
    true = dict(zip(names, elo(p)))
    for r in table:
        lo, hi = r["rating_ci"]
        assert lo <= true[r["entrant"]] <= hi, (r, true[r["entrant"]])


def test_pairwise_counts_draws_half_and_skips_capped_and_third_seat_wins():
    winner = np.array([0, 1, -1, 2, 0])
    capped = np.array([False, False, False, False, True])
    wins, games = pairwise([0, 1, 2], winner, capped, 3)
    # entrants 0 and 1: game 0 (0 wins), game 1 (1 wins), game 2 (draw), game 3 (seat 2 won: not counted)
    assert wins[0, 1] == 1.5 and wins[1, 0] == 1.5 and games[0, 1] == 3
    assert wins[2, 0] == 1.5 and wins[0, 2] == 1.5 and games[0, 2] == 3
