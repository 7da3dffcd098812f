"""Dice Throne odds: every offensive ability tier of a hero, after 1..R roll attempts, with
the Paladin's Tithes rerolls bought with CP, and with die-changing cards in hand used at
the best moment (``resources.ResourceSolver``, exact fractions).

A card helps the roll when its die effect (its last effect, ``simcore/dicethrone/model.py``)
is ``set_die``, ``move_die``, ``reroll`` or ``extra_attempt`` and it may touch your own
dice (``dice = own | any``) in the roll phase (``phase = roll | instant``). Its CP cost is
not charged here: the odds are those of a player who holds the card and can pay for it.
Tithes ("reroll 1 of your dice at any time for [1] CP") is the only way the rules let a
player buy more rolling: ``cp // reroll_cost`` single-die rerolls, each usable once.

The hero's space is not collapsed: a slot is a die face, so face numbers (straights,
``set_die = 6``, ``move_die``) are exact.
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import PlaytestError
from .resources import DieAction, ResourceSolver
from .solver import cached_space, check_rolls

MAX_TITHES = 6   # single-die rerolls bought with CP considered at most


def hero_space(hero):
    from ..dicethrone.model import N_DICE

    return cached_space((hero.die,) * N_DICE, (), False)


def card_action(card) -> DieAction | None:
    """The die action of a card usable on your own offensive roll, or None."""
    from ..dicethrone import model as M

    if card.phase not in (M.CP_ROLL, M.CP_INSTANT) or card.dice not in (M.CD_OWN, M.CD_ANY):
        return None
    for e in card.effects:
        if e.op == M.OP_SET_DIE:
            return DieAction("set", e.n, e.arg, card.name)
        if e.op == M.OP_MOVE_DIE:
            return DieAction("move", e.n, 0, card.name)
        if e.op == M.OP_REROLL:
            return DieAction("reroll", e.n, 0, card.name)
        if e.op == M.OP_EXTRA_ATTEMPT:
            return DieAction("extra", e.n, 0, card.name)
    return None


def deck_cards(content, hero_id: str) -> list:
    """The distinct cards of a hero's deck: the hero's own, then the generic ones."""
    return list(content.heroes[hero_id].cards) + list(content.generic)


def die_cards(content, hero_id: str) -> list:
    return [c for c in deck_cards(content, hero_id) if card_action(c) is not None]


def find_card(content, hero_id: str, name: str, field: str = "--card"):
    """A die-changing card of the hero's deck by id ('play_six') or name ('Play Six')."""
    norm = name.strip().lower().replace(" ", "_").replace("-", "_").replace("'", "")
    valid = die_cards(content, hero_id)
    listing = ", ".join(c.id for c in valid)
    for c in deck_cards(content, hero_id):
        if norm in (c.id, c.name.lower().replace(" ", "_").replace("-", "_").replace("'", "").rstrip("?")):
            if card_action(c) is None:
                raise PlaytestError(f"{c.name!r} does not change your own dice in the roll phase "
                                    f"(die-changing cards of {hero_id}: {listing})", field=field)
            return c
    raise PlaytestError(f"unknown card {name!r} (die-changing cards of {hero_id}: {listing})", field=field)


def tithe_actions(hero, cp: int) -> list:
    if cp < 0:
        raise PlaytestError(f"must be >= 0, got {cp}", field="--cp")
    if hero.tithe_reroll < 0:
        return []
    n = cp // hero.tithe_reroll if hero.tithe_reroll > 0 else MAX_TITHES
    return [DieAction("reroll", 1, 0, f"{hero.passive_name} reroll")] * min(n, MAX_TITHES)


def tier_rows(hero):
    """``(ability, tier index, tier, label)`` for every offensive tier, in file order."""
    out = []
    for ab in hero.abilities:
        levels = {t.level for t in ab.tiers}
        for t, tier in enumerate(ab.tiers):
            lvl = f" {'I' * tier.level}" if len(levels) > 1 else ""
            out.append((ab, t, tier, f"{ab.name}{lvl} ({tier.text})"))
    return out


def _frac(p) -> str:
    return f"{p.numerator}/{p.denominator}"


def odds_table(content, hero_id: str, rolls: int = 3, cards=(), cp: int = 0, exact: bool = True) -> dict:
    """The ``playtest dicethrone odds`` document (the shape of ``playtest odds duel``):
    per tier ``by_rolls`` (``"1".."R"`` free attempts; ``"R+k"`` = R attempts and k Tithes
    rerolls, heroes with Tithes), ``probability``/``fraction`` (R attempts, the Tithes the
    CP buys), and with cards: ``with_cards`` = the same with the cards in hand."""
    from ..dicethrone.model import attack_kind, K_UNDEF, K_ULT

    R = check_rolls(rolls)
    hero = content.heroes[hero_id]
    space = hero_space(hero)
    tithes = tithe_actions(hero, cp)
    card_objs = [find_card(content, hero_id, c) if isinstance(c, str) else c for c in cards]
    acts = [card_action(c) for c in card_objs]
    probe = [DieAction("reroll", 1, 0, "")] * MAX_TITHES if hero.tithe_reroll >= 0 else []
    extra_cols = len(probe) if not tithes else len(tithes)
    rows = []
    cache: dict = {}
    for ab, t, tier, label in tier_rows(hero):
        key = tier.text
        if key not in cache:
            met = space.met_vector(tier.target)
            base = ResourceSolver(space, met, probe, exact)
            by = {}
            for r in range(1, R + 1):
                by[str(r)] = base.probability(r, (0,) * len(base.full))
            for k in range(1, extra_cols + 1):
                by[f"{R}+{k}"] = base.probability(R, (k,))
            p = base.probability(R, (len(tithes),) if probe else ())
            entry = {"by_rolls": by, "p": p}
            if acts:
                sol = ResourceSolver(space, met, list(acts) + tithes, exact)
                wc = {str(r): sol.probability(r, _counts(sol, acts, [])) for r in range(1, R + 1)}
                entry["with"] = {"by_rolls": wc, "p": sol.probability(R)}
            cache[key] = entry
        e = cache[key]
        kind = attack_kind(tier, ab.ultimate)
        row = {"ability": ab.name, "id": ab.id, "tier": t + 1, "level": tier.level, "label": label,
               "target": tier.text, "undefendable": kind in (K_UNDEF, K_ULT), "ultimate": ab.ultimate,
               "by_rolls": {k: float(v) for k, v in e["by_rolls"].items()},
               "probability": float(e["p"]), "fraction": _frac(Fraction(e["p"])) if exact else None}
        if acts:
            w = e["with"]
            row["with_cards"] = {"by_rolls": {k: float(v) for k, v in w["by_rolls"].items()},
                                 "probability": float(w["p"]),
                                 "fraction": _frac(Fraction(w["p"])) if exact else None,
                                 "gain": float(w["p"] - e["p"])}
        rows.append(row)
    return {"hero": hero.name, "rolls": R, "cp": cp, "bought_rolls": len(tithes),
            "bought": f"{hero.passive_name} single-die rerolls at {hero.tithe_reroll} CP" if probe else None,
            "cards": [{"id": c.id, "name": c.name, "cost": c.cost, "action": a.describe()}
                      for c, a in zip(card_objs, acts)],
            "card_cost_charged": False, "abilities": rows}


def _counts(sol: ResourceSolver, acts, tithes) -> tuple:
    """Counts of ``sol``'s distinct actions: every card, and only ``len(tithes)`` Tithes."""
    out = []
    for a in sol.actions:
        out.append(sum(1 for x in acts if x == a) + sum(1 for x in tithes if x == a))
    return tuple(out)
