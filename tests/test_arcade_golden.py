"""Golden playthroughs: the reference engine's play-by-play of fixed Throne Arcade games,
stored as text. Any change to the rules, the random stream or a built-in strategy that
alters these games shows up here as a readable diff. To accept an intended change,
regenerate with ``PLAYTEST_REGEN_GOLDEN=1 python -m pytest tests/test_arcade_golden.py``."""
import os
from pathlib import Path

import pytest

from strategies.arcade.bind import play_range, replay_log

GOLDEN = Path(__file__).parent / "golden"
# (players, seat strategies, seed, game): a 3-player game with a skull revival, a duel
CASES = [(3, ("greedy", "defensive", "greedy"), 3, 4), (2, ("defensive", "greedy"), 1, 0)]


def golden_path(players, seats, seed, game):
    return GOLDEN / f"arcade_{players}p_{'_'.join(seats)}_seed{seed}_game{game}.txt"


@pytest.mark.parametrize("players,seats,seed,game", CASES)
def test_golden_playthrough(players, seats, seed, game):
    got = replay_log(seed, game, players, list(seats))
    path = golden_path(players, seats, seed, game)
    if os.environ.get("PLAYTEST_REGEN_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()


@pytest.mark.parametrize("players,seats,seed,game", CASES)
def test_golden_game_is_the_kernels_game(players, seats, seed, game):
    """The pinned game is game ``game`` of the kernel's run with that seed: its result line
    carries the kernel's record."""
    k = play_range(game, game + 1, seed, players, list(seats))
    last = golden_path(players, seats, seed, game).read_text().strip().splitlines()[-1]
    assert last == (f"result: winner {k['winner'][0]}, capped {int(k['capped'][0])}, rounds {k['rounds'][0]}, "
                    f"turns {k['turns'][0]}, revives {k['revives'][0]}, losses "
                    + " ".join(str(k[f'losses_{p}'][0]) for p in range(players)))
    if players == 3:
        assert k["revives"][0] >= 1
