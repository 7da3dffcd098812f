"""River battle rule scenarios on hand-made positions, each played by BOTH engines from
the same state (``river_helpers.Both`` asserts equal legal move lists and equal state
vectors after every move); the asserts check the digest's rule."""
import numpy as np
import pytest

from river_helpers import RULES, TABLES, Both, c, cs, play, position
from simcore.errors import PlaytestError
from simcore.river import kernel as K
from simcore.river import model as M
from simcore.river.model import (MV_CLAIM, MV_DRAW_BATTLE, MV_DRAW_TACTIC, MV_END, MV_LOG, MV_RETREAT,
                                 MV_STEAL, O_CANCELS, O_DAMAGED, O_DECIDE, O_FINAL, O_LOGS, O_REASON,
                                 O_TSTATE, O_WINNER, PH_A_END, PH_A_PLAY, PH_A_PREP, PH_D_PLAY, PH_D_PREP,
                                 PH_DONE, PH_DRAW)
from simcore.rng import new_state

R = lambda **kw: M.load_rules(overrides=kw)  # noqa: E731
HANDS = ("r1 y1 g1", "b1 p1 r2")


def claims(b):
    return [m - MV_CLAIM for m in b.legal() if m < MV_RETREAT]


# ------------------------------------------------------------------ control
def test_claim_against_complete_weaker_formation_damages_the_dam_and_discards_both_sides():
    # dam 3 (3 cards, all formations): colour run r5 r6 r7 beats same strength 9 9 9
    b = Both(position(sides={(2, 0): "r5 r6 r7", (2, 1): "y9 g9 b9"}, hands=HANDS, deck="p5 p6"))
    assert claims(b) == [2]
    b.play(MV_CLAIM + 2)
    assert b[O_TSTATE + 2] == 1 and b[O_DAMAGED] == 1
    assert b.side(2, 0) == [] and b.side(2, 1) == []
    assert b.discards() == cs("r5 r6 r7 y9 g9 b9")
    # the turn goes on; nothing left to claim or retreat from, so the preparation ends by itself
    assert b.phase == PH_A_PLAY and b[O_WINNER] == -1
    # the damaged side counts differently: dam 3 damaged = 3 cards, colour and sum
    assert K.tile_n_nb(b.S, 2, TABLES) == 3 and K.tile_mode_nb(b.S, 2, TABLES) == M.M_COLOUR


def test_no_claim_against_complete_stronger_formation():
    b = Both(position(sides={(2, 0): "y9 g9 b9", (2, 1): "r5 r6 r7"}, hands=HANDS, deck="p5"))
    assert claims(b) == []


@pytest.mark.parametrize("tie_rule,attacker_first,legal", [
    ("first", True, True), ("first", False, False), ("defender", True, False), ("defender", False, False),
    ("defender_complete", True, False), ("defender_complete", False, False)])
def test_tie_between_complete_formations_follows_the_tie_option(tie_rule, attacker_first, legal):
    # runs 1-2-3 of mixed colours on both sides: equal type, equal sum
    done = {(2, 0): 1, (2, 1): 2} if attacker_first else {(2, 0): 2, (2, 1): 1}
    b = Both(position(sides={(2, 0): "r1 y2 g3", (2, 1): "b1 p2 y3"}, done=done, hands=HANDS, deck="p5"),
             R(tie_rule=tie_rule))
    assert claims(b) == ([2] if legal else [])


def test_proof_claim_uses_only_cards_unseen_by_the_attacker():
    # dam 4 (2 cards, all formations): attacker r2 y2 (same strength, 4); defender g5 alone
    sides = {(3, 0): "r2 y2", (3, 1): "g5"}
    # g4 and g6 unseen: the defender could still make a colour run -> no claim
    b = Both(position(sides=sides, hands=("r9", "g6 b3"), deck="g4 p7", disc="r5 y5 b5 p5"))
    assert claims(b) == []
    # g4 and g6 both seen (attacker's hand, discards); every other 5 discarded: the best the
    # defender can still make is a colour (green) pair, weaker than a same-strength pair
    b = Both(position(sides=sides, hands=("r9 g6", "b3"), deck="p7 b8", disc="g4 r5 y5 b5 p5"))
    assert claims(b) == [3]
    # one 5 unseen: a pair of 5s (same strength, 10) beats 2-2 -> no claim
    b = Both(position(sides=sides, hands=("r9 g6", "b3"), deck="p5 b8", disc="g4 r5 y5 b5"))
    assert claims(b) == []
    # the proof rule switched off: never against an incomplete formation
    b = Both(position(sides=sides, hands=("r9 g6", "b3"), deck="p7 b8", disc="g4 r5 y5 b5 p5"),
             R(claim_by_proof=False))
    assert claims(b) == []


def test_proof_leaves_out_the_card_that_would_only_cancel_the_attackers_duck():
    # dam 4 (2 cards, all formations): attacker r0 r1 (colour run, sum 1), defender r10.
    # Only r9 or r11 would give the defender a beating colour run: r9 is in the attacker's
    # hand; r11, unseen, played at this dam cancels the attacker's r0 (duck and beaver)
    # instead of landing, so it completes no defender formation there: the claim is proven
    pos = position(sides={(3, 0): "r0 r1", (3, 1): "r10"}, hands=("r9 y3", "r11 b4"), deck="g5 p6",
                   rest_discarded=True)
    assert claims(Both(pos)) == [3]
    # without the duck and beaver rule r11 lands and beats r0 r1: no claim
    assert claims(Both(pos, R(duck_beaver=False))) == []
    # the same pair on the defender's side of another dam changes nothing here
    pos2 = position(sides={(3, 0): "r0 r1", (3, 1): "r10", (5, 1): "g0"}, hands=("r9 y3", "r11 b4"),
                    deck="p6", rest_discarded=True)
    assert claims(Both(pos2)) == [3]
    # r9 unseen as well: it lands, and r9 r10 beats r0 r1 -> no claim
    pos3 = position(sides={(3, 0): "r0 r1", (3, 1): "r10"}, hands=("y3", "r11 b4"), deck="r9 p6",
                    rest_discarded=True)
    assert claims(Both(pos3)) == []


def test_proof_when_the_defender_cannot_complete_at_all():
    # dam 2 (4 cards): defender has 1 card and only 2 cards are unseen -> it cannot complete
    everything = [M.card(col, v) for col in range(5) for v in range(12)]
    att, dfd = cs("r8 r9 r10 y4"), cs("b1")
    unseen = cs("p3 p4")
    disc = [x for x in everything if x not in att + dfd + unseen]
    S = position(sides={(1, 0): "r8 r9 r10 y4", (1, 1): "b1"}, hands=("", ""), deck="p3 p4")
    S[M.O_DISC_N] = len(disc)
    S[M.O_DISC:M.O_DISC + len(disc)] = disc
    assert claims(Both(S)) == [1]


def test_tie_against_a_later_completion():
    # dam 4 (2 cards): attacker r3 y4 (run, sum 7). Defender g3; the attacker has not seen
    # exactly b4 b9 (pile) and r10 (defender's hand): g3 b4 is also a run of 7 (an equal key)
    S = position(sides={(3, 0): "r3 y4", (3, 1): "g3"}, hands=("r11", "r10"), deck="b4 b9", rest_discarded=True)
    assert claims(Both(S)) == [3]                          # first completed wins: the attacker holds it
    assert claims(Both(S, R(tie_rule="defender"))) == []   # the defender holds ties
    # defender_complete: the defender holds only ties of two complete formations; a tying
    # completion still to come loses to the attacker, who completed first (issue 33)
    assert claims(Both(S, R(tie_rule="defender_complete"))) == [3]
    # b4 replaced by b5: the defender's best is a sum (13 or 15 < run key): claim
    S = position(sides={(3, 0): "r3 y4", (3, 1): "g3"}, hands=("r11", "r10"), deck="b5 b9", rest_discarded=True)
    assert claims(Both(S, R(tie_rule="defender"))) == [3]
    # g4 unseen: the colour run g3 g4 beats the run
    S = position(sides={(3, 0): "r3 y4", (3, 1): "g3"}, hands=("r11", "r10"), deck="g4 b9", rest_discarded=True)
    assert claims(Both(S)) == []


def test_tile_restrictions_sum_only_and_lowest():
    # dam 1 intact: only the sum counts; 9+10+11 = 30 beats the colour run 4-5-6 (15)
    b = Both(position(sides={(0, 0): "r9 y10 g10", (0, 1): "b4 b5 b6"}, hands=HANDS, deck="p9"))
    assert claims(b) == [0]
    # dam 7 intact: lowest sum wins
    b = Both(position(sides={(6, 0): "r1 y2 g3", (6, 1): "b1 b2 b3"}, hands=HANDS, deck="p9"))
    assert claims(b) == [6]                     # equal sums 6, the attacker completed first: it holds the tie
    b2 = Both(position(sides={(6, 0): "r1 y2 g2", (6, 1): "b1 b2 b3"}, hands=HANDS, deck="p9"))
    assert claims(b2) == [6]
    b3 = Both(position(sides={(6, 0): "b4 b5 b6", (6, 1): "r3 y3 g3"}, hands=HANDS, deck="p9"))
    assert claims(b3) == []


def test_equal_lowest_sum_with_defender_first_is_no_claim():
    b = Both(position(sides={(6, 0): "r1 y2 g3", (6, 1): "b1 b2 b3"}, done={(6, 0): 2, (6, 1): 1},
                      hands=HANDS, deck="p9"))
    assert claims(b) == []


def test_restricted_damaged_sides():
    # dam 2 damaged: 2 cards, same strength and sum. 8-8 (same) beats 10+9 (sum 19)
    b = Both(position(sides={(1, 0): "r8 y8", (1, 1): "g10 b9"}, tstate={1: 1}, hands=HANDS, deck="p9"))
    assert claims(b) == [1]
    # dam 1 damaged: runs and sum: a colour run counts as a run only; 9 10 11 mixed run (30)
    # beats colour run 1 2 3 (6)
    b = Both(position(sides={(0, 0): "r9 y10 g11", (0, 1): "b1 b2 b3"}, tstate={0: 1}, hands=HANDS, deck="p9"))
    assert claims(b) == [0]
    # dam 3 damaged: colour and sum: same strength 11s (33) loses to colour r1 r4 r8 (13)
    b = Both(position(sides={(2, 0): "y11 g11 b11", (2, 1): "r1 r4 r8"}, tstate={2: 1}, hands=HANDS, deck="p9"))
    assert claims(b) == []


def test_controlling_a_damaged_dam_destroys_it_and_wins():
    S = position(sides={(1, 0): "r8 y8", (1, 1): "g10 b9"}, tstate={1: 1}, hands=HANDS, deck="p9")
    b = Both(S).play(MV_CLAIM + 1)
    assert b.phase == PH_DONE and b[O_WINNER] == 0 and b[O_REASON] == M.END_DESTROY
    assert b[O_TSTATE + 1] == 2 and b[O_DECIDE] == 1          # tile index 1 = dam 2
    # destroy_wins off: a damaged dam cannot be controlled
    assert claims(Both(S, R(destroy_wins=False))) == []


@pytest.mark.parametrize("dams,ends", [(4, True), (5, False)])
def test_fourth_damaged_dam_wins(dams, ends):
    S = position(sides={(2, 0): "r5 r6 r7", (2, 1): "y9 g9 b9"}, tstate={0: 1, 1: 1, 3: 1},
                 hands=HANDS, deck="p5")
    b = Both(S, R(dams_to_win=dams)).play(MV_CLAIM + 2)
    assert b[O_DAMAGED] == 4
    if ends:
        assert b.phase == PH_DONE and b[O_WINNER] == 0 and b[O_REASON] == M.END_FOURTH and b[O_DECIDE] == 2
    else:
        assert b.phase == PH_A_PLAY and b[O_WINNER] == -1   # nothing else to do in the preparation


def test_claims_at_every_attacker_decision():
    # preparation, play and end of turn: the claim becomes legal after the play completes it
    b = Both(position(sides={(2, 0): "r5 r6", (2, 1): "y9 g9 b9"}, hands=("r7 p1", "b1"), deck="p5 p6"))
    assert claims(b) == []
    b.play(MV_END)                                   # skip preparation
    assert b.phase == PH_A_PLAY
    b.play(play("r7", 2))                            # draw p6 automatically
    assert b.phase == PH_A_END and claims(b) == [2] and b.hand(0) == cs("p1 p6")
    b.play(MV_CLAIM + 2)
    # damaged; the end of turn then has only END (taken by itself): the defender's turn
    assert b[O_TSTATE + 2] == 1 and b.phase == PH_D_PLAY and b[M.O_CUR] == 1   # no attacker card left to log


# ------------------------------------------------------------------ preparation
def test_retreat_discards_all_attacker_cards_at_one_dam_then_play():
    b = Both(position(sides={(4, 0): "r3 y9", (5, 0): "g2"}, hands=HANDS, deck="p5"))
    assert [m for m in b.legal() if MV_RETREAT <= m < MV_LOG] == [MV_RETREAT + 4, MV_RETREAT + 5]
    b.play(MV_RETREAT + 4)
    assert b.side(4, 0) == [] and b.side(5, 0) == cs("g2") and b.discards() == cs("r3 y9")
    assert b.phase == PH_A_PLAY                       # one retreat a turn: straight to the play


def test_log_removes_the_attackers_first_card_once_a_turn():
    S = position(phase=PH_D_PREP, cur=1, sides={(2, 0): "r5 r6 r7", (2, 1): "y9"}, hands=HANDS,
                 deck="p5 p6 p7", logs=1)
    b = Both(S)
    assert [m for m in b.legal() if m >= MV_LOG] == [MV_LOG + 2, MV_END]
    b.play(MV_LOG + 2)
    assert b.side(2, 0) == cs("r6 r7") and b.discards() == cs("r5") and b[O_LOGS] == 0
    assert b[M.O_DONE + 2 * 2] == 0                   # the attacker's side is no longer complete
    assert b.phase == PH_D_PLAY                       # one log a turn
    b.play(play("b1", 2))                             # defender plays, draws; attacker's turn
    assert b.phase == PH_A_PREP
    b.play(MV_END)
    b.play(play("r1", 2))
    b.play(MV_END)                                    # the defender has no log left: no preparation
    assert b.phase == PH_D_PLAY


# ------------------------------------------------------------------ play
def test_side_capacity_and_legal_plays_by_hand():
    # dam 4 holds 2 cards; the attacker's side there is full; dam 7 destroyed never happens
    # in play (the game ends), so every other dam is open
    b = Both(position(phase=PH_A_PLAY, sides={(3, 0): "b4 b5"}, hands=("r1 y2", "g3"), deck="p5"))
    want = sorted(M.MV_PLAY + card * 8 + p for card in cs("r1 y2") for p in range(7) if p != 3)
    assert b.legal() == want


@pytest.mark.parametrize("played,opposite", [("r0", "r11"), ("r11", "r0")])
def test_duck_and_beaver_cancel(played, opposite):
    S = position(phase=PH_A_PLAY, sides={(2, 1): f"y4 {opposite} g9"}, hands=(played + " y1", "b1"), deck="p5")
    b = Both(S).play(play(played, 2))
    assert b.side(2, 0) == [] and b.side(2, 1) == cs("y4 g9")
    assert b.discards() == [c(played), c(opposite)] and b[O_CANCELS] == 1
    # other colour: no cancel
    S = position(phase=PH_A_PLAY, sides={(2, 1): "y11"}, hands=("r0 y1", "b1"), deck="p5")
    assert Both(S).play(play("r0", 2)).side(2, 0) == [c("r0")]
    # option off: the card stays
    S = position(phase=PH_A_PLAY, sides={(2, 1): f"{opposite}"}, hands=(played + " y1", "b1"), deck="p5")
    b = Both(S, R(duck_beaver=False)).play(play(played, 2))
    assert b.side(2, 0) == [c(played)] and b[O_CANCELS] == 0


def test_defender_beaver_cancels_attacker_duck():
    S = position(phase=PH_D_PLAY, cur=1, sides={(5, 0): "g0 g1"}, hands=("r1", "g11 y1"), deck="p5")
    b = Both(S).play(play("g11", 5))
    assert b.side(5, 0) == cs("g1") and b.side(5, 1) == [] and b[O_CANCELS] == 1


def test_no_playable_card_passes_the_play():
    # every defender side full? simpler: an empty hand (late game) -> the play is skipped
    S = position(phase=PH_D_PLAY, cur=1, hands=("r1", ""), deck="p5 p6", logs=0)
    b = Both(S)
    # the only move is END: taken automatically; the defender drew p6; the attacker's turn
    assert b.phase == PH_A_PREP or b.phase == PH_A_PLAY
    assert b.hand(1) == cs("p6")


# ------------------------------------------------------------------ end of the game
EMPTY_DRAW = R(deckout_trigger="empty_draw")


def test_default_end_begins_with_the_last_card_drawn():
    # issue 33: the default is the parent game's open implementations' reading: the defender
    # draws the last card, the attacker plays one more turn, the defender wins (before, the
    # end began only when a player found the pile empty: two turns more)
    assert RULES["deckout_trigger"] == "last_card" and RULES["attacker_last_turn"]
    S = position(phase=PH_D_PLAY, cur=1, hands=("r1 r2", "b1 b2"), deck="p9", logs=0)
    b = Both(S).play(play("b1", 0))
    assert b.hand(1) == cs("b2 p9") and b[O_FINAL] == 2 and b.phase in (PH_A_PREP, PH_A_PLAY)
    if b.phase == PH_A_PREP:
        b.play(MV_END)
    b.play(play("r1", 2))
    assert b.phase == PH_DONE and b[O_WINNER] == 1 and b[O_REASON] == M.END_DECKOUT


def test_defender_finds_the_pile_empty_attacker_last_turn_then_defender_wins():
    S = position(phase=PH_D_PLAY, cur=1, hands=("r1 r2", "b1"), deck="", logs=0)
    b = Both(S, EMPTY_DRAW).play(play("b1", 0))
    assert b[O_FINAL] == 2 and b.phase in (PH_A_PREP, PH_A_PLAY)   # the attacker's last turn
    if b.phase == PH_A_PREP:
        b.play(MV_END)
    b.play(play("r1", 2))          # no claim possible: the end of turn passes by itself
    assert b.phase == PH_DONE and b[O_WINNER] == 1 and b[O_REASON] == M.END_DECKOUT


def test_attacker_finds_the_pile_empty_defender_plays_once_more():
    S = position(phase=PH_A_PLAY, cur=0, hands=("r1 r2", "b1 b2"), deck="", logs=0)
    b = Both(S, EMPTY_DRAW).play(play("r1", 2))
    assert b[O_FINAL] == 1 and b.phase == PH_D_PLAY    # the defender's turn comes first
    b.play(play("b1", 2))
    assert b[O_FINAL] == 2 and b.phase in (PH_A_PREP, PH_A_PLAY)
    if b.phase == PH_A_PREP:
        b.play(MV_END)
    b.play(play("r2", 2))
    assert b.phase == PH_DONE and b[O_WINNER] == 1


def test_last_card_trigger_and_no_last_turn():
    # last_card (default): drawing the last card starts the end at once
    S = position(phase=PH_A_PLAY, hands=("r1 r2", "b1 b2"), deck="p9", logs=0)
    b = Both(S).play(play("r1", 2))
    assert b[O_FINAL] == 1 and b.hand(0) == cs("r2 p9")
    # empty_draw: the same draw does not
    b = Both(S, EMPTY_DRAW).play(play("r1", 2))
    assert b[O_FINAL] == 0
    # attacker_last_turn off: the game ends with the turn in which the pile ran out
    S = position(phase=PH_D_PLAY, cur=1, hands=("r1 r2", "b1"), deck="", logs=0)
    b = Both(S, R(deckout_trigger="empty_draw", attacker_last_turn=False)).play(play("b1", 0))
    assert b.phase == PH_DONE and b[O_WINNER] == 1 and b[O_REASON] == M.END_DECKOUT
    S = position(phase=PH_D_PLAY, cur=1, hands=("r1 r2", "b1"), deck="p9", logs=0)
    b = Both(S, R(attacker_last_turn=False)).play(play("b1", 0))
    assert b.phase == PH_DONE and b[O_WINNER] == 1 and b[O_REASON] == M.END_DECKOUT


def test_turn_cap_ends_without_winner():
    S = position(phase=PH_D_PLAY, cur=1, hands=("r1 r2", "b1"), deck="p4 p5", logs=0, turn=5)
    b = Both(S, R(max_turns=5)).play(play("b1", 0))
    assert b.phase == PH_DONE and b[O_WINNER] == -1 and b[M.O_CAPPED] == 1 and b[M.O_REASON] == M.END_CAP


# ------------------------------------------------------------------ tactic cards
def test_treason_moves_an_opponent_card_to_your_side():
    rules = R(tactics=True)
    S = position(phase=PH_D_PLAY, cur=1, sides={(2, 0): "r5 r6 r7", (4, 1): "b9"}, hands=("r1", "b1"),
                 deck="p5 p6", tactic_hands=((), (0,)), logs=0)
    b = Both(S, rules)
    steals = [m for m in b.legal() if MV_STEAL <= m < MV_DRAW_BATTLE]
    # 3 attacker cards x 7 defender sides with room
    assert len(steals) == 3 * 7
    mv = MV_STEAL + (2 * 4 + 1) * 8 + 4               # take r6 (second at dam 3) to dam 5
    b.play(mv)
    assert b.side(2, 0) == cs("r5 r7") and b.side(4, 1) == cs("b9 r6")
    assert b.discards() == [M.TACTIC0] and b[M.O_STEALS] == 1
    assert M.TACTIC0 not in b.hand(1)


def test_draw_choice_with_tactics():
    rules = R(tactics=True)
    S = position(phase=PH_A_PLAY, hands=("r1", "b1"), deck="p5 p6", tdeck=(0,), logs=0)
    b = Both(S, rules).play(play("r1", 0))
    assert b.phase == PH_DRAW and b.legal() == [MV_DRAW_BATTLE, MV_DRAW_TACTIC]
    b.play(MV_DRAW_TACTIC)
    assert b.hand(0) == [M.TACTIC0] and b.phase == PH_D_PLAY and b[M.O_TDECK_N] == 0


def _heuristic_move(b):
    """The heuristic's answer at ``b``'s decision, from the deciding seat's observation."""
    from strategies.river.basic import heuristic_scored

    obs = np.zeros_like(b.S)
    K.observe_nb(b.S, obs, b.S[M.O_CUR], TABLES)
    k = heuristic_scored(b.phase, obs, b.moves, b.n, b.rv, TABLES, new_state(0, 0, 1), np.zeros(0))
    return int(b.moves[k])


def test_heuristic_draws_a_tactic_only_when_a_steal_would_pay_and_it_holds_none():
    """r7 r8 at dam 3; the defender's r9 at dam 5 would complete a colour run with a proven
    claim: the tactic pile. With y9 there instead (a run, which the unseen purple cards
    could beat as a colour) no steal would decide a dam: the battle pile."""
    rules = R(tactics=True)
    for theirs, want in (("r9", MV_DRAW_TACTIC), ("y9", MV_DRAW_BATTLE)):
        S = position(phase=PH_A_PLAY, sides={(2, 0): "r7 r8", (4, 1): theirs}, hands=("y1", "b1 p1 r2"),
                     deck="p5 p6 g10", tdeck=(0,), logs=0, rest_discarded=True)
        b = Both(S, rules).play(play("y1", 0))
        assert b.phase == PH_DRAW and _heuristic_move(b) == want, theirs
    # holding a tactic card already: the battle pile (a hand-made draw decision; the stock
    # pile has one tactic card)
    b = Both(position(phase=PH_A_PLAY, sides={(2, 0): "r7 r8", (4, 1): "r9"}, hands=("y1", "b1 p1 r2"),
                      deck="p5 p6 g10", tdeck=(0,), logs=0, rest_discarded=True), rules).play(play("y1", 0))
    b.play(MV_DRAW_TACTIC)
    b.S[M.O_CUR], b.phase, b.n = 0, PH_DRAW, 2
    b.moves[:2] = (MV_DRAW_BATTLE, MV_DRAW_TACTIC)
    assert _heuristic_move(b) == MV_DRAW_BATTLE


def test_heuristic_attacker_plays_treason_to_complete_a_formation_and_claims():
    """r7 r8 wait at dam 3 (3 cards, all formations); the defender's r9 sits at dam 5. No
    battle card in hand makes a claim, and the unseen cards (the deck and the defender's
    hand; everything else is discarded) cannot make a colour run that beats r7 r8 r9:
    the heuristic steals r9 to dam 3 and claims it at once."""
    rules = R(tactics=True)
    S = position(phase=PH_A_PLAY, sides={(2, 0): "r7 r8", (4, 1): "r9"}, hands=("y1 g3 b5", "b1 p1 r2"),
                 deck="p5 p6 g10", tactic_hands=((0,), ()), logs=0, rest_discarded=True)
    b = Both(S, rules)
    steal = MV_STEAL + (4 * 4 + 0) * 8 + 2
    assert steal in b.legal() and _heuristic_move(b) == steal
    b.play(steal)
    assert b.side(2, 0) == cs("r7 r8 r9") and b.side(4, 1) == []
    assert b.phase == PH_A_END and _heuristic_move(b) == MV_CLAIM + 2
    b.play(MV_CLAIM + 2)
    assert b[O_TSTATE + 2] == 1


def test_heuristic_attacker_keeps_treason_when_a_battle_card_claims_or_nothing_decisive_is_stolen():
    rules = R(tactics=True)
    # stealing r6 would complete r6 r7 r8 with a proven claim, but r9 from the hand does it too
    S = position(phase=PH_A_PLAY, sides={(2, 0): "r7 r8", (4, 1): "r6"}, hands=("r9 g3", "b1 p1 r2"),
                 deck="p5 p6 g10", tactic_hands=((0,), ()), logs=0, rest_discarded=True)
    b = Both(S, rules)
    assert _heuristic_move(b) == play("r9", 2)
    b.play(play("r9", 2))
    assert M.TACTIC0 in b.hand(0)
    # nothing to complete or break: a battle card is played
    S = position(phase=PH_A_PLAY, sides={(2, 0): "r7", (4, 1): "y9"}, hands=("y1 g3", "b1 p1 r2"),
                 deck="p5 p6 g10", tactic_hands=((0,), ()), logs=0, rest_discarded=True)
    b = Both(S, rules)
    mv = _heuristic_move(b)
    assert M.MV_PLAY <= mv < MV_STEAL


def test_heuristic_defender_plays_treason_to_break_a_formation_it_cannot_beat():
    """The attacker's colour run g8 g9 g10 stands complete at dam 3; the defender's hand
    (b1 p1 r2) cannot beat it there: the heuristic steals one of those cards."""
    rules = R(tactics=True)
    S = position(phase=PH_D_PLAY, cur=1, sides={(2, 0): "g8 g9 g10"}, hands=("y1 g3", "b1 p1 r2"),
                 deck="p5 p6 y7", tactic_hands=((), (0,)), logs=0)
    b = Both(S, rules)
    mv = _heuristic_move(b)
    assert MV_STEAL <= mv < MV_DRAW_BATTLE and (mv - MV_STEAL) // 32 == 2
    b.play(mv)
    assert len(b.side(2, 0)) == 2 and b[M.O_STEALS] == 1


# ------------------------------------------------------------------ setup and observation
def test_setup_fixed_and_shuffled_tiles_hands_and_logs():
    rv = M.rules_vector(R(shuffle_tiles=False))
    S = np.zeros(M.S_LEN, np.int64)
    moves = np.zeros(M.MAX_MOVES, np.int64)
    K.start_nb(S, 2, rv, TABLES, new_state(3, 0, M.DOMAIN), moves)
    assert list(S[M.O_TILE:M.O_TILE + 7]) == list(range(7))
    assert S[M.O_HAND_N] == 6 and S[M.O_HAND_N + 1] == 6 and S[M.O_DECK_N] == 48 and S[M.O_LOGS] == 3
    orders = set()
    for i in range(10):
        K.start_nb(S, 2, M.rules_vector(RULES), TABLES, new_state(3, i, M.DOMAIN), moves)
        orders.add(tuple(S[M.O_TILE:M.O_TILE + 7]))
        assert sorted(S[M.O_TILE:M.O_TILE + 7]) == list(range(7))
    assert len(orders) == 10
    K.start_nb(S, 2, M.rules_vector(R(hand_size=4, logs=2)), TABLES, new_state(3, 0, M.DOMAIN), moves)
    assert S[M.O_HAND_N] == 4 and S[M.O_DECK_N] == 52 and S[M.O_LOGS] == 2


def test_observation_hides_the_other_hand_and_the_piles():
    S = position(hands=("r1 r2", "b1 b2"), deck="p5 p6", tdeck=(0,))
    obs = np.zeros_like(S)
    K.observe_nb(S, obs, 0, TABLES)
    assert list(obs[M.O_HAND:M.O_HAND + 2]) == cs("r1 r2")
    assert (obs[M.O_HAND + M.MAX_HAND:M.O_HAND + 2 * M.MAX_HAND] == M.NONE).all() and obs[M.O_HAND_N + 1] == 2
    assert (obs[M.O_DECK:M.O_DECK + 64] == M.NONE).all() and obs[M.O_DECK_N] == 2
    assert (obs[M.O_TDECK:M.O_TDECK + 16] == M.NONE).all()


# ------------------------------------------------------------------ data validation
def test_bad_data_files_give_one_line_errors(tmp_path):
    p = tmp_path / "tiles.toml"
    p.write_text('[[tile]]\nid = 1\nintact = { cards = 5, counts = "sum" }\n'
                 'damaged = { cards = 3, counts = "runs" }\n')
    with pytest.raises(PlaytestError, match="must list exactly 7 tiles"):
        M.load_tiles(p)
    text = "".join(f'[[tile]]\nid = {i}\nintact = {{ cards = 3, counts = "sum" }}\n'
                   f'damaged = {{ cards = 3, counts = "{"colour" if i > 1 else "rainbow"}" }}\n'
                   for i in range(1, 8))
    p.write_text(text)
    with pytest.raises(PlaytestError, match=r"tile\[0\]\.damaged\.counts: unknown formation rule 'rainbow'"):
        M.load_tiles(p)
    q = tmp_path / "tactics.toml"
    q.write_text('[[card]]\nname = "Spy"\neffect = "peek"\n')
    with pytest.raises(PlaytestError, match=r"card\[0\]\.effect: unknown effect 'peek'"):
        M.load_tactics(q)
    with pytest.raises(PlaytestError, match="tie_rule: must be one of first, defender, defender_complete"):
        M.load_rules(overrides={"tie_rule": "attacker"})
    with pytest.raises(PlaytestError, match="hand_size"):
        M.load_rules(overrides={"hand_size": 0})
