"""Golden playthroughs: the reference engine's play-by-play of fixed river battle games,
stored as text. Any change to the rules, the random stream or a built-in strategy that
alters these games shows up as a readable diff. To accept an intended change, regenerate
with ``PLAYTEST_REGEN_GOLDEN=1 python -m pytest tests/test_river_golden.py``."""
import os
from pathlib import Path

import numpy as np
import pytest

from simcore.river import model as M
from strategies.river.bind import play_range, replay

GOLDEN = Path(__file__).parent / "golden"
CASES = [("heuristic", "heuristic", 4, 2, {}), ("heuristic", "random", 9, 0, {"tie_rule": "defender"})]


def golden_path(att, dfd, seed, game, overrides):
    tag = "".join(f"_{k}-{v}" for k, v in overrides.items())
    return GOLDEN / f"river_{att}_vs_{dfd}_seed{seed}_game{game}{tag}.txt"


@pytest.mark.parametrize("att,dfd,seed,game,overrides", CASES)
def test_golden_playthrough(att, dfd, seed, game, overrides):
    got = replay(seed, game, M.load_rules(overrides=overrides), att, dfd)
    path = golden_path(att, dfd, seed, game, overrides)
    if os.environ.get("PLAYTEST_REGEN_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()


@pytest.mark.parametrize("att,dfd,seed,game,overrides", CASES)
def test_golden_game_is_the_kernels_game(att, dfd, seed, game, overrides):
    """The pinned text ends with the kernel's result for the same game."""
    rec = play_range(game, game + 1, seed, M.load_rules(overrides=overrides), att, dfd)
    text = golden_path(att, dfd, seed, game, overrides).read_text()
    w = int(rec["winner"][0])
    last = text.strip().splitlines()[-1]
    assert last == (f"winner: {M.ROLES[w]} ({M.REASON_NAMES[int(rec['reason'][0])]}) "
                    f"after {int(rec['turns'][0])} turns")
    assert text.count("declares control") == int(rec["claims"][0])
    assert text.count("throws a log") == int(rec["logs_used"][0])
