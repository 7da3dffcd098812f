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
  search     search.search_decide: determinized Monte Carlo; at a play decision the
             heuristic's 5 best plays (its own move scores) are the candidates (every
             move in the other phases); ``budget`` random deals of the unseen cards
             (``data[TB_LEN]``, default 8), each candidate played out from the same deal
             with kernel rollouts and the heuristic for both seats; a rollout is worth 1
             for a win plus up to 0.1 for its margin (quicker wins, later losses); another
             move replaces the heuristic's only if it scores 0.05 per deal more.
             Measured (``python -m simcore.river.bench search 300 11``): as attacker
             it wins 84.0% [79.4, 87.7] against the heuristic defender; as defender it lets the heuristic attacker win 83.7% [79.1, 87.4]; the
             heuristic against itself on those seeds: 85.7% [81.2, 89.2]. So it is NOT
             shown stronger than the heuristic (the previous version, 4 deals over every
             move, let the attacker win 96% as defender on 100 games of seed 7).
"""
BUILTIN = {
    "random": (0, "uniformly random legal move"),
    "heuristic": (1, "claim when proven, strongest formation per tile, retreat hopeless dams, "
                     "logs on the most dangerous attacker formation"),
    "search": (2, "determinized Monte Carlo, kernel rollouts with the heuristic; budget = deals per move"),
}
