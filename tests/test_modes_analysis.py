"""The team and free-for-all tables of issue 31 (``analysis/modes.py``), on hand-made records
whose every figure is worked out by hand here, and on records drawn from a known model."""
import math

import numpy as np
import pytest

from analysis import modes as A
from analysis.stats import wilson
from strategies.dicethrone.seatings import compositions   # the tables a team tournament plays


def two_v_two(games):
    """Records of 2v2 games: ``(heroes of seats 0..3, winner, capped, first)``; seats 0, 2 are
    team 0 and seats 1, 3 team 1 (DESIGN.md 2.2)."""
    rec = {"winner": [], "capped": [], "first": []}
    for p in range(4):
        rec[f"hero{p}"], rec[f"team{p}"], rec[f"place{p}"] = [], [], []
    for heroes, w, c, f in games:
        rec["winner"].append(w)
        rec["capped"].append(c)
        rec["first"].append(f)
        for p in range(4):
            rec[f"hero{p}"].append(heroes[p])
            rec[f"team{p}"].append(p % 2)
            rec[f"place{p}"].append(1 if w in (-1, p % 2) else 2)
    return rec


def test_team_scores_count_draws_half_and_leave_capped_games_out():
    # team (0, 1) against (2, 3): won, lost, drew, and one capped game
    rec = two_v_two([((0, 2, 1, 3), 0, 0, 0), ((0, 2, 1, 3), 1, 0, 0), ((1, 3, 0, 2), -1, 0, 1),
                     ((0, 2, 1, 3), -1, 1, 0)])
    t = A.team_table(rec)
    row = t[(t.team == "0 + 1") & (t.opponents == "2 + 3")].iloc[0]
    assert row.score == pytest.approx(1.5 / 3) and row.n == 3 and row.capped == 1
    assert (row.ci_low, row.ci_high) == pytest.approx(wilson(1.5, 3))
    other = t[(t.team == "2 + 3") & (t.opponents == "field")].iloc[0]
    assert other.score == pytest.approx(1.5 / 3) and other.n == 3


def test_a_team_against_itself_is_left_out():
    rec = two_v_two([((0, 0, 1, 1), 0, 0, 0), ((0, 2, 1, 3), 0, 0, 0)])
    t = A.team_table(rec)
    assert set(t.team) == {"0 + 1", "2 + 3"} and t.n.max() == 1


def test_hero_score_damage_share_and_targets():
    rec = two_v_two([((0, 2, 1, 3), 0, 0, 0), ((2, 0, 3, 1), 0, 0, 0)])
    rec["dmg_ability0"] = [6, 2]
    rec["dmg_card0"] = [0, 1]
    for p in range(1, 4):
        rec[f"dmg_ability{p}"] = [2, 3] if p != 2 else [4, 3]
        rec[f"dmg_card{p}"] = [0, 0]
    for p in range(4):
        rec[f"tgt{p}"] = [p, 1]
    h = A.hero_table(rec).set_index("hero")
    # hero 0: seat 0 of game 0 (team 0 won: score 1; its damage 6 of its team's 6 + 4) and
    # seat 1 of game 1 (team 1 lost: score 0; 2 + 1 of its team's 3 + 3)
    assert h.loc[0, "score"] == pytest.approx(0.5) and h.loc[0, "n"] == 2
    assert h.loc[0, "damage_share"] == pytest.approx((0.6 + 0.5) / 2)
    assert h.loc[0, "targeted"] == pytest.approx((0 + 1) / 2)


def test_synergy_is_the_pair_against_its_heroes_with_other_partners():
    # pair (0, 1) always beats (2, 3); (0, 2) and (1, 3) split; (0, 3) and (1, 2) split
    games = []
    for _ in range(4):
        games += [((0, 2, 1, 3), 0, 0, 0), ((0, 1, 2, 3), -1, 0, 0), ((0, 1, 2, 3), 0, 0, 1),
                  ((0, 1, 2, 3), 1, 0, 0), ((0, 1, 3, 2), 0, 0, 0), ((0, 1, 3, 2), 1, 0, 1)]
    s = A.synergy_table(A.frame(two_v_two(games)), reps=100, seed=1).set_index("pair")
    # (0, 1): score 1 over 4 games; 0 with others: (0,2) 0.5 over 12 ... worked out below
    rows = A._pair_games(A.frame(two_v_two(games)))     # (composition, pair, sum of scores, games)

    def with_others(h):   # the hero's mean score over its games with other partners
        cells = [(sc, n) for _, pair, sc, n in rows if h in pair and pair != (0, 1)]
        return sum(sc for sc, _ in cells) / sum(n for _, n in cells)

    expect = 1.0 - (with_others(0) + with_others(1)) / 2
    assert s.loc["0 + 1", "raw"] == pytest.approx(expect) and s.loc["0 + 1", "n"] == 4
    assert expect > 0.4
    assert s.loc["0 + 1", "raw_low"] <= expect <= s.loc["0 + 1", "raw_high"]
    # the model: (0, 1) does better than its heroes' strengths add up to, beyond noise
    assert s.loc["0 + 1", "ci_low"] > 0 and s.index[0] == "0 + 1"


def test_an_additive_world_has_no_synergy_beyond_noise():
    """Games drawn from logit P(A wins) = sum of A's strengths - B's: every pair's synergy
    (the model residual) is near 0 and its bootstrap interval holds 0 for most pairs, while
    the raw difference of the strongest pair is positive (it carries the partner's strength)."""
    rng = np.random.default_rng(7)
    beta = np.array([0.6, 0.2, 0.0, -0.2, -0.6, 0.3])
    comps = compositions(list(range(6)), 2, 2)
    games = []
    for a, b in comps:
        for _ in range(150):
            p = 1 / (1 + math.exp(-(beta[list(a)].sum() - beta[list(b)].sum())))
            games.append(((a[0], b[0], a[1], b[1]), 0 if rng.random() < p else 1, 0, 0))
    s = A.synergy_table(two_v_two(games), reps=100, seed=2).set_index("pair")
    assert len(s) == 15
    assert s.synergy.abs().max() < 0.05
    holds = ((s.ci_low <= 0) & (s.ci_high >= 0)).mean()
    assert holds >= 0.8
    assert s.loc["0 + 5", "raw_low"] > 0


def test_order_edge_and_its_test():
    # first-moving team wins 3 of 4 finished games (one draw counts half to each team)
    rec = two_v_two([((0, 1, 2, 3), 0, 0, 0), ((0, 1, 2, 3), 1, 0, 1), ((0, 1, 2, 3), 0, 0, 0),
                     ((0, 1, 2, 3), -1, 0, 0), ((0, 1, 2, 3), 1, 1, 0)])
    t, test = A.order_table(rec)
    assert t.n.iloc[0] == 4 and t.capped.iloc[0] == 1
    assert t.score.tolist() == pytest.approx([3.5 / 4, 0.5 / 4])
    assert test["df"] == 1 and test["p_value"] < 0.5


def test_free_for_all_places_split_ties_evenly():
    # four players, one per team; game 0: hero 0 wins, 1 and 2 out together (share 2nd-3rd)
    rec = {"winner": [0, 3, 0], "capped": [0, 0, 1], "first": [0, 0, 0]}
    places = [(1, 2, 2, 4), (4, 3, 2, 1), (1, 2, 3, 4)]
    for p in range(4):
        rec[f"hero{p}"] = [p, p, p]
        rec[f"team{p}"] = [p, p, p]
        rec[f"place{p}"] = [pl[p] for pl in places]
    t = A.placement_table(rec, reps=50).set_index("hero")
    assert t.loc[1, "place2"] == pytest.approx(0.25) and t.loc[1, "place3"] == pytest.approx(0.75)
    assert t.loc[1, "mean_place"] == pytest.approx((2.5 + 3) / 2)
    assert t.loc[0, "place1"] == pytest.approx(0.5) and t.loc[0, "n"] == 2 and t.loc[0, "capped"] == 1
    assert np.allclose(t[[f"place{k}" for k in range(1, 5)]].sum(axis=1), 1.0)


def test_composition_counts_of_the_design():
    heroes = list(range(8))
    assert len(compositions(heroes, 2)) == 210
    assert len(compositions(heroes, 2, disjoint=False)) == 378
    assert len(compositions(heroes, 3)) == 280
    assert len(compositions(heroes, 2, teams=3)) == 420


def test_records_without_seat_columns_are_refused():
    with pytest.raises(ValueError, match="missing first"):
        A.frame({"hero0": [0], "hero1": [1], "team0": [0], "team1": [1], "place0": [1], "place1": [2],
                 "winner": [0], "capped": [0]})


def test_a_three_team_draw_splits_first_place_among_the_teams_out_last():
    """2v2v2 (seats p: team p % 3): a draw where teams 1 and 2 went out together last (place
    1) and team 0 before them (place 3) gives 1/2, 1/2 and 0, summing to one game; a win is
    1, 0, 0; a capped game counts nowhere. The team, hero and order tables read the same."""
    rec = {"winner": [-1, 0, -1], "capped": [0, 0, 1], "first": [0, 0, 0]}
    places = [(3, 1, 1), (1, 2, 3), (1, 1, 1)]
    for p in range(6):
        rec[f"hero{p}"] = [p, p, p]
        rec[f"team{p}"] = [p % 3] * 3
        rec[f"place{p}"] = [pl[p % 3] for pl in places]
    s = A.first_shares(A.frame(rec))
    assert s[:2].tolist() == [[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]] and np.isnan(s[2]).all()
    h = A.hero_table(rec).set_index("hero")
    assert h.loc[0, "score"] == pytest.approx(0.5) and h.loc[1, "score"] == pytest.approx(0.25)
    assert h.loc[0, "n"] == 2 and h.loc[0, "capped"] == 1
    o, _ = A.order_table(rec)
    assert o["score"].tolist() == pytest.approx([0.5, 0.25, 0.25]) and o["score"].sum() == pytest.approx(1.0)
