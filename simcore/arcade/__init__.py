"""Throne Arcade (seed 001, digest /work/shared/rules/throne-arcade.md): a shedding card
game for 2-6 players over rounds, with a card penalty per lost round and elimination.

model.py (deck, rules, layouts, records), kernel.py (numba state machine), reference.py
(pure-Python twin with a play-by-play log), game.py (description for the shared layer)."""
