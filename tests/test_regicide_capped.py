"""Regicide games ended by the turn cap are neither won nor lost (outside review of the
reports, A20): every win rate is wins / (games - capped) with the capped count beside it,
the turn statistics are over the finished games, the same from records and from the
flat path's aggregates, on the page, on the terminal and in ``regicide run --json``. So are
enemies defeated, the progress curve (its k = 12 point is the win rate), the ending enemy
of the lost games, flips, Jesters, yields and exact kills: ``RegicideAPI.reduce`` keeps the
capped games' histograms apart. A run stored before those, with capped games, is refused
with a one-line error."""
import json

import numpy as np
import pandas as pd
import pytest

from analysis import regicide as ar
from analysis.execution import Execution
from analysis.runs import run
from analysis.aggregate import Aggregate
from simcore.errors import PlaytestError
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
        assert row["mean_defeated"] == rec["defeated"][~cap].mean() != rec["defeated"].mean()
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
        assert (md.loc[[w for w in md.index if w.startswith("flips")], "games"] == t.size).all()
        assert (md["capped"] == cap.sum()).all()
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
    # enemies defeated and flips: the finished games too
    assert "every game" not in out and "flips used 2.00 (mean, finished games)" in out


def test_report_page_shows_capped_games_apart(tmp_path):
    from reports.regicide import cap_sentence, rank_suit_table

    rec = run_games(1, "heuristic", N, seed=5, rules=RULES)
    tabs = ar.all_tables(records_frame(rec, "heuristic"))
    s = cap_sentence(tabs["end_reasons"], tabs["win_rates"])
    cap = int((rec["reason"] == R_TURN_CAP).sum())
    assert f"turn cap: {cap:,} of {N:,}" in s and "counted as losses" not in s and "left out" in s
    t = rank_suit_table(tabs["end_by_rank_suit"], tabs["end_reasons"])
    assert (t["capped (not in n)"] == cap).all() and "capped (in n)" not in t.columns
    assert (t["lost games (n)"] == int(((rec["win"] == 0) & (rec["reason"] != R_TURN_CAP)).sum())).all()


def _old_reduce(rec):
    """``RegicideAPI.reduce`` before the capped games' histograms: the ending enemy of every
    game not won (capped ones too), nothing of the capped games apart."""
    h = API.reduce(rec)
    for k in ("defeated_capped", "flips_capped", "capped_sums"):
        del h[k]
    lost = rec["win"] == 0
    pos, rank = rec["end_pos"].astype(np.int64)[lost], rec["end_rank"].astype(np.int64)[lost]
    suit = rec["end_suit"].astype(np.int64)[lost] + 1
    h["lost_end"] = np.bincount((pos * 14 + rank) * 5 + suit, minlength=13 * 14 * 5).reshape(13, 14, 5)
    return h


def _chunks(rec, size, reduce=None):
    """The aggregate of ``rec`` reduced ``size`` games at a time (``Aggregate.of_records`` on
    slices, ``Aggregate.total``), through the store's JSON; ``reduce``: the histograms to
    keep instead of ``RegicideAPI.reduce``'s."""
    n = rec["win"].size
    parts = []
    for a in range(0, n, size):
        r = {k: v[a:a + size] for k, v in rec.items()}
        r.update({"winner": np.where(r["win"] == 1, 0, -1).astype(np.int8), "capped": r["reason"] == R_TURN_CAP,
                  "first": np.zeros(r["win"].size, np.int8)})
        agg = Aggregate.of_records(r, 1, "regicide")
        if reduce is not None:
            agg.hists = {k: np.asarray(v, np.int64) for k, v in reduce(r).items()}
        parts.append(Aggregate.from_json(agg.to_json()))
    return Aggregate.total(parts, 1)


def test_progress_defeated_ending_enemy_flips_and_jesters_are_of_the_finished_games(played):
    rec, agg = played
    cap = rec["reason"] == R_TURN_CAP
    fin = ~cap
    done, wins = int(fin.sum()), int(rec["win"].sum())
    lost = fin & (rec["win"] == 0)
    want = ar.all_tables(records_frame(rec, "heuristic"))
    for tab in (want, ar.tables_from_aggregates([("heuristic", 1, agg)]),
                ar.tables_from_aggregates([("heuristic", 1, _chunks(rec, 41))])):
        pr = tab["progress"]
        assert (pr["finished_games"] == done).all() and (pr["capped"] == cap.sum()).all()
        assert list(pr["alive"]) == [int((rec["defeated"][fin] >= k).sum()) for k in range(13)]
        k12 = pr[pr["enemies_defeated"] == 12].iloc[0]
        assert k12["alive_rate"] == wins / (N - cap.sum()) == tab["win_rates"].iloc[0]["win_rate"]
        assert (k12["alive_ci_low"], k12["alive_ci_high"]) == ar.wilson(wins, done)
        assert tab["win_rates"].iloc[0]["mean_defeated"] == rec["defeated"][fin].mean()
        ee = tab["end_enemy"]
        assert (ee["lost_games"] == lost.sum()).all() and ee["losses"].sum() == lost.sum()
        assert (ee["capped"] == cap.sum()).all()
        by_pos = ee.groupby("castle_position")["losses"].sum()
        assert dict(by_pos) == {int(p) + 1: int(c) for p, c in zip(*np.unique(rec["end_pos"][lost],
                                                                                 return_counts=True))}
        rs = tab["end_by_rank_suit"]
        assert (rs["lost_games"] == lost.sum()).all() and rs["losses"].sum() == lost.sum()
        md = tab["medals"].set_index("what")
        flips = [w for w in md.index if w.startswith("flips")]
        assert list(md.loc[flips, "count"]) == [int((rec["flips_used"][fin] == f).sum()) for f in range(len(flips))]
        js = tab["jesters"].iloc[0]
        assert js["finished_games"] == done and js["capped"] == cap.sum()
        assert js["mean_yields"] == rec["yields"][fin].mean() != rec["yields"].mean()
        assert js["mean_exact_kills"] == rec["exact_kills"][fin].mean()
    got = ar.tables_from_aggregates([("heuristic", 1, _chunks(rec, 41))])
    for name in want:
        approx = {"std", "q10", "q90"} if name == "lengths" else set()
        pd.testing.assert_frame_equal(got[name].drop(columns=list(approx)), want[name].drop(columns=list(approx)),
                                      check_exact=True, obj=name)
    s = ar.summary_from_aggregate(_chunks(rec, 41))
    assert s == ar.summary(rec) and s["mean_enemies_defeated"] == rec["defeated"][fin].mean()


def test_stored_run_without_the_capped_histograms(played):
    """A run stored before the capped games' histograms: refused (one line) when some of its
    games were capped, and when a resumed run mixes such chunks with newer ones; read
    unchanged when none was."""
    rec, _ = played
    cap = rec["reason"] == R_TURN_CAP
    old = _chunks(rec, 41, _old_reduce)
    for f in (lambda: ar.tables_from_aggregates([("heuristic", 1, old)]), lambda: ar.summary_from_aggregate(old)):
        with pytest.raises(PlaytestError, match=f"{int(cap.sum())} games ended by the turn cap") as e:
            f()
        assert "--resume" in str(e.value) and "\n" not in str(e.value)
    first = int(np.argmax(cap)) + 1
    head, tail = ({k: v[:first] for k, v in rec.items()}, {k: v[first:] for k, v in rec.items()})
    mixed = Aggregate.total([_chunks(head, 41, _old_reduce), _chunks(tail, 41)], 1)
    with pytest.raises(PlaytestError, match="rerun it without --resume"):
        ar.tables_from_aggregates([("heuristic", 1, mixed)])
    # no capped game: the old histograms are the finished games' already
    fin = {k: v[~cap] for k, v in rec.items()}
    got = ar.tables_from_aggregates([("heuristic", 1, _chunks(fin, 41, _old_reduce))])
    new = ar.tables_from_aggregates([("heuristic", 1, _chunks(fin, 41))])
    for name in new:
        pd.testing.assert_frame_equal(got[name], new[name], check_exact=True, obj=name)
    assert ar.summary_from_aggregate(_chunks(fin, 41, _old_reduce)) == ar.summary(fin)


def test_page_says_no_figure_counts_every_game(played, tmp_path):
    """The report's page: the progress panels count the capped games they leave out, and
    only the end-reason table counts every game (the turn cap is one of its reasons)."""
    import re

    from reports.regicide import build_report, fig_progress

    rec, agg = played
    fig = fig_progress(ar.tables_from_aggregates([("heuristic", 1, agg)])["progress"])
    cap = int((rec["reason"] == R_TURN_CAP).sum())
    assert fig.axes[0].get_title() == f"1 player ({cap:,} capped, left out)"
    build_report(tmp_path, games=60, search_games=2, budget=2, seed=5, rules=RULES)
    page = re.sub(r"<img[^>]*>", "", (tmp_path / "report.html").read_text())
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert text.count("every game") == 1 and "How games end (every game:" in text
    assert "capped (not in n)" in text and "capped (in n)" not in text
    assert "enemies defeated on average (finished games)" in text
