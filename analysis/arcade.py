"""Throne Arcade's own questions, answered from exact aggregates (``analysis.aggregate``)
so that they hold at any game count, any chunking and any backend:

- win rate by starting seat (seats numbered from the first round's starter);
- how long games and rounds last (turns, rounds; the median and percentiles of turns from
  the finished games' histogram of turns, ``ArcadeAPI.reduce``), over the finished games
  (a game ended by a cap stops there: its length is the cap's, not the game's), the capped
  count apart;
- elimination order: each seat's finishing place (1 = winner, P = first eliminated), each
  share with its Wilson interval and n (the finished games);
- the catch-up question: the win rate of the loser of round 1 (who is dealt one card
  fewer, deals and starts round 2) against that of the players who did not lose it, and
  of the first player out of round 1;
- how often the skull VII revives.

Per-game facts come from record fields that both engines produce identically
(``simcore/arcade/derived.py`` derives ``DERIVED`` from the standard record fields for
either engine, where the binding makes the records); :class:`analysis.aggregate.Aggregate` sums every integer field, so
each table here is a function of sums (``tests/test_aggregate.py`` checks them against
the same tables computed straight from the concatenated records).

Differences between two rule variants played on the same seeds (``variant_change``)
carry intervals that treat the two runs as independent samples (Newcombe's hybrid score
interval for rates, a normal interval for means): common seeds correlate the two runs
positively, so these intervals are, if anything, too wide.
"""
from __future__ import annotations

import math

import numpy as np

from simcore.arcade.derived import DERIVED, derived_fields  # noqa: F401 (the per-game facts)
from simcore.arcade.model import MAX_PLAYERS
from simcore.errors import PlaytestError

from .aggregate import _mean_ci_exact, hist_median, hist_percentile
from .metrics import _na, rate
from .stats import diff_means, diff_rates


def _c(agg, key):
    return np.asarray(agg.counts[key]).astype(np.int64)


def seat_rates(agg) -> list[dict]:
    """Each seat's win rate over the games not ended by a cap (Wilson intervals)."""
    wins, draws, capped, n = agg.seat_scores()
    return [rate(int(wins[s]), n - capped) for s in range(agg.seats)]


def _done_sum(agg, key: str, whole: str) -> int:
    """The sum of ``key`` over the finished games. With no capped game every game is
    finished, so it is the sum of ``whole`` over every game, which every chunk carries. With
    capped games it is the ``done_`` sum, trusted only when those sums cover every finished
    game (``done_games``): a run saved by an older playtest, or resumed over chunks saved
    before and after them, is refused in one line rather than averaged over part of it."""
    if not agg.capped:
        return int(_c(agg, whole))
    if key in agg.counts and "done_games" in agg.counts and int(_c(agg, "done_games")) == agg.games - agg.capped:
        return int(_c(agg, key))
    raise PlaytestError(f"this stored Throne Arcade run has {agg.capped:,} capped games and no '{key}' sums for "
                        "every chunk (some saved by an older playtest): rerun it without --resume", field="--resume")


def finished_turns(agg) -> np.ndarray:
    """The histogram of the turns of the finished games (``ArcadeAPI.reduce``). A run stored
    before it has only the histogram of every game's turns: the same when no game was
    capped; with capped games, or a resumed run mixing chunks saved before and after it
    (the histogram then covers fewer games than finished), a one-line error."""
    if not agg.capped:
        return np.asarray(agg.turns, np.int64)
    h = agg.hists.get("turns_finished")
    if h is not None and int(np.sum(h)) == agg.games - agg.capped:
        return np.asarray(h, np.int64)
    raise PlaytestError(f"this stored Throne Arcade run has {agg.capped:,} capped games but not the finished "
                        "games' turns apart (chunks saved by an older playtest): rerun it without --resume",
                        field="--resume")


def lengths(agg) -> dict:
    """Over the finished games (``finished``: games - capped; a capped game stops at the
    cap, so its length is the cap's): turns per game (mean, t interval, and the median and
    5th/95th percentiles: ``median``, ``p5``, ``p95``) and rounds per game (mean, t
    interval), turns per round (all their turns over all their rounds) and turns of the
    last round."""
    n = agg.games
    done = n - agg.capped
    h = finished_turns(agg)
    t = np.arange(h.size, dtype=object)
    turns_sum, turns_sq = int((t * h.astype(object)).sum()), int((t * t * h.astype(object)).sum())
    rounds_sum = _done_sum(agg, "done_rounds", "rounds")
    if done:
        turns = _mean_ci_exact(done, turns_sum, turns_sq, 0)
        turns.update({"median": hist_median(h), "p5": hist_percentile(h, 5), "p95": hist_percentile(h, 95)})
        rounds = _mean_ci_exact(done, rounds_sum, _done_sum(agg, "done_rounds_sq", "rounds_sq"), 0)
    else:
        turns = rounds = _na("no finished games")
    return {"turns": turns, "rounds": rounds,
            "turns_per_round": turns_sum / rounds_sum if rounds_sum else None,
            "last_round_turns": _done_sum(agg, "done_last_round_turns", "last_round_turns") / done if done else None,
            "capped": agg.capped, "finished": done, "games": n}


def places(agg) -> list[dict]:
    """Seat by seat: the share of finished games ending in each place (1 = winner ...
    P = first eliminated; ``count``, and ``share_ci`` its Wilson interval over the
    ``games`` finished games) and the mean place with its t interval."""
    P = agg.seats
    grid = _c(agg, "place")[:P, :P]
    out = []
    for s in range(P):
        row = grid[s]
        k = int(row.sum())
        pl = np.arange(1, P + 1, dtype=object)
        mean = _mean_ci_exact(k, int((pl * row.astype(object)).sum()), int((pl * pl * row.astype(object)).sum()), 0)
        out.append({"seat": s, "games": k, "share": [int(x) / k if k else None for x in row],
                    "count": [int(x) for x in row], "share_ci": [rate(int(x), k)["x_ci"] for x in row],
                    "mean_place": mean})
    return out


def catch_up(agg) -> dict:
    """Does losing round 1 (and so starting round 2 with one card fewer) help or hurt?
    ``loser``: the win rate of round 1's loser (Wilson); ``others``: the win rate of each
    player who did not lose round 1 (every finished game has one winner, so it is
    ``(1 - loser) / (P - 1)``, its interval the image of the loser's); ``edge``: loser
    minus others; ``first_out``: the win rate of the first player out of round 1; the
    even share is ``1 / P``."""
    P = agg.seats
    n = int(_c(agg, "r1_decided"))
    k = int(_c(agg, "r1_loser_won"))
    if n == 0:
        return {"games": 0, "loser": _na("no finished games"), "others": _na("no finished games"),
                "edge": _na("no finished games"), "first_out": _na("no finished games"), "even": 1.0 / P}
    lo_r = rate(k, n)
    lo, hi = lo_r["x_ci"]
    p = lo_r["x"]
    others = {"x": (1 - p) / (P - 1), "x_ci": [(1 - hi) / (P - 1), (1 - lo) / (P - 1)], "n": n * (P - 1)}
    edge = {"x": (P * p - 1) / (P - 1), "x_ci": [(P * lo - 1) / (P - 1), (P * hi - 1) / (P - 1)], "n": n}
    return {"games": n, "loser": lo_r, "others": others, "edge": edge,
            "first_out": rate(int(_c(agg, "r1_first_out_won")), n), "even": 1.0 / P}


def revives(agg) -> dict:
    """How often the skull VII revives, over the finished games (a capped game stops at the
    cap): the share of games with at least one revival (Wilson), revivals per game (t
    interval) and per round; ``finished`` and ``capped`` the games behind them and left out."""
    n = agg.games - agg.capped
    r = _done_sum(agg, "done_revives", "revives")
    rounds = _done_sum(agg, "done_rounds", "rounds")
    return {"games_with_revive": rate(_done_sum(agg, "done_revived", "revived"), n),
            "per_game": _mean_ci_exact(n, r, _done_sum(agg, "done_revives_sq", "revives_sq"), 0) if n
            else _na("no finished games"),
            "per_round": r / rounds if rounds else None, "finished": n, "capped": agg.capped}


def variant_change(agg, base) -> dict:
    """What a rule variant changes against the baseline on the same seeds: seat 1's win
    rate (the first round's starter: the seat advantage), the spread between the best and
    the worst seat, turns and rounds per game (finished games: ``lengths``)."""
    va, vb = seat_rates(agg), seat_rates(base)
    la, lb = lengths(agg), lengths(base)
    return {"seat1": va[0], "seat1_change": diff_rates(va[0], vb[0]),
            "turns": la["turns"], "turns_change": diff_means(la["turns"], lb["turns"]),
            "rounds": la["rounds"], "rounds_change": diff_means(la["rounds"], lb["rounds"]),
            "capped": agg.capped, "games": agg.games}
