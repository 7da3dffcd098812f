"""The river battle's analysis keys: ``playtest river run --json`` holds the shared schema
plus the attacker's win rate with its interval, the metrics and how games ended (counts
per end reason), all consistent with the run's own records; the derived report fields are
the same from both engines and follow from the engine's record fields."""
import json

import numpy as np

from scripts.cli import main
from simcore.river import model as M
from strategies.river.bind import END_CODES, END_KEYS, API, derived, play_range, typed

SHARED_KEYS = {"game", "command", "version", "seed", "games", "games_per_matchup", "strategies", "rules",
               "capped_games", "matchups", "entrants", "role_win_rate", "role_win_rate_ci", "metrics", "ratings"}


def run_cli(args, capsys):
    code = 0
    try:
        main(args)
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def test_run_json_holds_the_attacker_rate_metrics_and_end_reasons(capsys):
    code, out, err = run_cli(["river", "run", "-n", "300", "--strategy", "heuristic", "--vs-strategy", "random",
                              "--seed", "3", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert SHARED_KEYS <= set(d)                       # the shared schema is untouched
    lo, hi = d["attacker_win_rate_ci"]
    assert 0 <= lo <= d["attacker_win_rate"] <= hi <= 1
    assert d["attacker_win_rate"] == d["role_win_rate"][0] and d["attacker_win_rate_ci"] == d["role_win_rate_ci"][0]
    assert {"duration", "balance", "completion"} <= set(d["metrics"])
    # the end reasons are the records' own, game for game
    rec = play_range(0, 300, 3, attacker="heuristic", defender="random")
    assert d["end_reasons"] == {k: int((rec["reason"] == c).sum()) for k, c in zip(END_KEYS, END_CODES)}
    assert sum(d["end_reasons"].values()) == d["games"] == 300
    att = int((rec["winner"] == 0).sum())
    assert d["attacker_win_rate"] == att / 300
    for k, c in zip(END_KEYS, END_CODES):
        sel = rec["reason"] == c
        assert d["end_turns_mean"][k] == (float(rec["turns"][sel].sum()) / sel.sum() if sel.any() else None)
    dams = d["dams"]
    for t in range(M.N_TILES):
        col = rec[f"dam{t + 1}"]
        assert dams["damaged"][t] == int((col >= 1).sum()) and dams["destroyed"][t] == int((col == 2).sum())
        assert dams["decided"][t] == int((rec["decide_tile"] == t + 1).sum())
    assert sum(dams["decided"]) == att                 # every attacker win has one deciding dam


def test_derived_fields_are_the_same_from_both_engines():
    setup = API.make_setup(M.load_rules(), None, 2)
    k = API.play(0, 40, 8, setup, (0, 1), ("heuristic", "heuristic"))
    r = API.play(0, 40, 8, setup, (0, 1), ("heuristic", "heuristic"), engine="reference")
    for f in ("end_reason", "end_turns", "dam_hit", "dam_destroyed", "dam_decided"):
        assert np.array_equal(k[f], r[f]), f
    # one end reason per game, and it is the record's
    assert (k["end_reason"].sum(1) == 1).all()
    assert np.array_equal(np.array(END_CODES)[k["end_reason"].argmax(1)], k["reason"])


def test_derived_fields_on_a_hand_made_record():
    rec = {"reason": np.array([M.END_DESTROY, M.END_DECKOUT]), "turns": np.array([30, 51]),
           "decide_tile": np.array([4, 0]), **{f"dam{i}": np.array([0, 0]) for i in range(1, 8)}}
    rec["dam4"] = np.array([2, 1])
    rec["dam2"] = np.array([1, 0])
    d = derived(rec)
    assert d["end_reason"].tolist() == [[False, True, False, False, False], [False, False, True, False, False]]
    assert d["end_turns"].tolist() == [[0, 30, 0, 0, 0], [0, 0, 51, 0, 0]]
    assert d["dam_hit"][:, 1].tolist() == [True, False] and d["dam_hit"][:, 3].tolist() == [True, True]
    assert d["dam_destroyed"].sum() == 1 and d["dam_destroyed"][0, 3]
    assert d["dam_decided"].sum() == 1 and d["dam_decided"][0, 3]
    traced = typed({**rec, "winner": np.array([0, 1]), "capped": np.array([0, 0]), "first": np.array([0, 0]),
                    "lead_changes": np.array([1.0, 2.0]), "decided_at": np.array([0.5, 1.0]),
                    "drama": np.array([0.0, 0.25])})
    assert traced["leads"].shape == (2, 3) and traced["leads"][1].tolist() == [2.0, 1.0, 0.25]


def _row(option, value, x, base=False, change=1.0):
    return {"option": option, "value": value, "base": base, "change": change, "attacker": x,
            "ci": [x - 0.02, x + 0.02], "games": 1000}


def test_smallest_fix_picks_the_smallest_change_inside_the_window_else_the_closest_miss():
    from reports.river import change_size, miss, smallest_fix

    assert change_size("logs", 10, 3) == 7 and change_size("tie_rule", "defender", "first") == 1
    assert change_size("logs", 3, 3) == 0 and miss(0.5) == 0 and abs(miss(0.57) - 0.02) < 1e-12
    rows = [_row("logs", 3, 0.88, True, 0), _row("logs", 9, 0.555, change=6), _row("logs", 10, 0.47, change=7),
            _row("hand_size", 9, 0.54, change=3), _row("tie_rule", "defender", 0.85)]
    f = smallest_fix(rows)
    assert f["found"] and (f["option"], f["value"]) == ("hand_size", 9)
    rows = [r for r in rows if r["option"] != "hand_size" and r["value"] != 10]
    f = smallest_fix(rows)
    assert not f["found"] and (f["option"], f["value"]) == ("logs", 9)


def test_verdict_is_built_from_the_measured_numbers():
    from analysis.runs import lineups_for, run
    from reports.river import verdict

    rules = M.load_rules()
    setup = API.make_setup(rules, None, 2)
    plan = lineups_for("river", 2, 2, ["heuristic"])
    res = run("river", setup, list(M.ROLES), plan, 200, 5, rules, rules)
    x = res.matchup_rows()[0]["win_rate"]
    rows = [_row("tie_rule", "first", x, True, 0), _row("logs", 10, 0.52, change=7), _row("logs", 12, 0.30, change=9)]
    text = " ".join(verdict(res, rows, "heuristic"))
    assert f"attacker wins {100 * x:.1f}%" in text and "logs = 10 (from 3)" in text
    row = res.matchup_rows()[0]
    n = row["games"] - row["capped"]     # the equal-skill rate names its n: the finished games
    assert text.startswith("Role ladder") and f"heuristic: {100 * x:.1f}%" in text and f"] (n={n:,})." in text
    assert ("The attacker is favoured at the only level measured" in text) == (row["win_rate_ci"][0] > 0.5)
    # each option's largest move carries the variant's rate and the change's interval
    # (Newcombe's: both intervals here are +-2 points, so the change's is +-2.83)
    d, h = 100 * (0.30 - x), 100 * 0.02 * 2 ** 0.5
    assert f"logs = 12: 30.0% [28.0, 32.0] (n=1,000), {d:+.1f} points [{d - h:+.1f}, {d + h:+.1f}]" in text
    text = " ".join(verdict(res, rows[:1] + [_row("logs", 12, 0.30, change=9)], "heuristic"))
    assert "No single swept change" in text and "15.0 points outside" in text
    assert "does not use" not in text
    text = " ".join(verdict(res, rows + [_row("tactics", True, x)], "heuristic"))
    assert "tactics: every value gave the same win rate" in text


class _Ladder:
    """A run's matchup rows as ``reports.river.equal_skill`` reads them."""

    def __init__(self, rows):
        self.rows = rows

    def matchup_rows(self):
        return [{"seats": [{"strategy": a}, {"strategy": d}], "win_rate": x, "win_rate_ci": ci, "games": n,
                 "capped": cap} for a, d, x, ci, n, cap in self.rows]


def test_verdict_opens_with_the_role_ladder_least_skilled_first():
    # issue 33: the attacker's rate with interval and n at every skill level, in skill order
    from reports.river import ladder_sentences

    res = _Ladder([("search", "search", 0.88, (0.85, 0.905), 600, 0),
                   ("heuristic", "random", 0.99, (0.98, 0.995), 10000, 0),
                   ("random", "random", 0.612, (0.602, 0.622), 10000, 10),
                   ("heuristic", "heuristic", 0.819, (0.813, 0.824), 20000, 0)])
    lad, why = ladder_sentences(res)
    assert lad == ("Role ladder (both roles at the same skill, least to most skilled; the attacker's win rate, "
                   "its 95% interval and n, the finished games): random: 61.2% [60.2, 62.2] (n=9,990), 10 more "
                   "capped and left out; heuristic: 81.9% [81.3, 82.4] (n=20,000); search: 88.0% [85.0, 90.5] "
                   "(n=600).")
    assert why.startswith("The attacker is favoured at all 3 levels measured")
    res = _Ladder([("random", "random", 0.45, (0.44, 0.46), 9000, 0),
                   ("heuristic", "heuristic", 0.51, (0.49, 0.53), 9000, 0)])
    assert ladder_sentences(res)[1] == ("The favoured role depends on skill: random: the defender; heuristic: "
                                        "neither role (the interval holds 50%).")
    assert "not measured" in ladder_sentences(_Ladder([("heuristic", "random", 0.9, (0.89, 0.91), 100, 0)]))[0]


def test_tune_sweeps_switches_and_choices_on_common_seeds(capsys):
    """The shared tune verb takes true/false and words (it used to pass 'True' as text),
    and every variant plays the same seeds; with tactics on the heuristic draws and plays
    the Treason card, so that sweep changes the games (it used to measure nothing)."""
    for option, values, expect in (("shuffle_tiles", "true,false", [True, False]),
                                   ("tie_rule", "first,defender", ["first", "defender"]),
                                   ("tactics", "false,true", [False, True])):
        code, out, err = run_cli(["river", "tune", "--option", option, "--values", values, "--strategies",
                                  "heuristic", "-n", "60", "--seed", "2", "--json"], capsys)
        assert code == 0, err
        d = json.loads(out)
        assert [v["value"] for v in d["variants"]] == expect
        assert all("attacker_win_rate" in v and sum(v["end_reasons"].values()) == 60 for v in d["variants"])
        if option == "tactics":
            a, b = d["variants"]
            assert (a["end_reasons"], a["dams"]) != (b["end_reasons"], b["dams"])
    code, out, err = run_cli(["river", "tune", "--option", "shuffle_tiles", "--values", "maybe", "-n", "10"], capsys)
    assert code != 0 and "shuffle_tiles" in err
