"""Throne Arcade report tables (outside review of the reports): the elimination order's
place shares carry their Wilson interval and n (A13), and game lengths are of the finished
games with the capped count beside them (A14): a capped game stops at the cap, so its
length is the cap's; the median and percentiles of turns too (``ArcadeAPI.reduce`` keeps
the finished games' histogram of turns). Checked against the concatenated records of a run
where some games are capped, through the chunked aggregates the report uses."""
import numpy as np
import pytest

from analysis import arcade as A
from analysis.aggregate import Aggregate
from analysis.execution import Execution
from analysis.metrics import mean_ci, rate
from analysis.runs import fmt_rate, lineups_for, play_chunk, run
from simcore.errors import PlaytestError
from simcore.game import get_game

P, N = 3, 240


@pytest.fixture(scope="module")
def played():
    api = get_game("arcade")
    rules = api.load_rules(None, {"max_turns_per_round": 150})
    setup = api.make_setup(rules, api.load_content(rules), P)
    plan = lineups_for("arcade", 0, P, ["greedy", "defensive"])[:2]
    res = run("arcade", setup, [], plan, N, 9, rules, api.load_rules(), execution=Execution(chunk_size=37))
    recs = [play_chunk(0, N, "arcade", setup, lu, st, 9, "kernel", False) for lu, st in plan]
    r = {k: np.concatenate([np.asarray(x[k]) for x in recs]) for k in recs[0]}
    return res.pooled(), r


def test_lengths_are_of_the_finished_games(played):
    agg, r = played
    done = ~r["capped"].astype(bool)
    assert 0 < (~done).sum() < done.sum()
    L = A.lengths(agg)
    assert L["capped"] == (~done).sum() and L["finished"] == done.sum() == L["turns"]["n"] == L["rounds"]["n"]
    turns, rounds = r["turns"].astype(np.int64)[done], r["rounds"].astype(np.int64)[done]
    assert L["turns"]["x"] == turns.mean() != r["turns"].mean()
    np.testing.assert_allclose(L["turns"]["x_ci"], mean_ci(turns)["x_ci"], rtol=1e-12)
    np.testing.assert_allclose(L["rounds"]["x_ci"], mean_ci(rounds)["x_ci"], rtol=1e-12)
    assert L["turns_per_round"] == turns.sum() / rounds.sum()
    assert L["last_round_turns"] == r["last_round_turns"].astype(np.int64)[done].mean()
    assert L["turns"]["median"] == np.median(turns) and L["turns"]["p5"] == np.percentile(turns, 5)
    assert L["turns"]["p95"] == np.percentile(turns, 95) != np.percentile(r["turns"], 95)
    # the ablation's change in length compares finished games too
    c = A.variant_change(agg, agg)
    assert c["turns"]["x"] == turns.mean() and c["turns_change"]["x"] == 0


def test_lengths_of_an_aggregate_without_the_finished_sums():
    """An aggregate stored before the finished-game sums: exact when nothing was capped,
    an error (not a silent all-games mean) when something was."""
    def agg_of(capped):
        rec = {"winner": np.array([0, 1, -1 if capped else 0], np.int8), "capped": np.array([0, 0, capped], bool),
               "first": np.zeros(3, np.int8), "turns": np.array([10, 20, 40]), "rounds": np.array([2, 3, 5], np.int16),
               "rounds_sq": np.array([4, 9, 25]), "last_round_turns": np.array([4, 6, 8], np.int16)}
        return Aggregate.of_records(rec, 2)

    L = A.lengths(agg_of(False))
    assert L["turns"]["x"] == 70 / 3 and L["rounds"]["x"] == 10 / 3 and L["last_round_turns"] == 6
    assert L["turns"]["median"] == 20 and L["turns"]["p95"] == np.percentile([10, 20, 40], 95)
    np.testing.assert_allclose(L["turns"]["x_ci"], mean_ci([10, 20, 40])["x_ci"], rtol=1e-12)
    with pytest.raises(PlaytestError, match="1 capped games") as e:
        A.lengths(agg_of(True))
    assert "\n" not in str(e.value) and "--resume" in str(e.value)


def test_place_shares_carry_interval_and_n(played):
    from reports import arcade as R

    agg, r = played
    done = ~r["capped"].astype(bool)
    w = r["winner"].astype(int)[done]
    rows = A.places(agg)
    table = R.place_table({"tournament": {P: agg}})
    assert list(table.columns) == ["players", "seat", "finished games (n)", "winner", "place 2", "out first",
                                   "mean place"]
    for s, row in enumerate(rows):
        place = np.where(w == s, 1, P - r[f"elim_order_{s}"].astype(int)[done] + 1)
        k = [int(np.count_nonzero(place == p)) for p in range(1, P + 1)]
        assert row["count"] == k and row["games"] == done.sum()
        assert row["share_ci"] == [rate(x, done.sum())["x_ci"] for x in k]
        line = table.iloc[s]
        assert line["finished games (n)"] == f"{done.sum():,}"
        assert line["winner"] == fmt_rate(k[0] / done.sum(), rate(k[0], done.sum())["x_ci"])
        assert line["out first"].endswith("]") and "[" in line["out first"]


def test_length_table_shows_finished_n_and_capped(played):
    from reports import arcade as R

    agg, r = played
    t = R.length_table({"tournament": {P: agg}}).iloc[0]
    done = ~r["capped"].astype(bool)
    assert t["finished games (n)"] == f"{done.sum():,}" and t["capped"] == f"{(~done).sum():,}"
    assert t["turns per game"].startswith(f"{r['turns'][done].mean():.2f} [")
    turns = r["turns"][done]
    assert t["median turns"] == f"{np.median(turns):.0f}"
    assert t["5th-95th percentile of turns"] == f"{np.percentile(turns, 5):.0f}-{np.percentile(turns, 95):.0f}"
    assert not [c for c in t.index if "every game" in c]


def test_finished_turns_histogram_from_chunks_equals_the_records(played):
    """``ArcadeAPI.reduce``: the finished games' histogram of turns, summed over chunks of
    the concatenated records (``Aggregate.of_records`` on slices, ``Aggregate.total``), is
    ``np.bincount`` of their turns, and the lengths from it equal those of the run."""
    agg, r = played
    done = ~r["capped"].astype(bool)
    want = np.bincount(r["turns"].astype(np.int64)[done])
    parts = [Aggregate.of_records({k: v[a:a + 53] for k, v in r.items()}, P, "arcade")
             for a in range(0, r["winner"].size, 53)]
    total = Aggregate.total(parts, P)
    for a in (agg, total):
        h = A.finished_turns(a)
        np.testing.assert_array_equal(h[:want.size], want)
        assert not h[want.size:].any() and int(h.sum()) == done.sum()
    assert A.lengths(total) == A.lengths(agg)


def test_stored_run_without_the_finished_turns():
    """A run stored before ``turns_finished`` (its chunks reduced without it, the JSON the
    store keeps): with capped games, a one-line error instead of every game's median; with
    none, the median of every game, which is the finished games' one. A resumed run whose
    older chunks lack it and had capped games: the same error, not a median of part of
    the games."""
    api = get_game("arcade")
    rules = api.load_rules(None, {"max_turns_per_round": 150})
    setup = api.make_setup(rules, api.load_content(rules), P)
    lu, st = lineups_for("arcade", 0, P, ["greedy", "defensive"])[0]
    rec = play_chunk(0, 120, "arcade", setup, lu, st, 9, "kernel", False)
    cap = rec["capped"].astype(bool)
    assert cap.any()

    def old(rec):
        a = Aggregate.of_records(rec, P, "arcade")
        del a.hists["turns_finished"]
        return Aggregate.from_json(a.to_json())

    with pytest.raises(PlaytestError, match="capped games but not the finished games' turns"):
        A.lengths(old(rec))
    first = int(np.argmax(cap))
    mixed = Aggregate.total([old({k: v[:first + 1] for k, v in rec.items()}),
                             Aggregate.of_records({k: v[first + 1:] for k, v in rec.items()}, P, "arcade")], P)
    with pytest.raises(PlaytestError, match="rerun it without --resume"):
        A.lengths(mixed)
    fin = {k: v[~cap] for k, v in rec.items()}          # no capped game: read as before
    L = A.lengths(old(fin))
    assert L == A.lengths(Aggregate.of_records(fin, P, "arcade"))
    assert L["turns"]["median"] == np.median(rec["turns"][~cap])


def test_record_bytes_cover_the_derived_fields():
    """``record_bytes``: the record fields and ``game`` at 8 bytes each (+ 3 spare), then
    every field of ``simcore.arcade.derived.DERIVED`` at no less than its real size."""
    from simcore.arcade.model import N_FIELDS

    api = get_game("arcade")
    rules = api.load_rules()
    setup = api.make_setup(rules, api.load_content(rules), P)
    rec = api.play(0, 4, 1, setup, tuple(range(P)), ("greedy",) * P)
    derived = sum(np.asarray(rec[k]).nbytes // 4 for k in A.DERIVED)
    assert derived == 8 * 7 + 6 + 6 * 6       # 7 int64 and 6 bool fields, and the int8 place grid
    assert api.record_bytes(setup) - 8 * (N_FIELDS + 4) >= derived
    assert api.record_bytes(setup) >= sum(np.asarray(v).nbytes // 4 for v in rec.values())


def test_revives_are_of_the_finished_games(played):
    """The skull VII table (final review: it counted capped games, whose revivals stop at
    the cap): share of finished games with a revival, revivals per finished game and per
    round of the finished games, with n and the capped count."""
    agg, r = played
    done = ~r["capped"].astype(bool)
    rev, rounds = r["revives"].astype(np.int64)[done], r["rounds"].astype(np.int64)[done]
    rv = A.revives(agg)
    assert (rv["finished"], rv["capped"]) == (done.sum(), (~done).sum())
    assert rv["games_with_revive"] == rate(np.count_nonzero(rev > 0), done.sum())
    np.testing.assert_allclose(rv["per_game"]["x_ci"], mean_ci(rev)["x_ci"], rtol=1e-12)
    assert rv["per_round"] == rev.sum() / rounds.sum()


def test_a_resume_mixing_old_and_new_chunks_is_refused_when_games_were_capped(played):
    """Chunks saved before the finished-game sums, merged with chunks saved after: with
    capped games the sums cover only part of the finished games, so every finished-game
    figure is refused in one line (it averaged part of the games over all of them); with
    none capped, the whole-run sums serve and the figures are exact."""
    _, r = played
    n = r["winner"].size
    half = n // 2

    def chunk(a, b, old):
        rec = {k: np.asarray(v)[a:b] for k, v in r.items()}
        if old:
            rec = {k: v for k, v in rec.items() if not k.startswith("done_")}
        return Aggregate.of_records(rec, P)

    mixed = Aggregate.total([chunk(0, half, True), chunk(half, n, False)], P)
    assert mixed.capped > 0
    for fn in (A.lengths, A.revives):
        with pytest.raises(PlaytestError, match="rerun it without --resume") as e:
            fn(mixed)
        assert "\n" not in str(e.value)
    # no capped game: exact from the whole-run sums, however the chunks were saved
    keep = ~r["capped"].astype(bool)
    fin = {k: np.asarray(v)[keep] for k, v in r.items()}
    m = int(keep.sum())
    parts = [Aggregate.of_records({k: (v[:m // 2] if not k.startswith("done_") else None) for k, v in fin.items()
                                   if not k.startswith("done_")}, P),
             Aggregate.of_records({k: v[m // 2:] for k, v in fin.items()}, P)]
    L = A.lengths(Aggregate.total(parts, P))
    assert L["turns"]["x"] == fin["turns"].astype(np.int64).mean()
    assert L["rounds"]["x"] == fin["rounds"].astype(np.int64).mean()
