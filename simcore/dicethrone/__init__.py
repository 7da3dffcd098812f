"""Dice Throne Season One (ReRolled, rulebook v2.2; Pyromancer against Paladin): content as data, a readable reference engine and a numba kernel that play the same game."""
