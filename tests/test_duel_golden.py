"""Golden playthroughs (OpenSpiel style): the play-by-play of fixed games, stored as text.
Any change to the rules, the random stream or a built-in strategy that alters these
games shows up here as a readable diff. To accept an intended change, regenerate with
``PLAYTEST_REGEN_GOLDEN=1 python -m pytest tests/test_duel_golden.py``."""
import os
from pathlib import Path

import numpy as np
import pytest

from scripts.cli import main
from simcore.duel.reference import DuelGame
from simcore.duel.model import find_hero, load_setup
from strategies.duel.bind import simulate
from strategies.duel import load_strategy

GOLDEN = Path(__file__).parent / "golden"
CASES = [("shadow", "fire", "optimal", 7, 0), ("mountain", "light", "greedy", 3, 5)]


def golden_path(hero, vs, strategy, seed, game):
    return GOLDEN / f"duel_{hero}_vs_{vs}_{strategy}_seed{seed}_game{game}.txt"


@pytest.mark.parametrize("hero,vs,strategy,seed,game", CASES)
def test_golden_playthrough(capsys, hero, vs, strategy, seed, game):
    with pytest.raises(SystemExit) as exc:
        main(["duel", "replay", "--hero", hero, "--vs", vs, "--strategy", strategy,
              "--seed", str(seed), "--game", str(game)])
        raise SystemExit(0)
    assert (exc.value.code or 0) == 0
    got = capsys.readouterr().out
    path = golden_path(hero, vs, strategy, seed, game)
    if os.environ.get("PLAYTEST_REGEN_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()


@pytest.mark.parametrize("hero,vs,strategy,seed,game", CASES)
def test_golden_game_is_the_kernels_game(hero, vs, strategy, seed, game):
    """The replayed game is game ``game`` of the kernel's run with that seed."""
    setup = load_setup()
    a, b = find_hero(setup.heroes, hero), find_hero(setup.heroes, vs)
    strat = load_strategy(strategy)
    g = DuelGame(setup, a, b, strat, strat.make_data(setup), seed, game).play()
    rec = simulate(setup, a, b, strat, game + 1, seed)
    assert rec["winner"][game] == g.winner and rec["turns"][game] == g.turn
    np.testing.assert_array_equal(rec["hp"][game], [p.hp for p in g.players])
    last = golden_path(hero, vs, strategy, seed, game).read_text().strip().splitlines()[-1]
    assert last.startswith("result: ")
