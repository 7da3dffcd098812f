"""The river battle's own figures from exact aggregates (``analysis.aggregate``): how
games ended and what happened at each dam (:func:`facts`), and the river's keys of the
result document (:func:`result_fields`, found by ``analysis.runs.result_json`` by the
game's name). The per-game fields they sum are derived where the records are made
(``strategies/river/bind.py``, ``derived``); the end reasons' names come through the
registry (``get_game("river").end_keys``)."""
from __future__ import annotations

import numpy as np

from simcore.game import get_game
from simcore.river import model as M

from .metrics import rate


def facts(agg) -> dict:
    """How the games of an exact aggregate (``analysis.aggregate.Aggregate``) ended and
    what happened at each dam: end reasons (counts, share with interval, mean turns) and,
    per dam (tile id 1..7), the games in which it was damaged, destroyed, and decided the
    game. Pure sums of the binding's ``derived`` fields, so equal for any chunking."""
    keys = get_game("river").end_keys
    c = agg.counts
    ends = np.asarray(c.get("end_reason", np.zeros(len(keys), np.int64)))
    turns = np.asarray(c.get("end_turns", np.zeros(len(keys), np.int64)))
    n = agg.games
    out = {"end_reasons": {k: int(ends[i]) for i, k in enumerate(keys)},
           "end_reason_share": {k: rate(int(ends[i]), n) for i, k in enumerate(keys)},
           "end_turns_mean": {k: (float(turns[i]) / int(ends[i]) if ends[i] else None)
                              for i, k in enumerate(keys)}}
    dams = {}
    for key in ("dam_hit", "dam_destroyed", "dam_decided"):
        v = np.asarray(c.get(key, np.zeros(M.N_TILES, np.int64)))
        dams[key] = [int(x) for x in v]
    out["dams"] = {"tile": list(range(1, M.N_TILES + 1)), "games": n, "damaged": dams["dam_hit"],
                   "destroyed": dams["dam_destroyed"], "decided": dams["dam_decided"]}
    return out


def result_fields(res) -> dict:
    """The river's keys of the result document: the attacker's (and defender's) win rate
    with its interval over every game of the run, and :func:`facts` of the run's exact
    aggregate (``res.pooled()``)."""
    rates, cis, _ = res.seat_rows()
    out = {"attacker_win_rate": rates[0], "attacker_win_rate_ci": cis[0],
           "defender_win_rate": rates[1], "defender_win_rate_ci": cis[1]}
    out.update(facts(res.pooled()))
    return out
