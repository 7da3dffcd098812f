"""Dice Throne odds: every offensive ability tier of a hero, after 1..R roll attempts, with
the Paladin's Tithes rerolls bought with CP, and with die-changing cards in hand used at
the best moment (``resources.ResourceSolver``, exact fractions).

A card helps the offensive roll when its die effect (its last effect,
``simcore/dicethrone/model.py``) is ``set_die``, ``move_die``, ``copy_die``, ``reroll`` or
``extra_attempt``, it may touch your own dice (``dice = own | any``; an extra attempt
touches none), it is played in the roll phase (``phase = roll | instant``) and its ``when``
lets the roller play it while rolling (``any``): a card played only as the defender
(``attacked``, e.g. Just This: an extra attempt in the *defensive* roll) or only in the
window after the defensive roll (``attacking``) cannot change the offensive dice, and
``--card`` refuses it with the reason.

CP. ``--cp`` is the player's CP: the cards in hand and the Tithes rerolls ("reroll 1 of
your dice at any time for [1] CP") are paid from it together, so the figure with cards is
what that CP can buy (a 3-CP card is out of reach at 2 CP; two cards costing 5 CP together
need 5). The figure with every card free and the Tithes the whole CP buys on top is kept
as ``upper_bound``. Tithes buys ``cp // reroll_cost`` single-die rerolls (CP is at most
the rules' ``cp_cap``, 15), each usable once.

The opponent's roll-phase cards (Give Me a Hand, Surprise, Unexpected, Flick on your dice)
are not modelled: every figure is the best case against an opponent who holds none.

The hero's space is not collapsed: a slot is a die face, so face numbers (straights,
``set_die = 6``, ``move_die``, ``copy_die``) are exact.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ..errors import PlaytestError
from .resources import DieAction, ResourceSolver
from .solver import cached_space, check_rolls

PROBE_TITHES = 6     # with 0 CP: the columns show what 1..6 bought rerolls would add
FREE_TITHES = 15     # a Tithes reroll costing 0 CP: this many (the CP cap's worth)
OPPONENT_NOTE = ("the opponent's roll-phase cards can change your dice (Give Me a Hand, Surprise, "
                 "Unexpected, Flick): each figure is the best case against an opponent who holds none")


def hero_space(hero):
    from ..dicethrone.model import N_DICE

    return cached_space((hero.die,) * N_DICE, (), False)


def card_refusal(card) -> str | None:
    """Why ``card`` cannot change the hero's own offensive roll, or None when it can."""
    from ..dicethrone import model as M

    op = card.effects[-1].op
    if card.phase == M.CP_MAIN:
        return "is a main-phase card: it never touches dice"
    if op not in (M.OP_SET_DIE, M.OP_MOVE_DIE, M.OP_COPY_DIE, M.OP_REROLL, M.OP_EXTRA_ATTEMPT):
        return "neither changes dice nor adds a roll attempt"
    if card.when == M.CW_ATTACKED:
        return ("is played only while you are attacked (when = \"attacked\"): it helps your defensive "
                "roll, not the offensive roll these odds are about")
    if card.when == M.CW_ATTACKING:
        return ("is played only in the window after the defensive roll (when = \"attacking\"): "
                "your offensive roll is over by then")
    if op != M.OP_EXTRA_ATTEMPT and card.dice not in (M.CD_OWN, M.CD_ANY):
        return "changes only the opponent's dice"
    return None


def effect_action(e, card) -> DieAction:
    """The die action of a card's die effect ``e`` (its cost: the card's)."""
    from ..dicethrone import model as M

    if e.op == M.OP_SET_DIE:
        return DieAction("set", e.n, e.arg, card.name, card.cost)
    if e.op == M.OP_MOVE_DIE:
        return DieAction("move", e.n, 0, card.name, card.cost)
    if e.op == M.OP_COPY_DIE:
        return DieAction("copy", e.n, 0, card.name, card.cost)
    if e.op == M.OP_REROLL:
        return DieAction("reroll", e.n, 0, card.name, card.cost, max(1, e.arg))
    if e.op == M.OP_EXTRA_ATTEMPT:
        return DieAction("extra", e.n, 0, card.name, card.cost)
    raise PlaytestError(f"{card.name!r}: no die action", field="--card")


def card_action(card) -> DieAction | None:
    """The die action of a card usable on your own offensive roll, or None."""
    if card_refusal(card) is not None:
        return None
    return effect_action(card.effects[-1], card)


def other_action(card) -> DieAction | None:
    """The die action of the card's other reading (``other_reading`` in the data), or None."""
    if not getattr(card, "other", None) or card_refusal(card) is not None:
        return None
    return effect_action(card.other[-1], card)


def deck_cards(content, hero_id: str) -> list:
    """The distinct cards of a hero's deck: the hero's own, then the generic ones."""
    return list(content.heroes[hero_id].cards) + list(content.generic)


def die_cards(content, hero_id: str) -> list:
    return [c for c in deck_cards(content, hero_id) if card_action(c) is not None]


def find_card(content, hero_id: str, name: str, field: str = "--card"):
    """A card of the hero's deck that can change the offensive roll, by id ('play_six') or
    name ('Play Six'); any other card is refused with the reason."""
    norm = name.strip().lower().replace(" ", "_").replace("-", "_").replace("'", "")
    valid = die_cards(content, hero_id)
    listing = ", ".join(c.id for c in valid)
    for c in deck_cards(content, hero_id):
        if norm in (c.id, c.name.lower().replace(" ", "_").replace("-", "_").replace("'", "").rstrip("?")):
            why = card_refusal(c)
            if why is not None:
                raise PlaytestError(f"{c.name!r} {why} (cards that can change the offensive roll of "
                                    f"{hero_id}: {listing})", field=field)
            return c
    raise PlaytestError(f"unknown card {name!r} (cards that can change the offensive roll of {hero_id}: "
                        f"{listing})", field=field)


def check_cp(cp, cp_cap: int = 15) -> int:
    if not isinstance(cp, int) or isinstance(cp, bool) or not 0 <= cp <= cp_cap:
        raise PlaytestError(f"must be a whole number 0..{cp_cap} (the rules' cp_cap), got {cp!r}", field="--cp")
    return cp


def tithe_count(hero, cp: int) -> int:
    """Tithes rerolls ``cp`` CP buys (0 for a hero without Tithes)."""
    if hero.tithe_reroll < 0:
        return 0
    return cp // hero.tithe_reroll if hero.tithe_reroll > 0 else FREE_TITHES


def tithe_action(hero) -> DieAction:
    return DieAction("reroll", 1, 0, f"{hero.passive_name} reroll", max(0, hero.tithe_reroll))


def tithe_actions(hero, cp: int, cp_cap: int = 15) -> list:
    check_cp(cp, cp_cap)
    if hero.tithe_reroll < 0:
        return []
    return [tithe_action(hero)] * tithe_count(hero, cp)


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


def odds_table(content, hero_id: str, rolls: int = 3, cards=(), cp: int = 0, exact: bool = True,
               cp_cap: int = 15) -> dict:
    """The ``playtest dicethrone odds`` document (the shape of ``playtest odds duel``):
    per tier ``by_rolls`` (``"1".."R"`` free attempts; ``"R+k"`` = R attempts and k Tithes
    rerolls, heroes with Tithes: up to what ``cp`` buys, or 1..6 with 0 CP),
    ``probability``/``fraction`` (R attempts, the Tithes the CP buys), and with cards:
    ``with_cards`` = the same with the cards in hand, their costs and the Tithes paid from
    ``cp`` together (``by_rolls``: cards only, no Tithes), its ``upper_bound`` (every card
    free, the Tithes the whole CP buys on top: the figure before costs were charged) and,
    for a card whose data holds another reading (``other_reading``), the figures under it."""
    from ..dicethrone.model import attack_kind, K_UNDEF, K_ULT

    R = check_rolls(rolls)
    hero = content.heroes[hero_id]
    check_cp(cp, cp_cap)
    space = hero_space(hero)
    has_tithes = hero.tithe_reroll >= 0
    n_t = tithe_count(hero, cp)
    tithe = tithe_action(hero) if has_tithes else None
    free_tithe = replace(tithe, cost=0) if has_tithes else None
    card_objs = [find_card(content, hero_id, c) if isinstance(c, str) else c for c in cards]
    acts = [card_action(c) for c in card_objs]
    if any(a is None for a in acts):
        bad = card_objs[acts.index(None)]
        raise PlaytestError(f"{bad.name!r} {card_refusal(bad)}", field="--card")
    free = [replace(a, cost=0) for a in acts]
    others = [(i, other_action(c)) for i, c in enumerate(card_objs) if other_action(c) is not None]
    cols = (n_t if cp > 0 else PROBE_TITHES) if has_tithes else 0
    probe = [free_tithe] * max(cols, n_t) if has_tithes else []
    paid = [tithe] * n_t if has_tithes else []
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
            for k in range(1, cols + 1):
                by[f"{R}+{k}"] = base.probability(R, (k,))
            p = base.probability(R, (n_t,) if probe else ())
            entry = {"by_rolls": by, "p": p}
            if acts:
                sol = ResourceSolver(space, met, acts + paid, exact, budget=cp)
                ub = ResourceSolver(space, met, free + [free_tithe] * n_t if has_tithes else free, exact)
                entry["with"] = {
                    "by_rolls": {str(r): sol.probability(r, _counts(sol, acts)) for r in range(1, R + 1)},
                    "p": sol.probability(R),
                    "ub_by_rolls": {str(r): ub.probability(r, _counts(ub, free)) for r in range(1, R + 1)},
                    "ub": ub.probability(R),
                    "others": []}
                for i, alt in others:
                    acts2 = acts[:i] + [alt] + acts[i + 1:]
                    free2 = free[:i] + [replace(alt, cost=0)] + free[i + 1:]
                    s2 = ResourceSolver(space, met, acts2 + paid, exact, budget=cp)
                    u2 = ResourceSolver(space, met, free2 + [free_tithe] * n_t if has_tithes else free2, exact)
                    entry["with"]["others"].append((i, alt, s2.probability(R), u2.probability(R)))
            cache[key] = entry
        e = cache[key]
        kind = attack_kind(tier, ab.ultimate)
        row = {"ability": ab.name, "id": ab.id, "tier": t + 1, "level": tier.level, "label": label,
               "target": tier.text, "undefendable": kind in (K_UNDEF, K_ULT), "ultimate": ab.ultimate,
               "by_rolls": {k: float(v) for k, v in e["by_rolls"].items()},
               "probability": float(e["p"]), "fraction": _frac(Fraction(e["p"])) if exact else None}
        if acts:
            w = e["with"]
            row["with_cards"] = {
                "by_rolls": {k: float(v) for k, v in w["by_rolls"].items()},
                "probability": float(w["p"]), "fraction": _frac(Fraction(w["p"])) if exact else None,
                "gain": float(w["p"] - e["p"]),
                "upper_bound": {"by_rolls": {k: float(v) for k, v in w["ub_by_rolls"].items()},
                                "probability": float(w["ub"]),
                                "fraction": _frac(Fraction(w["ub"])) if exact else None},
                "other_readings": [{"card": card_objs[i].id, "action": alt.describe(),
                                    "probability": float(p2), "fraction": _frac(Fraction(p2)) if exact else None,
                                    "upper_bound": float(u2), "upper_bound_fraction": _frac(Fraction(u2)) if exact else None}
                                   for i, alt, p2, u2 in w["others"]]}
        rows.append(row)
    return {"hero": hero.name, "rolls": R, "cp": cp, "bought_rolls": n_t,
            "bought": f"{hero.passive_name} single-die rerolls at {hero.tithe_reroll} CP" if has_tithes else None,
            "cards": [{"id": c.id, "name": c.name, "cost": c.cost, "action": a.describe(),
                       "other_reading": (other_action(c).describe() if other_action(c) else None)}
                      for c, a in zip(card_objs, acts)],
            "cards_cost": sum(c.cost for c in card_objs),
            "card_cost_charged": True,
            "cp_note": (f"cards' costs and {hero.passive_name} rerolls are paid from the same {cp} CP" if has_tithes
                        else f"cards' costs are paid from the {cp} CP"),
            "upper_bound_note": ("upper_bound: every card free and the rerolls the whole CP buys on top "
                                 "(the figure before costs were charged): an upper bound, not what the CP buys"),
            "opponent_note": OPPONENT_NOTE, "abilities": rows}


def _counts(sol: ResourceSolver, acts) -> tuple:
    """Counts of ``sol``'s distinct actions: every card in ``acts``, no Tithes."""
    return tuple(sum(1 for x in acts if x == a) for a in sol.actions)
