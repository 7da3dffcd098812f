"""A duel plug-in that always passes: it stops rolling at once and never attacks."""
import numba as nb


@nb.njit
def passer(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    return (1 << n_dice) - 1


@nb.njit
def passer_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    return -1
