"""Compiled dice-duel kernel (numba, nopython, cache=True): many games in parallel.

The twin of ``engine.py``: the same rules in the same order, drawing from the same
per-game stream, so both produce identical records (``tests/test_duel_twins.py``).
Scratch arrays are allocated once per block of games, never per turn.

Strategies enter as numba functions (``strategies/duel/base.py``) through two
dispatchers, ``keep(sid, ...)`` and ``choose(sid, ...)``, given the strategy id of the seat
to act (``sids[seat]``), so any strategy can sit in any seat; ``play_block`` is generic in
the dispatchers. The binding (``strategies/duel/bind.py``) has one cached entry point for
the built-in strategies and builds one for a user's plug-in (``simcore/game.py``).

An ability choice that is not legal (neither -1 nor an ability the dice allow), or a keep
mask outside ``0..2**n - 1``, ends the game and is recorded (``illegal``: the seat), so the caller can name the strategy; it is
never played as "no attack". When ``trace`` has rows the HP of both heroes after every
turn is traced and the game's lead statistics (``simcore.leads``) recorded.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from ..leads import lead_stats_nb
from ..rng import below_nb, init_state_nb
from .model import (D_CP, D_HEAL, D_SHIELD, D_STRIKE, E_CP, E_DAMAGE, E_DAZE, E_HEAL, E_SHIELD,
                    E_STEAL, E_WOUNDS, MAX_ABILITIES, MAX_DICE, R)
from .state import (DOMAIN, STRATEGY_DOMAIN, record_fields, S_CP, S_CUR, S_DAZED, S_FIRST, S_HERO, S_HP, S_SHIELD, S_SIZE,
                    S_TURN, S_WOUNDS)

R_START_HP = R["start_hp"]
R_HP_CAP = R["hp_cap"]
R_START_CP = R["start_cp"]
R_CP_CAP = R["cp_cap"]
R_DICE = R["dice"]
R_ROLLS = R["rolls"]
R_ROLL_COST = R["roll_cost"]
R_WOUND_CAP = R["wound_cap"]
R_SHIELD_ABSORBS = R["shield_absorbs"]
R_DEFENCE_SHIELD = R["defence_shield"]
R_INCOME = R["income"]
R_FIRST_TURN_INCOME = R["first_turn_income"]
R_TURN_CAP = R["turn_cap"]
R_MAX_SHIELDS = R["max_shield_tokens"]
R_SHIELD_VS_STRIKE = R["shield_vs_strike_back"]
R_SHIELD_VS_WOUNDS = R["shield_vs_wounds"]
R_DAZED_SKIPS_UPKEEP = R["dazed_skips_upkeep"]
R_FIRST_PLAYER = R["first_player"]
R_MAX_BOUGHT = R["max_bought_rolls"]

def allocate_records(n: int, trace: bool = False) -> dict:
    """Record arrays of ``n`` games (with ``leads[n, 3]`` when the lead trace is on)."""
    rec = {k: np.empty((n, *shape), dt) for k, (dt, shape) in record_fields(MAX_ABILITIES).items()}
    if trace:
        rec["leads"] = np.empty((n, 3), np.float64)
    return rec


@nb.njit(cache=True, inline="always")
def gain_cp(st, seat, amount, rules):
    v = st[S_CP + seat] + amount
    cap = rules[R_CP_CAP]
    st[S_CP + seat] = v if v < cap else cap


@nb.njit(cache=True, inline="always")
def take_damage(st, seat, amount, rules):
    if amount > 0 and st[S_SHIELD + seat] > 0:
        amount = amount - rules[R_SHIELD_ABSORBS]
        if amount < 0:
            amount = 0
        st[S_SHIELD + seat] -= 1
    return amount


@nb.njit(cache=True, inline="always")
def legal_tiers(tb, h, faces, n, legal):
    """legal[a] = best tier of ability a satisfied by faces[:n], or -1 (table lookup on
    the multiset of faces; the table is built with ``dice.target_met_row``)."""
    code = 0
    for i in range(n):
        code += tb.code_pow[faces[i]]
    r = tb.hand_rank[code]
    for a in range(legal.shape[0]):
        legal[a] = tb.legal_lut[h, r, a]


@nb.njit(cache=True, inline="always")
def resolve(st, me, a, k, tb, rules, rs):
    opp = 1 - me
    hme = st[S_HERO + me]
    hop = st[S_HERO + opp]
    damage = tb.eff[hme, a, k, E_DAMAGE]
    prevented = 0
    strike = 0
    def_heal = 0
    def_cp = 0
    if damage > 0 and tb.undef[hme, a] == 0:
        for _ in range(tb.def_dice[hop]):
            f = below_nb(rs, 6)
            prevented += tb.def_eff[hop, f, D_SHIELD] * rules[R_DEFENCE_SHIELD]
            strike += tb.def_eff[hop, f, D_STRIKE]
            def_heal += tb.def_eff[hop, f, D_HEAL]
            def_cp += tb.def_eff[hop, f, D_CP]
    d = damage - prevented
    taken = take_damage(st, opp, d if d > 0 else 0, rules)
    struck = take_damage(st, me, strike, rules) if rules[R_SHIELD_VS_STRIKE] != 0 else strike
    cap = rules[R_HP_CAP]
    v = st[S_HP + opp] - taken + def_heal
    st[S_HP + opp] = v if v < cap else cap
    st[S_HP + me] -= struck
    gain_cp(st, opp, def_cp, rules)
    if st[S_HP + me] <= 0 or st[S_HP + opp] <= 0:
        return  # the game ends at once (play_game decides who won)
    v = st[S_HP + me] + tb.eff[hme, a, k, E_HEAL]
    st[S_HP + me] = v if v < cap else cap
    gain_cp(st, me, tb.eff[hme, a, k, E_CP], rules)
    stolen = tb.eff[hme, a, k, E_STEAL]
    if stolen > st[S_CP + opp]:
        stolen = st[S_CP + opp]
    st[S_CP + opp] -= stolen
    gain_cp(st, me, stolen, rules)
    w = st[S_WOUNDS + opp] + tb.eff[hme, a, k, E_WOUNDS]
    st[S_WOUNDS + opp] = w if w < rules[R_WOUND_CAP] else rules[R_WOUND_CAP]
    if tb.eff[hme, a, k, E_DAZE] != 0:
        st[S_DAZED + opp] = 1
    if tb.eff[hme, a, k, E_SHIELD] != 0:
        s = st[S_SHIELD + me] + 1
        st[S_SHIELD + me] = s if s < rules[R_MAX_SHIELDS] else rules[R_MAX_SHIELDS]


@nb.njit(cache=True, inline="always")
def play_game(keep, choose, data, tb, rules, seed, index, ha, hb, sids, st, faces, legal, rs, srs, ab_out,
              bought_out, trace):
    """Play game ``index``; returns ``(winner, illegal seat, traced turns)``: winner 0, 1 or
    -1 (draw); the seat whose strategy chose an illegal ability, or -1. Fills st, ab_out
    (``[seat * MAX_ABILITIES + ability]``), bought_out, and ``trace[t] = (hp0, hp1)`` after
    each turn while ``trace`` has rows."""
    init_state_nb(rs, seed, index, DOMAIN)
    init_state_nb(srs, seed, index, STRATEGY_DOMAIN)
    for i in range(S_SIZE):
        st[i] = 0
    st[S_HERO] = ha
    st[S_HERO + 1] = hb
    for seat in range(2):
        st[S_HP + seat] = rules[R_START_HP]
        st[S_CP + seat] = rules[R_START_CP]
    for i in range(ab_out.shape[0]):
        ab_out[i] = 0
    bought_out[0] = 0
    bought_out[1] = 0
    first = below_nb(rs, 2) if rules[R_FIRST_PLAYER] == 0 else 0
    st[S_FIRST] = first
    return play_turns(keep, choose, data, tb, rules, sids, st, faces, legal, rs, srs, ab_out, bought_out, trace,
                      first, 0)


@nb.njit(cache=True, inline="always")
def play_turns(keep, choose, data, tb, rules, sids, st, faces, legal, rs, srs, ab_out, bought_out, trace, cur,
               nt):
    """Whole turns from the start of seat ``cur``'s turn until the game ends (``play_game``'s
    result). The Monte Carlo search (``strategies/duel/search.py``) plays rollouts with it."""
    n = rules[R_DICE]
    while True:
        if 0 < st[S_TURN] <= trace.shape[0]:  # the position after the turn just played
            trace[st[S_TURN] - 1, 0] = st[S_HP]
            trace[st[S_TURN] - 1, 1] = st[S_HP + 1]
            nt = st[S_TURN]
        if st[S_TURN] >= rules[R_TURN_CAP]:
            return -1, -1, nt
        st[S_TURN] += 1
        st[S_CUR] = cur
        me = cur
        opp = 1 - cur
        cur = opp
        # 1-2. wounds, income
        if not (st[S_DAZED + me] != 0 and rules[R_DAZED_SKIPS_UPKEEP] != 0):
            if st[S_WOUNDS + me] > 0:
                loss = st[S_WOUNDS + me]
                if rules[R_SHIELD_VS_WOUNDS] != 0:
                    loss = take_damage(st, me, loss, rules)
                st[S_HP + me] -= loss
                if st[S_HP + me] <= 0:
                    return opp, -1, _trace_last(st, trace, nt)
            if st[S_TURN] > 1 or rules[R_FIRST_TURN_INCOME] != 0:
                gain_cp(st, me, rules[R_INCOME], rules)
        # 3. daze
        if st[S_DAZED + me] != 0:
            st[S_DAZED + me] = 0
            continue
        # 4. offensive roll
        for i in range(n):
            faces[i] = below_nb(rs, 6)
        if roll_on(keep, data, tb, rules, sids, st, me, faces, 1, 0, rs, srs, bought_out):
            return -1, me, nt   # a keep mask outside 0..2**n-1: the strategy's error
        # 5. attack
        over, w, bad = attack(choose, data, tb, rules, sids, st, me, faces, legal, rs, srs, ab_out)
        if over:
            return w, bad, nt if bad >= 0 else _trace_last(st, trace, nt)


@nb.njit(cache=True, inline="always")
def roll_on(keep, data, tb, rules, sids, st, me, faces, rolls_done, bought, rs, srs, bought_out):
    """Step 4 from ``rolls_done`` rolls made (``bought`` of them bought): ask ``keep``, reroll,
    until the seat keeps every die or can roll no more. Returns True if ``keep`` answered a
    mask outside ``0..2**n - 1`` (the strategy's error: the game stops, as for an illegal
    ability), else False."""
    n = rules[R_DICE]
    all_kept = (1 << n) - 1
    while True:
        free_left = rules[R_ROLLS] - rolls_done
        if free_left < 0:
            free_left = 0
        kmask = keep(sids[me], faces, n, rolls_done, free_left, me, st, tb, rules, data, srs)
        if kmask < 0 or kmask > all_kept:
            return True
        if kmask == all_kept:
            break
        if free_left == 0:
            if st[S_CP + me] < rules[R_ROLL_COST] or bought >= rules[R_MAX_BOUGHT]:
                break
            st[S_CP + me] -= rules[R_ROLL_COST]
            bought += 1
            bought_out[me] += 1
        for i in range(n):
            if not (kmask >> i) & 1:
                faces[i] = below_nb(rs, 6)
        rolls_done += 1
    return False


@nb.njit(cache=True, inline="always")
def attack(choose, data, tb, rules, sids, st, me, faces, legal, rs, srs, ab_out):
    """Step 5: ``choose`` an ability and resolve it. Returns ``(over, winner, illegal seat)``."""
    hme = st[S_HERO + me]
    n = rules[R_DICE]
    legal_tiers(tb, hme, faces, n, legal)
    a = choose(sids[me], faces, n, legal, me, st, tb, rules, data, srs)
    return resolve_choice(st, me, a, legal, tb, rules, rs, ab_out)


@nb.njit(cache=True, inline="always")
def resolve_choice(st, me, a, legal, tb, rules, rs, ab_out):
    """Resolve ability ``a`` of seat ``me`` (-1: no attack). Returns ``(over, winner,
    illegal seat)``."""
    hme = st[S_HERO + me]
    opp = 1 - me
    if a == -1:
        return False, -1, -1
    if a < 0 or a >= tb.n_ab[hme] or legal[a] < 0:
        return True, -1, me
    ab_out[me * MAX_ABILITIES + a] += 1
    resolve(st, me, a, legal[a], tb, rules, rs)
    dead_me = st[S_HP + me] <= 0
    dead_opp = st[S_HP + opp] <= 0
    if dead_me and dead_opp:
        return True, -1, -1
    if dead_opp:
        return True, me, -1
    if dead_me:
        return True, opp, -1
    return False, -1, -1


@nb.njit(cache=True, inline="always")
def _trace_last(st, trace, nt):
    """Trace the final position (the game ended inside turn ``st[S_TURN]``)."""
    if 0 < st[S_TURN] <= trace.shape[0]:
        trace[st[S_TURN] - 1, 0] = st[S_HP]
        trace[st[S_TURN] - 1, 1] = st[S_HP + 1]
        return st[S_TURN]
    return nt


def n_blocks(n_games: int) -> int:
    """Blocks of games a chunk is cut into for ``prange`` (scratch arrays are per block).
    Computed in Python: numba's get_num_threads() inside a kernel defeats caching."""
    return max(1, min(n_games, 64 * nb.get_num_threads()))


# per-block scratch: one int64 row (state vector, dice, legal tiers, ability counts, bought
# rolls), padded to whole cache lines so blocks on different threads never share one
W_ST = 0
W_FACES = W_ST + S_SIZE
W_LEGAL = W_FACES + MAX_DICE
W_AB = W_LEGAL + MAX_ABILITIES
W_BO = W_AB + 2 * MAX_ABILITIES
WORK_SIZE = ((W_BO + 2 + 7) // 8) * 8


@nb.njit(cache=True)
def block_scratch(nblk, trace_rows):
    """Scratch for ``nblk`` blocks: ``work[nblk, WORK_SIZE]``, stream states
    ``rstate[nblk, 8]`` (one cache line each) and the HP traces ``trace[nblk, rows, 2]``
    (``trace_rows`` = 0 when no lead statistics are wanted). Allocated by an entry point
    once per chunk."""
    return (np.zeros((nblk, WORK_SIZE), np.int64), np.zeros((nblk, 8), np.uint64),
            np.zeros((nblk, trace_rows, 2), np.float64))


@nb.njit(cache=True, inline="always")
def play_block(keep, choose, data, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate,
               trace, winner, first, turns, hp, cp, timeout, abilities, bought, illegal, leads):
    """Block ``blk`` of ``nblk`` of games ``start..stop-1`` into the record arrays
    (record 0 = game ``start``). It allocates nothing, so a strategy's block function can
    be compiled without reference counting (``_nrt=False``: 2-3x faster); the binding
    (``strategies/duel/bind.py``) wraps it in such a block function and a ``prange`` entry
    point. ``trace[blk]`` is the block's trace scratch (no rows: no trace, and ``leads``
    is not written).
    """
    n_games = stop - start
    lo = blk * n_games // nblk
    hi = (blk + 1) * n_games // nblk
    st = work[blk, W_ST:W_ST + S_SIZE]
    faces = work[blk, W_FACES:W_FACES + MAX_DICE]
    legal = work[blk, W_LEGAL:W_LEGAL + MAX_ABILITIES]
    ab = work[blk, W_AB:W_AB + 2 * MAX_ABILITIES]
    bo = work[blk, W_BO:W_BO + 2]
    rs = rstate[blk, 0:2]
    srs = rstate[blk, 2:4]
    tr = trace[blk]
    for g in range(lo, hi):
        w, bad, nt = play_game(keep, choose, data, tb, rules, seed, start + g, ha, hb, sids, st, faces,
                               legal, rs, srs, ab, bo, tr)
        winner[g] = w
        illegal[g] = bad
        if tr.shape[0] > 0:
            lead_stats_nb(tr, nt, 2, w if bad < 0 else -1, leads[g])
        first[g] = st[S_FIRST]
        turns[g] = st[S_TURN]
        timeout[g] = w == -1 and bad < 0 and st[S_HP] > 0 and st[S_HP + 1] > 0
        for s in range(2):
            hp[g, s] = st[S_HP + s]
            cp[g, s] = st[S_CP + s]
            bought[g, s] = bo[s]
            for a in range(MAX_ABILITIES):
                abilities[g, s, a] = ab[s * MAX_ABILITIES + a]
