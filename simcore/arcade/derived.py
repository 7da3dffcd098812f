"""The per-game facts behind the arcade's tables (``analysis/arcade.py``), derived from the
standard record fields that both engines produce identically: the binding adds them to
every record table it makes (``strategies/arcade/bind.py``), and the shared aggregate sums
them exactly (``analysis.aggregate.Aggregate``). Here, in the rules layer, because the
records are made a layer below the analysis that reads them."""
from __future__ import annotations

import numpy as np

from .model import MAX_PLAYERS

DERIVED = ("rounds_sq", "revives_sq", "revived", "r1_decided", "r1_loser_won", "r1_first_out_won", "place",
           "done_rounds", "done_rounds_sq", "done_last_round_turns",
           "done_games", "done_revives", "done_revives_sq", "done_revived")


def derived_fields(rec: dict, players: int) -> dict:
    """The per-game facts behind the tables, from the standard arcade record fields."""
    w = np.asarray(rec["winner"]).astype(np.int64)
    n = w.size
    done = ~np.asarray(rec["capped"]).astype(bool)
    rounds = np.asarray(rec["rounds"]).astype(np.int64)
    rev = np.asarray(rec["revives"]).astype(np.int64)
    loser = np.asarray(rec["loser_r1"]).astype(np.int64)
    first_out = np.asarray(rec["first_out_r1"]).astype(np.int64)
    r1 = done & (loser >= 0)
    place = np.zeros((n, MAX_PLAYERS, MAX_PLAYERS), np.int8)
    rows = np.nonzero(done)[0]
    for p in range(players):
        order = np.asarray(rec[f"elim_order_{p}"]).astype(np.int64)
        pl = np.where(w == p, 1, players - order + 1)      # 1 = winner, players = first eliminated
        place[rows, p, pl[rows] - 1] = 1
    # the lengths of the finished games only (0 for a capped game): their sums are the
    # finished games' means (``lengths``; their turns: ``ArcadeAPI.reduce``'s histogram)
    done_rounds = np.where(done, rounds, 0)
    return {"rounds_sq": rounds * rounds, "revives_sq": rev * rev, "revived": rev > 0, "r1_decided": r1,
            "r1_loser_won": r1 & (w == loser), "r1_first_out_won": r1 & (first_out >= 0) & (w == first_out),
            "place": place, "done_rounds": done_rounds,
            "done_rounds_sq": done_rounds * done_rounds,
            "done_last_round_turns": np.where(done, np.asarray(rec["last_round_turns"]).astype(np.int64), 0),
            # how many finished games the done_ sums cover (a resumed run may mix chunks saved
            # before they existed: ``_done_sum`` trusts them only when they cover every one)
            "done_games": done, "done_revives": np.where(done, rev, 0), "done_revives_sq": np.where(done, rev * rev, 0),
            "done_revived": done & (rev > 0)}
