"""The search strategy's budget from the command line (issue 9): the shared ``--param``
option (the river's and the arcade's strategy parameters) reaches Dice Throne's ``search``
as rollouts per move, the run equals ``play_range(..., search_budget=N)`` on the same
seeds, the JSON shows it, and bad values stop the command with one line and exit code 2
before any game is played."""
import json

import numpy as np
import pytest

from strategies.dicethrone.bind import parse_params, play_range


from dicethrone_helpers import run_cli as run  # noqa: E402  (playtest ARGV in-process)


def fingerprint(budget, seed=3, n=3):
    """Per seat order (Pyromancer first, then Paladin first, both on games 0..n-1): wins of
    each seat, draws and the turns of every game, from ``play_range`` directly."""
    rows = []
    for heroes, strats in ((("pyromancer", "paladin"), ("search", "greedy")),
                           (("paladin", "pyromancer"), ("greedy", "search"))):
        r = play_range(0, n, seed, heroes, strats, search_budget=budget)
        w = np.asarray(r["winner"])
        rows.append(([int((w == 0).sum()), int((w == 1).sum())], int((w < 0).sum()), sorted(map(int, r["turns"]))))
    return rows


def test_cli_budget_gives_the_records_of_play_range(capsys):
    code, out, err = run(capsys, "dicethrone", "run", "--hero", "pyromancer", "--vs", "paladin", "-n", "3",
                         "--strategy", "search", "--vs-strategy", "greedy", "--param", "2", "--seed", "3", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["param"] == "2" and doc["search_budget"] == 2
    want = fingerprint(2)
    got = [(m["wins"], m["draws"]) for m in doc["matchups"]]
    assert got == [(w, d) for w, d, _ in want]
    turns = [t for _, _, ts in want for t in ts]
    assert doc["metrics"]["duration"]["x"] == pytest.approx(np.mean(turns))
    # the budget is really used: the default budget (16) plays other games on these seeds
    assert fingerprint(None) != want


@pytest.mark.parametrize("value,needle", [
    ("0", "got 0"), ("-3", "got -3"), ("2.5", "got 2.5"), ("abc", "'abc'"), ("1e9", "got 1e+09"),
    ("8,0", "horizon"), ("1,2,3", "at most a horizon"),
])
def test_bad_budget_is_one_line_exit_2(capsys, value, needle):
    code, out, err = run(capsys, "dicethrone", "run", "--hero", "pyro", "--vs", "pal", "-n", "2", "--strategy",
                         "search", f"--param={value}")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and out == ""
    assert lines[0].startswith("playtest: error: --param: ") and needle in lines[0]


def test_every_verb_with_strategies_takes_the_budget(capsys, tmp_path):
    for argv in (("tournament", "--strategies", "search"), ("replay", "--strategy", "search")):
        code, out, err = run(capsys, "dicethrone", *argv, "--param", "0")
        assert code == 2 and "--param" in err and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "report", "dicethrone", "--param", "x", "--out", str(tmp_path / "r"))
    assert code == 2 and "--param" in err and not (tmp_path / "r").exists()
    # a replay with a budget plays (and prints) one game
    code, out, err = run(capsys, "dicethrone", "replay", "--strategy", "search", "--param", "1", "--seed", "2")
    assert code == 0 and out.strip().splitlines()[-1].startswith("result:")


def test_parse_params():
    assert parse_params(None) == {} and parse_params("") == {}
    assert parse_params("64") == {"search_budget": 64}
    assert parse_params(" 8 , 2 ") == {"search_budget": 8, "search_horizon": 2}


def test_tune_plays_the_budget(capsys):
    """``tune --param``: every variant's search plays at that budget (its Pyromancer-search
    against Paladin-greedy games are ``play_range``'s at budget 2); a bad value stops first."""
    code, out, err = run(capsys, "dicethrone", "tune", "--option", "card.play_six.cost", "--values", "1",
                         "--strategies", "search,greedy", "--param", "2", "-n", "3", "--seed", "3", "--json")
    assert code == 0, err
    doc = json.loads(out)
    (v,) = doc["variants"]
    assert v["param"] == "2" and v["search_budget"] == 2
    got = []
    for order in ((("pyromancer", "search"), ("paladin", "greedy")), (("paladin", "greedy"), ("pyromancer", "search"))):
        (m,) = [m for m in v["matchups"] if tuple((s["entrant"], s["strategy"]) for s in m["seats"]) == order]
        got.append((m["wins"], m["draws"]))
    assert got == [(w, d) for w, d, _ in fingerprint(2)]
    code, out, err = run(capsys, "dicethrone", "tune", "--option", "card.play_six.cost", "--values", "1",
                         "--strategies", "search", "--param", "0", "-n", "3")
    assert code == 2 and out == "" and err.strip().splitlines() == [
        "playtest: error: --param: search budget (rollouts per move) must be a whole number 1..100000, got 0"]


def test_card_value_plays_the_budget(capsys):
    """``card-value --param``: the full deck's win rate is the Pyromancer's score in
    ``play_range``'s games at budget 2 (both seat orders); a bad value stops first."""
    code, out, err = run(capsys, "dicethrone", "card-value", "-n", "3", "--seed", "3", "--strategy", "search,greedy",
                         "--param", "2", "--hero", "pyromancer", "--vs", "paladin", "--card", "surprise", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["param"] == "2" and doc["search_budget"] == 2
    (row,) = doc["cards"]
    (w1, d1, _), (w2, d2, _) = fingerprint(2)
    assert row["pairs"] == 6 and row["win_rate_full"] == pytest.approx((w1[0] + w2[1] + 0.5 * (d1 + d2)) / 6)
    code, out, err = run(capsys, "dicethrone", "card-value", "-n", "3", "--strategy", "search", "--param", "x")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--param" in err
