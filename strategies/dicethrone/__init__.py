"""Dice Throne built-in strategies (any strategy in any seat).

- ``random``: uniform over the legal moves (the strategies' own stream).
- ``greedy``: keeps dice toward the ability tier with the best value x chance (a per-die
  hit chance over the attempts left), stops when that tier is made, activates the
  most valuable satisfied tier, always spends tokens and pays Knockdown, plays upgrade
  cards and other main-phase cards when it can pay (status removal only when it holds a
  status), plays attack modifiers when attacking and prevention when attacked, never
  plays dice-changing cards, takes the first defence when a hero has several, and sells
  the last card when over the hand limit.
"""
BUILTIN = {
    "random": (0, "uniform over the legal moves"),
    "greedy": (1, "chase the best ability tier, play cards when they pay"),
}
