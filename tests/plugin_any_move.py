"""A user's plug-in for any move-list game (``plugin_any_move:decide``), for the
conformance tests: a legal move chosen from the phase, the number of moves, the first
number of the observation and of the seat's data row (so that the observation and the
data must reach it alike in both engines)."""
import numba as nb


@nb.njit
def decide(phase, obs, moves, n_moves, rules, data, rng):
    return (phase * 7 + n_moves * 3 + obs[0] + int(data[0])) % n_moves
