"""``playtest arcade run --json`` in the shared schema (analysis/runs.py ``result_json``):
``seat_win_rate`` (seats numbered from the first round's starting seat), its intervals
``seat_win_rate_ci``, ``metrics`` and the count of capped games, all equal to what the
per-game records say."""
import json

import numpy as np

from analysis.stats import wilson
from scripts.cli import main
from strategies.arcade.bind import play_range
from simcore.arcade import model as M


def run_cli(args, capsys):
    code = 0
    try:
        main(args)
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def test_run_json_holds_seat_win_rates_metrics_and_capped_games(capsys):
    code, out, err = run_cli(["arcade", "run", "--players", "3", "--strategy", "greedy,random,defensive",
                              "-n", "150", "--seed", "5", "--no-store", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    rec = play_range(0, 150, 5, 3, ("greedy", "random", "defensive"))
    done = ~rec["capped"].astype(bool)
    assert d["capped_games"] == int((~done).sum()) == d["metrics"]["completion"]["capped_games"]
    assert len(d["seat_win_rate"]) == 3 and len(d["seat_win_rate_ci"]) == 3
    for s in range(3):
        wins = int(np.count_nonzero(rec["winner"][done] == s))
        assert d["seat_win_rate"][s] == wins / done.sum()
        lo, hi = d["seat_win_rate_ci"][s]
        assert (lo, hi) == tuple(wilson(wins, int(done.sum())))
        assert lo <= d["seat_win_rate"][s] <= hi
    assert {"balance", "advantage_p1", "completion", "duration"} <= set(d["metrics"])
    assert d["metrics"]["duration"]["x"] == float(np.mean(rec["turns"]))


def test_run_json_counts_games_ended_by_a_cap(capsys):
    # a 120-turn cap per round ends many 4-player games: counted, never a win
    code, out, err = run_cli(["arcade", "run", "--players", "4", "-n", "120", "--seed", "2", "--no-store",
                              "--set", "max_turns_per_round=120", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    rules = M.load_rules(overrides={"max_turns_per_round": 120})
    rec = play_range(0, 120, 2, 4, "greedy", rules=rules)
    capped = int(rec["capped"].astype(bool).sum())
    assert 0 < capped < 120
    assert d["capped_games"] == capped
    done = 120 - capped
    assert abs(sum(d["seat_win_rate"]) - 1.0) < 1e-12
    assert d["seat_win_rate"][0] == np.count_nonzero((rec["winner"] == 0) & ~rec["capped"].astype(bool)) / done


def test_report_sections_tables_by_player_count():
    """The arcade report's tables: one row per player count (per seat for the places, per
    variant for the ablation), each figure the one analysis/arcade.py gives for that
    player count's aggregate; a variant equal to the rules is skipped."""
    from analysis import arcade as A
    from reports import arcade as R

    variants = (("special_ace", False, "Ace skips nobody"), ("draw_per_card", 3, "unchanged"))
    d = R.collect(M.load_rules(), 3, players=(2, 3), games=20, ablation_games=30, variants=variants)
    seats = R.seat_table(d)
    assert list(seats["players"]) == [2, 3] and list(seats.columns[3:6]) == ["seat 1", "seat 2", "seat 3"]
    for P, agg in d["tournament"].items():
        assert agg.games == 20 * 2 * P           # greedy/defensive, each moved through every seat
        row = seats[seats.players == P].iloc[0]
        for s, r in enumerate(A.seat_rates(agg)):
            assert row[f"seat {s + 1}"].startswith(f"{100 * r['x']:.1f}%")
    assert len(R.place_table(d)) == 2 + 3 and len(R.catch_up_table(d)) == len(R.revive_table(d)) == 2
    abl = R.ablation_table(d)
    assert len(abl) == 2 * 2                     # baseline + the one variant that changes a rule
    base, rows = d["ablation"][3]
    assert list(rows) == [("special_ace", False)] and base.games == rows[("special_ace", False)].games == 30
    assert base != rows[("special_ace", False)]  # the variant plays other games on the same seeds


def test_tune_switches_a_special_card_and_gives_the_change_with_intervals(capsys):
    """The shared tune verb on arcade's boolean and numeric rule options: each value plays
    the same seeds; every value after the first carries its change against the first."""
    code, out, err = run_cli(["arcade", "tune", "--option", "special_ace", "--values", "true,false", "-p", "3",
                              "-n", "60", "--seed", "2", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    a, b = d["variants"]
    assert (a["value"], b["value"]) == (True, False) and b["rules"] == {"special_ace": False}
    c = b["change"]
    assert c["first_rate"]["x"] == b["seat_win_rate"][0] - a["seat_win_rate"][0]
    assert c["first_rate"]["x_ci"][0] < c["first_rate"]["x"] < c["first_rate"]["x_ci"][1]
    assert c["turns"]["x"] == b["metrics"]["duration"]["x"] - a["metrics"]["duration"]["x"] != 0
    assert c["turns"]["x_ci"][0] < c["turns"]["x"] < c["turns"]["x_ci"][1]
    code, out, err = run_cli(["arcade", "tune", "--option", "skip_per_card", "--values", "1,2", "-p", "4",
                              "-n", "30", "--seed", "2"], capsys)
    assert code == 0, err
    assert "skip_per_card = 2" in out and "against skip_per_card = 1: seat 1's win rate" in out
