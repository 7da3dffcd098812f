"""The game interface: one declarative description per game, registered once, and the
contract every game's engines and bindings follow, so that every verb, metric, table and
report section is written once (``analysis/``, ``reports/``, ``scripts/``) and works for
every registered game.

Layers (each imports only the ones above it in this list):

``simcore/``       rules: data loading and validation, the compiled kernel and the
                   readable reference engine of each game. Knows nothing of strategies:
                   a kernel takes the policy as a function argument.
``strategies/``    policies, and the *binding* of policies into a game's kernel
                   (``strategies/<game>/bind.py``, or ``strategies/<game>.py`` for the
                   first two games): it implements the :class:`GameAPI` below.
``analysis/``      one runner (matchups, tournaments, seat swaps, adaptive sampling), one
                   result schema, balance metrics and ratings over any game's records.
                   It reaches a game's play, strategies and data only through the registry
                   (:func:`get_game`), never by importing ``strategies/``; a game's own keys
                   of the result document are found by its name here
                   (``analysis.runs.RESULT_FIELDS``). The shared runner is a chain:
                   ``stats`` < ``metrics`` < ``aggregate`` < ``store`` < ``execution`` < ``runs``.
``reports/``       one report over the registry; a game's own sections are found by its
                   name in ``reports/sections.py``.
``scripts/``       one set of CLI verbs over the registry (``playground/`` likewise).

``tests/test_layers.py`` walks every import (inside functions too) and fails on an upward
one, on ``analysis/`` importing ``strategies/``, or on a cycle among ``analysis/`` modules.

A game's folder, the same names in every game (``simcore/<game>/``)::

    rules.toml     every number and Decision of the rules digest, with its default
    RULES.md       the rules digest (the spec), shipped with the package
    model.py       loading/validation of rules and content, state layout, record dtypes
    kernel.py      the numba engine (cache=True)
    reference.py   the pure-Python twin, readable as the digest, same random stream
    game.py        ``GAME = GameType(...)``, registered here

The numba caching pattern (the one place it is decided): numba caches a compiled function
on disk only if it is defined at module level and does not close over other dispatchers.
So every game's binding defines ONE cached kernel entry per game that dispatches the
*built-in* strategies by integer id (``sids``: one id per seat, so any strategy can sit in
any seat without a compiled entry per combination), and a user's plug-in strategy gets an
entry compiled on first use in each process (not cached; ``strategies/bind.py``).

Records (``dict[str, ndarray]``, one row per game) carry at least the standard fields
:data:`STANDARD_FIELDS`; when the caller asks for ``trace=True`` they also carry the lead
statistics of :mod:`simcore.leads`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from .errors import PlaytestError

KINDS = ("symmetric", "asymmetric", "cooperative")

# name -> (dtype, meaning): every game's records have these
STANDARD_FIELDS = {
    "winner": ("int8", "winning seat (0-based); -1 = no winner (draw, cooperative loss, cap)"),
    "capped": ("bool", "a turn or round cap ended the game (never counted as a win or a loss)"),
    "turns": ("int32", "turns played (each game documents its own notion of a turn)"),
    "first": ("int8", "the seat that moved first"),
}
LEAD_FIELDS = ("lead_changes", "decided_at", "drama")


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once (OpenSpiel's ``GameType``, in this project's terms).

    ``entrants``: what a matchup is made of: ``"heroes"`` (each seat picks a hero from the
    game's content), ``"roles"`` (seat i plays ``roles[i]``) or ``"seats"`` (identical
    seats: only the strategies differ).
    ``score``: the per-turn score the lead metrics follow (HP margin, enemies defeated...).
    """

    name: str
    title: str
    kind: str
    min_seats: int
    max_seats: int
    default_seats: int
    entrants: str = "seats"
    roles: tuple = ()
    dynamics: str = "sequential"
    chance: str = "sampled"            # random events drawn from the per-game stream
    information: str = "imperfect"     # "perfect" or "imperfect"
    utility: str = "zero_sum"          # "zero_sum", "identical" (cooperative)
    score: str = ""
    default_strategy: str = "greedy"
    api: str = ""                      # "package.module:OBJECT" implementing GameAPI
    package: str = ""                  # "simcore.<game>"
    description: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind must be one of {KINDS}")
        if not 1 <= self.min_seats <= self.default_seats <= self.max_seats:
            raise ValueError(f"{self.name}: need 1 <= min_seats <= default_seats <= max_seats")
        if self.entrants not in ("heroes", "roles", "seats"):
            raise ValueError(f"{self.name}: entrants must be heroes, roles or seats")
        if self.entrants == "roles" and len(self.roles) != self.max_seats:
            raise ValueError(f"{self.name}: one role per seat")

    @property
    def folder(self) -> Path:
        return Path(importlib.import_module(self.package).__file__).resolve().parent

    @property
    def digest(self) -> Path:
        return self.folder / "RULES.md"

    def seat_label(self, seat: int) -> str:
        return self.roles[seat] if self.roles else f"seat {seat + 1}"


@dataclass(frozen=True)
class Editable:
    """One number (or switch, or choice) of a game's data that a designer may change:
    ``key`` is stable ("rules.start_hp", "hero.light_guardian.3.0.damage"), ``lo``/``hi``
    its inclusive bounds, ``file`` the data file it lives in (relative to a data set)."""

    key: str
    label: str
    group: str
    value: object
    kind: str = "int"            # "int", "float", "bool" or "choice"
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()
    file: str = "rules.toml"

    def check(self, value):
        """The value, converted to this number's kind, or a PlaytestError naming ``key``."""
        return check_editable(self, value)


def check_editable(e: Editable, value):
    def bad(msg):
        return PlaytestError(msg, field=e.key)

    if e.kind == "bool":
        if isinstance(value, bool):
            return value
        if value in ("true", "false"):
            return value == "true"
        raise bad(f"must be true or false, got {value!r}")
    if e.kind == "choice":
        if value not in e.choices:
            raise bad(f"must be one of {', '.join(map(str, e.choices))}, got {value!r}")
        return value
    if isinstance(value, str):
        try:
            value = float(value.strip()) if e.kind == "float" else int(value.strip())
        except ValueError:
            raise bad(f"must be a {'number' if e.kind == 'float' else 'whole number'}, got {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise bad(f"must be a number, got {value!r}")
    if e.kind == "int":
        if float(value) != int(value):
            raise bad(f"must be a whole number, got {value!r}")
        value = int(value)
    else:
        value = float(value)
    if (e.lo is not None and value < e.lo) or (e.hi is not None and value > e.hi):
        raise bad(f"must be between {e.lo:g} and {e.hi:g}, got {value:g}")
    return value


def rule_editables(rules: dict, bounds: dict) -> list[Editable]:
    """Every rule option as an :class:`Editable`; ``bounds``: option -> (lo, hi) or a tuple
    of choices (strings). Options without bounds get [0, max(10, 10 x default)] and the
    game's own validator still has the last word."""
    out = []
    for k, v in rules.items():
        b = bounds.get(k)
        if isinstance(v, bool):
            out.append(Editable(f"rules.{k}", k, "Rules", v, "bool"))
        elif isinstance(v, str):
            out.append(Editable(f"rules.{k}", k, "Rules", v, "choice", choices=tuple(b or (v,))))
        elif isinstance(v, (int, float)):
            lo, hi = b if b else (0, max(10, 10 * abs(v)))
            out.append(Editable(f"rules.{k}", k, "Rules", v, "int" if isinstance(v, int) else "float", lo, hi))
    return out


class GameAPI:
    """What the shared runner, CLI and reports call; each game's binding subclasses it.

    Every method that a worker process runs (``play``) must be reachable from a
    module-level object (the registry resolves ``GameType.api`` in each process).
    """

    type: GameType

    # --- data
    def load_rules(self, path=None, overrides: dict | None = None) -> dict:
        raise NotImplementedError

    def default_rules(self) -> dict:
        return self.load_rules()

    def load_content(self, rules: dict, path=None):
        """The game's content (heroes...) or None. ``path`` overrides the built-in folder."""
        return None

    def entrant_names(self, content) -> list[str]:
        """Keys of the heroes (``entrants == "heroes"``), else the role/seat labels."""
        return []

    def entrant_titles(self, content) -> list[str]:
        return self.entrant_names(content)

    # --- strategies
    def strategies(self) -> dict[str, str]:
        """Built-in strategy name -> one-line description."""
        raise NotImplementedError

    def check_strategy(self, spec: str) -> str:
        """Validate a built-in name or a plug-in ``package.module:function`` (imported and
        checked now, before any game); returns the canonical name."""
        raise NotImplementedError

    def strategy_label(self, spec: str) -> str:
        return spec

    # --- play
    def make_setup(self, rules: dict, content, seats: int, params: dict | None = None):
        """Everything ``play`` needs that does not change between matchups (picklable)."""
        raise NotImplementedError

    def play(self, start: int, stop: int, seed: int, setup, lineup: tuple, seat_strategies: tuple,
             engine: str = "kernel", trace: bool = False) -> dict:
        """Records of games ``start..stop-1``: ``lineup[s]`` = entrant of seat ``s`` (hero
        index; ignored for seats/roles games), ``seat_strategies[s]`` its strategy."""
        raise NotImplementedError

    def replay(self, setup, lineup: tuple, seat_strategies: tuple, seed: int, index: int) -> str:
        """The reference engine's play-by-play of one game."""
        raise NotImplementedError

    def reduce(self, rec: dict) -> dict:
        """Exact histograms (name -> int64 array) of one chunk's records that the game's own
        tables need beyond the shared aggregate (``analysis.aggregate``); summed when chunks
        merge (a shorter axis is zero-padded), so they never depend on the chunking."""
        return {}

    def record_bytes(self, setup) -> int:
        """Bytes of one game's record (to refuse runs whose records would not fit)."""
        return 64

    # --- editing (the balance playground, ``playtest serve``); rules-only defaults
    content_folder: str | None = None   # sub-folder of a data set with the content files ("heroes")

    def rule_bounds(self) -> dict:
        """Rule option -> (lo, hi), or a tuple of the allowed strings."""
        return {}

    def editable_numbers(self, rules: dict, content) -> list[Editable]:
        """Every number of the rules and the content a designer may change, with bounds."""
        return rule_editables(rules, self.rule_bounds())

    def apply_edits(self, rules: dict, content, edits: dict) -> tuple[dict, object]:
        """(rules, content) with ``edits`` (key -> value) applied and validated like a data
        file; a bad value raises a PlaytestError whose ``field`` is the key."""
        known = {e.key: e for e in self.editable_numbers(rules, content)}
        sets = {}
        for k, v in edits.items():
            if k not in known or not k.startswith("rules."):
                raise PlaytestError("not an editable number of this game", field=k)
            sets[k[len("rules."):]] = known[k].check(v)
        return validated_rules(self, rules, sets), content

    def renamed_number(self, key: str, keys) -> str | None:
        """The key (among ``keys``) that replaced an editable number's old key ``key`` after a
        change of the game's data, or None (saved edits and ``fix --vary`` name the new key)."""
        return None

    def export_files(self, rules: dict, content, base_rules: dict) -> dict[str, str]:
        """The data files of an edited game as TOML text, relative path -> text: the rule
        options that differ from the defaults (``--rules rules.toml``)."""
        return {"rules.toml": rules_toml(rules, self.load_rules())}

    def edit_scope(self, edits: dict) -> set | None:
        """The entrants (``entrant_names`` keys) whose games ``edits`` can change, or None
        for every game (the default: a rule changes them all). The playground replays only
        the matchups with such an entrant and reuses the baseline's records for the others,
        which would replay bit-identical (same seeds, same data for both seats)."""
        return None

    def dice_spec(self, rules: dict, content, entrant: int) -> dict | None:
        """A dice game's dice for the odds explorer: ``{"title", "dice": [Die, ...],
        "targets": [(label, Target), ...], "free_rolls", "extra_rolls"}`` for one entrant,
        or None when the game has no dice (``simcore/odds/view.py`` does the rest)."""
        return None

    def report_plan(self) -> dict:
        """What ``playtest report GAME`` plays by default: ``{"strategies": [...],
        "games": n, "seats": [..]}`` (the built-in strategies fast enough for a report)."""
        fast = [s for s in self.strategies() if s not in ("search", "cheat")]
        return {"strategies": fast, "games": 20000, "seats": [self.type.default_seats]}


def validated_rules(api: GameAPI, rules: dict, sets: dict) -> dict:
    """``rules`` with ``sets`` on top, through the game's own loader and validator (the
    error names the edited key as ``rules.<option>``)."""
    base = {k: v for k, v in rules.items() if api.load_rules().get(k) != v}
    try:
        return api.load_rules(None, {**base, **sets})
    except PlaytestError as e:
        key = e.field if e.field in rules else next(iter(sets), None)
        raise PlaytestError(e.reason, field=f"rules.{key}" if key else None) from None


def rules_toml(rules: dict, defaults: dict) -> str:
    """The options of ``rules`` that differ from ``defaults``, as a TOML file."""
    import json

    lines = ["# rule options changed from the defaults (playtest GAME rules lists them all)"]
    for k, v in rules.items():
        if defaults.get(k) != v:
            lines.append(f"{k} = {str(v).lower() if isinstance(v, bool) else json.dumps(v)}")
    return "\n".join(lines) + "\n"


_REGISTRY: dict[str, str] = {}


def register(game_type: GameType) -> GameType:
    _REGISTRY[game_type.name] = game_type.api
    _TYPES[game_type.name] = game_type
    return game_type


_TYPES: dict[str, GameType] = {}
_APIS: dict[str, GameAPI] = {}

# every game, in the order ``playtest games`` lists them: "name" -> module declaring GAME
BUILTIN_GAMES = {
    "duel": "simcore.duel.game",
    "regicide": "simcore.regicide.game",
    "dicethrone": "simcore.dicethrone.game",
    "arcade": "simcore.arcade.game",
    "river": "simcore.river.game",
}


def _load_types() -> None:
    for name, mod in BUILTIN_GAMES.items():
        if name in _TYPES:
            continue
        try:
            m = importlib.import_module(mod)
        except ModuleNotFoundError as e:  # a game not built yet in this copy
            if e.name and (mod.startswith(e.name) or e.name == mod):
                continue
            raise
        register(m.GAME)


def game_names() -> list[str]:
    _load_types()
    return list(_TYPES)


def game_type(name: str) -> GameType:
    _load_types()
    if name not in _TYPES:
        raise PlaytestError(f"unknown game {name!r} (games: {', '.join(_TYPES)})", field="game")
    return _TYPES[name]


def get_game(name: str) -> GameAPI:
    """The game's API object (its binding module is imported on first use)."""
    if name in _APIS:
        return _APIS[name]
    gt = game_type(name)
    mod_name, _, obj = gt.api.partition(":")
    api = getattr(importlib.import_module(mod_name), obj)
    _APIS[name] = api
    return api
