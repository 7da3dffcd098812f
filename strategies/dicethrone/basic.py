"""Dice Throne ``random`` and ``greedy`` strategies (numba; information-fair: they read
only the observation ``obs`` and the content summary ``data``).

Interface: ``decide(phase, obs, moves, n_moves, rules, data, rng) -> index into moves``.
``data`` is ``strategy_data(tables, content)``: a float64 summary of the content the
strategies may know (ability tiers' values, levels and dice targets; faces' symbols; card
kinds; what a bonus die the attacker may reroll is worth by face), laid out as below.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.dicethrone.model import (C_OP, HERO_NAMES, MAX_AB, MAX_TIERS, MV_ABILITY, MV_DIE, MV_PASS, MV_PLAY,
                                      MV_REROLL, MV_SELL, O_AB, O_ADICE, O_ATTEMPTS, O_BDICE, O_BONUS_N, O_CUR,
                                      O_MAX_ATT, O_SEATS, O_TIER, OP_ADD_DAMAGE, OP_MOVE_DIE, OP_PREVENT,
                                      OP_REMOVE, OP_REROLL, OP_ROLL, OP_SET_DIE, OP_UPGRADE, P_HAND, P_HERO, P_LEN,
                                      P_LVL, P_TOK, PH_ABILITY, PH_BONUS, PH_DISCARD, PH_KNOCK, PH_MAIN, PH_ROLL,
                                      PH_TOKEN, PH_WINDOW, ROLL_BY_FACE, _effect_value)
from simcore.rng import below_nb

_JIT = dict(cache=True, nogil=True, error_model="numpy")
TIER_F = 12          # floats per tier: value, level, target kind, need[6], straight length, need packed
TIER_NEED = 10       # the needed symbols packed 4 bits a symbol (plan_tier)
D_TIERS = 16
D_FACES = D_TIERS + 2 * MAX_AB * MAX_TIERS * TIER_F     # [2, 6] symbol of each face
D_CARDS = D_FACES + 12                                   # [64, 2] flags, negative-token count
D_NEG = D_CARDS + 128                                    # [12] 1 if the token is negative
D_TN = D_NEG + 12                                        # [2, MAX_AB] tiers of each ability
D_LVR = D_TN + 2 * MAX_AB                                # [2, MAX_AB, 8] tiers of each level: lo + 16 * hi
D_BONUS = D_LVR + 2 * MAX_AB * 8                         # [2, MAX_AB, MAX_TIERS, 6] a bonus die's value by face
D_LEN = D_BONUS + 2 * MAX_AB * MAX_TIERS * 6
F_UPGRADE, F_DIE, F_REMOVE, F_PREVENT, F_ADD = 1, 2, 4, 8, 16


def bonus_values(content, heroes=HERO_NAMES) -> np.ndarray:
    """``[hero, ability, tier, face]``: what a bonus die showing that face is worth, for the
    tiers that end in a roll the attacker may reroll (``may_reroll``, e.g. Pyroblast III);
    0 elsewhere. Valued as the tiers are (``model._effect_value``: damage 1 a point, a token
    or status 1, ...), so that greedy weighs a bonus die as it weighs the abilities."""
    v = np.zeros((len(heroes), MAX_AB, MAX_TIERS, 6), np.float64)
    for h, hid in enumerate(heroes):
        hero = content.heroes[hid]
        for a, ab in enumerate(hero.abilities):
            for t, tier in enumerate(ab.tiers):
                e = tier.effects[-1] if tier.effects else None
                if e is None or e.op != OP_ROLL or e.arg <= 0:
                    continue
                for f in range(6):
                    key = f if e.level == ROLL_BY_FACE else int(hero.face_sym[f])
                    v[h, a, t, f] = sum(_effect_value(x) for x in e.on.get(key, []))
    return v


def strategy_data(T, content=None) -> np.ndarray:
    """The float64 summary laid out as ``D_*`` above; ``content`` (the heroes' files) gives
    the bonus dice's values (``bonus_values``; all 0 without it)."""
    d = np.zeros(D_LEN, np.float64)
    if content is not None:
        d[D_BONUS:D_LEN] = bonus_values(content).ravel()
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
        d[D_CARDS + 2 * c] = f
    for t in range(T.n_tok):
        d[D_NEG + t] = T.tok[t, 0]
    for h in range(T.face_sym.shape[0]):
        d[D_TN + h * MAX_AB:D_TN + h * MAX_AB + T.n_ab[h]] = T.tier_n[h, :T.n_ab[h]]
        for a in range(T.n_ab[h]):
            n = int(T.tier_n[h, a])
            o = D_LVR + (h * MAX_AB + a) * 8
            for lvl in range(1, 7):   # the tiers of a level (plan_tier still checks each tier's level)
                ts = [t for t in range(n) if T.tier_level[h, a, t] == lvl]
                d[o + lvl] = ts[0] + 16 * (ts[-1] + 1) if ts else 0
            d[o + 7] = 16 * n         # level 7 or more: every tier
    return d


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

    Counts per symbol are packed 4 bits a symbol in one integer (no array to allocate at
    every roll decision), and so are each tier's needed symbols (``strategy_data``: slot
    ``TIER_NEED``) and the dice's symbols; the chance that one die hits a symbol within
    ``left`` rolls is computed once per symbol, and multiplied in once per missing die, in
    symbol order: the same products in the same order as one ``hit_chance`` per missing
    symbol, so the same answers."""
    b = O_SEATS + p * P_LEN
    h = obs[b + P_HERO]
    fo = D_FACES + h * 6
    best = -1.0
    best_keep = 31
    best_made = True
    nfs = 0                       # faces per symbol, 4 bits a symbol
    for f in range(6):
        nfs += 1 << (4 * int(data[fo + f]))
    dsym = 0                      # 4 * the symbol of each die, 8 bits a die
    for i in range(5):
        dsym |= (4 * int(data[fo + obs[O_ADICE + i]])) << (8 * i)
    c0 = hit_chance((nfs & 15) / 6.0, left)
    c1 = hit_chance(((nfs >> 4) & 15) / 6.0, left)
    c2 = hit_chance(((nfs >> 8) & 15) / 6.0, left)
    c3 = hit_chance(((nfs >> 12) & 15) / 6.0, left)
    c4 = hit_chance(((nfs >> 16) & 15) / 6.0, left)
    c5 = hit_chance(((nfs >> 20) & 15) / 6.0, left)
    cs = hit_chance(1.0 / 6.0, left) * 0.8
    # straights: the first die showing each face (4 bits a face, 15: none); a window of
    # faces keeps, for each face in it, that die (the dice the loop over dice picked)
    first = (1 << 24) - 1
    for i in range(5):
        sh = 4 * obs[O_ADICE + i]
        if ((first >> sh) & 15) == 15:
            first ^= (15 ^ i) << sh
    best4, keep4 = straight_keep(first, 4)
    best5, keep5 = straight_keep(first, 5)
    for a in range(MAX_AB):
        lvl = obs[b + P_LVL + a]
        if lvl == 0:
            continue
        r = int(data[D_LVR + (h * MAX_AB + a) * 8 + min(lvl, 7)])   # the tiers of that level
        for t in range(r & 15, r >> 4):
            o = D_TIERS + ((h * MAX_AB + a) * MAX_TIERS + t) * TIER_F
            if data[o + 1] != lvl:
                continue
            kind = int(data[o + 2])
            keep = 0
            missing = 0
            chance = 1.0
            if kind == 0:
                need = int(data[o + TIER_NEED])
                hv = 0            # dice kept per symbol, 4 bits a symbol
                for i in range(5):
                    sh = (dsym >> (8 * i)) & 255
                    if ((hv >> sh) & 15) < ((need >> sh) & 15):
                        hv += 1 << sh
                        keep |= 1 << i
                if hv != need:
                    for s in range(6):
                        m = ((need >> (4 * s)) & 15) - ((hv >> (4 * s)) & 15)
                        if m > 0:
                            c = c0 if s == 0 else c1 if s == 1 else c2 if s == 2 else c3 if s == 3 else c4 if s == 4 else c5
                            for _ in range(m):
                                chance *= c
                            missing += m
            elif kind == 1 or kind == 2:
                length = 4 if kind == 1 else 5
                bestw = best4 if kind == 1 else best5
                keep = keep4 if kind == 1 else keep5
                missing = length - bestw
                if missing > 0:
                    for _ in range(missing):
                        chance *= cs
            else:
                continue
            if missing > 0 and left == 0:
                continue
            score = data[o] * chance
            if score > best:
                best = score
                best_keep = keep
                best_made = missing == 0
    return best, best_keep, best_made


@nb.njit(**_JIT)
def find(moves, n_moves, mv):
    for k in range(n_moves):
        if moves[k] == mv:
            return k
    return -1


@nb.njit(_nrt=False, **_JIT)
def greedy_decide(phase, obs, moves, n_moves, rules, data, rng):
    p = obs[O_CUR]
    b = O_SEATS + p * P_LEN
    if phase == PH_TOKEN or phase == PH_KNOCK:
        return 1 if n_moves > 1 else 0
    if phase == PH_ABILITY:
        h = obs[b + P_HERO]
        best = -1.0e9
        bk = 0
        for k in range(n_moves):
            x = moves[k] - MV_ABILITY
            o = D_TIERS + ((h * MAX_AB + x // 16) * MAX_TIERS + x % 16) * TIER_F
            if data[o] > best:
                best = data[o]
                bk = k
        return bk
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
        for t in range(12):
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
    return 0


@nb.njit(_nrt=False, **_JIT)
def bonus_reroll(obs, moves, n_moves, data, b):
    """The waiting bonus dice (``O_BDICE``, ``O_BONUS_N``) of a roll the attacker may reroll:
    the move (pass, or reroll the dice of mask ``m``: ``MV_DIE + m``) with the largest
    expected gain, a die's gain being the mean value of a fresh die less the value of the
    face it shows (``D_BONUS``); pass when no reroll gains. The first of equal gains."""
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
                gain += mean - data[o + obs[O_BDICE + i]]
        if gain > best:
            best = gain
            bk = k
    return bk
