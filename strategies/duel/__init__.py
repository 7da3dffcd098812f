"""Built-in duel strategies and the strategy registry (``--strategy NAME`` or
``--strategy package.module:function`` for a user's own; see ``strategies/duel/base.py`` for the
interface and README for a worked example)."""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.duel.model import E_DAMAGE, EFFECTS
from simcore.duel.state import S_HERO
from simcore.errors import PlaytestError
from simcore.plugins import check_arity, import_plugin_module
from simcore.rng import below_nb

from .base import DuelStrategy, no_data

# ------------------------------------------------------------------------ random
@nb.njit(cache=True, inline="always")
def random_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    """Uniform among all 2**n keep masks while free rolls remain; never buys a roll."""
    all_kept = (1 << n_dice) - 1
    if free_left == 0:
        return all_kept
    return below_nb(rng, 1 << n_dice)


@nb.njit(cache=True, inline="always")
def random_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    """Uniform among the abilities the dice allow (no attack only when none is legal)."""
    n_legal = 0
    for a in range(legal.shape[0]):
        if legal[a] >= 0:
            n_legal += 1
    if n_legal == 0:
        return -1
    pick = below_nb(rng, n_legal)
    for a in range(legal.shape[0]):
        if legal[a] >= 0:
            if pick == 0:
                return a
            pick -= 1
    return -1


RANDOM = DuelStrategy("random", random_keep, random_choose, no_data,
                      "uniform among legal keeps and legal abilities; never buys rolls", True, sid=0)

# ------------------------------------------------------------------------ greedy
# value of one unit of each effect (EFFECTS order) and the undefendable bonus on damage
GREEDY_WEIGHTS = {"damage": 1.0, "heal": 0.6, "cp": 0.5, "wounds": 2.0, "daze": 3.0,
                  "shield": 2.0, "steal": 0.75, "undefendable_bonus": 0.25}


def tier_values(setup, weights: dict) -> np.ndarray:
    """value[h, a, k] of each hero's ability tiers under effect weights (shared by the
    greedy and optimal strategies and the odds tables)."""
    tb = setup.tables
    w = np.array([weights[e] for e in EFFECTS], np.float64)
    vals = (tb.eff * w).sum(axis=-1)
    vals += weights.get("undefendable_bonus", 0.0) * tb.eff[..., E_DAMAGE] * tb.undef[:, :, None]
    return vals.astype(np.float64)


def greedy_data(setup):
    return tier_values(setup, GREEDY_WEIGHTS)


@nb.njit(cache=True, inline="always")
def greedy_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    """Keep the dice showing the most common symbol (ties: the lower symbol id); reroll
    the rest while free rolls remain; never buys."""
    all_kept = (1 << n_dice) - 1
    if free_left == 0:
        return all_kept
    h = st[S_HERO + me]
    return symbol_mask(tb, h, faces, n_dice, most_common_symbol(tb, h, faces, n_dice))


@nb.njit(cache=True, inline="always")
def symbol_count(tb, h, faces, n_dice, sym):
    """How many of the dice show symbol ``sym`` (hero-local id) of hero ``h``."""
    c = 0
    for i in range(n_dice):
        if tb.face_sym[h, faces[i]] == sym:
            c += 1
    return c


@nb.njit(cache=True, inline="always")
def most_common_symbol(tb, h, faces, n_dice):
    """The symbol most dice show (ties: the lower symbol id)."""
    best = 0
    best_count = -1
    for s in range(tb.n_sym[h]):
        c = symbol_count(tb, h, faces, n_dice, s)
        if c > best_count:
            best = s
            best_count = c
    return best


@nb.njit(cache=True, inline="always")
def symbol_mask(tb, h, faces, n_dice, sym):
    """Bit mask of the dice showing symbol ``sym``."""
    mask = 0
    for i in range(n_dice):
        if tb.face_sym[h, faces[i]] == sym:
            mask |= 1 << i
    return mask


@nb.njit(cache=True)
def best_value_choice(legal, h, values):
    """The legal ability whose satisfied tier has the highest value (-1 if none)."""
    best = -1
    best_v = -1e300
    for a in range(legal.shape[0]):
        k = legal[a]
        if k >= 0 and values[h, a, k] > best_v:
            best_v = values[h, a, k]
            best = a
    return best


@nb.njit(cache=True, inline="always")
def greedy_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    return best_value_choice(legal, st[S_HERO + me], data)


GREEDY = DuelStrategy("greedy", greedy_keep, greedy_choose, greedy_data,
                      "keep the most common symbol, take the highest-value ability", True, sid=1)


# ---------------------------------------------------------------------- registry
KEEP_ARGS = ("faces", "n_dice", "rolls_done", "free_left", "me", "st", "tb", "rules", "data", "rng")
CHOOSE_ARGS = ("faces", "n_dice", "legal", "me", "st", "tb", "rules", "data", "rng")

def builtin_strategies() -> dict:
    out = {"random": RANDOM, "greedy": GREEDY}
    try:
        from .optimal import OPTIMAL
    except ImportError:  # pragma: no cover - being built
        pass
    else:
        out["optimal"] = OPTIMAL
    from .search import SEARCH

    out["search"] = SEARCH
    return out


def load_strategy(spec: str) -> DuelStrategy:
    """A built-in name, or ``package.module:function`` for a user strategy: the module
    must define the numba function ``function`` (keep) and ``function_choose`` (or a
    ``DuelStrategy`` object named ``function``)."""
    builtins = builtin_strategies()
    if spec in builtins:
        return builtins[spec]
    if ":" not in spec:
        raise PlaytestError(f"unknown strategy {spec!r} (built-in: {', '.join(builtins)}; "
                            "or package.module:function)", field="--strategy")
    mod_name, _, fn_name = spec.partition(":")
    mod = import_plugin_module(mod_name)
    obj = getattr(mod, fn_name, None)
    if obj is None:
        raise PlaytestError(f"module {mod_name!r} has no {fn_name!r}", field="--strategy")
    if isinstance(obj, DuelStrategy):
        return obj
    choose = getattr(mod, f"{fn_name}_choose", None)
    if choose is None:
        raise PlaytestError(f"module {mod_name!r} defines {fn_name!r} but no {fn_name + '_choose'!r} "
                            "(the ability choice)", field="--strategy")
    for f, label in ((obj, fn_name), (choose, f"{fn_name}_choose")):
        if not hasattr(f, "py_func"):
            raise PlaytestError(f"{mod_name}.{label} must be a numba @njit function", field="--strategy")
    check_arity(obj, f"{mod_name}.{fn_name}", KEEP_ARGS)
    check_arity(choose, f"{mod_name}.{fn_name}_choose", CHOOSE_ARGS)
    make_data = getattr(mod, f"{fn_name}_data", no_data)
    return DuelStrategy(spec, obj, choose, make_data, f"user strategy {spec}", False)
