"""Dice Throne Season One (ReRolled, rulebook v2.2; the heroes are the files of heroes/): content as data, a readable reference engine and a numba kernel that play the same game."""
