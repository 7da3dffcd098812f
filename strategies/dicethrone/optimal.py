"""Dice Throne ``optimal``: the exact roll-phase DP of ``simcore.odds`` over the hero's five
dice, with token-aware ability values, and die-changing cards where they pay.

Values. Every tier of every ability is worth the sum of its effects (``effect_value``):
damage 1 a point (undefendable and pure 1.25, ultimate 1.5), healing 0.5, CP 0.6, a card
drawn 1, a token gained or inflicted its weight, read from what its events and spend
entries do (``_derived_weight``, ``_inflict_weight``: an attack avoided is worth
``AVOID_WEIGHT``; the shapes of the Paladin's tokens and Knockdown, engine branches before
Season One's plan step 5, keep the constants they had as branches: Crit 2, Protect 2.5,
Accuracy 1.5, Retribution 2, Blessing of Divinity 5, Knockdown inflicted 3, Stun 4), tokens
spent their weight lost. The effects are evaluated in order on the hero's count of its
*scaling token* (the token its abilities count or spend: the Pyromancer's Fire Mastery), so "gain 2 Fire Mastery, then 5 + 1 per Fire Mastery" is
worth more with more Fire Mastery, and per-symbol amounts use the final dice. A final hand
is worth its best tier at the hero's current ability levels (upgrades), or 0.

Season One's amounts and conditions (season1/VOCABULARY.md 6, section 11 "The DP needs"):
``if_kind`` is exact on the final dice (a hero whose tiers read it gets one value class per
symbol counts *and* most dice of one face number); a ``roll_sum`` values the rest of its
list once per possible sum, weighted by its probability, so ``of = "pips"`` and ``if_pips``
are exact expectations; ``half`` and ``cap`` as the engines apply them. Approximations (the
tables have no axis for them): ``of = "cp"`` reads ``CP_TYPICAL`` CP plus the list's own CP
gains; ``if_dealt`` and ``of = "taken"`` assume the tier's damage so far lands in full (no
defence, no prevention); ``if_has``/``unless_has`` know the scaling token's count and take
any other token as not held; ``if_roll`` is not discounted (as before). Season One's cards
(plan step 9): after-damage cards (``ST_POSTWIN``) and ``discard_cost`` discards are
``greedy``'s; a card with two alternative die effects (Wild Shadow!: 1 die, 2 with Sneak)
is valued in the roll phase as its last one (the 2-dice use), whether or not the condition
holds.

The DP (``simcore.odds.value.value_dp``) runs over the 252 multisets of five dice and 0..3
rerolls left, for every combination of ability levels and scaling-token count the hero
can reach; the tables are built once per content (``optimal_block``) and looked up in the
compiled strategy. After each roll it keeps the sub-multiset with the best expected end
value (keeping all = stop); it takes the legal tier of highest value.

The ability: it takes the legal tier of highest value. With ``may_skip_ability`` (the
seed's "you may activate it") a tier is worth its value less the damage the attack can
expect back (the opponent's defence's mean, Retribution's half: ``basic.counter_risk``),
or -1 when ``greedy``'s rule for leaving it unused holds (the defence could knock it out
and the tier cannot hope to knock the opponent out), and passing is worth 0.

Cards in the roll phase: with its own attack dice showing, a playable card that sets a
die, moves a die, copies a die onto another (Me Too), rerolls dice (once, or several times
in a row: Worthy of Me, each later reroll valued at its best or skipped) or adds an
attempt (I Can Again) is played when the best use of it raises the DP's expected end
value by more than ``CARD_BAR + CP_VALUE * cost``; the die decision that follows takes the
best use (on the opponent's attack dice: the worst for them).
Buying tokens with CP (a card's ``buy``, ``PH_BUY``): each token bought is worth its gain
weight (above; Fire Mastery 0.8) and costs ``CP_VALUE`` a CP, so it
buys as many as it may when the weight exceeds ``CP_VALUE * cost`` and none otherwise.
A ``choose`` (``PH_CHOOSE``): the alternative of highest ``effect_value`` (a choose inside a
tier is valued as its best alternative; a grow as the root token it yields, at its gain
weight; ``of = "group:G"`` at a typical count of 2, as the DP keeps no row per group count
yet).
Everything else (main phases, windows, tokens, Knockdown, discards) is ``greedy``'s, the
Season One decisions included (plan steps 4b and 7: the holder's own-turn spends, the
rerolls of pre-defence, card and defence dice): its DP has no value for them yet, and in
the roll phase it spends nothing (Seedling's reroll is not valued as a free reroll card).
Information-fair: it reads ``obs`` and the content summary only.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numba as nb
import numpy as np

from simcore.dicethrone.model import (MAX_AB, MAX_CARDS, MAX_TIERS, MAX_TOKENS, MV_ABILITY, MV_DIE, MV_PASS, MV_PLAY,
                                      MV_REROLL, MV_SELL, N_DICE, O_ACTIVE, O_ADICE, O_ATTEMPTS, O_CUR, O_MAX_ATT,
                                      O_PEND_OP, O_ROLL_WHO, O_SEATS, O_STEP, OF_NONE, OF_SPENT, OF_SYMBOL,
                                      OP_CP, OP_DAMAGE, OP_DRAW, OP_EXTRA_ATTEMPT, OP_GAIN, OP_HEAL,
                                      OP_COPY_DIE, OP_INFLICT, OP_MOVE_DIE, OP_RAISE_LIMIT, OP_REMOVE, OP_REROLL,
                                      OP_ROLL, O_PEND_ARG, O_PEND_N, OP_ROLL_SUM, OF_PIPS, OF_CP, OF_TAKEN,
                                      COND_NONE, COND_KIND, COND_PIPS_GE, COND_PIPS_LE, COND_DEALT, COND_HAS,
                                      COND_UNLESS, COND_SPENT,
                                      OP_SET_DIE, OP_SPEND, P_CP, P_HAND, P_HERO, P_LEN, P_LVL, P_TOK,
                                      PH_ABILITY, PH_BUY, PH_DIE, PH_ROLL, PH_WINDOW, ST_PREWIN, T_MATE, T_SELF, U_NONE,
                                      U_STUN, K_PURE, K_ULT, K_UNDEF)
from simcore.odds.space import DiceSpace, _multisets
from simcore.odds.value import value_dp

from strategies.duel.optimal import kept_mask

from simcore.dicethrone.model import (MAX_SYM, OF_GROUP, OP_ADD_DAMAGE, OP_AVOID, OP_BLOCK_STATUS, OP_CHOOSE,
                                      OP_FAIL_ATTACK, OP_GROW, OP_GROW_ALL, OP_PREVENT_HALF, OP_UNDEFENDABLE, PH_CHOOSE,
                                      U_DATA, outcome_key, OP_SKIP, W_AFTER, W_ATTACK_END, W_ATTACKED, W_ATTACKING)

from .basic import D_TIERS, T_KIND, TIER_F, choose_pick, choose_values, counter_risk, find, greedy_decide, greedy_skips

_JIT = dict(cache=True, nogil=True, error_model="numpy")
R_LEFT = 4                  # rerolls left the tables cover (3 attempts, +1 from a card)
CARD_BAR = 1.0              # a card played on the dice must gain this much value ...
CP_VALUE = 0.6              # ... plus this much per CP it costs
CP_TYPICAL = 3              # the CP an ability's of = "cp" reads in the DP's values (the tables have no CP axis)
KIND_WEIGHT = {K_UNDEF: 1.25, K_PURE: 1.25, K_ULT: 1.5}
AVOID_WEIGHT = 7.0          # an opponent's attack avoided: about a non-ultimate attack's damage (a data token's worth)
GAIN_WEIGHT = {U_NONE: 0.8}     # a token gained, by its use, before its data raise it (else 1.0)
# the weights of the shapes the engine's branch tokens had before plan step 5, each valued as
# that token was (season1/VOCABULARY.md section 11: so the Paladin's and the Pyromancer's play
# does not change): a spend entry by its moment and ops, an event by its moment
HALF_PREVENT_WEIGHT = 2.5   # an attacked entry with prevent_half (Protect)
THRESHOLD_ADD_WEIGHT = 2.0  # an attacking entry with if_attack.at_least and add_damage (Crit)
UNDEFENDABLE_WEIGHT = 1.5   # an attack_end entry with undefendable (Accuracy)
AFTER_ATTACKED_WEIGHT = 2.0  # an after_attacked entry (Retribution)
KO_WEIGHT = 5.0             # a knocked_out event (Blessing of Divinity)
SKIP_ROLL_WEIGHT = 3.0      # inflicted: a roll_phase_start event with skip = "roll_phase" (Knockdown)
STUN_WEIGHT = 4.0           # inflicted: Stun (the one branch token)

# block header (offsets are absolute indices into the data array)
H_R, H_NH, H_NK, H_POW, H_RANK, H_KRANK, H_KEEPS, H_M, H_CARDS, H_GW = range(10)   # H_GW: [MAX_TOKENS] gain weights
H_CHOOSE = 10               # the choose table (basic.choose_values, valued by effect_value)
TYPICAL_GROUP = 2           # of = "group:G" in the values: a typical count (the DP keeps no row per count yet)
H_HERO = 16                 # per hero: 24 floats
HH = 24
HB_BEST, HB_V, HB_TV, HB_SV, HB_TOK, HB_TOKN, HB_NSV, HB_STRIDE = 0, 1, 2, 3, 4, 5, 6, 8   # stride: [MAX_AB]
CARD_F = 4                  # per card: die op (or extra attempt), arg (set: face; reroll: times), n, cost


# ------------------------------------------------------------------ values (Python)
def _shape_weight(sp):
    """The weight of spend entry ``sp`` if it has one of the branch tokens' shapes (the
    ``*_WEIGHT`` constants above), else None."""
    ops = {e.op for e in sp.effects}
    if sp.when == W_ATTACKED and OP_PREVENT_HALF in ops:
        return HALF_PREVENT_WEIGHT
    if sp.when == W_ATTACKING and sp.at_least >= 0 and OP_ADD_DAMAGE in ops:
        return THRESHOLD_ADD_WEIGHT
    if sp.when == W_ATTACK_END and OP_UNDEFENDABLE in ops:
        return UNDEFENDABLE_WEIGHT
    if sp.when == W_AFTER:
        return AFTER_ATTACKED_WEIGHT
    return None


def _derived_weight(content, t) -> float:
    """A token's worth, read from what it does (plan steps 5 and 11): the value of its
    ``attacked``/``defending`` events' effects, ``KO_WEIGHT`` for a ``knocked_out`` event,
    plus its best spend entry's: an entry of a branch token's shape (``_shape_weight``:
    Crit 2, Protect 2.5, Accuracy 1.5, Retribution 2) its constant, any other its effects'
    ``effect_value``, where an attack avoided or made to fail is worth ``AVOID_WEIGHT`` and
    half of one prevented half that: Sneak (avoid) 7, Sneak Attack (1d6 of damage) 3.5,
    Evasive (a die roll avoiding on some faces) its odds times 7. Blessing of Divinity 5.
    A weight is never below the default (``_token_weights``)."""
    owner = content.heroes.get(t.owner) if t.owner else None
    fs = np.array(owner.face_sym) if owner is not None else np.zeros(6, np.int64)
    sym = np.zeros(MAX_SYM)
    w = sum(effect_value(lst, {}, {}, sym, fs, {}, {}) for m, lst in t.events.items() if m in ("attacked", "defending"))
    if t.events.get("knocked_out"):
        w += KO_WEIGHT
    best = 0.0
    for sp in t.spend:
        shape = _shape_weight(sp)
        best = max(best, shape if shape is not None else effect_value(sp.effects, {}, {}, sym, fs, {}, {}))
    return w + best


def _inflict_weight(t) -> float:
    """A status inflicted: Stun ``STUN_WEIGHT``; a roll phase skipped at its start
    (Knockdown) ``SKIP_ROLL_WEIGHT``; upkeep damage d 2d (Burn 4); else 2."""
    if t.use == U_STUN:
        return STUN_WEIGHT
    if any(e.op == OP_SKIP and e.n == 1 for e in t.events.get("roll_phase_start", [])):
        return SKIP_ROLL_WEIGHT
    upkeep_dmg = sum(e.n + e.per * (1 if e.of != OF_NONE else 0) for e in t.upkeep if e.op == OP_DAMAGE)
    return 2.0 * upkeep_dmg if upkeep_dmg else 2.0


def _token_weights(content):
    gw, iw = {}, {}
    for i, t in enumerate(content.tokens):
        gw[i] = GAIN_WEIGHT.get(t.use, 1.0)
        if t.use in (U_NONE, U_DATA) and not t.negative:
            gw[i] = max(gw[i], _derived_weight(content, t))
        iw[i] = _inflict_weight(t)
    return gw, iw


def pips_dist(n: int) -> dict:
    """{sum: probability} of the face numbers of n dice."""
    d = {0: 1.0}
    for _ in range(n):
        nxt: dict = {}
        for s0, p in d.items():
            for f in range(1, 7):
                nxt[s0 + f] = nxt.get(s0 + f, 0.0) + p / 6.0
        d = nxt
    return d


def _holds(e, tok, kind, pips, spent, dealt) -> bool:
    """Season One's one condition of an effect (C_COND), as the DP knows the state: if_kind
    on the final dice (``kind``: their most dice of one face number); if_pips on the sum
    being valued; if_dealt on the damage the list has dealt so far (the DP assumes an
    attack's damage lands); if_has/unless_has on the scaling token's count, any other token
    taken as not held; if_spent on the list's last spend."""
    c, k = e.cond, e.carg
    if c == COND_KIND:
        return kind >= k
    if c == COND_PIPS_GE:
        return pips >= k
    if c == COND_PIPS_LE:
        return pips <= k
    if c == COND_DEALT:
        return dealt >= k
    if c in (COND_HAS, COND_UNLESS):
        held = k >= 0 and tok.get(k, 0) > 0
        return held if c == COND_HAS else not held
    if c == COND_SPENT:
        return spent >= k
    return True


def effect_value(effects, tok: dict, lim: dict, symc, face_sym, gw, iw, spent=0, kind=N_DICE, pips=0, cp=CP_TYPICAL,
                 dealt=0) -> float:
    """Value of ``effects`` in order; ``tok``/``lim``: the hero's token counts and limits
    (updated as gained or spent); ``symc``: symbol counts of the final dice; ``kind``: their
    most dice of one face number (if_kind); ``pips``: the last roll_sum's sum; ``cp``: the
    CP the DP assumes (``CP_TYPICAL``, plus the list's gains: of = "cp"); ``dealt``: the
    damage the list dealt so far (if_dealt, of = "taken"). A roll_sum values the rest of the
    list once per sum, weighted by its probability (exact); see ``_holds``."""
    v = 0.0
    for i, e in enumerate(effects):
        if e.op == OP_ROLL_SUM:
            rest = effects[i + 1:]
            return v + sum(p * effect_value(rest, dict(tok), dict(lim), symc, face_sym, gw, iw, spent, kind, s, cp,
                                            dealt)
                           for s, p in pips_dist(e.n).items())
        if e.cond != COND_NONE and not _holds(e, tok, kind, pips, spent, dealt):
            continue
        if e.of >= OF_GROUP:
            x = TYPICAL_GROUP
        elif e.of == OF_SPENT:
            x = spent
        elif e.of == OF_PIPS:
            x = pips
        elif e.of == OF_CP:
            x = cp
        elif e.of == OF_TAKEN:
            x = dealt
        elif e.of >= OF_SYMBOL:
            x = symc[e.of - OF_SYMBOL] if e.of - OF_SYMBOL < len(symc) else 0
        elif e.of != OF_NONE:
            x = tok.get(e.of, 0)
        else:
            x = 0
        amt = e.n + e.per * x
        if e.half:
            amt = (amt + 1) // 2 if e.half == 1 else amt // 2
        if e.cap >= 0:
            amt = min(amt, e.cap)
        if e.op == OP_ROLL:
            tot = 0.0
            for f in range(6):
                subs = e.on.get(outcome_key(e, face_sym, f), [])
                tot += effect_value(subs, dict(tok), dict(lim), symc, face_sym, gw, iw, spent, kind, pips, cp, dealt)
            v += e.n * tot / 6.0
        elif e.op == OP_DAMAGE:
            v += -amt if e.target == T_SELF else KIND_WEIGHT.get(e.kind, 1.0) * amt
            if e.target != T_SELF:
                dealt += amt
        elif e.op == OP_HEAL:
            v += 0.5 * amt
        elif e.op == OP_CP:
            v += 0.6 * amt if e.target == T_SELF else -0.6 * amt
            if e.target == T_SELF:
                cp = max(0, cp + amt)
        elif e.op == OP_DRAW:
            v += 1.0 * amt
        elif e.op == OP_GAIN and e.target == T_MATE:
            pass            # a teammate's gain: nothing in 1v1, and not valued in teams either
        elif e.op == OP_GAIN:
            before = tok.get(e.arg, 0)
            after = min(lim.get(e.arg, 99), before + amt)
            tok[e.arg] = after
            v += gw.get(e.arg, 1.0) * (after - before)
        elif e.op == OP_INFLICT:
            v += iw.get(e.arg, 2.0) * max(amt, 0)
        elif e.op == OP_REMOVE:
            v += 1.0
        elif e.op == OP_SPEND:
            k = min(tok.get(e.arg, 0), e.n)
            tok[e.arg] = tok.get(e.arg, 0) - k
            spent = k
            v -= gw.get(e.arg, 1.0) * k
        elif e.op == OP_RAISE_LIMIT:
            lim[e.arg] = lim.get(e.arg, 99) + e.n
            v += 0.3 * e.n
        # Season One's ops (no shipped tier holds them: the shipped values are unchanged)
        elif e.op == OP_ADD_DAMAGE:
            v += 1.0 * amt
        elif e.op == OP_CHOOSE:      # the best alternative
            v += max(effect_value(alt, dict(tok), dict(lim), symc, face_sym, gw, iw, spent) for alt in e.alts)
        elif e.op == OP_GROW:        # the root token it yields (a Seedling), at its gain weight
            v += gw.get(e.arg, 1.0) * amt
        elif e.op == OP_GROW_ALL:
            v += gw.get(e.arg, 1.0) * TYPICAL_GROUP
        elif e.op in (OP_UNDEFENDABLE, OP_BLOCK_STATUS):
            v += 1.0
        elif e.op in (OP_AVOID, OP_FAIL_ATTACK):    # a token's: the opponent's attack comes to nothing
            v += AVOID_WEIGHT
        elif e.op == OP_PREVENT_HALF:
            v += AVOID_WEIGHT / 2
    return v


def scaling_token(hero) -> int:
    """The first token the hero's abilities count (``of``) or spend, or -1."""
    for ab in hero.abilities:
        for tier in ab.tiers:
            for e in tier.effects:
                if e.op == OP_SPEND:
                    return e.arg
                if e.of != OF_NONE and e.of < OF_SYMBOL:
                    return e.of
    return -1


_HERO_TABLES: dict = {}


def _hero_tables(content, hero, space, gw, iw):
    """One hero's DP tables (the costly part of :func:`optimal_block`, about 0.3 s a
    hero): they depend only on the hero and the tokens, so a run that varies the deck or
    another number (card values, tune, the balance search) computes them once per hero.
    The key is the text of everything they read: the die, the symbols, the abilities and
    the tokens (weights and limits)."""
    key = repr((hero.die, hero.symbols, hero.face_sym, hero.abilities, content.tokens))
    hit = _HERO_TABLES.get(key)
    if hit is not None:
        return hit
    nsym = len(hero.symbols)
    # a tier's value depends on the final dice through their symbol counts, and also through
    # their most dice of one face number when a tier reads if_kind: the classes of hands
    uses_kind = any(x.cond == COND_KIND for ab in hero.abilities for t in ab.tiers for e in t.effects
                    for x in [e] + [y for sub in e.on.values() for y in sub])
    fs = np.array(hero.face_sym)

    def class_of(hd):
        c = [0] * nsym
        for f in range(6):
            c[fs[f]] += int(space.hands[hd, f])
        return tuple(c) + ((int(space.hands[hd].max()),) if uses_kind else ())

    if uses_kind:
        svs = sorted({class_of(hd) for hd in range(space.n_hands)})
    else:
        svs = list(_multisets(nsym, N_DICE))
    sv_index = {s: i for i, s in enumerate(svs)}
    sv_of_hand = np.zeros(space.n_hands, np.int64)
    for hd in range(space.n_hands):
        sv_of_hand[hd] = sv_index[class_of(hd)]
    tk = scaling_token(hero)
    tok_n = content.tokens[tk].limit + 2 if tk >= 0 else 1
    n_slots = MAX_AB * MAX_TIERS
    tv = np.zeros((tok_n, len(svs), n_slots), np.float64)
    met = np.zeros((space.n_hands, n_slots), bool)
    level = np.zeros(n_slots, np.int64)
    for a, ab in enumerate(hero.abilities):
        for t, tier in enumerate(ab.tiers):
            s = a * MAX_TIERS + t
            level[s] = tier.level
            met[:, s] = space.met_vector(tier.target)
            for x in range(tok_n):
                for i, svec in enumerate(svs):
                    tok = {tk: x} if tk >= 0 else {}
                    lim = {tk: content.tokens[tk].limit} if tk >= 0 else {}
                    kind = svec[nsym] if uses_kind else N_DICE
                    tv[x, i, s] = effect_value(tier.effects, tok, lim, svec[:nsym], fs, gw, iw, kind=kind)
    maxlvl = [max(t.level for t in ab.tiers) for ab in hero.abilities]
    stride = np.zeros(MAX_AB, np.int64)
    m = tok_n
    for a, ml in enumerate(maxlvl):
        if ml > 1:
            stride[a] = m
            m *= ml
    n_combo = m
    best = np.zeros((n_combo, R_LEFT, space.n_hands), np.float64)
    V = np.zeros((n_combo, R_LEFT, space.n_hands), np.float64)
    slot_ab = np.arange(n_slots) // MAX_TIERS
    for lv in itertools.product(*[range(1, ml + 1) for ml in maxlvl]):
        active = np.zeros(n_slots, bool)
        for s in range(n_slots):
            a = slot_ab[s]
            active[s] = a < len(maxlvl) and level[s] == lv[a]
        for x in range(tok_n):
            c = x + sum(int(stride[a]) * (lv[a] - 1) for a in range(len(maxlvl)))
            vals = tv[x][sv_of_hand]                        # [hands, slots]
            vals = np.where(met & active[None, :], vals, -np.inf)
            endval = np.maximum(vals.max(axis=1), 0.0)
            Vc, bc, _ = value_dp(space, endval, R_LEFT, 0, 0.0)
            V[c] = Vc[:, 0, :]
            best[c] = bc[:, 0, :]
    out = (best, V, tv, sv_of_hand, tk, tok_n, len(svs), stride)
    for a in out:
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    if len(_HERO_TABLES) >= 64:
        _HERO_TABLES.clear()
    _HERO_TABLES[key] = out
    return out


_SOLO: dict = {}


def _solo(content, hero_id: str):
    """The hero alone with the generic file (``model.load_content`` of that one hero, from the
    files ``content`` was loaded from), or ``content`` itself when it knows no files. A hero's
    DP tables read only its own file and the tokens it names (the generic ones and its own:
    the loader allows no other), so the tables computed on this content are the hero's in
    every matchup: with :func:`_hero_tables`' cache, a roster's 36 matchups compute each
    hero's tables once, not once per matchup."""
    from simcore.dicethrone.model import load_content

    if not getattr(content, "sources", ()):
        return content
    cards, folder = content.sources
    path = Path(folder) / f"{hero_id}.toml"
    key = (str(cards), str(path), Path(cards).stat().st_mtime_ns, path.stat().st_mtime_ns)
    hit = _SOLO.get(key)
    if hit is None:
        if len(_SOLO) >= 64:
            _SOLO.clear()
        hit = _SOLO[key] = load_content((hero_id,), cards, folder)
    return hit


def _tables_of_hero(content, hero, space):
    """``_hero_tables`` of ``hero``, computed on the hero alone (:func:`_solo`), with its
    scaling token given as the id it has in ``content``."""
    solo = _solo(content, hero.id)
    gw, iw = _token_weights(solo)
    out = _hero_tables(solo, solo.heroes[hero.id], space, gw, iw)
    tk = out[4]
    if tk >= 0 and solo is not content:
        out = out[:4] + (content.token_ids[solo.tokens[tk].id],) + out[5:]
    return out


def optimal_block(content, T, start: int) -> np.ndarray:
    """The strategy's tables as one float64 block that will sit at ``data[start:]`` (the
    tables' heroes: the content's, in its order)."""
    heroes = list(content.heroes.values())
    spaces = [DiceSpace.build([hero.die] * N_DICE, collapse=False) for hero in heroes]
    sp = spaces[0]
    slot_pow, rank = sp.lookup_tables()[:2]
    krank = np.full(rank.shape[0], -1, np.int64)
    for k in range(sp.n_keeps):
        krank[int((sp.keeps[k] * slot_pow).sum())] = k
    parts = []
    pos = [start + H_HERO + HH * len(heroes)]

    def put(arr) -> int:
        a = np.ascontiguousarray(arr, np.float64).ravel()
        at = pos[0]
        parts.append(a)
        pos[0] += a.size
        return at

    head = np.zeros(H_HERO + HH * len(heroes), np.float64)
    head[H_R], head[H_NH], head[H_NK] = R_LEFT, sp.n_hands, sp.n_keeps
    head[H_POW] = put(slot_pow)
    head[H_RANK] = put(rank)
    head[H_KRANK] = put(krank)
    head[H_KEEPS] = put(sp.keeps)
    head[H_M] = put(sp.matrix)
    cards = np.zeros((MAX_CARDS, CARD_F), np.float64)
    for c, card in enumerate(content.cards):
        cards[c, 3] = card.cost
        for e in card.effects:
            if e.op in (OP_SET_DIE, OP_MOVE_DIE, OP_REROLL, OP_EXTRA_ATTEMPT, OP_COPY_DIE):
                cards[c, 0], cards[c, 1], cards[c, 2] = e.op, e.arg, e.n
    head[H_CARDS] = put(cards)
    gw, iw = _token_weights(content)    # by the matchup's token ids: the buy decision's and choose's
    gws = np.zeros(MAX_TOKENS, np.float64)
    for t, w in gw.items():
        gws[t] = w
    head[H_GW] = put(gws)
    head[H_CHOOSE] = put(choose_values(content, lambda alt: effect_value(
        alt, {}, {}, np.zeros(MAX_SYM), np.zeros(6, np.int64), gw, iw)))
    for h, (hero, space) in enumerate(zip(heroes, spaces)):
        hb = H_HERO + h * HH
        best, V, tv, sv_of_hand, tk, tok_n, n_sv, stride = _tables_of_hero(content, hero, space)
        head[hb + HB_BEST] = put(best)
        head[hb + HB_V] = put(V)
        head[hb + HB_TV] = put(tv)
        head[hb + HB_SV] = put(sv_of_hand)
        head[hb + HB_TOK] = tk
        head[hb + HB_TOKN] = tok_n
        head[hb + HB_NSV] = n_sv
        head[hb + HB_STRIDE:hb + HB_STRIDE + MAX_AB] = stride
    return np.concatenate([head] + parts)


# ------------------------------------------------------------------ compiled
@nb.njit(**_JIT)
def hand_of(dice, o, data):
    """Index of the multiset of five face indices ``dice[0:5]``."""
    pw = int(data[o + H_POW])
    code = 0
    for i in range(N_DICE):
        code += int(data[pw + dice[i]])
    return int(data[int(data[o + H_RANK]) + code])


@nb.njit(**_JIT)
def combo_of(obs, p, o, data):
    """(hero block, combination index): the seat's ability levels and scaling-token count."""
    b = O_SEATS + p * P_LEN
    hb = o + H_HERO + obs[b + P_HERO] * HH
    c = 0
    tk = int(data[hb + HB_TOK])
    if tk >= 0:
        x = obs[b + P_TOK + tk]
        tn = int(data[hb + HB_TOKN])
        c = x if x < tn else tn - 1
    for a in range(MAX_AB):
        st = int(data[hb + HB_STRIDE + a])
        if st > 0:
            c += st * (obs[b + P_LVL + a] - 1)
    return hb, c


@nb.njit(**_JIT)
def v_at(o, hb, c, left, hand, data):
    nh = int(data[o + H_NH])
    return data[int(data[hb + HB_V]) + (c * R_LEFT + left) * nh + hand]


@nb.njit(**_JIT)
def reroll_value(o, hb, c, left, dice, mask, data):
    """Expected DP value after rerolling the dice in ``mask`` (no attempt used)."""
    pw = int(data[o + H_POW])
    code = 0
    for i in range(N_DICE):
        if not (mask >> i) & 1:
            code += int(data[pw + dice[i]])
    k = int(data[int(data[o + H_KRANK]) + code])
    nh = int(data[o + H_NH])
    row = int(data[o + H_M]) + k * nh
    vb = int(data[hb + HB_V]) + (c * R_LEFT + left) * nh
    e = 0.0
    for j in range(nh):
        e += data[row + j] * data[vb + j]
    return e


@nb.njit(**_JIT)
def seq_reroll_value(o, hb, c, left, dice, mask, n, times, data, sign):
    """Expected DP value (sign=1: for the dice's owner; -1: negated) after rerolling the dice
    in ``mask`` when ``times - 1`` more rerolls of up to ``n`` dice follow, each taken at its
    best or skipped (a card's ``reroll = n, times = t``); ``times`` <= 1: ``reroll_value``."""
    if times <= 1 or mask == 0:
        return sign * reroll_value(o, hb, c, left, dice, mask, data)
    idx = np.empty(N_DICE, np.int64)
    k = 0
    for i in range(N_DICE):
        if (mask >> i) & 1:
            idx[k] = i
            k += 1
    old = dice.copy()
    tot = 0.0
    n_out = 6 ** k
    for code in range(n_out):
        x = code
        for j in range(k):
            dice[idx[j]] = x % 6
            x //= 6
        best = sign * v_at(o, hb, c, left, hand_of(dice, o, data), data)
        for m in range(1, 1 << N_DICE):
            cnt = 0
            for i in range(N_DICE):
                cnt += (m >> i) & 1
            if cnt > n:
                continue
            v = seq_reroll_value(o, hb, c, left, dice, m, n, times - 1, data, sign)
            if v > best:
                best = v
        tot += best
    for i in range(N_DICE):
        dice[i] = old[i]
    return tot / n_out


@nb.njit(**_JIT)
def best_die_use(op, arg, n, o, hb, c, left, dice, data, sign):
    """Best (sign=1) or worst (sign=-1) DP value reachable with one die effect, and its
    move offset (the ``MV_DIE`` move's payload); ``dice`` is modified for set/move."""
    best = -1e18
    bm = -1
    if op == OP_SET_DIE or op == OP_MOVE_DIE or op == OP_COPY_DIE:
        for i in range(N_DICE):
            old = dice[i]
            for u in range(6):
                if op == OP_COPY_DIE:     # u: a face another die shows
                    if u == old:
                        continue
                    shown = False
                    for j in range(N_DICE):
                        if j != i and dice[j] == u:
                            shown = True
                    if not shown:
                        continue
                    nf = u
                    pay = i * 8 + u + 1
                elif op == OP_SET_DIE:    # u + 1: the face number set
                    if arg != 0 and u + 1 != arg:
                        continue
                    nf = u
                    pay = i * 8 + u + 1
                else:                     # u = 0 down, 1 up
                    nf = old + (1 if u == 1 else -1)
                    if u > 1 or nf < 0 or nf > 5:
                        continue
                    pay = i * 8 + u
                dice[i] = nf
                v = sign * v_at(o, hb, c, left, hand_of(dice, o, data), data)
                if v > best:
                    best = v
                    bm = pay
            dice[i] = old
    elif op == OP_REROLL:
        for m in range(1, 1 << N_DICE):
            cnt = 0
            for i in range(N_DICE):
                cnt += (m >> i) & 1
            if cnt > n:
                continue
            v = seq_reroll_value(o, hb, c, left, dice, m, n, arg, data, sign)
            if v > best:
                best = v
                bm = m
    elif op == OP_EXTRA_ATTEMPT:
        l2 = left + n if left + n < R_LEFT else R_LEFT - 1
        best = sign * v_at(o, hb, c, l2, hand_of(dice, o, data), data)
    return sign * best, bm


@nb.njit(**_JIT)
def card_gain(obs, p, o, hb, c, left, data, moves, n_moves):
    """Index of the die card worth playing on the seat's own attack dice, or -1."""
    b = O_SEATS + p * P_LEN
    dice = np.empty(N_DICE, np.int64)
    for i in range(N_DICE):
        dice[i] = obs[O_ADICE + i]
    now = v_at(o, hb, c, left, hand_of(dice, o, data), data)
    cb = int(data[o + H_CARDS])
    best = 0.0
    bk = -1
    for k in range(n_moves):
        mv = moves[k]
        if mv < MV_PLAY or mv >= MV_SELL:
            continue
        cid = obs[b + P_HAND + mv - MV_PLAY]
        op = int(data[cb + cid * CARD_F])
        if op == 0:
            continue
        arg = int(data[cb + cid * CARD_F + 1])
        n = int(data[cb + cid * CARD_F + 2])
        v = 0.0
        if op == OP_SET_DIE or op == OP_COPY_DIE:
            for _ in range(n):   # n dice set one after another, each at its best
                v, bm = best_die_use(op, arg, 1, o, hb, c, left, dice, data, 1.0)
                dice[bm // 8] = bm % 8 - 1
            for i in range(N_DICE):
                dice[i] = obs[O_ADICE + i]
        else:
            v, bm = best_die_use(op, arg, n, o, hb, c, left, dice, data, 1.0)
        gain = v - now - CARD_BAR - CP_VALUE * data[cb + cid * CARD_F + 3]
        if gain > best:
            best = gain
            bk = k
    return bk


@nb.njit(**_JIT)
def keep_mask(o, k, dice, data):
    """The lowest-index dice showing each face of keep ``k``."""
    kb = int(data[o + H_KEEPS]) + k * 6
    return kept_mask(dice, N_DICE, data[kb:kb + 6])


@nb.njit(**_JIT)
def optimal_at(phase, obs, moves, n_moves, rules, data, rng, o):
    p = obs[O_CUR]
    if phase == PH_ROLL or (phase == PH_WINDOW and obs[O_STEP] == ST_PREWIN and obs[O_ACTIVE] == p
                            and obs[O_ROLL_WHO] == 1):
        hb, c = combo_of(obs, p, o, data)
        left = obs[O_MAX_ATT] - obs[O_ATTEMPTS] if phase == PH_ROLL else 0
        if left < 0:
            left = 0
        if left > R_LEFT - 1:
            left = R_LEFT - 1
        k = card_gain(obs, p, o, hb, c, left, data, moves, n_moves)
        if k >= 0:
            return k
        if phase == PH_WINDOW or left == 0:
            return greedy_decide(phase, obs, moves, n_moves, rules, data, rng) if phase == PH_WINDOW else 0
        dice = obs[O_ADICE:O_ADICE + N_DICE]
        hand = hand_of(dice, o, data)
        nh = int(data[o + H_NH])
        kk = int(data[int(data[hb + HB_BEST]) + (c * R_LEFT + left) * nh + hand])
        mask = keep_mask(o, kk, dice, data)
        if mask == (1 << N_DICE) - 1:
            return 0
        j = find(moves, n_moves, MV_REROLL + mask)
        return j if j >= 0 else 0
    if phase == PH_ABILITY:
        b = O_SEATS + p * P_LEN
        hb, c = combo_of(obs, p, o, data)
        tn = int(data[hb + HB_TOKN])
        x = c % tn
        hand = hand_of(obs[O_ADICE:O_ADICE + N_DICE], o, data)
        sv = int(data[int(data[hb + HB_SV]) + hand])
        tb = int(data[hb + HB_TV]) + (x * int(data[hb + HB_NSV]) + sv) * MAX_AB * MAX_TIERS
        best = -1e18
        bk = 0
        h = obs[b + P_HERO]
        may_pass = moves[0] == MV_PASS
        for k in range(n_moves):
            s = moves[k] - MV_ABILITY
            if s < 0:       # pass (rule may_skip_ability): worth 0, below
                continue
            v = data[tb + (s // 16) * MAX_TIERS + s % 16]
            if may_pass:    # weighed against passing (without the option: the tier's value)
                kind = int(data[D_TIERS + ((h * MAX_AB + s // 16) * MAX_TIERS + s % 16) * TIER_F + T_KIND])
                if greedy_skips(obs, p, data, kind, v):
                    v = -1.0    # the attack could knock it out and cannot hope to win: below passing
                else:
                    v -= counter_risk(obs, p, data, kind, v)[1]   # the damage it can expect back
            if v > best:
                best = v
                bk = k
        if may_pass and best <= 0.0:
            return 0
        return bk
    if phase == PH_DIE and obs[O_ROLL_WHO] == 1:
        owner = obs[O_ACTIVE]
        hb, c = combo_of(obs, owner, o, data)
        left = obs[O_MAX_ATT] - obs[O_ATTEMPTS]
        if left < 0:
            left = 0
        if left > R_LEFT - 1:
            left = R_LEFT - 1
        sign = 1.0 if owner == p else -1.0
        dice = np.empty(N_DICE, np.int64)
        for i in range(N_DICE):
            dice[i] = obs[O_ADICE + i]
        op = obs[O_PEND_OP]
        best = -1e18
        bk = 0
        for k in range(n_moves):
            x = moves[k] - MV_DIE
            if op == OP_REROLL:   # PEND_ARG: rerolls of this card still to come (0: this one only)
                v = sign * seq_reroll_value(o, hb, c, left, dice, x, obs[O_PEND_N], obs[O_PEND_ARG], data, sign)
            else:
                i = x // 8
                old = dice[i]
                if op == OP_SET_DIE or op == OP_COPY_DIE:
                    dice[i] = x % 8 - 1
                else:
                    dice[i] = old + (1 if x % 8 != 0 else -1)
                v = v_at(o, hb, c, left, hand_of(dice, o, data), data)
                dice[i] = old
            if sign * v > best:
                best = sign * v
                bk = k
        return bk
    if phase == PH_CHOOSE:  # the alternative of highest effect_value
        return choose_pick(obs, n_moves, data, int(data[o + H_CHOOSE]))
    if phase == PH_BUY:     # each token: its gain weight against CP_VALUE per CP it costs
        w = data[int(data[o + H_GW]) + obs[O_PEND_ARG]]
        return n_moves - 1 if w > CP_VALUE * obs[O_PEND_N] else 0
    return greedy_decide(phase, obs, moves, n_moves, rules, data, rng)


# where the extended strategy data keeps its blocks (``bind.content_tables``)
from .basic import D_LEN  # noqa: E402

D_OPT = D_LEN            # offset of the optimal block
D_TABLES = D_LEN + 1     # offset of the packed content tables (search)
D_BUDGET = D_LEN + 2     # search: rollouts per candidate
D_HORIZON = D_LEN + 3    # search: turns a rollout plays before the position is scored
D_EXT = D_LEN + 8        # first block


# reference counting on: decide_builtin (compiled without it) would hand its setting down
@nb.njit(_nrt=True, **_JIT)
def optimal_decide(phase, obs, moves, n_moves, rules, data, rng):
    return optimal_at(phase, obs, moves, n_moves, rules, data, rng, int(data[D_OPT]))
