"""Dice Throne ``random`` and ``greedy`` strategies (numba; information-fair: they read
only the observation ``obs`` and the content summary ``data``).

Interface: ``decide(phase, obs, moves, n_moves, rules, data, rng) -> index into moves``.
``data`` is ``strategy_data(tables, content)``: a float64 summary of the content the
strategies may know (ability tiers' values, levels and dice targets; faces' symbols; card
kinds; what a bonus die the attacker may reroll is worth by face; what each defence can
deal back to an attacker), laid out as below.

Leaving an ability unused (rule ``may_skip_ability``, the seed's "you may activate it"):
greedy attacks with its best tier unless the attack could cost it the game for little:
it leaves the ability unused when the opponent will defend (the tier's damage is normal,
greedy holds no Accuracy, the opponent is not stunned), the most damage the opponent's
defence can deal back (every die showing its best face, ``counter_of``; plus half the
tier's value, rounded up, when the opponent holds Retribution) reaches greedy's health,
and the tier's value is below the opponent's health (it cannot hope to knock them out).

Spending tokens by decision (a data token's spend window, ``PH_TOKEN`` with ``MV_SPEND`` moves):
greedy spends whenever offered, through the first entry offered, as many tokens as that entry
lets it spend at once; in the collateral window (``ST_COLLWIN``, rule collateral_preventable)
as many as the collateral it still takes (``kernel.coll_due_nb``; at least one): a token
prevents at least one damage, so more would be spent on nothing. The holder's own-turn spends (``main``, ``own_roll``, ``any``: in main,
roll and window decisions and the upkeep window) go by the entry's class (``spend_class``,
``D_SPEND``): a status removal (Cleanse) or a main-phase entry (Wellspring) when offered,
other ``any`` entries (Sapling's heal and CP) in main phase 2, a draw below 3 cards in hand,
a die operation (Seedling's reroll) never.

Buying tokens with CP (a card's ``buy`` effect, ``PH_BUY``: Turning Up the Heat): greedy buys
as many as it may (the last move: its CP and the token's stack limit bound them), as it
always spends tokens: a token in hand now over CP kept for later.

Choosing a target (``PH_TARGET``, 2v2's targeting die showing "pick" or "their_pick"):
``target_pick`` (the attacker: a knock-out first, then the lowest health, then the weakest
defence; a defender for its team: the strongest defence). On the targeting die's window
greedy plays no die card (its window rule plays damage and prevention cards only).

Picking an alternative of a ``choose`` (``PH_CHOOSE``, moves ``MV_PICK + k``): the alternative
of highest ``model._effect_value`` (the sum over its effects; the first of equal values):
Meditate's Evasive (equal to Cleanse), Ninjutsu's +2 damage.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.dicethrone.model import COND_DEALT, CW_AFTER, C_CARG, O_TAKEN, ST_POSTWIN
from simcore.dicethrone.model import MAX_ALT, O_ACTIVE, O_CHOOSE, O_CHOOSE_N, PH_CHOOSE, O_TARGET, MAX_HEROES, MV_TARGET, PH_TARGET
from simcore.dicethrone.model import (MV_SPEND, TK_NEG, C_COND, C_IF, C_N, C_OF, C_OP, C_PER, C_TARGET, K_NORMAL, MAX_DEF,
                                      OF_SPENT, OF_SYMBOL, OP_DAMAGE, P_DLVL, P_HP, T_SELF,
                                      U_STUN, MAX_AB, MAX_TIERS, MAX_TOKENS, MV_ABILITY, MV_DIE, MV_PASS,
                                      MV_PLAY,
                                      MV_REROLL, MV_SELL, O_AB, O_ADICE, O_ATTEMPTS, O_BDICE, O_BONUS_N, O_CUR,
                                      O_MAX_ATT, O_SEATS, O_TIER, OP_ADD_DAMAGE, OP_MOVE_DIE, OP_PREVENT,
                                      OP_REMOVE, OP_REROLL, OP_ROLL, OP_SET_DIE, OP_UPGRADE, P_HAND, P_HERO, P_LEN,
                                      P_LVL, P_TOK, PH_ABILITY, PH_BONUS, PH_BUY, PH_DISCARD, PH_MAIN, PH_ROLL,
                                      PH_TOKEN, PH_WINDOW, outcome_key, _effect_value, BS_CARD, BS_DEF, MAX_CARDS,
                                      O_BONUS_ROW, O_BONUS_SRC, O_DDICE, O_DEF, OF_NONE, MAX_SPEND, N_ATTACK_WINDOWS,
                                      SP_LEN, SP_START, SP_WHEN, W_MAIN, DIE_OPS, OP_DRAW, O_STEP, ST_MAIN2,
                                      P_HAND_N)
from simcore.dicethrone.model import C_HALF, C_CAP, OF_TAKEN, OP_UNDEFENDABLE, SP_TOK, W_AFTER, W_ATTACK_END, W_ROLL_START
from simcore.dicethrone.kernel import coll_due_nb
from simcore.dicethrone.model import ST_COLLWIN
from simcore.rng import below_nb

_JIT = dict(cache=True, nogil=True, error_model="numpy")
TIER_F = 12          # floats per tier: value, level, target kind, need[6], straight length, need packed
TIER_NEED = 10       # the needed symbols packed 4 bits a symbol (plan_tier)
D_TIERS = 16
D_FACES = D_TIERS + MAX_HEROES * MAX_AB * MAX_TIERS * TIER_F     # [MAX_HEROES, 6] symbol of each face
D_CARDS = D_FACES + MAX_HEROES * 6                       # [MAX_CARDS, 2] flags, negative-token count
D_NEG = D_CARDS + 2 * MAX_CARDS                          # [MAX_TOKENS] 1 if the token is negative
D_TN = D_NEG + MAX_TOKENS                                # [MAX_HEROES, MAX_AB] tiers of each ability
D_LVR = D_TN + MAX_HEROES * MAX_AB                                # [MAX_HEROES, MAX_AB, 8] tiers of each level (tier_list)
D_PLAN = D_LVR + MAX_HEROES * MAX_AB * 8                          # [MAX_HEROES, MAX_AB, MAX_TIERS, 4] what plan_tier reads of a tier
D_BONUS = D_PLAN + MAX_HEROES * MAX_AB * MAX_TIERS * 4            # [MAX_HEROES, MAX_AB, MAX_TIERS, 6] a bonus die's value by face
D_DEF = D_BONUS + MAX_HEROES * MAX_AB * MAX_TIERS * 6             # [MAX_HEROES, MAX_DEF, MAX_TIERS levels, 2] most, mean
                                                         # damage a defence deals back (counter_of)
D_USE = D_DEF + MAX_HEROES * MAX_DEF * MAX_TIERS * 2              # [8] what greedy's counter_risk reads of the tokens (DU_*)
D_BDEF = D_USE + 8                                       # [MAX_HEROES, MAX_DEF, MAX_TIERS levels, 6] a defence die's value by face
D_BCARD = D_BDEF + MAX_HEROES * MAX_DEF * MAX_TIERS * 6           # [MAX_CARDS, 6] a card's bonus die's value by face
D_SPEND = D_BCARD + MAX_CARDS * 6                        # [MAX_SPEND] what greedy does with each spend entry (SPC_*)
CH_N, CH_W = 32, 1 + MAX_ALT                             # choose rows valued, floats a row
D_CHOOSE = D_SPEND + MAX_SPEND                           # [CH_N, CH_W] a choose's effect row (-1 none),
                                                         # then each alternative's value (choose_values)
D_LEN = D_CHOOSE + CH_N * CH_W
# a spend entry's class (D_SPEND): an attack window's (spent when offered, as before step 4b);
# never spent (a die operation: Seedling's reroll); spent when offered (a main-phase entry:
# Wellspring; an `any` entry that removes a status: Cleanse); spent in main phase 2 (other
# `any` entries: Sapling's heal and CP); spent when the hand holds fewer than 3 cards (an
# entry that draws: Sapling's draw)
SPC_ATTACK, SPC_NEVER, SPC_NOW, SPC_MAIN2, SPC_DRAW = range(5)
# D_USE's slots, read from the tokens' data (plan step 5: the branch tokens Accuracy and
# Retribution became spend entries): the Stun token (-1 none); the tokens whose attack_end
# entry makes the attack undefendable (bit per token: Accuracy); the first token whose
# after_attacked entry deals damage of = "taken" back (-1 none: Retribution), and that
# damage's n, per, half (0 none, 1 up, 2 down) and cap (-1 none)
DU_STUN, DU_UNDEF, DU_RET, DU_RET_N, DU_RET_PER, DU_RET_HALF, DU_RET_CAP = range(7)
T_KIND = 11          # a tier's attack kind (-1: it deals the opponent no damage: never defended)
Q_VALUE, Q_KIND, Q_NEED, Q_LEVEL = range(4)              # D_PLAN: value, target kind, needs packed, level
F_UPGRADE, F_DIE, F_REMOVE, F_PREVENT, F_ADD, F_AFTER = 1, 2, 4, 8, 16, 32
F_DEALT = 256        # a card's flags + F_DEALT * the most damage its if_dealt conditions ask


def _face_values(e, face_sym) -> np.ndarray:
    """What a die of roll effect ``e`` is worth by the face it shows (its outcome's value)."""
    out = np.zeros(6)
    for f in range(6):
        key = outcome_key(e, face_sym, f)
        out[f] = sum(_effect_value(x) for x in e.on.get(key, []))
    return out


def bonus_values(content, heroes=None) -> np.ndarray:
    """``[hero, ability, tier, face]``: what a bonus die showing that face is worth, for the
    tiers with a roll the attacker may reroll (``may_reroll``: the last effect, e.g. Pyroblast
    III, or a roll of the pre-defence part, e.g. Death Blossom II); 0 elsewhere. Valued as the
    tiers are (``model._effect_value``: damage 1 a point, a token or status 1, ...), so that
    greedy weighs a bonus die as it weighs the abilities."""
    heroes = list(content.heroes) if heroes is None else heroes    # the tables' order
    v = np.zeros((MAX_HEROES, MAX_AB, MAX_TIERS, 6), np.float64)   # a matchup's heroes (a mirror's: one)
    for h, hid in enumerate(heroes):
        hero = content.heroes[hid]
        for a, ab in enumerate(hero.abilities):
            for t, tier in enumerate(ab.tiers):
                for e in tier.effects:
                    if e.op == OP_ROLL and e.arg > 0:
                        v[h, a, t] = _face_values(e, hero.face_sym)
                        break
    return v


def defence_die_values(content, heroes=None) -> np.ndarray:
    """``[hero, defence, level, face]``: what a defence die showing that face is worth to the
    defender, for the defences it may reroll (``may_reroll``; Shade Shift): each effect's value
    per die showing a symbol it counts (``per``/``of``), and an ``if_roll`` effect's value
    shared over the dice it needs, on the faces of the symbols it needs."""
    from dataclasses import replace

    heroes = list(content.heroes) if heroes is None else heroes
    v = np.zeros((MAX_HEROES, MAX_DEF, MAX_TIERS, 6), np.float64)
    for h, hid in enumerate(heroes):
        hero = content.heroes[hid]
        fs = np.asarray(hero.face_sym)
        for k, df in enumerate(hero.defences):
            for lv, tier in enumerate(sorted(df.tiers, key=lambda x: x.level)):
                if (tier.may_reroll if tier.may_reroll >= 0 else df.may_reroll) <= 0:
                    continue
                for e in tier.effects:
                    if OF_SYMBOL <= e.of < OF_SPENT and e.per:
                        v[h, k, lv] += (fs == e.of - OF_SYMBOL) * _effect_value(replace(e, n=e.per, per=0, of=OF_NONE))
                    if e.if_roll:
                        need = [(s, (e.if_roll >> (3 * s)) & 7) for s in range(6)]
                        total = sum(c for _, c in need)
                        for s, c in need:
                            if c:
                                v[h, k, lv] += (fs == s) * _effect_value(e) * c / total
    return v


def card_die_values(content, heroes=None) -> np.ndarray:
    """``[card, face]``: what a bonus die of a card's roll its player may reroll (Throwing
    Stars!) is worth by face (the card's owner's faces; a generic card's roll is by number)."""
    v = np.zeros((MAX_CARDS, 6), np.float64)
    for c, card in enumerate(content.cards):
        e = card.effects[-1] if card.effects else None
        if e is None or e.op != OP_ROLL or e.arg <= 0:
            continue
        fs = content.heroes[card.owner].face_sym if card.owner in content.heroes else list(range(6))
        v[c] = _face_values(e, fs)
    return v


def choose_values(content, value) -> np.ndarray:
    """``[CH_N, CH_W]``: per ``choose`` of the content (its effect row, ``Content.choose_rows``,
    which ``model.build_tables`` fills), the row and then ``value(alternative)`` of each of its
    alternatives; rows -1 past the last (a content holds a handful: the Monk 4, the Ninja 1)."""
    out = np.zeros((CH_N, CH_W), np.float64)
    out[:, 0] = -1
    for i, (row, e) in enumerate(sorted(content.choose_rows.items())[:CH_N]):
        out[i, 0] = row
        for k, alt in enumerate(e.alts):
            out[i, 1 + k] = value(alt)
    return out


@nb.njit(_nrt=False, **_JIT)
def choose_pick(obs, n_moves, data, off):
    """PH_CHOOSE: the alternative of highest value in the table at ``data[off:]``
    (``choose_values``) for the oldest pending choose (``O_CHOOSE``); the first of equal
    values, and the first alternative for a choose the table lacks."""
    row = obs[O_CHOOSE]
    for i in range(CH_N):
        o = off + i * CH_W
        if data[o] == row:
            bk = 0
            for k in range(1, n_moves):
                if data[o + 1 + k] > data[o + 1 + bk]:
                    bk = k
            return bk
    return 0


def counter_of(T, h, k, lv) -> tuple:
    """(most, mean) damage defence ``k`` of hero ``h`` at level index ``lv`` deals back to the
    attacker: its unconditional damage rows to the opponent, fixed amounts plus ``per`` a die
    showing the counted symbol, over its dice (most: every die on the best face); rows with a
    condition (if_roll, or one of Season One's) are left out."""
    nd = int(T.def_dice[h, k, lv])
    fixed = 0.0
    per_face = np.zeros(6)
    for row in range(int(T.def_start[h, k, lv]), int(T.def_start[h, k, lv] + T.def_len[h, k, lv])):
        e = T.eff[row]
        if e[C_OP] != OP_DAMAGE or e[C_TARGET] == T_SELF or e[C_IF] != 0 or e[C_COND] != 0:
            continue
        fixed += e[C_N]
        if OF_SYMBOL <= e[C_OF] < OF_SPENT:
            per_face += e[C_PER] * (T.face_sym[h] == e[C_OF] - OF_SYMBOL)
    return fixed + nd * per_face.max(), fixed + nd * per_face.mean()


def strategy_data(T, content=None) -> np.ndarray:
    """The float64 summary laid out as ``D_*`` above; ``content`` (the heroes' files) gives
    the bonus dice's values (``bonus_values``; all 0 without it)."""
    d = np.zeros(D_LEN, np.float64)
    d[D_CHOOSE:D_LEN:CH_W] = -1
    if content is not None:
        d[D_BONUS:D_DEF] = bonus_values(content).ravel()
        d[D_BDEF:D_BCARD] = defence_die_values(content).ravel()
        d[D_BCARD:D_SPEND] = card_die_values(content).ravel()
        d[D_CHOOSE:D_LEN] = choose_values(content, lambda alt: sum(_effect_value(x) for x in alt)).ravel()
    for h in range(T.face_sym.shape[0]):
        d[D_FACES + h * 6:D_FACES + h * 6 + 6] = T.face_sym[h]
        for a in range(T.n_ab[h]):
            for t in range(T.tier_n[h, a]):
                o = D_TIERS + ((h * MAX_AB + a) * MAX_TIERS + t) * TIER_F
                d[o] = T.tier_value[h, a, t]
                d[o + 1] = T.tier_level[h, a, t]
                k = T.t_kinds[h, a, t, 0]
                d[o + 2] = k
                d[o + 3:o + 9] = T.t_need[h, a, t, 0, :6]
                d[o + TIER_NEED] = sum(int(T.t_need[h, a, t, 0, s]) << (4 * s) for s in range(6))
                q = D_PLAN + ((h * MAX_AB + a) * MAX_TIERS + t) * 4
                d[q + Q_VALUE], d[q + Q_KIND], d[q + Q_NEED], d[q + Q_LEVEL] = d[o], d[o + 2], d[o + TIER_NEED], d[o + 1]
    for c in range(T.card.shape[0]):
        f = 0
        for row in range(T.card[c, 4], T.card[c, 4] + T.card[c, 5]):
            op = T.eff[row, C_OP]
            if op == OP_UPGRADE:
                f |= F_UPGRADE
            if op in (OP_SET_DIE, OP_MOVE_DIE, OP_REROLL):
                f |= F_DIE
            if op == OP_REMOVE:
                f |= F_REMOVE
            if op == OP_PREVENT:
                f |= F_PREVENT
            if op == OP_ADD_DAMAGE:
                f |= F_ADD
        if T.card[c, 3] == CW_AFTER:
            f |= F_AFTER
            dealt = [int(T.eff[r, C_CARG]) for r in range(T.card[c, 4], T.card[c, 4] + T.card[c, 5])
                     if T.eff[r, C_COND] == COND_DEALT]
            f += F_DEALT * max(dealt, default=0)
        d[D_CARDS + 2 * c] = f
    for t in range(T.n_tok):
        d[D_NEG + t] = 1.0 if T.tok[t, 0] == TK_NEG else 0.0
    d[D_USE:D_USE + 8] = token_uses(T)
    for e in range(min(T.sp.shape[0], MAX_SPEND)):
        d[D_SPEND + e] = spend_class(T, e)
    for h in range(T.face_sym.shape[0]):
        for k in range(int(T.def_n[h])):
            for lv in range(T.def_dice.shape[2]):
                o = D_DEF + ((h * MAX_DEF + k) * MAX_TIERS + lv) * 2
                d[o], d[o + 1] = counter_of(T, h, k, lv)
        for a in range(T.n_ab[h]):
            for t in range(T.tier_n[h, a]):
                d[D_TIERS + ((h * MAX_AB + a) * MAX_TIERS + t) * TIER_F + T_KIND] = T.tier_kind[h, a, t]
    for h in range(T.face_sym.shape[0]):
        d[D_TN + h * MAX_AB:D_TN + h * MAX_AB + T.n_ab[h]] = T.tier_n[h, :T.n_ab[h]]
        for a in range(T.n_ab[h]):
            n = int(T.tier_n[h, a])
            o = D_LVR + (h * MAX_AB + a) * 8
            for lvl in range(1, 7):   # the tiers of exactly that level, in tier order
                d[o + lvl] = tier_list([t for t in range(n) if T.tier_level[h, a, t] == lvl])
            d[o + 7] = tier_list(range(n))   # level 7 or more: every tier (plan_tier checks the level)
    return d


def token_uses(T) -> np.ndarray:
    """The ``D_USE`` block (``DU_*``) of tables ``T``."""
    out = np.array([T.use_tok[U_STUN], 0, -1, 0, 0, 0, -1, 0], np.float64)
    for e in range(T.sp.shape[0]):
        when, t = int(T.sp[e, SP_WHEN]), int(T.sp[e, SP_TOK])
        for r in range(int(T.sp[e, SP_START]), int(T.sp[e, SP_START] + T.sp[e, SP_LEN])):
            x = T.eff[r]
            if when == W_ATTACK_END and x[C_OP] == OP_UNDEFENDABLE:
                out[DU_UNDEF] = int(out[DU_UNDEF]) | (1 << t)
            if (when == W_AFTER and x[C_OP] == OP_DAMAGE and x[C_TARGET] != T_SELF and x[C_OF] == OF_TAKEN
                    and out[DU_RET] < 0):
                out[DU_RET:DU_RET_CAP + 1] = (t, x[C_N], x[C_PER], x[C_HALF], x[C_CAP])
    return out


def spend_class(T, e) -> int:
    """What greedy does with spend entry ``e`` (``SPC_*``), from its moment and its effects: an
    entry of a window of its own (an attack's, or roll_phase_start's: Knockdown's payment) is
    spent when offered."""
    when = int(T.sp[e, SP_WHEN])
    if when < N_ATTACK_WINDOWS or when == W_ROLL_START:
        return SPC_ATTACK
    ops = [int(T.eff[r, C_OP]) for r in range(int(T.sp[e, SP_START]), int(T.sp[e, SP_START] + T.sp[e, SP_LEN]))]
    if any(op in DIE_OPS for op in ops):
        return SPC_NEVER
    if when == W_MAIN or OP_REMOVE in ops:
        return SPC_NOW
    if OP_DRAW in ops:
        return SPC_DRAW
    return SPC_MAIN2


@nb.njit(_nrt=False, **_JIT)
def spend_pick(obs, moves, n_moves, data, b):
    """The first spend move of a holder's own-turn entry (main, own_roll, any) greedy wants
    now (``D_SPEND``), or -1."""
    for k in range(n_moves):
        x = moves[k] - MV_SPEND
        if x < 1 or x >= 16 * MAX_SPEND:
            continue
        c = int(data[D_SPEND + x // 16])
        if (c == SPC_NOW or (c == SPC_MAIN2 and obs[O_STEP] == ST_MAIN2)
                or (c == SPC_DRAW and obs[b + P_HAND_N] < 3)):
            return k
    return -1


def tier_list(tiers) -> float:
    """A list of at most MAX_TIERS tiers as one number: the count, then each tier, 4 bits
    each (10 tiers: 44 bits, exact in a float64)."""
    tiers = list(tiers)
    return float(len(tiers) + sum(t << (4 + 4 * j) for j, t in enumerate(tiers)))


def _low_bits() -> np.ndarray:
    """[mask * 8 + k]: the lowest ``k`` dice of the 5-bit dice ``mask`` (bits 0-4), and how
    many those are (bits 8+): the dice a tier keeps of one symbol, the first dice showing it."""
    t = np.zeros(32 * 8, np.int64)
    for m in range(32):
        for k in range(8):
            dice = [i for i in range(5) if (m >> i) & 1][:k]
            t[m * 8 + k] = sum(1 << i for i in dice) | (len(dice) << 8)
    return t


LOW_BITS = _low_bits()


# reads the move count only, never obs: a game whose seats all play it gets no observation
# copied (strategies.dicethrone.bind.chunk_nb, kernel.OBS_NONE)
@nb.njit(_nrt=False, **_JIT)
def random_decide(phase, obs, moves, n_moves, rules, data, rng):
    return below_nb(rng, n_moves)


@nb.njit(**_JIT)
def card_flags(obs, p, h, data):
    c = obs[O_SEATS + p * P_LEN + P_HAND + h]
    return int(data[D_CARDS + 2 * c])


@nb.njit(**_JIT)
def hit_chance(p_face, left):
    """Chance that one die shows a wanted face within ``left`` rolls."""
    miss = 1.0
    for _ in range(left):
        miss *= 1.0 - p_face
    return 1.0 - miss


@nb.njit(inline="always", **_JIT)
def straight_keep(first, length):
    """(most faces of a ``length``-long run of faces shown, the dice showing them): the
    first such window, each face kept on the first die showing it (``first``)."""
    bestw = -1
    keep = 0
    for lo in range(7 - length):
        cnt = 0
        km = 0
        for v in range(lo, lo + length):
            i = (first >> (4 * v)) & 15
            if i != 15:
                km |= 1 << i
                cnt += 1
        if cnt > bestw:
            bestw = cnt
            keep = km
    return bestw, keep


@nb.njit(**_JIT)
def plan_tier(obs, data, p, left):
    """(best score, keep mask, made) over the tiers of seat p's current levels.

    The answers of the straightforward scan (each tier of the level in order, a symbol
    tier keeping the first dice showing each needed symbol, its chance the product of one
    ``hit_chance`` per missing die in symbol order; the first best score wins), computed
    with few data-dependent branches (they were most of its time): the tiers of exactly
    each level are listed once per content (``strategy_data``, slot ``D_LVR``), and what
    the scan reads of a tier is 4 numbers side by side (``D_PLAN``: the tiers of an ability
    share a cache line or two, not two lines a tier in ``D_TIERS``); the dice
    showing each symbol are one mask, and the dice a tier keeps of a symbol are looked up
    (``LOW_BITS``); the chance multiplies the same numbers in the same order, with a factor
    1.0 (exact) for each needed die already shown; the straights' chances once per call."""
    b = O_SEATS + p * P_LEN
    h = obs[b + P_HERO]
    fo = D_FACES + h * 6
    nfs = 0                       # faces per symbol, 4 bits a symbol
    for f in range(6):
        nfs += 1 << (4 * int(data[fo + f]))
    msk = 0                       # bit 8 * s + i: die i shows symbol s
    # straights: the first die showing each face (4 bits a face, 15: none); a window of
    # faces keeps, for each face in it, that die (the dice the loop over dice picked)
    first = (1 << 24) - 1
    for i in range(5):
        f = obs[O_ADICE + i]
        msk |= 1 << (8 * int(data[fo + f]) + i)
        sh = 4 * f
        if ((first >> sh) & 15) == 15:
            first ^= (15 ^ i) << sh
    cv = (hit_chance((nfs & 15) / 6.0, left), hit_chance(((nfs >> 4) & 15) / 6.0, left),   # each symbol's
          hit_chance(((nfs >> 8) & 15) / 6.0, left), hit_chance(((nfs >> 12) & 15) / 6.0, left),  # chance within
          hit_chance(((nfs >> 16) & 15) / 6.0, left), hit_chance(((nfs >> 20) & 15) / 6.0, left))  # ``left`` rolls
    cs = hit_chance(1.0 / 6.0, left) * 0.8
    best4, keep4 = straight_keep(first, 4)
    best5, keep5 = straight_keep(first, 5)
    ch4 = 1.0
    for j in range(4):
        ch4 *= cs if j < 4 - best4 else 1.0
    ch5 = 1.0
    for j in range(5):
        ch5 *= cs if j < 5 - best5 else 1.0
    best = -1.0
    best_keep = 31
    best_made = True
    for a in range(MAX_AB):
        lvl = obs[b + P_LVL + a]
        if lvl == 0:
            continue
        r = int(data[D_LVR + (h * MAX_AB + a) * 8 + min(lvl, 7)])   # the tiers of that level
        for j in range(r & 15):
            t = (r >> (4 + 4 * j)) & 15
            o = D_PLAN + ((h * MAX_AB + a) * MAX_TIERS + t) * 4
            if lvl >= 7 and data[o + Q_LEVEL] != lvl:
                continue
            kind = int(data[o + Q_KIND])
            if kind == 0:
                need = int(data[o + Q_NEED])
                keep = 0
                missing = 0
                chance = 1.0
                for s in range(6):
                    ns = (need >> (4 * s)) & 15
                    if ns == 0:
                        continue
                    e = LOW_BITS[((msk >> (8 * s)) & 31) * 8 + ns]
                    keep |= e & 31
                    miss = ns - (e >> 8)
                    missing += miss
                    c = cv[s]
                    for k in range(ns):
                        chance *= c if k < miss else 1.0
            elif kind == 1:
                keep = keep4
                missing = 4 - best4
                chance = ch4
            elif kind == 2:
                keep = keep5
                missing = 5 - best5
                chance = ch5
            else:
                continue
            score = data[o + Q_VALUE] * chance
            better = score > best and (missing == 0 or left > 0)
            best = score if better else best
            best_keep = keep if better else best_keep
            best_made = (missing == 0) if better else best_made
    return best, best_keep, best_made


@nb.njit(**_JIT)
def find(moves, n_moves, mv):
    for k in range(n_moves):
        if moves[k] == mv:
            return k
    return -1


@nb.njit(**_JIT)
def counter_risk(obs, p, data, kind, value, q=-1):
    """(most, mean) damage seat ``p``'s attack of ``kind`` and ``value`` on seat ``q`` (-1:
    the attack's target, ``O_TARGET``; 1v1: the other seat) may bring back to it:
    the opponent's defence (the worst of its defences at their levels) when the opponent
    will defend (seat ``p`` holds no token that makes the attack undefendable: Accuracy; the
    opponent is not stunned), plus what the opponent's after_attacked token deals back,
    taking ``value`` as the damage taken (Retribution: half the value, rounded up)."""
    b = O_SEATS + p * P_LEN
    bo = O_SEATS + (obs[O_TARGET] if q < 0 else q) * P_LEN
    most = 0.0
    mean = 0.0
    undef = int(data[D_USE + DU_UNDEF])     # bit t: token t makes the attack undefendable
    acc = False
    t = 0
    while undef != 0:
        if (undef & 1) != 0 and obs[b + P_TOK + t] > 0:
            acc = True
        undef >>= 1
        t += 1
    stun = int(data[D_USE + DU_STUN])
    if (kind == K_NORMAL and not acc
            and not (stun >= 0 and obs[bo + P_TOK + stun] > 0)):
        ho = obs[bo + P_HERO]
        for k in range(MAX_DEF):
            lv = obs[bo + P_DLVL + k] - 1
            if lv < 0 or lv >= MAX_TIERS:
                continue
            o = D_DEF + ((ho * MAX_DEF + k) * MAX_TIERS + lv) * 2
            most = max(most, data[o])
            mean = max(mean, data[o + 1])
    ret = int(data[D_USE + DU_RET])
    if kind >= 0 and ret >= 0 and obs[bo + P_TOK + ret] > 0:
        back = data[D_USE + DU_RET_N] + data[D_USE + DU_RET_PER] * value
        h = int(data[D_USE + DU_RET_HALF])
        if h == 1:
            back = float(np.ceil(back / 2.0))
        elif h == 2:
            back = float(np.floor(back / 2.0))
        cap = data[D_USE + DU_RET_CAP]
        if cap >= 0 and back > cap:
            back = cap
        most += back
        mean += back
    return most, mean


@nb.njit(**_JIT)
def greedy_skips(obs, p, data, kind, value):
    """greedy's rule for leaving an ability unused (module docstring)."""
    most, mean = counter_risk(obs, p, data, kind, value)
    b = O_SEATS + p * P_LEN
    bo = O_SEATS + obs[O_TARGET] * P_LEN    # the attack's target (1v1: the other seat)
    return most > 0 and obs[b + P_HP] <= most and value < obs[bo + P_HP]


@nb.njit(_nrt=False, **_JIT)
def greedy_decide(phase, obs, moves, n_moves, rules, data, rng):
    p = obs[O_CUR]
    b = O_SEATS + p * P_LEN
    if phase == PH_TOKEN and n_moves > 1 and obs[O_STEP] == ST_COLLWIN:
        # the collateral window: the first entry, as many tokens as the collateral still to take
        due = coll_due_nb(obs, p, rules)
        k = 1
        while (k + 1 < n_moves and (moves[k + 1] - MV_SPEND) // 16 == (moves[1] - MV_SPEND) // 16
               and (moves[k + 1] - MV_SPEND) % 16 <= due):
            k += 1
        return k
    if phase == PH_TOKEN and n_moves > 1 and moves[1] >= MV_SPEND and moves[1] < MV_SPEND + 512:
        if data[D_SPEND + (moves[1] - MV_SPEND) // 16] != SPC_ATTACK:   # the upkeep's `any` window
            k = spend_pick(obs, moves, n_moves, data, b)
            return k if k >= 0 else 0
        # a spend window: the first entry offered, as many tokens as it may spend at once
        k = 1
        while k + 1 < n_moves and (moves[k + 1] - MV_SPEND) // 16 == (moves[1] - MV_SPEND) // 16:
            k += 1
        return k
    if phase == PH_TOKEN:
        return 1 if n_moves > 1 else 0
    if phase == PH_ABILITY:
        h = obs[b + P_HERO]
        best = -1.0e9
        bk = 0
        kind = -1
        for k in range(n_moves):
            x = moves[k] - MV_ABILITY
            if x < 0:       # pass (rule may_skip_ability): decided below
                continue
            o = D_TIERS + ((h * MAX_AB + x // 16) * MAX_TIERS + x % 16) * TIER_F
            if data[o] > best:
                best = data[o]
                bk = k
                kind = int(data[o + T_KIND])
        if moves[0] == MV_PASS and greedy_skips(obs, p, data, kind, best):
            return 0
        return bk
    if phase == PH_MAIN or phase == PH_ROLL or phase == PH_WINDOW:
        k = spend_pick(obs, moves, n_moves, data, b)     # an own-turn spend it wants now
        if k >= 0:
            return k
    if phase == PH_ROLL:
        left = obs[O_MAX_ATT] - obs[O_ATTEMPTS]
        if left <= 0:     # no attempt left: pass (plan_tier draws nothing: no need to ask it)
            return 0
        score, keep, made = plan_tier(obs, data, p, left)
        if made or left <= 0 or keep == 31:
            return 0
        if 1 + keep < n_moves and moves[1 + keep] == MV_REROLL + keep:
            return 1 + keep       # where the roll's moves list it (after pass): as find would
        k = find(moves, n_moves, MV_REROLL + keep)
        return k if k >= 0 else 0
    if phase == PH_MAIN:
        neg = 0
        for t in range(MAX_TOKENS):
            if data[D_NEG + t] > 0 and obs[b + P_TOK + t] > 0:
                neg += 1
        pick = -1
        for k in range(n_moves):
            mv = moves[k]
            if mv >= MV_PLAY and mv < MV_SELL:
                f = card_flags(obs, p, mv - MV_PLAY, data)
                if f & F_UPGRADE:
                    return k
                if f & F_REMOVE and neg == 0:
                    continue
                if pick < 0:
                    pick = k
        if pick >= 0:
            return pick
        return 0
    if phase == PH_WINDOW and obs[O_STEP] == ST_POSTWIN:
        # after the damage (Head Bash!): the first card whose if_dealt the attack met
        for k in range(n_moves):
            mv = moves[k]
            if mv >= MV_PLAY and mv < MV_SELL and card_flags(obs, p, mv - MV_PLAY, data) // F_DEALT <= obs[O_TAKEN]:
                return k
        return 0
    if phase == PH_WINDOW:
        for k in range(n_moves):
            mv = moves[k]
            if mv >= MV_PLAY and mv < MV_SELL:
                f = card_flags(obs, p, mv - MV_PLAY, data)
                if f & (F_ADD | F_PREVENT):
                    return k
        return 0
    if phase == PH_DISCARD:
        return n_moves - 1
    if phase == PH_BONUS:
        return bonus_reroll(obs, moves, n_moves, data, b)
    if phase == PH_BUY:
        return n_moves - 1      # the most it may buy (moves: pass, then 1, 2, ... tokens)
    if phase == PH_CHOOSE:
        return choose_pick(obs, n_moves, data, D_CHOOSE)
    if phase == PH_TARGET:
        return target_pick(obs, moves, n_moves, data)
    return 0


@nb.njit(**_JIT)
def target_pick(obs, moves, n_moves, data):
    """greedy's target rule (``PH_TARGET``, moves ``MV_TARGET + seat``; modes/DESIGN.md 2.9).
    The attacker: an opponent the chosen tier's value can knock out (health <= value) first,
    then the lowest health, then the one whose defence deals back the least (``counter_risk``'s
    mean against this tier: a stunned opponent does not defend), then the first listed (its
    left). A defender picking for its team (their_pick): the member whose defence deals back
    the most, the first listed on a tie. A chosen player's gain ("a chosen player gains X",
    queued in ``O_CHOOSE``): ``chosen_pick``."""
    if obs[O_CHOOSE_N] > 0:
        return chosen_pick(obs, moves, n_moves, data)
    p = obs[O_CUR]
    a = obs[O_ACTIVE]
    h = obs[O_SEATS + a * P_LEN + P_HERO]
    o = D_TIERS + ((h * MAX_AB + obs[O_AB]) * MAX_TIERS + obs[O_TIER]) * TIER_F
    value = data[o]
    kind = int(data[o + T_KIND])
    best = 0
    bs = 1.0e18
    for k in range(n_moves):
        q = moves[k] - MV_TARGET
        mean = counter_risk(obs, a, data, kind, value, q)[1]
        if p == a:
            hp = obs[O_SEATS + q * P_LEN + P_HP]
            s = (0.0 if hp <= value else 1.0e6) + hp * 1.0e3 + mean
        else:
            s = -mean
        if s < bs:
            bs = s
            best = k
    return best


@nb.njit(_nrt=False, **_JIT)
def chosen_pick(obs, moves, n_moves, data):
    """greedy's rule for "a chosen player gains X" (Retribution, Evasive, Smoke Bomb,
    Wellspring: tokens that pay off when their holder is attacked; modes/DESIGN.md 2.9): the
    team member with the weakest defence (the lowest mean its defences deal back and prevent
    at their levels, ``D_DEF``), who gains most from being covered; the first listed (the
    picker itself, then its teammates in seat order) on a tie."""
    best = 0
    bs = 1.0e18
    for k in range(n_moves):
        bq = O_SEATS + (moves[k] - MV_TARGET) * P_LEN
        ho = obs[bq + P_HERO]
        strength = 0.0
        for d in range(MAX_DEF):
            lv = obs[bq + P_DLVL + d] - 1
            if lv < 0 or lv >= MAX_TIERS:
                continue
            strength = max(strength, data[D_DEF + ((ho * MAX_DEF + d) * MAX_TIERS + lv) * 2 + 1])
        if strength < bs:
            bs = strength
            best = k
    return best


@nb.njit(_nrt=False, **_JIT)
def bonus_reroll(obs, moves, n_moves, data, b):
    """The waiting dice (``O_BONUS_N`` of them) its roller may reroll (``PH_BONUS``): a tier's
    or a pre-defence roll's bonus dice (``O_BDICE``; face values ``D_BONUS``), a card's roll
    (``D_BCARD``) or the defence dice (``O_DDICE``; ``D_BDEF``, by ``O_BONUS_SRC``): the move
    (pass, or reroll the dice of mask ``m``: ``MV_DIE + m``) with the largest expected gain, a
    die's gain being the mean value of a fresh die less the value of the face it shows; pass
    when no reroll gains. The first of equal gains."""
    src = obs[O_BONUS_SRC]
    doff = O_BDICE
    if src == BS_DEF:
        doff = O_DDICE
        k = obs[O_DEF]
        o = D_BDEF + ((obs[b + P_HERO] * MAX_DEF + k) * MAX_TIERS + obs[b + P_DLVL + k] - 1) * 6
    elif src == BS_CARD:
        o = D_BCARD + obs[O_BONUS_ROW] * 6
    else:
        o = D_BONUS + ((obs[b + P_HERO] * MAX_AB + obs[O_AB]) * MAX_TIERS + obs[O_TIER]) * 6
    mean = 0.0
    for f in range(6):
        mean += data[o + f]
    mean /= 6.0
    best = 1.0e-9
    bk = 0
    for k in range(n_moves):
        m = moves[k] - MV_DIE
        if moves[k] == MV_PASS or m <= 0:
            continue
        gain = 0.0
        for i in range(obs[O_BONUS_N]):
            if (m >> i) & 1:
                gain += mean - data[o + obs[doff + i]]
        if gain > best:
            best = gain
            bk = k
    return bk
