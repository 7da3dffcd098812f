"""Exact odds for any dice, as the playground (``playtest serve``) shows them: the best
probability of each named target by number of rolls, and the best keep for a roll in
hand. Game-agnostic: a game only says which dice and targets it has
(``GameAPI.dice_spec``); custom dice come straight from the user's faces and target.
"""
from __future__ import annotations

from ..dice import parse_die, parse_target, symbol_vocabulary
from ..errors import PlaytestError
from .solver import MAX_ROLLS, cached_space, describe_keep, solve_exact


def _frac(p) -> str:
    return f"{p.numerator}/{p.denominator}"


def rolls_table(dice: list, targets: list, free_rolls: int, extra: int = 0) -> dict:
    """``targets``: (label, Target). Columns "1".."R" then "R+1".. (rolls bought)."""
    total = min(MAX_ROLLS, free_rolls + max(0, extra))
    space = cached_space(tuple(dice))
    cols = [str(r) if r <= free_rolls else f"{free_rolls}+{r - free_rolls}" for r in range(1, total + 1)]
    rows = []
    for label, t in targets:
        sol = solve_exact(space, t, total)
        ps = [sol.probability(r) for r in range(1, total + 1)]
        rows.append({"label": label, "target": t.text, "p": [float(p) for p in ps],
                     "fraction": _frac(ps[free_rolls - 1])})
    return {"columns": cols, "free_rolls": free_rolls, "rows": rows}


def custom_dice(faces_text: str, n_dice, field: str = "faces") -> list:
    die = parse_die([f.strip() for f in str(faces_text).split(",")], field=field)
    try:
        n = int(n_dice)
    except (TypeError, ValueError):
        raise PlaytestError(f"must be a whole number 1..6, got {n_dice!r}", field="dice") from None
    if not 1 <= n <= 6:
        raise PlaytestError(f"must be a whole number 1..6, got {n}", field="dice")
    return [die] * n


def target_of(dice: list, text: str, named: dict | None = None, field: str = "target"):
    key = str(text).strip().lower()
    if named and key in named:
        return named[key]
    return parse_target(str(text), symbol_vocabulary(dice), len(dice), field=field)


def advise(dice: list, roll_text: str, rolls_left, target, top: int = 4,
           fields: tuple = ("roll", "rolls_left")) -> dict:
    """Best keep of the dice in hand (``roll_text``: face numbers or number:symbol, in
    die order) to reach ``target`` with ``rolls_left`` rerolls (``playtest odds advise``
    and the playground; ``fields`` name the inputs in errors)."""
    f_roll, f_left = fields
    try:
        rl = int(rolls_left)
    except (TypeError, ValueError):
        raise PlaytestError(f"must be a whole number 1..{MAX_ROLLS - 1}, got {rolls_left!r}", field=f_left) from None
    if not 1 <= rl < MAX_ROLLS:
        raise PlaytestError(f"must be a whole number 1..{MAX_ROLLS - 1}, got {rl}", field=f_left)
    items = [x.strip() for x in str(roll_text).replace(" ", ",").split(",") if x.strip()]
    if len(items) != len(dice):
        raise PlaytestError(f"expected {len(dice)} dice, got {len(items)}", field=f_roll)
    faces = []
    for d, x in zip(dice, items):
        num, _, sym = x.partition(":")
        idx = [i for i, f in enumerate(d.faces) if str(f.number) == num and (not sym or f.symbol == sym.lower())]
        if not idx:
            raise PlaytestError(f"the die has no face {x!r} (faces: {', '.join(map(str, d.faces))})", field=f_roll)
        faces.append(idx[0])
    space = cached_space(tuple(dice))
    sol = solve_exact(space, target, rl + 1)
    per_group = [[] for _ in space.groups]
    die_group = []
    for d, f in zip(dice, faces):
        g = [gi for gi, grp in enumerate(space.groups) if grp.die.faces == d.faces][0]
        per_group[g].append(f)
        die_group.append(g)
    hand = space.hand_index[space.counts_of(per_group)]
    opts = sol.keep_options(hand, rl)
    k, p = opts[0]
    left = list(space.keeps[k])
    positions = []
    for i, (g, f) in enumerate(zip(die_group, faces)):
        s = space.group_slots[g][space.groups[g].face_slot[f]]
        if left[s] > 0:
            left[s] -= 1
            positions.append(i + 1)
    return {"roll": [str(d.faces[f]) for d, f in zip(dice, faces)], "target": target.text, "rolls_left": rl,
            "keep": describe_keep(space, k), "keep_positions": positions,
            "stop": bool(k == space.full_keep[hand]), "probability": float(p), "fraction": _frac(p),
            "alternatives": [{"keep": describe_keep(space, kk), "probability": float(pp), "fraction": _frac(pp)}
                             for kk, pp in opts[1:1 + top]]}
