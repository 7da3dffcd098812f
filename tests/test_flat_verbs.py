"""The verbs that used to keep every game's record now play on the shared chunked path
(each chunk reduced to its exact aggregate where it is played, flat memory in -n), and
print what the records gave for the same seed: ``duel play`` (every figure of its JSON),
``duel tune`` (the sweep table), ``report regicide`` (its tables and the game-length
histograms of its figure) and the balance search's evaluations (``analysis.fix.evaluate``,
``playtest GAME fix``). The reference side of each test is computed here from
``strategies.*.bind`` records with the formulas the verbs used before, not with the code
under test."""
import json

import numpy as np
import pandas as pd
import pytest

from analysis.aggregate import Aggregate
from analysis.stats import wilson
from simcore.duel.model import load_setup

SETUP = load_setup()


from cli_runner import run_cli  # noqa: E402


def play_from_records(a, b, strat, vs_strat, games, seed, both=True):
    """``duel play``'s figures as the records path computed them (before the flat path)."""
    from strategies.duel import load_strategy
    from strategies.duel.bind import simulate

    s, v = load_strategy(strat), load_strategy(vs_strat)
    runs = [(0, simulate(SETUP, a, b, (s, v), games, seed))]
    if both:
        runs.append((1, simulate(SETUP, b, a, (v, s), games, seed)))
    n = wins = draws = timeouts = 0
    first_score = 0.0
    turns = []
    for seat_of_a, rec in runs:
        w = rec["winner"]
        n += len(w)
        wins += int((w == seat_of_a).sum())
        draws += int((w == -1).sum())
        first_score += float((w == rec["first"]).sum() + 0.5 * (w == -1).sum())
        timeouts += int(rec["timeout"].sum())
        turns.append(rec["turns"])
    turns = np.concatenate(turns)
    score = wins + 0.5 * draws
    return {"games": n, "wins": wins, "draws": draws, "losses": n - wins - draws, "win_rate": score / n,
            "win_rate_ci": list(wilson(score, n)), "first_player_win_rate": first_score / n,
            "first_player_win_rate_ci": list(wilson(first_score, n)), "timeouts": timeouts,
            "mean_turns": float(turns.mean()), "median_turns": float(np.median(turns)),
            "seat_orders": len(runs)}, runs


@pytest.mark.parametrize("hero,vs,strat,vs_strat,extra", [
    ("shadow", "fire", "greedy", "greedy", []),                      # both seat orders
    ("light", "mountain", "random", "greedy", ["--vs-strategy", "greedy"]),
    ("fire", "light", "greedy", "greedy", ["--one-seat"]),
])
def test_duel_play_on_the_flat_path_prints_the_figures_of_the_records(capsys, hero, vs, strat, vs_strat, extra):
    from simcore.duel.model import find_hero

    code, out, err = run_cli(capsys, "duel", "play", "--hero", hero, "--vs", vs, "-n", "300", "--seed", "4",
                             "--strategy", strat, "--chunk-size", "37", "--no-store", "--json", *extra)
    assert code == 0, err
    d = json.loads(out)
    a, b = find_hero(SETUP.heroes, hero), find_hero(SETUP.heroes, vs)
    want, runs = play_from_records(a, b, strat, vs_strat, 300, 4, "--one-seat" not in extra)
    assert {k: d[k] for k in want} == want
    # the shared schema's matchup rows: the same counts as the records of each seat order
    for row, (seat_of_a, rec) in zip(d["matchups"], runs):
        w, done = rec["winner"], ~rec["timeout"].astype(bool)
        assert row["games"] == 300 and row["wins"] == [int(((w == 0) & done).sum()), int(((w == 1) & done).sum())]
        assert row["draws"] == int(((w == -1) & done).sum())
    assert "run_id" not in d  # --no-store


def test_duel_play_text_and_store(capsys, tmp_path):
    """The text output reads the same figures; with a store the run is kept and resumable."""
    store = str(tmp_path / "store")
    args = ["duel", "play", "--hero", "mountain", "--vs", "shadow", "-n", "200", "--seed", "6", "--store", store]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    want, _ = play_from_records(0, 1, "greedy", "greedy", 200, 6)
    assert f"{want['games']:,} games, both seat orders" in out
    assert f"turns: mean {want['mean_turns']:.1f}, median {want['median_turns']:.0f}; timeouts " \
           f"{want['timeouts']}" in out
    assert "stored as run" in out
    code, out, err = run_cli(capsys, *args, "--resume", "--json")
    d = json.loads(out)
    assert d["played_chunks"] == 0 and d["resumed_chunks"] >= 2 and d["wins"] == want["wins"]


def test_duel_play_checks_the_run_size_before_any_game(capsys):
    from analysis.execution import CHUNK_MAX, MAX_CHUNKS

    code, _, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire",
                           "-n", str(CHUNK_MAX * MAX_CHUNKS + 1), "--no-store")
    assert code == 2 and "chunks of" in err and "--games" in err


def test_duel_tune_sweep_on_the_flat_path_equals_the_sweep_of_records():
    from analysis import duel as ad
    from analysis.duel_tune import Knob, sweep, variant
    from strategies.duel.bind import run_matchups

    knob = Knob(option="start_hp")
    got = sweep(SETUP, knob, [26, 30], "greedy", 120, 3)
    rows = []
    for v in (26, 30):
        run = run_matchups(variant(SETUP, knob, v), "greedy", 120, 3)
        ht = ad.hero_table(run, ad.matchup_table(run))
        fp = ad.first_player_table(run)
        overall = fp[fp.hero_a == "all"].iloc[0]
        for _, r in ht.iterrows():
            rows.append({"knob": "start_hp", "value": v, "hero": r.hero, "win_rate": r.win_rate,
                         "ci_low": r.ci_low, "ci_high": r.ci_high, "games": int(r.games),
                         "spread": float(ht.win_rate.max() - ht.win_rate.min()),
                         "first_player_win_rate": float(overall.first_player_win_rate),
                         "first_player_ci_low": float(overall.ci_low), "first_player_ci_high": float(overall.ci_high)})
    pd.testing.assert_frame_equal(got, pd.DataFrame(rows), check_exact=True)


def test_report_regicide_tables_and_lengths_from_aggregates_equal_those_from_records():
    """The report's batches (``reports.regicide.simulate``), with a turn cap low enough that
    some games hit it: its tables equal those of the records, and the figure's histogram
    of the games that ended by a rule is exact."""
    from analysis import regicide as ar
    from reports.regicide import simulate
    from simcore.regicide.model import R_TURN_CAP, load_rules
    from strategies.regicide.bind import records_frame, run_games

    rules = load_rules(overrides={"max_turns": 14})
    plan = [(1, "heuristic", 200, None), (2, "random", 150, None)]
    parts, timing = simulate(plan, 7, 1, rules)
    assert list(timing["games"]) == [200, 150]
    recs = [run_games(p, s, n, seed=7, rules=rules) for p, s, n, _ in plan]
    assert any((r["reason"] == R_TURN_CAP).any() for r in recs)  # the cap is exercised
    want = ar.all_tables(pd.concat([records_frame(r, s) for r, (_, s, _, _) in zip(recs, plan)],
                                   ignore_index=True))
    got = ar.tables_from_aggregates(parts)
    for name in want:
        w, g = want[name], got[name]
        approx = {"std", "q10", "q90"} if name == "lengths" else set()  # rounded steps (analysis.regicide)
        pd.testing.assert_frame_equal(g.drop(columns=list(approx)), w.drop(columns=list(approx)),
                                      check_exact=True, obj=name)
        for c in approx:
            np.testing.assert_allclose(g[c].to_numpy(float), w[c].to_numpy(float), rtol=1e-12, err_msg=c)
    for (label, players, agg), r in zip(parts, recs):
        assert isinstance(agg, Aggregate) and agg.games == len(r["win"])
        ok = r["turns"][r["reason"] != R_TURN_CAP].astype(np.int64)
        h = ar.uncapped_turns(agg, rules["max_turns"])
        want_h = np.bincount(ok, minlength=h.size)
        assert h.tolist() == want_h.tolist()


def test_fix_evaluations_reduce_per_chunk_and_equal_the_records():
    """``analysis.fix.evaluate`` (the balance search's screening and its proof) keeps one
    aggregate per matchup, and its rows are those of the same games' records."""
    from analysis import fix as F
    from analysis.runs import Matchup, RunResult
    from strategies.duel.bind import simulate

    space = F.space_for("duel")
    ev = F.evaluate(space, {}, ["greedy"], 90, 5)
    assert all(isinstance(m.records, Aggregate) for m in ev.result.matchups)
    ms = []
    for m in ev.result.matchups:
        rec = simulate(SETUP, m.lineup[0], m.lineup[1], "greedy", 90, 5)
        ms.append(Matchup(m.lineup, m.strategies, dict(rec, capped=rec["timeout"])))
    res = RunResult("duel", 5, 90, 2, ms, ev.result.entrant_names, ev.result.rules, ev.result.rules_changed)
    rows, field_rows = F.summarise(space, res)
    assert ev.rows == rows and ev.field_rows == field_rows


def test_dicethrone_card_values_chunk_by_chunk_equal_the_records(monkeypatch):
    """``playtest dicethrone card-value`` and the report's card section: played in chunks
    (here of 13 games per seat order) and reduced to exact sums, the table equals the
    paired statistics of the whole run's per-game scores (counts and means exactly, the
    standard errors to the last bit)."""
    from analysis import dicethrone_cards as C
    from simcore.dicethrone import model as M
    from strategies.dicethrone.bind import content_tables, tables_tuple

    monkeypatch.setattr(C, "CARD_CHUNK", 13)
    rules = M.load_rules()
    content, T, _ = content_tables(("paladin", "pyromancer"))
    ids = {c.id: i for i, c in enumerate(content.cards)}
    cards = {c.id for c in content.heroes["paladin"].cards[:3]}
    got = C.card_values(n=30, seed=4, heroes=("paladin",), vs="pyromancer", cards=cards)
    assert len(got) == len(cards)
    h = list(content.heroes).index("paladin")
    base, base_cap = C.play_scores("paladin", "pyromancer", 30, 4, ("greedy", "greedy"), rules,
                                   tables_tuple(content, T))
    for _, row in got.iterrows():
        tv = tables_tuple(content, C.blank_tables(T, h, ids[row["card"]]))
        var, var_cap = C.play_scores("paladin", "pyromancer", 30, 4, ("greedy", "greedy"), rules, tv)
        want = C.paired(base, base_cap, var, var_cap)
        for k in ("value", "pairs", "changed", "win_rate_full", "win_rate_blank"):
            assert row[k] == want[k] or (np.isnan(row[k]) and np.isnan(want[k])), k
        for k in ("half_width", "half_width_unpaired"):
            np.testing.assert_allclose(row[k], want[k], rtol=1e-12, err_msg=k)
        np.testing.assert_allclose(row["value_ci"], want["value_ci"], rtol=1e-12, atol=1e-15)
