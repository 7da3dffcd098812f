"""Regicide's own tables (``analysis.regicide``: win rates, progress, ending enemy, lengths,
medals, Jesters, end reasons) and the run summary are the same from per-game records and
from the exact per-chunk aggregates of the flat-memory path (``playtest regicide run``):
counts, rates, intervals, means, medians and extremes exactly; a standard deviation and the
10%/90% quantiles to the last bits (pandas rounds partial steps, the aggregate does not)."""
import numpy as np
import pandas as pd
import pytest

from analysis import regicide as ar
from analysis.execution import Execution
from analysis.runs import run
from simcore.game import get_game
from strategies.regicide.bind import records_frame, run_games

API = get_game("regicide")
N = 300
RULES = API.load_rules()


def flat(players, strategy, chunk):
    setup = API.make_setup(RULES, None, players)
    res = run("regicide", setup, [], [(tuple(range(players)), (strategy,) * players)], N, 5, RULES, RULES,
              execution=Execution(chunk_size=chunk))
    return res.matchups[0].records


@pytest.mark.parametrize("players,strategy", [(1, "heuristic"), (3, "random")])
def test_tables_and_summary_from_aggregates_equal_those_from_records(players, strategy):
    rec = run_games(players, strategy, N, seed=5, rules=RULES)
    agg = flat(players, strategy, 37)
    assert agg.games == N and agg.chunks == -(-N // 37)
    want = ar.all_tables(records_frame(rec, strategy))
    got = ar.tables_from_aggregates([(strategy, players, agg)])
    assert set(got) == set(want)
    for name in want:
        w, g = want[name], got[name]
        assert list(g.columns) == list(w.columns), name
        assert len(w) == len(g), name
        if name == "medals" and players != 1:
            assert len(g) == 0
            continue
        approx = {"std", "q10", "q90"} if name == "lengths" else set()
        pd.testing.assert_frame_equal(g.drop(columns=list(approx)), w.drop(columns=list(approx)),
                                      check_exact=True, obj=name)
        for c in approx:
            np.testing.assert_allclose(g[c].to_numpy(float), w[c].to_numpy(float), rtol=1e-12, err_msg=c)
    assert ar.summary_from_aggregate(agg) == ar.summary(rec)


def test_regicide_aggregates_do_not_depend_on_the_chunking():
    a, b = flat(2, "heuristic", 37), flat(2, "heuristic", N)
    b.chunks = a.chunks
    assert a == b
