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
             (``data[TB_LEN]``, default 32), each candidate played out from the same deal
             with kernel rollouts and the heuristic for both seats; a rollout is worth 1
             for a win plus up to 0.1 for its margin (quicker wins, later losses); another
             move replaces the heuristic's only if its mean gain per deal over the same
             deals exceeds 0.05 and one standard error (parameters: ``search.py``).
             Measured, paired game by game against the heuristic on the same deals
             (``python -m scripts.bench_river paired 300 SEED``), the gain in the
             searching role's win rate, defaults (32 deals, z 1), seed 13 (not used to
             choose them): attacker +11.3 points [+6.8, +15.9] (97.0% vs 85.7%),
             defender +17.3 [+11.0, +23.6] (31.7% vs 14.3%); while choosing (params
             32,5,50,100): seed 11 attacker +10.7 [+6.3, +15.0], defender +17.3
             [+11.2, +23.4]; seed 12 attacker +5.3 [+2.2, +8.5] (98.0% vs 92.7%),
             defender +25.7 [+19.8, +31.5]. Without the z test (32 deals): seed 11
             attacker +9.0 [+4.3, +13.7], defender +14.3 [+8.2, +20.5]; seed 12
             attacker +3.0 [-0.6, +6.6], defender +23.3 [+17.8, +28.9]. At the old
             default of 8 deals it gained nothing measurable (seed 11: attacker -1.7
             [-7.1, +3.8], defender +2.0 [-3.5, +7.5]): with 8 deals the best of 5
             noisy estimates is mostly noise. 0.06-0.07 s a game of wall time on 2
             threads (seed 13 run, after the fourth speed round; 0.23-0.26 s before);
             with the tactic cards on: attacker +10.3 [+6.0, +14.7], defender +19.3
             [+12.9, +25.8], 0.11-0.15 s a game.
  Tactic cards (rule option ``tactics``): the heuristic draws the tactic pile only when a
  steal would decide a dam now and plays Treason only to complete a side with a proven
  claim or to break a formation (documented in ``basic.py``); ``search`` inherits it in
  its rollouts and candidates.
"""
BUILTIN = {
    "random": (0, "uniformly random legal move"),
    "heuristic": (1, "claim when proven, strongest formation per tile, retreat hopeless dams, "
                     "logs on the most dangerous attacker formation, Treason when it decides a dam"),
    "search": (2, "determinized Monte Carlo, kernel rollouts with the heuristic; budget = deals per move (32)"),
}
