"""Forced-dice scenarios on the duel reference engine."""
from __future__ import annotations

import numpy as np

from simcore.duel.reference import DuelGame
from simcore.duel.model import find_hero, load_setup


class Scripted:
    """A strategy that keeps what it is told (default: stop after the first roll) and
    attacks with the named ability (default: no attack)."""

    name = "scripted"
    builtin = False

    def __init__(self, keeps=(), choice=-1):
        self.keeps = list(keeps)
        self.choice = choice

    @staticmethod
    def make_data(setup):
        return np.zeros(1)

    def keep(self, faces, n, rolls_done, free_left, me, st, tb, rules, data, rng):
        return self.keeps.pop(0) if self.keeps else (1 << n) - 1

    def choose(self, faces, n, legal, me, st, tb, rules, data, rng):
        return self.choice


class ForcedGame(DuelGame):
    """A game whose dice come from a list (face indices 0..5, in draw order)."""

    def __init__(self, setup, a, b, strategy, dice=()):
        super().__init__(setup, a, b, strategy, None, seed=0, index=0, log=True)
        self.dice = list(dice)
        self.first = 0
        self.current = 0
        self.turn = 1

    def roll_die(self):
        assert self.dice, "the scenario ran out of forced dice"
        return self.dice.pop(0)


def setup_with(**overrides):
    return load_setup(overrides=overrides or None)


def game(a, b, dice=(), keeps=(), choice=-1, setup=None, turn=2):
    setup = setup or load_setup()
    ia, ib = find_hero(setup.heroes, a), find_hero(setup.heroes, b)
    g = ForcedGame(setup, ia, ib, Scripted(keeps, choice), dice)
    g.turn = turn
    return g


def ability(g, seat, name):
    return g.players[seat].hero.ability_index(name)
