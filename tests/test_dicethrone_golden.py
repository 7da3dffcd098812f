"""Golden playthroughs: the reference engine's play-by-play of fixed Dice Throne games,
stored as text. Any change to the rules, the content, the random stream or a built-in
strategy that alters these games shows up as a readable diff. To accept an intended
change, regenerate with ``PLAYTEST_REGEN_GOLDEN=1 python -m pytest tests/test_dicethrone_golden.py``."""
import os
from pathlib import Path

import pytest

from simcore.dicethrone import model as M
from strategies.dicethrone.bind import play_range, replay_text

GOLDEN = Path(__file__).parent / "golden"
CASES = [(("pyromancer", "paladin"), ("greedy", "greedy"), 7, 0),
         (("paladin", "pyromancer"), ("random", "greedy"), 3, 2)]


def golden_path(heroes, strategies, seed, game):
    return GOLDEN / f"dicethrone_{heroes[0]}_vs_{heroes[1]}_{strategies[0]}_{strategies[1]}_seed{seed}_game{game}.txt"


@pytest.mark.parametrize("heroes,strategies,seed,game", CASES)
def test_golden_playthrough(heroes, strategies, seed, game):
    got = replay_text(M.load_rules(), heroes, strategies, seed, game) + "\n"
    path = golden_path(heroes, strategies, seed, game)
    if os.environ.get("PLAYTEST_REGEN_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()


@pytest.mark.parametrize("heroes,strategies,seed,game", CASES)
def test_golden_game_is_the_kernels_game(heroes, strategies, seed, game):
    """The pinned game is game ``game`` of the kernel's run with that seed."""
    rec = play_range(game, game + 1, seed, heroes, strategies)
    last = golden_path(heroes, strategies, seed, game).read_text().strip().splitlines()[-1]
    assert last.startswith("result: ")
    assert f"after {rec['turns'][0]} turns; health {rec['hp0'][0]} / {rec['hp1'][0]}" in last
    w = int(rec["winner"][0])
    assert (f"seat {w} wins" in last) if w >= 0 else ("draw" in last or "capped" in last)
