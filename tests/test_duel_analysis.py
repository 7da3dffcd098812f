"""Dice duel tournament analysis (analysis.duel) and designer report (reports.duel):
table arithmetic on hand-made records, the mirror 50% property, the JSON shape, the
sidecar, a self-contained report, and one small real tournament through the pipeline."""
from __future__ import annotations

import json
import re
import sys
import types
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest

from analysis import duel as ad
from analysis.stats import wilson
from simcore import __version__
from simcore.duel.model import MAX_ABILITIES, load_setup

PNGS = ("matchup_heatmap", "hero_win_rates", "first_player", "game_lengths", "ability_activations")


@dataclass
class FakeRun:
    """The shape of ``simcore.duel.model.MatchupRun`` (synthetic records)."""
    heroes: list
    pairs: list
    records: dict
    games: int
    seed: int = 11
    strategy: str = "synthetic"
    rules: dict = field(default_factory=lambda: {"turn_cap": 200, "mirror_matches": True})
    engine: str = "kernel"
    setup: object = None


def rec(winner, first, turns, timeout=None, abilities=None, bought=None):
    n = len(winner)
    return {
        "winner": np.asarray(winner, np.int8), "first": np.asarray(first, np.int8),
        "turns": np.asarray(turns, np.int32),
        "hp": np.zeros((n, 2), np.int32), "cp": np.zeros((n, 2), np.int32),
        "timeout": np.zeros(n, bool) if timeout is None else np.asarray(timeout, bool),
        "abilities": np.zeros((n, 2, MAX_ABILITIES), np.int32) if abilities is None
        else np.asarray(abilities, np.int32),
        "bought": np.zeros((n, 2), np.int32) if bought is None else np.asarray(bought, np.int32),
    }


def hand_run() -> FakeRun:
    """Two heroes, 4 games per seating, every ordered pair including mirrors."""
    ab01 = np.zeros((4, 2, MAX_ABILITIES), np.int32)
    ab01[:, 0, 0] = [1, 2, 1, 0]      # Alpha (seat 0) ability 1: 4 times
    ab01[:, 0, 2] = [0, 0, 1, 1]      # Alpha ability 3: 2 times
    ab01[:, 1, 1] = [1, 1, 1, 1]      # Beta (seat 1) ability 2: 4 times
    ab10 = np.zeros((4, 2, MAX_ABILITIES), np.int32)
    ab10[:, 1, 0] = [1, 1, 0, 0]      # Alpha (seat 1) ability 1: 2 times
    records = {
        (0, 1): rec([0, 0, 1, -1], [0, 1, 0, 1], [3, 4, 5, 200], [0, 0, 0, 1], ab01,
                    bought=[[1, 0], [0, 0], [2, 0], [0, 0]]),
        (1, 0): rec([1, -1, 1, 0], [0, 0, 1, 1], [6, 7, 8, 9], [0, 1, 0, 0], ab10),
        (0, 0): rec([0, 1, 0, -1], [0, 0, 1, 0], [2, 3, 4, 5]),
        (1, 1): rec([1, 1, 0, 0], [1, 0, 0, 0], [10, 10, 10, 10]),
    }
    return FakeRun(["Alpha", "Beta"], [(0, 0), (0, 1), (1, 0), (1, 1)], records, 4)


def random_run(H=3, n=400, p_seat0=0.7, mirrors=True, seed=1, first_mode="seat0") -> FakeRun:
    """Synthetic tournament with a strong seat-0 bias and per-hero strength."""
    rng = np.random.default_rng(seed)
    pairs = [(a, b) for a in range(H) for b in range(H) if a != b or mirrors]
    records = {}
    for a, b in pairs:
        p0 = np.clip(p_seat0 + 0.1 * (b - a), 0.05, 0.95)
        u = rng.random(n)
        winner = np.where(u < 0.05, -1, np.where(u < 0.05 + 0.95 * p0, 0, 1))
        first = np.zeros(n) if first_mode == "seat0" else rng.integers(0, 2, n)
        turns = rng.integers(4, 40, n)
        to = (winner == -1) & (rng.random(n) < 0.5)
        turns[to] = 200
        ab = rng.integers(0, 3, (n, 2, MAX_ABILITIES))
        ab[:, :, 5:] = 0
        records[(a, b)] = rec(winner, first, turns, to, ab)
    return FakeRun([f"Hero{i}" for i in range(H)], pairs, records, n,
                   rules={"turn_cap": 200, "mirror_matches": mirrors})


# ---------------------------------------------------------------- arithmetic
def test_matchup_table_hand_computed():
    m = ad.matchup_table(hand_run()).set_index(["hero", "opponent"])
    ab = m.loc[("Alpha", "Beta")]
    # (0,1) seat 0: W W L D ; (1,0) seat 1: W D W L  -> 4 W, 2 D, 2 L of 8
    assert (ab.games, ab.distinct_games, ab.wins, ab.draws, ab.losses) == (8, 8, 4, 2, 2)
    assert ab.win_rate == pytest.approx(5 / 8)
    lo, hi = wilson(5, 8)
    assert (ab.ci_low, ab.ci_high) == pytest.approx((lo, hi))
    assert ab.edge_pp == pytest.approx(12.5)
    assert not ab.significant  # 8 games cannot exclude 50%
    # Alpha moving first: (0,1) games 0 (win), 2 (loss); (1,0) games 2 (win), 3 (loss)
    assert (ab.win_rate_first, ab.games_first) == (pytest.approx(0.5), 4)
    assert (ab.win_rate_second, ab.games_second) == (pytest.approx(0.75), 4)
    assert (ab.first_ci_low, ab.first_ci_high) == pytest.approx(wilson(2, 4))
    assert (ab.second_ci_low, ab.second_ci_high) == pytest.approx(wilson(3, 4))
    # first player: (0,1) wins game 0, draws game 3; (1,0) wins game 2, draws game 1
    assert ab.first_player_win_rate == pytest.approx(3 / 8)
    assert (ab.fp_ci_low, ab.fp_ci_high) == pytest.approx(wilson(3, 8))
    assert ab.timeouts == 2 and ab.timeout_rate == pytest.approx(0.25)
    assert ab.mean_turns == pytest.approx(242 / 8)
    assert ab.median_turns == pytest.approx(6.5)

    ba = m.loc[("Beta", "Alpha")]
    assert (ba.wins, ba.draws, ba.losses) == (2, 2, 4)
    assert ba.win_rate == pytest.approx(3 / 8)
    assert ba.first_player_win_rate == pytest.approx(3 / 8)

    aa = m.loc[("Alpha", "Alpha")]
    # both seats of one run: 3 decisive games seen as a win and a loss, 1 draw seen twice
    assert (aa.games, aa.distinct_games, aa.wins, aa.draws, aa.losses) == (8, 4, 3, 2, 3)
    assert aa.win_rate == 0.5
    assert (aa.ci_low, aa.ci_high) == pytest.approx(wilson(2, 4))
    assert aa.first_player_win_rate == pytest.approx(1.5 / 4)
    assert aa.win_rate_first == pytest.approx(1.5 / 4)
    assert aa.win_rate_second == pytest.approx(2.5 / 4)
    # a mirror's games are each seen once moving first and once moving second
    assert (aa.games_first, aa.games_second) == (4, 4)
    assert (aa.first_ci_low, aa.first_ci_high) == pytest.approx(wilson(1.5, 4))
    assert (aa.second_ci_low, aa.second_ci_high) == pytest.approx(wilson(2.5, 4))


def test_hero_first_player_length_tables_hand_computed():
    run = hand_run()
    ht = ad.hero_table(run).set_index("hero")
    assert ht.loc["Alpha", "win_rate"] == pytest.approx(5 / 8)
    assert (ht.loc["Alpha", "ci_low"], ht.loc["Alpha", "ci_high"]) == pytest.approx(wilson(5, 8))
    assert ht.loc["Beta", "win_rate"] == pytest.approx(3 / 8)
    assert ht.loc["Alpha", "games"] == 8  # the mirror is excluded
    assert (ht.loc["Alpha", "best_vs"], ht.loc["Alpha", "worst_vs"]) == ("Beta", "Beta")
    # Alpha's own turns: (0,1) seat 0, first [0,1,0,1], turns [3,4,5,200] -> 2+2+3+100;
    # (1,0) seat 1, first [0,0,1,1], turns [6,7,8,9] -> 3+3+4+5
    assert ht.loc["Alpha", "attacks_per_turn"] == pytest.approx((6 + 2) / (107 + 15))
    assert ht.loc["Alpha", "bought_rolls_per_turn"] == pytest.approx(3 / 122)
    # moving first: 2 of 4 games (Alpha-Beta row above), moving second 3 of 4
    a = ht.loc["Alpha"]
    assert (a.games_first, a.games_second) == (4, 4)
    assert (a.first_ci_low, a.first_ci_high) == pytest.approx(wilson(2, 4))
    assert (a.second_ci_low, a.second_ci_high) == pytest.approx(wilson(3, 4))

    fp = ad.first_player_table(run)
    assert list(zip(fp.hero_a, fp.hero_b)) == [("Alpha", "Alpha"), ("Alpha", "Beta"),
                                                ("Beta", "Beta"), ("all", "all")]
    allr = fp.iloc[-1]
    # first-player wins: (0,1) 1, (1,0) 1, (0,0) 1, (1,1) games 0, 2, 3 -> 3; draws 1+1+1+0
    assert (allr.games, allr.first_wins, allr.draws) == (16, 6, 3)
    # outside review B: the capped games among the draws, per matchup and overall
    assert allr.timeouts == 2 and fp.timeouts.tolist() == [0, 2, 0, 2]
    assert allr.first_player_win_rate == pytest.approx(7.5 / 16)
    assert (allr.ci_low, allr.ci_high) == pytest.approx(wilson(7.5, 16))
    assert allr.edge_pp == pytest.approx(100 * (7.5 / 16 - 0.5))

    lt = ad.length_table(run)
    ab = lt[(lt.hero_a == "Alpha") & (lt.hero_b == "Beta")]
    assert ab.turns.tolist() == [3, 4, 5, 6, 7, 8, 9, 200]
    assert ab.games.sum() == 8 and ab.share.sum() == pytest.approx(1.0)
    assert ab.set_index("turns").loc[200, "timeouts"] == 1
    bb = lt[(lt.hero_a == "Beta") & (lt.hero_b == "Beta")]
    assert bb.turns.tolist() == [10] and bb.games.tolist() == [4]


def test_seat_turns_split():
    r = rec([0, 0, 0], [0, 1, 0], [5, 5, 1])
    assert ad.seat_turns(r, 0).tolist() == [3, 2, 1]
    assert ad.seat_turns(r, 1).tolist() == [2, 3, 0]


def test_ability_table_hand_computed():
    run = hand_run()
    at = ad.ability_table(run)
    a = at[at.hero == "Alpha"].set_index("ability")
    # Alpha: games = 4 + 4 + 8 (both mirror seats); turns = 107 + 15 + mirror (3+2+2+3 seats...)
    mirror_turns = sum(int(ad.seat_turns(run.records[(0, 0)], s).sum()) for s in (0, 1))
    turns = 107 + 15 + mirror_turns
    assert list(a.index) == ["ability 1", "ability 2", "ability 3", "(no attack)"]
    assert a.loc["ability 1", "activations"] == 6
    assert a.loc["ability 3", "activations"] == 2
    assert a.loc["ability 2", "activations"] == 0
    assert a.loc["ability 1", "games"] == 16 and a.loc["ability 1", "hero_turns"] == turns
    assert a.loc["ability 1", "per_turn"] == pytest.approx(6 / turns)
    assert a.loc["ability 1", "per_game"] == pytest.approx(6 / 16)
    assert a.loc["ability 1", "share_of_attacks"] == pytest.approx(6 / 8)
    # outside review A10: the share carries its interval and n (the hero's 8 attacks)
    assert a.loc["ability 1", "attacks"] == 8
    assert (a.loc["ability 1", "share_ci_low"], a.loc["ability 1", "share_ci_high"]) == pytest.approx(wilson(6, 8))
    assert (a.loc["ability 2", "share_ci_low"], a.loc["ability 2", "share_ci_high"]) == pytest.approx(wilson(0, 8))
    assert a.loc["(no attack)", "activations"] == turns - 8
    b = at[at.hero == "Beta"].set_index("ability")
    assert b.loc["ability 2", "activations"] == 4
    assert b.loc["ability 2", "share_of_attacks"] == pytest.approx(1.0)


def test_ability_names_from_setup():
    setup = load_setup()
    run = random_run(H=len(setup.heroes), n=20)
    run.heroes = [h.name for h in setup.heroes]
    run.setup = setup
    at = ad.ability_table(run)
    for h in setup.heroes:
        names = at[at.hero == h.name].ability.tolist()
        assert names == [a.name for a in h.abilities] + ["(no attack)"]


# ---------------------------------------------------------------- properties
def test_mirrors_are_50_percent_once_seats_are_averaged():
    # seat 0 wins ~70% and always moves first: the mirror row must still be exactly 50%,
    # and the bias must show up as the first-player rate instead
    run = random_run(H=3, n=500, p_seat0=0.7)
    m = ad.matchup_table(run)
    mir = m[m.mirror]
    assert len(mir) == 3
    assert (mir.win_rate == 0.5).all()
    assert (mir.wins == mir.losses).all()
    assert (mir.ci_low < 0.5).all() and (mir.ci_high > 0.5).all()
    assert (mir.first_player_win_rate > 0.6).all()
    assert not mir.significant.any()
    # the raw seat-0 score of a mirror run is far from 50%: averaging seats is what fixes it
    r = run.records[(1, 1)]
    seat0 = (np.count_nonzero(r["winner"] == 0) + 0.5 * np.count_nonzero(r["winner"] == -1)) / 500
    assert seat0 > 0.6
    # non-mirror: A vs B and B vs A are complementary, seat bias cancels out
    s = m[~m.mirror].set_index(["hero_idx", "opponent_idx"]).win_rate
    for (a, b), v in s.items():
        assert v + s[(b, a)] == pytest.approx(1.0)


def test_hero_rate_is_equal_weight_mean_of_matchups():
    run = random_run(H=4, n=300, first_mode="lot", seed=5)
    # make one matchup bigger: equal weight per matchup must ignore its size
    big = random_run(H=4, n=900, first_mode="lot", seed=6).records
    run.records[(0, 1)], run.records[(1, 0)] = big[(0, 1)], big[(1, 0)]
    m = ad.matchup_table(run)
    ht = ad.hero_table(run, m).set_index("hero_idx")
    for h in range(4):
        rates = m[(m.hero_idx == h) & ~m.mirror].win_rate
        assert ht.loc[h, "win_rate"] == pytest.approx(rates.mean())
    assert ht.win_rate.mean() == pytest.approx(0.5)


# ---------------------------------------------------------------- JSON and files
def test_matrix_json_shape():
    run = hand_run()
    j = ad.matrix_json(run)
    text = json.dumps(j, allow_nan=False)  # strict JSON
    j = json.loads(text)
    assert j["heroes"] == ["Alpha", "Beta"]
    assert j["win_rate"] == [[0.5, pytest.approx(5 / 8)], [pytest.approx(3 / 8), 0.5]]
    assert np.array(j["win_rate_ci"]).shape == (2, 2, 2)
    assert j["win_rate_ci"][0][1] == pytest.approx(list(wilson(5, 8)))
    assert j["games"] == [[4, 8], [8, 4]]
    assert j["first_player_win_rate"] == pytest.approx(7.5 / 16)
    assert j["first_player_win_rate_ci"] == pytest.approx(list(wilson(7.5, 16)))
    assert j["hero_win_rate"] == [pytest.approx(5 / 8), pytest.approx(3 / 8)]
    assert j["timeouts"] == 2
    assert (j["seed"], j["strategy"], j["games_per_matchup"]) == (11, "synthetic", 4)
    assert j["package_version"] == __version__


def test_matrix_json_without_mirrors_has_null_diagonal():
    run = random_run(H=3, n=50, mirrors=False)
    j = json.loads(json.dumps(ad.matrix_json(run), allow_nan=False))
    assert [j["win_rate"][i][i] for i in range(3)] == [None, None, None]
    assert j["games"][0][0] == 0 and j["games"][0][1] == 100
    assert all(j["win_rate"][i][k] is not None for i in range(3) for k in range(3) if i != k)


def test_mirror_only_run():
    run = random_run(H=1, n=30)
    assert ad.hero_table(run).empty
    lines = ad.balance_summary(run)
    assert lines[0].startswith("Only mirror matches were played (30 games each)")
    j = json.loads(json.dumps(ad.matrix_json(run), allow_nan=False))
    assert j["win_rate"] == [[0.5]] and j["hero_win_rate"] == [None] and j["games"] == [[30]]


def test_write_results_tables_and_sidecar(tmp_path):
    run = random_run(H=3, n=200)
    paths = ad.write_results(run, tmp_path / "out")
    out = tmp_path / "out"
    for name in ad.TABLES:
        csv, pq = out / f"{name}.csv", out / f"{name}.parquet"
        assert csv in paths and pq in paths
        back = pd.read_parquet(pq)
        assert len(back) == len(pd.read_csv(csv)) > 0
    m = pd.read_parquet(out / "matchups.parquet")
    pd.testing.assert_frame_equal(m, ad.matchup_table(run), check_dtype=False)
    side = json.loads((out / "run.json").read_text())
    assert side["seed"] == 11 and side["games_per_matchup"] == 200
    assert side["strategy"] == "synthetic"
    assert side["rules"] == {"turn_cap": 200, "mirror_matches": True}
    assert side["package_version"] == __version__
    assert side["tables"] == sorted(ad.TABLES)
    assert side["summary"] and all(isinstance(s, str) for s in side["summary"])
    assert json.loads((out / "matrix.json").read_text())["heroes"] == run.heroes


def test_balance_summary_flags_and_numbers():
    run = random_run(H=3, n=1000, first_mode="seat0", seed=3)
    m = ad.matchup_table(run)
    ht = ad.hero_table(run, m)
    lines = ad.balance_summary(run, m, ht)
    text = "\n".join(lines)
    strong = ht.loc[ht.win_rate.idxmax()]
    weak = ht.loc[ht.win_rate.idxmin()]
    assert strong.significant and weak.significant
    assert f"{strong.hero} is too strong: it wins {100 * strong.win_rate:.1f}%" in text
    assert f"{weak.hero} is too weak: it wins {100 * weak.win_rate:.1f}%" in text
    # the spread as the difference of the two rates as printed
    assert f"{round(100 * strong.win_rate, 1) - round(100 * weak.win_rate, 1):.1f} points" in text
    top = m[~m.mirror].loc[m[~m.mirror].win_rate.idxmax()]
    assert f"Most lopsided matchup: {top.hero} beats {top.opponent} {100 * top.win_rate:.1f}%" in text
    assert "Turn order matters: the first player scores" in text
    assert "hit the turn cap of 200" in text
    # a balanced, bias-free run flags nothing
    even = random_run(H=2, n=50, p_seat0=0.5, first_mode="lot", seed=4)
    for r in even.records.values():
        r["winner"][:] = np.tile([0, 1], 25)
        r["first"][:] = np.tile([0, 0, 1, 1], 13)[:50]
        r["timeout"][:] = False
    text = "\n".join(ad.balance_summary(even))
    assert "too strong" not in text and "too weak" not in text
    assert "No matchup is off 50% beyond noise" in text
    assert "No measurable first-player edge" in text
    assert "No game reached the turn cap" in text


def test_summary_best_and_worst_matchups_carry_interval_and_n():
    """Outside review A6: '(best vs X: 100.0%)' was printed without interval or n."""
    from analysis.runs import fmt_rate

    run = random_run(H=3, n=1000, first_mode="seat0", seed=3)
    m = ad.matchup_table(run)
    ht = ad.hero_table(run, m)
    text = "\n".join(ad.balance_summary(run, m, ht))
    strong = ht.loc[ht.win_rate.idxmax()]
    weak = ht.loc[ht.win_rate.idxmin()]
    for r, which in ((strong, "best"), (weak, "worst")):
        row = m[(m.hero == r.hero) & (m.opponent == r[f"{which}_vs"])].iloc[0]
        assert (r[f"{which}_ci_low"], r[f"{which}_ci_high"]) == (row.ci_low, row.ci_high)
        assert r[f"{which}_games"] == row.distinct_games == 2000
        want = (f"({which} vs {row.opponent}: {fmt_rate(row.win_rate, (row.ci_low, row.ci_high))} "
                f"over 2,000 games).")
        assert want in text, want
    # hand-made: Alpha's only matchup is Beta, 5 of 8 (Wilson on 8 distinct games)
    ha = ad.hero_table(hand_run()).set_index("hero").loc["Alpha"]
    assert (ha.best_ci_low, ha.best_ci_high) == pytest.approx(wilson(5, 8)) and ha.best_games == 8


def test_skill_table_shows_timeouts_and_n(tmp_path):
    """Outside review A9: the skill-level table had no capped games and printed only the
    games per seating, not the n each rate rests on."""
    from reports.duel import _fmt_skill, skill_section
    from reports.html import Page

    runs = {"greedy": random_run(H=3, n=200, seed=7), "random": random_run(H=3, n=100, seed=8)}
    sk = ad.skill_table(runs)
    for name, run in runs.items():
        m = ad.matchup_table(run)
        for r in sk[sk.strategy == name].itertuples():
            nm = m[(m.hero == r.hero) & ~m.mirror]
            assert r.games == nm.distinct_games.sum() == 4 * run.games
            assert r.timeouts == nm.timeouts.sum() > 0      # random_run caps some draws
        assert (sk[sk.strategy == name].tournament_timeouts
                == sum(int(np.count_nonzero(x["timeout"])) for x in run.records.values())).all()
    out = _fmt_skill(sk)
    assert list(out.strategy) == ["random"] * 3 + ["greedy"] * 3      # skill order
    row = sk[sk.strategy == "random"].iloc[0]
    assert out["games (n)"].iloc[0] == "400" and out["timeouts (as draws)"].iloc[0] == f"{row.timeouts:,}"
    page = Page("t", tmp_path)
    skill_section(sk)(page)
    html = "".join(page.parts)
    assert "timeouts (as draws)" in html and "games (n)" in html
    tot = sk[sk.strategy == "greedy"].iloc[0]
    assert f"greedy: {tot.tournament_timeouts:,} of {tot.tournament_games:,} games" in html
    assert "count as draws, i.e. half a win" in html


# ---------------------------------------------------------------- report
def test_ability_share_of_attacks_printed_with_interval_and_n(tmp_path, monkeypatch):
    """Outside review A10: 'share of attacks' was a bare percentage."""
    from analysis.runs import fmt_rate
    from reports import duel as rd

    monkeypatch.setitem(sys.modules, "reports.odds", None)
    import re

    html = rd.build_report(hand_run(), tmp_path / "rep").read_text()
    cells = re.sub(r'<span class="ci">([^<]*)</span>', r"\1", html)     # the interval's no-break span
    assert f"<td>{fmt_rate(6 / 8, wilson(6, 8), 8)}</td>" in cells        # Alpha, ability 1
    assert "own turns, 8 attacks (the n of &#x27;share of attacks&#x27;" in html


def test_hero_table_rates_carry_interval_and_n():
    """Outside review A8: best/worst matchup and moving first/second were bare percentages."""
    from analysis.runs import fmt_rate
    from reports.duel import _fmt_heroes

    out = _fmt_heroes(ad.hero_table(hand_run())).set_index("hero")
    lo, hi = wilson(5, 8)
    assert out.loc["Alpha", "best matchup"] == f"vs Beta {fmt_rate(5 / 8, (lo, hi), 8)}"
    assert out.loc["Alpha", "worst matchup"].endswith("(n=8)")
    assert out.loc["Alpha", "moving first"] == fmt_rate(0.5, wilson(2, 4), 4)
    assert out.loc["Alpha", "moving second"] == fmt_rate(0.75, wilson(3, 4), 4)
    assert out.loc["Alpha", "moving first"].endswith("] (n=4)")
    assert out.loc["Alpha", "timeouts (as draws)"] == "2"     # games 3 of run (0,1), 1 of (1,0)


def test_bar_charts_start_at_zero():
    """Issue 33: the hero and first-player bar charts cut their axis at 40% or below the
    lowest interval, so a bar's length was not its rate (55% drawn three times as long as
    45%). Both axes now start at zero."""
    import matplotlib.pyplot as plt

    from reports.duel import first_player_figure, hero_figure

    run = random_run(H=3, n=400, seed=5)
    for fig in (hero_figure(ad.hero_table(run)), first_player_figure(ad.first_player_table(run))):
        lo, hi = fig.axes[0].get_xlim()
        assert lo == 0.0 and hi >= 100.0
        plt.close(fig)


def test_a_table_column_prints_one_number_of_decimals():
    """Issue 33: a column read '0.7' in one row and '0.814' in the next (trailing zeros
    stripped per value); every row of a column now has the decimals the column needs."""
    from reports.html import Page

    page = Page("t", "/tmp/playtest-test-page")
    page.table(pd.DataFrame({"ability": ["a", "b", "c"], "chance": [0.7, 0.814, 0.05], "turns": [12.5, 3.0, 7.0],
                             "n": [10, 20, 30]}))
    html = page.parts[-1]
    for cell in ("0.700", "0.814", "0.050", "12.5", "3.0", "7.0"):
        assert f"<td>{cell}</td>" in html, cell
    assert "<td>0.7</td>" not in html and "<td>3</td>" not in html


def test_hero_tables_fit_the_text_column(tmp_path, monkeypatch):
    """Issue 33: the hero table (twelve columns, five of them a rate with its interval) was
    wider than the page's text column in a real browser: it is now two tables of at most
    eight columns, the rates with an interval at most four per table, every column kept."""
    from reports import duel as rd

    monkeypatch.setitem(sys.modules, "reports.odds", None)
    html = rd.build_report(random_run(H=3, n=200), tmp_path / "rep").read_text()
    part = html.split("Hero win rates against the field")[1].split("<h2>")[0]
    tables = re.findall(r"<table.*?</table>", part, re.S)
    assert len(tables) == 2
    heads = [re.findall(r"<th>(.*?)</th>", t) for t in tables]
    assert all(len(h) <= 8 for h in heads)
    full = rd._fmt_heroes(ad.hero_table(random_run(H=3, n=200)))
    assert set(heads[0]) | set(heads[1]) == set(full.columns)
    for t in tables:
        row = re.findall(r"<tr>(.*?)</tr>", t.split("<tbody>")[1], re.S)[0]
        assert row.count('class="ci"') <= 4


def test_first_player_table_shows_timeouts():
    """Outside review B: the first-player W / D / L had no timeouts column."""
    from reports.duel import _fmt_first

    out = _fmt_first(ad.first_player_table(hand_run()))
    assert out["timeouts (of the draws)"].tolist() == ["0", "2", "0", "2"]
    assert out["first W / D / L"].iloc[-1] == "6 / 3 / 7"


def _check_report(path):
    html = path.read_text()
    srcs = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "<script" not in html and "<link" not in html and "url(" not in html
    for name in PNGS:
        png = path.parent / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    return html


def test_report_self_contained_with_pngs(tmp_path, monkeypatch):
    from reports import duel as rd

    monkeypatch.setitem(sys.modules, "reports.odds", None)  # the odds module is absent
    run = random_run(H=3, n=200)
    calls = []
    path = rd.build_report(run, tmp_path / "rep", extra_sections=[
        lambda page: (calls.append(page), page.heading("Extra section"))])
    assert path.name == "report.html" and len(calls) == 1
    html = _check_report(path)
    for text in ("Summary: what is out of balance", "Extra section", "How this was made",
                 "Definitions", "Ability activations", "seed: 11", "strategy: synthetic",
                 "playtest report duel --games 200 --seed 11 --strategy synthetic", __version__):
        assert text in html, text
    assert html.index("Summary") < html.index("Matchups") < html.index("How this was made")
    assert html.count("<img") == len(PNGS)


def test_report_calls_odds_section_and_keeps_its_errors(tmp_path, monkeypatch):
    from reports import duel as rd

    setup = load_setup()
    seen = []
    fake = types.ModuleType("reports.odds")
    fake.add_odds_section = lambda page, s: (seen.append(s), page.heading("Odds from fake"))
    monkeypatch.setitem(sys.modules, "reports.odds", fake)
    run = random_run(H=2, n=40)
    path = rd.build_report(run, tmp_path / "a", setup=setup)
    assert seen == [setup] and "Odds from fake" in path.read_text()

    def boom(page, s):
        raise ValueError("odds bug")

    fake.add_odds_section = boom
    with pytest.raises(ValueError, match="odds bug"):
        rd.build_report(run, tmp_path / "b", setup=setup)


def test_reproduce_command_lists_changed_rules():
    from reports.duel import reproduce_command
    from simcore.duel.model import default_rules

    rules = default_rules()
    rules.update(turn_cap=50, first_player="seat0", mirror_matches=False)
    run = FakeRun(["A"], [], {}, 100, seed=3, strategy="greedy", rules=rules, engine="reference")
    cmd = reproduce_command(run, out_dir="rep")
    assert cmd == ("playtest report duel --games 100 --seed 3 --strategy greedy --engine reference "
                   "--set 'first_player=\"seat0\"' --set mirror_matches=false --set turn_cap=50 --out rep")


# ---------------------------------------------------------------- real run
def test_real_tournament_through_the_pipeline(tmp_path):
    import strategies.duel.bind as run_mod  # the project's own module: a broken import must fail
    from reports.duel import build_report

    setup = load_setup()
    run = run_mod.run_matchups(setup, "greedy", 200, seed=2024)
    H = len(setup.heroes)
    m = ad.matchup_table(run)
    assert len(m) == H * H  # mirrors on by default
    assert (m[m.mirror].win_rate == 0.5).all()
    nm = m[~m.mirror]
    assert (nm.distinct_games == 400).all() and (m[m.mirror].distinct_games == 200).all()
    assert ((nm.wins + nm.draws + nm.losses) == nm.games).all()
    s = nm.set_index(["hero_idx", "opponent_idx"]).win_rate
    assert all(v + s[(b, a)] == pytest.approx(1.0) for (a, b), v in s.items())
    at = ad.ability_table(run)
    assert set(at.ability) >= {a.name for h in setup.heroes for a in h.abilities}
    assert (at.groupby("hero").activations.sum() == at.groupby("hero").hero_turns.first()).all()
    j = json.loads(json.dumps(ad.matrix_json(run, m), allow_nan=False))
    assert j["heroes"] == [h.name for h in setup.heroes]
    assert np.array(j["win_rate_ci"], dtype=float).shape == (H, H, 2)
    assert j["games_per_matchup"] == 200 and j["strategy"] == "greedy" and j["seed"] == 2024
    assert 0 < j["first_player_win_rate"] < 1
    ad.write_results(run, tmp_path)
    assert json.loads((tmp_path / "run.json").read_text())["rules"] == setup.rules
    html = _check_report(build_report(run, tmp_path))
    for h in setup.heroes:
        assert h.name in html


def test_summary_edges_and_spread_read_as_the_printed_rates():
    """Every 'points above/below even', the first-player edge and the spread in the duel's
    summary equal what a reader computes from the rates printed beside them (53.75% printed
    53.8% beside an edge of +3.7 before)."""
    import re

    assert ad.edge_text(430 / 800, 0.5, 0.57) == "+3.8" and ad.edge_text(0.4625, 0.42, 0.5, False) == "3.8"
    for seed in (3, 5, 8):
        text = "\n".join(ad.balance_summary(random_run(H=3, n=1000, first_mode="seat0", seed=seed)))
        checked = 0
        for x, e in re.findall(r"wins (\d+\.\d+)% \[[^\]]*\] against the field, (\d+\.\d+) points", text):
            assert f"{abs(float(x) - 50):.{len(e.split('.')[1])}f}" == e
            checked += 1
        for x, e in re.findall(r"beats .*? (\d+\.\d+)% \[[^\]]*\] of the time, (\d+\.\d+) points", text):
            assert f"{float(x) - 50:.{len(e.split('.')[1])}f}" == e
            checked += 1
        for x, e in re.findall(r"first player scores (\d+\.\d+)% \[[^\]]*\].*?([+-]\d+\.\d+) points", text):
            assert f"{float(x) - 50:+.{len(e.split('.')[1])}f}" == e
            checked += 1
        (a, b, s), = re.findall(r"Spread between .*?, (\d+\.\d+)%\) and .*?, (\d+\.\d+)%\): (\d+\.\d+) points", text)
        assert f"{float(a) - float(b):.{len(s.split('.')[1])}f}" == s
        assert checked >= 3
