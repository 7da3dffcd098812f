"""Plug-ins that fail at run time, for the tests of ``strategies.bind``'s guard: each
raises ``ValueError`` part-way through a game (not on its first call), or answers out of
range (a duel keep mask of -7)."""
import numba as nb


@nb.njit
def decide(phase, obs, moves, n_moves, rules, data, rng):
    """Any move-list game: the first move when there is one choice, then it gives up."""
    if n_moves > 1:
        raise ValueError("no idea what to play")
    return 0


@nb.njit
def keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    """The duel: rerolls everything once, then raises on its second call of a turn."""
    if rolls_done >= 2:
        raise ValueError("no idea what to keep")
    return 0


@nb.njit
def keep_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    return -1


@nb.njit
def mask(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    """The duel: a keep mask out of range (-7 has every high bit set)."""
    return -7


@nb.njit
def mask_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    return -1
