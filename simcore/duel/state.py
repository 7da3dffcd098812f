"""The duel's game-state vector (int64), shared by the kernel, the reference engine and
strategies. Per-seat entries are at ``BASE + seat``."""

S_HP = 0        # [0, 1] health
S_CP = 2        # [2, 3] combat points
S_WOUNDS = 4    # [4, 5] wounds carried
S_DAZED = 6     # [6, 7] 1 if dazed
S_SHIELD = 8    # [8, 9] ability shield tokens held
S_HERO = 10     # [10, 11] hero index of each seat
S_TURN = 12     # turns started so far (1 during the first turn)
S_FIRST = 13    # seat that took the first turn
S_CUR = 14      # seat whose turn it is
S_SIZE = 15

DOMAIN = 0xD0E1  # random-stream domain of the duel: game i of seed s uses stream (s, i, DOMAIN)
# Strategies draw from their own stream (s, i, STRATEGY_DOMAIN), never from the game's:
# holding the game stream's key would let a strategy replay the dice still to come.
STRATEGY_DOMAIN = 0xD0E2


# Per-game records returned by both engines: name -> (dtype, shape after the game axis).
# Sized to keep the records small (they travel back from worker processes): HP and CP
# fit int16, ability counts fit uint16 because turn_cap is at most MAX_TURN_CAP.
MAX_TURN_CAP = 60000


def record_fields(max_abilities: int) -> dict:
    import numpy as np

    return {
        "winner": (np.int8, ()),        # 0 / 1 = that seat won, -1 = draw
        "first": (np.int8, ()),         # seat that took the first turn
        "turns": (np.uint16, ()),       # player-turns started
        "hp": (np.int16, (2,)),         # final HP per seat
        "cp": (np.int16, (2,)),         # final CP per seat
        "timeout": (np.bool_, ()),      # the turn cap ended the game (a draw)
        "abilities": (np.uint16, (2, max_abilities)),  # activations per seat and ability
        "bought": (np.uint32, (2,)),    # CP-bought rolls per seat
        "illegal": (np.int8, ()),       # seat whose strategy chose an illegal ability, -1 none
    }
