"""A user strategy, as a worked example of the plug-in interface (``strategies/duel/base.py``):

    playtest duel play --hero shadow --vs fire -n 10000 --strategy strategies.example_user:ultimate_hunter

``ultimate_hunter`` (the keep function) chases the hero's ultimate: it keeps the dice that
show the symbol of the hero's last ability target (five of a symbol) when it holds three
or more of them, buys rolls while it has 4+ CP and needs one or two more, and otherwise
plays like greedy. ``ultimate_hunter_choose`` takes the last legal ability (heroes list
their ultimates last), else the highest-damage one.
"""
import numba as nb

from simcore.duel.model import E_DAMAGE, MAX_ABILITIES, MAX_TIERS
from simcore.duel.state import S_CP, S_HERO
from strategies.duel import most_common_symbol, symbol_count, symbol_mask


@nb.njit(cache=True)
def _ultimate_symbol(tb, h):
    """The symbol the hero's last ability needs five of, or -1."""
    a = tb.n_ab[h] - 1
    row = (h * MAX_ABILITIES + a) * MAX_TIERS + tb.n_tier[h, a] - 1
    for s in range(tb.n_sym[h]):
        if tb.req_kind[row, 0] == 0 and tb.req_need[row, 0, s] >= 5:
            return s
    return -1


@nb.njit(cache=True)
def ultimate_hunter(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    h = st[S_HERO + me]
    all_kept = (1 << n_dice) - 1
    target = _ultimate_symbol(tb, h)
    have = symbol_count(tb, h, faces, n_dice, target) if target >= 0 else 0
    chase = target >= 0 and have >= 3
    sym = target if chase else most_common_symbol(tb, h, faces, n_dice)
    mask = symbol_mask(tb, h, faces, n_dice, sym)
    if mask == all_kept:
        return all_kept
    if free_left == 0 and not (chase and st[S_CP + me] >= 4):
        return all_kept
    return mask


@nb.njit(cache=True)
def ultimate_hunter_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    h = st[S_HERO + me]
    last = tb.n_ab[h] - 1
    if legal[last] >= 0:
        return last
    best, best_dmg = -1, -1
    for a in range(tb.n_ab[h]):
        if legal[a] >= 0 and tb.eff[h, a, legal[a], E_DAMAGE] > best_dmg:
            best, best_dmg = a, tb.eff[h, a, legal[a], E_DAMAGE]
    return best
