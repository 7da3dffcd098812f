"""The compiled Dice Throne engine: the rules as numba functions over the int64 state
vector ``S`` (layout in ``simcore.dicethrone.model``), written as a move-list state machine:

    phase, n = start_nb(S, seats, rules, tp, rng, moves)     # decks, opening hands, first player
    while phase != PH_DONE:
        k = <strategy>(phase, obs, moves, n, rules, data, srng)
        phase, n = apply_nb(S, phase, moves[k], rules, tp, rng, moves)

``T`` is the content tables (``model.build_tables``; the heroes per seat: ``T.lineup``);
the games hand the entry points its address table ``tp = borrow.table_ptrs(T)`` instead
(``T`` must stay alive meanwhile; either is accepted: ``tables_of``); ``moves`` (int64[MAX_MOVES]) receives the sorted legal
moves of the next decision (never fewer than two: single moves are applied at once).
The pure-Python twin is ``simcore.dicethrone.reference``; tests hold them to each other.
"""
from __future__ import annotations

import numba as nb
import numpy as np
from numba.core import types
from numba.extending import overload

from ..dice import KIND_LARGE_STRAIGHT, KIND_SMALL_STRAIGHT, KIND_SYMBOLS
from ..rng import below_nb
from .borrow import TP_W, copy_items, copy_span, table_ptrs_nb, tables_view_nb
from .model import W_MAIN as SW_MAIN, W_OWN_ROLL as SW_OWN_ROLL, W_ANY as SW_ANY, N_ATTACK_WINDOWS, ST_W_UPKEEP
from .model import EV_KNOCKED_OUT, OP_SET_HP, ST_W_ROLL_START, TC_GROUP, TC_GROWS, W_ROLL_START
from .model import (COND_DEALT, COND_HAS, COND_KIND, COND_NONE, COND_PIPS_GE, COND_PIPS_LE, COND_UNLESS, C_HALF,
                    O_PIPS, OF_CP, OF_PIPS, OF_TAKEN, OP_ROLL_SUM)
from .model import CW_AFTER, O_DISC_CARD, O_DISC_N, OP_DISCARD_RANDOM, ST_PAYDISC, ST_POSTWIN
from .model import (MAX_CHOOSE, MV_PICK, O_CHOOSE, O_CHOOSE_CTX, O_CHOOSE_N, O_CHOOSE_WHO, OF_GROUP, OP_BLOCK_STATUS,
                    OP_CHOOSE, OP_GROW, OP_GROW_ALL, P_BLOCK, PH_CHOOSE, R_GROW_NEW)
from .model import (AFTER, BS_CARD, BS_DEF, BS_PREDEF, BS_TIER, C_FLAG, O_BONUS_ROW, O_BONUS_SRC, O_PREDEF,
                    PRE_DEFENCE, Tables, MV_SPEND, O_WIN_USED, OP_PREVENT_HALF, OP_UNDEFENDABLE, P_ONCE, P_TNEW, SP_AT_LEAST, SP_CP,
                    SP_IF_HAS, SP_INFLICTS, SP_KINDS, SP_LEN, SP_MAX, SP_OLD, SP_ONCE, SP_REPEAT, SP_START, SP_TOK,
                    SP_UNLESS, SP_WHEN, ST_W_AFTER, ST_W_ATTACK_END, ST_W_ATTACKED, ST_W_ATTACKING, ST_W_DEFENDING, W_AFTER, W_ATTACKED, W_ATTACKING, W_NEXT,
                    W_STEP0, WINDOW_DEFENDER, MAX_MOVES, MAX_SYM, C_CAP, C_CARG, C_COND, COND_HELD, EV_ATTACKED, EV_DEFENDING, EV_INCOME, EV_ROLL_END,
                    EV_ROLL_START, EV_TURN_END, EV_UPKEEP, O_AVOID, O_NODEF, OF_EXTRA_ATT, OP_AVOID,
                    OP_FAIL_ATTACK, OP_SKIP, OP_SKIP_DEFENCE, P_HELD, P_SKIP, SK_ABILITY, SK_INCOME, SK_ROLL,
                    ST_ATTACKED, ST_DEFENDING, ST_ROLL_END, TK_NEG, C_ARG, C_IF, C_KIND, C_LEVEL, C_N, C_OF, C_OP, C_PER, C_SUB, C_TARGET, C_USES, CD_NONE, CD_OPP,
                    CD_OWN, CP_INSTANT, CP_MAIN, CP_ROLL, CW_ANY, CW_ATTACKED, CW_ATTACKING, K_COLLAT,
                    K_NORMAL, K_ULT, K_UNDEF, MAX_AB, MAX_CARDS, MAX_DECK, MAX_HAND, MAX_TOKENS, MAX_BUY, MV_ABILITY, MV_BUY, MV_DEFENCE, MV_DIE,
                    MV_PASS, MV_PLAY, MV_REROLL, MV_SELL, MV_TITHE_DRAW, MV_TITHE_REROLL, N_DICE,
                    NONE, O_AB, O_ACTIVE, O_ADICE, O_ATK_KIND, O_ATTEMPTS, O_CAPPED, O_COLLAT, O_CUR,
                    O_DDICE, O_DDN, O_DEF, O_DEFENDED, O_FIRST, O_INCOME_SKIP, O_MAX_ATT, O_OVER, O_PEND_ARG,
                    O_PEND_N, O_PEND_OP, O_PHASE, O_POOL, O_POOL_CARD, O_POOL_TOKEN, O_PROTECTED,
                    O_RET_STEP, O_ROLL_WHO, O_SEATS, O_NSEATS, O_TARGET, O_ORDER, O_ALIVE, P_TEAM, O_SPENT, O_STEP, O_STUNNED_ATK, O_TAKEN, O_TIER,
                    O_TURN, O_USED, O_BONUS_N, O_BDICE, O_WIN_PASSES, O_WIN_PRIO, O_WINNER, OF_NONE, OF_SPENT, OF_SYMBOL,
                    OP_ADD_DAMAGE, OP_BUY, OP_COPY_DIE, OP_CP, OP_DAMAGE, OP_DRAW, OP_EXTRA_ATTEMPT, OP_GAIN, OP_HEAL,
                    OP_INFLICT, OP_MOVE_DIE, OP_PREVENT, OP_RAISE_LIMIT, OP_REMOVE, OP_REROLL, OP_ROLL,
                    OP_SET_DIE, OP_SPEND, OP_TRANSFER, OP_UPGRADE, ROLL_BY_FACE, P_ATTACKS, P_CARDS, P_CP, P_DECK, P_DECK_N,
                    P_CUSE, P_DISC, P_DISC_N, P_DLVL, P_DMG, P_HAND, P_HAND_N, P_HERO, P_HP, P_LEN, P_LIM,
                    P_LVL, P_PLVL, P_PREVENT, P_SOLD, P_SPENDS, P_TOK, P_TUSE, P_USES, PH_ABILITY, PH_DEFENCE, PH_DIE, PH_DISCARD,
                    PH_BONUS, PH_BUY, PH_DONE, PH_MAIN, PH_ROLL, PH_TOKEN, PH_WINDOW, R_ATTEMPTS, R_BLESS_ULT,
                    R_CP_CAP, R_CRIT_THRESHOLD, R_DECAY_FIRST, R_FIRST, R_HAND_LIMIT, R_HP_ABOVE,
                    R_INCOME_CARDS, R_INCOME_CP, R_KO_DRAW, R_MAX_TURNS, R_MAY_SKIP, R_RESHUFFLE, R_SELL_CP, R_UP_DIFF,
                    R_SKIP_INCOME, R_START_CP, R_START_HAND, R_START_HP, R_STUN_EXTRA, S_LEN, R_MODE, R_TEAM_HP, R_TEAM_ORDER,
                    SRC_ABILITY, SRC_CARD, SRC_STATUS, SRC_TOKEN, ST_ABILITY, ST_ACCURACY, ST_AFTER,
                    ST_ATKWIN, ST_BONUS, ST_DEFROLL, ST_DIE, ST_DISCARD, ST_END, ST_INCOME, ST_KNOCK,
                    ST_LAND, ST_MAIN1, ST_MAIN2, ST_PREWIN, ST_RESOLVE, ST_ROLL,
                    ST_ROLL_START, ST_UPKEEP, T_CHOSEN, T_MATE, T_SELF, U_STUN)
from .model import (MAX_SEATS, M_FFA0, O_SEEHANDS, O_TTAB, P_OUT, R_TEAM_HANDS, P_PLACE, R_FFA_FREE, R_FFA_HP, R_KOTH, R_TFACES3, R_TFACESF, R_TFACESM,
                    TF_MIDDLE, TF_PICK_LR, TF_THEIR)
from .model import (MV_PICK, MV_TARGET, O_EVTOK, O_TDIE, P_TSRC, R_COLL_PER, R_COLL_TGT, PH_TARGET, R_TDIE_CARDS, R_TFACES2, ST_TARGET, ST_TREAD, ST_TWIN,
                    TF_LEFT, TF_PICK, TF_RIGHT)
from .model import C_MITIG, O_CVIC, O_HALF, O_PICKED, R_COLL_PREV, SP_MITIG, ST_COLLWIN, T_TWO

_JIT = dict(cache=True, nogil=True, error_model="numpy")
# the effect resolvers (run_nb, outcome_nb, effect_nb) are called with the constants below
# wrapped in I64: a bare constant is typed Literal and numba compiled one copy of the
# three functions per combination of constants (4 of each: ~40 s of a cold compile)
I64 = np.int64
CTX_ABILITY, CTX_DEFENCE, CTX_CARD, CTX_UPKEEP, CTX_TOKEN = 0, 1, 2, 3, 4   # CTX_UPKEEP: token events too
                                                                         # CTX_TOKEN: a token spent by decision
NO_MOVE = -1         # apply_nb's move when there is none to apply (start_nb)
W_MAIN, W_ROLL, W_WINDOW, W_POST = 0, 1, 2, 3   # W_POST: ST_POSTWIN (after_damage cards)


@nb.njit(inline="always", **_JIT)
def base(p):
    return O_SEATS + p * P_LEN


@nb.njit(inline="always", **_JIT)
def team_nb(S, p):
    return S[base(p) + P_TEAM]


@nb.njit(inline="always", **_JIT)
def in_game_nb(S, p):
    """Whether seat ``p``'s team is still in the game."""
    return (S[O_ALIVE] >> S[base(p) + P_TEAM]) & 1 != 0


@nb.njit(inline="always", **_JIT)
def order_index_nb(S, p):
    """Seat ``p``'s place in the turn order (``O_ORDER``)."""
    i = 0
    for j in range(S[O_NSEATS]):
        if S[O_ORDER + j] == p:
            i = j
    return i


@nb.njit(inline="always", **_JIT)
def next_seat_nb(S, p):
    """The next seat after ``p`` in turn order whose team is still in the game (1v1: the
    other seat)."""
    n = S[O_NSEATS]
    if n == 2:        # 1v1 (the loop below gives the same seat; this is the hot path of every window)
        return 1 - p
    i = order_index_nb(S, p)
    for k in range(1, n):
        q = S[O_ORDER + (i + k) % n]
        if in_game_nb(S, q):
            return q
    return p


@nb.njit(inline="always", **_JIT)
def first_opponent_nb(S, p):
    """The nearest seat after ``p`` in turn order on another team still in the game: "the
    opponent on your left" (modes/DESIGN.md 1.7); -1 if there is none."""
    n = S[O_NSEATS]
    i = order_index_nb(S, p)
    for k in range(1, n):
        q = S[O_ORDER + (i + k) % n]
        if in_game_nb(S, q) and team_nb(S, q) != team_nb(S, p):
            return q
    return -1


@nb.njit(inline="always", **_JIT)
def side_opponent_nb(S, p, step):
    """The nearest seat to ``p`` in seat order on another team still in the game: ``step``
    1 the opponent on ``p``'s left (seats after it), -1 on its right (seats before it)
    (modes/DESIGN.md 1.7); -1 if there is none."""
    n = S[O_NSEATS]
    for k in range(1, n):
        q = (p + step * k) % n
        if in_game_nb(S, q) and team_nb(S, q) != team_nb(S, p):
            return q
    return -1


@nb.njit(inline="always", **_JIT)
def opponents_in_game_nb(S, p):
    """How many seats of other teams than ``p``'s are still in the game."""
    c = 0
    for q in range(S[O_NSEATS]):
        if in_game_nb(S, q) and team_nb(S, q) != team_nb(S, p):
            c += 1
    return c


@nb.njit(inline="always", **_JIT)
def target_moves_nb(S, chooser, moves):
    """The PH_TARGET list of ``chooser`` (``MV_TARGET + seat``, in seat order from its left):
    the active player picks among the living opponents; a defender (their_pick) among the
    living members of its own team."""
    n = S[O_NSEATS]
    a = S[O_ACTIVE]
    k = 0
    for i in range(1, n + 1):
        q = (chooser + i) % n
        if not in_game_nb(S, q):
            continue
        if (team_nb(S, q) != team_nb(S, a)) if chooser == a else (team_nb(S, q) == team_nb(S, chooser)):
            moves[k] = MV_TARGET + q
            k += 1
    return k


@nb.njit(inline="always", **_JIT)
def nth_opponent_nb(S, p, j):
    """The ``j``-th living opponent of ``p`` in seat order from its left (0: the left one)."""
    n = S[O_NSEATS]
    for i in range(1, n):
        q = (p + i) % n
        if in_game_nb(S, q) and team_nb(S, q) != team_nb(S, p):
            if j == 0:
                return q
            j -= 1
    return -1


@nb.njit(inline="always", **_JIT)
def face_table_nb(S, rules, k):
    """The rules-vector offset of the face table for ``k`` living opponents (k >= 2):
    free-for-all's (target_faces_ffa), else two (target_faces_2), three (target_faces_3),
    four or more (target_faces_multi)."""
    if rules[R_MODE] >= M_FFA0:
        return R_TFACESF
    return R_TFACES2 if k == 2 else R_TFACES3 if k == 3 else R_TFACESM


@nb.njit(inline="always", **_JIT)
def aim_nb(S, q, rules, rng):
    """The attack goes to seat ``q``; in free-for-all under koth_leader_card, a target among
    the leaders (the living seats of the most health) draws the attacker a card first ([V],
    [Z] 9.2); then on to Accuracy (ST_RESOLVE for a tier without attack damage)."""
    S[O_TARGET] = q
    S[O_ROLL_WHO] = 0
    if rules[R_MODE] >= M_FFA0 and rules[R_KOTH] != 0:
        top = -1000000
        for p in range(S[O_NSEATS]):
            if in_game_nb(S, p) and S[base(p) + P_HP] > top:
                top = S[base(p) + P_HP]
        if S[base(q) + P_HP] == top:
            draw_nb(S, S[O_ACTIVE], rules, rng)
    S[O_STEP] = ST_RESOLVE if S[O_ATK_KIND] < 0 else ST_ACCURACY


@nb.njit(inline="always", **_JIT)
def status_source_nb(S, holder, opp):
    """The seat credited with the damage a token event deals its ``holder``: with several
    seats, the seat that last gave it the token whose event runs (``P_TSRC``, ``O_EVTOK``),
    if another seat did; otherwise (1v1, a passive's upkeep, a token it gained itself)
    ``opp``, "the opponent" (1v1: the one opponent, the records as before)."""
    if S[O_NSEATS] > 2 and S[O_EVTOK] > 0:
        s = S[base(holder) + P_TSRC + S[O_EVTOK] - 1] - 1
        if s >= 0 and s != holder:
            return s
    return opp


@nb.njit(inline="always", **_JIT)
def opponent_nb(S, p):
    """"The opponent" of seat ``p``'s effects: the active player's target for the active
    player, the active player for everyone else (a defence, a token spent when attacked)."""
    return S[O_TARGET] if p == S[O_ACTIVE] else S[O_ACTIVE]


@nb.njit(inline="always", **_JIT)
def seats_in_game_nb(S):
    if S[O_NSEATS] == 2:      # 1v1: both seats, while the game goes on
        return 2
    c = 0
    for p in range(S[O_NSEATS]):
        if in_game_nb(S, p):
            c += 1
    return c


@nb.njit(inline="always", **_JIT)
def start_hp_nb(rules):
    """A team's (1v1 and free-for-all: a seat's) starting health."""
    m = rules[R_MODE]
    return rules[R_START_HP] if m == 0 else rules[R_FFA_HP] if m >= M_FFA0 else rules[R_TEAM_HP]


@nb.njit(inline="always", **_JIT)
def mode_teams_nb(m):
    """The teams of mode ``m`` (``model.MODES`` order; ``model.MODE_TEAMS``)."""
    return 2 if m <= 2 else 3 if m == 3 else m - M_FFA0 + 3


@nb.njit(inline="always", **_JIT)
def set_hp_nb(S, p, v):
    """Seat ``p``'s team's health is ``v``: a team's pool is every member's ``P_HP``, kept
    equal (1v1: the seat's own)."""
    if S[O_NSEATS] == 2:      # 1v1: a seat is its own team
        S[base(p) + P_HP] = v
        return
    tm = S[base(p) + P_TEAM]
    for q in range(S[O_NSEATS]):
        if S[base(q) + P_TEAM] == tm:
            S[base(q) + P_HP] = v


@nb.njit(inline="always", **_JIT)
def shuffle_nb(S, off, n, rng):
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, i + 1)
        t = S[off + i]
        S[off + i] = S[off + j]
        S[off + j] = t


@nb.njit(inline="always", **_JIT)
def has_nb(S, p, use, use_tok):
    t = use_tok[use]
    return t >= 0 and S[base(p) + P_TOK + t] > 0


@nb.njit(inline="always", **_JIT)
def bound_nb(S):
    """The engine's own bound binds (a draw into a full hand of ``MAX_HAND`` cards, a 21st
    Stun phase in one turn): the game ends there, capped, as at the turn cap (RULES.md,
    "Where the engine bounds what the rules leave open"); the reference's ``bound``."""
    S[O_OVER] = 1
    S[O_CAPPED] = 1
    S[O_WINNER] = -1


@nb.njit(inline="always", **_JIT)
def draw_nb(S, p, rules, rng):
    b = base(p)
    if S[b + P_HAND_N] >= MAX_HAND:
        bound_nb(S)
        return
    if S[b + P_DECK_N] == 0:
        if rules[R_RESHUFFLE] == 0 or S[b + P_DISC_N] == 0:
            return
        n = S[b + P_DISC_N]
        for i in range(n):
            S[b + P_DECK + i] = S[b + P_DISC + i]
            S[b + P_DISC + i] = NONE
        S[b + P_DECK_N] = n
        S[b + P_DISC_N] = 0
        shuffle_nb(S, b + P_DECK, n, rng)
    n = S[b + P_DECK_N] - 1
    c = S[b + P_DECK + n]
    S[b + P_DECK + n] = NONE
    S[b + P_DECK_N] = n
    h = S[b + P_HAND_N]
    S[b + P_HAND + h] = c
    S[b + P_HAND_N] = h + 1


@nb.njit(inline="always", **_JIT)
def take_from_hand_nb(S, p, h):
    b = base(p)
    n = S[b + P_HAND_N]
    c = S[b + P_HAND + h]
    for i in range(h, n - 1):
        S[b + P_HAND + i] = S[b + P_HAND + i + 1]
    S[b + P_HAND + n - 1] = NONE
    S[b + P_HAND_N] = n - 1
    d = S[b + P_DISC_N]
    S[b + P_DISC + d] = c
    S[b + P_DISC_N] = d + 1
    return c


@nb.njit(inline="always", **_JIT)
def gain_cp_nb(S, p, n, rules):
    b = base(p)
    v = S[b + P_CP] + n
    if v > rules[R_CP_CAP]:
        v = rules[R_CP_CAP]
    if v < 0:
        v = 0
    S[b + P_CP] = v


@nb.njit(inline="always", **_JIT)
def hurt_nb(S, p, amount, ult, rules, tp):
    """Seat ``p`` takes ``amount``; at 0 health or less its tokens' knocked_out events run
    (Blessing of Divinity; an ultimate's damage only under blessing_vs_ultimate)."""
    if amount <= 0:
        return
    b = base(p)
    set_hp_nb(S, p, S[b + P_HP] - amount)     # the team's pool (1v1: its own)
    if S[b + P_HP] <= 0 and (not ult or rules[R_BLESS_ULT] != 0):
        ko_events_nb(S, p, rules, tp)


@nb.njit(**_JIT)
def ko_events_nb(S, p, rules, tp):
    """The knocked_out events of seat ``p`` (at 0 health or less), in token order, each token
    held while its health is still 0 or less: a small interpreter of the ops the loader
    allows there (``model.KO_OPS``: remove, set_hp, heal, gain; amounts C_N, tokens by id),
    so ``hurt_nb`` (inside the effect resolvers) never calls ``run_nb``. Each event run
    counts one spend and one use of its token (as the Blessing branch did before plan step 5).
    Not inlined (it runs only when a seat drops to 0), and it takes the tables' address
    table: three tables passed by value at each of ``hurt_nb``'s inlined sites cost ~3% of a
    game's time in a side-by-side run. The reference's ``Game.ko_events``."""
    T = tables_view_nb(tp)
    E = T.eff
    b = base(p)
    for t in range(T.n_tok):
        if S[b + P_HP] > 0:
            break
        ln = T.tok_ev_len[t, EV_KNOCKED_OUT]
        if ln == 0 or S[b + P_TOK + t] <= 0:
            continue
        S[b + P_SPENDS] += 1
        S[b + P_TUSE + t] += 1
        r0 = T.tok_ev_start[t, EV_KNOCKED_OUT]
        for row in range(r0, r0 + ln):
            op = E[row, C_OP]
            n = E[row, C_N]
            if op == OP_SET_HP:
                set_hp_nb(S, p, n)               # the team's pool (modes/DESIGN.md 1.6.4)
            elif op == OP_HEAL:
                v = S[b + P_HP] + n
                cap = start_hp_nb(rules) + rules[R_HP_ABOVE]
                set_hp_nb(S, p, v if v < cap else cap)
            elif op == OP_REMOVE:
                u = E[row, C_ARG]
                v = S[b + P_TOK + u] - n
                S[b + P_TOK + u] = v if v > 0 else 0
            elif op == OP_GAIN:
                u = E[row, C_ARG]
                v = S[b + P_TOK + u] + n
                lim = S[b + P_LIM + u]
                v = v if v < lim else lim
                if v > S[b + P_TOK + u]:
                    S[b + P_TNEW + u] += v - S[b + P_TOK + u]
                S[b + P_TOK + u] = v


@nb.njit(inline="always", **_JIT)
def knocked_out_nb(S, rules):
    """Whether the step under way stops: the teams at 0 health go out (1v1: a seat is its own
    team), sharing the place after the teams still in (``P_PLACE``, ``P_OUT``); with one team
    left it wins (``O_WINNER``; 1v1: the seat), with none the ones out at once draw (or the
    active player's team wins under ``simultaneous_ko_draw = false``). With two or more teams
    left the game goes on; if the active seat's team went out its turn ends (``ST_END``).
    True: the game is over or the turn ended (the caller goes back to the step loop)."""
    if S[O_CAPPED] != 0:    # ended by a bound (bound_nb): it stays capped
        return True
    down = 0
    for p in range(S[O_NSEATS]):
        if S[base(p) + P_HP] <= 0:
            down |= 1 << S[base(p) + P_TEAM]
    down &= S[O_ALIVE]
    if down == 0:
        return False
    # the teams out now share a place: after the ones still in (modes/DESIGN.md 1.6)
    before = 0
    out = 0
    for k in range(MAX_SEATS):
        before += (S[O_ALIVE] >> k) & 1
        out += (down >> k) & 1
    left = S[O_ALIVE] & ~down
    S[O_ALIVE] = left
    for p in range(S[O_NSEATS]):
        if (down >> team_nb(S, p)) & 1:
            S[base(p) + P_PLACE] = before - out + 1
            S[base(p) + P_OUT] = S[O_TURN] + 1
    if left == 0:          # every team still in went out at once: a draw among them
        S[O_OVER] = 1
        S[O_WINNER] = -1 if rules[R_KO_DRAW] != 0 else team_nb(S, S[O_ACTIVE])
        if rules[R_KO_DRAW] == 0:
            for p in range(S[O_NSEATS]):
                if team_nb(S, p) != S[O_WINNER]:
                    S[base(p) + P_PLACE] = 2
        return True
    if left & (left - 1) == 0:     # one team left: it wins
        S[O_OVER] = 1
        w = 0
        while not (left >> w) & 1:
            w += 1
        S[O_WINNER] = w
        return True
    # the game goes on without them; the active seat's team out: its turn ends
    if not in_game_nb(S, S[O_ACTIVE]):
        S[O_STEP] = ST_END
        return True
    return False


@nb.njit(inline="always", **_JIT)
def group_count_nb(S, b, g, tok, n_tok):
    """The tokens of group ``g`` that the seat at ``b`` holds (of = "group:G")."""
    c = 0
    for t in range(n_tok):
        if tok[t, TC_GROUP] == g:
            c += S[b + P_TOK + t]
    return c


@nb.njit(inline="always", **_JIT)
def rung_nb(tok, root, i):
    """Rung ``i`` of the ladder starting at token ``root`` (following grows_into)."""
    t = root
    for _ in range(i):
        t = tok[t, TC_GROWS]
    return t


@nb.njit(inline="always", **_JIT)
def ladder_len_nb(tok, root):
    n = 0
    t = root
    while t >= 0:
        n += 1
        t = tok[t, TC_GROWS]
    return n


@nb.njit(inline="always", **_JIT)
def grow_nb(S, b, root, prefer_new, tok):
    """One grow of the ladder from ``root`` for the seat at ``b`` (VOCABULARY.md 5.11):
    under grow_prefers "upgrade" the highest held token whose next rung has room becomes
    that next rung, else a root token is gained; under "new" the root first while below
    its limit. A grow that fits nowhere is lost. The reference's ``Game.grow``."""
    if prefer_new != 0 and S[b + P_TOK + root] < S[b + P_LIM + root]:
        S[b + P_TOK + root] += 1
        S[b + P_TNEW + root] += 1
        return
    for i in range(ladder_len_nb(tok, root) - 2, -1, -1):
        t = rung_nb(tok, root, i)
        u = tok[t, TC_GROWS]
        if S[b + P_TOK + t] > 0 and S[b + P_TOK + u] < S[b + P_LIM + u]:
            S[b + P_TOK + t] -= 1
            S[b + P_TOK + u] += 1
            S[b + P_TNEW + u] += 1
            return
    if S[b + P_TOK + root] < S[b + P_LIM + root]:
        S[b + P_TOK + root] += 1
        S[b + P_TNEW + root] += 1


@nb.njit(inline="always", **_JIT)
def grow_all_nb(S, b, root, tok):
    """grow_all: every token of the ladder held when it starts grows once, the highest rung
    first (a rung's count when its turn comes is still its count at the start: only the
    rung below, done later, feeds it)."""
    for i in range(ladder_len_nb(tok, root) - 2, -1, -1):
        t = rung_nb(tok, root, i)
        u = tok[t, TC_GROWS]
        for _ in range(S[b + P_TOK + t]):
            if S[b + P_TOK + u] >= S[b + P_LIM + u]:
                break
            S[b + P_TOK + t] -= 1
            S[b + P_TOK + u] += 1
            S[b + P_TNEW + u] += 1


@nb.njit(inline="always", **_JIT)
def amount_nb(S, row, owner, doff, nd, E, face_sym, tok, n_tok):
    n = E[row, C_N]
    of = E[row, C_OF]
    if of >= OF_GROUP:
        n += E[row, C_PER] * group_count_nb(S, base(owner), of - OF_GROUP, tok, n_tok)
    elif of == OF_SPENT:
        n += E[row, C_PER] * S[O_SPENT]
    elif of == OF_EXTRA_ATT:
        n += E[row, C_PER] * (S[O_ATTEMPTS] - 1)
    elif of == OF_PIPS:
        n += E[row, C_PER] * S[O_PIPS]
    elif of == OF_CP:
        n += E[row, C_PER] * S[base(owner) + P_CP]
    elif of == OF_TAKEN:
        n += E[row, C_PER] * S[O_TAKEN]
    elif of >= OF_SYMBOL:
        if nd > 0:
            h = S[base(owner) + P_HERO]
            sym = of - OF_SYMBOL
            c = 0
            for i in range(nd):
                if face_sym[h, S[doff + i]] == sym:
                    c += 1
            n += E[row, C_PER] * c
    elif of != OF_NONE:
        n += E[row, C_PER] * S[base(owner) + P_TOK + of]
    if E[row, C_HALF] == 1:
        n = (n + 1) // 2
    elif E[row, C_HALF] == 2:
        n = n // 2
    cap = E[row, C_CAP]
    if cap >= 0 and n > cap:
        n = cap
    return n


@nb.njit(inline="always", **_JIT)
def add_tokens_nb(S, tgt, owner, t, amt):
    """Seat ``tgt`` gains ``amt`` of token t up to its limit (new ones counted in ``P_TNEW``;
    given by another seat: that seat recorded in ``P_TSRC``)."""
    bt = base(tgt)
    v = S[bt + P_TOK + t] + amt
    lim = S[bt + P_LIM + t]
    v = v if v < lim else lim
    if v > S[bt + P_TOK + t]:
        S[bt + P_TNEW + t] += v - S[bt + P_TOK + t]
        if tgt != owner:
            S[bt + P_TSRC + t] = owner + 1
    S[bt + P_TOK + t] = v


@nb.njit(inline="always", **_JIT)
def chosen_seat_nb(S, tc, owner, j):
    """Whether the seat ``j`` places after ``owner`` in seat order (0: the owner) may take a
    "chosen" effect of ``owner`` (``T_CHOSEN``: the owner's team, the owner included) or a
    "teammate" one (``T_MATE``: the owner's teammates); the seat, or -1."""
    ns = S[O_NSEATS]
    q = owner + j
    if q >= ns:
        q -= ns
    if S[base(q) + P_TEAM] == S[base(owner) + P_TEAM] and (tc == T_CHOSEN or tc == T_TWO or q != owner):
        return q
    return -1


@nb.njit(inline="always", **_JIT)
def chosen_seats_nb(S, tc, owner, moves):
    """The seats a chosen-player effect of ``owner`` may go to (``chosen_seat_nb``), in seat
    order from the owner, as ``MV_TARGET + seat`` in ``moves``; returns their count."""
    n = 0
    for j in range(S[O_NSEATS]):
        q = chosen_seat_nb(S, tc, owner, j)
        if q >= 0 and not (tc == T_TWO and (S[O_PICKED] >> q) & 1):   # two_chosen: two distinct seats
            moves[n] = MV_TARGET + q
            n += 1
    return n


@nb.njit(inline="always", **_JIT)
def push_choice_nb(S, row, owner, ctx):
    """Queue effect row ``row`` (a choose, or a chosen player's gain) for its owner's pick
    when the list is done (at most ``MAX_CHOOSE`` wait)."""
    k = S[O_CHOOSE_N]
    if k < MAX_CHOOSE:
        S[O_CHOOSE + k] = row
        S[O_CHOOSE_N] = k + 1
        S[O_CHOOSE_WHO] = owner
        S[O_CHOOSE_CTX] = ctx


@nb.njit(inline="always", **_JIT)
def chosen_nb(S, row, tc, owner, ctx):
    """The seat a chosen-player effect (row ``row``) goes to now: its one candidate, or -1
    when it has none (``teammate`` without a teammate) or several: then the row is queued
    (``O_CHOOSE``, as a choose) and its owner picks when the list is done (``PH_TARGET``)."""
    n = 0
    one = -1
    for j in range(S[O_NSEATS]):
        q = chosen_seat_nb(S, tc, owner, j)
        if q >= 0:
            n += 1
            one = q
    if n <= 1:
        return one
    push_choice_nb(S, row, owner, ctx)
    return -1


@nb.njit(**_JIT)
def two_chosen_nb(S, row, owner, ctx, t, amt):
    """A "two_chosen" gain of ``owner`` (Harvest!'s "up to two chosen players gain X"): with at
    most two candidates (its team: itself, its teammates) each gains at once, in seat order
    from the owner; with more (3v3), two picks queue (``PH_TARGET``), the second among the
    seats the first did not take (``O_PICKED``). The reference's ``Game.run``, target
    two_chosen."""
    n = 0
    for j in range(S[O_NSEATS]):
        if chosen_seat_nb(S, I64(T_TWO), owner, j) >= 0:
            n += 1
    if n <= 2:
        for j in range(S[O_NSEATS]):
            q = chosen_seat_nb(S, I64(T_TWO), owner, j)
            if q >= 0:
                add_tokens_nb(S, q, owner, t, amt)
        return
    push_choice_nb(S, row, owner, ctx)
    push_choice_nb(S, row, owner, ctx)


@nb.njit(**_JIT)
def effect_nb(S, row, ctx, owner, doff, nd, rules, tp, rng):
    """One effect (not a bonus roll) of table row ``row``. The effect resolvers take the
    tables' address table ``tp`` and view the few tables they read (handing them six
    tables cost ~60 words of array descriptors copied per call)."""
    T = tables_view_nb(tp)
    E, face_sym, tok, n_tok = T.eff, T.face_sym, T.tok, T.n_tok
    op = E[row, C_OP]
    opp = opponent_nb(S, owner)
    amt = amount_nb(S, row, owner, doff, nd, E, face_sym, tok, n_tok)
    tc = E[row, C_TARGET]
    tgt = owner if tc == T_SELF else opp
    if tc == T_TWO:        # up to two chosen players of the owner's team (a gain): two_chosen_nb
        two_chosen_nb(S, row, owner, ctx, E[row, C_ARG], amt)
        return
    if tc == T_CHOSEN or tc == T_MATE:      # a chosen player of the owner's team (a gain)
        tgt = chosen_nb(S, row, tc, owner, ctx)
        if tgt < 0:           # none ("teammate" in 1v1), or several: queued for a pick
            return
    bt = base(tgt)
    if op == OP_DAMAGE:
        self_ = E[row, C_TARGET] == T_SELF
        if not self_ and ctx == CTX_ABILITY:      # the attack's: it waits in the pool
            if E[row, C_KIND] == K_COLLAT:
                S[O_COLLAT] += amt
            else:
                S[O_POOL] += amt
        else:             # it lands at once (one hurt_nb site: it is inlined, with its knocked_out call)
            hurt_nb(S, owner if self_ else opp, amt, False, rules, tp)
            if amt > 0:
                if not self_:
                    S[base(owner) + P_DMG + (SRC_TOKEN if ctx == CTX_TOKEN else SRC_CARD if ctx == CTX_CARD
                                             else SRC_ABILITY)] += amt
                elif ctx == CTX_UPKEEP:
                    S[base(status_source_nb(S, owner, opp)) + P_DMG + SRC_STATUS] += amt
    elif op == OP_ADD_DAMAGE:
        if ctx == CTX_UPKEEP or ctx == CTX_TOKEN:    # a token's event or spend: token damage
            S[O_POOL_TOKEN] += amt
        else:
            S[O_POOL_CARD] += amt
    elif op == OP_HEAL:
        v = S[bt + P_HP] + amt
        cap = start_hp_nb(rules) + rules[R_HP_ABOVE]
        set_hp_nb(S, tgt, v if v < cap else cap)
    elif op == OP_CP:
        gain_cp_nb(S, tgt, amt, rules)
    elif op == OP_DRAW:
        for _ in range(amt):
            draw_nb(S, tgt, rules, rng)
    elif op == OP_GAIN or op == OP_INFLICT:
        t = E[row, C_ARG]
        if (op == OP_INFLICT and S[bt + P_BLOCK] > 0 and amt > 0 and tok[t, 0] == TK_NEG and S[O_ATK_KIND] >= 0
                and S[O_ATK_KIND] != K_ULT):       # block_status: the next statuses of this attack
            k = amt if amt < S[bt + P_BLOCK] else S[bt + P_BLOCK]
            S[bt + P_BLOCK] -= k
            amt -= k
        add_tokens_nb(S, tgt, owner, t, amt)
    elif op == OP_REMOVE:
        t = E[row, C_ARG]
        if t == -2:
            for _ in range(E[row, C_N]):
                for u in range(n_tok):
                    if tok[u, 0] == TK_NEG and S[bt + P_TOK + u] > 0:
                        S[bt + P_TOK + u] -= 1
                        break
        else:
            v = S[bt + P_TOK + t] - E[row, C_N]
            S[bt + P_TOK + t] = v if v > 0 else 0
    elif op == OP_SPEND and E[row, C_LEVEL] == 1:     # a group's tokens, the lowest rung first
        bo = base(owner)
        t = E[row, C_ARG]
        left = E[row, C_N]
        while t >= 0 and left > 0:
            k = S[bo + P_TOK + t] if S[bo + P_TOK + t] < left else left
            if k > 0:
                S[bo + P_TOK + t] -= k
                S[bo + P_TUSE + t] += 1
                left -= k
            t = tok[t, TC_GROWS]
        S[O_SPENT] = E[row, C_N] - left
    elif op == OP_SPEND:
        t = E[row, C_ARG]
        bo = base(owner)
        k = S[bo + P_TOK + t]
        if k > E[row, C_N]:
            k = E[row, C_N]
        S[bo + P_TOK + t] -= k
        S[O_SPENT] = k
        if k > 0:
            S[bo + P_TUSE + t] += 1
    elif op == OP_RAISE_LIMIT:
        S[base(owner) + P_LIM + E[row, C_ARG]] += E[row, C_N]
    elif op == OP_PREVENT:
        S[base(owner) + P_PREVENT] += amt
    elif op == OP_DISCARD_RANDOM:
        # the target discards amt cards at random (one below(hand) draw each), no CP
        for _ in range(amt):
            hn = S[bt + P_HAND_N]
            if hn <= 0:
                break
            take_from_hand_nb(S, tgt, below_nb(rng, hn))
    elif op == OP_ROLL_SUM:
        # roll N dice in die order (kept in O_BDICE); their face-number sum is O_PIPS
        tot = 0
        for i in range(E[row, C_N]):
            f = below_nb(rng, 6)
            S[O_BDICE + i] = f
            tot += f + 1
        S[O_PIPS] = tot
    elif op == OP_EXTRA_ATTEMPT:
        v = S[O_MAX_ATT] + amt     # fewer attempts (an event's -N): never below 1
        S[O_MAX_ATT] = v if v > 1 else 1
    elif op == OP_SKIP:
        S[base(owner) + P_SKIP] |= SK_INCOME if E[row, C_N] == 0 else SK_ROLL
    elif op == OP_FAIL_ATTACK:
        S[base(owner) + P_SKIP] |= SK_ABILITY
    elif op == OP_SKIP_DEFENCE:
        S[O_NODEF] = 1
    elif op == OP_AVOID:
        if S[O_ATK_KIND] != K_ULT:
            S[O_AVOID] = 1
    elif op == OP_PREVENT_HALF:
        if S[O_CVIC] > 0:        # spent in the collateral window: the holder's collateral portion
            S[O_HALF] |= 1 << owner
        else:
            S[O_PROTECTED] = 1
    elif op == OP_UNDEFENDABLE:
        if S[O_ATK_KIND] == K_NORMAL:
            S[O_ATK_KIND] = K_UNDEF
    elif op == OP_BLOCK_STATUS:
        if S[O_ATK_KIND] != K_ULT:
            S[base(owner) + P_BLOCK] += amt
    elif op == OP_CHOOSE:          # queued: its owner picks when the list is done (PH_CHOOSE)
        push_choice_nb(S, row, owner, ctx)
    elif op == OP_GROW:
        for _ in range(amt):
            grow_nb(S, base(owner), E[row, C_ARG], rules[R_GROW_NEW], tok)
    elif op == OP_GROW_ALL:
        grow_all_nb(S, base(owner), E[row, C_ARG], tok)
    elif op == OP_UPGRADE:
        o = base(owner) + P_LVL + E[row, C_ARG]
        if S[o] < E[row, C_LEVEL]:
            S[o] = E[row, C_LEVEL]
    elif op == OP_TRANSFER:
        t = E[row, C_ARG]
        bo = base(owner)
        bp = base(opp)
        for _ in range(E[row, C_N]):
            u = -1
            if t == -2:
                for w in range(n_tok):
                    if tok[w, 0] == TK_NEG and S[bo + P_TOK + w] > 0:
                        u = w
                        break
            elif S[bo + P_TOK + t] > 0:
                u = t
            if u < 0:
                break
            S[bo + P_TOK + u] -= 1
            v = S[bp + P_TOK + u] + 1
            if v <= S[bp + P_LIM + u]:
                S[bp + P_TOK + u] = v
                S[bp + P_TNEW + u] += 1
                S[bp + P_TSRC + u] = owner + 1
    elif op == OP_SET_DIE or op == OP_MOVE_DIE or op == OP_REROLL or op == OP_COPY_DIE or op == OP_BUY:
        S[O_PEND_OP] = op
        S[O_PEND_ARG] = E[row, C_ARG]
        S[O_PEND_N] = E[row, C_N]


@nb.njit(inline="always", **_JIT)
def cond_nb(S, row, owner, doff, nd, E, fs, tok, n_tok):
    """An effect's conditions: if_roll (the roll it answers to shows at least these
    symbol counts) and if_uses (the activated tier needs that symbol)."""
    need = E[row, C_IF]
    if need != 0:
        h = S[base(owner) + P_HERO]
        for s in range(6):
            want = (need >> (3 * s)) & 7
            if want > 0:
                c = 0
                for i in range(nd):
                    if fs[h, S[doff + i]] == s:
                        c += 1
                if c < want:
                    return False
    u = E[row, C_USES]
    if u != 0 and ((S[O_USED] >> (u - 1)) & 1) == 0:
        return False
    c = E[row, C_COND]
    if c == COND_NONE:
        return True
    if c == COND_HAS:
        return holds_token_nb(S, base(owner), E[row, C_CARG], n_tok, tok)
    if c == COND_UNLESS:
        return not holds_token_nb(S, base(owner), E[row, C_CARG], n_tok, tok)
    return cond2_nb(S, c, E[row, C_CARG], owner, doff, nd)


@nb.njit(inline="always", **_JIT)
def cond2_nb(S, c, k, owner, doff, nd):
    """An effect's one condition C_COND = ``c`` with argument ``k`` (season1/VOCABULARY.md 6;
    the twin: ``reference.Game.condition``), but if_has/unless_has (``cond_nb``)."""
    b = base(owner)
    if c == COND_HELD:
        return ((S[b + P_HELD] >> k) & 1) != 0
    if c == COND_KIND:          # N dice of one face number
        for f in range(6):
            m = 0
            for i in range(nd):
                if S[doff + i] == f:
                    m += 1
            if m >= k:
                return True
        return False
    if c == COND_PIPS_GE:
        return S[O_PIPS] >= k
    if c == COND_PIPS_LE:
        return S[O_PIPS] <= k
    if c == COND_DEALT:
        return S[O_TAKEN] >= k
    return S[O_SPENT] >= k      # COND_SPENT


@nb.njit(**_JIT)
def outcome_nb(S, row, f, ctx, owner, doff, nd, rules, tp, rng):
    """The outcome of one bonus die showing face ``f`` of the roll effect in row ``row``."""
    T = tables_view_nb(tp)
    E, out_start, out_len, fs = T.eff, T.out_start, T.out_len, T.face_sym
    h = S[base(owner) + P_HERO]
    sub = E[row, C_SUB]
    sym = f if E[row, C_LEVEL] == ROLL_BY_FACE else fs[h, f]
    s0 = out_start[sub, sym]
    for r2 in range(s0, s0 + out_len[sub, sym]):
        if cond_nb(S, r2, owner, doff, nd, E, fs, T.tok, T.n_tok):
            effect_nb(S, r2, ctx, owner, doff, nd, rules, tp, rng)


@nb.njit(**_JIT)
def after_nb(S, row, ctx, owner, n, rules, tp, rng):
    """The ``after`` list of the roll effect in row ``row`` (season1/VOCABULARY.md 7.2), run
    once after its per-die outcomes; its conditions and counts read the n bonus dice
    (``O_BDICE``)."""
    T = tables_view_nb(tp)
    E, fs = T.eff, T.face_sym
    sub = E[row, C_SUB]
    s0 = T.out_start[sub, AFTER]
    for r2 in range(s0, s0 + T.out_len[sub, AFTER]):
        if cond_nb(S, r2, owner, I64(O_BDICE), n, E, fs, T.tok, T.n_tok):
            effect_nb(S, r2, ctx, owner, I64(O_BDICE), n, rules, tp, rng)


@nb.njit(**_JIT)
def run_nb(S, start, length, ctx, owner, doff, nd, rules, tp, rng):
    """Resolve effect rows start..start+length-1 in order (bonus rolls one level deep),
    each only if its conditions hold. A roll its roller may reroll (``may_reroll``: in an
    offensive tier, or a card's last effect) only rolls its dice into ``O_BDICE`` and
    leaves them waiting (``O_BONUS_N``) for the roller's choice (``ST_BONUS``)."""
    T = tables_view_nb(tp)
    E, fs = T.eff, T.face_sym
    for row in range(start, start + length):
        if not cond_nb(S, row, owner, doff, nd, E, fs, T.tok, T.n_tok):
            continue
        if E[row, C_OP] == OP_ROLL_SUM and E[row, C_ARG] > 0 and ctx == CTX_ABILITY:
            # may_reroll (pre-defence only): the dice wait at ST_BONUS, which takes their sum
            for i in range(E[row, C_N]):
                S[O_BDICE + i] = below_nb(rng, 6)
            S[O_BONUS_N] = E[row, C_N]
            continue
        if E[row, C_OP] == OP_ROLL:
            if E[row, C_ARG] > 0 and (ctx == CTX_ABILITY or ctx == CTX_CARD):
                for i in range(E[row, C_N]):
                    S[O_BDICE + i] = below_nb(rng, 6)
                S[O_BONUS_N] = E[row, C_N]
                continue
            aft = T.out_len[E[row, C_SUB], AFTER] > 0
            for i in range(E[row, C_N]):
                f = below_nb(rng, 6)
                if aft:
                    S[O_BDICE + i] = f
                outcome_nb(S, row, f, ctx, owner, doff, nd, rules, tp, rng)
            if aft:
                after_nb(S, row, ctx, owner, E[row, C_N], rules, tp, rng)
        else:
            effect_nb(S, row, ctx, owner, doff, nd, rules, tp, rng)


@nb.njit(inline="always", **_JIT)
def predef_len_nb(E, start, length):
    """``model.predefence_len`` over effect rows start..start+length-1: the tier's leading
    run of pre_defence or undefendable effects."""
    k = 0
    while k < length and ((E[start + k, C_FLAG] & PRE_DEFENCE) != 0 or E[start + k, C_OP] == OP_UNDEFENDABLE):
        k += 1
    return k


@nb.njit(inline="always", **_JIT)
def predef_nb(S, rules, tp, rng):
    """Go on with the chosen tier's pre-defence part from the effects done (``O_PREDEF``);
    True when a roll with may_reroll stopped it: its dice wait at ST_BONUS, which then
    returns to the current step (``reference.Game.predefence``).

    Inlined, with the test that skips the call: when the part is done (most tiers have
    none), ``predef_run_nb`` would return False at once."""
    T = tables_view_nb(tp)
    h = S[base(S[O_ACTIVE]) + P_HERO]
    if S[O_PREDEF] >= predef_len_nb(T.eff, T.tier_start[h, S[O_AB], S[O_TIER]], T.tier_len[h, S[O_AB], S[O_TIER]]):
        return False
    return predef_run_nb(S, rules, tp, rng)


@nb.njit(**_JIT)
def predef_run_nb(S, rules, tp, rng):
    """``predef_nb`` past its test."""
    T = tables_view_nb(tp)
    a = S[O_ACTIVE]
    h = S[base(a) + P_HERO]
    r0 = T.tier_start[h, S[O_AB], S[O_TIER]]
    k = predef_len_nb(T.eff, r0, T.tier_len[h, S[O_AB], S[O_TIER]])
    while S[O_PREDEF] < k:
        i = S[O_PREDEF]
        S[O_PREDEF] = i + 1
        run_nb(S, r0 + i, I64(1), I64(CTX_ABILITY), a, I64(O_ADICE), I64(N_DICE), rules, tp, rng)
        if S[O_BONUS_N] > 0:
            S[O_BONUS_SRC] = BS_PREDEF
            S[O_BONUS_ROW] = i
            S[O_RET_STEP] = S[O_STEP]
            S[O_STEP] = ST_BONUS
            return True
    return False


@nb.njit(inline="always", **_JIT)
def holds_any_nb(S, b, m):
    """Whether the seat at ``b`` holds one of the tokens of bit set ``m`` (bit t: token t)."""
    t = 0
    while m != 0:
        if (m & 1) != 0 and S[b + P_TOK + t] > 0:
            return True
        m >>= 1
        t += 1
    return False


@nb.njit(inline="always", **_JIT)
def events_nb(S, ev, holder, stop, rules, tp, rng):
    """The token events of moment ``ev`` (``model.EVENTS``) of seat ``holder``, in token
    order, for each token it holds; a ``skip`` setting a bit of ``stop`` ends the moment.

    Inlined, with the test that skips the call: when ``holder`` holds none of the tokens
    with events at ``ev`` (``T.ev_tok``, one bit a token, built with the tables), no
    event runs, whatever the state (``events_run_nb`` would visit no token). Four or
    more moments pass a turn and most have no token of the matchup's; the games are the
    same."""
    T = tables_view_nb(tp)
    if holds_any_nb(S, base(holder), T.ev_tok[ev]):
        events_run_nb(S, ev, holder, stop, rules, tp, rng)


@nb.njit(**_JIT)
def events_run_nb(S, ev, holder, stop, rules, tp, rng):
    """``events_nb`` past its test."""
    T = tables_view_nb(tp)
    bh = base(holder)
    for t in range(T.n_tok):
        if S[bh + P_TOK + t] > 0 and T.tok_ev_len[t, ev] > 0:
            S[O_EVTOK] = t + 1
            run_nb(S, T.tok_ev_start[t, ev], T.tok_ev_len[t, ev], I64(CTX_UPKEEP), holder, I64(0), I64(0), rules,
                   tp, rng)
            S[O_EVTOK] = 0
            if (S[bh + P_SKIP] & stop) != 0:
                break


@nb.njit(inline="always", **_JIT)
def incoming_nb(S):
    """The attack damage the defender is about to take (``land_nb`` deals it): the pools, less
    prevention and halved by Protect (normal and undefendable attacks only), none when avoided."""
    kind = S[O_ATK_KIND]
    total = S[O_POOL] + S[O_POOL_CARD] + S[O_POOL_TOKEN]
    if kind == K_NORMAL or kind == K_UNDEF:
        total -= S[base(S[O_TARGET]) + P_PREVENT]
        if total < 0:
            total = 0
        if S[O_PROTECTED] != 0:
            total -= (total + 1) // 2
    if S[O_AVOID] != 0:
        total = 0
    return total


@nb.njit(inline="always", **_JIT)
def inflicts_nb(S, T):
    """Whether the chosen tier inflicts a status (``model.tier_inflicts``: if_attack.inflicts)."""
    h = S[base(S[O_ACTIVE]) + P_HERO]
    r0 = T.tier_start[h, S[O_AB], S[O_TIER]]
    for row in range(r0, r0 + T.tier_len[h, S[O_AB], S[O_TIER]]):
        if T.eff[row, C_OP] == OP_INFLICT:
            return True
        if T.eff[row, C_OP] == OP_ROLL:
            sub = T.eff[row, C_SUB]
            for s in range(MAX_SYM + 1):
                for r2 in range(T.out_start[sub, s], T.out_start[sub, s] + T.out_len[sub, s]):
                    if T.eff[r2, C_OP] == OP_INFLICT:
                        return True
    return False


@nb.njit(inline="always", **_JIT)
def holds_token_nb(S, b, t, n_tok, tok):
    """``if_has``/``unless_has`` of a spend entry: token t held (-2: any negative status)."""
    if t == -2:
        for u in range(n_tok):
            if tok[u, 0] == TK_NEG and S[b + P_TOK + u] > 0:
                return True
        return False
    return S[b + P_TOK + t] > 0


@nb.njit(**_JIT)
def offer_nb(S, w, w2, holder, moves, n, rules, tp):
    """Append to ``moves[n:]`` the ``MV_SPEND + entry * 16 + k`` moves of the spend entries at
    moment ``w`` or ``w2`` (-1: none) that ``holder`` may use now (k = 1 .. the most it may
    spend), in entry order; returns the new count (``reference.Game.offer``). An attack
    window's entry is offered once a window (unless ``repeat``) and against its kinds; the
    holder's own-turn moments' entries again while their conditions hold. It visits the
    entries of those moments only (``T.sp_at``), not every spend entry of the content: the
    Paladin's four entries (plan step 5) sit in every Paladin matchup's table, and a window
    opens six times a turn."""
    T = tables_view_nb(tp)
    sp = T.sp
    at = T.sp_at
    bh = base(holder)
    kind = S[O_ATK_KIND]
    dmg = S[O_POOL] + S[O_POOL_CARD]
    # the entries at w and at w2 (sp_at: each moment's own, in entry order), merged in entry order
    na = at[w, 0] if w >= 0 else 0          # -1: none (a row index -1 would read the last moment's)
    nb_ = at[w2, 0] if w2 >= 0 else 0
    i = 0
    j = 0
    while i < na or j < nb_:
        if j >= nb_ or (i < na and at[w, 1 + i] < at[w2, 1 + j]):
            e = at[w, 1 + i]
            i += 1
        else:
            e = at[w2, 1 + j]
            j += 1
        we = sp[e, SP_WHEN]
        t = sp[e, SP_TOK]
        k = S[bh + P_TOK + t]
        if sp[e, SP_OLD] != 0:
            k -= S[bh + P_TNEW + t]
        if k < 1 or S[bh + P_CP] < sp[e, SP_CP]:
            continue
        if sp[e, SP_ONCE] != 0 and ((S[bh + P_ONCE] >> t) & 1) != 0:
            continue
        if we < N_ATTACK_WINDOWS:
            if sp[e, SP_REPEAT] == 0 and ((S[O_WIN_USED] >> e) & 1) != 0:
                continue
            if ((sp[e, SP_KINDS] >> kind) & 1) == 0:
                continue
            if sp[e, SP_AT_LEAST] >= 0 and rules[R_CRIT_THRESHOLD] != 0 and dmg < sp[e, SP_AT_LEAST]:
                continue
            if sp[e, SP_INFLICTS] != 0 and not inflicts_nb(S, T):
                continue
        if sp[e, SP_IF_HAS] != -1 and not holds_token_nb(S, bh, sp[e, SP_IF_HAS], T.n_tok, T.tok):
            continue
        if sp[e, SP_UNLESS] != -1 and holds_token_nb(S, bh, sp[e, SP_UNLESS], T.n_tok, T.tok):
            continue
        m = sp[e, SP_MAX]
        if m == 0 or m > k:
            m = k
        for x in range(1, m + 1):
            if n < MAX_MOVES:
                moves[n] = MV_SPEND + e * 16 + x
                n += 1
    return n


@nb.njit(inline="always", **_JIT)
def window_nb(S, w, holder, moves, rules, tp):
    """The spend offer of window ``w`` (``model.WINDOWS``) to ``holder`` (season1/VOCABULARY.md
    3.2): ``moves[0] = MV_PASS``, then its entries' moves; an attack window that offers one
    also offers the holder's ``any`` entries (roll_phase_start does not: its decision was
    Knockdown's payment alone, and the holder's main phase 1 just before offered them).
    Returns the move count (1: nothing offered).

    Inlined, with a short test first: a moment without spend entries in this matchup
    (``T.sp_at[w, 0] == 0``), or whose entries' tokens the holder holds none of, offers
    nothing whatever the rest of the state, so the window returns 1 before any other test
    (the same count ``offer_nb`` would give). Seven windows open a turn and most matchups
    have entries at two or three moments: the call and the tests of the rest were a few
    per cent of a game (the games are the same)."""
    T = tables_view_nb(tp)
    moves[0] = MV_PASS
    # offer_nb offers an entry only if its holder holds its token (k >= 1): when the holder
    # holds none of moment w's entries' tokens, w offers nothing (nor then the `any` ones)
    bh = base(holder)
    for i in range(T.sp_at[w, 0]):
        if S[bh + P_TOK + T.sp[T.sp_at[w, 1 + i], SP_TOK]] > 0:
            return window_offer_nb(S, w, holder, moves, rules, tp)
    return 1


@nb.njit(**_JIT)
def window_offer_nb(S, w, holder, moves, rules, tp):
    """``window_nb`` past its O(1) test (moment ``w`` has spend entries; ``moves[0]`` is set)."""
    T = tables_view_nb(tp)
    if has_nb(S, holder, U_STUN, T.use_tok):
        return 1
    if w < N_ATTACK_WINDOWS:
        if S[O_ATK_KIND] < 0:
            return 1
        if w == W_ATTACKING and S[O_POOL] + S[O_POOL_CARD] + S[O_POOL_TOKEN] <= 0:
            return 1
        if w == W_ATTACKED and incoming_nb(S) <= 0:
            return 1
        if w == W_AFTER and S[O_TAKEN] <= 0:
            return 1
    n = offer_nb(S, w, I64(-1), holder, moves, I64(1), rules, tp)
    if n > 1 and w < N_ATTACK_WINDOWS:     # not at roll_phase_start, nor at the upkeep's any window
        n = offer_nb(S, w, I64(SW_ANY), holder, moves, I64(1), rules, tp)
    return n


@nb.njit(inline="always", **_JIT)
def own_spends_nb(S, p, w, moves, n, rules, tp):
    """Append the spends seat p may add to a decision of its own (``w``: ``main`` at PH_MAIN,
    ``own_roll`` at PH_ROLL and at its priority over its own dice, -1 none) and its ``any``
    entries; none while stunned.

    Inlined, with an O(1) test first: when neither moment has a spend entry in this
    matchup (``T.sp_at``), nothing is appended whatever the state (``offer_nb`` would
    visit no entry), and the call is skipped. Every main phase, roll and window decision
    passes here; most matchups have no main, own_roll or any entries."""
    T = tables_view_nb(tp)
    if (w < 0 or T.sp_at[w, 0] == 0) and T.sp_at[SW_ANY, 0] == 0:
        return n
    if has_nb(S, p, U_STUN, T.use_tok):
        return n
    return offer_nb(S, w, I64(SW_ANY), p, moves, n, rules, tp)


@nb.njit(**_JIT)
def spend_nb(S, x, holder, rules, tp, rng):
    """Spend through a spend entry (``x = entry * 16 + n``): remove n tokens, pay its CP,
    count one spend, run its effects n times, mark the entry used in this window."""
    T = tables_view_nb(tp)
    sp = T.sp
    e = x // 16
    k = x % 16
    t = sp[e, SP_TOK]
    bh = base(holder)
    S[bh + P_TOK + t] -= k
    S[bh + P_CP] -= sp[e, SP_CP]
    S[bh + P_SPENDS] += 1
    S[bh + P_TUSE + t] += 1
    if sp[e, SP_ONCE] != 0:
        S[bh + P_ONCE] |= 1 << t
    if sp[e, SP_WHEN] < N_ATTACK_WINDOWS:
        S[O_WIN_USED] |= 1 << e
    S[O_PEND_OP] = 0
    for _ in range(k):
        run_nb(S, sp[e, SP_START], sp[e, SP_LEN], I64(CTX_TOKEN), holder, I64(0), I64(0), rules, tp, rng)
    if S[O_PEND_OP] != 0:       # its die operation (Seedling's reroll): then back to this decision
        S[O_RET_STEP] = S[O_STEP]
        S[O_CUR] = holder
        S[O_STEP] = ST_DIE


@nb.njit(inline="always", **_JIT)
def pop_choice_nb(S):
    """The oldest pending choose or chosen-player row, taken off the queue (``O_CHOOSE``)."""
    row = S[O_CHOOSE]
    n = S[O_CHOOSE_N]
    for i in range(n - 1):
        S[O_CHOOSE + i] = S[O_CHOOSE + i + 1]
    S[O_CHOOSE + n - 1] = 0
    S[O_CHOOSE_N] = n - 1
    return row


@nb.njit(**_JIT)
def pick_nb(S, k, rules, tp, rng):
    """Alternative ``k`` of the oldest pending choose: it leaves the queue, then its
    effects run for the seat and in the context that queued it (``reference.Game.pick``)."""
    T = tables_view_nb(tp)
    row = pop_choice_nb(S)
    sub = T.eff[row, C_SUB]
    run_nb(S, T.out_start[sub, k], T.out_len[sub, k], S[O_CHOOSE_CTX], S[O_CHOOSE_WHO], I64(0), I64(0), rules, tp,
           rng)


@nb.njit(**_JIT)
def pick_seat_nb(S, q, tp):
    """Seat ``q`` picked for the oldest pending chosen-player effect (a gain of N tokens):
    it leaves the queue and seat q gains them (``reference.Game.pick_seat``)."""
    T = tables_view_nb(tp)
    row = pop_choice_nb(S)
    if T.eff[row, C_TARGET] == T_TWO:      # the first of a two_chosen pair: the second picks another seat
        S[O_PICKED] = 1 << q if S[O_PICKED] == 0 and S[O_CHOOSE_N] > 0 and S[O_CHOOSE] == row else 0
    add_tokens_nb(S, q, S[O_CHOOSE_WHO], T.eff[row, C_ARG], T.eff[row, C_N])


# ------------------------------------------------------------------ legality
@nb.njit(inline="always", **_JIT)
def dice_owner_nb(S):
    w = S[O_ROLL_WHO]
    if w == 1:
        return S[O_ACTIVE]
    if w == 2:
        return S[O_TARGET]
    if w == 3:                # the targeting die is the attacker's (modes/DESIGN.md 1.7)
        return S[O_ACTIVE]
    return -1


@nb.njit(inline="always", **_JIT)
def dice_span_nb(S):
    """(offset, count) of the dice a die effect acts on now: the attack dice, the
    targeting die (O_ROLL_WHO 3) or the defence dice."""
    w = S[O_ROLL_WHO]
    if w == 1:
        return O_ADICE, N_DICE
    if w == 3:
        return O_TDIE, 1
    return O_DDICE, S[O_DDN]


@nb.njit(inline="always", **_JIT)
def card_cost_nb(S, p, cid, C, E, deck, deck_n, rules):
    """What card ``cid`` costs seat ``p`` (``reference.Game.card_cost``): its printed CP; an
    upgrade over a level a card made, under upgrade_pays_difference, that less the printed
    CP of the deck's first card upgrading the same slot to the current level (>= 0)."""
    cost = C[cid, 0]
    if rules[R_UP_DIFF] == 0:
        return cost
    for row in range(C[cid, 4], C[cid, 4] + C[cid, 5]):
        if E[row, C_OP] == OP_UPGRADE:
            slot = E[row, C_ARG]
            h = S[base(p) + P_HERO]
            now = S[base(p) + P_LVL + slot]
            if now < 2:
                return cost
            for i in range(deck_n[h]):
                c2 = deck[h, i]
                for r2 in range(C[c2, 4], C[c2, 4] + C[c2, 5]):
                    if E[r2, C_OP] == OP_UPGRADE and E[r2, C_ARG] == slot and E[r2, C_LEVEL] == now:
                        v = cost - C[c2, 0]
                        return v if v > 0 else 0
            return cost
    return cost


@nb.njit(inline="always", **_JIT)
def card_legal_nb(S, p, cid, where, C, E, cp, owner, atkwin, deck, deck_n, rules):
    """Whether seat ``p`` (not stunned, ``cp`` CP; ``owner``: the current dice's owner;
    ``atkwin``: an attack's window after the defence roll) may play card ``cid``."""
    b = base(p)
    if C[cid, 0] > cp and (rules[R_UP_DIFF] == 0 or card_cost_nb(S, p, cid, C, E, deck, deck_n, rules) > cp):
        return False
    if C[cid, 6] > S[b + P_HAND_N] - 1:     # discard_cost: that many other cards in hand
        return False
    if (C[cid, 3] == CW_AFTER) != (where == W_POST):    # after_damage cards at ST_POSTWIN only
        return False
    ph = C[cid, 1]
    if where == W_MAIN:
        if ph != CP_MAIN and ph != CP_INSTANT:
            return False
    elif ph != CP_ROLL and ph != CP_INSTANT:
        return False
    dice = C[cid, 2]
    if dice != CD_NONE:
        if owner < 0 or (dice == CD_OWN and owner != p) or (dice == CD_OPP and team_nb(S, owner) == team_nb(S, p)):
            return False
    when = C[cid, 3]
    if when != CW_ANY and when != CW_AFTER:
        if not atkwin:
            return False
        if when == CW_ATTACKING and p != S[O_ACTIVE]:
            return False
        if when == CW_ATTACKED and p != S[O_TARGET]:    # the target's alone (2v2: not its teammate, [Z] 9.1)
            return False
    for row in range(C[cid, 4], C[cid, 4] + C[cid, 5]):
        op = E[row, C_OP]
        if op == OP_EXTRA_ATTEMPT and where != W_ROLL:
            return False
        if op == OP_UPGRADE and S[b + P_LVL + E[row, C_ARG]] >= E[row, C_LEVEL]:
            return False
    return True


@nb.njit(inline="always", **_JIT)
def card_moves_nb(S, p, where, C, E, ut, moves, n, deck, deck_n, rules):
    """The cards of seat ``p``'s hand it may play (none while stunned); what does not
    depend on the card (stun, CP, the dice's owner, the window) is read once."""
    b = base(p)
    hn = S[b + P_HAND_N]
    if hn == 0 or has_nb(S, p, U_STUN, ut):
        return n
    cp = S[b + P_CP]
    owner = dice_owner_nb(S)
    atkwin = S[O_STEP] == ST_ATKWIN and S[O_ATK_KIND] >= 0
    for h in range(hn):
        if card_legal_nb(S, p, S[b + P_HAND + h], where, C, E, cp, owner, atkwin, deck, deck_n, rules):
            moves[n] = MV_PLAY + h
            n += 1
    return n


@nb.njit(inline="always", **_JIT)
def tithe_moves_nb(S, p, tithe, ut, moves, n):
    b = base(p)
    cost = tithe[S[b + P_HERO], S[b + P_PLVL] - 1, 0]
    if cost < 0 or dice_owner_nb(S) != p or S[b + P_CP] < cost or has_nb(S, p, U_STUN, ut):
        return n
    nd = dice_span_nb(S)[1]
    for i in range(nd):
        moves[n] = MV_TITHE_REROLL + i
        n += 1
    return n


@nb.njit(inline="always", **_JIT)
def tithe_draw_moves_nb(S, p, tithe, ut, moves, n):
    """Tithes' draw ("at any time"): in every decision seat ``p`` holds, if it can pay and
    is not stunned (a stunned player uses no passive)."""
    b = base(p)
    cost = tithe[S[b + P_HERO], S[b + P_PLVL] - 1, 1]
    if cost >= 0 and S[b + P_CP] >= cost and not has_nb(S, p, U_STUN, ut):
        moves[n] = MV_TITHE_DRAW
        n += 1
    return n


@nb.njit(inline="always", **_JIT)
def split_nb(E, start, length):
    """``model.damage_split`` over effect rows start..start+length-1: how many resolve
    before the attack's damage lands."""
    last = -1
    for i in range(length):
        op = E[start + i, C_OP]
        if (op == OP_DAMAGE and E[start + i, C_TARGET] != T_SELF) or op == OP_ADD_DAMAGE or op == OP_ROLL:
            last = i
    return length if last < 0 else last + 1


@nb.njit(inline="always", **_JIT)
def upkeep_events_nb(S, rules, tp, rng):
    """The active seat's upkeep events (reversed token order under decay_before_burn), then
    income (``reference.Game.upkeep_events``).

    Inlined, with the test that skips the call: without a passive upkeep at its level and
    holding none of the tokens with upkeep events (``T.ev_tok``), nothing runs (the games
    are the same) and the step goes on to income."""
    T = tables_view_nb(tp)
    b = base(S[O_ACTIVE])
    if T.tithe[S[b + P_HERO], S[b + P_PLVL] - 1, 5] > 0 or holds_any_nb(S, b, T.ev_tok[EV_UPKEEP]):
        upkeep_run_nb(S, rules, tp, rng)
    else:
        S[O_STEP] = ST_INCOME


@nb.njit(**_JIT)
def upkeep_run_nb(S, rules, tp, rng):
    """``upkeep_events_nb`` past its test."""
    T = tables_view_nb(tp)
    a = S[O_ACTIVE]
    nt = T.n_tok
    hp_ = S[base(a) + P_HERO]
    lvp = S[base(a) + P_PLVL] - 1
    if T.tithe[hp_, lvp, 5] > 0:        # the passive's upkeep (plan step 9), before the tokens'
        run_nb(S, T.tithe[hp_, lvp, 4], T.tithe[hp_, lvp, 5], I64(CTX_UPKEEP), a, I64(0), I64(0), rules, tp, rng)
    for k in range(nt):
        t = nt - 1 - k if rules[R_DECAY_FIRST] != 0 else k
        if S[base(a) + P_TOK + t] > 0 and T.tok_ev_len[t, EV_UPKEEP] > 0:
            S[O_EVTOK] = t + 1
            run_nb(S, T.tok_ev_start[t, EV_UPKEEP], T.tok_ev_len[t, EV_UPKEEP], I64(CTX_UPKEEP), a, I64(0),
                   I64(0), rules, tp, rng)
            S[O_EVTOK] = 0
    S[O_STEP] = ST_INCOME


@nb.njit(inline="always", **_JIT)
def decide_nb(S, phase, who):
    S[O_PHASE] = phase
    S[O_CUR] = who


@nb.njit(inline="always", **_JIT)
def main_moves_nb(S, p, C, E, ut, tithe, moves, deck, deck_n, rules):
    b = base(p)
    moves[0] = MV_PASS
    n = card_moves_nb(S, p, W_MAIN, C, E, ut, moves, 1, deck, deck_n, rules)
    for h in range(S[b + P_HAND_N]):
        moves[n] = MV_SELL + h
        n += 1
    return tithe_draw_moves_nb(S, p, tithe, ut, moves, n)


@nb.njit(inline="always", **_JIT)
def tier_met_nb(sc, nc, kinds, need, ns, h, ab, r, n_sym):
    """``simcore.dice.target_met_row`` for tier ``r`` of ability ``ab`` of hero ``h``, on
    counts packed 4 bits an entry (``sc``: dice per symbol; ``nc``: dice per face number
    1..6): the same test, without count arrays to allocate (apply_nb allocates nothing)."""
    for a in range(kinds.shape[3]):
        k = kinds[h, ab, r, a]
        if k < 0:
            break
        if k == KIND_SYMBOLS:
            ok = True
            for s in range(n_sym):
                if ((sc >> (4 * s)) & 15) < need[h, ab, r, a, s]:
                    ok = False
                    break
            if ok:
                return True
        elif k == KIND_SMALL_STRAIGHT:
            for lo in range(1, 4):
                if (((nc >> (4 * lo)) & 15) > 0 and ((nc >> (4 * lo + 4)) & 15) > 0
                        and ((nc >> (4 * lo + 8)) & 15) > 0 and ((nc >> (4 * lo + 12)) & 15) > 0):
                    return True
        elif k == KIND_LARGE_STRAIGHT:
            for lo in range(1, 3):
                if (((nc >> (4 * lo)) & 15) > 0 and ((nc >> (4 * lo + 4)) & 15) > 0
                        and ((nc >> (4 * lo + 8)) & 15) > 0 and ((nc >> (4 * lo + 12)) & 15) > 0
                        and ((nc >> (4 * lo + 16)) & 15) > 0):
                    return True
        else:
            for v in range(1, 7):
                if ((nc >> (4 * v)) & 15) >= ns[h, ab, r, a]:
                    return True
    return False


@nb.njit(inline="always", **_JIT)
def ability_moves_nb(S, T, moves):
    """The tiers the attack dice satisfy. The tables are read into locals once: through
    the address table (``borrow.TablesRef``) each ``T.<field>`` in the loops was two
    more loads, redone after every store to ``moves`` (an array LLVM cannot tell apart
    from the tables), and the tier search took 40% longer than when the views were built
    up front."""
    a = S[O_ACTIVE]
    b = base(a)
    h = S[b + P_HERO]
    fs = T.face_sym
    tier_n = T.tier_n
    tier_level = T.tier_level
    kinds = T.t_kinds
    need = T.t_need
    ns = T.t_ns
    n_sym = T.n_sym[h]
    sc = 0      # dice per symbol, 4 bits a symbol
    nc = 0      # dice per face number 1..6, 4 bits a number
    for i in range(N_DICE):
        f = S[O_ADICE + i]
        sc += 1 << (4 * fs[h, f])
        nc += 1 << (4 * (f + 1))
    n = 0
    for ab in range(T.n_ab[h]):
        lvl = S[b + P_LVL + ab]
        for t in range(tier_n[h, ab]):
            if tier_level[h, ab, t] == lvl:
                if tier_met_nb(sc, nc, kinds, need, ns, h, ab, t, n_sym):
                    moves[n] = MV_ABILITY + ab * 16 + t
                    n += 1
    return n


@nb.njit(inline="always", **_JIT)
def die_moves_nb(S, moves):
    doff, nd = dice_span_nb(S)
    op = S[O_PEND_OP]
    n = 0
    if op == OP_BUY:
        k = buy_max_nb(S)
        if k == 0:
            return 0
        moves[0] = MV_PASS
        for i in range(1, k + 1):
            moves[i] = MV_BUY + i
        return k + 1
    if op == OP_SET_DIE:
        for i in range(nd):
            if S[O_PEND_ARG] == 0:
                for f in range(1, 7):
                    moves[n] = MV_DIE + i * 8 + f
                    n += 1
            else:
                moves[n] = MV_DIE + i * 8 + S[O_PEND_ARG]
                n += 1
    elif op == OP_COPY_DIE:
        for i in range(nd):
            for f in range(6):
                if f == S[doff + i]:
                    continue
                for j in range(nd):
                    if j != i and S[doff + j] == f:
                        moves[n] = MV_DIE + i * 8 + f + 1
                        n += 1
                        break
    elif op == OP_MOVE_DIE:
        for i in range(nd):
            if S[doff + i] > 0:
                moves[n] = MV_DIE + i * 8
                n += 1
            if S[doff + i] < 5:
                moves[n] = MV_DIE + i * 8 + 1
                n += 1
    else:
        for m in range(1, 1 << nd):
            c = 0
            for i in range(nd):
                c += (m >> i) & 1
            if c <= S[O_PEND_N]:
                moves[n] = MV_DIE + m
                n += 1
        if S[O_PEND_ARG] > 0:   # rerolls in a row (times): the player may stop (listed last)
            moves[n] = MV_DIE
            n += 1
    return n


@nb.njit(inline="always", **_JIT)
def buy_max_nb(S):
    """A card's pending ``buy``: how many tokens its player may buy (its CP over the cost,
    the room under the token's stack limit, MAX_BUY)."""
    b = base(S[O_CUR])
    t = S[O_PEND_ARG]
    k = S[b + P_CP] // S[O_PEND_N]
    room = S[b + P_LIM + t] - S[b + P_TOK + t]
    if room < k:
        k = room
    if k > MAX_BUY:
        k = MAX_BUY
    return k if k > 0 else 0


# ------------------------------------------------------------------ the turn
@nb.njit(inline="always", **_JIT)
def window_pass_nb(S, rules, T, tp, rng):
    S[O_WIN_PASSES] += 1
    if S[O_WIN_PASSES] >= seats_in_game_nb(S):     # every seat in the game passed in a row
        if S[O_STEP] == ST_PREWIN:
            S[O_STEP] = ST_ROLL_END
        elif S[O_STEP] == ST_TWIN:      # the targeting die is read
            S[O_STEP] = ST_TREAD
        else:
            if S[O_DEFENDED] != 0:
                d = S[O_TARGET]
                bd = base(d)
                h = S[bd + P_HERO]
                k = S[O_DEF]
                lv = S[bd + P_DLVL + k] - 1
                run_nb(S, T.def_start[h, k, lv], T.def_len[h, k, lv], I64(CTX_DEFENCE), d, I64(O_DDICE), S[O_DDN], rules, tp, rng)
            S[O_ROLL_WHO] = 0
            S[O_STEP] = ST_RESOLVE
    else:
        S[O_WIN_PRIO] = next_seat_nb(S, S[O_WIN_PRIO])


@nb.njit(inline="always", **_JIT)
def land_nb(S, rules, tp):
    a = S[O_ACTIVE]
    d = S[O_TARGET]
    ba = base(a)
    kind = S[O_ATK_KIND]
    total = incoming_nb(S)
    tok = S[O_POOL_TOKEN] if S[O_POOL_TOKEN] < total else total
    card = S[O_POOL_CARD] if S[O_POOL_CARD] < total - tok else total - tok
    S[ba + P_DMG + SRC_TOKEN] += tok
    S[ba + P_DMG + SRC_CARD] += card
    S[ba + P_DMG + SRC_ABILITY] += total - tok - card
    hurt_nb(S, d, total, kind == K_ULT, rules, tp)
    S[O_TAKEN] = total
    c = S[O_COLLAT]
    if c > 0 and S[O_NSEATS] == 2:      # 1v1: the one opponent
        c = coll_due_nb(S, d, rules)
        hurt_nb(S, d, c, kind == K_ULT, rules, tp)
        S[ba + P_DMG + SRC_ABILITY] += c
    elif c > 0:
        collateral_nb(S, a, d, kind == K_ULT, rules, tp)


@nb.njit(**_JIT)
def coll_victim_nb(S, a, d, q, rules):
    """Whether seat ``q`` takes the attacker ``a``'s collateral (``collateral_nb``'s rule: 1v1
    the one opponent; else a living seat of another team, the target ``d`` only under
    collateral_hits_target, and under collateral_per = "team" the first such seat of its team
    in seat order from the attacker's left). The reference's ``Game.collateral_victim``."""
    n = S[O_NSEATS]
    if n == 2:
        return q == d
    ta = team_nb(S, a)
    tq = team_nb(S, q)
    if not in_game_nb(S, q) or tq == ta or (q == d and rules[R_COLL_TGT] == 0):
        return False
    if rules[R_COLL_PER] == 1:
        for i in range(1, n):
            j = (a + i) % n
            if j == q:
                break
            if team_nb(S, j) == tq and in_game_nb(S, j) and not (j == d and rules[R_COLL_TGT] == 0):
                return False
    return True


@nb.njit(**_JIT)
def coll_due_nb(S, q, rules):
    """The collateral seat ``q`` takes of ``O_COLLAT`` (modes/DESIGN.md 1.8): all of it unless
    collateral_preventable, and an ultimate's always; else less ``q``'s prevention (the target's
    prevention left over from the attack damage, which it covers first when that damage can be
    prevented), halved (rounded up in its favour) if ``q`` spent a halving in the collateral
    window. The reference's ``Game.collateral_due``."""
    c = S[O_COLLAT]
    if rules[R_COLL_PREV] == 0 or S[O_ATK_KIND] == K_ULT:
        return c
    prev = S[base(q) + P_PREVENT]
    if q == S[O_TARGET] and (S[O_ATK_KIND] == K_NORMAL or S[O_ATK_KIND] == K_UNDEF):
        prev -= S[O_POOL] + S[O_POOL_CARD] + S[O_POOL_TOKEN]
    if prev > 0:
        c -= prev
    if c < 0:
        c = 0
    if (S[O_HALF] >> q) & 1:
        c -= (c + 1) // 2
    return c


@nb.njit(**_JIT)
def collateral_nb(S, a, d, ult, rules, tp):
    """Collateral ``O_COLLAT`` "to all opponents" with several seats (modes/DESIGN.md 1.8): each
    living seat of another team, in seat order from the attacker's left, takes it (the target
    ``d`` too under collateral_hits_target; under collateral_per = "team", once per opposing
    team, on its first seat in that order: ``coll_victim_nb``), less what it prevented
    (``coll_due_nb``); each hit is a hurt (a knocked_out event checked per hit) credited to
    the attacker. Not inlined: 1v1 never calls it. The reference's ``Game.collateral_hits``."""
    n = S[O_NSEATS]
    for i in range(1, n):
        q = (a + i) % n
        if not coll_victim_nb(S, a, d, q, rules):
            continue
        x = coll_due_nb(S, q, rules)
        hurt_nb(S, q, x, ult, rules, tp)
        S[base(a) + P_DMG + SRC_ABILITY] += x


@nb.njit(**_JIT)
def coll_window_nb(S, a, d, moves, rules, T, tp):
    """The collateral window (``ST_COLLWIN``, rule collateral_preventable; modes/DESIGN.md 1.8):
    each seat the collateral will hit (``coll_victim_nb``), in seat order from the attacker's
    left, that is not stunned and still has some to take (``coll_due_nb``), is offered first
    its attacked-window spend entries that prevent (PH_TOKEN; read as against undefendable
    damage: collateral is prevented as undefendable damage is), then the cards of its hand that
    prevent (PH_WINDOW: a roll or instant card, when any or attacked, on no dice, that its CP
    pays). Returns the move count of the next decision (``O_CVIC`` at it), or 0 when every seat
    has passed. Not inlined: games without the rule never call it. The reference's
    ``Game.collateral_window``."""
    n = S[O_NSEATS]
    while True:
        k = S[O_CVIC] - 1
        i = 1 + k // 2
        if i >= n:
            return 0
        q = (a + i) % n
        if (not coll_victim_nb(S, a, d, q, rules) or has_nb(S, q, U_STUN, T.use_tok)
                or coll_due_nb(S, q, rules) <= 0):
            S[O_CVIC] = 1 + 2 * i                # the next seat's first offer
            continue
        moves[0] = MV_PASS
        m = 1
        if k % 2 == 0:
            kind = S[O_ATK_KIND]
            S[O_ATK_KIND] = K_UNDEF
            m = offer_nb(S, I64(W_ATTACKED), I64(-1), q, moves, I64(1), rules, tp)
            S[O_ATK_KIND] = kind
            j = 1
            for x in range(1, m):                # the entries that prevent
                if T.sp[(moves[x] - MV_SPEND) // 16, SP_MITIG] != 0:
                    moves[j] = moves[x]
                    j += 1
            m = j
            if m > 1:
                decide_nb(S, PH_TOKEN, q)
                return m
        else:
            b = base(q)
            cp = S[b + P_CP]
            C = T.card
            for h in range(S[b + P_HAND_N]):
                cid = S[b + P_HAND + h]
                ph = C[cid, 1]
                if (C[cid, C_MITIG] != 0 and (ph == CP_ROLL or ph == CP_INSTANT) and C[cid, 2] == CD_NONE
                        and (C[cid, 3] == CW_ANY or C[cid, 3] == CW_ATTACKED) and C[cid, 6] <= S[b + P_HAND_N] - 1
                        and card_cost_nb(S, q, cid, C, T.eff, T.deck, T.deck_n, rules) <= cp):
                    moves[m] = MV_PLAY + h
                    m += 1
            if m > 1:
                decide_nb(S, PH_WINDOW, q)
                return m
        S[O_CVIC] += 1
        S[O_WIN_USED] = 0


@nb.njit(_nrt=False, **_JIT)
def next_decision_nb(S, rules, tp, rng, moves):
    """Automatic steps until a decision: returns its move count (phase and seat in S),
    or 0 when the game is over. Compiled apart (not inlined), as ``apply_move_nb`` (and a
    former ``advance_loop_nb``): inlined into ``apply_tp_nb`` they made one function whose
    cold compile (with the strategies' entry) took 320 CPU-seconds against 128 apart, for 5-10%
    fewer games a second (measured before Season One's steps 6-9 merged); the tables come as
    their address table, since the tuple by value cost a copy per call."""
    T = tables_view_nb(tp)
    while S[O_OVER] == 0:
        if S[O_CHOOSE_N] > 0:      # a queued choose: its owner picks before the step goes on
            row = S[O_CHOOSE]
            if T.eff[row, C_OP] != OP_CHOOSE:    # a chosen player: the seat (MV_TARGET + seat)
                decide_nb(S, PH_TARGET, S[O_CHOOSE_WHO])
                return chosen_seats_nb(S, T.eff[row, C_TARGET], S[O_CHOOSE_WHO], moves)
            k = T.eff[row, C_N]
            decide_nb(S, PH_CHOOSE, S[O_CHOOSE_WHO])
            for i in range(k):
                moves[i] = MV_PICK + i
            return k
        a = S[O_ACTIVE]
        d = S[O_TARGET]
        ba = base(a)
        bd = base(d)
        st = S[O_STEP]
        if st == ST_UPKEEP:
            nt = T.n_tok
            held = 0
            for t in range(nt):
                if S[ba + P_TOK + t] > 0:
                    held |= 1 << t
            S[ba + P_HELD] = held
            S[O_STEP] = ST_W_UPKEEP
        elif st == ST_W_UPKEEP:
            n = window_nb(S, I64(SW_ANY), a, moves, rules, tp)     # `any` spends before the upkeep events
            if n > 1:
                decide_nb(S, PH_TOKEN, a)
                return n
            upkeep_events_nb(S, rules, tp, rng)
        elif st == ST_INCOME:
            if knocked_out_nb(S, rules):
                continue
            events_nb(S, I64(EV_INCOME), a, I64(SK_INCOME), rules, tp, rng)
            if S[ba + P_SKIP] & SK_INCOME:       # skip = "income" (Concussion)
                S[ba + P_SKIP] &= ~SK_INCOME
            elif rules[R_SKIP_INCOME] != 0 and a == S[O_FIRST] and S[O_INCOME_SKIP] == 0:
                S[O_INCOME_SKIP] = 1
            else:
                gain_cp_nb(S, a, rules[R_INCOME_CP], rules)
                for _ in range(rules[R_INCOME_CARDS]):
                    draw_nb(S, a, rules, rng)
            S[O_STEP] = ST_MAIN1
        elif st == ST_MAIN1 or st == ST_MAIN2:
            if knocked_out_nb(S, rules):
                continue
            decide_nb(S, PH_MAIN, a)
            n = main_moves_nb(S, a, T.card, T.eff, T.use_tok, T.tithe, moves, T.deck, T.deck_n, rules)
            return own_spends_nb(S, a, I64(SW_MAIN), moves, n, rules, tp)
        elif st == ST_KNOCK:
            # the start of every offensive roll phase: the attack state is reset here, before
            # the roll_phase_start window (Knockdown's payment) and events (ST_ROLL_START)
            S[O_ATTEMPTS] = 1
            S[O_MAX_ATT] = rules[R_ATTEMPTS]
            S[O_AB] = -1
            S[O_TIER] = -1
            S[O_ATK_KIND] = -1
            S[O_DEFENDED] = 0
            S[O_POOL] = 0
            S[O_POOL_CARD] = 0
            S[O_POOL_TOKEN] = 0
            S[O_COLLAT] = 0
            S[O_SPENT] = 0
            S[O_TAKEN] = 0
            S[O_PIPS] = 0
            S[O_PROTECTED] = 0
            S[O_CVIC] = 0
            S[O_HALF] = 0
            S[O_NODEF] = 0
            S[O_AVOID] = 0
            S[O_PREDEF] = 0
            S[O_DEF] = -1
            S[ba + P_PREVENT] = 0
            S[bd + P_PREVENT] = 0
            if S[O_NSEATS] > 2:         # the target is not known yet: every seat's
                for q in range(S[O_NSEATS]):
                    S[base(q) + P_PREVENT] = 0
            S[O_STEP] = ST_W_ROLL_START
        elif st == ST_W_ROLL_START:
            n = window_nb(S, I64(W_ROLL_START), a, moves, rules, tp)    # Knockdown's payment
            if n > 1:
                decide_nb(S, PH_TOKEN, a)
                return n
            S[O_STEP] = ST_ROLL_START
        elif st == ST_ROLL_START:
            events_nb(S, I64(EV_ROLL_START), a, I64(SK_ROLL), rules, tp, rng)
            if knocked_out_nb(S, rules):
                continue
            if S[ba + P_SKIP] & SK_ROLL:         # skip = "roll_phase"
                S[ba + P_SKIP] &= ~SK_ROLL
                S[O_STEP] = ST_MAIN2
                continue
            S[O_ROLL_WHO] = 1
            for i in range(N_DICE):
                S[O_ADICE + i] = below_nb(rng, 6)
            S[O_STEP] = ST_ROLL
        elif st == ST_ROLL:
            decide_nb(S, PH_ROLL, a)
            moves[0] = MV_PASS
            n = 1
            if S[O_ATTEMPTS] < S[O_MAX_ATT]:
                for m in range(31):
                    moves[n] = MV_REROLL + m
                    n += 1
            n = card_moves_nb(S, a, W_ROLL, T.card, T.eff, T.use_tok, moves, n, T.deck, T.deck_n, rules)
            n = tithe_moves_nb(S, a, T.tithe, T.use_tok, moves, n)
            n = tithe_draw_moves_nb(S, a, T.tithe, T.use_tok, moves, n)
            return own_spends_nb(S, a, I64(SW_OWN_ROLL), moves, n, rules, tp)
        elif st == ST_PREWIN or st == ST_ATKWIN or st == ST_TWIN:
            q = S[O_WIN_PRIO]
            # a stunned player takes no action; nor does an opponent of an ultimate
            if has_nb(S, q, U_STUN, T.use_tok) or (S[O_ATK_KIND] == K_ULT and team_nb(S, q) != team_nb(S, a)):
                window_pass_nb(S, rules, T, tp, rng)
                continue
            decide_nb(S, PH_WINDOW, q)
            moves[0] = MV_PASS
            n = card_moves_nb(S, q, W_WINDOW, T.card, T.eff, T.use_tok, moves, 1, T.deck, T.deck_n, rules)
            n = tithe_moves_nb(S, q, T.tithe, T.use_tok, moves, n)
            n = tithe_draw_moves_nb(S, q, T.tithe, T.use_tok, moves, n)
            own = st == ST_PREWIN and q == a and S[O_ROLL_WHO] == 1
            return own_spends_nb(S, q, I64(SW_OWN_ROLL) if own else I64(-1), moves, n, rules, tp)
        elif st == ST_ROLL_END:
            events_nb(S, I64(EV_ROLL_END), a, I64(0), rules, tp, rng)
            if knocked_out_nb(S, rules):
                continue
            if S[ba + P_SKIP] & SK_ABILITY:      # fail_attack (Blinded): no ability this phase
                S[ba + P_SKIP] &= ~SK_ABILITY
                S[O_ROLL_WHO] = 0
                S[O_STEP] = ST_MAIN2
                continue
            S[O_STEP] = ST_ABILITY
        elif st == ST_ABILITY:
            n = ability_moves_nb(S, T, moves)
            if n == 0:
                S[O_ROLL_WHO] = 0
                S[O_STEP] = ST_MAIN2
                continue
            if rules[R_MAY_SKIP] != 0:     # the ability may be left unused: pass first
                for i in range(n, 0, -1):
                    moves[i] = moves[i - 1]
                moves[0] = MV_PASS
                n += 1
            decide_nb(S, PH_ABILITY, a)
            return n
        elif st == ST_TARGET:
            # the target (modes/DESIGN.md 2.3): a tier naming "the opponent", outside a Stun's
            # extra phase (it keeps its target); several opponents: free-for-all's free pick, or
            # the targeting roll; one: it, with no roll (1v1: nothing drawn, nothing changed)
            if S[O_NSEATS] > 2 and S[O_STUNNED_ATK] == 0 and T.tier_tgt[S[ba + P_HERO], S[O_AB], S[O_TIER]] != 0:
                k = opponents_in_game_nb(S, a)
                if k == 1:
                    aim_nb(S, first_opponent_nb(S, a), rules, rng)
                elif rules[R_MODE] >= M_FFA0 and rules[R_FFA_FREE] != 0:   # King of the Hill: any opponent
                    S[O_STEP] = ST_TREAD
                    decide_nb(S, PH_TARGET, a)
                    return target_moves_nb(S, a, moves)
                else:
                    S[O_TDIE] = below_nb(rng, 6)
                    S[O_TTAB] = face_table_nb(S, rules, k)
                    S[O_ROLL_WHO] = 3
                    if rules[R_TDIE_CARDS] != 0:     # a window on the die, from the attacker
                        S[O_STEP] = ST_TWIN
                        S[O_WIN_PRIO] = a
                        S[O_WIN_PASSES] = 0
                    else:
                        S[O_STEP] = ST_TREAD
                continue
            S[O_STEP] = ST_RESOLVE if S[O_ATK_KIND] < 0 else ST_ACCURACY
        elif st == ST_TREAD:
            S[O_ROLL_WHO] = 0
            f = rules[S[O_TTAB] + S[O_TDIE]]
            left = side_opponent_nb(S, a, 1)
            right = side_opponent_nb(S, a, -1)
            if f == TF_LEFT or f == TF_RIGHT or f == TF_MIDDLE or (f == TF_PICK_LR and left == right):
                q = left if f == TF_LEFT or f == TF_PICK_LR else right if f == TF_RIGHT else nth_opponent_nb(S, a, 1)
                aim_nb(S, q, rules, rng)
                continue
            if f == TF_PICK_LR:           # the attacker: its left or its right neighbour
                decide_nb(S, PH_TARGET, a)
                moves[0] = MV_TARGET + left
                moves[1] = MV_TARGET + right
                return 2
            who = a if f == TF_PICK else left     # their_pick: the left opponent's team
            decide_nb(S, PH_TARGET, who)
            return target_moves_nb(S, who, moves)
        elif st == ST_ACCURACY:
            if predef_nb(S, rules, tp, rng):     # the tier's pre-defence part stopped for a reroll
                continue
            S[O_STEP] = ST_W_ATTACK_END          # Accuracy's window
        elif st == ST_DEFENDING:
            events_nb(S, I64(EV_DEFENDING), d, I64(0), rules, tp, rng)
            S[O_STEP] = ST_W_DEFENDING
        elif st == ST_DEFROLL:
            if S[O_ATK_KIND] == K_NORMAL and not has_nb(S, d, U_STUN, T.use_tok) and S[O_NODEF] == 0:
                hd = S[bd + P_HERO]
                if S[O_DEF] < 0:
                    if T.def_n[hd] > 1:
                        decide_nb(S, PH_DEFENCE, d)
                        for k in range(T.def_n[hd]):
                            moves[k] = MV_DEFENCE + k
                        return T.def_n[hd]
                    S[O_DEF] = 0
                S[O_DEFENDED] = 1
                k = S[O_DEF]
                nd = T.def_dice[hd, k, S[bd + P_DLVL + k] - 1]
                S[O_DDN] = nd
                for i in range(nd):
                    S[O_DDICE + i] = below_nb(rng, 6)
                S[O_ROLL_WHO] = 2
            S[O_WIN_PRIO] = d
            S[O_WIN_PASSES] = 0
            S[O_STEP] = ST_ATKWIN
            if S[O_DEFENDED] != 0 and T.def_reroll[S[bd + P_HERO], S[O_DEF], S[bd + P_DLVL + S[O_DEF]] - 1] > 0:
                S[O_BONUS_N] = S[O_DDN]           # the defender may reroll some defence dice
                S[O_BONUS_SRC] = BS_DEF
                S[O_STEP] = ST_BONUS
        elif st == ST_RESOLVE:
            if predef_nb(S, rules, tp, rng):     # not an attack: its pre-defence part runs here first
                continue
            h = S[ba + P_HERO]
            ab = S[O_AB]
            t = S[O_TIER]
            r0 = T.tier_start[h, ab, t]
            ln = T.tier_len[h, ab, t]
            k0 = predef_len_nb(T.eff, r0, ln)
            k1 = split_nb(T.eff, r0, ln)
            if k1 > k0:
                run_nb(S, r0 + k0, k1 - k0, I64(CTX_ABILITY), a, I64(O_ADICE), I64(N_DICE), rules, tp, rng)
            if S[O_BONUS_N] > 0:
                S[O_BONUS_ROW] = ln - 1
                S[O_STEP] = ST_BONUS
            else:
                S[O_STEP] = ST_W_ATTACKING       # Crit's window
        elif st == ST_BONUS:
            # the roller may reroll up to K of the waiting dice, once (season1/VOCABULARY.md 7.3)
            src = S[O_BONUS_SRC]
            if src == BS_DEF:
                who = d
                kd = S[O_DEF]
                most = T.def_reroll[S[bd + P_HERO], kd, S[bd + P_DLVL + kd] - 1]
            elif src == BS_CARD:
                who = S[O_CUR]
                cid = S[O_BONUS_ROW]
                most = T.eff[T.card[cid, 4] + T.card[cid, 5] - 1, C_ARG]
            else:
                who = a
                most = T.eff[T.tier_start[S[ba + P_HERO], S[O_AB], S[O_TIER]] + S[O_BONUS_ROW], C_ARG]
            decide_nb(S, PH_BONUS, who)
            moves[0] = MV_PASS
            n = 1
            for m in range(1, 1 << S[O_BONUS_N]):
                c = 0
                for i in range(S[O_BONUS_N]):
                    c += (m >> i) & 1
                if c <= most:
                    moves[n] = MV_DIE + m
                    n += 1
            return n
        elif st == ST_ATTACKED:
            # the defender's attacked events (Targeted, Sneak), while attack damage is incoming
            kind = S[O_ATK_KIND]
            total = S[O_POOL] + S[O_POOL_CARD] + S[O_POOL_TOKEN]
            if kind == K_NORMAL or kind == K_UNDEF:
                total -= S[bd + P_PREVENT]
            if kind >= 0 and total > 0:
                events_nb(S, I64(EV_ATTACKED), d, I64(0), rules, tp, rng)
            S[O_STEP] = ST_W_ATTACKED
        elif st == ST_LAND:
            if S[O_CVIC] == 0 and rules[R_COLL_PREV] != 0 and S[O_COLLAT] > 0 and S[O_ATK_KIND] != K_ULT:
                S[O_CVIC] = 1              # the collateral window first (collateral_preventable)
                S[O_STEP] = ST_COLLWIN
                continue
            land_nb(S, rules, tp)
            # "deal damage, then gain Crit": what the tier lists after its last damage
            h = S[ba + P_HERO]
            r0 = T.tier_start[h, S[O_AB], S[O_TIER]]
            ln = T.tier_len[h, S[O_AB], S[O_TIER]]
            k = split_nb(T.eff, r0, ln)
            k0 = predef_len_nb(T.eff, r0, ln)
            if k0 > k:
                k = k0
            if k < ln:
                run_nb(S, r0 + k, ln - k, I64(CTX_ABILITY), a, I64(O_ADICE), I64(N_DICE), rules, tp, rng)
            S[O_STEP] = ST_W_AFTER               # Retribution's window
        elif st >= ST_W_ATTACK_END and st <= ST_W_AFTER:
            w = st - W_STEP0
            holder = d if WINDOW_DEFENDER[w] != 0 else a
            n = window_nb(S, I64(w), holder, moves, rules, tp)
            if n > 1:
                decide_nb(S, PH_TOKEN, holder)
                return n
            S[O_WIN_USED] = 0
            S[O_STEP] = W_NEXT[w]
        elif st == ST_COLLWIN:
            n = coll_window_nb(S, a, d, moves, rules, T, tp)
            if n > 0:
                return n
            S[O_STEP] = ST_LAND
        elif st == ST_POSTWIN:
            # the attacker's after_damage cards (Head Bash!), while O_TAKEN is this attack's
            n = 0
            if S[O_ATK_KIND] >= 0 and S[ba + P_HP] > 0 and S[bd + P_HP] > 0:
                moves[0] = MV_PASS
                n = card_moves_nb(S, a, W_POST, T.card, T.eff, T.use_tok, moves, 1, T.deck, T.deck_n, rules)
            if n > 1:
                decide_nb(S, PH_WINDOW, a)
                return n
            S[O_STEP] = ST_AFTER
        elif st == ST_PAYDISC:
            q = S[O_CUR]
            hn = S[base(q) + P_HAND_N]
            if S[O_DISC_N] > 0 and hn > 0:
                decide_nb(S, PH_DISCARD, q)
                for h in range(hn):
                    moves[h] = MV_SELL + h
                return hn
            S[O_DISC_N] = 0
            card_effects_nb(S, q, S[O_DISC_CARD], S[O_RET_STEP], rules, T, tp, rng)
        elif st == ST_AFTER:
            S[O_ROLL_WHO] = 0
            S[ba + P_BLOCK] = 0          # block_status lapses with the attack
            S[bd + P_BLOCK] = 0
            if knocked_out_nb(S, rules):
                continue
            s = T.use_tok[U_STUN]
            if s >= 0 and S[bd + P_TOK + s] > 0 and in_game_nb(S, d):    # (a target out: no extra phase)
                S[bd + P_TOK + s] = 0
                if rules[R_STUN_EXTRA] != 0 and S[O_STUNNED_ATK] < 20:
                    S[O_STUNNED_ATK] += 1
                    S[O_STEP] = ST_KNOCK
                    continue
                if rules[R_STUN_EXTRA] != 0:    # a 21st Stun phase this turn: the bound
                    bound_nb(S)
                    break
            S[O_STEP] = ST_MAIN2
        elif st == ST_DIE:
            n = die_moves_nb(S, moves)
            if n == 0:   # nothing to do (a copy with every die alike): the card is spent
                S[O_PEND_OP] = 0
                S[O_STEP] = S[O_RET_STEP]
                continue
            decide_nb(S, PH_BUY if S[O_PEND_OP] == OP_BUY else PH_DIE, S[O_CUR])
            return n
        elif st == ST_DISCARD:
            if knocked_out_nb(S, rules):
                continue
            hn = S[ba + P_HAND_N]
            if hn > rules[R_HAND_LIMIT]:
                decide_nb(S, PH_DISCARD, a)
                for h in range(hn):
                    moves[h] = MV_SELL + h
                return hn
            S[O_STEP] = ST_END
        else:  # ST_END
            if in_game_nb(S, a):               # (a seat whose team went out runs no more events)
                events_nb(S, I64(EV_TURN_END), a, I64(0), rules, tp, rng)
                if knocked_out_nb(S, rules) and S[O_OVER] != 0:   # Delayed Poison can knock out at turn end
                    break
            for q in range(S[O_NSEATS]):      # "this turn" ends for every seat
                bq = base(q)
                for t in range(T.n_tok):
                    S[bq + P_TNEW + t] = 0
                S[bq + P_ONCE] = 0
            S[O_TURN] += 1
            S[O_STUNNED_ATK] = 0
            if S[O_TURN] * 2 >= rules[R_MAX_TURNS] * S[O_NSEATS]:     # max_turns per two seats (1v1: max_turns)
                S[O_OVER] = 1
                S[O_CAPPED] = 1
                S[O_WINNER] = -1
                break
            a = next_seat_nb(S, a)
            S[O_ACTIVE] = a
            S[O_TARGET] = first_opponent_nb(S, a)   # the targeting roll: plan step 3
            S[O_STEP] = ST_UPKEEP
    return 0


@nb.njit(inline="always", **_JIT)
def play_card_nb(S, p, h, ret_step, rules, T, tp, rng):
    b = base(p)
    S[b + P_CP] -= card_cost_nb(S, p, S[b + P_HAND + h], T.card, T.eff, T.deck, T.deck_n, rules)
    cid = take_from_hand_nb(S, p, h)
    S[b + P_CARDS] += 1
    S[b + P_CUSE + cid] += 1
    if T.card[cid, 6] > 0:     # discard_cost: the other cards go first (ST_PAYDISC), then the effects
        S[O_DISC_N] = T.card[cid, 6]
        S[O_DISC_CARD] = cid
        S[O_RET_STEP] = ret_step
        S[O_CUR] = p
        S[O_STEP] = ST_PAYDISC
        return
    card_effects_nb(S, p, cid, ret_step, rules, T, tp, rng)


@nb.njit(inline="always", **_JIT)
def card_effects_nb(S, p, cid, ret_step, rules, T, tp, rng):
    """A played card's effects; a die effect (or buy) waits for its player at ST_DIE, else
    play goes on at ``ret_step``."""
    S[O_PEND_OP] = 0
    run_nb(S, T.card[cid, 4], T.card[cid, 5], I64(CTX_CARD), p, I64(0), I64(0), rules, tp, rng)
    if S[O_PEND_OP] != 0:
        S[O_RET_STEP] = ret_step
        S[O_CUR] = p
        S[O_STEP] = ST_DIE
    elif S[O_BONUS_N] > 0:      # its roll's dice wait for the player's reroll (may_reroll)
        S[O_BONUS_SRC] = BS_CARD
        S[O_BONUS_ROW] = cid
        S[O_RET_STEP] = ret_step
        S[O_CUR] = p
        S[O_STEP] = ST_BONUS
    else:
        S[O_STEP] = ret_step


@nb.njit(inline="always", **_JIT)
def tithe_draw_nb(S, p, tithe, rules, rng):
    b = base(p)
    S[b + P_CP] -= tithe[S[b + P_HERO], S[b + P_PLVL] - 1, 1]
    draw_nb(S, p, rules, rng)


@nb.njit(inline="always", **_JIT)
def tithe_reroll_nb(S, p, i, tithe, rng):
    b = base(p)
    S[b + P_CP] -= tithe[S[b + P_HERO], S[b + P_PLVL] - 1, 0]
    S[dice_span_nb(S)[0] + i] = below_nb(rng, 6)


@nb.njit(inline="always", **_JIT)
def used_nb(S, T):
    """Bit s set: the activated tier needs symbol s (a symbol target names it; a straight
    or of-a-kind target: the attack dice show it)."""
    b = base(S[O_ACTIVE])
    h = S[b + P_HERO]
    ab = S[O_AB]
    t = S[O_TIER]
    m = 0
    for alt in range(T.t_kinds.shape[3]):
        k = T.t_kinds[h, ab, t, alt]
        if k == 0:
            for s in range(T.n_sym[h]):
                if T.t_need[h, ab, t, alt, s] > 0:
                    m |= 1 << s
        elif k > 0:
            for i in range(N_DICE):
                m |= 1 << T.face_sym[h, S[O_ADICE + i]]
    return m


@nb.njit(inline="always", **_JIT)
def attack_kind_nb(S, tier_kind):
    h = S[base(S[O_ACTIVE]) + P_HERO]
    return tier_kind[h, S[O_AB], S[O_TIER]]


@nb.njit(_nrt=False, **_JIT)
def apply_move_nb(S, mv, rules, tp, rng):
    T = tables_view_nb(tp)
    a = S[O_ACTIVE]
    p = S[O_CUR]
    b = base(p)
    st = S[O_STEP]
    if S[O_CHOOSE_N] > 0:          # the decision was a queued choose's pick (PH_CHOOSE; MV_PICK lies in the spend range)
        if mv >= MV_TARGET:          # or a chosen player's (PH_TARGET)
            pick_seat_nb(S, mv - MV_TARGET, tp)
        else:
            pick_nb(S, mv - MV_PICK, rules, tp, rng)
    elif mv >= MV_SPEND and mv < MV_PICK and st != ST_DIE:     # a spend: then back to the same decision
        spend_nb(S, mv - MV_SPEND, p, rules, tp, rng)
    elif st == ST_W_UPKEEP:
        upkeep_events_nb(S, rules, tp, rng)
    elif st == ST_MAIN1 or st == ST_MAIN2:
        if mv == MV_PASS:
            S[O_STEP] = ST_KNOCK if st == ST_MAIN1 else ST_DISCARD
        elif mv >= MV_TITHE_DRAW:
            tithe_draw_nb(S, p, T.tithe, rules, rng)
        elif mv >= MV_SELL:
            take_from_hand_nb(S, p, mv - MV_SELL)
            gain_cp_nb(S, p, rules[R_SELL_CP], rules)
            S[b + P_SOLD] += 1
        else:
            play_card_nb(S, p, mv - MV_PLAY, st, rules, T, tp, rng)
    elif st == ST_W_ROLL_START:      # MV_PASS (a spend: above): the roll_phase_start events, then the roll
        S[O_STEP] = ST_ROLL_START
    elif st == ST_ROLL:
        if mv == MV_PASS:
            S[O_STEP] = ST_PREWIN
            S[O_WIN_PRIO] = next_seat_nb(S, a)
            S[O_WIN_PASSES] = 1
        elif mv < MV_PLAY:
            keep = mv - MV_REROLL
            for i in range(N_DICE):
                if not (keep >> i) & 1:
                    S[O_ADICE + i] = below_nb(rng, 6)
            S[O_ATTEMPTS] += 1
        elif mv < MV_SELL:
            play_card_nb(S, p, mv - MV_PLAY, st, rules, T, tp, rng)
        elif mv >= MV_TITHE_DRAW:
            tithe_draw_nb(S, p, T.tithe, rules, rng)
        else:
            tithe_reroll_nb(S, p, mv - MV_TITHE_REROLL, T.tithe, rng)
    elif st == ST_PREWIN or st == ST_ATKWIN or st == ST_TWIN:
        if mv == MV_PASS:
            window_pass_nb(S, rules, T, tp, rng)
        else:
            S[O_WIN_PASSES] = 0
            S[O_WIN_PRIO] = next_seat_nb(S, p)
            if mv < MV_SELL:
                play_card_nb(S, p, mv - MV_PLAY, st, rules, T, tp, rng)
            elif mv >= MV_TITHE_DRAW:
                tithe_draw_nb(S, p, T.tithe, rules, rng)
            else:
                tithe_reroll_nb(S, p, mv - MV_TITHE_REROLL, T.tithe, rng)
    elif st == ST_ABILITY and mv == MV_PASS:
        S[O_ROLL_WHO] = 0
        S[O_STEP] = ST_MAIN2
    elif st == ST_ABILITY:
        x = mv - MV_ABILITY
        S[O_AB] = x // 16
        S[O_TIER] = x % 16
        S[b + P_USES + S[O_AB]] += 1
        S[b + P_ATTACKS] += 1
        kind = attack_kind_nb(S, T.tier_kind)
        S[O_ATK_KIND] = kind
        S[O_USED] = used_nb(S, T)
        h = S[b + P_HERO]
        lv = S[b + P_PLVL] - 1
        run_nb(S, T.tithe[h, lv, 2], T.tithe[h, lv, 3], I64(CTX_ABILITY), a, I64(O_ADICE), I64(N_DICE), rules, tp, rng)
        S[O_ROLL_WHO] = 0
        # the target (ST_TARGET: a roll with several opponents), then an attack (an ultimate
        # too: its window is the attacker's alone) goes on to Accuracy, the defensive roll and
        # the window; an ability without damage resolves
        S[O_STEP] = ST_TARGET
    elif st == ST_TREAD:            # PH_TARGET: the attack goes to the seat picked
        aim_nb(S, mv - MV_TARGET, rules, rng)
    elif st >= ST_W_ATTACK_END and st <= ST_W_AFTER:     # MV_PASS (a spend: above)
        S[O_WIN_USED] = 0
        S[O_STEP] = W_NEXT[st - W_STEP0]
    elif st == ST_COLLWIN:          # MV_PASS: this seat's next offer; a card: back to its card offer
        if mv == MV_PASS:
            S[O_CVIC] += 1
            S[O_WIN_USED] = 0
        else:
            play_card_nb(S, p, mv - MV_PLAY, ST_COLLWIN, rules, T, tp, rng)
    elif st == ST_DIE:
        doff, nd = dice_span_nb(S)
        x = mv - MV_DIE
        op = S[O_PEND_OP]
        if op == OP_BUY:
            if mv != MV_PASS:
                k = mv - MV_BUY
                S[b + P_CP] -= k * S[O_PEND_N]
                S[b + P_TOK + S[O_PEND_ARG]] += k
            S[O_PEND_N] = 0
        elif op == OP_SET_DIE or op == OP_COPY_DIE:
            S[doff + x // 8] = x % 8 - 1
            S[O_PEND_N] -= 1
        elif op == OP_MOVE_DIE:
            S[doff + x // 8] += 1 if x % 8 != 0 else -1
            S[O_PEND_N] -= 1
        else:
            for i in range(nd):
                if (x >> i) & 1:
                    S[doff + i] = below_nb(rng, 6)
            if x == 0 or S[O_PEND_ARG] <= 1:
                S[O_PEND_N] = 0
            else:                # another reroll of the same card follows
                S[O_PEND_ARG] -= 1
        if S[O_PEND_N] <= 0:
            S[O_PEND_OP] = 0
            S[O_STEP] = S[O_RET_STEP]
    elif st == ST_DEFROLL:
        S[O_DEF] = mv - MV_DEFENCE
    elif st == ST_BONUS:
        nb_ = S[O_BONUS_N]
        src = S[O_BONUS_SRC]
        doff = O_DDICE if src == BS_DEF else O_BDICE
        if mv != MV_PASS:
            for i in range(nb_):
                if ((mv - MV_DIE) >> i) & 1:
                    S[doff + i] = below_nb(rng, 6)
        S[O_BONUS_N] = 0
        S[O_BONUS_SRC] = BS_TIER
        if src == BS_DEF:
            S[O_STEP] = ST_ATKWIN
        else:
            if src == BS_CARD:
                cid = S[O_BONUS_ROW]
                row = T.card[cid, 4] + T.card[cid, 5] - 1
                ctx = CTX_CARD
                owner = p
                odoff = 0
                ond = 0
            else:
                row = T.tier_start[S[base(a) + P_HERO], S[O_AB], S[O_TIER]] + S[O_BONUS_ROW]
                ctx = CTX_ABILITY
                owner = a
                odoff = O_ADICE
                ond = N_DICE
            if T.eff[row, C_OP] == OP_ROLL_SUM:      # a roll_sum's dice: their face-number sum
                tot = 0
                for i in range(nb_):
                    tot += S[O_BDICE + i] + 1
                S[O_PIPS] = tot
            else:
                for i in range(nb_):
                    outcome_nb(S, row, S[O_BDICE + i], I64(ctx), owner, I64(odoff), I64(ond), rules, tp, rng)
                if T.out_len[T.eff[row, C_SUB], AFTER] > 0:
                    after_nb(S, row, I64(ctx), owner, nb_, rules, tp, rng)
            S[O_STEP] = ST_W_ATTACKING if src == BS_TIER else S[O_RET_STEP]
    elif st == ST_DISCARD:
        take_from_hand_nb(S, p, mv - MV_SELL)
        gain_cp_nb(S, p, rules[R_SELL_CP], rules)
        S[b + P_SOLD] += 1
    elif st == ST_POSTWIN:
        if mv == MV_PASS:
            S[O_STEP] = ST_AFTER
        else:
            play_card_nb(S, p, mv - MV_PLAY, ST_POSTWIN, rules, T, tp, rng)
    elif st == ST_PAYDISC:      # a discard_cost: the card goes, no CP
        take_from_hand_nb(S, p, mv - MV_SELL)
        S[O_DISC_N] -= 1


def tables_of(tables):
    """The content tables ``T`` from what an entry point was given: ``T`` itself (the
    scenario tests), or its address table (``borrow.table_ptrs``: the games)."""


@overload(tables_of, inline="always")
def _tables_of(tables):
    if isinstance(tables, types.Array):
        return lambda tables: tables_view_nb(tables)
    return lambda tables: tables


@nb.njit(**_JIT)
def start_nb(S, seats, rules, tables, rng, moves):
    """``seats`` is the seat count (the mode's: 1v1 2, 2v2 4; the shared driver's argument);
    ``tables`` the content tables or their address table (``tables_of``); the heroes per
    seat are ``T.lineup``. Seats alternate teams (2v2: seats 0 and 2 are team 0); in 1v1
    each seat is its own team. A team's health is one pool (``set_hp_nb``)."""
    T = tables_of(tables)
    S[:] = 0
    S[O_NSEATS] = seats
    teams = mode_teams_nb(rules[R_MODE])      # seat p is on team p % teams (free-for-all: its own)
    S[O_ALIVE] = (1 << teams) - 1
    hp0 = start_hp_nb(rules)
    for p in range(seats):
        b = base(p)
        h = T.lineup[p]
        S[b + P_TEAM] = p % teams
        S[b + P_HERO] = h
        S[b + P_HP] = hp0
        S[b + P_CP] = rules[R_START_CP]
        for t in range(MAX_TOKENS):
            S[b + P_LIM + t] = T.tok[t, 1]
        for ab in range(MAX_AB):
            S[b + P_LVL + ab] = 1 if ab < T.n_ab[h] else 0
        for k in range(T.def_n[h]):
            S[b + P_DLVL + k] = 1
        S[b + P_PLVL] = 1
        for i in range(MAX_HAND):
            S[b + P_HAND + i] = NONE
        for i in range(MAX_DECK):
            S[b + P_DECK + i] = NONE
            S[b + P_DISC + i] = NONE
        n = T.deck_n[h]
        for i in range(n):
            S[b + P_DECK + i] = T.deck[h, i]
        S[b + P_DECK_N] = n
    S[O_WINNER] = -1
    S[O_AB] = -1
    S[O_TIER] = -1
    S[O_ATK_KIND] = -1
    for p in range(seats):
        b = base(p)
        shuffle_nb(S, b + P_DECK, S[b + P_DECK_N], rng)
    for p in range(seats):
        for _ in range(rules[R_START_HAND]):
            draw_nb(S, p, rules, rng)
    first = 0
    if rules[R_FIRST] == 0:
        # every seat rolls one die in seat order; the seats tied at the highest roll again
        cand = (1 << seats) - 1
        while True:
            best = -1
            tied = 0
            for p in range(seats):
                if (cand >> p) & 1:
                    x = below_nb(rng, 6)
                    if x > best:
                        best = x
                        tied = 1 << p
                    elif x == best:
                        tied |= 1 << p
            if tied & (tied - 1) == 0:
                while not (tied >> first) & 1:
                    first += 1
                break
            cand = tied
    S[O_FIRST] = first
    S[O_ACTIVE] = first
    if rules[R_TEAM_ORDER] == 1 and rules[R_MODE] != 0:
        # blocks: the start player and its teammates in seat order, then the next team's seats
        k = 0
        for side in range(teams):
            for j in range(seats):
                q = (first + j) % seats
                if q % teams == (first + side) % teams:
                    S[O_ORDER + k] = q
                    k += 1
    else:
        for k in range(seats):
            S[O_ORDER + k] = (first + k) % seats
    S[O_TARGET] = first_opponent_nb(S, first)
    S[O_TTAB] = R_TFACES2
    S[O_SEEHANDS] = rules[R_TEAM_HANDS]
    S[O_STEP] = ST_UPKEEP
    # on to the first decision through apply_tp_nb (no move to apply): the state machine
    # is compiled once, there, not a second time here (a third of the cold compile)
    return apply_tp_nb(S, I64(PH_DONE), I64(NO_MOVE), rules, as_ptrs(tables), rng, moves)


@nb.njit(_nrt=False, **_JIT)
def apply_tp_nb(S, phase, move, rules, tp, rng, moves):
    """Apply ``move`` (``NO_MOVE``: none, from ``start_nb``) and play on to the next decision.

    Compiled without numba's reference counting (``_nrt=False``): it allocates nothing,
    and its callers hold every array it receives, so the counts it kept (a call to the
    runtime for each of the ~30 tables on entry and on exit, and for the arrays handed
    to every inlined helper: a tenth of the time) were never needed. (It borrowed
    views of S, rules, rng and moves for the same reason: ``simcore.dicethrone.borrow``.)
    The content tables come as their address table ``tp`` (``borrow.table_ptrs``): the
    tuple of ~30 arrays, passed by value, cost ~300 words copied per call. This is the
    one compiled copy of the state machine: ``apply_nb``, ``start_nb`` and ``advance_nb``
    call it, whichever form of the tables they are given.

    One loop: apply the move, then the automatic steps to the next decision, a single
    legal move applied at once (the loop of a former ``advance_loop_nb``, folded in here:
    each compiled call hands over five arrays of seven words, and that call and its
    copies were a tenth of a game's time; the order of the calls is unchanged)."""
    mv = move
    while True:
        if mv != NO_MOVE:
            apply_move_nb(S, mv, rules, tp, rng)
        n = next_decision_nb(S, rules, tp, rng, moves)
        if S[O_OVER] != 0:
            S[O_PHASE] = PH_DONE
            return PH_DONE, 0
        if n >= 2:
            return S[O_PHASE], n
        mv = moves[0]


def as_ptrs(tables):
    """The address table of the content tables: ``tables`` itself if it is one, else
    ``borrow.table_ptrs_nb(T)`` (the scenario tests hand over ``T``)."""


@overload(as_ptrs, inline="always")
def _as_ptrs(tables):
    if isinstance(tables, types.Array):
        return lambda tables: tables
    return lambda tables: table_ptrs_nb(tables)


@nb.njit(**_JIT)
def apply_nb(S, phase, move, rules, tables, rng, moves):
    """Apply ``move`` and play on to the next decision (``apply_tp_nb``); ``tables``: the
    content tables or their address table (the games: ``borrow.table_ptrs``)."""
    return apply_tp_nb(S, phase, move, rules, as_ptrs(tables), rng, moves)


@nb.njit(**_JIT)
def advance_nb(S, rules, T, rng, moves):
    """Play on to the next decision from ``S`` (no move to apply)."""
    return apply_tp_nb(S, I64(PH_DONE), I64(NO_MOVE), rules, as_ptrs(T), rng, moves)


OBS_LITE = len(Tables._fields) * TP_W    # past the fields of an address table: one flag per seat (observe_nb)


def lite_seat(tables, seat):
    """Whether ``seat``'s strategy reads only the lite observation: flag ``OBS_LITE + seat``
    of an address table that carries the flags (``chunk_nb`` sets them for its built-ins);
    never for the tables themselves."""


@overload(lite_seat, inline="always")
def _lite_seat(tables, seat):
    if isinstance(tables, types.Array):
        return lambda tables, seat: tables.shape[0] > OBS_LITE + 1 and tables[OBS_LITE + seat] != 0
    return lambda tables, seat: False


OBS_NONE = 2    # a seat flag (chunk_nb): no seat of the game reads its observation (every seat random)


def blind_seat(tables, seat):
    """Whether no seat of the game reads an observation: flag ``OBS_NONE`` at ``OBS_LITE +
    seat`` (``chunk_nb`` sets it on every seat when every seat plays ``random``, which
    reads only the move count); never for the tables themselves."""


@overload(blind_seat, inline="always")
def _blind_seat(tables, seat):
    if isinstance(tables, types.Array):
        return lambda tables, seat: tables.shape[0] > OBS_LITE + 1 and tables[OBS_LITE + seat] == OBS_NONE
    return lambda tables, seat: False


@nb.njit(inline="always", **_JIT)
def sees_hand_nb(S, seat, p):
    """Whether ``seat`` sees seat ``p``'s hand: its own, or a teammate's under
    ``team_sees_hands`` (``O_SEEHANDS``)."""
    return p == seat or (S[O_SEEHANDS] != 0 and S[base(p) + P_TEAM] == S[base(seat) + P_TEAM])


@nb.njit(_nrt=False, **_JIT)
def observe_nb(S, obs, seat, T):
    """Information-fair copy for ``seat``: every deck and every other hand hidden (NONE),
    but a teammate's hand shown under ``team_sees_hands`` (``O_SEEHANDS``).

    Copied in ``memcpy`` spans (``obs[:] = S`` copied item by item: a fifth of a
    decision's time), the decks left out (they are NONE in any case). A seat flagged lite
    in the address table (``lite_seat``: ``greedy`` and ``random``, which read only the
    header, the first ``P_CUSE`` fields of their own seat and their own hand) gets only
    those parts refreshed; what they read is the same, and nothing hidden is copied. When
    no seat reads any observation (``blind_seat``: every seat plays ``random``) nothing is
    copied: in a random game the lite copies (~220 words at each of ~450 decisions) were a
    tenth of the time, for a buffer no one read. Compiled without reference counting: it
    allocates nothing."""
    if blind_seat(T, seat):
        return
    b0 = base(0)
    b1 = base(1)
    if S.shape[0] != S_LEN or obs.shape[0] != S_LEN:    # more than two seats (or a plug-in's copy)
        copy_items(obs, S, min(S.shape[0], obs.shape[0]))
        for p in range(S[O_NSEATS]):
            b = base(p)
            for i in range(MAX_DECK):
                obs[b + P_DECK + i] = NONE
            if p != seat and not sees_hand_nb(S, seat, p):
                for i in range(MAX_HAND):
                    obs[b + P_HAND + i] = NONE
        return
    if lite_seat(T, seat):
        bs = base(seat)
        copy_span(obs, S, 0, O_SEATS)
        copy_span(obs, S, bs, P_CUSE)
        copy_span(obs, S, bs + P_HAND, MAX_HAND)
    else:
        copy_span(obs, S, 0, b0 + P_DECK)
        copy_span(obs, S, b0 + P_DISC, b1 + P_DECK - (b0 + P_DISC))
        copy_span(obs, S, b1 + P_DISC, S_LEN - (b1 + P_DISC))
    for q in range(2):
        if q != seat:
            bo = base(q) + P_HAND
            for i in range(MAX_HAND):
                obs[bo + i] = NONE
    # the decks: never copied, so NONE once set (a deck's first slot is NONE only when
    # the deck is empty: an obs that ever held a state's deck shows it there)
    if obs[b0 + P_DECK] != NONE or obs[b1 + P_DECK] != NONE:
        for i in range(MAX_DECK):
            obs[b0 + P_DECK + i] = NONE
            obs[b1 + P_DECK + i] = NONE


@nb.njit(**_JIT)
def score_nb(S, scores):
    """The lead statistics' score of each side: team t's health in column t (seats
    alternate teams, so seat t is on team t); the columns past the teams never lead."""
    ns = S[O_NSEATS]
    teams = 0
    for p in range(ns):
        if S[base(p) + P_TEAM] >= teams:
            teams = S[base(p) + P_TEAM] + 1
    for p in range(ns):
        scores[p] = S[base(p) + P_HP] if p < teams else -1e300


@nb.njit(**_JIT)
def record_nb(S, row):
    """Fill one record row in ``model.record_fields(seats)`` order (two seats:
    ``model.RECORD_FIELDS``)."""
    ns = S[O_NSEATS]
    row[0] = S[O_WINNER]
    row[1] = S[O_CAPPED]
    row[2] = S[O_TURN]
    row[3] = S[O_FIRST]
    k = 4
    for p in range(ns):
        row[k] = S[base(p) + P_HERO]
        k += 1
    for p in range(ns):
        row[k] = S[base(p) + P_HP]
        k += 1
    for p in range(ns):
        for s in range(4):
            row[k] = S[base(p) + P_DMG + s]
            k += 1
    for f in (P_ATTACKS, P_CARDS, P_SPENDS, P_SOLD):
        for p in range(ns):
            row[k] = S[base(p) + f]
            k += 1
    if ns > 2:
        for p in range(ns):
            row[k] = S[base(p) + P_TEAM]
            k += 1
        for p in range(ns):              # 0: never out (the winners; a capped game's survivors): 1st
            row[k] = S[base(p) + P_PLACE] if S[base(p) + P_PLACE] > 0 else 1
            k += 1
        for p in range(ns):
            row[k] = S[base(p) + P_OUT] - 1
            k += 1
    for p in range(ns):
        for ab in range(MAX_AB):
            row[k] = S[base(p) + P_USES + ab]
            k += 1
    for p in range(ns):
        for t in range(MAX_TOKENS):
            row[k] = S[base(p) + P_TUSE + t]
            k += 1
    for p in range(ns):
        for c in range(MAX_CARDS):
            row[k] = S[base(p) + P_CUSE + c]
            k += 1
