"""The dice duel as data: rule options and heroes loaded from TOML, validated, and
packed into the arrays the compiled kernel and the reference engine share.

Each hero file (``heroes/*.toml``) gives six faces, abilities (a target per tier plus
effects) and defence dice; ``rules.toml`` gives every number and Decision of the digest.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numba as nb
import numpy as np

from ..dice import (MAX_ALTERNATIVES, MAX_SYMBOLS, Die, Target, parse_die, parse_target,
                    target_met_row)
from ..errors import PlaytestError, requirer
from ..toml_io import apply_options, load_options, load_toml
from .state import MAX_TURN_CAP

HERE = Path(__file__).resolve().parent
HEROES_DIR = HERE / "heroes"
RULES_FILE = HERE / "rules.toml"

# ability effects, in the order of the kernel's effect columns
EFFECTS = ("damage", "heal", "cp", "wounds", "daze", "shield", "steal")
E_DAMAGE, E_HEAL, E_CP, E_WOUNDS, E_DAZE, E_SHIELD, E_STEAL = range(len(EFFECTS))
BOOL_EFFECTS = ("daze", "shield")
# defence symbol effects
DEFENCE_EFFECTS = ("shield", "strike", "heal", "cp")
D_SHIELD, D_STRIKE, D_HEAL, D_CP = range(len(DEFENCE_EFFECTS))

MAX_ABILITIES = 8
MAX_TIERS = 4
MAX_DICE = 6
MAX_DEFENCE_DICE = 6

# rule option -> index in the kernel's int64 rule vector
RULE_KEYS = (
    "start_hp", "hp_cap", "start_cp", "cp_cap", "dice", "rolls", "roll_cost", "wound_cap",
    "shield_absorbs", "defence_shield", "income", "first_turn_income", "turn_cap",
    "mirror_matches", "max_shield_tokens", "shield_vs_strike_back", "shield_vs_wounds",
    "dazed_skips_upkeep", "first_player", "max_bought_rolls",
)
R = {k: i for i, k in enumerate(RULE_KEYS)}
FIRST_PLAYER_MODES = ("lot", "seat0")


# ---------------------------------------------------------------------- rules
def default_rules() -> dict:
    return load_toml(RULES_FILE)


def load_rules(path=None, overrides: dict | None = None) -> dict:
    """Defaults from ``rules.toml``, then a user file, then ``--set`` overrides."""
    return load_options(RULES_FILE, path, overrides, validate_rules)


def validate_rules(r: dict, where: str) -> None:
    need = requirer(where)

    need(r["start_hp"] >= 1, "start_hp", "must be >= 1")
    need(r["hp_cap"] >= r["start_hp"], "hp_cap", f"must be >= start_hp ({r['start_hp']})")
    need(r["cp_cap"] >= 0, "cp_cap", "must be >= 0")
    need(0 <= r["start_cp"] <= r["cp_cap"], "start_cp", f"must be between 0 and cp_cap ({r['cp_cap']})")
    need(1 <= r["dice"] <= MAX_DICE, "dice", f"must be 1..{MAX_DICE}")
    need(1 <= r["rolls"] <= 10, "rolls", "must be 1..10")
    need(r["roll_cost"] >= 1, "roll_cost", "must be >= 1 (a free extra roll is the 'rolls' option)")
    need(r["wound_cap"] >= 0, "wound_cap", "must be >= 0")
    need(r["shield_absorbs"] >= 0, "shield_absorbs", "must be >= 0")
    need(r["defence_shield"] >= 0, "defence_shield", "must be >= 0")
    need(r["income"] >= 0, "income", "must be >= 0")
    need(1 <= r["turn_cap"] <= MAX_TURN_CAP, "turn_cap", f"must be 1..{MAX_TURN_CAP}")
    need(r["hp_cap"] <= 10000, "hp_cap", "must be at most 10000")
    need(r["cp_cap"] <= 10000, "cp_cap", "must be at most 10000")
    need(r["max_shield_tokens"] >= 0, "max_shield_tokens", "must be >= 0")
    need(r["max_bought_rolls"] >= 0, "max_bought_rolls", "must be >= 0")
    need(r["first_player"] in FIRST_PLAYER_MODES, "first_player",
         f"must be one of {', '.join(FIRST_PLAYER_MODES)}, got {r['first_player']!r}")


def rules_vector(r: dict) -> np.ndarray:
    v = np.zeros(len(RULE_KEYS), np.int64)
    for k, i in R.items():
        val = r[k]
        if k == "first_player":
            val = FIRST_PLAYER_MODES.index(val)
        v[i] = int(val)
    return v


# ---------------------------------------------------------------------- heroes
@dataclass
class Tier:
    target: Target
    effects: dict  # effect name -> int


@dataclass
class Ability:
    name: str
    tiers: list
    undefendable: bool = False

    @property
    def tiered(self) -> bool:
        return len(self.tiers) > 1


@dataclass
class Hero:
    key: str
    name: str
    die: Die
    abilities: list
    defence_dice: int
    defence: dict  # symbol -> {effect: amount}
    source: str = ""
    order: int = 100
    symbols: list = field(default_factory=list)

    def ability_index(self, name: str, field: str | None = None) -> int:
        for i, a in enumerate(self.abilities):
            if a.name.lower() == name.lower():
                return i
        raise PlaytestError(f"hero {self.name!r} has no ability {name!r} "
                            f"(abilities: {', '.join(a.name for a in self.abilities)})", field=field)


_HERO_KEYS = {"name", "order", "faces", "abilities", "defence"}
_ABILITY_KEYS = {"name", "target", "tiers", "undefendable", *EFFECTS}
_TIER_KEYS = {"target", *EFFECTS}


def _effects(d: dict, where: str, field: str) -> dict:
    out = {}
    for e in EFFECTS:
        v = d.get(e, 0)
        if e in BOOL_EFFECTS:
            if not isinstance(v, bool) and v not in (0, 1):
                raise PlaytestError(f"must be true or false, got {v!r}", where, f"{field}.{e}")
            v = int(bool(v))
        elif not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 1000:
            raise PlaytestError(f"must be a whole number 0..1000, got {v!r}", where, f"{field}.{e}")
        out[e] = v
    return out


def _unknown(d: dict, allowed: set, where: str, field: str) -> None:
    extra = sorted(set(d) - allowed)
    if extra:
        raise PlaytestError(f"unknown key {extra[0]!r} (allowed: {', '.join(sorted(allowed))})",
                            where, f"{field}.{extra[0]}" if field else extra[0])


def _check_tier_order(die: Die, tiers: list, n_dice: int, where: str, field: str) -> None:
    """Tiers go from the weakest up: every roll meeting tier k+1 meets tier k, so that
    "the best tier reached" is the last one met."""
    import itertools

    for combo in itertools.combinations_with_replacement(die.faces, n_dice):
        met = [t.target.met(combo) for t in tiers]
        for k in range(len(tiers) - 1):
            if met[k + 1] and not met[k]:
                raise PlaytestError(
                    f"tiers must go from the weakest up: the roll {' '.join(map(str, combo))} meets "
                    f"tier {k + 2} ({tiers[k + 1].target.text}) but not tier {k + 1} ({tiers[k].target.text})",
                    where, f"{field}.tiers")


def load_hero(path, n_dice: int = 5) -> Hero:
    path = Path(path)
    where = str(path)
    d = load_toml(path)
    _unknown(d, _HERO_KEYS, where, "")
    for k in ("name", "faces", "abilities", "defence"):
        if k not in d:
            raise PlaytestError("missing", where, k)
    if not isinstance(d["name"], str) or not d["name"].strip():
        raise PlaytestError("must be a non-empty string", where, "name")
    die = parse_die(d["faces"], where, "faces")
    symbols = die.symbols
    abilities = []
    if not isinstance(d["abilities"], list) or not d["abilities"]:
        raise PlaytestError("must be a non-empty list of [[abilities]] tables", where, "abilities")
    if len(d["abilities"]) > MAX_ABILITIES:
        raise PlaytestError(f"at most {MAX_ABILITIES} abilities", where, "abilities")
    for i, a in enumerate(d["abilities"]):
        f = f"abilities[{i}]"
        if not isinstance(a, dict):
            raise PlaytestError("must be a table", where, f)
        _unknown(a, _ABILITY_KEYS, where, f)
        if not isinstance(a.get("name"), str) or not a["name"].strip():
            raise PlaytestError("missing or empty", where, f"{f}.name")
        if ("tiers" in a) == ("target" in a):
            raise PlaytestError("give either 'target' (one tier) or 'tiers' (a list)", where, f)
        if "tiers" in a:
            if set(a) & set(EFFECTS):
                raise PlaytestError("effects go inside each tier when 'tiers' is given", where, f)
            raw = a["tiers"]
            if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_TIERS:
                raise PlaytestError(f"must be a list of 1..{MAX_TIERS} tiers", where, f"{f}.tiers")
        else:
            raw = [{k: v for k, v in a.items() if k in _TIER_KEYS}]
        tiers = []
        for j, t in enumerate(raw):
            tf = f"{f}.tiers[{j}]" if "tiers" in a else f
            if not isinstance(t, dict):
                raise PlaytestError("must be a table", where, tf)
            _unknown(t, _TIER_KEYS, where, tf)
            target = parse_target(t.get("target"), symbols, n_dice, where, f"{tf}.target")
            tiers.append(Tier(target, _effects(t, where, tf)))
        _check_tier_order(die, tiers, n_dice, where, f)
        und = a.get("undefendable", False)
        if not isinstance(und, bool):
            raise PlaytestError(f"must be true or false, got {und!r}", where, f"{f}.undefendable")
        abilities.append(Ability(a["name"].strip(), tiers, und))
    names = [a.name.lower() for a in abilities]
    if len(set(names)) != len(names):
        raise PlaytestError("two abilities share a name", where, "abilities")
    df = d["defence"]
    if not isinstance(df, dict):
        raise PlaytestError("must be a table", where, "defence")
    _unknown(df, {"dice", "symbols"}, where, "defence")
    nd = df.get("dice")
    if not isinstance(nd, int) or isinstance(nd, bool) or not 0 <= nd <= MAX_DEFENCE_DICE:
        raise PlaytestError(f"must be a whole number 0..{MAX_DEFENCE_DICE}, got {nd!r}", where, "defence.dice")
    defence = {}
    table = df.get("symbols", {})
    if not isinstance(table, dict):
        raise PlaytestError(f"must be a table such as {{ heart = {{ heal = 1 }} }}, got {table!r}", where,
                            "defence.symbols")
    for sym, eff in table.items():
        fld = f"defence.symbols.{sym}"
        if sym not in symbols:
            raise PlaytestError(f"the die has no symbol {sym!r} (it shows: {', '.join(symbols)})", where, fld)
        if not isinstance(eff, dict):
            raise PlaytestError("must be a table such as { heal = 1 }", where, fld)
        _unknown(eff, set(DEFENCE_EFFECTS), where, fld)
        for k, v in eff.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise PlaytestError(f"must be a whole number >= 0, got {v!r}", where, f"{fld}.{k}")
        defence[sym] = {k: int(eff.get(k, 0)) for k in DEFENCE_EFFECTS}
    order = d.get("order", 100)
    if not isinstance(order, int) or isinstance(order, bool):
        raise PlaytestError(f"must be a whole number, got {order!r}", where, "order")
    return Hero(path.stem, d["name"].strip(), die, abilities, nd, defence, where, order, symbols)


def load_heroes(directory=None, n_dice: int = 5) -> list[Hero]:
    """All heroes of a directory, ordered by their ``order`` field then file name."""
    directory = Path(directory) if directory else HEROES_DIR
    if not directory.is_dir():
        raise PlaytestError("heroes directory not found", where=str(directory))
    files = sorted(directory.glob("*.toml"))
    if not files:
        raise PlaytestError("no hero files (*.toml)", where=str(directory))
    heroes = [load_hero(f, n_dice) for f in files]
    check_unique_heroes(heroes)
    heroes.sort(key=lambda h: (h.order, h.key))
    return heroes


def _norm_name(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def check_unique_heroes(heroes: list[Hero]) -> None:
    """Two heroes may not share a name or a key (file stem), compared ignoring case,
    spaces, '_' and '-': the tables would hold the same hero twice and ``--hero`` could
    not tell them apart."""
    seen: dict = {}
    for h in heroes:
        for what, value in (("name", h.name), ("key", h.key)):
            n = _norm_name(value)
            if n in seen and seen[n][0] is not h:
                other, other_what = seen[n]
                raise PlaytestError(f"hero {what} {value!r} is also the {other_what} of {other.source}: "
                                    "every hero needs its own name and file name", where=h.source, field="name")
            seen.setdefault(n, (h, what))


def find_hero(heroes: list[Hero], name: str, field: str = "--hero") -> int:
    """Index of a hero by key ('shadow_walker'), name ('Shadow Walker') or unambiguous prefix."""
    norm = name.strip().lower().replace(" ", "_").replace("-", "_")
    keys = [h.key for h in heroes]
    for i, h in enumerate(heroes):
        if norm in (h.key, h.name.lower().replace(" ", "_")):
            return i
    hits = [i for i, k in enumerate(keys) if k.startswith(norm)]
    if len(hits) == 1:
        return hits[0]
    raise PlaytestError(f"unknown hero {name!r} (heroes: {', '.join(keys)})", field=field)


# ---------------------------------------------------------------- packed tables
class DuelTables(NamedTuple):
    """Hero data as arrays, shared by the kernel, the reference engine and strategies.
    H heroes, A = MAX_ABILITIES, T = MAX_TIERS, L = MAX_ALTERNATIVES, S = MAX_SYMBOLS."""
    face_num: np.ndarray   # [H, 6] face numbers 1..6
    face_sym: np.ndarray   # [H, 6] hero-local symbol id of each face
    n_sym: np.ndarray      # [H]
    n_ab: np.ndarray       # [H] abilities per hero
    n_tier: np.ndarray     # [H, A]
    req_kind: np.ndarray   # [H*A*T, L] target of tier k of ability a of hero h at row (h*A + a)*T + k
    req_need: np.ndarray   # [H*A*T, L, S]
    req_n: np.ndarray      # [H*A*T, L]
    eff: np.ndarray        # [H, A, T, len(EFFECTS)]
    undef: np.ndarray      # [H, A] 1 if undefendable
    def_dice: np.ndarray   # [H]
    def_eff: np.ndarray    # [H, 6, len(DEFENCE_EFFECTS)] per face of the hero's die
    # legal-ability lookup for the kernel: a roll of n dice is a multiset of face indices,
    # coded as sum(code_pow[face]) and ranked by hand_rank; legal_lut[h, rank, a] is the
    # best tier of ability a it satisfies (-1: none), computed with dice.target_met_row
    code_pow: np.ndarray   # [6]
    hand_rank: np.ndarray  # [(n + 1) ** 6]
    legal_lut: np.ndarray  # [H, n_hands, A]


def tier_row(h: int, a: int, k: int) -> int:
    """Row of tier k of ability a of hero h in the flattened target tables."""
    return (h * MAX_ABILITIES + a) * MAX_TIERS + k


def build_tables(heroes: list[Hero], n_dice: int = 5) -> DuelTables:
    from ..odds.duel import hero_space

    H, A, T, L, S = len(heroes), MAX_ABILITIES, MAX_TIERS, MAX_ALTERNATIVES, MAX_SYMBOLS
    # uncollapsed space of n dice with six distinct faces: slot = face index
    space = hero_space(Hero("_", "_", heroes[0].die, [], 0, {}), n_dice)
    code_pow, hand_rank = space.lookup_tables()[:2]
    t = DuelTables(
        np.zeros((H, 6), np.int64), np.zeros((H, 6), np.int64), np.zeros(H, np.int64),
        np.zeros(H, np.int64), np.zeros((H, A), np.int64),
        np.full((H * A * T, L), -1, np.int64), np.zeros((H * A * T, L, S), np.int64),
        np.zeros((H * A * T, L), np.int64), np.zeros((H, A, T, len(EFFECTS)), np.int64),
        np.zeros((H, A), np.int64), np.zeros(H, np.int64),
        np.zeros((H, 6, len(DEFENCE_EFFECTS)), np.int64),
        code_pow.astype(np.int64), hand_rank.astype(np.int32),
        np.full((H, space.n_hands, A), -1, np.int8),
    )
    for h, hero in enumerate(heroes):
        syms = hero.symbols
        t.n_sym[h] = len(syms)
        for f, face in enumerate(hero.die.faces):
            t.face_num[h, f] = face.number
            t.face_sym[h, f] = syms.index(face.symbol)
            for e, name in enumerate(DEFENCE_EFFECTS):
                t.def_eff[h, f, e] = hero.defence.get(face.symbol, {}).get(name, 0)
        t.n_ab[h] = len(hero.abilities)
        t.def_dice[h] = hero.defence_dice
        for a, ab in enumerate(hero.abilities):
            t.n_tier[h, a] = len(ab.tiers)
            t.undef[h, a] = int(ab.undefendable)
            for k, tier in enumerate(ab.tiers):
                kinds, need, ns = tier.target.encode(syms)
                row = tier_row(h, a, k)
                t.req_kind[row] = kinds
                t.req_need[row] = need
                t.req_n[row] = ns
                for e, name in enumerate(EFFECTS):
                    t.eff[h, a, k, e] = tier.effects[name]
    _fill_legal_lut(t.legal_lut, space.hands, t.face_sym, t.face_num, t.n_sym, t.n_ab, t.n_tier,
                    t.req_kind, t.req_need, t.req_n)
    return t


@nb.njit(cache=True)
def _fill_legal_lut(lut, hands, face_sym, face_num, n_sym, n_ab, n_tier, req_kind, req_need, req_n):
    sym_counts = np.zeros(MAX_SYMBOLS, np.int64)
    num_counts = np.zeros(7, np.int64)
    for h in range(lut.shape[0]):
        for r in range(hands.shape[0]):
            sym_counts[:] = 0
            num_counts[:] = 0
            for f in range(6):
                sym_counts[face_sym[h, f]] += hands[r, f]
                num_counts[face_num[h, f]] += hands[r, f]
            for a in range(n_ab[h]):
                for k in range(n_tier[h, a]):
                    if target_met_row(sym_counts, num_counts, req_kind, req_need, req_n,
                                      (h * MAX_ABILITIES + a) * MAX_TIERS + k, n_sym[h]):
                        lut[h, r, a] = k


@dataclass
class DuelSetup:
    """Everything a run needs: heroes, their tables, the rule options, and the ``search``
    strategy's budget (rollouts per candidate; None: its default)."""
    heroes: list
    rules: dict
    tables: DuelTables = None
    rules_vec: np.ndarray = None
    search_budget: int | None = None

    def __post_init__(self):
        if self.tables is None:
            self.tables = build_tables(self.heroes, self.rules["dice"])
        if self.rules_vec is None:
            self.rules_vec = rules_vector(self.rules)


def load_setup(heroes_dir=None, rules_file=None, overrides: dict | None = None) -> DuelSetup:
    rules = load_rules(rules_file, overrides)
    heroes = load_heroes(heroes_dir, rules["dice"])
    return DuelSetup(heroes, rules)


@dataclass
class MatchupRun:
    """The records of a duel tournament (every ordered hero pair), as the duel's tables and
    report read them (``analysis/duel.py``, ``reports/duel.py``)."""

    heroes: list          # hero names, in index order
    pairs: list           # ordered (a, b) pairs played
    records: dict         # (a, b) -> records
    games: int            # games per ordered pair
    seed: int
    strategy: str
    rules: dict
    hero_keys: list = field(default_factory=list)
    engine: str = "kernel"
    setup: DuelSetup = None


def tournament_pairs(n_heroes: int, mirrors: bool) -> list:
    return [(a, b) for a in range(n_heroes) for b in range(n_heroes) if a != b or mirrors]
