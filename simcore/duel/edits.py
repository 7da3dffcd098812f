"""The duel's numbers as a designer edits them (``playtest serve``): every rule option and
every number of every hero (ability effects per tier, undefendable, defence dice and
defence symbol effects), with bounds, applied to a copy and validated like a data file,
and written back into the hero's own TOML file (comments and layout kept, ``tomlkit``).

Keys: ``rules.<option>``; ``hero.<key>.<ability>.<tier>.<effect>`` (0-based indices);
``hero.<key>.<ability>.undefendable``; ``hero.<key>.defence.dice``;
``hero.<key>.defence.<symbol>.<effect>``.
"""
from __future__ import annotations

import copy
from pathlib import Path

from ..errors import PlaytestError
from ..game import Editable, rule_editables, validated_rules
from .model import (BOOL_EFFECTS, DEFENCE_EFFECTS, EFFECTS, FIRST_PLAYER_MODES, MAX_DEFENCE_DICE, MAX_DICE,
                    load_hero)
from .state import MAX_TURN_CAP

EFFECT_MAX = 1000

RULE_BOUNDS = {
    "start_hp": (1, 10000), "hp_cap": (1, 10000), "start_cp": (0, 10000), "cp_cap": (0, 10000),
    "dice": (1, MAX_DICE), "rolls": (1, 10), "roll_cost": (1, 100), "wound_cap": (0, 100),
    "shield_absorbs": (0, EFFECT_MAX), "defence_shield": (0, EFFECT_MAX), "income": (0, 100),
    "turn_cap": (1, MAX_TURN_CAP), "max_shield_tokens": (0, 100), "max_bought_rolls": (0, 10000),
    "first_player": FIRST_PLAYER_MODES,
}


def hero_editables(heroes) -> list[Editable]:
    out = []
    for h in heroes:
        f = f"heroes/{Path(h.source).name if h.source else h.key + '.toml'}"
        for a, ab in enumerate(h.abilities):
            for t, tier in enumerate(ab.tiers):
                tl = f" tier {t + 1}" if ab.tiered else ""
                for e in EFFECTS:
                    key = f"hero.{h.key}.{a}.{t}.{e}"
                    if e in BOOL_EFFECTS:
                        out.append(Editable(key, f"{ab.name}{tl}: {e}", h.name, bool(tier.effects[e]), "bool", file=f))
                    else:
                        out.append(Editable(key, f"{ab.name}{tl}: {e}", h.name, tier.effects[e], "int", 0,
                                            EFFECT_MAX, file=f))
            out.append(Editable(f"hero.{h.key}.{a}.undefendable", f"{ab.name}: undefendable", h.name,
                                ab.undefendable, "bool", file=f))
        out.append(Editable(f"hero.{h.key}.defence.dice", "defence dice", h.name, h.defence_dice, "int", 0,
                            MAX_DEFENCE_DICE, file=f))
        for sym in h.symbols:
            for e in DEFENCE_EFFECTS:
                out.append(Editable(f"hero.{h.key}.defence.{sym}.{e}", f"defence {sym}: {e}", h.name,
                                    h.defence.get(sym, {}).get(e, 0), "int", 0, EFFECT_MAX, file=f))
    return out


def editables(rules: dict, heroes) -> list[Editable]:
    return rule_editables(rules, RULE_BOUNDS) + hero_editables(heroes)


def _set(hero, parts: list, value) -> None:
    if parts[0] == "defence":
        if parts[1] == "dice":
            hero.defence_dice = value
        else:
            hero.defence.setdefault(parts[1], {e: 0 for e in DEFENCE_EFFECTS})[parts[2]] = value
        return
    ab = hero.abilities[int(parts[0])]
    if parts[1] == "undefendable":
        ab.undefendable = value
    else:
        ab.tiers[int(parts[1])].effects[parts[2]] = int(value)


def apply_edits(rules: dict, heroes, edits: dict, api) -> tuple[dict, list]:
    known = {e.key: e for e in editables(rules, heroes)}
    checked = {}
    for k, v in edits.items():
        if k not in known:
            raise PlaytestError("not an editable number of the duel", field=k)
        checked[k] = known[k].check(v)
    sets = {k[len("rules."):]: v for k, v in checked.items() if k.startswith("rules.")}
    new_rules = validated_rules(api, rules, sets) if sets else dict(rules)
    if new_rules["dice"] != rules["dice"]:  # tiers are checked against the number of dice
        try:
            heroes = [load_hero(h.source, new_rules["dice"]) for h in heroes]
        except PlaytestError as e:
            raise PlaytestError(e.reason, field="rules.dice") from None
    heroes = copy.deepcopy(heroes)
    by_key = {h.key: h for h in heroes}
    for k, v in checked.items():
        if k.startswith("hero."):
            _, hk, *parts = k.split(".")
            _set(by_key[hk], parts, v)
    return new_rules, heroes


def hero_toml(hero) -> str:
    """The hero's own file with its current numbers written in (comments kept)."""
    import tomlkit

    doc = tomlkit.parse(Path(hero.source).read_text())
    for a, ab in enumerate(hero.abilities):
        node = doc["abilities"][a]
        if ab.undefendable or "undefendable" in node:
            node["undefendable"] = ab.undefendable
        for t, tier in enumerate(ab.tiers):
            tn = node["tiers"][t] if "tiers" in node else node
            for e in EFFECTS:
                v = bool(tier.effects[e]) if e in BOOL_EFFECTS else int(tier.effects[e])
                if e in tn or v:
                    tn[e] = v
    d = doc["defence"]
    d["dice"] = hero.defence_dice
    syms = d.setdefault("symbols", tomlkit.inline_table())
    for sym, effs in hero.defence.items():
        nz = {e: int(v) for e, v in effs.items() if v}
        if sym in syms:
            for e, v in effs.items():
                if e in syms[sym] or v:
                    syms[sym][e] = int(v)
        elif nz:
            t = tomlkit.inline_table()
            t.update(nz)
            syms[sym] = t
    return tomlkit.dumps(doc)
