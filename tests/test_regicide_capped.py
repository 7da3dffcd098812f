"""Regicide games ended by the turn cap are neither won nor lost (outside review of the
reports, A20): every win rate is wins / (games - capped) with the capped count beside it,
the turn statistics are over the finished games, the same from records and from the
flat path's aggregates, on the page, on the terminal and in ``regicide run --json``."""
import json

import numpy as np
import pandas as pd
import pytest

from analysis import regicide as ar
from analysis.execution import Execution
from analysis.runs import run
from simcore.game import get_game
from simcore.regicide.model import R_STALLED, R_TURN_CAP
from strategies.regicide.bind import records_frame, run_games

API = get_game("regicide")
N = 300
# solo heuristic, seed 5: 16 of 300 games reach the cap, 2 are won, 4 end by a rule on turn 31
RULES = API.load_rules(None, {"max_turns": 31})


@pytest.fixture(scope="module")
def played():
    rec = run_games(1, "heuristic", N, seed=5, rules=RULES)
    setup = API.make_setup(RULES, None, 1)
    res = run("regicide", setup, [], [((0,), ("heuristic",))], N, 5, RULES, API.load_rules(),
              execution=Execution(chunk_size=37))
    return rec, res.matchups[0].records


def test_the_run_has_capped_games_wins_and_finished_games_at_the_cap(played):
    rec, _ = played
    cap = rec["reason"] == R_TURN_CAP
    assert 0 < rec["win"].sum() < N and 0 < cap.sum() < N
    assert (rec["turns"][~cap] == 31).any()      # the cap's bin also holds finished games


def test_win_rate_leaves_capped_games_out(played):
    rec, agg = played
    cap = rec["reason"] == R_TURN_CAP
    done = int((~cap).sum())
    wins = int(rec["win"].sum())
    for wr in (ar.win_rates(records_frame(rec, "heuristic")), ar.tables_from_aggregates([("heuristic", 1, agg)])["win_rates"]):
        row = wr.iloc[0]
        assert row["games"] == N and row["capped"] == cap.sum() and row["finished_games"] == done
        assert row["win_rate"] == wins / done != wins / N
        lo, hi = ar.wilson(wins, done)
        assert (row["win_ci_low"], row["win_ci_high"]) == (lo, hi)
        assert row["mean_turns"] == rec["turns"][~cap].mean()
        assert row["mean_defeated"] == rec["defeated"].mean()      # every game: stated on the page
    for s in (ar.summary(rec), ar.summary_from_aggregate(agg)):
        assert s["win_rate"] == wins / done and s["finished_games"] == done and s["capped"] == cap.sum()
        assert s["mean_turns"] == rec["turns"][~cap].mean() and s["median_turns"] == np.median(rec["turns"][~cap])
        assert s["stalled"] == int((rec["reason"] == R_STALLED).sum())
    assert ar.summary(rec) == ar.summary_from_aggregate(agg)
    line = ar.cap_line(ar.summary(rec))
    assert f"turn cap {cap.sum()}" in line and "neither won nor lost" in line and "counted as losses" not in line


def test_lengths_and_medals_are_of_the_finished_games(played):
    rec, agg = played
    cap = rec["reason"] == R_TURN_CAP
    t = rec["turns"][~cap]
    want = ar.all_tables(records_frame(rec, "heuristic"))
    got = ar.tables_from_aggregates([("heuristic", 1, agg)])
    for tab in (want, got):
        ln = tab["lengths"].iloc[0]
        assert ln["finished_games"] == t.size and ln["capped"] == cap.sum()
        assert ln["mean"] == t.mean() and ln["max"] == t.max() and ln["median"] == np.median(t)
        md = tab["medals"].set_index("what")
        assert (md.loc[[w for w in md.index if w.startswith("medal")], "games"] == t.size).all()
        assert md.loc["medal: none", "count"] == int(((rec["medal"] == 0) & ~cap).sum())
        assert md.loc["flips used: 0", "games"] == N
    # records and aggregates agree with capped games too
    for name in want:
        approx = {"std", "q10", "q90"} if name == "lengths" else set()
        pd.testing.assert_frame_equal(got[name].drop(columns=list(approx)), want[name].drop(columns=list(approx)),
                                      check_exact=True, obj=name)


def _cli(args, capsys):
    from scripts.cli import main

    try:
        main(args)
    except SystemExit as e:
        assert not e.code
    return capsys.readouterr().out


def test_run_json_and_text_use_the_finished_games(capsys):
    args = ["regicide", "run", "--players", "1", "--games", str(N), "--seed", "5", "--set", "max_turns=31",
            "--no-store"]
    d = json.loads(_cli(args + ["--json"], capsys))
    want = ar.summary(run_games(1, "heuristic", N, seed=5, rules=RULES))
    assert {k: d[k] for k in want} == want
    assert d["capped"] == d["capped_games"] > 0 and d["finished_games"] == N - d["capped"]
    # the shared schema's matchup rate and Regicide's own key are the same rate
    assert d["win_rate"] == d["matchups"][0]["win_rate"] == d["wins"] / d["finished_games"]
    out = _cli(args, capsys)
    assert f"n={N - d['capped']}" in out and f"{d['capped']} capped" in out
    assert "neither won nor lost" in out


def test_report_page_shows_capped_games_apart(tmp_path):
    from reports.regicide import cap_sentence, rank_suit_table

    rec = run_games(1, "heuristic", N, seed=5, rules=RULES)
    tabs = ar.all_tables(records_frame(rec, "heuristic"))
    s = cap_sentence(tabs["end_reasons"], tabs["win_rates"])
    cap = int((rec["reason"] == R_TURN_CAP).sum())
    assert f"turn cap: {cap:,} of {N:,}" in s and "counted as losses" not in s and "left out" in s
    t = rank_suit_table(tabs["end_by_rank_suit"], tabs["end_reasons"])
    assert (t["capped (in n)"] == cap).all()
