"""River battle strategies (either role; seat 0 = attacker, seat 1 = defender).

Interface (numba): ``decide(phase, obs, moves, n_moves, rules, data, rng) -> int``, an
index into ``moves[:n_moves]``. ``obs`` is the state vector as the deciding seat sees it
(``simcore.river.kernel.observe_nb``: the opponent's hand and both piles masked);
``data`` is the int64 constant table of the game (``model.make_tables``: tiles, deck,
tactic effects) followed by the strategy's integer parameters (``data[model.TB_LEN:]``,
e.g. the search budget); ``rng`` is the strategies' own stream (seed, game,
``model.STRATEGY_DOMAIN``), never the game's.

Built-ins (``BUILTIN``: name -> (sid, description)):
  random     a uniformly random legal move at every decision.
  heuristic  basic.heuristic_decide (documented there): claims as soon as a claim is
             proven, builds the strongest formation each tile allows, retreats from
             hopeless dams (attacker), throws logs at the most dangerous attacker
             formation (defender).
  search     search.search_decide: determinized Monte Carlo; for every legal move,
             ``budget`` random deals of the unseen cards (``data[TB_LEN]``, default 4)
             played out with kernel rollouts and the heuristic for both seats.
             Measured at budget 4 (100 games per role, seed 5): NOT stronger than the
             heuristic (as attacker 87% wins vs the heuristic's 88%; as defender it
             lets the attacker win 95%). It is a working, tested baseline to improve.
"""
BUILTIN = {
    "random": (0, "uniformly random legal move"),
    "heuristic": (1, "claim when proven, strongest formation per tile, retreat hopeless dams, "
                     "logs on the most dangerous attacker formation"),
    "search": (2, "determinized Monte Carlo, kernel rollouts with the heuristic; budget = deals per move"),
}
