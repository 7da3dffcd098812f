"""Throne Arcade as data: the deck (``deck.toml``, validated), rule options (``rules.toml``,
validated), the int64 rule vector, the constant card tables, the move encoding and the
game-state vector layout shared by the kernel, the reference engine and every strategy.

Cards are small ints ``0 .. n_cards-1`` (at most 32), type-major:
``code = (type * n_suits + suit) * copies + copy``. A hand or a pile that is a set is a
bitmask over card codes (bit ``c`` = card ``c``); the draw pile is an ordered array whose
top card is the last one.

Move encoding (int64; legal move lists are sorted ascending, no duplicates):
    ``DRAW = 0``                       draw one card (or pass, see ``draw_after_penalty``)
    ``(named + 1) << 37 | last << 32 | mask``   lay the cards of ``mask`` (one type; a card
        of ``mask`` other than ``last`` matches the top, or ``last`` alone matches); ``last``
        is the new top card; ``named`` (0..3) is the suit named by a Hand, -1 (field 0) if none.

State vector ``S`` (int64, ``S_LEN``): see the ``O_*`` constants below. Seats are numbered
from the first round's starting seat (``first_starter``, default 0).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import PlaytestError, requirer
from ..toml_io import load_options, load_toml

HERE = Path(__file__).resolve().parent
RULES_FILE = HERE / "rules.toml"
DECK_FILE = HERE / "deck.toml"

MAX_PLAYERS = 6
MIN_PLAYERS = 2
MAX_CARDS = 32
MAX_SUITS = 4
MAX_TYPES = 8
MAX_PER_TYPE = 4
NONE = -1

# ------------------------------------------------------------------ moves
DRAW = 0
MOVE_LAST_SHIFT = 32
MOVE_NAMED_SHIFT = 37
CARD_BITS = (1 << 32) - 1
MAX_MOVES = 512   # worst case with 32 cards (4 per type, 4 suits) is below 450


def encode_lay(mask: int, last: int, named: int = -1) -> int:
    return ((named + 1) << MOVE_NAMED_SHIFT) | (last << MOVE_LAST_SHIFT) | mask


def decode_lay(move: int) -> tuple[int, int, int]:
    """(mask, last, named suit or -1)"""
    return move & CARD_BITS, (move >> MOVE_LAST_SHIFT) & 31, (move >> MOVE_NAMED_SHIFT) - 1


# decision phases (one decision kind: lay or draw)
PH_DONE, PH_PLAY = 0, 1
PHASE_NAMES = ("done", "play")

# how a capped game was capped
CAP_NONE, CAP_TURNS, CAP_ROUNDS = 0, 1, 2
CAP_NAMES = ("none", "turns per round", "rounds per game")

# ------------------------------------------------------------ state layout
O_P = 0            # players
O_CUR = 1          # seat to act
O_TURN = 2         # turns played in the game (a turn = one seat's lay or draw; skipped turns are not turns)
O_ROUND = 3        # current round, 1-based
O_RTURN = 4        # turns played in this round
O_TOP = 5          # top card of the pile
O_NAMED = 6        # suit named by a Hand and still in force, -1 none
O_PEND = 7         # cards the seat to act still has to draw (VII / green Lord) - drawn at turn start
O_LAST_OUT = 8     # seat that laid its last card on the previous turn, -1 none
O_PENALIZED = 9    # 1 if the seat to act drew for a VII/Lord at the start of this turn
O_PHASE = 10
O_STARTER = 11     # seat that started (and dealt) this round
O_WINNER = 12      # -1 until decided
O_CAPPED = 13      # CAP_*
O_NELIM = 14       # players eliminated so far
O_REVIVES = 15     # skull VII revivals
O_LOSER1 = 16      # loser of round 1 (-1 if round 1 did not finish)
O_FIRSTOUT1 = 17   # first seat to go out in round 1 (-1 none)
O_RESHUF = 18      # reshuffles of the pile into a new draw pile
O_DRAWCARDS = 19   # draw-effect cards (VII / Lord) laid
O_SKIPCARDS = 20   # skip cards (Aces) laid
O_HANDCARDS = 21   # Hands laid
O_PENDRAWN = 22    # cards drawn for draw effects
O_RSTART_TURN = 23 # O_TURN when this round started
O_FIRST = 24       # seat that started round 1
# the deck's public constants, copied from the tables at the start (strategies read them here)
O_NCARDS = 25
O_NSUITS = 26
O_NTYPES = 27
O_COPIES = 28      # code = (type * n_suits + suit) * copies + copy
O_FX_DRAW = 29     # bitmask of cards whose draw effect is on
O_FX_SKIP = 30     # ... skip (Aces)
O_FX_NAME = 31     # ... name a suit (Hands)
O_FX_REVIVE = 32   # ... revive (the skull VII)
O_DISC = 33        # bitmask: the pile under the top card
O_DRAW_N = 34      # draw pile size
O_DRAW = 35        # [32] draw pile, bottom first (top = O_DRAW + O_DRAW_N - 1); hidden cells NONE
O_HAND = O_DRAW + MAX_CARDS          # [6] hands as bitmasks (0 in another seat's observation)
O_HAND_N = O_HAND + MAX_PLAYERS      # [6] hand sizes (public)
O_DEALT = O_HAND_N + MAX_PLAYERS     # [6] cards dealt this round (0 eliminated)
O_LOSSES = O_DEALT + MAX_PLAYERS     # [6] rounds lost
O_ELIM_ROUND = O_LOSSES + MAX_PLAYERS  # [6] round in which the seat was eliminated, 0 never
O_ELIM_ORDER = O_ELIM_ROUND + MAX_PLAYERS  # [6] 1 = first eliminated, 0 never
S_LEN = O_ELIM_ORDER + MAX_PLAYERS

DOMAIN = 0xA4CADE01            # game i of seed s uses stream (s, i, DOMAIN)
STRATEGY_DOMAIN = 0xA4CADE02   # the strategies' own stream (never the game's: it would reveal the deal)
SEARCH_DOMAIN = 0xA4CADE03     # the search strategy's private rollout streams

# ------------------------------------------------------------------ tables
# One int64 array of constant content built from the deck and the special-card options.
T_N = 0            # number of cards
T_NSUITS = 1
T_NTYPES = 2
T_DRAW = 3         # bitmask of cards with the draw effect (switched on)
T_SKIP = 4         # ... skip effect
T_NAME = 5         # ... name-a-suit effect
T_REVIVE = 6       # ... revive effect
T_ALL = 7          # all cards
T_PERTYPE = 8      # cards per type (suits x copies); type t holds codes t*T_PERTYPE ..
T_SUITMASK = 9     # [4] cards of suit s
T_TYPEMASK = T_SUITMASK + MAX_SUITS   # [8] cards of type t
T_SUIT = T_TYPEMASK + MAX_TYPES       # [32] suit of card c
T_TYPE = T_SUIT + MAX_CARDS           # [32] type of card c
T_LEN = T_TYPE + MAX_CARDS

EFFECTS = ("draw", "skip", "name_suit", "revive")
_EFFECT_SLOT = {"draw": T_DRAW, "skip": T_SKIP, "name_suit": T_NAME, "revive": T_REVIVE}


class Deck:
    """The validated deck: names and the special entries (effects switched per rule)."""

    def __init__(self, suits, suit_names, types, copies, specials, where):
        self.suits, self.suit_names, self.types, self.copies = suits, suit_names, types, copies
        self.specials = specials      # list of (id, effect, [card codes])
        self.where = where
        self.n = len(types) * len(suits) * copies

    def code(self, t: int, s: int, copy: int = 0) -> int:
        return (t * len(self.suits) + s) * self.copies + copy

    def suit_of(self, c: int) -> int:
        return (c // self.copies) % len(self.suits)

    def type_of(self, c: int) -> int:
        return (c // self.copies) // len(self.suits)

    def name(self, c: int) -> str:
        if c < 0:
            return "?"
        nm = f"{self.types[self.type_of(c)]}-{self.suits[self.suit_of(c)]}"
        if self.copies > 1:
            nm += f"#{c % self.copies}"
        return nm

    def parse(self, text: str) -> int:
        """'X-blue' (or 'X-blue#1' with copies) -> card code (tests and debugging)."""
        base, _, cp = text.strip().partition("#")
        t, _, s = base.rpartition("-")
        return self.code(self.types.index(t), self.suits.index(s), int(cp or 0))

    def cards_of(self, spec: str, where: str, field: str) -> list[int]:
        need = requirer(where)
        need(isinstance(spec, str), field, f"card {spec!r} must be a string TYPE/suit or TYPE/*")
        t, sep, s = spec.partition("/")
        need(sep == "/", field, f"card {spec!r} must read TYPE/suit or TYPE/*")
        need(t in self.types, field, f"unknown card type {t!r} (types: {', '.join(self.types)})")
        need(s == "*" or s in self.suits, field, f"unknown suit {s!r} (suits: {', '.join(self.suits)})")
        ti = self.types.index(t)
        suits = range(len(self.suits)) if s == "*" else [self.suits.index(s)]
        return [self.code(ti, si, cp) for si in suits for cp in range(self.copies)]


def load_deck(path=None) -> Deck:
    path = Path(path) if path is not None else DECK_FILE
    d = load_toml(path)
    where = str(path)
    need = requirer(where)
    for key in ("suits", "types", "copies"):
        need(key in d, key, "missing")
    suits, types, copies = d["suits"], d["types"], d["copies"]
    need(isinstance(suits, list) and all(isinstance(x, str) for x in suits), "suits", "must be a list of names")
    need(isinstance(types, list) and all(isinstance(x, str) for x in types), "types", "must be a list of names")
    need(1 <= len(suits) <= MAX_SUITS, "suits", f"must have 1..{MAX_SUITS} suits")
    need(1 <= len(types) <= MAX_TYPES, "types", f"must have 1..{MAX_TYPES} types")
    need(len(set(suits)) == len(suits), "suits", "duplicate suit")
    need(len(set(types)) == len(types), "types", "duplicate type")
    need(isinstance(copies, int) and not isinstance(copies, bool) and copies >= 1, "copies", "must be a whole number >= 1")
    need(len(suits) * copies <= MAX_PER_TYPE, "copies",
         f"at most {MAX_PER_TYPE} cards of one type (suits x copies = {len(suits) * copies})")
    need(len(suits) * len(types) * copies <= MAX_CARDS, "copies", f"at most {MAX_CARDS} cards in all")
    names = d.get("suit_names", suits)
    need(isinstance(names, list) and len(names) == len(suits), "suit_names", "must name every suit")
    deck = Deck(list(suits), list(names), list(types), copies, [], where)
    seen = set()
    need(isinstance(d.get("special", []), list), "special", "must be a list of [[special]] tables")
    for i, sp in enumerate(d.get("special", [])):
        f = f"special[{i}]"
        need(isinstance(sp, dict), f, "must be a table")
        for key in ("id", "cards", "effect"):
            need(key in sp, f"{f}.{key}", "missing")
        need(isinstance(sp["id"], str) and sp["id"].isidentifier(), f"{f}.id", "must be a name")
        need(sp["id"] not in seen, f"{f}.id", f"duplicate id {sp['id']!r}")
        seen.add(sp["id"])
        need(isinstance(sp["effect"], str) and sp["effect"] in EFFECTS, f"{f}.effect", f"unknown effect {sp['effect']!r} (known: {', '.join(EFFECTS)})")
        need(isinstance(sp["cards"], list) and sp["cards"], f"{f}.cards", "must be a non-empty list")
        codes = []
        for c in sp["cards"]:
            codes += deck.cards_of(c, where, f"{f}.cards")
        deck.specials.append((sp["id"], sp["effect"], sorted(set(codes))))
    return deck


def build_tables(deck: Deck, rules: dict) -> np.ndarray:
    """The card tables with every special entry whose ``special_<id>`` option is on."""
    T = np.zeros(T_LEN, np.int64)
    T[T_N], T[T_NSUITS], T[T_NTYPES] = deck.n, len(deck.suits), len(deck.types)
    T[T_PERTYPE] = len(deck.suits) * deck.copies
    for c in range(deck.n):
        s, t = deck.suit_of(c), deck.type_of(c)
        T[T_SUIT + c], T[T_TYPE + c] = s, t
        T[T_SUITMASK + s] |= 1 << c
        T[T_TYPEMASK + t] |= 1 << c
        T[T_ALL] |= 1 << c
    for sid, effect, codes in deck.specials:
        key = f"special_{sid}"
        if key not in rules:
            raise PlaytestError(f"deck special {sid!r} has no rule option {key!r} in rules", deck.where, key)
        if rules[key]:
            for c in codes:
                T[_EFFECT_SLOT[effect]] |= 1 << c
    return T


# ------------------------------------------------------------------ rules
RULE_KEYS = (
    "hand_size", "penalty_per_loss", "min_hand", "elimination_hand", "first_starter", "start_card_effect",
    "starter_leads_freely",
    "draw_optional", "draw_after_penalty",
    "draw_per_card", "skip_per_card", "revive_draw", "skull_draw_when_reviving", "skull_draw_without_revive",
    "hand_on_anything", "hand_answers_hand", "named_suit_persists",
    "max_turns_per_round", "max_rounds",
)
R = {k: i for i, k in enumerate(RULE_KEYS)}
R_HAND_SIZE = R["hand_size"]
R_PENALTY = R["penalty_per_loss"]
R_MIN_HAND = R["min_hand"]
R_ELIM_HAND = R["elimination_hand"]
R_FIRST = R["first_starter"]
R_START_EFFECT = R["start_card_effect"]
R_FREE_LEAD = R["starter_leads_freely"]   # the round's first turn may lay any card (the seed)
R_DRAW_OPTIONAL = R["draw_optional"]
R_DRAW_AFTER_PEN = R["draw_after_penalty"]
R_DRAW_PER_CARD = R["draw_per_card"]
R_SKIP_PER_CARD = R["skip_per_card"]
R_REVIVE_DRAW = R["revive_draw"]
R_SKULL_DRAW_REVIVING = R["skull_draw_when_reviving"]
R_SKULL_DRAW_PLAIN = R["skull_draw_without_revive"]
R_HAND_ANYTHING = R["hand_on_anything"]
R_HAND_ANSWERS = R["hand_answers_hand"]
R_NAMED_PERSISTS = R["named_suit_persists"]
R_MAX_TURNS = R["max_turns_per_round"]
R_MAX_ROUNDS = R["max_rounds"]


def load_rules(path=None, overrides: dict | None = None) -> dict:
    """Defaults from ``rules.toml``, then a user TOML file, then ``--set`` overrides."""
    return load_options(RULES_FILE, path, overrides, validate_rules)


def validate_rules(r: dict, where: str) -> None:
    need = requirer(where)
    missing = [k for k in RULE_KEYS if k not in r]
    if missing:
        raise PlaytestError("missing rule option", where, missing[0])
    need(1 <= r["hand_size"] <= 15, "hand_size", "must be 1..15")
    need(r["penalty_per_loss"] >= 0, "penalty_per_loss", "must be >= 0")
    need(1 <= r["min_hand"] <= r["hand_size"], "min_hand", "must be 1..hand_size")
    need(r["elimination_hand"] >= 0, "elimination_hand", "must be >= 0")
    need(0 <= r["first_starter"] < MAX_PLAYERS, "first_starter", f"must be 0..{MAX_PLAYERS - 1}")
    need(0 <= r["draw_per_card"] <= 10, "draw_per_card", "must be 0..10")
    need(0 <= r["skip_per_card"] <= 10, "skip_per_card", "must be 0..10")
    need(0 <= r["revive_draw"] <= 10, "revive_draw", "must be 0..10")
    need(r["max_turns_per_round"] >= 1, "max_turns_per_round", "must be >= 1")
    need(r["max_rounds"] >= 1, "max_rounds", "must be >= 1")
    for k in r:
        if k.startswith("special_"):
            need(isinstance(r[k], bool), k, "must be true or false")


def rules_vector(r: dict) -> np.ndarray:
    return np.array([int(r[k]) for k in RULE_KEYS], dtype=np.int64)


def check_players(p, rules: dict | None = None, deck: Deck | None = None) -> int:
    try:
        v = int(p)
    except (TypeError, ValueError):
        raise PlaytestError(f"must be 2..6, got {p!r}", field="--players") from None
    if (v != p and not isinstance(p, str)) or not MIN_PLAYERS <= v <= MAX_PLAYERS:
        raise PlaytestError(f"must be 2..6, got {p!r}", field="--players")
    if rules is not None and deck is not None and v * rules["hand_size"] + 1 > deck.n:
        raise PlaytestError(f"{v} players x {rules['hand_size']} cards + the starting card exceed the "
                            f"{deck.n}-card deck", field="hand_size")
    if rules is not None and rules["first_starter"] >= v:
        raise PlaytestError(f"must be a seat of the game (0..{v - 1})", field="first_starter")
    return v


# ------------------------------------------------------------------ records
# one row per game, int64 in the kernel; this table names the fields and their dtypes
_PER_SEAT = [(f"{stem}_{p}", "int8") for stem in ("elim_round", "elim_order", "losses") for p in range(MAX_PLAYERS)]
RECORD_DTYPES = [
    ("winner", "int8"),     # winning seat (last not eliminated), -1 if capped
    ("capped", "bool"),     # a cap ended the game (never a win or a loss)
    ("turns", "int32"),     # turns played in the whole game (lays and draws; skipped turns are not turns)
    ("first", "int8"),      # seat that moved first in round 1
    ("players", "int8"),
    ("rounds", "int16"),    # rounds started (the capped round included)
    ("cap_kind", "int8"),   # 0 none, 1 turns per round, 2 rounds per game
    ("loser_r1", "int8"),   # loser of round 1, -1 if round 1 was capped
    ("first_out_r1", "int8"),  # first seat to lay its last card in round 1, -1 none
    ("revives", "int16"),   # skull VII revivals (how often the skull fires)
    ("reshuffles", "int16"),
    ("draw_cards", "int16"),   # VII / Lord cards laid with their draw effect on
    ("skip_cards", "int16"),   # Aces laid
    ("hand_cards", "int16"),   # Hands laid
    ("penalty_drawn", "int32"),  # cards drawn for draw effects
    ("last_round_turns", "int16"),  # turns of the last round (the capped one, if capped)
] + _PER_SEAT   # elim_round_p (0 never), elim_order_p (1 first out of the game, 0 never), losses_p
RECORD_FIELDS = tuple(n for n, _ in RECORD_DTYPES)
N_FIELDS = len(RECORD_FIELDS)
F = {n: i for i, n in enumerate(RECORD_FIELDS)}
F_ELIM_ROUND = F["elim_round_0"]
F_ELIM_ORDER = F["elim_order_0"]
F_LOSSES = F["losses_0"]
