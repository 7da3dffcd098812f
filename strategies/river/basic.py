"""River battle ``random`` and ``heuristic`` strategies (information-fair: they read only
the observation; the interface is in ``strategies/river/__init__.py``).

The heuristic, for either role (``unseen`` = battle cards the deciding seat has not seen:
not in its hand, not on the board, not discarded; keys are formation keys of
``simcore.river.formations``, comparable within one dam):

Attacker
  * Any decision with a legal claim: take the first claim (claims are proven safe by the
    rules, and a damaged dam is never worse for the attacker).
  * Preparation: retreat from a hopeless dam: the defender's side there is complete and
    even the best completion of the attacker's side from its hand and every unseen card
    would not beat it (ties count as hopeless: the defender completed first). Else END.
  * Play (card c at dam p): the attacker's side with c is valued at ``own`` = the best key
    its completion can reach with the rest of its hand, or (if the hand is short) with
    hand + unseen cards, less a 24-point penalty per card it must still hope for. The
    score is ``own`` minus the defender's potential there (its complete key, or its best
    completion from the unseen cards), plus 16 x the share of the side filled, plus 24
    on a damaged dam (destroying it wins), with two overrides: a play that makes a claim
    legal scores +1000; a play whose best completion cannot beat a complete defender
    formation (or no completion is possible) scores -1000 - own.
Defender
  * Preparation: a log at the most dangerous attacker formation: among dams where the
    attacker's side is complete and the defender cannot beat it with its own cards (its
    complete key is lower, or its best completion from its hand is not higher), the one
    on a damaged dam first, then the strongest attacker key. Else a log at a dam of 3-4
    cards where the attacker is one card short and that dam would win the game (it is
    damaged, or it would be the last dam needed). Else END.
  * Play (card c at dam p). The threat there is the attacker's key if its side is
    complete, else the best completion of its side from the defender's unseen cards (an
    empty side counts half); urgency = 1 + the attacker's share of the side filled + 4
    on a damaged dam. With ``sure`` = the best completion of the defender's side plus c
    from the rest of its hand and ``poss`` = the same from hand + unseen cards:
      - a lost dam (the attacker's side complete, no completion of the defender's beats
        it): score 5, the place to dump a card;
      - no completion possible: -1000;
      - the play would leave no beating completion against a complete attacker
        formation (it would hand the attacker a proof): -300;
      - ``sure`` beats the threat (the dam is held with cards in hand):
        60 + 20 x urgency + (sure - threat) / 8;
      - else urgency x clamp(est - threat, -64, 64) + est / 8, est = ``sure``, or
        ``poss`` less 24 per card beyond the hand.
Tactic cards (rule option ``tactics``; the stock pile holds one Treason, effect "steal")
  * Draw (both roles; the engine offers the choice only when both piles have cards): the
    tactic pile when the hand holds no tactic card yet and a steal would qualify (below)
    in the position as it stands, else the battle pile. (Drawing it at once costs a
    battle card for the rest of the game: measured with the attacker taking it at its
    first draw, its win rate fell 5 points.)
  * A steal is played only when it decides a dam, else never (the card is kept):
      attacker: it completes the attacker's side at the destination with a claim proven
      at once (the defender's side there complete and weaker, or no unseen completion
      beats it), or it takes a card from a complete defender formation that blocks a
      complete attacker formation so that the claim there becomes proven; 900 per
      effect (+200 on a damaged dam), below any battle card that makes a claim legal
      (1000+), so the tactic is kept when a battle card does the same. The claim is
      then declared at the end of the turn.
      defender: it breaks a complete attacker formation that the defender's hand cannot
      beat (400, +300 on a damaged dam or the attacker's last needed dam), and/or
      completes the defender's side at the destination with a formation beating the
      attacker's complete one there when its hand could not (300 + 20 x urgency):
      above every battle play.
"""
from __future__ import annotations

import numba as nb

from simcore.river.formations import (best_key_part_nb, best_key_stats_nb, key_nb, key_part_nb,
                                      part_add_nb, part_nb, pool_stats_nb, stats_add_nb)
from simcore.river.kernel import MAX_STEALS, side_off, steal_moves_nb, tile_mode_nb, tile_n_nb, unseen_nb
from simcore.river.model import (MAX_HAND, MAX_MOVES, MV_DRAW_BATTLE, MV_LOG, MV_PLAY,
                                 MV_RETREAT, MV_STEAL, N_TILES, O_CUR, O_DONE, O_HAND, O_HAND_N, TACTIC0,
                                 O_DAMAGED, O_DAMS, O_SIDE_N, O_TSTATE, PH_A_PLAY, PH_A_PREP, PH_D_PLAY, PH_D_PREP,
                                 PH_DRAW, R_TIE)
from simcore.rawarrays import raw_view, stack_array_f64, stack_array_i64
from simcore.rng import below_nb

# ``_nrt=False``: no reference counting in the strategies' functions (they allocate no
# array: see ``simcore/river/kernel.py``)
_JIT = dict(cache=True, nogil=True, _nrt=False)
WS_LEN = 80                # int64 workspace: pool statistics and per-dam values (then the play order)
FW_LEN = 4 * N_TILES       # float64 workspace: the defender's threat, urgency, lost, per-dam bounds (then scores)


@nb.njit(**_JIT)
def random_decide(phase, obs, moves, n_moves, rules, data, rng):
    return below_nb(rng, n_moves)


@nb.njit(inline="always", **_JIT)
def hand_mask_nb(obs, seat):
    m = 0
    base = O_HAND + seat * MAX_HAND
    for i in range(obs[O_HAND_N + seat]):
        c = obs[base + i]
        if 0 <= c < 60:
            m |= 1 << c
    return m


@nb.njit(inline="always", **_JIT)
def potential_nb(part0, k, extra, n, mode, ch, mh, th, ca, ma, ta):
    """Best key of a side of ``k`` cards (summary ``part0``, ``part_nb``) at a dam of ``n``
    cards and rule ``mode`` with card ``extra`` added, completed from the hand
    (statistics ``ch, mh, th``, with ``extra`` already taken out of them by the caller's
    ``take_card_nb``) if it can be, else from hand + unseen (``ca, ma, ta``, likewise)
    with a 24-point penalty per card missing beyond the hand; -1 if no completion exists."""
    part = part_add_nb(part0, extra)
    k += 1
    b = best_key_part_nb(part, k, n, mode, ch, mh, th - 1)
    if b >= 0:
        return b
    b = best_key_part_nb(part, k, n, mode, ca, ma, ta - 1)
    if b < 0:
        return -1
    return b - 24 * (n - k - (th - 1))


@nb.njit(inline="always", **_JIT)
def take_card_nb(ch, mh, ca, ma, c, sign):
    """Take card ``c`` out of (sign -1) or put it back into (sign 1) the hand's and the
    hand + unseen statistics, around the evaluation of a play of ``c``."""
    stats_add_nb(ch, mh, c, sign)
    stats_add_nb(ca, ma, c, sign)


@nb.njit(inline="always", **_JIT)
def stats_nb(hand, unseen, ws):
    """Statistics of the hand, of the unseen cards and of both, as views into the
    workspace ``ws`` (one allocation per decision)."""
    ch = ws[0:12]
    mh = ws[12:17]
    cu = ws[17:29]
    mu = ws[29:34]
    ca = ws[34:46]
    ma = ws[46:51]
    th = pool_stats_nb(hand, ch, mh)
    tu = pool_stats_nb(unseen, cu, mu)
    for v in range(12):
        ca[v] = ch[v] + cu[v]
    for c in range(5):
        ma[c] = mh[c] | mu[c]
    return ch, mh, th, cu, mu, tu, ca, ma, th + tu




@nb.njit(inline="always", **_JIT)
def part_without_nb(obs, off, k, skip):
    """The summary (``part_nb``) of the ``k`` cards ``obs[off:off + k]`` without card ``skip``."""
    part = (0, -2, -2, 0, True)
    for i in range(k):
        if i != skip:
            part = part_add_nb(part, obs[off + i])
    return part


@nb.njit(inline="always", **_JIT)
def steal_parts_nb(mv):
    """(source dam, index of the card on the opponent's side there, destination dam) of a steal."""
    x = mv - MV_STEAL
    return (x // 8) // 4, (x // 8) % 4, x % 8


@nb.njit(**_JIT)
def attacker_steal_score_nb(obs, mv, rules, data, cu, mu, tu, threat, dcomp):
    """The attacker's score of a "steal" tactic (take the defender's card at one dam to the
    attacker's side of another): it qualifies only if it completes the attacker's side at
    the destination with a claim proven at once, or breaks a complete defender formation
    that blocks a complete attacker formation so that the claim there becomes proven;
    900 per effect (+200 on a damaged dam: the claim wins), so a battle card that makes a
    claim legal (1000+) is played first and the tactic kept. Else -1e9 (never)."""
    sp, si, dp = steal_parts_nb(mv)
    c = obs[side_off(sp, 1) + si]
    nsp = tile_n_nb(obs, sp, data)
    msp = tile_mode_nb(obs, sp, data)
    kd = obs[O_SIDE_N + sp * 2 + 1]
    # the defender's side at sp after the theft (incomplete): its best completion from the unseen cards
    thr_sp = best_key_part_nb(part_without_nb(obs, side_off(sp, 1), kd, si), kd - 1, nsp, msp, cu, mu, tu)
    sc = 0.0
    hit = False
    n = tile_n_nb(obs, dp, data)
    ka = obs[O_SIDE_N + dp * 2]
    if ka + 1 == n:                                     # completes
        own = key_part_nb(part_add_nb(part_nb(obs, side_off(dp, 0), ka), c), n, tile_mode_nb(obs, dp, data))
        if dp == sp:
            thr = thr_sp
            comp = False
        else:
            thr = threat[dp]
            comp = dcomp[dp] == 1
        if (comp and own > thr) or (not comp and (thr < own or (thr == own and rules[R_TIE] != 1))):
            hit = True
            sc += 900.0 + (own - thr) / 8.0 + (200.0 if obs[O_TSTATE + dp] == 1 else 0.0)
    if dcomp[sp] == 1 and obs[O_SIDE_N + sp * 2] >= nsp:   # breaks
        ka_sp = key_nb(obs, side_off(sp, 0), nsp, msp)
        if thr_sp < ka_sp or (thr_sp == ka_sp and rules[R_TIE] != 1):
            hit = True
            sc += 900.0 + (ka_sp - thr_sp) / 8.0 + (200.0 if obs[O_TSTATE + sp] == 1 else 0.0)
    return sc if hit else -1.0e9


@nb.njit(**_JIT)
def defender_steal_score_nb(obs, mv, rules, data, ch, mh, th, threat, urg, acomp):
    """The defender's score of a "steal" tactic (take the attacker's card at one dam to the
    defender's side of another): it qualifies only if it breaks a complete attacker
    formation that the defender's own cards cannot beat (400, +300 on a damaged dam or
    when that dam would be the attacker's last needed), or completes the defender's side
    at the destination with a formation that beats the attacker's complete one there when
    its hand could not (300 + 20 x urgency); both add. Either outranks every battle play
    (at most about 200). Else -1e9 (never)."""
    sp, si, dp = steal_parts_nb(mv)
    c = obs[side_off(sp, 0) + si]
    sc = 0.0
    hit = False
    if acomp[sp] == 1:                                  # breaks
        nsp = tile_n_nb(obs, sp, data)
        msp = tile_mode_nb(obs, sp, data)
        kd = obs[O_SIDE_N + sp * 2 + 1]
        sure = best_key_stats_nb(obs, side_off(sp, 1), kd, nsp, msp, ch, mh, th)
        if sure < 0 or not _beats(sure, threat[sp], True, rules):
            hit = True
            sc += 400.0 + threat[sp] / 64.0
            if obs[O_TSTATE + sp] == 1 or obs[O_DAMAGED] == obs[O_DAMS] - 1:
                sc += 300.0
    if dp != sp and acomp[dp] == 1:                      # completes
        n = tile_n_nb(obs, dp, data)
        mode = tile_mode_nb(obs, dp, data)
        kd = obs[O_SIDE_N + dp * 2 + 1]
        if kd + 1 == n:
            part = part_nb(obs, side_off(dp, 1), kd)
            mine = key_part_nb(part_add_nb(part, c), n, mode)
            sure = best_key_part_nb(part, kd, n, mode, ch, mh, th)
            if _beats(mine, threat[dp], True, rules) and (sure < 0 or not _beats(sure, threat[dp], True, rules)):
                hit = True
                sc += 300.0 + 20.0 * urg[dp]
    return sc if hit else -1.0e9


@nb.njit(inline="always", **_JIT)
def side_threat_nb(obs, pos, seat, data, cu, mu, tu):
    """``(n, mode, k, complete, key)`` of ``seat``'s side at ``pos``: the tile's cards and
    rule, the side's cards, whether it is complete, and its key if so, else its best
    completion from the pool statistics ``cu, mu, tu`` (the observer's unseen cards)."""
    n = tile_n_nb(obs, pos, data)
    mode = tile_mode_nb(obs, pos, data)
    k = obs[O_SIDE_N + pos * 2 + seat]
    if k >= n:
        return n, mode, k, 1, key_nb(obs, side_off(pos, seat), n, mode)
    return n, mode, k, 0, best_key_stats_nb(obs, side_off(pos, seat), k, n, mode, cu, mu, tu)


@nb.njit(inline="always", **_JIT)
def attacker_threats_nb(obs, data, cu, mu, tu, threat, dcomp):
    """Per dam, for the attacker: the defender's key if its side is complete (``dcomp`` 1),
    else its best completion from the attacker's unseen cards (statistics ``cu, mu, tu``)."""
    for pos in range(N_TILES):
        _, _, _, comp, key = side_threat_nb(obs, pos, 1, data, cu, mu, tu)
        dcomp[pos] = comp
        threat[pos] = key


@nb.njit(inline="always", **_JIT)
def defender_threats_nb(obs, rules, data, cu, mu, tu, ca, ma, ta, threat, urg, lost, acomp):
    """Per dam, for the defender: the attacker's threat (its key if complete, ``acomp`` 1;
    else its best completion from the defender's unseen cards, halved on an empty side),
    the urgency and whether the dam is lost (see the module docstring)."""
    for pos in range(N_TILES):
        n, mode, ka, comp, key = side_threat_nb(obs, pos, 0, data, cu, mu, tu)
        acomp[pos] = comp
        threat[pos] = key
        if ka == 0:
            threat[pos] *= 0.5
        urg[pos] = 1.0 + ka / n + (4.0 if obs[O_TSTATE + pos] == 1 else 0.0)
        lost[pos] = 0.0
        if acomp[pos] == 1:
            kd = obs[O_SIDE_N + pos * 2 + 1]
            d = best_key_stats_nb(obs, side_off(pos, 1), kd, n, mode, ca, ma, ta)
            if not _beats(d, threat[pos], True, rules):
                lost[pos] = 1.0


@nb.njit(**_JIT)
def steal_pays_nb(obs, seat, rules, data, ws, fw):
    """Would a steal qualify now (``attacker_steal_score_nb`` / ``defender_steal_score_nb``
    above -1e9) if ``seat`` held a tactic card? Workspaces as in ``heuristic_scored``."""
    ch, mh, th, cu, mu, tu, ca, ma, ta = stats_nb(hand_mask_nb(obs, seat), unseen_nb(obs, seat, data), ws)
    athr = ws[51:58]
    comp = ws[72:79]
    dthr = fw[0:N_TILES]
    urg = fw[N_TILES:2 * N_TILES]
    lost = fw[2 * N_TILES:3 * N_TILES]
    if seat == 0:
        attacker_threats_nb(obs, data, cu, mu, tu, athr, comp)
    else:
        defender_threats_nb(obs, rules, data, cu, mu, tu, ca, ma, ta, dthr, urg, lost, comp)
    steals = stack_array_i64(MAX_STEALS)
    for i in range(steal_moves_nb(obs, seat, data, steals, 0)):
        if seat == 0:
            sc = attacker_steal_score_nb(obs, steals[i], rules, data, cu, mu, tu, athr, comp)
        else:
            sc = defender_steal_score_nb(obs, steals[i], rules, data, ch, mh, th, dthr, urg, comp)
        if sc > -1.0e8:
            return True
    return False


@nb.njit(**_JIT)
def draw_choice_nb(obs, seat, rules, data, ws, fw):
    """Draw (tactic cards on, both piles non-empty): the tactic pile (index 1,
    ``MV_DRAW_TACTIC``) when the hand holds no tactic card yet and a steal would qualify in
    the position now (``steal_pays_nb``), else the battle pile (index 0)."""
    base = O_HAND + seat * MAX_HAND
    for i in range(obs[O_HAND_N + seat]):
        if obs[base + i] >= TACTIC0:
            return 0
    return 1 if steal_pays_nb(obs, seat, rules, data, ws, fw) else 0


@nb.njit(**_JIT)
def first_claim_nb(moves, n_moves):
    for k in range(n_moves):
        if moves[k] < MV_RETREAT:
            return k
    return -1


@nb.njit(inline="always", **_JIT)
def plays_by_dam_nb(moves, n_moves, order, cnt, scores):
    """Indices of the card plays among ``moves[:n_moves]``, grouped by dam (in move order
    within a dam), into ``order``; returns their number. The other moves get their fixed
    scores (a steal 0, anything else -1e9). Plays at one dam share the tile rule and
    the side, so evaluating them together keeps the best-completion search's branches
    predictable; ``cnt`` (N_TILES + 1 entries) is scratch."""
    for pos in range(N_TILES + 1):
        cnt[pos] = 0
    for k in range(n_moves):
        mv = moves[k]
        if mv < MV_PLAY or mv >= MV_STEAL:
            scores[k] = 0.0 if (MV_STEAL <= mv < MV_DRAW_BATTLE) else -1.0e9
        else:
            cnt[(mv - MV_PLAY) % 8 + 1] += 1
    for pos in range(N_TILES):
        cnt[pos + 1] += cnt[pos]
    for k in range(n_moves):
        mv = moves[k]
        if MV_PLAY <= mv < MV_STEAL:
            pos = (mv - MV_PLAY) % 8
            order[cnt[pos]] = k
            cnt[pos] += 1
    return cnt[N_TILES - 1]


@nb.njit(inline="always", **_JIT)
def best_move_nb(scores, n_moves, sc_out):
    """The first move of the highest score (copied into ``sc_out`` as far as it reaches)."""
    best = -1.0e18
    bk = n_moves - 1
    for k in range(n_moves):
        sc = scores[k]
        if sc_out.shape[0] > k:
            sc_out[k] = sc
        if sc > best:
            best = sc
            bk = k
    return bk



NO_PLAYS = -1.0e308        # a dam's bound when no play goes there
PRUNED = -1.0e300          # the score of a play skipped by its dam's bound (below every real score)


@nb.njit(inline="always", **_JIT)
def next_dam_nb(bound):
    """The dam of the highest bound not yet taken (then marked taken) and that bound;
    dam -1 when none is left."""
    pos = -1
    b = NO_PLAYS
    for p in range(N_TILES):
        if bound[p] > b:
            b = bound[p]
            pos = p
    if pos >= 0:
        bound[pos] = NO_PLAYS
    return pos, b


@nb.njit(inline="always", **_JIT)
def next_live_dam_nb(bound, ends, order, scores, prune, best):
    """The next dam to evaluate, strongest bound first, and its plays ``order[lo:hi]``
    (``plays_by_dam_nb``); with ``prune``, a dam whose bound is below ``best`` is skipped,
    its plays scored ``PRUNED``. Dam -1 when none is left."""
    while True:
        pos, b = next_dam_nb(bound)
        if pos < 0:
            return -1, 0, 0
        lo = ends[pos - 1] if pos > 0 else 0
        hi = ends[pos]
        if prune and b < best:
            for i in range(lo, hi):
                scores[order[i]] = PRUNED
            continue
        return pos, lo, hi


@nb.njit(inline="always", **_JIT)
def own_bound_nb(part0, k0, n, mode, ch, mh, th, ca, ma, ta):
    """An upper bound of ``potential_nb`` for every card of the hand at a side of ``k0``
    cards (summary ``part0``): the card and its completion both come from the hand when it
    holds the ``n - k0`` cards needed (then the best completion from the hand bounds it),
    else the completion is from hand + unseen with the penalty for the ``n - k0 - th``
    cards beyond the hand."""
    if th >= n - k0:
        return best_key_part_nb(part0, k0, n, mode, ch, mh, th)
    return best_key_part_nb(part0, k0, n, mode, ca, ma, ta) - 24 * (n - k0 - th)


@nb.njit(inline="always", **_JIT)
def attacker_bound_nb(obs, pos, rules, data, ch, mh, th, ca, ma, ta, threat, dcomp):
    """An upper bound of the attacker's score of every card play at ``pos``: the score's
    formula (monotone in ``own``) on ``own_bound_nb``, with the claim bonus when the play
    completes the side and the bound passes the claim's test (monotone too); -1000 when
    no play can beat a complete defender formation (those score -1000 - own or less)."""
    n = tile_n_nb(obs, pos, data)
    mode = tile_mode_nb(obs, pos, data)
    k0 = obs[O_SIDE_N + pos * 2]
    ub = own_bound_nb(part_nb(obs, side_off(pos, 0), k0), k0, n, mode, ch, mh, th, ca, ma, ta)
    if dcomp[pos] == 1:
        if ub <= threat[pos]:
            return -1000.0
        claim = True
    else:
        claim = threat[pos] < ub or (threat[pos] == ub and rules[R_TIE] != 1)
    ka_n = k0 + 1
    b = float(ub - threat[pos]) + 16.0 * ka_n / n
    if obs[O_TSTATE + pos] == 1:
        b += 24.0
    if ka_n == n and claim:
        b += 1000.0
    if b < -1000.0:
        b = -1000.0
    return b


@nb.njit(inline="always", **_JIT)
def defender_bound_nb(obs, pos, rules, data, ch, mh, th, ca, ma, ta, threat, urg, lost, acomp):
    """An upper bound of the defender's score of every card play at ``pos`` (each branch
    of the score is monotone in its key; ``est`` = ``own_bound_nb``): 5 on a lost dam.
    When the hand can complete the side, ``sure`` <= est: the "held" formula on est if est
    passes the hold test, and est / 8 (a play that does not hold has sure <= threat, so
    its estimate term urg x clamp(sure - threat) is <= 0). Else the estimate's formula on
    est. At least -300 (the other branches)."""
    if lost[pos] == 1.0:
        return 5.0
    n = tile_n_nb(obs, pos, data)
    mode = tile_mode_nb(obs, pos, data)
    kd0 = obs[O_SIDE_N + pos * 2 + 1]
    est = own_bound_nb(part_nb(obs, side_off(pos, 1), kd0), kd0, n, mode, ch, mh, th, ca, ma, ta)
    if th >= n - kd0:
        b = est / 8.0
        if _beats(est, threat[pos], acomp[pos] == 1, rules):
            h = 60.0 + 20.0 * urg[pos] + (est - threat[pos]) / 8.0
            if h > b:
                b = h
    else:
        b = contested_score_nb(urg[pos], est, threat[pos])
    if b < -300.0:
        b = -300.0
    return b


@nb.njit(**_JIT)
def attacker_decide(phase, obs, moves, n_moves, rules, data, rng, sc_out, ws, fw):
    """The attacker's choice; ``ws``, ``fw``: the workspaces of ``heuristic_scored``."""
    k = first_claim_nb(moves, n_moves)
    if k >= 0:
        return k
    if phase != PH_A_PREP and phase != PH_A_PLAY:
        return n_moves - 1          # end of turn without a claim: END
    if phase == PH_A_PREP:
        ready = False               # the pool statistics, computed when first needed
        ca, ma, ta = ws[34:46], ws[46:51], -1
        for k in range(n_moves):
            mv = moves[k]
            if MV_RETREAT <= mv < MV_LOG:
                pos = mv - MV_RETREAT
                n = tile_n_nb(obs, pos, data)
                if obs[O_SIDE_N + pos * 2 + 1] >= n:
                    if not ready:           # hand + unseen (disjoint): one pass
                        ta = pool_stats_nb(hand_mask_nb(obs, 0) | unseen_nb(obs, 0, data), ca, ma)
                        ready = True
                    kd = key_nb(obs, side_off(pos, 1), n, tile_mode_nb(obs, pos, data))
                    ka = best_key_stats_nb(obs, side_off(pos, 0), obs[O_SIDE_N + pos * 2], n,
                                           tile_mode_nb(obs, pos, data), ca, ma, ta)
                    if ka <= kd:
                        return k
        return n_moves - 1          # END is the largest move
    # play
    ch, mh, th, cu, mu, tu, ca, ma, ta = stats_nb(hand_mask_nb(obs, 0), unseen_nb(obs, 0, data), ws)
    threat = ws[51:58]
    dcomp = ws[72:79]
    attacker_threats_nb(obs, data, cu, mu, tu, threat, dcomp)
    scores = fw[FW_LEN:FW_LEN + n_moves]
    order = ws[WS_LEN:WS_LEN + n_moves]
    ends = ws[WS_LEN + n_moves:]
    plays_by_dam_nb(moves, n_moves, order, ends, scores)
    # An upper bound of every play's score per dam (see ``attacker_bound_nb``): dams are
    # evaluated strongest bound first, and a dam whose bound is below the best score
    # found is skipped (its plays cannot be chosen; only when no caller reads the scores).
    bound = fw[0:N_TILES]
    for pos in range(N_TILES):
        if ends[pos] > (ends[pos - 1] if pos > 0 else 0):
            bound[pos] = attacker_bound_nb(obs, pos, rules, data, ch, mh, th, ca, ma, ta, threat, dcomp)
        else:
            bound[pos] = NO_PLAYS
    prune = sc_out.shape[0] == 0
    best = -1.0e300
    while True:
        pos, lo, hi = next_live_dam_nb(bound, ends, order, scores, prune, best)
        if pos < 0:
            break
        n = tile_n_nb(obs, pos, data)
        mode = tile_mode_nb(obs, pos, data)
        k0 = obs[O_SIDE_N + pos * 2]
        part0 = part_nb(obs, side_off(pos, 0), k0)
        for i in range(lo, hi):
            k = order[i]
            c = (moves[k] - MV_PLAY) // 8
            take_card_nb(ch, mh, ca, ma, c, -1)
            own = potential_nb(part0, k0, c, n, mode, ch, mh, th, ca, ma, ta)
            take_card_nb(ch, mh, ca, ma, c, 1)
            ka_n = k0 + 1
            if own < 0:
                sc = -2000.0
            elif dcomp[pos] == 1 and own <= threat[pos]:
                sc = -1000.0 - own
            else:
                sc = float(own - threat[pos]) + 16.0 * ka_n / n
                if obs[O_TSTATE + pos] == 1:
                    sc += 24.0
                if ka_n == n:
                    # would the claim be proven right after this play?
                    if dcomp[pos] == 1:
                        if own > threat[pos]:
                            sc += 1000.0
                    elif threat[pos] < own or (threat[pos] == own and rules[R_TIE] != 1):
                        sc += 1000.0
            scores[k] = sc
            if sc > best:
                best = sc
    if MV_STEAL <= moves[n_moves - 1] < MV_DRAW_BATTLE:     # a tactic in hand (steals sort after the plays)
        for k in range(n_moves):
            if MV_STEAL <= moves[k] < MV_DRAW_BATTLE:
                scores[k] = attacker_steal_score_nb(obs, moves[k], rules, data, cu, mu, tu, threat, dcomp)
    return best_move_nb(scores, n_moves, sc_out)


@nb.njit(**_JIT)
def defender_decide(phase, obs, moves, n_moves, rules, data, rng, sc_out, ws, fw):
    """The defender's choice; ``ws``, ``fw``: the workspaces of ``heuristic_scored``."""
    if phase == PH_DRAW:
        return draw_choice_nb(obs, obs[O_CUR], rules, data, ws, fw)
    if phase == PH_D_PREP:
        bk = n_moves - 1
        best = -1
        ch = ws[0:12]
        mh = ws[12:17]
        th = -1                     # the hand's statistics, computed when first needed
        for k in range(n_moves):
            mv = moves[k]
            if MV_LOG <= mv < MV_PLAY:
                pos = mv - MV_LOG
                n = tile_n_nb(obs, pos, data)
                mode = tile_mode_nb(obs, pos, data)
                if obs[O_SIDE_N + pos * 2] < n:
                    # one card short of destroying a damaged dam: the first card goes
                    last = obs[O_TSTATE + pos] == 1 or obs[O_DAMAGED] == obs[O_DAMS] - 1
                    if last and obs[O_SIDE_N + pos * 2] == n - 1 and n > 2 and best < 500:
                        best = 500
                        bk = k
                    continue
                ka = key_nb(obs, side_off(pos, 0), n, mode)
                kdn = obs[O_SIDE_N + pos * 2 + 1]
                if kdn >= n:
                    kd = key_nb(obs, side_off(pos, 1), n, mode)
                    danger = kd < ka or (kd == ka and obs[O_DONE + pos * 2] < obs[O_DONE + pos * 2 + 1])
                else:
                    if th < 0:
                        th = pool_stats_nb(hand_mask_nb(obs, 1), ch, mh)
                    kd = best_key_stats_nb(obs, side_off(pos, 1), kdn, n, mode, ch, mh, th)
                    danger = kd <= ka
                if danger:
                    pr = ka + (1000 if obs[O_TSTATE + pos] == 1 else 0)
                    if pr > best:
                        best = pr
                        bk = k
        return bk
    if phase != PH_D_PLAY:
        return n_moves - 1
    ch, mh, th, cu, mu, tu, ca, ma, ta = stats_nb(hand_mask_nb(obs, 1), unseen_nb(obs, 1, data), ws)
    threat = fw[0:N_TILES]
    urg = fw[N_TILES:2 * N_TILES]
    lost = fw[2 * N_TILES:3 * N_TILES]
    acomp = ws[72:79]
    defender_threats_nb(obs, rules, data, cu, mu, tu, ca, ma, ta, threat, urg, lost, acomp)
    scores = fw[FW_LEN:FW_LEN + n_moves]
    order = ws[WS_LEN:WS_LEN + n_moves]
    ends = ws[WS_LEN + n_moves:]
    plays_by_dam_nb(moves, n_moves, order, ends, scores)
    # dams strongest bound first, a dam below the best score found skipped (as the attacker's)
    bound = fw[3 * N_TILES:4 * N_TILES]
    for pos in range(N_TILES):
        if ends[pos] > (ends[pos - 1] if pos > 0 else 0):
            bound[pos] = defender_bound_nb(obs, pos, rules, data, ch, mh, th, ca, ma, ta, threat, urg, lost, acomp)
        else:
            bound[pos] = NO_PLAYS
    prune = sc_out.shape[0] == 0
    best = -1.0e300
    while True:
        pos, lo, hi = next_live_dam_nb(bound, ends, order, scores, prune, best)
        if pos < 0:
            break
        n = tile_n_nb(obs, pos, data)
        mode = tile_mode_nb(obs, pos, data)
        kd0 = obs[O_SIDE_N + pos * 2 + 1]
        part0 = part_nb(obs, side_off(pos, 1), kd0)
        for i in range(lo, hi):
            k = order[i]
            c = (moves[k] - MV_PLAY) // 8
            if lost[pos] == 1.0:
                sc = 5.0                                   # a lost dam: the place to dump a card
            else:
                strict = acomp[pos] == 1
                take_card_nb(ch, mh, ca, ma, c, -1)
                part = part_add_nb(part0, c)
                sure = best_key_part_nb(part, kd0 + 1, n, mode, ch, mh, th - 1)
                poss = sure                                # (only needed when sure cannot tell)
                if strict or sure < 0 or not _beats(sure, threat[pos], strict, rules):
                    poss = best_key_part_nb(part, kd0 + 1, n, mode, ca, ma, ta - 1)
                take_card_nb(ch, mh, ca, ma, c, 1)
                if poss < 0:
                    sc = -1000.0
                elif strict and not _beats(poss, threat[pos], True, rules):
                    sc = -300.0                            # would hand the attacker a proof
                elif sure >= 0 and _beats(sure, threat[pos], strict, rules):
                    sc = 60.0 + 20.0 * urg[pos] + (sure - threat[pos]) / 8.0   # the dam is held
                else:
                    kd1 = kd0 + 1
                    est = sure if sure >= 0 else poss - 24 * (n - kd1 - (th - 1))
                    sc = contested_score_nb(urg[pos], est, threat[pos])
            scores[k] = sc
            if sc > best:
                best = sc
    if MV_STEAL <= moves[n_moves - 1] < MV_DRAW_BATTLE:     # a tactic in hand (steals sort after the plays)
        for k in range(n_moves):
            if MV_STEAL <= moves[k] < MV_DRAW_BATTLE:
                scores[k] = defender_steal_score_nb(obs, moves[k], rules, data, ch, mh, th, threat, urg, acomp)
    return best_move_nb(scores, n_moves, sc_out)


@nb.njit(inline="always", **_JIT)
def contested_score_nb(urg, est, threat):
    """The defender's score of a play at a dam it does not yet hold: the urgency times its
    formation's margin over the threat (clamped to 64 either way), plus its strength / 8.
    One formula for the play's score and for the dam's bound (``defender_bound_nb``)."""
    m = est - threat
    if m > 64.0:
        m = 64.0
    if m < -64.0:
        m = -64.0
    return urg * m + est / 8.0


@nb.njit(inline="always", **_JIT)
def _beats(d, a, attacker_first, rules):
    """Does a defender key ``d`` beat an attacker key ``a``? Ties go to the side that
    completed first (``tie_rule`` first) or to the defender (defender). Under
    defender_complete a tie is read as under first: the attacker, complete first, claims
    by proof before a later tying completion lands (a heuristic's estimate: a completion
    made at once would hold the tie)."""
    if d > a:
        return True
    if d == a:
        return rules[R_TIE] == 1 or not attacker_first
    return False


@nb.njit(inline="always", **_JIT)
def _heuristic(phase, obs, moves, n_moves, rules, data, rng, sc_out, ws, fw):
    if obs[O_CUR] == 0:
        if phase == PH_DRAW:
            return draw_choice_nb(obs, obs[O_CUR], rules, data, ws, fw)
        return attacker_decide(phase, obs, moves, n_moves, rules, data, rng, sc_out, ws, fw)
    return defender_decide(phase, obs, moves, n_moves, rules, data, rng, sc_out, ws, fw)


# the workspaces at their largest (n_moves <= MAX_MOVES), on the stack (``simcore.rawarrays``)
WS_SIZE = WS_LEN + MAX_MOVES + N_TILES + 1
FWS_SIZE = FW_LEN + MAX_MOVES


@nb.njit(**_JIT)
def heuristic_scored(phase, obs, moves, n_moves, rules, data, rng, sc_out):
    """The heuristic's choice; in a play phase it also writes each move's score into
    ``sc_out[:n_moves]`` (when ``sc_out`` is that long; other phases leave it as is).
    The workspaces live on the stack and the arguments are read through borrowed views:
    no array the evaluation touches carries a reference count."""
    ws = stack_array_i64(WS_SIZE)
    fw = stack_array_f64(FWS_SIZE)
    return _heuristic(phase, raw_view(obs), raw_view(moves), n_moves, raw_view(rules), raw_view(data), rng, sc_out,
                      ws, fw)


@nb.njit(**_JIT)
def heuristic_decide(phase, obs, moves, n_moves, rules, data, rng):
    ws = stack_array_i64(WS_SIZE)
    fw = stack_array_f64(FWS_SIZE)
    return _heuristic(phase, raw_view(obs), raw_view(moves), n_moves, raw_view(rules), raw_view(data), rng, fw[0:0],
                      ws, fw)
