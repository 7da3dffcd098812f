"""Regicide as data: cards, rule options (``rules.toml``, validated), the int64 rule
vector and the game-state vector layout shared by the kernel, the reference engine and
every strategy.

Cards are small ints: ``code = (rank - 1) * 4 + suit`` for rank 1 (Ace) .. 13 (King) and
suit 0 Hearts, 1 Diamonds, 2 Clubs, 3 Spades; ``JESTER = 52``; ``NONE = -1`` marks an
empty or hidden slot.

State vector ``S`` (int64, length ``S_LEN``). Piles are stored bottom first; the Tavern
deck's top card is ``S[O_TAV + S[O_TAV_N] - 1]``; hands keep the order cards arrived in.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import PlaytestError, requirer
from ..toml_io import load_options

HERE = Path(__file__).resolve().parent
RULES_FILE = HERE / "rules.toml"

# ------------------------------------------------------------------ cards
HEARTS, DIAMONDS, CLUBS, SPADES = 0, 1, 2, 3
SUITS = "HDCS"
SUIT_NAMES = ("Hearts", "Diamonds", "Clubs", "Spades")
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
JESTER = 52
NONE = -1
N_CASTLE = 12
MAX_PLAYERS = 4
MAX_HAND = 8
PILE = 64  # capacity of the Tavern deck, discard pile and played pile (54 cards exist at most)


def card(rank: int, suit: int) -> int:
    return (rank - 1) * 4 + suit


def rank_of(c: int) -> int:
    return c // 4 + 1


def suit_of(c: int) -> int:
    return c % 4


def card_name(c: int) -> str:
    if c == JESTER:
        return "Jester"
    if c < 0:
        return "?"
    r = rank_of(c)
    return f"{RANK_NAMES.get(r, str(r))}{SUITS[suit_of(c)]}"


def parse_card(text: str) -> int:
    """'AH', '10S', 'KD', 'JOKER'/'Jester' -> card code (for tests and debugging)."""
    t = text.strip().upper()
    if t in ("JESTER", "JOKER", "X"):
        return JESTER
    rs, s = t[:-1], t[-1]
    inv = {v: k for k, v in RANK_NAMES.items()}
    r = inv[rs] if rs in inv else int(rs)
    return card(r, SUITS.index(s))


# ------------------------------------------------------------------ moves
# A step-1 move is ``kind * 256 + mask`` (mask: bits over the current hand's positions).
# Legal move lists are sorted ascending: plays by mask, then yield, then flip.
# Step-4 moves: a discard mask (kind 0), then FLIP. Jester moves: the seat that goes next.
MV_PLAY, MV_YIELD, MV_FLIP = 0, 1, 2
YIELD = MV_YIELD * 256
FLIP = MV_FLIP * 256
MAX_MOVES = 260  # 255 discard masks + flip, or plays + yield + flip

# decision phases
PH_DONE, PH_PLAY, PH_DISCARD, PH_JESTER = 0, 1, 2, 3
PHASE_NAMES = ("done", "play", "discard", "jester")

# end reasons
R_NONE, R_DAMAGE, R_NO_MOVE, R_TURN_CAP, R_ILLEGAL, R_STALLED = 0, 1, 2, 3, 4, 5
REASON_NAMES = ("win", "could not cover damage", "no legal move", "turn cap", "illegal strategy answer",
                "stalled (solo: no cards, no flip, no damage to suffer)")
# R_STALLED: a solo player at step 1 with an empty hand, no usable flip and an enemy whose attack
# the shields cancel can only yield, suffer 0 and yield again: the game can never change, so it
# ends there as a loss instead of running to the turn cap (both engines).

# ------------------------------------------------------------ state layout
O_P = 0            # players
O_MAXH = 1         # max hand size
O_CUR = 2          # seat to act
O_ENEMY = 3        # castle position of the current enemy (12 after the last King)
O_DAMAGE = 4       # damage dealt to the current enemy
O_SPADES = 5       # Spades total played against the current enemy (shield if not immune)
O_CANCEL = 6       # 1 once a Jester cancelled the current enemy's immunity
O_FLIPS = 7        # solo flips left
O_FLIPS_USED = 8
O_TURNS = 9        # turns taken (plays, Jesters and yields; flips are not turns)
O_DEFEATED = 10
O_JESTERS = 11     # Jesters played
O_YIELDS = 12
O_STATUS = 13      # 0 running, 1 won, 2 lost
O_REASON = 14      # R_* of the end
O_KNOWN_TOP = 15   # cards at the top of the Tavern deck that are public (exact kills)
O_PENDING = 16     # damage to suffer in the current step 4
O_PHASE = 17       # PH_* of the pending decision
O_EXACT = 18       # exact kills so far
O_YIELDED = 20     # [4] 1 if that seat yielded on its last turn
O_HAND_N = 24      # [4] hand sizes
O_HANDS = 28       # [4 * 8] hands, seat p at O_HANDS + p * MAX_HAND
O_CASTLE = O_HANDS + MAX_PLAYERS * MAX_HAND   # [12] castle order, position 0 first
O_TAV_N = O_CASTLE + N_CASTLE
O_TAV = O_TAV_N + 1                           # [64] Tavern deck, bottom first
O_DISC_N = O_TAV + PILE
O_DISC = O_DISC_N + 1                         # [64] discard pile, oldest first
O_PLAYED_N = O_DISC + PILE
O_PLAYED = O_PLAYED_N + 1                     # [64] cards played against the current enemy
S_LEN = O_PLAYED + PILE

DOMAIN = 0x4E61C1DE        # game i of seed s uses stream (s, i, DOMAIN)
# strategies draw from their own stream (s, i, STRATEGY_DOMAIN): the game stream's key
# would let a strategy replay every shuffle (the hidden deal)
STRATEGY_DOMAIN = 0x4E61C1DF
SEARCH_DOMAIN = 0x5EA4C4   # the search strategy's private rollout streams

# ------------------------------------------------------------------ rules
RULE_KEYS = (
    "jack_attack", "jack_health", "queen_attack", "queen_health", "king_attack", "king_health",
    "jack_value", "queen_value", "king_value",
    "hand_size_1", "hand_size_2", "hand_size_3", "hand_size_4",
    "jesters_1", "jesters_2", "jesters_3", "jesters_4",
    "combo_max_total", "companions", "hearts_before_diamonds", "immunity",
    "jester_cancels_immunity", "jester_choose_self", "exact_kill_to_tavern",
    "yield_restriction", "solo_yield_allowed", "solo_flips", "flip_at_step1", "flip_at_step4",
    "max_turns",
)
R = {k: i for i, k in enumerate(RULE_KEYS)}
# numba reads these module constants as compile-time ints
R_JACK_ATTACK = R["jack_attack"]           # attack of rank r: R_JACK_ATTACK + 2 * (r - 11)
R_JACK_HEALTH = R["jack_health"]           # health of rank r: R_JACK_HEALTH + 2 * (r - 11)
R_JACK_VALUE = R["jack_value"]             # value of rank r in hand: R_JACK_VALUE + (r - 11)
R_HAND_SIZE = R["hand_size_1"]             # + players - 1
R_JESTERS = R["jesters_1"]                 # + players - 1
R_COMBO_MAX = R["combo_max_total"]
R_COMPANIONS = R["companions"]
R_HEARTS_FIRST = R["hearts_before_diamonds"]
R_IMMUNITY = R["immunity"]
R_JESTER_CANCELS = R["jester_cancels_immunity"]
R_JESTER_SELF = R["jester_choose_self"]
R_EXACT_TAVERN = R["exact_kill_to_tavern"]
R_YIELD_RESTRICTION = R["yield_restriction"]
R_SOLO_YIELD = R["solo_yield_allowed"]
R_SOLO_FLIPS = R["solo_flips"]
R_FLIP1 = R["flip_at_step1"]
R_FLIP4 = R["flip_at_step4"]
R_MAX_TURNS = R["max_turns"]


def load_rules(path=None, overrides: dict | None = None) -> dict:
    """Defaults from ``rules.toml``, then a user TOML file, then ``--set`` overrides."""
    return load_options(RULES_FILE, path, overrides, validate_rules)


def validate_rules(r: dict, where: str) -> None:
    need = requirer(where)

    missing = [k for k in RULE_KEYS if k not in r]
    if missing:
        raise PlaytestError("missing rule option", where, missing[0])
    for rank in ("jack", "queen", "king"):
        need(r[f"{rank}_attack"] >= 0, f"{rank}_attack", "must be >= 0")
        need(r[f"{rank}_health"] >= 1, f"{rank}_health", "must be >= 1")
        need(r[f"{rank}_value"] >= 0, f"{rank}_value", "must be >= 0")
    for p in range(1, 5):
        need(1 <= r[f"hand_size_{p}"] <= MAX_HAND, f"hand_size_{p}", f"must be 1..{MAX_HAND}")
        need(0 <= r[f"jesters_{p}"] <= 2, f"jesters_{p}", "must be 0..2 (the deck has 2 Jesters)")
    need(r["combo_max_total"] >= 0, "combo_max_total", "must be >= 0")
    need(0 <= r["solo_flips"] <= 2, "solo_flips", "must be 0..2 (the deck has 2 Jesters)")
    need(r["max_turns"] >= 1, "max_turns", "must be >= 1")


def rules_vector(r: dict) -> np.ndarray:
    return np.array([int(r[k]) for k in RULE_KEYS], dtype=np.int64)


def check_players(p) -> int:
    try:
        v = int(p)
    except (TypeError, ValueError):
        raise PlaytestError(f"must be 1, 2, 3 or 4, got {p!r}", field="--players") from None
    if v != p and not isinstance(p, str) or not 1 <= v <= MAX_PLAYERS:
        raise PlaytestError(f"must be 1, 2, 3 or 4, got {p!r}", field="--players")
    return v


# ------------------------------------------------------------------ records
# one row per game; both engines fill exactly these fields
RECORD_FIELDS = (
    "win",          # 1 if the last King was defeated
    "players",
    "defeated",     # enemies defeated (0..12)
    "end_pos",      # castle position of the enemy that ended the run (12 = won)
    "end_rank",     # 11 Jack, 12 Queen, 13 King; 0 if won
    "end_suit",     # 0..3 (H, D, C, S); -1 if won
    "turns",
    "flips_used",   # solo
    "medal",        # solo wins: 3 gold (0 flips), 2 silver (1), 1 bronze (2); else 0
    "jesters",      # Jesters played
    "yields",
    "exact_kills",
    "reason",       # R_*: 0 win, 1 damage not covered, 2 no legal move, 3 turn cap, 4 illegal answer,
                    # 5 stalled (solo, empty hand, no flip, attack fully shielded)
)
N_FIELDS = len(RECORD_FIELDS)
MEDAL_NAMES = ("none", "bronze", "silver", "gold")
