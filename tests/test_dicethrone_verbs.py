"""Issue 9's CLI: ``playtest dicethrone play --hero A --vs B`` (both seat orders on common
seeds, ``win_rate``/``win_rate_ci`` from A's side, draws half) and ``dicethrone matchups``
(every ordered hero pair under one strategy, the row hero's score against the column
hero), both on the shared runner: A's figures are checked against the game-by-game
records of the same seeds (``play_range``), and the matrix against ``play``."""
import json

import numpy as np

from analysis.stats import wilson
from strategies.dicethrone.bind import play_range


from dicethrone_helpers import run_cli as run  # noqa: E402  (playtest ARGV in-process)


def a_score(seed, n, strats=("greedy", "random")):
    """The Pyromancer's wins, draws and games over both seat orders, from the records."""
    wins = draws = games = 0
    for heroes, s, seat in ((("pyromancer", "paladin"), strats, 0), (("paladin", "pyromancer"), strats[::-1], 1)):
        w = np.asarray(play_range(0, n, seed, heroes, s)["winner"])
        wins += int((w == seat).sum())
        draws += int((w < 0).sum())
        games += len(w)
    return wins, draws, games


def test_play_gives_a_side_win_rate_from_the_records(capsys):
    code, out, err = run(capsys, "dicethrone", "play", "--hero", "pyromancer", "--vs", "paladin", "-n", "6",
                         "--strategy", "greedy", "--vs-strategy", "random", "--seed", "5", "--json", "--no-store")
    assert code == 0, err
    d = json.loads(out)
    wins, draws, games = a_score(5, 6)
    assert (d["hero"], d["vs"], d["hero_strategy"], d["vs_strategy"]) == ("pyromancer", "paladin", "greedy", "random")
    assert (d["wins"], d["draws"], d["win_rate_games"]) == (wins, draws, games) and d["capped"] == 0
    assert d["losses"] == games - wins - draws
    assert d["win_rate"] == (wins + 0.5 * draws) / games
    assert d["win_rate_ci"] == list(wilson(wins + 0.5 * draws, games))
    assert len(d["matchups"]) == 2 and d["games"] == 12  # the shared schema is all there


def test_play_text_names_both_sides(capsys):
    code, out, err = run(capsys, "dicethrone", "play", "--hero", "pyro", "--vs", "pal", "-n", "4",
                         "--strategy", "greedy", "--seed", "5", "--no-store")
    assert code == 0, err
    assert out.splitlines()[0].startswith("pyromancer (greedy) against paladin (greedy), both seat orders: ")


def test_matchups_matrix_matches_play(capsys):
    code, out, err = run(capsys, "dicethrone", "matchups", "-n", "4", "--strategy", "greedy", "--seed", "2",
                         "--json", "--no-store")
    assert code == 0, err
    m = json.loads(out)
    from simcore.dicethrone import model as M
    assert m["heroes"] == list(M.roster()) and len(m["matchups"]) == 64  # the 8 x 8 ordered pairs, mirrors too
    pal, pyro = m["heroes"].index("paladin"), m["heroes"].index("pyromancer")
    assert m["win_rate"][pal][pal] is None and m["win_rate"][pyro][pyro] is None
    code, out, err = run(capsys, "dicethrone", "play", "--hero", "pyromancer", "--vs", "paladin", "-n", "4",
                         "--strategy", "greedy", "--seed", "2", "--json", "--no-store")
    p = json.loads(out)
    assert m["win_rate"][pyro][pal] == p["win_rate"] and m["win_rate_ci"][pyro][pal] == p["win_rate_ci"]
    assert m["win_rate"][pal][pyro] == 1 - p["win_rate"] and m["win_rate_games"][pyro][pal] == p["win_rate_games"]


def test_matchups_takes_one_strategy(capsys):
    code, out, err = run(capsys, "dicethrone", "matchups", "-n", "4", "--strategy", "greedy,random")
    assert code == 2 and err.strip().startswith("playtest: error: ") and "--strategy" in err
