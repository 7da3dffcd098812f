"""Flat-memory aggregates are exact: for every registered game, the tables and metrics
built from per-chunk aggregates equal those built from the concatenated per-game records,
for any chunking; the histogram percentiles and exact sums match numpy's."""
import numpy as np
import pytest

from analysis import metrics as legacy
from analysis.aggregate import Aggregate, _align, exact_sums, hist_median, hist_percentile, lead_matrix
from analysis.execution import Execution
from analysis.ratings import pairwise
from analysis.runs import Matchup, RunResult, changed_rules, lineups_for, play_chunk, result_json, run, seat_scores
from simcore.game import game_names, game_type, get_game
from simcore.parallel import run_chunks

GAMES = game_names()
N = 300


def context(name):
    api = get_game(name)
    gt = game_type(name)
    rules = api.load_rules()
    content = api.load_content(rules)
    names = api.entrant_names(content)
    setup = api.make_setup(rules, content, gt.default_seats)
    plan = lineups_for(name, len(names), gt.default_seats, [gt.default_strategy], fixed=(0, 1)
                       if gt.entrants == "heroes" else None)
    return api, gt, rules, names, setup, plan


def strip(doc):
    return {k: v for k, v in doc.items() if k not in ("compile_seconds", "command")}


@pytest.mark.parametrize("name", GAMES)
def test_tables_from_aggregates_equal_tables_from_records(name):
    api, gt, rules, names, setup, plan = context(name)
    trace = gt.kind != "cooperative"
    seats = gt.default_seats
    recs = [run_chunks(play_chunk, N, name, setup, lu, st, 11, "kernel", trace, jobs=1, chunk_size=N)
            for lu, st in plan]
    from_records = RunResult(name, 11, N, seats, [Matchup(lu, st, r) for (lu, st), r in zip(plan, recs)], names,
                             rules, changed_rules(rules, api.load_rules()), cooperative=gt.kind == "cooperative")
    doc_rec = strip(result_json(from_records, "x"))
    # chunks of 37 games (the last one short), played and reduced chunk by chunk
    res = run(name, setup, names, plan, N, 11, rules, api.load_rules(), trace=trace,
              execution=Execution(chunk_size=37))
    assert all(isinstance(m.records, Aggregate) for m in res.matchups)
    assert all(m.records.chunks == -(-N // 37) for m in res.matchups)
    doc_agg = strip(result_json(res, "x"))
    assert doc_agg == doc_rec

    # ... and the counts equal the record-level functions, game for game
    for m, r in zip(res.matchups, recs):
        w1, d1, c1, n1 = seat_scores(r, seats)
        w2, d2, c2, n2 = m.records.seat_scores()
        assert list(w1) == list(w2) and (d1, c1, n1) == (d2, c2, n2)
        ids = list(range(seats))
        pw, pg = pairwise(ids, r["winner"], r["capped"], seats)
        aw, ag = m.records.pairwise(ids, seats)
        np.testing.assert_array_equal(pw, aw)
        np.testing.assert_array_equal(pg, ag)
        for k, v in m.records.counts.items():
            np.testing.assert_array_equal(v, np.asarray(r[k]).astype(np.int64).sum(axis=0), err_msg=k)

    # the metrics equal the record-level metrics (counts exactly; means and intervals to the
    # last bits: the aggregate computes them exactly, numpy with rounded partial sums)
    pooled = {k: np.concatenate([np.asarray(r[k]) for r in recs]) for k in ("winner", "capped", "turns", "first")}
    if trace and all(lead_matrix(r) is not None for r in recs):  # a game may not trace its lead yet
        pooled["leads"] = np.concatenate([lead_matrix(r) for r in recs])
    ents = res.entrant_rows()
    old = legacy.metrics(pooled, [e["win_rate"] for e in ents], [e["games"] for e in ents],
                         cooperative=gt.kind == "cooperative")
    new = doc_agg["metrics"]
    assert set(old) == set(new)
    for k in old:
        for f in old[k]:
            a, b = old[k][f], new[k][f]
            if isinstance(a, (list, float)) and a is not None:
                np.testing.assert_allclose(np.asarray(b, float), np.asarray(a, float), rtol=1e-12, atol=1e-15,
                                           err_msg=f"{k}.{f}")
            else:
                assert a == b, (k, f, a, b)


@pytest.mark.parametrize("name", GAMES)
def test_aggregate_merge_is_order_free_and_round_trips(name):
    api, gt, rules, names, setup, plan = context(name)
    lu, st = plan[0]
    trace = gt.kind != "cooperative"
    rec = play_chunk(0, 120, name, setup, lu, st, 4, "kernel", trace)
    parts = [Aggregate.of_records({k: np.asarray(v)[a:a + 30] for k, v in rec.items()}, gt.default_seats)
             for a in range(0, 120, 30)]
    whole = Aggregate.of_records(rec, gt.default_seats)
    fwd = Aggregate.total(parts, gt.default_seats)
    back = Aggregate.total(parts[::-1], gt.default_seats)
    fwd.chunks = back.chunks = whole.chunks = 1
    assert fwd == whole and back == whole
    assert Aggregate.from_json(whole.to_json()) == whole


def test_histogram_percentiles_are_numpys():
    rng = np.random.default_rng(1)
    for _ in range(2000):
        t = rng.integers(0, int(rng.integers(1, 80)), int(rng.integers(1, 400)))
        h = np.bincount(t)
        f = t.astype(float)
        assert hist_median(h) == float(np.median(f))
        for q in (5, 25, 95):
            assert hist_percentile(h, q) == float(np.percentile(f, q)), (q, t)


def test_exact_sums_do_not_depend_on_the_cut():
    from fractions import Fraction

    rng = np.random.default_rng(2)
    v = np.concatenate([rng.random(500) * 40, rng.integers(0, 9, 300) / 7.0, [0.0, 1e-9, 3.5]])
    s1, s2, e = exact_sums(v)
    assert Fraction(s1) * Fraction(2) ** e == sum(Fraction(x) for x in v)
    assert Fraction(s2) * Fraction(2) ** (2 * e) == sum(Fraction(x) ** 2 for x in v)
    acc = (0, 0, 0)
    for a in range(0, v.size, 97):
        acc = _align(acc, exact_sums(v[a:a + 97]))
    assert acc == (s1, s2, e)


def test_arcade_tables_from_aggregates_equal_tables_from_the_records():
    """The arcade report's tables (analysis/arcade.py: seats, lengths, elimination order,
    catch-up, revivals), built from chunked aggregates, equal the same figures computed
    straight from the standard record fields of the concatenated games (some capped)."""
    from analysis import arcade as A
    from analysis.metrics import mean_ci, rate

    api = get_game("arcade")
    rules = api.load_rules(None, {"max_turns_per_round": 150})
    P, n = 3, 240
    setup = api.make_setup(rules, api.load_content(rules), P)
    plan = lineups_for("arcade", 0, P, ["greedy", "defensive"])[:2]
    res = run("arcade", setup, [], plan, n, 9, rules, api.load_rules(), execution=Execution(chunk_size=37))
    agg = res.pooled()
    recs = [play_chunk(0, n, "arcade", setup, lu, st, 9, "kernel", False) for lu, st in plan]
    r = {k: np.concatenate([np.asarray(x[k]) for x in recs]) for k in recs[0]}
    w, done = r["winner"].astype(int), ~r["capped"].astype(bool)
    assert 0 < (~done).sum() < done.sum()
    assert [x["x"] for x in A.seat_rates(agg)] == [np.count_nonzero(w[done] == s) / done.sum() for s in range(P)]
    L = A.lengths(agg)
    # lengths are of the finished games (a capped game stops at the cap): tests/test_arcade_capped.py
    np.testing.assert_allclose(L["rounds"]["x_ci"], mean_ci(r["rounds"][done])["x_ci"], rtol=1e-12)
    assert L["turns_per_round"] == r["turns"][done].sum() / r["rounds"][done].sum()
    for s, row in enumerate(A.places(agg)):
        order = r[f"elim_order_{s}"].astype(int)[done]
        place = np.where(w[done] == s, 1, P - order + 1)
        assert row["share"] == [np.count_nonzero(place == k) / done.sum() for k in range(1, P + 1)]
        np.testing.assert_allclose(row["mean_place"]["x_ci"], mean_ci(place)["x_ci"], rtol=1e-12)
    c = A.catch_up(agg)
    loser, first = r["loser_r1"].astype(int), r["first_out_r1"].astype(int)
    assert c["loser"] == rate(np.count_nonzero(done & (w == loser)), done.sum())
    assert c["first_out"] == rate(np.count_nonzero(done & (w == first)), done.sum())
    others = np.count_nonzero(done & (w != loser)) / ((P - 1) * done.sum())
    assert abs(c["others"]["x"] - others) < 1e-15
    rv = A.revives(agg)       # of the finished games, as the lengths
    assert rv["games_with_revive"] == rate(np.count_nonzero(r["revives"][done] > 0), done.sum())
    np.testing.assert_allclose(rv["per_game"]["x_ci"], mean_ci(r["revives"][done])["x_ci"], rtol=1e-12)
    assert rv["per_round"] == r["revives"][done].sum() / r["rounds"][done].sum()


def test_river_report_facts_from_aggregates_equal_record_tables():
    """The river's end reasons, lengths by end and dam tables (``analysis.river.facts``)
    from chunked aggregates equal the same tables computed directly from the raw record
    fields (reason, turns, dam1..7, decide_tile) with pandas."""
    import pandas as pd

    from analysis.river import facts
    from strategies.river.bind import END_CODES, END_KEYS

    api, gt, rules, names, setup, plan = context("river")
    lu, st = plan[0]
    rec = play_chunk(0, N, "river", setup, lu, st, 13)
    res = run("river", setup, names, plan, N, 13, rules, api.load_rules(), execution=Execution(chunk_size=41))
    f = facts(res.matchups[0].records)
    df = pd.DataFrame({k: np.asarray(rec[k]) for k in ["reason", "turns", "decide_tile"] +
                       [f"dam{i}" for i in range(1, 8)]})
    by = df.groupby("reason").turns.agg(["count", "mean"])
    for k, c in zip(END_KEYS, END_CODES):
        assert f["end_reasons"][k] == (int(by.loc[c, "count"]) if c in by.index else 0)
        assert f["end_turns_mean"][k] == (float(by.loc[c, "mean"]) if c in by.index else None)
    assert f["dams"]["damaged"] == [int((df[f"dam{i}"] >= 1).sum()) for i in range(1, 8)]
    assert f["dams"]["destroyed"] == [int((df[f"dam{i}"] == 2).sum()) for i in range(1, 8)]
    assert f["dams"]["decided"] == [int((df.decide_tile == i).sum()) for i in range(1, 8)]
    assert f == facts(Aggregate.of_records(rec, 2))


def test_dicethrone_damage_and_usage_tables_from_aggregates_equal_records():
    """Dice Throne's report tables (damage by source, what gets used) read per-seat sums:
    from chunk aggregates they equal the sums taken straight from the records, with each
    seat credited to the hero and strategy that sat there (both seat orders)."""
    from reports.dicethrone import damage_table, hero_sums, usage_table
    from simcore.dicethrone import model as M
    from strategies.dicethrone.bind import default_roster, play_range

    roster = default_roster()
    PY, PA = roster.index("pyromancer"), roster.index("paladin")   # roster indices
    contents = lambda lu: roster.content([roster.names[i] for i in lu])  # noqa: E731
    plan = [((PY, PA), ("greedy", "random")), ((PA, PY), ("greedy", "random"))]
    recs = [play_range(0, 90, 6, lu, st) for lu, st in plan]
    by_records = [Matchup(lu, st, r) for (lu, st), r in zip(plan, recs)]
    by_chunks = [Matchup(lu, st, Aggregate.total([Aggregate.of_records({k: np.asarray(v)[a:a + 37] for k, v in r.items()},
                                                                        2, "dicethrone") for a in range(0, 90, 37)], 2))
                 for (lu, st), r in zip(plan, recs)]
    s_rec, s_agg = hero_sums(by_records, 2, contents), hero_sums(by_chunks, 2, contents)
    assert s_rec == s_agg          # the sums, and the damage moments merged over the chunks
    assert "moments" in s_agg[(PY, "greedy")]
    # an aggregate kept without them (a run stored before they were reduced): shares, no interval
    old = hero_sums([Matchup(lu, st, Aggregate.of_records(r, 2)) for (lu, st), r in zip(plan, recs)], 2, contents)
    old_table = damage_table(old, [h.name for h in roster.heroes])
    assert old_table["ability share"].str.endswith("(no interval: stored without its moments for every game)").all()
    # a resumed run mixing chunks saved before the moments with chunks saved after: the
    # moments cover part of the games, so no interval (it was too narrow)
    mixed = hero_sums([Matchup(lu, st, Aggregate.total([Aggregate.of_records({k: np.asarray(v)[:40] for k, v in r.items()}, 2),
                                                        Aggregate.of_records({k: np.asarray(v)[40:] for k, v in r.items()},
                                                                             2, "dicethrone")], 2))
                       for (lu, st), r in zip(plan, recs)], 2, contents)
    mixed_table = damage_table(mixed, [h.name for h in roster.heroes])
    assert mixed_table["ability share"].str.endswith("(no interval: stored without its moments for every game)").all()
    hero_names = [h.name for h in roster.heroes]
    dt = damage_table(s_agg, hero_names).set_index(["hero", "strategy"])
    # the Pyromancer playing greedy sat in seat 0 of the first matchup only: its capped games
    assert dt.loc[(hero_names[PY], "greedy"), "capped (in games)"] == int(np.asarray(recs[0]["capped"]).sum())
    # by hand: the Pyromancer playing greedy sat in seat 0 of the first matchup only
    r = recs[0]
    acc = s_rec[(PY, "greedy")]
    assert acc["games"] == 90
    for src in M.SOURCES:
        assert acc[f"dmg_{src}"] == int(r[f"dmg_{src}0"].sum())
    assert acc["dmg_ability"] > 0 and acc["dmg_status"] > 0       # Burn is the Pyromancer's status
    assert sum(acc[f"uses{a}"] for a in range(M.MAX_AB)) == int(r["attacks0"].sum())
    assert sum(v for k, v in acc.items() if k.startswith("card:")) == int(r["cards0"].sum())
    # every decision spend is one token use (effects that spend tokens add their own uses)
    assert sum(v for k, v in acc.items() if k.startswith("tok:")) >= int(r["spends0"].sum())
    names = [h.name for h in roster.heroes]
    assert damage_table(s_rec, names).equals(damage_table(s_agg, names))
    # each share's interval, from the games' damage directly: the share of the summed damage,
    # the per-game residual x - share * total, and the delta method's half width over n games
    row = damage_table(s_rec, names).set_index(["hero", "strategy"]).loc[(names[PY], "greedy")]
    tot = sum(r[f"dmg_{src}0"].astype(float) for src in M.SOURCES)
    for src in M.SOURCES:
        x = r[f"dmg_{src}0"].astype(float)
        share = x.sum() / tot.sum()
        half = 1.959963984540054 * np.std(x - share * tot, ddof=1) / np.sqrt(90) / tot.mean()
        lo, hi = max(0.0, share - half), min(1.0, share + half)
        if share == 0:     # a source it never used: said so, not a zero-width interval
            assert row[f"{src} share"] == "0.0% (none)"
            continue
        assert row[f"{src} share"] == f"{100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    for h in range(2):
        content = roster.content((roster.names[h],))
        u_rec, u_agg = usage_table(s_rec, h, roster.names[h], content), usage_table(s_agg, h, roster.names[h], content)
        assert u_rec.equals(u_agg)
        assert {"ability", "card"} <= set(u_rec["kind"])
    assert "token" in set(usage_table(s_rec, PA, "paladin", roster.content(("paladin",)))["kind"])   # his tokens
    # the two report sections draw these tables, per hero
    from reports.dicethrone import sections
    from reports.html import Page

    res = RunResult("dicethrone", 6, 90, 2, by_chunks, list(roster.names), {}, {})
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        page = Page("t", d)
        for s in sections(res):
            s(page)
        text = page.write().read_text()
    for heading in ("Damage by source", "What gets used", "Pyromancer", "Paladin", "Fireball", "Crit"):
        assert heading in text, heading
