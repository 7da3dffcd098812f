"""The engine's own bounds on what the rules leave open (RULES.md, "Where the engine bounds
what the rules leave open"; issue 29 item 4): a draw into a full hand of ``MAX_HAND`` cards
and a 21st Stun phase in one turn end the game **capped** in both engines, as the turn cap
does, so such a game is counted as capped and left out of every rate. Forced positions,
played through the kernel and the reference engine (``play_both`` holds them equal)."""
from __future__ import annotations

from dicethrone_helpers import CARD, FIRE, MAGMA, METEOR, play_both, position, scenario_rules

from simcore.dicethrone import model as M

HOLD = ("double",)   # a card in the attacker's hand makes main phase 2 a decision (as in test_dicethrone_rules)


def _ended_capped(S):
    return S[M.O_OVER] == 1 and S[M.O_CAPPED] == 1 and S[M.O_WINNER] == -1 and S[M.O_PHASE] == M.PH_DONE


def _hand(n):
    ids = list(CARD)
    return tuple(ids[i % len(ids)] for i in range(n))


def test_a_draw_into_a_full_hand_ends_the_game_capped():
    """The income draw of a player holding MAX_HAND (16) cards: the game ends capped
    (before: the card stayed in the deck and the game went on, not marked)."""
    S0 = position(step=M.ST_INCOME, hands=(_hand(M.MAX_HAND), ()))
    g, S, seen = play_both(S0)
    assert _ended_capped(S) and g.capped == 1 and g.winner == -1
    assert int(S[M.seat_base(0) + M.P_HAND_N]) == M.MAX_HAND


def test_a_draw_below_the_bound_goes_on():
    """The same draw with 15 cards in hand fills the hand to 16 and the game goes on."""
    S0 = position(step=M.ST_INCOME, hands=(_hand(M.MAX_HAND - 1), ()))
    g, S, seen = play_both(S0)
    assert S[M.O_OVER] == 0 and S[M.O_CAPPED] == 0
    assert int(S[M.seat_base(0) + M.P_HAND_N]) == M.MAX_HAND


def _stun_position(phases_so_far):
    """Meteorite (4 meteor) stuns the Paladin; ``phases_so_far`` Stun phases were already
    played this turn."""
    S0 = position(adice=(METEOR, METEOR, METEOR, METEOR, FIRE), hands=(HOLD, ()),
                  rules=scenario_rules(stun_extra_attack=True))
    S0[M.O_STUNNED_ATK] = phases_so_far
    return S0


def test_a_21st_stun_phase_ends_the_game_capped():
    """After 20 extra Stun phases in one turn, a fresh Stun would give a 21st: the game ends
    capped (before: the Stun was removed and the turn went on to the main phase)."""
    rules = scenario_rules(stun_extra_attack=True)
    g, S, seen = play_both(_stun_position(20), dice=(MAGMA,) * 5, rules=rules)
    assert _ended_capped(S) and g.capped == 1


def test_the_20th_stun_phase_is_still_played():
    rules = scenario_rules(stun_extra_attack=True)
    g, S, seen = play_both(_stun_position(19), dice=(MAGMA,) * 5, rules=rules)
    assert S[M.O_OVER] == 0 and S[M.O_STEP] == M.ST_ROLL and S[M.O_STUNNED_ATK] == 20
