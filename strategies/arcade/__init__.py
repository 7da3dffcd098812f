"""Throne Arcade strategies (numba policies; the interface is in ``strategies/arcade/basic.py``).

Built-ins (``BUILTIN``: name -> (sid, description)):
- ``random``: a uniformly random legal move (drawing included when a lay is possible).
- ``greedy``: shed the most cards now; hold specials (VII/Lord, Ace, Hand) unless they
  empty the hand or hurt the next player most (that player is close to going out);
  choose the last card / named suit that leaves the most own cards able to follow.
- ``defensive``: one card at a time (a set only to go out), plain cards first, keep the
  hand flexible (most suits and types still covered, most cards able to follow); Aces
  and VIIs are held as defence, laid only when the next player is down to one card or
  when nothing else can be laid.
- ``search``: see ``strategies/arcade/search.py`` (determinized Monte Carlo; budget = rollouts
  per candidate move).
"""
BUILTIN = {
    "random": (0, "uniformly random legal move"),
    "greedy": (1, "shed the most cards; keep specials for when they hurt the next player most"),
    "defensive": (2, "one card at a time, keep the hand flexible, hold Aces and VIIs as defence"),
}
