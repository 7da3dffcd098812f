"""Every number of the Dice Throne data by name, for ``tune``, ``fix`` and the playground
(``GameAPI.editable_numbers`` / ``apply_edits``).

Names follow the data files' own keys, so a name reads like the line it edits:

    hero.<hero>.<ability>.<tier>.<key>      an offensive tier (tier = 1-based position in the
                                           ability's ``tiers`` list, as ``odds`` numbers them)
    hero.<hero>.<defence>.<tier>.<key>      a defence's tier
    hero.<hero>.passive.reroll_cost | draw_cost
    card.<card>.cost | copies | <key>      a card (its id)
    token.<token>.limit | threshold | bonus | cost | upkeep.<key>

``<key>`` is the effect's key in the TOML line: ``damage``, ``heal``, ``cp``, ``draw``,
``prevent``, ``add_damage``, ``roll`` (bonus dice), ``reroll``, ``move_die``,
``extra_attempt``, ``set_die`` (the face; 0 = any) for effects whose value is a number;
``gain.n``, ``inflict.n``, ``remove.n``, ``raise_limit.n``, ``spend.up_to``, ``set_die.n``
for the count of effects that name a token; ``<op>.per`` for a "per" amount. An
operation that appears twice in one list is ``<op>#2``; an outcome of a bonus roll is
``roll.<symbol>.<key>``. Example: ``hero.pyromancer.fireball.1.damage`` (4),
``card.surprise.cost`` (2), ``token.fire_mastery.limit`` (5),
``hero.pyromancer.meteorite.1.damage#2`` (the 2 collateral damage).
"""
from __future__ import annotations

import copy

from ..errors import PlaytestError
from ..game import Editable
from . import model as M

VALUE_OPS = {M.OP_DAMAGE: (0, 50), M.OP_ADD_DAMAGE: (0, 50), M.OP_HEAL: (0, 50), M.OP_CP: (-15, 15),
             M.OP_DRAW: (0, 10), M.OP_PREVENT: (0, 50), M.OP_EXTRA_ATTEMPT: (1, 5), M.OP_ROLL: (1, M.N_DICE),
             M.OP_REROLL: (1, M.N_DICE), M.OP_MOVE_DIE: (1, M.N_DICE)}
COUNT_OPS = {M.OP_GAIN: ("n", 0, 10), M.OP_INFLICT: ("n", 0, 10), M.OP_REMOVE: ("n", 1, 10),
             M.OP_RAISE_LIMIT: ("n", 0, 10), M.OP_SPEND: ("up_to", 1, 10), M.OP_SET_DIE: ("n", 1, M.N_DICE)}


class _Slot:
    """One editable number: its Editable and how to read/write it on a Content."""

    def __init__(self, key, label, group, value, lo, hi, file, path):
        self.editable = Editable(key, label, group, value, "int", lo, hi, file=file)
        self.path = path       # (getter of the object on a Content, attribute)


def _effect_slots(prefix, effects, label, group, file, get_list, out, symbols=()):
    seen: dict = {}
    for i, e in enumerate(effects):
        name = M.OPS[e.op]
        seen[name] = seen.get(name, 0) + 1
        key = name if seen[name] == 1 else f"{name}#{seen[name]}"

        def getter(c, i=i, gl=get_list):
            return gl(c)[i]

        if e.op in VALUE_OPS:
            lo, hi = VALUE_OPS[e.op]
            out.append(_Slot(f"{prefix}.{key}", f"{label}: {key}", group, e.n, lo, hi, file, (getter, "n")))
        if e.op in COUNT_OPS:
            attr, lo, hi = COUNT_OPS[e.op]
            out.append(_Slot(f"{prefix}.{key}.{attr}", f"{label}: {key} {attr}", group, e.n, lo, hi, file,
                             (getter, "n")))
        if e.op == M.OP_SET_DIE:
            out.append(_Slot(f"{prefix}.{key}", f"{label}: {key} face (0 = any)", group, e.arg, 0, 6, file,
                             (getter, "arg")))
        if e.of != M.OF_NONE:
            out.append(_Slot(f"{prefix}.{key}.per", f"{label}: {key} per", group, e.per, 0, 10, file,
                             (getter, "per")))
        for s, subs in sorted(e.on.items()):
            def sub_list(c, getter=getter, s=s):
                return getter(c).on[s]
            sym = symbols[s] if s < len(symbols) else f"symbol{s}"
            _effect_slots(f"{prefix}.{key}.{sym}", subs, f"{label}: {key} on {sym}", group, file, sub_list, out)


def slots(content) -> list[_Slot]:
    """Every editable number of ``content`` (a ``model.Content``), in data-file order."""
    out: list[_Slot] = []
    for hid, hero in content.heroes.items():
        f = f"heroes/{hid}.toml"
        for ab in hero.abilities + hero.defences:
            for t, tier in enumerate(ab.tiers):
                def tier_list(c, hid=hid, aid=ab.id, t=t):
                    h = c.heroes[hid]
                    return [a for a in h.abilities + h.defences if a.id == aid][0].tiers[t].effects

                _effect_slots(f"hero.{hid}.{ab.id}.{t + 1}", tier.effects, f"{hero.name} {ab.name} {t + 1}",
                              hero.name, f, tier_list, out, hero.symbols)
        if hero.tithe_reroll >= 0 or hero.tithe_draw >= 0:
            for attr, name in (("tithe_reroll", "reroll_cost"), ("tithe_draw", "draw_cost")):
                v = getattr(hero, attr)
                if v >= 0:
                    out.append(_Slot(f"hero.{hid}.passive.{name}", f"{hero.name} {hero.passive_name}: {name}",
                                     hero.name, v, 0, 15, f, (lambda c, hid=hid: c.heroes[hid], attr)))
    for ci, card in enumerate(content.cards):
        f = f"heroes/{card.owner}.toml" if card.owner else "cards.toml"
        group = "Cards"

        def get_card(c, ci=ci):
            return c.cards[ci]

        out.append(_Slot(f"card.{card.id}.cost", f"{card.name}: cost", group, card.cost, 0, 15, f, (get_card, "cost")))
        out.append(_Slot(f"card.{card.id}.copies", f"{card.name}: copies", group, card.copies, 0, 4, f,
                         (get_card, "copies")))
        def card_list(c, ci=ci):
            return c.cards[ci].effects

        syms = content.heroes[card.owner].symbols if card.owner in content.heroes else ()
        _effect_slots(f"card.{card.id}", card.effects, card.name, group, f, card_list, out, syms)
    for ti, tok in enumerate(content.tokens):
        f = "tokens"

        def get_tok(c, ti=ti):
            return c.tokens[ti]

        out.append(_Slot(f"token.{tok.id}.limit", f"{tok.name}: stack limit", "Tokens", tok.limit, 1, 20, f,
                         (get_tok, "limit")))
        if tok.use == M.U_CRIT:
            out.append(_Slot(f"token.{tok.id}.threshold", f"{tok.name}: damage threshold", "Tokens", tok.threshold,
                             0, 50, f, (get_tok, "threshold")))
        if tok.use in (M.U_CRIT, M.U_BLESSING):
            out.append(_Slot(f"token.{tok.id}.bonus", f"{tok.name}: bonus", "Tokens", tok.bonus, 0, 50, f,
                             (get_tok, "bonus")))
        if tok.use == M.U_KNOCKDOWN:
            out.append(_Slot(f"token.{tok.id}.cost", f"{tok.name}: CP to remove", "Tokens", tok.cost, 0, 15, f,
                             (get_tok, "cost")))

        def up_list(c, ti=ti):
            return c.tokens[ti].upkeep

        _effect_slots(f"token.{tok.id}.upkeep", tok.upkeep, f"{tok.name} upkeep", "Tokens", f, up_list, out)
    return out


def editables(content) -> list[Editable]:
    return [s.editable for s in slots(content)]


def close_names(name: str, names, n: int = 5) -> list[str]:
    """The known names closest to ``name`` (same prefix first, then difflib)."""
    import difflib

    names = list(names)
    hits = difflib.get_close_matches(name, names, n=n, cutoff=0.5)
    if len(hits) < n:
        stem = name.rsplit(".", 1)[0]
        hits += [k for k in names if k.startswith(stem) and k not in hits][: n - len(hits)]
    return hits[:n]


def unknown_name_error(name: str, names, field: str) -> PlaytestError:
    near = close_names(name, names)
    hint = f"close: {', '.join(near)}" if near else "see playtest dicethrone numbers"
    return PlaytestError(f"unknown data number {name!r} ({hint})", field=field)


def apply_edits(content, edits: dict, field: str | None = None):
    """A deep copy of ``content`` with ``edits`` (name -> value) applied and checked."""
    table = {s.editable.key: s for s in slots(content)}
    new = copy.deepcopy(content)
    for k, v in edits.items():
        if k not in table:
            raise unknown_name_error(k, table, field or k)
        s = table[k]
        value = s.editable.check(v)
        get, attr = s.path
        setattr(get(new), attr, value)
    for hid in new.heroes:
        size = sum(c.copies for c in new.heroes[hid].cards + new.generic)
        if size > M.MAX_DECK:
            raise PlaytestError(f"a deck holds at most {M.MAX_DECK} cards, {hid}'s would have {size}",
                                field=field or next(iter(edits)))
        if size < 1:
            raise PlaytestError(f"{hid}'s deck would be empty", field=field or next(iter(edits)))
    return new
