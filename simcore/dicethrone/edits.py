"""Dice Throne's numbers as a designer edits them (``playtest serve``) and as the balance
search varies them (``playtest dicethrone fix``): every rule option and every whole number
of the content files (ability and defence effects per tier, bonus-roll outcomes, card
costs and card effects, token limits and upkeep, the Paladin's passive), with bounds,
applied to the files' text and validated by the game's own loader, so an edited game is
exactly what the edited data files would load.

Keys (``<tier>`` is the tier's place in the ability's list, 1-based; an operation that
appears twice in one effect list gets a number: ``damage2``)::

    rules.<option>
    hero.<hero>.<ability or defence id>.<tier>.<op>            e.g. hero.pyromancer.fireball.1.damage
    hero.<hero>.<ability id>.<tier>.<op>.<n|per|up_to>         e.g. hero.pyromancer.fireball.1.gain.n
    hero.<hero>.<ability id>.<tier>.roll.<symbol>.<op>         a bonus roll's outcome
    hero.<hero>.passive.<reroll_cost|draw_cost>
    card.<card id>.cost, card.<card id>.<op>[.<n|per|up_to>]   generic and hero cards
    token.<token id>.limit
    token.<token id>.<event>.<op>[.<n|per|up_to>]              an event (upkeep, knocked_out, ...)
    token.<token id>.spend<k>.<cost_cp|max|if_attack.at_least>  its k-th spend entry (1-based)
    token.<token id>.spend<k>.<op>[.<n|per|up_to>]             that entry's effects

The branch tokens became data in season1 plan step 5, and their keys with them:
``token.crit.bonus`` is ``token.crit.spend1.add_damage``, ``token.crit.threshold``
``token.crit.spend1.if_attack.at_least``, ``token.knockdown.cost``
``token.knockdown.spend1.cost_cp``; an edit naming an old key gets a one-line error naming
the new one (``renamed``).

(card and token ids are unique over a roster: ``simcore.dicethrone.roster`` checks it.)

The content object is the list of heroes (the roster's order) that
``DiceThroneAPI.load_content`` returns; each hero knows its roster (``hero._roster``:
``simcore.dicethrone.roster.Roster``, whose ``texts`` are the files' text: the generic file
as ``heroes/cards.toml``, each hero as ``heroes/<hero>.toml``), so generic cards and tokens
travel with the heroes and an edited game (a roster made from the edited text) reaches the
engines (``make_setup``).
"""
from __future__ import annotations

from pathlib import Path

from ..errors import PlaytestError
from ..toml_io import tomllib
from ..game import Editable, rule_editables, rules_toml, validated_rules
from . import model as M

EFFECT_FIELDS = ("n", "per", "up_to")
TOKEN_FIELDS = ("limit",)
SPEND_FIELDS = ("cost_cp", "max")     # a spend entry's whole numbers (and if_attack.at_least)
# a token's keys before plan step 5 -> what the new key ends with (the first of its spend
# entries or events that has it)
OLD_TOKEN_KEYS = {"threshold": (r"spend\d+\.if_attack\.at_least",), "bonus": (r"spend\d+\.add_damage", r"knocked_out\.set_hp"),
                  "cost": (r"spend\d+\.cost_cp",)}
PASSIVE_FIELDS = ("reroll_cost", "draw_cost")
NOT_NUMBERS = ("set_die", "move_die",    # a face or a direction, not an amount
               "copy_die",                # always one die (the engines read no count)
               # flags written "= 1" (the loader takes no other value): Protect's
               # prevent_half, Accuracy's undefendable, Evasive's avoid...
               "prevent_half", "undefendable", "avoid", "skip_defence", "fail_attack", "grow_all")


def roster_of(heroes):
    """The roster a hero list was loaded with (None for a list without one)."""
    return getattr(heroes[0], "_roster", None) if heroes else None


# ---------------------------------------------------------------- enumeration
def _effects(lst, key, label, path, group, rel, out):
    seen: dict = {}
    for k, e in enumerate(lst if isinstance(lst, list) else []):
        if not isinstance(e, dict):
            continue
        op = next((x for x in e if x in M.OPS), None)
        if op is None:
            continue
        seen[op] = seen.get(op, 0) + 1
        name = op if seen[op] == 1 else f"{op}{seen[op]}"
        v = e[op]
        if isinstance(v, int) and not isinstance(v, bool) and op not in NOT_NUMBERS:
            out.append((f"{key}.{name}", f"{label}: {name}", group, v, rel, path + [k, op]))
        for f in EFFECT_FIELDS:
            if isinstance(e.get(f), int) and not isinstance(e.get(f), bool):
                out.append((f"{key}.{name}.{f}", f"{label}: {name} {f}", group, e[f], rel, path + [k, f]))
        if op == "roll" and isinstance(e.get("on"), dict):
            for sym, sub in e["on"].items():
                _effects(sub, f"{key}.{name}.{sym}", f"{label} (roll {sym})", path + [k, "on", sym], group, rel, out)


def numbers(texts: dict) -> list[tuple]:
    """``[(key, label, group, value, file, path)]`` of every whole number of the content
    files (``path``: the keys and indices that reach it in the file's TOML)."""
    out: list = []
    for rel, text in texts.items():
        d = tomllib.loads(text)
        hero = None if Path(rel).name == M.GENERIC_NAME else Path(rel).stem
        group = "Generic cards and statuses" if hero is None else d.get("name", hero)
        for i, t in enumerate(d.get("tokens", [])):
            tg = f"{group}: tokens"
            for f in TOKEN_FIELDS:
                if isinstance(t.get(f), int) and not isinstance(t.get(f), bool):
                    out.append((f"token.{t['id']}.{f}", f"{t.get('name', t['id'])}: {f}", tg, t[f], rel,
                                ["tokens", i, f]))
            name = t.get("name", t["id"])
            for ev in M.EVENTS:
                _effects(t.get(ev), f"token.{t['id']}.{ev}", f"{name} {ev}", ["tokens", i, ev], tg, rel, out)
            for k, sp in enumerate(t.get("spend", []) if isinstance(t.get("spend"), list) else []):
                if not isinstance(sp, dict):
                    continue
                key, lbl, path = f"token.{t['id']}.spend{k + 1}", f"{name} spend {k + 1} ({sp.get('when')})", \
                    ["tokens", i, "spend", k]
                for f in SPEND_FIELDS:
                    if isinstance(sp.get(f), int) and not isinstance(sp.get(f), bool):
                        out.append((f"{key}.{f}", f"{lbl}: {f}", tg, sp[f], rel, path + [f]))
                ia = sp.get("if_attack")
                if isinstance(ia, dict) and isinstance(ia.get("at_least"), int) and not isinstance(ia["at_least"], bool):
                    out.append((f"{key}.if_attack.at_least", f"{lbl}: at least", tg, ia["at_least"], rel,
                                path + ["if_attack", "at_least"]))
                _effects(sp.get("effects"), key, lbl, path + ["effects"], tg, rel, out)
        if hero is not None:
            p = d.get("passive") or {}
            for f in PASSIVE_FIELDS:
                if isinstance(p.get(f), int) and not isinstance(p.get(f), bool):
                    out.append((f"hero.{hero}.passive.{f}", f"{p.get('name', 'passive')}: {f}", group, p[f], rel,
                                ["passive", f]))
            for sect in ("abilities", "defences"):
                for i, a in enumerate(d.get(sect, [])):
                    aid = a.get("id", f"defence{i}")
                    for j, tier in enumerate(a.get("tiers", [])):
                        what = tier.get("target", "defence")
                        lbl = f"{a.get('name', aid)} {j + 1} (level {tier.get('level', 1)}, {what})"
                        _effects(tier.get("effects"), f"hero.{hero}.{aid}.{j + 1}", lbl,
                                 [sect, i, "tiers", j, "effects"], group, rel, out)
        cg = f"{group}: cards"
        for i, c in enumerate(d.get("cards", [])):
            if isinstance(c.get("cost"), int) and not isinstance(c.get("cost"), bool):
                out.append((f"card.{c['id']}.cost", f"{c.get('name', c['id'])}: cost (CP)", cg, c["cost"], rel,
                            ["cards", i, "cost"]))
            _effects(c.get("effects"), f"card.{c['id']}", c.get("name", c["id"]), ["cards", i, "effects"], cg, rel,
                     out)
    return out


def _bounds(v: int) -> tuple[int, int]:
    """A number's range for the playground and ``fix``: 0 up to ten times it (at least 10); a
    negative number (Season One's "the opponent loses 1 CP" is ``cp = -1`` on a die outcome)
    keeps its sign."""
    span = max(10, 10 * abs(int(v)))
    return (-span, 0) if v < 0 else (0, span)


def editables(rules: dict, heroes) -> list[Editable]:
    out = rule_editables(rules, {})
    ro = roster_of(heroes)
    if ro is None:
        return out
    for key, label, group, v, rel, _ in numbers(ro.texts):
        lo, hi = _bounds(v)
        out.append(Editable(key, label, group, int(v), "int", lo, hi, file=rel))
    return out


# ---------------------------------------------------------------- editing
def _set(doc, path, value) -> None:
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def edited_texts(texts: dict, changes: dict) -> dict:
    """The files' text with ``changes`` (key -> whole number) written in (tomlkit: the
    comments and the layout stay)."""
    import tomlkit

    where = {key: (rel, path) for key, _, _, _, rel, path in numbers(texts)}
    by_file: dict = {}
    for k, v in changes.items():
        rel, path = where[k]
        by_file.setdefault(rel, []).append((path, v))
    out = dict(texts)
    for rel, sets in by_file.items():
        doc = tomlkit.parse(texts[rel])
        for path, v in sets:
            _set(doc, path, int(v))
        out[rel] = tomlkit.dumps(doc)
    return out


def load_texts(texts: dict):
    """The roster of these files, through the game's own loader and checks."""
    from .roster import Roster

    return Roster(texts=texts)


def renamed(key: str, keys) -> str | None:
    """The key that replaced ``key`` (a token's threshold, bonus or cost before plan step 5)
    among ``keys``, or None."""
    import re

    m = re.fullmatch(r"token\.([^.]+)\.(threshold|bonus|cost)", key)
    if m is None:
        return None
    for end in OLD_TOKEN_KEYS[m.group(2)]:
        hit = [k for k in keys if re.fullmatch(rf"token\.{re.escape(m.group(1))}\.{end}", k)]
        if hit:
            return hit[0]
    return None


def renamed_error(key: str, keys) -> PlaytestError | None:
    """The one-line error for an edit naming a token key that plan step 5 replaced."""
    new = renamed(key, keys)
    if new is None:
        return None
    return PlaytestError(f"{key} is {new} since the token became data (season1 plan step 5)", field=key)


def apply_edits(rules: dict, heroes, edits: dict, api) -> tuple[dict, list]:
    known = {e.key: e for e in editables(rules, heroes)}
    checked = {}
    for k, v in edits.items():
        if k not in known:
            err = renamed_error(k, known)
            if err is not None:
                raise err
            import difflib

            near = difflib.get_close_matches(k, list(known), n=5, cutoff=0.5)
            raise PlaytestError("not an editable number of Dice Throne"
                                + (f" (close: {', '.join(near)})" if near else " (`playtest dicethrone numbers` lists them)"),
                                field=k)
        checked[k] = known[k].check(v)
    sets = {k[len("rules."):]: v for k, v in checked.items() if k.startswith("rules.")}
    new_rules = validated_rules(api, rules, sets) if sets else dict(rules)
    changes = {k: v for k, v in checked.items() if not k.startswith("rules.") and v != known[k].value}
    if not changes:
        return new_rules, heroes
    texts = edited_texts(roster_of(heroes).texts, changes)
    try:
        ro = load_texts(texts)
    except PlaytestError as e:  # the loader names a temporary file: name the edited key instead
        raise PlaytestError(f"{e.reason} ({e.field})" if e.field else e.reason, field=next(iter(changes))) from None
    return new_rules, [ro.heroes[ro.index(h.key)] for h in heroes]


def export_files(rules: dict, heroes, defaults: dict) -> dict:
    """``rules.toml`` (the options changed from the defaults) and every content file."""
    ro = roster_of(heroes)
    return {"rules.toml": rules_toml(rules, defaults), **(ro.texts if ro is not None else {})}
