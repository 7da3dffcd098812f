"""Dice Throne 2.2 (Pyromancer against Paladin): content as data, a readable reference engine and a numba kernel that play the same game."""
