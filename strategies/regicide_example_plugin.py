"""An example Regicide plug-in strategy (``--strategy strategies.regicide_example_plugin:decide``).

The signature is the one documented in ``strategies/regicide/__init__.py``:
``decide(phase, obs, moves, n_moves, rules, data, rng) -> index into moves``.
This one plays the legal card set with the largest face total (never yields unless it
must), discards the cheapest covering set, and hands a Jester's turn to the next seat.
"""
import numba as nb

from simcore.regicide.kernel import value_nb
from simcore.regicide.model import FLIP, MAX_HAND, O_CUR, O_HAND_N, O_HANDS, PH_JESTER, PH_PLAY


@nb.njit(cache=True)
def decide(phase, obs, moves, n_moves, rules, data, rng):
    if phase == PH_JESTER:
        return n_moves - 1
    p = obs[O_CUR]
    base = O_HANDS + p * MAX_HAND
    best = -1
    bi = 0
    for k in range(n_moves):
        mv = moves[k]
        if mv >= 256:
            continue  # yield / flip
        tot = 0
        for i in range(obs[O_HAND_N + p]):
            if (mv >> i) & 1:
                tot += value_nb(obs[base + i], rules)
        score = tot if phase == PH_PLAY else 1000 - tot
        if score > best:
            best = score
            bi = k
    if best < 0:
        for k in range(n_moves):
            if moves[k] != FLIP:
                return k
        return 0
    return bi
