"""River battle as data: rule options (``rules.toml``), the battle deck (``deck.toml``),
the dam tiles (``tiles.toml``), the tactic cards (``tactics.toml``), all validated with
one-line ``file: field: reason`` errors; the int64 rule vector, the int64 constant table
(``tables``) and the state-vector layout shared by the kernel, the reference engine and
every strategy.

Cards are small ints: a battle card is ``colour * 12 + value`` (0..59; the engines keep
sets of battle cards as bits of an int64), a tactic card is ``TACTIC0 + i`` for the i-th
card of the tactic pile (``tables[TB_TACT + i]`` = its effect). ``NONE = -1`` marks an
empty or hidden slot.

Seats: 0 = attacker (moves first), 1 = defender. Dams are addressed by *position* in the
row (0..6); ``S[O_TILE + pos]`` is the tile index (0..6, id - 1) lying there.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import PlaytestError, requirer
from ..toml_io import is_whole, load_options, load_toml

HERE = Path(__file__).resolve().parent
RULES_FILE = HERE / "rules.toml"
DECK_FILE = HERE / "deck.toml"
TILES_FILE = HERE / "tiles.toml"
TACTICS_FILE = HERE / "tactics.toml"

ATTACKER, DEFENDER = 0, 1
ROLES = ("attacker", "defender")
NONE = -1
VSTRIDE = 12           # card code = colour * VSTRIDE + value
MAX_COLOURS = 5
N_TILES = 7
MAX_SIDE = 4           # a side holds at most 4 cards (tiles ask for 2..4)
MAX_HAND = 40          # a player who cannot play still draws: hands can grow past the hand size
DECK_CAP = 64
MAX_TACTICS = 16
TACTIC0 = 64           # tactic card codes: TACTIC0 + i
DISC_CAP = 96

# ------------------------------------------------------------------ formation modes
M_ALL, M_SUM, M_LOW, M_RUNS, M_COLOUR, M_SAME = 0, 1, 2, 3, 4, 5
MODE_NAMES = ("all", "sum", "lowest", "runs", "colour", "same")
# a formation's key: type * KEY_TYPE + s, s = the sum (or KEY_LOW - sum on "lowest" tiles);
# the higher key is stronger. Types on "all": 4 colour run, 3 same, 2 colour, 1 run, 0 sum;
# on the restricted tiles: 1 the counted family, 0 sum.
KEY_TYPE = 64
KEY_LOW = 63
TYPE_NAMES_ALL = ("sum", "run", "colour", "same strength", "colour run")

# ------------------------------------------------------------------ tactic effects
EF_NONE, EF_STEAL = 0, 1
EFFECT_NAMES = {"steal": EF_STEAL}

# ------------------------------------------------------------------ moves
# Sorted ascending in every legal move list.
MV_CLAIM = 0           # + pos: declare control of the dam at pos (attacker)
MV_RETREAT = 100       # + pos: discard all attacker cards at pos (attacker, preparation)
MV_LOG = 200           # + pos: throw a log at pos (defender, preparation)
MV_PLAY = 1000         # + card * 8 + pos: play a battle card on your side at pos
MV_STEAL = 2000        # + (src_pos * 4 + src_idx) * 8 + dst_pos: play a "steal" tactic card
MV_DRAW_BATTLE = 3000  # draw from the battle pile (tactics on, both piles non-empty)
MV_DRAW_TACTIC = 3001  # draw from the tactic pile
MV_END = 9000          # skip the preparation / end the turn / pass an impossible play
MAX_MOVES = 512

# decision phases
PH_DONE, PH_A_PREP, PH_A_PLAY, PH_A_END, PH_D_PREP, PH_D_PLAY, PH_DRAW = 0, 1, 2, 3, 4, 5, 6
PHASE_NAMES = ("done", "attacker preparation", "attacker play", "attacker end of turn",
               "defender preparation", "defender play", "draw")

# end reasons
END_NONE, END_FOURTH, END_DESTROY, END_DECKOUT, END_CAP, END_ILLEGAL = 0, 1, 2, 3, 4, 5
REASON_NAMES = ("running", "fourth dam damaged", "damaged dam destroyed", "deck ran out",
                "turn cap", "illegal strategy answer")

# ------------------------------------------------------------ state layout
O_CUR = 0          # seat deciding now
O_TURN = 1         # turns started so far (attacker and defender turns)
O_PHASE = 2        # PH_* of the pending decision
O_WINNER = 3       # -1 running / no winner, 0 attacker, 1 defender
O_REASON = 4       # R_*
O_DECIDE = 5       # tile index (0..6) of the deciding dam (attacker wins), -1 otherwise
O_LOGS = 6         # logs left
O_FINAL = 7        # 0 normal, 1 the deck ran out (next attacker turn is the last), 2 last turn running
O_DAMAGED = 8      # dams damaged so far
O_STAMP = 9        # completion counter (stamps of complete sides)
O_CLAIMS = 10
O_RETREATS = 11
O_LOGS_USED = 12
O_CANCELS = 13     # duck/beaver cancellations
O_CAPPED = 14
O_STEALS = 15      # tactic "steal" cards played
O_DECK_N = 16
O_DECK = 17                                   # [64] battle pile, bottom first (top = last)
O_TDECK_N = O_DECK + DECK_CAP
O_TDECK = O_TDECK_N + 1                       # [16] tactic pile
O_HAND_N = O_TDECK + MAX_TACTICS              # [2]
O_HAND = O_HAND_N + 2                         # [2 * MAX_HAND] hands in arrival order
O_TILE = O_HAND + 2 * MAX_HAND                # [7] tile index at each position
O_TSTATE = O_TILE + N_TILES                   # [7] 0 intact, 1 damaged, 2 destroyed (by position)
O_SIDE_N = O_TSTATE + N_TILES                 # [14] cards at (pos, seat): pos * 2 + seat
O_SIDE = O_SIDE_N + 2 * N_TILES               # [56] (pos * 2 + seat) * 4 + i, i = 0 nearest the dam
O_DONE = O_SIDE + 2 * N_TILES * MAX_SIDE      # [14] completion stamp of (pos, seat), 0 incomplete
O_DISC_N = O_DONE + 2 * N_TILES
O_DISC = O_DISC_N + 1                         # [96] public discards, oldest first
O_DECK0 = O_DISC + DISC_CAP                   # battle pile size after the deal (the defender's clock)
O_DAMS = O_DECK0 + 1                          # dams_to_win (the attacker's goal), for the score
S_LEN = O_DAMS + 1

# ------------------------------------------------------------ constant table (int64)
TB_TILE = 0            # [7 * 4] per tile index: cards intact, mode intact, cards damaged, mode damaged
TB_NCOL = 28
TB_NVAL = 29
TB_DUCK = 30
TB_BEAVER = 31
TB_FULL = 32           # bit mask of the battle cards in the deck, bits 0..29 (strategies get the
TB_FULL_HI = 33        # table as float64: every entry stays below 2**53), then bits 30..59
TB_TACT_N = 34         # tactic pile size
TB_TACT = 35           # [16] effect of tactic card i
TB_LEN = TB_TACT + MAX_TACTICS

DOMAIN = 0x5217E4          # game i of seed s uses stream (s, i, DOMAIN)
STRATEGY_DOMAIN = 0x5217E5  # the strategies' own stream (s, i, STRATEGY_DOMAIN)
SEARCH_DOMAIN = 0x5217E6

# ------------------------------------------------------------------ rules
STR_OPTIONS = {"tie_rule": ("first", "defender", "defender_complete"),
               "deckout_trigger": ("empty_draw", "last_card")}
RULE_KEYS = ("hand_size", "logs", "shuffle_tiles", "tie_rule", "claim_by_proof", "duck_beaver",
             "dams_to_win", "destroy_wins", "deckout_trigger", "attacker_last_turn", "tactics",
             "max_turns")
R = {k: i for i, k in enumerate(RULE_KEYS)}
R_HAND = R["hand_size"]
R_LOGS = R["logs"]
R_SHUFFLE = R["shuffle_tiles"]
R_TIE = R["tie_rule"]                  # 0 first completed wins, 1 defender holds ties, 2 defender holds
                                       # ties of two complete formations only (a proof ignores a tying completion)
R_PROOF = R["claim_by_proof"]
R_DUCK = R["duck_beaver"]
R_DAMS = R["dams_to_win"]
R_DESTROY_WINS = R["destroy_wins"]
R_TRIGGER = R["deckout_trigger"]       # 0 empty draw, 1 last card drawn
R_LAST_TURN = R["attacker_last_turn"]
R_TACTICS = R["tactics"]
R_MAX_TURNS = R["max_turns"]


def load_rules(path=None, overrides: dict | None = None) -> dict:
    """Defaults from ``rules.toml``, then a user TOML file, then ``--set`` overrides."""
    return load_options(RULES_FILE, path, overrides, validate_rules)


def validate_rules(r: dict, where: str) -> None:
    need = requirer(where)
    missing = [k for k in RULE_KEYS if k not in r]
    if missing:
        raise PlaytestError("missing rule option", where, missing[0])
    need(1 <= r["hand_size"] <= 12, "hand_size", "must be 1..12")
    need(0 <= r["logs"] <= 20, "logs", "must be 0..20")
    for k, allowed in STR_OPTIONS.items():
        need(r[k] in allowed, k, f"must be one of {', '.join(allowed)}, got {r[k]!r}")
    need(1 <= r["dams_to_win"] <= N_TILES, "dams_to_win", f"must be 1..{N_TILES}")
    need(1 <= r["max_turns"] <= 10000, "max_turns", "must be 1..10000")


def rules_vector(r: dict) -> np.ndarray:
    out = []
    for k in RULE_KEYS:
        v = r[k]
        out.append(STR_OPTIONS[k].index(v) if k in STR_OPTIONS else int(v))
    return np.array(out, dtype=np.int64)


# ------------------------------------------------------------------ content files
def load_deck(path=DECK_FILE) -> dict:
    d = load_toml(path)
    need = requirer(str(path))
    for k in ("colours", "values", "duck", "beaver"):
        need(k in d, k, "missing")
    need(isinstance(d["colours"], list) and 1 <= len(d["colours"]) <= MAX_COLOURS
         and all(isinstance(c, str) and c.strip() for c in d["colours"]), "colours",
         f"must be a list of 1..{MAX_COLOURS} colour names")
    need(len(set(d["colours"])) == len(d["colours"]), "colours", "names must be distinct")
    need(is_whole(d["values"]) and 2 <= d["values"] <= VSTRIDE, "values", f"must be 2..{VSTRIDE}")
    for k in ("duck", "beaver"):
        need(is_whole(d[k]) and 0 <= d[k] < d["values"], k, f"must be a value 0..{d['values'] - 1}")
    need(d["duck"] != d["beaver"], "beaver", "must differ from duck")
    return d


def load_tiles(path=TILES_FILE) -> list:
    d = load_toml(path)
    need = requirer(str(path))
    tiles = d.get("tile")
    need(isinstance(tiles, list) and len(tiles) == N_TILES, "tile", f"must list exactly {N_TILES} tiles")
    out = []
    ids = set()
    for i, t in enumerate(tiles):
        need(isinstance(t, dict), f"tile[{i}]", f"must be a table, got {t!r}")
        need(is_whole(t.get("id")), f"tile[{i}].id", "missing or not an integer")
        need(t["id"] not in ids, f"tile[{i}].id", f"duplicate id {t['id']}")
        ids.add(t["id"])
        sides = []
        for side in ("intact", "damaged"):
            s = t.get(side)
            need(isinstance(s, dict), f"tile[{i}].{side}", "missing (a table with cards and counts)")
            need(isinstance(s.get("cards"), int) and 2 <= s["cards"] <= MAX_SIDE, f"tile[{i}].{side}.cards",
                 f"must be 2..{MAX_SIDE}, got {s.get('cards')!r}")
            need(isinstance(s.get("counts"), str) and s["counts"] in MODE_NAMES, f"tile[{i}].{side}.counts",
                 f"unknown formation rule {s.get('counts')!r} (known: {', '.join(MODE_NAMES)})")
            sides.append((s["cards"], MODE_NAMES.index(s["counts"])))
        out.append({"id": t["id"], "intact": sides[0], "damaged": sides[1]})
    need(sorted(ids) == list(range(1, N_TILES + 1)), "tile", f"ids must be 1..{N_TILES}")
    out.sort(key=lambda t: t["id"])
    return out


def load_tactics(path=TACTICS_FILE) -> list:
    d = load_toml(path)
    need = requirer(str(path))
    cards = d.get("card", [])
    need(isinstance(cards, list), "card", "must be a list of tables")
    pile = []
    for i, c in enumerate(cards):
        need(isinstance(c, dict), f"card[{i}]", f"must be a table, got {c!r}")
        need(isinstance(c.get("name"), str), f"card[{i}].name", "missing")
        need(isinstance(c.get("effect"), str) and c["effect"] in EFFECT_NAMES, f"card[{i}].effect",
             f"unknown effect {c.get('effect')!r} (vocabulary: {', '.join(EFFECT_NAMES)})")
        count = c.get("count", 1)
        need(is_whole(count) and 0 <= count <= MAX_TACTICS, f"card[{i}].count", f"must be 0..{MAX_TACTICS}")
        pile += [(c["name"], EFFECT_NAMES[c["effect"]])] * count
    need(len(pile) <= MAX_TACTICS, "card", f"at most {MAX_TACTICS} tactic cards in all, got {len(pile)}")
    return pile


_SHIPPED: dict = {}


def _shipped_content():
    """The shipped deck, tiles and tactic cards, parsed once per process while the files
    keep their modification times (``make_tables`` is called by every run: parsing the
    three TOML files was most of a short run's Python time)."""
    stamp = tuple((str(f), Path(f).stat().st_mtime_ns) for f in (DECK_FILE, TILES_FILE, TACTICS_FILE))
    if _SHIPPED.get("stamp") != stamp:
        _SHIPPED.update(stamp=stamp, content=(load_deck(), load_tiles(), load_tactics()))
    return _SHIPPED["content"]


def make_tables(deck: dict | None = None, tiles: list | None = None, tactics: list | None = None) -> np.ndarray:
    if deck is None or tiles is None or tactics is None:
        d0, t0, c0 = _shipped_content()
        deck = deck if deck is not None else d0
        tiles = tiles if tiles is not None else t0
        tactics = tactics if tactics is not None else c0
    t = np.zeros(TB_LEN, np.int64)
    for i, tile in enumerate(tiles):
        t[TB_TILE + 4 * i: TB_TILE + 4 * i + 4] = (*tile["intact"], *tile["damaged"])
    t[TB_NCOL] = len(deck["colours"])
    t[TB_NVAL] = deck["values"]
    t[TB_DUCK] = deck["duck"]
    t[TB_BEAVER] = deck["beaver"]
    full = 0
    for c in range(len(deck["colours"])):
        for v in range(deck["values"]):
            full |= 1 << (c * VSTRIDE + v)
    t[TB_FULL] = full & ((1 << 30) - 1)
    t[TB_FULL_HI] = full >> 30
    t[TB_TACT_N] = len(tactics)
    for i, (_, eff) in enumerate(tactics):
        t[TB_TACT + i] = eff
    return t


TACTIC_NAMES = tuple(name for name, _ in load_tactics())
COLOUR_NAMES = tuple(load_deck()["colours"])


def card_name(c: int) -> str:
    if c < 0:
        return "?"
    if c >= TACTIC0:
        i = c - TACTIC0
        return TACTIC_NAMES[i] if i < len(TACTIC_NAMES) else f"tactic{i}"
    return f"{COLOUR_NAMES[c // VSTRIDE] if c // VSTRIDE < len(COLOUR_NAMES) else c // VSTRIDE}{c % VSTRIDE}"


def card(colour: int, value: int) -> int:
    return colour * VSTRIDE + value


# ------------------------------------------------------------------ records
RECORD_FIELDS = (
    "winner",      # 0 attacker, 1 defender, -1 none (capped)
    "capped",      # 1 if the turn cap ended the game
    "turns",       # turns started (attacker and defender turns)
    "first",       # seat that moved first (always 0, the attacker)
    "reason",      # END_*: 1 fourth dam damaged, 2 damaged dam destroyed, 3 deck ran out, 4 cap, 5 illegal
    "decide_tile", # tile id (1..7) of the dam whose damage/destruction won; 0 if the defender won
    "damaged",     # dams damaged during the game
    "claims",      # controls declared
    "retreats",
    "logs_used",
    "cancels",     # duck/beaver cancellations
    "steals",      # tactic "steal" cards played
    "deck_left",   # battle cards left in the pile at the end
    "dam1", "dam2", "dam3", "dam4", "dam5", "dam6", "dam7",  # final state by tile id: 0 intact, 1 damaged, 2 destroyed
)
N_FIELDS = len(RECORD_FIELDS)
RECORD_DTYPES = {"winner": "int8", "capped": "bool", "turns": "int32", "first": "int8"}
