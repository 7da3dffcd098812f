"""What a designer reads in the reports: readable headers, numbers without padding and with
separators, mirror rows counted per game, strategies in skill order, the rank x suit table
in Castle order, identical odds curves named."""
import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from reports.html import Page, number, readable  # noqa: E402


def test_table_headers_and_numbers(tmp_path):
    page = Page("t", tmp_path)
    page.table(pd.DataFrame({"win_ci_low": [0.0123456], "games_per_s": [16000000.0], "games": [16000000],
                             "edge": [-22.2], "mean_turns": [11.5]}))
    html = page.parts[-1]
    assert "95% CI low" in html and "games / s" in html and "turns (mean)" in html
    assert "win_ci_low" not in html and "games_per_s" not in html
    assert "16,000,000" in html and "-22.2<" in html and "11.5<" in html and "0.012<" in html
    assert "11.500" not in html and "-22.200" not in html
    assert number(0.5) == "0.5" and number(2.0) == "2" and number(-0.0001) == "0" and readable("a_b") == "a b"
    # an interval is never broken inside (class ci: white-space nowrap); the cell may still
    # wrap between the value and its interval, and other cells wrap as before
    page.table(pd.DataFrame({"rate": ["87.3% [83.1, 90.6] (n=300)"], "label": ["a long label"]}))
    html = page.parts[-1]
    assert '<td>87.3% <span class="ci">[83.1, 90.6]</span> (n=300)</td>' in html and "<td>a long label</td>" in html
    assert ".ci{white-space:nowrap}" in page.write().read_text()
    # a column of rates with blank cells (a place a 2-player game has not) is numbers: right-aligned
    from reports.html import _is_text

    assert not _is_text(pd.Series(["46.5% [41.7, 51.4]", "", "–"])) and _is_text(pd.Series(["seat 1", ""]))


def test_mirror_rows_count_games_once():
    from reports.duel import _fmt_matchups

    m = pd.DataFrame({"hero": ["A", "A"], "opponent": ["A", "B"], "distinct_games": [1000, 2000],
                      "wins": [933, 1500], "draws": [134, 10], "losses": [933, 490], "win_rate": [0.5, 0.75],
                      "ci_low": [0.47, 0.73], "ci_high": [0.53, 0.77], "significant": [False, True],
                      "win_rate_first": [0.55, 0.8], "win_rate_second": [0.45, 0.7], "timeouts": [0, 0],
                      "games_first": [1000, 1000], "games_second": [1000, 0],
                      "first_ci_low": [0.519, 0.774], "first_ci_high": [0.581, 0.824],
                      "second_ci_low": [0.419, np.nan], "second_ci_high": [0.481, np.nan],
                      "mean_turns": [11.5, 9.25], "median_turns": [11.0, 9.0], "mirror": [True, False]})
    out = _fmt_matchups(m)
    assert out["W / D / L"][0] == "933 decided / 67 drawn (mirror)"  # 933 + 67 = 1,000 games
    assert out["W / D / L"][1] == "1,500 / 10 / 490" and out["games"][1] == "2,000"
    assert out["mean turns"][0] == "11.5" and out["median turns"][0] == "11"
    # outside review A7: the seat-order rates carry their interval and n (no game: no rate)
    assert out["moving first"][0] == "55.0% [51.9, 58.1] (n=1,000)"
    assert out["moving second"][0] == "45.0% [41.9, 48.1] (n=1,000)"
    assert out["moving first"][1] == "80.0% [77.4, 82.4] (n=1,000)"
    assert out["moving second"][1] == "– (n=0)"
    # a mirror's rate is one half by construction: no interval around it; other rows keep theirs
    assert (out["win rate"][0], out["95% interval"][0]) == ("50% (mirror)", "by construction")
    assert (out["win rate"][1], out["95% interval"][1]) == ("75.0%", "[73.0, 77.0]")


def test_skill_order():
    from reports.duel import skill_order

    assert skill_order(["optimal", "random", "greedy"]) == ["random", "greedy", "optimal"]
    assert skill_order(["mine:x", "optimal", "random"]) == ["random", "optimal", "mine:x"]


def test_rank_suit_table_in_castle_order():
    from reports.regicide import rank_suit_table

    rs = pd.DataFrame({"strategy": ["h"] * 4, "players": [1] * 4, "rank": ["King", "Jack", "Queen", "Jack"],
                       "suit": ["Spades", "Hearts", "Clubs", "Spades"], "losses": [5, 10, 15, 20],
                       "lost_games": [50] * 4})
    t = rank_suit_table(rs)
    assert list(t["rank"]) == ["Jack", "Queen", "King"]
    # every share's n (the lost games of that strategy and player count) beside the shares
    assert list(t.columns) == ["strategy", "players", "rank", "Hearts", "Clubs", "Spades", "all suits",
                               "lost games (n)"]
    assert t.columns.name is None and list(t["lost games (n)"]) == [50, 50, 50]
    # every share on the page with its Wilson interval (review A21: they were only in a CSV)
    from analysis.runs import fmt_rate
    from analysis.stats import wilson

    assert t["all suits"][0] == fmt_rate(0.6, wilson(30, 50)) == "60.0% [46.2, 72.4]"
    assert t["Hearts"][0] == fmt_rate(0.2, wilson(10, 50)) and t["Clubs"][0] == "0.0% [0.0, 7.1]"
    from simcore.regicide.model import R_STALLED, R_TURN_CAP

    er = pd.DataFrame({"strategy": ["h", "h"], "players": [1, 1], "reason": [R_TURN_CAP, R_STALLED], "games": [3, 4]})
    with_reasons = rank_suit_table(rs, er)
    # the games the turn cap ended are neither won nor lost: beside n, not in it
    assert list(with_reasons.columns)[-1] == "capped (not in n)"
    assert list(with_reasons["capped (not in n)"]) == [3, 3, 3]
    own = rank_suit_table(rs.assign(capped=5), er)      # the table's own count first
    assert list(own["capped (not in n)"]) == [5, 5, 5]


def test_identical_odds_curves_are_named():
    from reports.odds import _odds_figure

    df = pd.DataFrame({"hero": ["H", "H", "H"], "label": ["A", "B", "C"], "tiers": [1, 1, 1], "tier": [1, 1, 1],
                       "p_1": [0.2, 0.2, 0.1], "p_2": [0.5, 0.5, 0.3]})
    fig = _odds_figure(df, "H", 1)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["A", "B (same odds as A)", "C"]


def test_rates_get_the_decimals_their_interval_needs():
    """One decimal, or more until the interval's two ends differ as printed: the duel report's
    16,000,000 games gave a first-player rate of '54.7% [54.7, 54.7]', an interval that
    looked like none."""
    from analysis.runs import ci_decimals, fmt_rate

    assert fmt_rate(0.547, (0.545, 0.549), 16_000) == "54.7% [54.5, 54.9] (n=16,000)"
    assert ci_decimals(0.54660, 0.54710) == 2
    assert fmt_rate(0.54687, (0.54660, 0.54710)) == "54.69% [54.66, 54.71]"
    assert ci_decimals(0.546601, 0.546609) == 3          # at most three decimals
    assert fmt_rate(0.5, None) == "50.0%" and fmt_rate(None) == "n/a"
    assert fmt_rate(0.0, (0.0, 0.0)) == "0.0% [0.0, 0.0]"     # equal ends: nothing to widen


def test_heatmap_cells_get_their_interval_and_n():
    """The shared report's pooled pair table (the heatmap's cells): the row's score over both
    seat orders, draws at one half, capped games left out of n, Wilson interval; each pair of
    different entrants once, mirrors left out."""
    from analysis.stats import wilson
    from reports.game import pooled_table

    def m(a, b, games, wins, draws, capped):
        return {"seats": [{"entrant": a, "strategy": "greedy"}, {"entrant": b, "strategy": "greedy"}],
                "games": games, "wins": wins, "draws": draws, "capped": capped}

    doc = {"matchups": [m("pyro", "paladin", 100, [60, 30], 4, 6), m("paladin", "pyro", 100, [40, 58], 2, 0),
                        m("pyro", "pyro", 100, [48, 48], 4, 0)]}
    t = pooled_table(doc)
    assert len(t) == 1
    row = t.iloc[0]
    assert (row["row"], row["column"]) == ("pyro (greedy)", "paladin (greedy)")
    # pyro's score: 60 + 58 wins, 4 + 2 draws at one half, over 94 + 100 finished games
    k, n = 60 + 58 + 3, 194
    lo, hi = wilson(k, n)
    assert row["games (both seat orders, capped left out)"] == "194"
    assert row["row's score"] == f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n=194)"


def test_matchup_table_shows_every_seats_rate_when_more_than_two_sit():
    """With more than two seats each seat's strategy may differ, so the shared matchup table
    gives every seat's win rate (draws an even share, capped games out of n), not seat 1's
    alone; with two seats it keeps seat 1's."""
    from analysis.stats import wilson
    from reports.game import matchup_table

    four = {"seats": [{"entrant": f"seat {i + 1}", "strategy": s} for i, s in enumerate(("random", "greedy",
                                                                                          "random", "random"))],
            "games": 100, "wins": [5, 70, 10, 11], "draws": 4, "capped": 0}
    t = matchup_table({"game": "arcade", "matchups": [four]})
    lo, hi = wilson(71, 100)
    assert t.loc[0, "seat 2 wins"] == f"71.0% [{100 * lo:.1f}, {100 * hi:.1f}] (n=100)"
    assert [c for c in t.columns if c.endswith(" wins")] == [f"seat {i} wins" for i in range(1, 5)]
    two = {"seats": four["seats"][:2], "games": 50, "wins": [20, 25], "draws": 1, "capped": 4,
           "win_rate": 20.5 / 46, "win_rate_ci": list(wilson(20.5, 46))}
    t = matchup_table({"game": "dicethrone", "matchups": [two]})
    assert "seat 1 win rate" in t.columns and "seat 2 wins" not in t.columns
    assert t.loc[0, "seat 1 win rate"].endswith("(n=46)")


def test_first_player_edge_reads_as_the_printed_score_less_50():
    """The first-player table's edge is the printed score less 50, so the two never disagree
    in the last digit (53.75% printed 53.8% beside an edge of +3.7)."""
    from reports.duel import _fmt_first

    fp = pd.DataFrame({"hero_a": ["L"], "hero_b": ["L"], "games": [800], "first_wins": [410], "draws": [40],
                       "first_losses": [350], "timeouts": [0], "first_player_win_rate": [430 / 800],
                       "ci_low": [0.5], "ci_high": [0.57], "edge_pp": [100 * (430 / 800 - 0.5)]})
    out = _fmt_first(fp)
    assert out["first player's score"][0] == f"{100 * 430 / 800:.1f}%"
    assert out["edge (points)"][0] == f"{float(out['first player' + chr(39) + 's score'][0][:-1]) - 50:+.1f}"


def test_duel_tables_print_the_decimals_their_interval_needs():
    """The duel's first-player (and matchups, hero) tables print a rate with one decimal or
    more until its interval's two ends differ (16 million games printed '54.7% [54.7, 54.7]');
    the edge keeps the same decimals, as the printed score less 50."""
    from reports.duel import _fmt_first

    fp = pd.DataFrame({"hero_a": ["all", "L"], "hero_b": ["all", "L"], "games": [16_000_000, 800],
                       "first_wins": [8_608_847, 410], "draws": [279_958, 40], "first_losses": [7_111_195, 350],
                       "timeouts": [62, 0], "first_player_win_rate": [0.546805, 430 / 800],
                       "ci_low": [0.546561, 0.5], "ci_high": [0.547049, 0.57], "edge_pp": [4.6805, 3.75]})
    out = _fmt_first(fp)
    assert (out["first player's score"][0], out["95% interval"][0], out["edge (points)"][0]) == \
        ("54.68%", "[54.66, 54.70]", "+4.68")
    assert (out["first player's score"][1], out["95% interval"][1]) == ("53.8%", "[50.0, 57.0]")


def test_a_draw_is_an_even_share_of_the_seats_in_every_rate():
    """analysis.runs: with three seats a draw (no winner, not capped) scores a third for each
    seat in the matchup rate and the entrants' rates, as in the seat rates; capped games are
    out of n everywhere."""
    from analysis.runs import Matchup, RunResult

    w = np.array([0, 0, 1, 2, -1, -1, -1, 0], np.int8)
    capped = np.array([0, 0, 0, 0, 0, 0, 1, 0], bool)     # games 4 and 5 drawn, game 6 capped
    rec = {"winner": w, "capped": capped, "first": np.zeros(8, np.int8), "turns": np.full(8, 10)}
    res = RunResult("arcade", 1, 8, 3, [Matchup((0, 1, 2), ("greedy", "random", "random"), rec)], [], {}, {})
    row = res.matchup_rows()[0]
    assert (row["draws"], row["capped"]) == (2, 1)
    assert row["win_rate"] == (3 + 2 / 3) / 7
    ents = {(e["entrant"], e["strategy"]): e for e in res.entrant_rows()}
    assert ents[("seat 1", "greedy")]["win_rate"] == (3 + 2 / 3) / 7 and ents[("seat 1", "greedy")]["games"] == 7
    assert ents[("seat 2", "random")]["win_rate"] == (1 + 2 / 3) / 7
    rates, _, n = res.seat_rows()
    assert n == 7 and rates[0] == row["win_rate"]
