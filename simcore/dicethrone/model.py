"""Dice Throne as data: rule options (``rules.toml``), hero files (``heroes/*.toml``) and the
generic content (``cards.toml``: statuses and generic cards), validated with one-line
``file: field: reason`` errors and packed into the tables both engines share; the int64
state-vector layout, phases, move encoding and record fields.

One effect vocabulary serves abilities, defences, tokens' upkeep, bonus-roll outcomes and
cards. An effect is a TOML table whose first key names its operation:

  damage = N      deal N (+ per * count of `of`); kind = normal|undefendable|pure|ultimate|
                  collateral; target = opponent (default) | all_opponents | self
  add_damage = N  add N (+ per * count) to the attack under way (attack modifier cards)
  heal = N        heal (health at most start + hp_above_start); target self (default)
  cp = N          gain N CP (negative: lose; never below 0); target self | opponent
  draw = N        draw N cards
  gain = TOKEN    gain n (+ per * count) of a token (stack limit applies); target self
                  (default) | chosen ("a chosen player gains": any member of your team, you
                  included; in team modes a pick, PH_TARGET, when the list is done) |
                  teammate ("you and a chosen teammate": a teammate only, nobody in 1v1);
                  chosen and teammate take a plain n
  inflict = TOKEN the opponent gains n of a token (a status)
  remove = TOKEN  remove n of a token ("negative": the first negative statuses held)
  spend = TOKEN   spend up to `up_to` of your tokens; later effects may use of = "spent"
  raise_limit = TOKEN  raise your stack limit of a token by n
  roll = N        roll N bonus dice of your hero; each die applies on.<symbol> = [effects];
                  after = [effects]: run once after the per-die outcomes, its if_roll and
                  per/of a symbol reading the bonus dice (O_BDICE; allowed on cards too);
                  may_reroll = K (an offensive tier's last effect or a roll of its pre-defence
                  part, or a card's last effect): the roller sees the N dice, may reroll up to
                  K of them once (PH_BONUS), then they resolve in die order
  prevent = N     prevent N (+ per * count) of the attack damage you are about to take
  set_die = F     set a die of the current roll to face number F (or "any": a chosen face);
                  n = how many dice
  move_die = 1    move a die of the current roll by +-1 (face number 1..6)
  reroll = N      reroll up to N dice of the current roll; times = T: T such rerolls in a row,
                  each chosen after seeing the last (the same die again allowed; the player
                  may stop after any of them)
  extra_attempt = N   N more offensive roll attempts this phase
  upgrade = ID    raise an ability, a defence or the passive of yours to `level`
  copy_die = 1    set one die of the current roll to the face another of its dice shows
  transfer = TOKEN  move n of your tokens (or "negative": your first statuses held) to the
                  opponent (their stack limit applies; what does not fit is lost)
  buy = TOKEN     (cards only, as the last effect) then spend CP, `cost` each (>= 1), for 1
                  of this token each, as many as you choose: a decision (PH_BUY, moves
                  MV_PASS or MV_BUY + k, k = 1 .. what your CP pays for and the token's
                  stack limit leaves room for, at most MAX_BUY); no decision when that is 0

Token events (season1/VOCABULARY.md sections 2-3): a token's keys ``upkeep``, ``income``,
``roll_phase_start``, ``roll_phase_end``, ``defending``, ``attacked``, ``turn_end`` and
``knocked_out`` are effect lists run automatically, in token-id order, at that moment of
the turn, once for each token its holder holds at least one of, with the holder as self (a
stunned holder too: events are not actions). The holder and the moment:
  upkeep            the holder's turn, ST_UPKEEP (reversed order under decay_before_burn)
  income            the holder's turn, ST_INCOME after its knock-out check, before CP/card
  roll_phase_start  the holder's turn, the start of every offensive roll phase (Stun's
                    extra ones too): ST_KNOCK resets the attack state, the window
                    ST_W_ROLL_START offers Knockdown's payment, then ST_ROLL_START runs
                    these events and rolls
  roll_phase_end    the holder's turn, ST_ROLL_END: after the last window of a roll phase
                    that was not skipped, before the ability choice
  defending         the defender, ST_DEFENDING: every attack, before the defence roll
  attacked          the defender, ST_ATTACKED: after the attacking window (Crit), before
                    the attacked window (Protect), while damage is incoming
  turn_end          the holder's turn, ST_END before the turn count; a knock-out check
                    follows
  knocked_out       inside the damage that brings the holder's health to 0 or less (an
                    ultimate's only under blessing_vs_ultimate; plan step 5), each token
                    while the health is still 0 or less; one spend and one use of the token
                    are counted (Blessing of Divinity). Only remove, set_hp, heal and gain,
                    each with a plain n and a named token (``KO_OPS``: a small interpreter
                    inside the engines' hurt, ``kernel.ko_events_nb``, so the effect
                    resolvers never recurse)
An event's damage to self lands at once and counts as the opponent's status damage, as
upkeep's; its add_damage goes to the attack as token damage (O_POOL_TOKEN). Ops that only
events may hold:
  skip = "income" (income) | "roll_phase" (roll_phase_start)   the holder skips that
                  phase this turn; it ends the moment (later tokens' events wait)
  fail_attack = 1 (roll_phase_end, a bonus-roll outcome too) no ability this roll phase
  skip_defence = 1 (defending)  the holder makes no defensive roll against this attack
  avoid = 1 (attacked)  the attack's damage to the holder becomes 0 (not an ultimate's;
                  collateral still lands; the attack's other effects resolve)
  extra_attempt = -N (roll_phase_start)  N attempts fewer; never below 1
  add_damage = N (attacked)  more damage to the holder from the attack under way
  set_hp = N (knocked_out)  the holder's health becomes N (Blessing of Divinity)
and the condition held_all_turn = true (turn_end): the holder held this token when its
turn began (P_HELD, set at ST_UPKEEP). of = "extra_attempts" (roll_phase_end): the
attempts of this roll phase beyond the first; cap = N: the amount is at most N.
Spending by decision (plan step 4a): a token with use = "data" has spend = [entries]; an
entry is { when = MOMENT, effects = [...], max = N | "all", repeat, once_per_turn,
not_gained_this_turn, cost_cp = N, if_attack = { kind = [...], at_least = N, inflicts =
true }, if_has / unless_has = TOKEN | "negative" } (season1/VOCABULARY.md 3.1). An
attack's moments (WINDOWS): attack_end (the attacker, after the tier's pre-defence part:
Accuracy), defending (the defender, after its defending events), attacking (the attacker,
after the tier's damage is in the pool: Crit), attacked (the defender, after its attacked
events, while damage is incoming: Protect) and after_attacked (the defender, after the
tier's after-landing effects, if it took damage: Retribution); each is a turn step (ST_W_*)
whose decision is PH_TOKEN with moves MV_PASS and MV_SPEND + entry * 16 + n (n = 1 .. the
most it may spend). So is roll_phase_start (plan step 5; ST_W_ROLL_START, the holder, at
the start of each of its offensive roll phases, before that moment's events): its own
entries only (no any ones), each offered again while its conditions hold (no if_attack,
no repeat); an entry may have no effects (cost_cp is all it does: Knockdown). Spending
removes n tokens, pays cost_cp, counts one spend and one use of the token, and runs the
effects n times with the holder as self (context "token": add_damage and damage dealt
count as token damage). A stunned holder is offered nothing. Ops only spends hold:
prevent_half (attacked: Protect's halving; also in a defence tier, whose effects run
before the attack lands), undefendable (attack_end: a normal attack becomes
undefendable: Accuracy); avoid also at attacked.

The shipped tokens are data (plan step 5; season1/VOCABULARY.md section 4): Burn, Fire
Mastery and the Season One heroes' tokens always were; the Paladin's Crit (an attacking
entry, if_attack.at_least 5, add_damage 4), Protect (attacked, prevent_half), Accuracy
(attack_end, undefendable), Retribution (after_attacked, damage of "taken" halved up) and
Blessing of Divinity (a knocked_out event: remove it, set_hp 1), and Knockdown (a
roll_phase_start entry of cost_cp 2 and no effects, and a roll_phase_start event removing
it and skipping the roll phase) were engine branches before it. So TOKEN_USES is none,
data and stun. The rule options crit_needs_threshold (every if_attack.at_least) and
blessing_vs_ultimate (every knocked_out event) keep their names.
Why Stun stays a branch: Stun is the one token whose behaviour is not data, for two
reasons. First, "the stunned player takes no action" is not an effect at a moment: it is a
gate on the move generation of every decision of its holder. That covers cards, spends,
the defence (a stunned defender does not roll), the passive (Tithes) and the priority
windows (auto-pass). Second, its end is an action of the *other* player: after the attack
the inflicter removes it and takes another offensive roll phase. That phase is capped at
20 per turn, and the rule option stun_extra_attack can turn it off. Carrying this in data
would take a gate flag on tokens, an event run for the holder's opponent and an "extra
roll phase" operation, three constructs for one status that the rulebook itself defines
(cards.toml). So use = "stun" stays, and has(p, stun) is read where the code reads it
(the Barbarian's Daze is this status: it inflicts "stun").
The holder's own-turn moments (plan step 4b): main (its PH_MAIN), own_roll (its PH_ROLL and
its ST_PREWIN priority over its own dice) and any (ST_W_UPKEEP before its upkeep events, a
PH_TOKEN decision only when an any entry is spendable; every PH_MAIN, PH_ROLL and PH_WINDOW
decision it holds; an attack window already offering it one of its entries). Their spends
are MV_SPEND moves appended to those decisions, which resume after them; such an entry is
offered again while its conditions hold (no if_attack, no repeat). An own_roll entry of max
1 may end with a die operation on the holder's dice (Seedling: reroll = 1; ST_DIE, then back).
A token's kind is positive, negative or companion (neither: "remove/transfer negative"
skip it).

Tier structure (season1/VOCABULARY.md 7): an offensive tier's effects split in three parts.
The pre-defence part is the leading run of effects marked pre_defence = true (a roll or a
spend) or undefendable = 1 (the attack under way becomes undefendable; only there, in the
outcomes or after of a pre-defence roll, and in attack_end spends); an attack runs it at
ST_ACCURACY before Accuracy and the defence (so an undefendable there binds the defence and
Accuracy is not offered), a tier that is no attack first thing at ST_RESOLVE; O_PREDEF counts
its effects done, so it resumes after a reroll decision. Then the effects up to the last that
adds to the attack (ST_RESOLVE), then the rest after the damage lands (ST_LAND). A defence (or
one of its tiers, overriding) may set may_reroll = K: the defender may reroll up to K defence
dice once after rolling them, before the window. PH_BONUS serves every reroll: O_BONUS_SRC
says whose dice wait (BS_TIER, BS_PREDEF, BS_CARD, BS_DEF) and O_BONUS_ROW which roll.
Choices and token groups (plan step 8; season1/VOCABULARY.md 5.10, 5.11, 5.5, 3.4):
  choose = [[effects], ...]   2..6 alternatives; the owner of the list picks one. It is
                  queued (O_CHOOSE, at most MAX_CHOOSE pending; the loader bounds what one
                  list can queue) and picked when the running list is done (a tier's part,
                  a defence, a card, a spend's effects before its window is offered again):
                  PH_CHOOSE, moves MV_PICK + k, before the turn goes on; the alternative
                  runs for that seat in the list's context. In tiers, bonus-roll outcomes,
                  defences, cards and spends (Ninjutsu's 6 in an attack_end spend: its
                  undefendable binds the defence); not in events; an alternative holds no
                  roll, die effect, choose, nor a condition on the roll (gone by then)
  group = "G", grows_into = TOKEN   (token keys) a group's tokens make one ladder from its
                  root (the token no grows_into names): Seedling -> Sapling -> Dryad
  of = "group:G"  the holder's count of the group's tokens
  spend = "group:G", up_to = N   spend up to N of the group, the lowest rung first
  grow = N        N times: by the rule grow_prefers, upgrade the highest token that can grow
                  into its next rung ("upgrade", the default), else gain the root; or gain
                  the root while below its limit ("new"), else upgrade. A grow that fits
                  nowhere is lost. It needs exactly one group visible to the file
  grow_all = 1    every token of the ladder held grows once, the highest rung first
  block_status = N   (a defence tier, a defending spend) the next N negative statuses the
                  attack under way would inflict on the holder are not (P_BLOCK; not an
                  ultimate's); what is left lapses at the attack's end (ST_AFTER)

Conditions (optional keys of any effect of a hero file, a bonus-roll outcome included):
  if_roll = { SYMBOL = N, ... }   the effect applies only if the roll it answers to (the
                  ability's or the defence's dice) shows at least N of each SYMBOL
  if_uses = SYMBOL  (the passive's on_attack effects) only if the activated tier needs that
                  symbol (a symbol target names it; a straight: the dice show it)
and at most one of these (season1/VOCABULARY.md 6, plan step 6; C_COND/C_CARG):
  if_kind = N     the dice it answers to show N dice of one face number (abilities, defences)
  if_pips = { at_least = N } | { at_most = N }   the list's earlier roll_sum's face sum
  if_dealt = N    the attack under way dealt at least N (O_TAKEN): in an offensive tier only
                  after its last damage (damage_split's after-landing part)
  if_has / unless_has = TOKEN | "negative"   the owner holds (does not hold) one of it
  if_spent = N    the list's earlier spend spent at least N
  held_all_turn = true   (a turn_end event) see above
Amounts: of = "pips" (the list's earlier roll_sum: roll_sum = N rolls N dice, in die order,
into O_BDICE, their sum of face numbers into O_PIPS; offensive tiers only, no may_reroll
until plan step 7), "cp" (the owner's CP as the effect resolves), "taken" (O_TAKEN: where
if_dealt may stand); half = "up" | "down" halves n + per * count, then cap = N caps it.

Cards and the passive (plan step 9): a card's effects may carry if_dealt (with when =
"after_damage"), if_has, unless_has and if_spent; when = "after_damage": the attacker may
play it at ST_POSTWIN (after the after_attacked window, before ST_AFTER; PH_WINDOW, moves
MV_PASS and MV_PLAY + h; it opens only with such a card playable, and such a card is
playable nowhere else); discard_cost = N: playing it also needs N other cards in hand,
discarded (no CP, not "sold") one decision each at ST_PAYDISC (PH_DISCARD, MV_SELL + h)
before its effects resolve; a card may hold two die effects, last, when exactly one of them
applies (if_has = T / unless_has = T). The op discard_random = N (target opponent by
default): the target discards N cards at random, one below(hand size) draw each, no CP. A
passive level's upkeep = [effects] runs at its holder's ST_UPKEEP (after P_HELD is set,
before the tokens' upkeep events), as those events run (context upkeep).

A hero's passive (``[passive]``) has levels: reroll_cost / draw_cost (Tithes) and
on_attack effects, run when its holder activates an offensive ability; ``[[passive.levels]]``
lists levels 2, 3, ... A defence tier may set ``dice`` (that level's dice; default the
defence's). Levels of abilities, defences and the passive sit side by side in the state
(``P_LVL``), so one ``upgrade`` serves all three.

A bonus roll's outcomes are keyed by symbol, or by face number ("1".."6") when every key
is a number (a generic card has no symbols: "gain CP equal to half the die, rounded up").

``per``/``of`` scale an amount: ``of`` is a token (your count), a symbol of your hero's
dice (its count in the roll the effect answers to) or "spent". Targeting is explicit so
team modes (all_opponents, collateral) can grow on it.
"""
from __future__ import annotations

import functools

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..dice import parse_die, parse_target
from ..errors import PlaytestError, requirer
from ..toml_io import is_whole, load_options, load_toml

HERE = Path(__file__).resolve().parent
RULES_FILE = HERE / "rules.toml"
CARDS_FILE = HERE / "cards.toml"
HEROES_DIR = HERE / "heroes"
GENERIC_NAME = "cards.toml"   # a heroes folder's own generic file (statuses, generic cards), if it has one

# ------------------------------------------------------------------ vocabulary
OPS = ("damage", "add_damage", "heal", "cp", "draw", "gain", "inflict", "remove", "spend",
       "raise_limit", "roll", "prevent", "set_die", "move_die", "reroll", "extra_attempt", "upgrade",
       "copy_die", "transfer", "buy", "skip", "fail_attack", "skip_defence", "avoid", "prevent_half", "undefendable",
       "roll_sum", "discard_random", "block_status", "choose", "grow", "grow_all", "set_hp")
(OP_DAMAGE, OP_ADD_DAMAGE, OP_HEAL, OP_CP, OP_DRAW, OP_GAIN, OP_INFLICT, OP_REMOVE, OP_SPEND,
 OP_RAISE_LIMIT, OP_ROLL, OP_PREVENT, OP_SET_DIE, OP_MOVE_DIE, OP_REROLL, OP_EXTRA_ATTEMPT,
 OP_UPGRADE, OP_COPY_DIE, OP_TRANSFER, OP_BUY, OP_SKIP, OP_FAIL_ATTACK, OP_SKIP_DEFENCE, OP_AVOID, OP_PREVENT_HALF,
 OP_UNDEFENDABLE, OP_ROLL_SUM, OP_DISCARD_RANDOM, OP_BLOCK_STATUS, OP_CHOOSE, OP_GROW,
 OP_GROW_ALL, OP_SET_HP) = range(len(OPS))   # appended: roll_sum (plan step 6), discard_random (step 9),
                                  # block_status, choose, grow, grow_all (step 8), renumbered when the branches
                                  # merged; set_hp (step 5)
MAX_CHOOSE = 4      # choices pending at once (O_CHOOSE): the loader bounds what one effect list may queue
MAX_ALT = 6         # alternatives of one choose (slots of the outcome tables)
GROW_MODES = ("upgrade", "new")   # rule option grow_prefers
EVENT_OPS = {OP_SKIP: ("income", "roll_phase_start"), OP_FAIL_ATTACK: ("roll_phase_end",),
             OP_SKIP_DEFENCE: ("defending",), OP_AVOID: ("attacked", "spend:attacked"),
             OP_PREVENT_HALF: ("spend:attacked",), OP_UNDEFENDABLE: ("spend:attack_end",),
             OP_SET_HP: ("knocked_out",)}   # op -> the moments it may stand at
# the ops a knocked_out event may hold (it runs inside the damage that knocked its holder out:
# kernel.ko_events_nb, nothing that deals damage or waits for a decision) and the one key
# they take there besides the op (season1/VOCABULARY.md's implementation notes, step 3)
KO_OPS = (OP_REMOVE, OP_SET_HP, OP_HEAL, OP_GAIN)
KO_KEYS = {"n"}
SKIPS = ("income", "roll_phase")   # skip's value; P_SKIP bits 1, 2 (bit 4: fail_attack)
SK_INCOME, SK_ROLL, SK_ABILITY = 1, 2, 4
# token events: the moments of season1/VOCABULARY.md section 2
EVENTS = ("upkeep", "income", "roll_phase_start", "roll_phase_end", "defending", "attacked", "turn_end",
          "knocked_out")
(EV_UPKEEP, EV_INCOME, EV_ROLL_START, EV_ROLL_END, EV_DEFENDING, EV_ATTACKED, EV_TURN_END,
 EV_KNOCKED_OUT) = range(len(EVENTS))
N_EV = len(EVENTS)
TOKEN_KINDS = ("positive", "negative", "companion")
TK_POS, TK_NEG, TK_COMPANION = range(3)
DIE_OPS = (OP_SET_DIE, OP_MOVE_DIE, OP_REROLL, OP_COPY_DIE)
PEND_OPS = DIE_OPS + (OP_BUY,)   # effects that stop a card for its player's decision (ST_DIE)
ROLL_BY_FACE = 1    # C_LEVEL of a roll effect whose outcomes are keyed by face number


def outcome_key(e, face_sym, f: int) -> int:
    """The key of roll effect ``e``'s outcome for a die showing face index ``f`` (0..5):
    the face itself for a face-keyed roll (``ROLL_BY_FACE``), else that face's symbol."""
    return f if e.level == ROLL_BY_FACE else int(face_sym[f])
KINDS = ("normal", "undefendable", "pure", "ultimate", "collateral")
K_NORMAL, K_UNDEF, K_PURE, K_ULT, K_COLLAT = range(len(KINDS))
# "chosen": a chosen player of the owner's team, the owner included ("a chosen player gains X");
# "teammate": a chosen teammate, the owner excluded ("you and a chosen teammate"): one
# candidate is taken at once (the owner in 1v1 and free-for-all; none for "teammate"), several
# queue a pick (PH_TARGET; issue 31, modes/DESIGN.md 2.3, "Chosen players outside attacks");
# "two_chosen": up to two chosen players of the owner's team, the owner included ("up to two
# chosen players gain X", Harvest!): with at most two candidates each gains at once, with three
# (3v3) two distinct picks queue (O_PICKED holds the first)
TARGETS = ("self", "opponent", "all_opponents", "chosen", "teammate", "two_chosen")
T_SELF, T_OPP, T_ALL, T_CHOSEN, T_MATE, T_TWO = range(len(TARGETS))
OF_NONE, OF_SPENT, OF_SYMBOL = -1, 200, 100   # of >= 0 and < 100: a token id
OF_EXTRA_ATT = 204   # the roll attempts of this offensive roll phase beyond the first
OF_PIPS, OF_CP, OF_TAKEN = 201, 202, 203   # the last roll_sum's face sum (O_PIPS); the owner's CP; O_TAKEN
OF_GROUP = 300       # + g: the holder's count of token group g's tokens (of = "group:G")
# a token's use: none (events only), data (spend entries too) or stun, the one engine branch
# (the module docstring says why); the other branches of before plan step 5 became data
TOKEN_USES = ("none", "data", "stun")
U_NONE, U_DATA, U_STUN = range(len(TOKEN_USES))
# the uses before plan step 5 and what they became (a file naming one gets a one-line error)
OLD_USES = {"knockdown": "cards.toml's knockdown", "crit": "heroes/paladin.toml's crit",
            "protect": "heroes/paladin.toml's protect", "accuracy": "heroes/paladin.toml's accuracy",
            "retribution": "heroes/paladin.toml's retribution", "blessing": "heroes/paladin.toml's blessing"}
OLD_TOKEN_KEYS = {"threshold": "a spend entry's if_attack.at_least", "bonus": "its effects (add_damage, set_hp)",
                  "cost": "a spend entry's cost_cp"}
# spend windows (season1/VOCABULARY.md 3.1-3.2): the moments a token's `spend` entries may name,
# the holder of each (A: the attacker, D: the defender) and the attack kinds open by default
# (bit per K_*: an attacker's windows every kind, a defender's every kind but ultimate)
# then the holder's own-turn moments (plan step 4b): main (its PH_MAIN), own_roll (its PH_ROLL,
# and PH_WINDOW at ST_PREWIN while it holds priority over its own dice) and any (section 2.1's
# "any" made concrete: ST_W_UPKEEP before the upkeep events, every PH_MAIN, PH_ROLL and
# PH_WINDOW decision of the holder, and every attack window already offering it a spend)
# then (plan step 5) roll_phase_start: the holder's window at the start of each of its offensive
# roll phases (ST_W_ROLL_START, after ST_KNOCK's reset, before the roll_phase_start events): a
# PH_TOKEN decision offering that moment's entries alone, no `any` ones (Knockdown's payment)
WINDOWS = ("attack_end", "defending", "attacking", "attacked", "after_attacked", "main", "own_roll", "any",
           "roll_phase_start")
W_ATTACK_END, W_DEFENDING, W_ATTACKING, W_ATTACKED, W_AFTER, W_MAIN, W_OWN_ROLL, W_ANY, W_ROLL_START = \
    range(len(WINDOWS))
N_ATTACK_WINDOWS = 5    # WINDOWS[:5] open only during an attack (their own turn steps ST_W_*)
WINDOW_DEFENDER = (0, 1, 0, 1, 1, 0, 0, 0, 0)
KINDS_ALL = (1 << 5) - 1
KINDS_NOT_ULT = KINDS_ALL & ~(1 << 3)
MAX_SPEND = 32          # spend entries of one content
# spend entry table columns
(SP_TOK, SP_WHEN, SP_MAX, SP_REPEAT, SP_ONCE, SP_OLD, SP_CP, SP_START, SP_LEN, SP_AT_LEAST, SP_KINDS, SP_INFLICTS,
 SP_IF_HAS, SP_UNLESS, SP_MITIG) = range(15)
SP_COLS = 15            # SP_MITIG: 1 if the entry's effects prevent damage (``mitigates``: the collateral window)
CARD_COLS = 8           # the card table: cost, phase, dice, when, effects start, count, discard_cost, C_MITIG
C_MITIG = 7             # card table column: 1 if the card's effects prevent damage (``mitigates``)
PHASES_OF_CARDS = ("main", "roll", "instant")
CP_MAIN, CP_ROLL, CP_INSTANT = range(3)
CARD_DICE = ("none", "own", "opponent", "any")
CD_NONE, CD_OWN, CD_OPP, CD_ANY = range(4)
CARD_WHEN = ("any", "attacking", "attacked", "after_damage")
CW_ANY, CW_ATTACKING, CW_ATTACKED, CW_AFTER = range(4)

# effect table columns (C_IF: packed if_roll counts, base 8 per symbol, 0 = none;
# C_USES: 1 + the if_uses symbol, 0 = none)
# C_COND/C_CARG: one condition (COND_*) and its argument; C_HALF: halve the amount (0 no,
# 1 up, 2 down; plan step 6); C_CAP: the amount's cap (-1 none); C_FLAG: bit 0 pre_defence
C_OP, C_N, C_PER, C_OF, C_ARG, C_TARGET, C_KIND, C_LEVEL, C_SUB, C_IF, C_USES, C_COND, C_CARG, C_HALF, C_CAP, C_FLAG = \
    range(16)
N_COLS = 16
COND_NONE, COND_HELD = 0, 8     # held_all_turn (C_CARG: the token)
# plan step 6 (C_CARG: the number, or the token; -2 "negative")
COND_KIND, COND_PIPS_GE, COND_PIPS_LE, COND_DEALT, COND_HAS, COND_UNLESS, COND_SPENT = range(1, 8)
COND_KEYS = ("if_kind", "if_pips", "if_dealt", "if_has", "unless_has", "if_spent", "held_all_turn")
HALVES = ("up", "down")    # C_HALF 1, 2

TOK_COLS = 5        # the token table's columns: kind, limit, use, group (-1), grows_into (-1)
TC_KIND, TC_LIMIT, TC_USE, TC_GROUP, TC_GROWS = range(TOK_COLS)   # its columns by name
MAX_TOKENS = 32     # tokens of one matchup (season1/VOCABULARY.md 1.2: Paladin vs Treant 14; issue 31's
                    # tables of up to 6 heroes: 25 at most over the shipped roster)
MAX_AB = 8          # offensive abilities per hero
MAX_TIERS = 10      # tiers per ability over all levels (Smack, Longbow, Fist Strike, Splinter: 9)
MAX_DEF = 4         # defences per hero
MAX_SYM = 6
MAX_HAND = 16
MAX_DECK = 48
N_DICE = 5
MAX_CARDS = 128     # distinct cards of one matchup (2 heroes: 48; 6 heroes of the shipped roster: 108)
MAX_HEROES = 6      # heroes in one matchup's content (a table of 6 seats)
MAX_PLVL = 4        # passive levels
MAX_SEATS = 6       # players at one table (issue 31: 2v2 4, 3v3 and 2v2v2 6, free-for-all 3..6)
N_LVL = MAX_AB + MAX_DEF + 1   # level slots: abilities, defences, the passive
LV_DEF = MAX_AB                # upgrade target of defence k: LV_DEF + k
LV_PASSIVE = MAX_AB + MAX_DEF  # upgrade target of the passive
NONE = -1

# ------------------------------------------------------------------ moves
MV_PASS = 0          # pass / stop rolling / end the main phase / do not spend / skip
MV_YES = 1           # reserved: the branch tokens' "spend" before plan step 5 (now MV_SPEND moves)
MV_REROLL = 1024     # + keep mask (bit i: keep die i); dice not kept are rolled again
MV_PLAY = 2048       # + hand position
MV_SELL = 3072       # + hand position
MV_ABILITY = 4096    # + ability * 16 + tier
MV_TITHE_REROLL = 5120   # + die
MV_TITHE_DRAW = 5200
MV_DEFENCE = 5300     # + defence index (a hero with several defences chooses before rolling)
MV_DIE = 6144        # + set_die: die * 8 + face; move_die: die * 8 + (0 down, 1 up); reroll: mask
                     # (also the bonus dice rerolled at PH_BONUS: mask)
MV_SPEND = 5400      # + spend entry * 16 + n: spend n tokens through that entry (PH_TOKEN, a spend window)
MV_PICK = 5920       # + k: pick alternative k of a pending choose (PH_CHOOSE)
MV_TARGET = 5952     # + seat: the attack goes to that seat (PH_TARGET; 5952..5957 lies between MV_PICK and MV_BUY)
MV_BUY = 6000        # + k: buy k tokens (a card's `buy` effect, PH_BUY), k = 1 .. MAX_BUY
MAX_BUY = 64
MAX_MOVES = 96

# decision phases (what the seat S[O_CUR] decides)
(PH_DONE, PH_MAIN, PH_ROLL, PH_WINDOW, PH_ABILITY, PH_TOKEN, PH_KNOCK, PH_DIE, PH_DISCARD, PH_DEFENCE, PH_BONUS,
 PH_BUY, PH_CHOOSE, PH_TARGET) = range(14)
PHASE_NAMES = ("done", "main", "roll", "window", "ability", "token", "knockdown", "die", "discard", "defence",
               "bonus", "buy", "choose", "target")
# PH_TARGET (issue 31, modes/DESIGN.md 2.3): who the attack goes to, when the targeting die
# says "pick" (the attacker, over the living opponents) or "their_pick" (the first opponent,
# over its team's living members); moves MV_TARGET + seat
# PH_KNOCK is reserved (its number and name stay, so the others keep theirs): Knockdown's
# payment was its decision before plan step 5; it is a PH_TOKEN decision now (W_ROLL_START)

# turn steps (where the state machine stands)
(ST_UPKEEP, ST_INCOME, ST_MAIN1, ST_KNOCK, ST_ROLL_START, ST_ROLL, ST_PREWIN, ST_ABILITY,
 ST_ACCURACY, ST_DEFROLL, ST_ATKWIN, ST_RESOLVE, ST_CRIT, ST_PROTECT, ST_LAND, ST_RETRIB,
 ST_AFTER, ST_MAIN2, ST_DISCARD, ST_END, ST_DIE, ST_OVER, ST_BONUS, ST_ROLL_END, ST_DEFENDING,
 ST_ATTACKED, ST_W_ATTACK_END, ST_W_DEFENDING, ST_W_ATTACKING, ST_W_ATTACKED, ST_W_AFTER, ST_W_UPKEEP) = range(32)
# ST_W_UPKEEP: the holder's `any` spends before its upkeep events (ST_UPKEEP sets P_HELD, then
# goes there; the events run when that window closes or offers nothing)
# ST_CRIT, ST_PROTECT, ST_RETRIB: unused since plan step 5 (the Crit, Protect and Retribution
# branches became data in the attack windows); their numbers stay so the others keep theirs
# the spend windows' steps (WINDOWS order) and the step each goes on to when it closes
# plan step 9 (appended): ST_POSTWIN, after the after_attacked window, the attacker's alone:
# its after_damage cards (PH_WINDOW; it opens only with one playable); ST_PAYDISC: a card's
# discard_cost, paid before its effects (PH_DISCARD, moves MV_SELL + hand position, no CP)
ST_POSTWIN, ST_PAYDISC = 32, 33   # (31 is ST_W_UPKEEP: renumbered when the branches merged)
# plan step 5 (appended): the roll_phase_start window (W_ROLL_START: Knockdown's payment), after
# ST_KNOCK's reset; it goes on to ST_ROLL_START (the events, then the roll) when it closes
ST_W_ROLL_START = 34
# issue 31 (appended): the targeting roll after an ability is chosen (modes/DESIGN.md 2.3).
# ST_TARGET: a targeted tier with several opponents rolls the target die (O_TDIE, O_ROLL_WHO 3);
# ST_TWIN: the window on that die (target_die_cards; run as ST_PREWIN's); ST_TREAD: the die's
# face read through target_faces_2 (a PH_TARGET decision for pick and their_pick), then the
# attack goes on (ST_ACCURACY; ST_RESOLVE for a tier without attack damage)
ST_TARGET, ST_TWIN, ST_TREAD = 35, 36, 37
# issue 31 (appended): the collateral window under collateral_preventable (modes/DESIGN.md 1.8):
# after the attacked window, before the damage lands, each seat the collateral will hit (seat
# order from the attacker's left) may mitigate its portion: first its attacked-window spend
# entries that prevent (PH_TOKEN), then its hand's cards that prevent (PH_WINDOW); O_CVIC walks
# the seats and the two offers, O_HALF holds the halvings (Protect) spent there
ST_COLLWIN = 38
W_STEP0 = ST_W_ATTACK_END
W_NEXT = (ST_DEFENDING, ST_DEFROLL, ST_ATTACKED, ST_LAND, ST_POSTWIN)
# whose dice wait for a reroll decision at ST_BONUS (O_BONUS_SRC; season1/VOCABULARY.md 7.3)
BS_TIER, BS_PREDEF, BS_CARD, BS_DEF = range(4)
# ST_KNOCK: the start of every offensive roll phase (the attack state reset), then the
# roll_phase_start window (ST_W_ROLL_START); ST_ROLL_START: roll_phase_start events, then the
# roll; ST_ROLL_END: roll_phase_end events (after the last window), then ST_ABILITY;
# ST_DEFENDING: defending events, then ST_DEFROLL; ST_ATTACKED: attacked events (after the
# attacking window: Crit), then the attacked window (Protect), then ST_LAND

# damage sources (records)
SOURCES = ("ability", "card", "token", "status")
SRC_ABILITY, SRC_CARD, SRC_TOKEN, SRC_STATUS = range(4)

# ------------------------------------------------------------------ state layout
# per-seat block
P_HERO = 0
P_HP = 1
P_CP = 2
P_PREVENT = 3      # prevention waiting for the attack damage
P_HAND_N = 4
P_DECK_N = 5
P_DISC_N = 6
P_CARDS = 7        # cards played
P_SPENDS = 8       # tokens spent by decision (spend entries: Crit, Protect, Knockdown paid...) and knocked_out
                   # events run (Blessing of Divinity)
P_SOLD = 9
P_ATTACKS = 10     # abilities activated
P_TOK = 12                       # [MAX_TOKENS]
P_LIM = P_TOK + MAX_TOKENS       # [MAX_TOKENS] stack limits
P_LVL = P_LIM + MAX_TOKENS       # [N_LVL] levels (1..): abilities, then defences, then the passive
P_DLVL = P_LVL + LV_DEF          # [MAX_DEF] defence levels
P_PLVL = P_LVL + LV_PASSIVE      # passive level
P_DMG = P_LVL + N_LVL            # [4] damage dealt by source
P_USES = P_DMG + 4               # [MAX_AB] ability activations
P_TUSE = P_USES + MAX_AB         # [MAX_TOKENS] token uses (records)
P_CUSE = P_TUSE + MAX_TOKENS     # [MAX_CARDS] plays of each card id (records)
P_HAND = P_CUSE + MAX_CARDS      # [MAX_HAND]
P_DECK = P_HAND + MAX_HAND       # [MAX_DECK] bottom first, top = last
P_DISC = P_DECK + MAX_DECK       # [MAX_DECK]
P_HELD = P_DISC + MAX_DECK       # bit t: token t held when the holder's turn began (held_all_turn)
P_SKIP = P_HELD + 1              # SK_* bits: phases this turn skips (skip, fail_attack)
P_ONCE = P_SKIP + 1              # bit t: token t spent this turn through a once_per_turn entry
P_TNEW = P_ONCE + 1              # [MAX_TOKENS] tokens gained this turn (not_gained_this_turn)
P_BLOCK = P_TNEW + MAX_TOKENS    # negative statuses still to block in the attack under way (block_status)
P_TEAM = P_BLOCK + 1             # the seat's team (issue 31, modes/DESIGN.md 2.1; 1v1: the seat itself)
P_TSRC = P_TEAM + 1              # [MAX_TOKENS] 1 + the seat that last gave this seat token t (inflict,
                                 # transfer; 0: none): with several seats, the damage a status deals its
                                 # holder is credited to that seat (modes/DESIGN.md 2.4), not "the opponent"
P_PLACE = P_TSRC + MAX_TOKENS    # the seat's place once its team is out or the game over (1 = won; 0: not
                                 # out, read as 1: the survivors of a capped game share 1st)
P_OUT = P_PLACE + 1              # 1 + the turn its team went out (0: never)
P_LEN = P_OUT + 1

O_CUR = 0
O_TURN = 1
O_ACTIVE = 2
O_FIRST = 3
O_STEP = 4
O_PHASE = 5
O_WINNER = 6        # -1 draw / none
O_CAPPED = 7
O_OVER = 8
O_ATTEMPTS = 9      # attempts used this offensive roll phase
O_MAX_ATT = 10
O_ROLL_WHO = 11     # 0 no current roll, 1 the attack dice, 2 the defence dice
O_WIN_PRIO = 12     # seat with priority in a window
O_WIN_PASSES = 13
O_AB = 14           # chosen ability (-1 none)
O_TIER = 15         # chosen tier (index into the hero's tier list of that ability)
O_ATK_KIND = 16
O_DEFENDED = 17     # 1: the defender rolls (0: not)
O_POOL = 18         # ability damage waiting to land
O_POOL_CARD = 19    # added by cards
O_POOL_TOKEN = 20   # token damage added to the attack (spends and events: Crit, Targeted)
O_COLLAT = 21
O_SPENT = 22
O_PEND_OP = 23      # pending die (or buy) effect of a card; buy: O_PEND_ARG token, O_PEND_N cost
O_PEND_N = 24
O_PEND_ARG = 25
O_RET_STEP = 26     # step to return to after the die decisions
O_TAKEN = 27        # attack damage the defender took (Retribution)
O_PROTECTED = 28
O_DDN = 29          # defence dice count
O_INCOME_SKIP = 30  # 1 once the first player's income was skipped
O_STUNNED_ATK = 31  # extra offensive roll phases taken this turn
O_ADICE = 32        # [5] attack dice: face index 0..5
O_DDICE = O_ADICE + N_DICE   # [5] defence dice
O_DEF = O_DDICE + N_DICE     # the defence chosen for the attack under way (-1: none yet)
O_USED = O_DEF + 1           # bit s: the activated tier needs symbol s (if_uses)
O_BONUS_N = O_USED + 1       # bonus dice waiting for the attacker's reroll (may_reroll), 0: none
O_BDICE = O_BONUS_N + 1      # [5] those bonus dice: face index 0..5
O_NODEF = O_BDICE + N_DICE   # 1: the defender makes no defensive roll against this attack (skip_defence)
O_AVOID = O_NODEF + 1        # 1: the attack's damage is avoided (avoid)
O_WIN_USED = O_AVOID + 1     # bit e: spend entry e was used in the window now open
O_PREDEF = O_WIN_USED + 1    # effects of the tier's pre-defence part done (the part resumes after a reroll)
O_BONUS_SRC = O_PREDEF + 1   # BS_*: whose dice wait at ST_BONUS (a tier's last roll, a pre-defence roll,
                             # a card's roll, the defence dice)
O_BONUS_ROW = O_BONUS_SRC + 1  # the waiting roll: its index in the tier's effects (BS_TIER, BS_PREDEF), or
                             # the card id (BS_CARD: a card's roll is its last effect)
O_PIPS = O_BONUS_ROW + 1     # the face-number sum of the attack's last roll_sum (plan step 6: appended)
O_DISC_N = O_PIPS + 1        # cards still to discard for a card's discard_cost (plan step 9: appended)
O_DISC_CARD = O_DISC_N + 1   # the card whose effects wait for those discards
O_CHOOSE_N = O_DISC_CARD + 1  # choices pending (choose), at most MAX_CHOOSE (plan step 8: appended)
O_CHOOSE = O_CHOOSE_N + 1    # [MAX_CHOOSE] their effect rows, oldest first
O_CHOOSE_WHO = O_CHOOSE + MAX_CHOOSE   # the seat that picks (the owner of the list that queued them)
O_CHOOSE_CTX = O_CHOOSE_WHO + 1        # the context their alternatives run in (kernel.CTX_*)
# the seats (issue 31, modes/DESIGN.md 2.1): who is in the game, in what order, and whom the
# active player's attack and "the opponent" of its effects mean; in 1v1 the target is always
# the other seat and the order the two seats from the start player
O_NSEATS = O_CHOOSE_CTX + 1  # seats in play (2..MAX_SEATS)
O_TARGET = O_NSEATS + 1      # the seat the active player's attack goes to (1v1: the other seat)
O_ORDER = O_TARGET + 1       # [MAX_SEATS] seats in turn order, the start player first
O_ALIVE = O_ORDER + MAX_SEATS  # bit k: team k still in the game
O_TDIE = O_ALIVE + 1         # the targeting die: face index 0..5 (O_ROLL_WHO 3 while it may be changed)
O_EVTOK = O_TDIE + 1         # 1 + the token whose event list is running (0: none): whose status dealt upkeep damage
O_TTAB = O_EVTOK + 1         # the rules-vector offset of the face table the targeting die is read through
O_SEEHANDS = O_TTAB + 1      # 1: teammates see each other's hands (rule option team_sees_hands; observe_nb)
O_CVIC = O_SEEHANDS + 1       # the collateral window's place (ST_COLLWIN): 0 not opened; 1 + 2 * (i - 1) + offer
                             # at seat (attacker + i) % seats (offer 0 spends, 1 cards); past the last seat: done
O_HALF = O_CVIC + 1          # bit p: seat p halves its collateral (prevent_half spent in the collateral window)
O_PICKED = O_HALF + 1        # bit p: seat p took the first of a "two_chosen" gain's two picks (cleared by the second)
O_SEATS = O_PICKED + 1


def s_len(seats: int) -> int:
    """The state vector's length with ``seats`` seats."""
    return O_SEATS + seats * P_LEN


S_LEN = s_len(2)

DOMAIN = 0xD1CE7420            # game i of seed s uses stream (s, i, DOMAIN)
STRATEGY_DOMAIN = 0xD1CE7421   # strategies' own stream

# ------------------------------------------------------------------ rules
RULE_KEYS = (
    "start_hp", "hp_above_start", "start_cp", "cp_cap", "start_hand", "first_player",
    "income_cp", "income_cards", "first_player_skips_income", "sell_cp", "hand_limit",
    "roll_attempts", "reshuffle_discard", "max_turns", "decay_before_burn",
    "stun_extra_attack", "crit_needs_threshold", "blessing_vs_ultimate", "simultaneous_ko_draw",
    "may_skip_ability", "upgrade_pays_difference", "grow_prefers",
    "mode", "team_start_hp", "team_turn_order", "target_die_cards", "collateral_hits_target", "collateral_per",
    "ffa_start_hp", "ffa_targeting", "koth_leader_card", "team_sees_hands",
    "collateral_preventable",
    # last: the targeting die's tables, six slots each of the rules vector (R_TFACES2 + face index)
    "target_faces_2", "target_faces_3", "target_faces_multi", "target_faces_ffa",
)
FACE_KEYS = ("target_faces_2", "target_faces_3", "target_faces_multi", "target_faces_ffa")
R = {}
for _k in RULE_KEYS:
    R[_k] = len(R) if _k not in FACE_KEYS else R.get("target_faces_2", len(R)) + 6 * FACE_KEYS.index(_k)
del _k
R_START_HP, R_HP_ABOVE, R_START_CP, R_CP_CAP, R_START_HAND, R_FIRST = (R[k] for k in RULE_KEYS[:6])
R_INCOME_CP, R_INCOME_CARDS, R_SKIP_INCOME, R_SELL_CP, R_HAND_LIMIT = (R[k] for k in RULE_KEYS[6:11])
R_ATTEMPTS, R_RESHUFFLE, R_MAX_TURNS, R_DECAY_FIRST = (R[k] for k in RULE_KEYS[11:15])
R_STUN_EXTRA, R_CRIT_THRESHOLD, R_BLESS_ULT, R_KO_DRAW, R_MAY_SKIP, R_UP_DIFF = (R[k] for k in RULE_KEYS[15:21])
R_GROW_NEW = R["grow_prefers"]   # 0 upgrade, 1 new (GROW_MODES)
R_MODE, R_TEAM_HP, R_TEAM_ORDER = R["mode"], R["team_start_hp"], R["team_turn_order"]
R_TDIE_CARDS, R_TFACES2 = R["target_die_cards"], R["target_faces_2"]
R_COLL_TGT, R_COLL_PER = R["collateral_hits_target"], R["collateral_per"]
R_FFA_HP, R_FFA_FREE, R_KOTH = R["ffa_start_hp"], R["ffa_targeting"], R["koth_leader_card"]
R_TFACES3, R_TFACESM, R_TFACESF = R["target_faces_3"], R["target_faces_multi"], R["target_faces_ffa"]
R_TEAM_HANDS = R["team_sees_hands"]
R_COLL_PREV = R["collateral_preventable"]
FFA_TARGETING = ("roll", "free")     # ffa_targeting (R_FFA_FREE: 1 = free)
COLLATERAL_PER = ("hero", "team")    # collateral_per: X to each opposing hero, or once per opposing team
# the targeting die's outcomes (modes/DESIGN.md 1.7, 2.3): left = the nearest living opponent
# after the attacker in turn order, right = the nearest before; pick: the attacker chooses any
# living opponent; their_pick: the first opponent (left) chooses among its team's living members.
# middle: with three opponents, the one between left and right in seat order; pick_lr: the
# attacker chooses between left and right (free-for-all's roll)
TARGET_FACES = ("left", "right", "pick", "their_pick", "middle", "pick_lr")
TF_LEFT, TF_RIGHT, TF_PICK, TF_THEIR, TF_MIDDLE, TF_PICK_LR = range(len(TARGET_FACES))
FIRST_MODES = ("roll", "seat0")
# the modes (issue 31, modes/DESIGN.md): seats and teams of each; seats alternate teams
# (2v2: A B A B). 3v3, 2v2v2 and free-for-all follow the plan's steps 6-7
# (2v2: A B A B; 3v3: A B A B A B; 2v2v2: A B C A B C; free-for-all: every seat its own team).
# The kernel reads a mode's teams from its index (kernel.mode_teams_nb): keep this order
MODES = ("1v1", "2v2", "3v3", "2v2v2", "ffa3", "ffa4", "ffa5", "ffa6")
M_FFA0 = MODES.index("ffa3")         # modes from here on are free-for-all
MODE_SEATS = {"1v1": 2, "2v2": 4, "3v3": 6, "2v2v2": 6, "ffa3": 3, "ffa4": 4, "ffa5": 5, "ffa6": 6}
MODE_TEAMS = {"1v1": 2, "2v2": 2, "3v3": 2, "2v2v2": 3, "ffa3": 3, "ffa4": 4, "ffa5": 5, "ffa6": 6}
TEAM_ORDERS = ("alternate", "blocks")   # team_turn_order


def load_rules(path=None, overrides: dict | None = None) -> dict:
    return load_options(RULES_FILE, path, overrides, validate_rules)


def validate_rules(r: dict, where: str) -> None:
    need = requirer(where)
    for k in RULE_KEYS:
        need(k in r, k, "missing rule option")
    for k in ("start_hp", "roll_attempts", "max_turns", "hand_limit"):
        need(r[k] >= 1, k, "must be >= 1")
    for k in ("hp_above_start", "start_cp", "cp_cap", "income_cp", "income_cards", "sell_cp", "start_hand"):
        need(r[k] >= 0, k, "must be >= 0")
    need(r["start_cp"] <= r["cp_cap"], "start_cp", "must be <= cp_cap")
    need(r["start_hand"] <= MAX_HAND, "start_hand", f"must be <= {MAX_HAND}")
    need(r["hand_limit"] <= MAX_HAND, "hand_limit", f"must be <= {MAX_HAND}")
    # a hand holds at most MAX_HAND cards (a draw past it is lost): more income draws than
    # that change nothing, and 10**9 of them kept both engines drawing for hours a turn
    need(r["income_cards"] <= MAX_HAND, "income_cards", f"must be <= {MAX_HAND} (a hand holds at most {MAX_HAND} cards)")
    need(r["roll_attempts"] <= 10, "roll_attempts", "must be <= 10")
    need(r["first_player"] in FIRST_MODES, "first_player", f"must be one of {', '.join(FIRST_MODES)}")
    need(r["grow_prefers"] in GROW_MODES, "grow_prefers", f"must be one of {', '.join(GROW_MODES)}")
    need(r["mode"] in MODES, "mode", f"must be one of {', '.join(MODES)}")
    need(r["team_start_hp"] >= 1, "team_start_hp", "must be >= 1")
    need(r["team_turn_order"] in TEAM_ORDERS, "team_turn_order", f"must be one of {', '.join(TEAM_ORDERS)}")
    need(isinstance(r["target_die_cards"], bool), "target_die_cards", "must be true or false")
    need(isinstance(r["collateral_hits_target"], bool), "collateral_hits_target", "must be true or false")
    need(r["collateral_per"] in COLLATERAL_PER, "collateral_per", f"must be one of {', '.join(COLLATERAL_PER)}")
    need(isinstance(r["collateral_preventable"], bool), "collateral_preventable", "must be true or false")
    need(r["ffa_start_hp"] >= 1, "ffa_start_hp", "must be >= 1")
    need(r["ffa_targeting"] in FFA_TARGETING, "ffa_targeting", f"must be one of {', '.join(FFA_TARGETING)}")
    need(isinstance(r["koth_leader_card"], bool), "koth_leader_card", "must be true or false")
    for k in FACE_KEYS:
        tf = r[k]
        need(isinstance(tf, (list, tuple)) and len(tf) == 6, k, f"must be a list of 6 outcomes, one per face (got {tf!r})")
        ok = TARGET_FACES if k != "target_faces_2" else tuple(x for x in TARGET_FACES if x != "middle")
        bad = [x for x in tf if x not in ok]
        need(not bad, k, f"{bad[0]!r} is not an outcome here: use {', '.join(ok)}" if bad else "")


def rules_vector(r: dict) -> np.ndarray:
    out = []
    for k in RULE_KEYS:
        v = r[k]
        if k in FACE_KEYS:
            out.extend(TARGET_FACES.index(x) for x in v)
            continue
        out.append(FIRST_MODES.index(v) if k == "first_player" else GROW_MODES.index(v) if k == "grow_prefers"
                   else MODES.index(v) if k == "mode" else TEAM_ORDERS.index(v) if k == "team_turn_order"
                   else COLLATERAL_PER.index(v) if k == "collateral_per"
                   else FFA_TARGETING.index(v) if k == "ffa_targeting"
                   else int(v))
    return np.array(out, dtype=np.int64)


# ------------------------------------------------------------------ content
@dataclass
class Effect:
    op: int
    n: int = 0
    per: int = 0
    of: int = OF_NONE
    arg: int = -1          # token id / ability index / face for set_die (0 = any)
    target: int = T_SELF
    kind: int = K_NORMAL
    level: int = 0
    on: dict = field(default_factory=dict)   # roll: symbol id -> [Effect]
    text: str = ""
    if_roll: int = 0       # packed symbol counts the roll must show (0: unconditional)
    if_uses: int = 0       # 1 + symbol the activated tier must need (0: unconditional)
    cond: int = COND_NONE  # one condition (C_COND) and its argument (C_CARG)
    carg: int = 0
    half: int = 0
    cap: int = -1
    flag: int = 0
    after: list = field(default_factory=list)   # roll: effects run once after the per-die outcomes
    alts: list = field(default_factory=list)   # choose: the alternatives, each a list of Effect
    row: int = field(default=-1, repr=False, compare=False)   # choose: its effect-table row (build_tables)


@dataclass
class Tier:
    level: int
    target: object          # simcore.dice.Target (None for defences)
    text: str
    effects: list
    dice: int = 0           # a defence tier's dice (0: the defence's)
    may_reroll: int = -1    # a defence tier's rerolls (-1: the defence's)


@dataclass
class Ability:
    id: str
    name: str
    tiers: list
    ultimate: bool = False
    may_reroll: int = 0     # a defence: dice the defender may reroll once (a tier's own overrides)


@dataclass
class Token:
    id: str
    name: str
    negative: bool
    limit: int
    use: int
    upkeep: list = field(default_factory=list)
    owner: str = ""         # "" generic (cards.toml) or the hero id whose file defines it
    kind: int = TK_POS      # TOKEN_KINDS (negative: kind == TK_NEG)
    events: dict = field(default_factory=dict)   # moment (EVENTS, but upkeep) -> [Effect]
    spend: list = field(default_factory=list)    # [SpendEntry] (use = "data")
    group: str = ""         # the token group it belongs to ("" none: VOCABULARY.md 3.4)
    grows_into: str = ""    # the next rung of its group's ladder (a token id; "" the top)
    group_id: int = -1      # the group's number in the matchup (OF_GROUP + it)
    grows_id: int = -1      # grows_into's token id


@dataclass
class SpendEntry:
    """One way of spending a token by decision (season1/VOCABULARY.md 3.1)."""
    when: int               # WINDOWS
    effects: list
    max: int = 1            # tokens spent in one use (0: "all": the holder chooses 1..its count)
    repeat: bool = False
    once_per_turn: bool = False
    not_gained_this_turn: bool = False
    cost_cp: int = 0
    at_least: int = -1      # if_attack.at_least
    kinds: int = -1         # if_attack.kind: bit per K_* (-1: the window's default)
    inflicts: bool = False  # if_attack.inflicts
    if_has: int = -1        # token, -2 any negative status, -1 none
    unless_has: int = -1


@dataclass
class Card:
    id: str
    name: str
    cost: int
    phase: int
    copies: int
    dice: int
    when: int
    effects: list
    owner: str              # "" generic or hero id
    other: list = field(default_factory=list)   # other_reading: the effects under a reading the
                                                # sources disagree on (not played; the odds show it)
    discard_cost: int = 0   # other cards of the hand discarded to play it (before its effects)


@dataclass
class Hero:
    id: str
    name: str
    die: object
    symbols: list
    face_sym: list          # symbol id per face index
    abilities: list
    defences: list          # [Ability]: the defender chooses one when there are several
    defence_dice: list      # dice of each defence (level I)
    tithe_reroll: int = -1  # -1: no Tithes passive (level I)
    tithe_draw: int = -1
    passive_name: str = ""
    cards: list = field(default_factory=list)
    passive_id: str = ""
    passive_levels: list = field(default_factory=list)   # [PassiveLevel], level 1 first

    def defence_dice_at(self, k: int, level: int) -> int:
        """Dice of defence k at a level (a tier's own ``dice``, else the defence's)."""
        t = sorted(self.defences[k].tiers, key=lambda x: x.level)[level - 1]
        return t.dice or self.defence_dice[k]

    def passive_at(self, level: int):
        return self.passive_levels[level - 1] if self.passive_levels else None

    @property
    def key(self) -> str:
        """The hero's name in commands (its file name), as the shared CLI matches heroes."""
        return self.id


@dataclass
class PassiveLevel:
    reroll_cost: int = -1   # Tithes: reroll one of your dice for this CP (-1: none)
    draw_cost: int = -1     # Tithes: draw a card for this CP (-1: none)
    on_attack: list = field(default_factory=list)   # effects when you activate an offensive ability
    upkeep: list = field(default_factory=list)      # effects at your upkeep, before the tokens' (plan step 9)


@dataclass
class Content:
    tokens: list
    token_ids: dict
    cards: list            # global card list: generic first, then each hero's
    heroes: dict           # id -> Hero
    generic: list
    sources: tuple = ()    # (generic file, heroes folder) it was loaded from
    choose_rows: dict = field(default_factory=dict)   # effect-table row -> its choose Effect (build_tables)
    chosen_rows: dict = field(default_factory=dict)   # effect-table row -> its chosen-player Effect (build_tables)


_EFFECT_KEYS = {"n", "per", "of", "kind", "target", "up_to", "on", "level", "if_roll", "if_uses", "may_reroll",
                "times", "cost", "cap", "held_all_turn", "pre_defence", "after", "if_kind", "if_pips", "if_dealt",
                "if_has", "unless_has", "if_spent", "half"}
PRE_DEFENCE = 1     # C_FLAG bit 0: the effect belongs to the tier's pre-defence part (7.1)
AFTER = MAX_SYM     # the outcome tables' column of a roll's ``after`` list


class _Ctx:
    """Where an effect is being read: the file, the hero (for symbols and abilities)."""

    def __init__(self, where, token_ids, symbols=None, ability_ids=None):
        self.where = where
        self.token_ids = token_ids
        self.symbols = symbols
        self.ability_ids = ability_ids
        self.upgrade_ids = None     # id -> level slot (abilities, defences, passive)
        self.moment = None          # the token event being read (EVENTS), or None
        self.tier = False           # an offensive tier's effects are being read (undefendable, pre_defence)
        self.defence = False        # a defence's tiers are being read (prevent_half, block_status)
        self.groups = {}            # token group name -> (group id, root token id) visible here
        self.in_choose = False      # reading a choose's alternatives


MAX_NUMBER = 1_000_000    # no number of the content comes near; the tables are int64
# a token's stack limit: the optimal strategy's tables hold a row per count of the scaling
# token (strategies/dicethrone/optimal.py: ~3 MB and 0.1 s per count, for any run, since
# the strategy data is built once per content); the heroes' limits are 1-5
MAX_TOKEN_LIMIT = 50


def _int(v, where, fld, lo=None, hi=None, why=""):
    if not is_whole(v):
        raise PlaytestError(f"must be a whole number, got {v!r}", where, fld)
    if lo is not None and v < lo:
        raise PlaytestError(f"must be >= {lo}, got {v}", where, fld)
    if hi is not None and v > hi:
        raise PlaytestError(f"must be <= {hi}{why}, got {v}", where, fld)
    if abs(v) > MAX_NUMBER:
        raise PlaytestError(f"must be at most {MAX_NUMBER:,} in size, got {v}", where, fld)
    return v


def _table(v, where, fld):
    """``v`` if it is a TOML table, else the one-line error."""
    if not isinstance(v, dict):
        raise PlaytestError(f"must be a table, got {v!r}", where, fld)
    return v


def _list(v, where, fld):
    """``v`` if it is a TOML array, else the one-line error."""
    if not isinstance(v, list):
        raise PlaytestError(f"must be a list (an array of tables), got {v!r}", where, fld)
    return v


def _text(v, where, fld):
    """``v`` if it is a non-empty string (ids and names), else the one-line error."""
    if not isinstance(v, str) or not v.strip():
        raise PlaytestError(f"must be a non-empty string, got {v!r}", where, fld)
    return v


def _token(ctx, name, fld, allow_negative=False):
    _text(name, ctx.where, fld)
    if allow_negative and name == "negative":
        return -2
    if name not in ctx.token_ids:
        raise PlaytestError(f"unknown token {name!r} (known: {', '.join(ctx.token_ids)})", ctx.where, fld)
    return ctx.token_ids[name]


def _group(ctx, text, fld):
    """``(group id, root token id)`` of ``"group:G"``."""
    g = text[len("group:"):]
    if g not in ctx.groups:
        raise PlaytestError(f"unknown token group {g!r} (known: {', '.join(ctx.groups) or 'none'})", ctx.where, fld)
    return ctx.groups[g]


def choose_bound(effects, k=1) -> int:
    """The most choices an effect list (run ``k`` times) can queue: a choose one, a roll of n
    dice n times its outcomes' most (the queue holds MAX_CHOOSE)."""
    n = 0
    for e in effects:
        if e.op == OP_CHOOSE:
            n += 1
        elif e.op == OP_ROLL:
            n += e.n * max([choose_bound(x) for x in e.on.values()] + [0])
    return n * k


def parse_effect(d, ctx: _Ctx, fld: str, in_roll: bool = False) -> Effect:
    if not isinstance(d, dict) or not d:
        raise PlaytestError("an effect is a table such as { damage = 4 }", ctx.where, fld)
    ops = [k for k in d if k in OPS]
    if len(ops) != 1:
        raise PlaytestError(f"an effect names exactly one operation (one of {', '.join(OPS)}), got {sorted(d)}",
                            ctx.where, fld)
    name = ops[0]
    unknown = set(d) - {name} - _EFFECT_KEYS
    if "may_reroll" in d and name not in ("roll", "roll_sum"):
        unknown = {"may_reroll"}
    if "after" in d and name != "roll":
        unknown = {"after"}
    if "pre_defence" in d and name not in ("roll", "spend", "roll_sum"):
        unknown = {"pre_defence"}
    if "times" in d and name != "reroll":
        unknown = {"times"}
    if "cost" in d and name != "buy":
        unknown = {"cost"}
    if unknown:
        raise PlaytestError(f"unknown key {sorted(unknown)[0]!r}", ctx.where, fld)
    op = OPS.index(name)
    v = d[name]
    e = Effect(op=op, text=name)
    if "pre_defence" in d:
        if d["pre_defence"] is not True or not ctx.tier or in_roll:
            raise PlaytestError("pre_defence = true belongs to a roll or spend among an offensive tier's first "
                                "effects (its pre-defence part)", ctx.where, f"{fld}.pre_defence")
        e.flag |= PRE_DEFENCE
    if op == OP_UNDEFENDABLE and ctx.tier and ctx.moment is None:
        pass    # in a tier: where it stands (the pre-defence part) is checked by _parse_tiers
    elif op in EVENT_OPS and ctx.moment not in EVENT_OPS[op] and not (op == OP_PREVENT_HALF and ctx.defence):
        where_ok = [m.replace("spend:", "") + (" spend" if m.startswith("spend:") else " event") for m in EVENT_OPS[op]]
        raise PlaytestError(f"{name} belongs to a token's {' or '.join(where_ok)}"
                            + (" (or a defence)" if op == OP_PREVENT_HALF else ""), ctx.where, fld)
    if ctx.moment is not None and op == OP_ADD_DAMAGE and ctx.moment not in ("attacked", "spend:attack_end",
                                                                             "spend:attacking"):
        raise PlaytestError("add_damage belongs to a token's attacked event, its attack_end or attacking spend "
                            "(or an attack modifier card)", ctx.where, fld)
    if ctx.moment is not None and op == OP_PREVENT and ctx.moment not in ("attacked", "spend:attacked"):
        raise PlaytestError("prevent belongs to a token's attacked event or spend (or a defence, a card)",
                            ctx.where, fld)
    if op == OP_BLOCK_STATUS and not (ctx.defence or ctx.moment == "spend:defending"):
        raise PlaytestError("block_status belongs to a defence tier or a token's defending spend", ctx.where, fld)
    if op == OP_CHOOSE and ctx.moment is not None and not ctx.moment.startswith("spend:"):
        raise PlaytestError("choose is a decision: a token's events take none (a spend, a tier or a card may)",
                            ctx.where, fld)
    if ctx.in_choose:
        if op in (OP_CHOOSE, OP_ROLL) or op in PEND_OPS:
            raise PlaytestError(f"{name} cannot stand inside a choose's alternative", ctx.where, fld)
        bad = [k for k in ("if_roll", "if_uses") if k in d]
        if isinstance(d.get("of"), str) and ctx.symbols is not None and d["of"] in ctx.symbols:
            bad.append("of")
        if bad:
            raise PlaytestError(f"{bad[0]} reads the roll, which is gone when a choose's alternative resolves "
                                "(it resolves after its list)", ctx.where, f"{fld}.{bad[0]}")
    if ctx.moment is not None and op == OP_EXTRA_ATTEMPT and ctx.moment != "roll_phase_start":
        raise PlaytestError("extra_attempt belongs to a token's roll_phase_start event (or a roll-phase card)",
                            ctx.where, fld)
    if "cap" in d:
        e.cap = _int(d["cap"], ctx.where, f"{fld}.cap", 0)
    _condition(e, d, ctx, fld)
    if "half" in d:
        if d["half"] not in HALVES:
            raise PlaytestError("half is \"up\" or \"down\" (how to round the halved amount)", ctx.where,
                                f"{fld}.half")
        e.half = 1 + HALVES.index(d["half"])
    if "if_roll" in d:
        cond = d["if_roll"]
        if ctx.symbols is None or not isinstance(cond, dict) or not cond:
            raise PlaytestError("if_roll is a table { symbol = count } of a hero's dice", ctx.where, f"{fld}.if_roll")
        for sym, cnt in cond.items():
            if sym not in ctx.symbols:
                raise PlaytestError(f"unknown symbol {sym!r} (dice show: {', '.join(ctx.symbols)})",
                                    ctx.where, f"{fld}.if_roll.{sym}")
            cnt = _int(cnt, ctx.where, f"{fld}.if_roll.{sym}", 1)
            if cnt > N_DICE:
                raise PlaytestError(f"at most {N_DICE}", ctx.where, f"{fld}.if_roll.{sym}")
            e.if_roll += cnt * 8 ** ctx.symbols.index(sym)
    if "if_uses" in d:
        if ctx.symbols is None or d["if_uses"] not in ctx.symbols:
            raise PlaytestError(f"if_uses names a symbol of the hero's dice, got {d['if_uses']!r}",
                                ctx.where, f"{fld}.if_uses")
        e.if_uses = 1 + ctx.symbols.index(d["if_uses"])
    e.target = T_OPP if op in (OP_DAMAGE, OP_INFLICT, OP_DISCARD_RANDOM) else T_SELF
    if "target" in d:
        if d["target"] not in TARGETS:
            raise PlaytestError(f"target must be one of {', '.join(TARGETS)}", ctx.where, f"{fld}.target")
        e.target = TARGETS.index(d["target"])
    if "kind" in d:
        if op != OP_DAMAGE or d["kind"] not in KINDS:
            raise PlaytestError(f"kind belongs to damage and is one of {', '.join(KINDS)}", ctx.where, f"{fld}.kind")
        e.kind = KINDS.index(d["kind"])
    if e.kind == K_COLLAT and e.target != T_ALL:
        raise PlaytestError("collateral damage hits all_opponents", ctx.where, f"{fld}.target")
    if e.target in (T_CHOSEN, T_MATE, T_TWO) and (op != OP_GAIN or "per" in d or "of" in d or "half" in d or "cap" in d):
        # the pick may come after the list (PH_TARGET): its amount is the plain n, its
        # conditions (if_roll, ...) are read when the list runs
        raise PlaytestError(f"target {d['target']} is for gain with a plain n (a chosen player gains N tokens)",
                            ctx.where, f"{fld}.target")
    if "per" in d or "of" in d:
        if not ("per" in d and "of" in d):
            raise PlaytestError("'per' and 'of' go together", ctx.where, fld)
        e.per = _int(d["per"], ctx.where, f"{fld}.per", 0)
        of = _text(d["of"], ctx.where, f"{fld}.of")
        if of == "spent":
            e.of = OF_SPENT
        elif of in ("pips", "cp", "taken"):
            e.of = {"pips": OF_PIPS, "cp": OF_CP, "taken": OF_TAKEN}[of]
            if of == "taken" and ctx.moment is not None and ctx.moment != "spend:after_attacked":
                raise PlaytestError("of = \"taken\" belongs to a tier's effects after its damage, an "
                                    "after_damage card or an after_attacked spend", ctx.where, f"{fld}.of")
        elif of == "extra_attempts":
            if ctx.moment != "roll_phase_end":
                raise PlaytestError("of = \"extra_attempts\" belongs to a token's roll_phase_end event", ctx.where,
                                    f"{fld}.of")
            e.of = OF_EXTRA_ATT
        elif of.startswith("group:"):
            e.of = OF_GROUP + _group(ctx, of, f"{fld}.of")[0]
        elif ctx.symbols is not None and of in ctx.symbols:
            e.of = OF_SYMBOL + ctx.symbols.index(of)
        elif of in ctx.token_ids:
            e.of = ctx.token_ids[of]
        else:
            raise PlaytestError(f"'of' must be a token, a symbol of the hero's dice, 'spent', 'pips', 'cp' or "
                                f"'taken', got {of!r}",
                                ctx.where, f"{fld}.of")
    if op == OP_EXTRA_ATTEMPT and ctx.moment == "roll_phase_start":
        e.n = _int(v, ctx.where, f"{fld}.{name}")      # fewer attempts (Entangle); never below 1
    elif op == OP_DISCARD_RANDOM:
        e.n = _int(v, ctx.where, f"{fld}.discard_random", 1)
    elif op in (OP_DAMAGE, OP_ADD_DAMAGE, OP_HEAL, OP_DRAW, OP_PREVENT, OP_EXTRA_ATTEMPT):
        e.n = _int(v, ctx.where, f"{fld}.{name}", 0)
    elif op == OP_SET_HP:
        e.n = _int(v, ctx.where, f"{fld}.set_hp", 1)      # the holder's health becomes N (knocked_out)
    elif op == OP_SKIP:
        want = "income" if ctx.moment == "income" else "roll_phase"
        if v != want:
            raise PlaytestError(f"at {ctx.moment} the phase skipped is \"{want}\"", ctx.where, f"{fld}.skip")
        e.n = SKIPS.index(v)
    elif op == OP_BLOCK_STATUS:
        e.n = _int(v, ctx.where, f"{fld}.{name}", 1)
    elif op == OP_GROW:
        e.n = _int(v, ctx.where, f"{fld}.grow", 0)
        if len(ctx.groups) != 1:
            raise PlaytestError("grow grows the hero's token group: it needs exactly one group (token keys group "
                                f"and grows_into), {len(ctx.groups)} visible here", ctx.where, f"{fld}.grow")
        e.arg = next(iter(ctx.groups.values()))[1]
    elif op == OP_CHOOSE:
        alts = v
        if not isinstance(alts, list) or not 2 <= len(alts) <= MAX_ALT:
            raise PlaytestError(f"choose is a list of 2..{MAX_ALT} alternatives, each a list of effects",
                                ctx.where, f"{fld}.choose")
        ctx.in_choose = True
        try:
            e.alts = [_parse_effects(x, ctx, f"{fld}.choose[{i}]") for i, x in enumerate(alts)]
        finally:
            ctx.in_choose = False
        e.n = len(alts)
    elif op == OP_GROW_ALL:
        if v != 1:
            raise PlaytestError("write grow_all = 1", ctx.where, f"{fld}.grow_all")
        if len(ctx.groups) != 1:
            raise PlaytestError("grow_all grows the hero's token group: it needs exactly one group (token keys "
                                f"group and grows_into), {len(ctx.groups)} visible here", ctx.where, f"{fld}.grow_all")
        e.n = 1
        e.arg = next(iter(ctx.groups.values()))[1]
    elif op in (OP_FAIL_ATTACK, OP_SKIP_DEFENCE, OP_AVOID, OP_PREVENT_HALF, OP_UNDEFENDABLE):
        if v != 1:
            raise PlaytestError(f"write {name} = 1", ctx.where, f"{fld}.{name}")
        e.n = 1
    elif op == OP_CP:
        e.n = _int(v, ctx.where, f"{fld}.cp")
    elif op in (OP_GAIN, OP_INFLICT, OP_RAISE_LIMIT):
        e.arg = _token(ctx, v, f"{fld}.{name}")
        e.n = _int(d.get("n", 0 if e.per else 1), ctx.where, f"{fld}.n", 0)
    elif op in (OP_REMOVE, OP_TRANSFER):
        e.arg = _token(ctx, v, f"{fld}.{name}", allow_negative=True)
        e.n = _int(d.get("n", 1), ctx.where, f"{fld}.n", 1)
    elif op == OP_SPEND and isinstance(v, str) and v.startswith("group:"):
        e.arg = _group(ctx, v, f"{fld}.spend")[1]      # the group's root: a group spend takes the lowest rung first
        e.level = 1
        e.n = _int(d.get("up_to", 1), ctx.where, f"{fld}.up_to", 1)
    elif op == OP_SPEND:
        e.arg = _token(ctx, v, f"{fld}.spend")
        e.n = _int(d.get("up_to", 1), ctx.where, f"{fld}.up_to", 1)
    elif op == OP_ROLL_SUM:
        e.n = _int(v, ctx.where, f"{fld}.roll_sum", 1, N_DICE)
        if "may_reroll" in d:
            # the roller may reroll up to K of its dice, then the sum is taken: only in a tier's
            # pre-defence part, whose reroll decision resumes the part (Walk the Line II)
            if d.get("pre_defence") is not True:
                raise PlaytestError("may_reroll on roll_sum needs pre_defence = true (the reroll decision "
                                    "resumes only a tier's pre-defence part)", ctx.where, f"{fld}.may_reroll")
            e.arg = _int(d["may_reroll"], ctx.where, f"{fld}.may_reroll", 0, e.n)
        if in_roll or ctx.moment is not None:
            raise PlaytestError("roll_sum belongs to an offensive tier's effects", ctx.where, fld)
    elif op == OP_ROLL:
        e.n = _int(v, ctx.where, f"{fld}.roll", 1)
        if "may_reroll" in d:
            e.arg = _int(d["may_reroll"], ctx.where, f"{fld}.may_reroll", 1)
            if e.arg > e.n or e.n > N_DICE:
                raise PlaytestError(f"rerolls at most the {e.n} dice rolled (and at most {N_DICE} dice)",
                                    ctx.where, f"{fld}.may_reroll")
        if in_roll:
            raise PlaytestError("a bonus roll cannot hold another bonus roll", ctx.where, fld)
        on = d.get("on")
        if not isinstance(on, dict) or not on:
            raise PlaytestError("a bonus roll needs on = { symbol = [effects] }", ctx.where, f"{fld}.on")
        by_face = all(k in ("1", "2", "3", "4", "5", "6") for k in on)
        if by_face:
            e.level = ROLL_BY_FACE
        elif ctx.symbols is None:
            raise PlaytestError("a bonus roll keyed by symbol needs a hero's dice (key it by face "
                                "number \"1\"..\"6\" instead)", ctx.where, fld)
        for sym, lst in on.items():
            if not by_face and sym not in ctx.symbols:
                raise PlaytestError(f"unknown symbol {sym!r} (dice show: {', '.join(ctx.symbols)})",
                                    ctx.where, f"{fld}.on.{sym}")
            if not isinstance(lst, list):
                raise PlaytestError("a list of effects", ctx.where, f"{fld}.on.{sym}")
            subs = [parse_effect(x, ctx, f"{fld}.on.{sym}[{i}]", True) for i, x in enumerate(lst)]
            for s in subs:
                if s.op in PEND_OPS or s.op in (OP_SPEND, OP_UPGRADE, OP_EXTRA_ATTEMPT):
                    raise PlaytestError(f"{OPS[s.op]} is not allowed in a bonus-roll outcome", ctx.where, f"{fld}.on.{sym}")
            e.on[int(sym) - 1 if by_face else ctx.symbols.index(sym)] = subs
        if "after" in d:
            # once after the per-die outcomes; if_roll and per/of a symbol read the bonus dice
            lst = d["after"]
            if not isinstance(lst, list) or not lst:
                raise PlaytestError("a non-empty list of effects", ctx.where, f"{fld}.after")
            e.after = [parse_effect(x, ctx, f"{fld}.after[{i}]", True) for i, x in enumerate(lst)]
            for s in e.after:
                if s.op in PEND_OPS or s.op in (OP_SPEND, OP_UPGRADE, OP_EXTRA_ATTEMPT):
                    raise PlaytestError(f"{OPS[s.op]} is not allowed in a roll's after", ctx.where, f"{fld}.after")
    elif op == OP_SET_DIE:
        if v == "any":
            e.arg = 0
        else:
            e.arg = _int(v, ctx.where, f"{fld}.set_die", 1)
            if e.arg > 6:
                raise PlaytestError("a face number is 1..6 (or \"any\")", ctx.where, f"{fld}.set_die")
        e.n = _int(d.get("n", 1), ctx.where, f"{fld}.n", 1)
    elif op in (OP_MOVE_DIE, OP_COPY_DIE):
        _int(v, ctx.where, f"{fld}.{name}", 1)
        e.n = _int(d.get("n", 1), ctx.where, f"{fld}.n", 1)
    elif op == OP_REROLL:
        e.n = _int(v, ctx.where, f"{fld}.reroll", 1)
        if e.n > N_DICE:
            raise PlaytestError(f"at most {N_DICE} dice", ctx.where, f"{fld}.reroll")
        times = _int(d.get("times", 1), ctx.where, f"{fld}.times", 1, N_DICE)
        e.arg = times if times > 1 else 0     # 0: one reroll; t: t rerolls in a row, each may stop
    elif op == OP_BUY:
        e.arg = _token(ctx, v, f"{fld}.buy")
        if "cost" not in d:
            raise PlaytestError("buy needs cost = N (CP per token bought)", ctx.where, fld)
        e.n = _int(d["cost"], ctx.where, f"{fld}.cost", 1)
        if e.target != T_SELF:
            raise PlaytestError("a player buys tokens for itself (target = self)", ctx.where, f"{fld}.target")
        if e.per or "n" in d:
            raise PlaytestError("buy takes cost only (the player chooses how many)", ctx.where, fld)
    elif op == OP_UPGRADE:
        ids = ctx.upgrade_ids or {}
        if _text(v, ctx.where, f"{fld}.upgrade") not in ids:
            raise PlaytestError(f"unknown ability {v!r} of this hero (nor a defence or the passive)", ctx.where,
                                f"{fld}.upgrade")
        e.arg = ids[v]
        e.level = _int(d.get("level", 2), ctx.where, f"{fld}.level", 2)
    return e


def _condition(e, d, ctx, fld):
    """The effect's one condition (``COND_KEYS``; season1/VOCABULARY.md 6) into
    ``e.cond``/``e.carg``; where each may stand is checked here and by the list's reader."""
    keys = [k for k in COND_KEYS if k in d]
    if len(keys) > 1:
        raise PlaytestError(f"an effect carries at most one of {', '.join(COND_KEYS)} (got {', '.join(keys)})",
                            ctx.where, fld)
    if not keys:
        return
    k = keys[0]
    v = d[k]
    f = f"{fld}.{k}"
    if k == "held_all_turn":
        if v is not True or ctx.moment != "turn_end":
            raise PlaytestError("held_all_turn = true belongs to a token's turn_end event", ctx.where, f)
        e.cond = COND_HELD
    elif k == "if_kind":
        if ctx.symbols is None or ctx.moment is not None:
            raise PlaytestError("if_kind belongs to the effects of an ability or a defence (it reads their dice)",
                                ctx.where, f)
        e.cond, e.carg = COND_KIND, _int(v, ctx.where, f, 2, N_DICE)
    elif k == "if_pips":
        t = _table(v, ctx.where, f)
        if len(t) != 1 or next(iter(t)) not in ("at_least", "at_most"):
            raise PlaytestError("if_pips is { at_least = N } or { at_most = N }", ctx.where, f)
        side = next(iter(t))
        e.cond = COND_PIPS_GE if side == "at_least" else COND_PIPS_LE
        e.carg = _int(t[side], ctx.where, f"{f}.{side}", 1, 6 * N_DICE)
    elif k == "if_dealt":
        if ctx.moment is not None:
            raise PlaytestError("if_dealt belongs to a tier's effects after its damage or an after_damage card",
                                ctx.where, f)
        e.cond, e.carg = COND_DEALT, _int(v, ctx.where, f, 1)
    elif k in ("if_has", "unless_has"):
        e.cond = COND_HAS if k == "if_has" else COND_UNLESS
        e.carg = _token(ctx, v, f, allow_negative=True)
    else:   # if_spent
        e.cond, e.carg = COND_SPENT, _int(v, ctx.where, f, 1)


def _reads_pips(e) -> bool:
    return e.of == OF_PIPS or e.cond in (COND_PIPS_GE, COND_PIPS_LE)


def _parse_effects(lst, ctx, fld):
    if not isinstance(lst, list) or not lst:
        raise PlaytestError("a non-empty list of effects", ctx.where, fld)
    out = [parse_effect(x, ctx, f"{fld}[{i}]") for i, x in enumerate(lst)]
    # of = "pips" / if_pips read the list's roll_sum; if_spent its spend: one must come first
    rolled = spent = False
    for i, e in enumerate(out):
        for x in [e] + [y for sub in e.on.values() for y in sub]:
            if _reads_pips(x) and not rolled:
                raise PlaytestError("of = \"pips\" and if_pips read a roll_sum earlier in the same list",
                                    ctx.where, f"{fld}[{i}]")
            if x.cond == COND_SPENT and not spent:
                raise PlaytestError("if_spent reads a spend earlier in the same list", ctx.where, f"{fld}[{i}]")
        rolled = rolled or e.op == OP_ROLL_SUM
        spent = spent or e.op == OP_SPEND
    if choose_bound(out) > MAX_CHOOSE:
        raise PlaytestError(f"this list can queue more than {MAX_CHOOSE} choices at once", ctx.where, fld)
    return out


def after_damage_only(e) -> bool:
    """Whether an effect reads what the attack dealt (``if_dealt``, ``of = "taken"``): it must
    resolve after the attack's damage landed."""
    return e.cond == COND_DEALT or e.of == OF_TAKEN


_TOKEN_KEYS = {"id", "name", "kind", "limit", "use", "spend", "group", "grows_into"} | set(EVENTS)
_SPEND_KEYS = {"when", "max", "repeat", "once_per_turn", "not_gained_this_turn", "cost_cp", "if_attack", "if_has",
               "unless_has", "effects"}


def _spend_entries(tok, d, ctx, fld):
    """A data token's ``spend`` entries (``use = "data"`` and ``spend`` go together)."""
    if (tok.use == U_DATA) != ("spend" in d):
        raise PlaytestError("use = \"data\" and a spend list go together", ctx.where, f"{fld}.use")
    if "spend" not in d:
        return
    for j, x in enumerate(_list(d["spend"], ctx.where, f"{fld}.spend")):
        f = f"{fld}.spend[{j}]"
        _table(x, ctx.where, f)
        unknown = sorted(set(x) - _SPEND_KEYS)
        if unknown:
            raise PlaytestError(f"unknown key {unknown[0]!r}", ctx.where, f"{f}.{unknown[0]}")
        for k in ("when", "effects"):
            if k not in x:
                raise PlaytestError(f"missing '{k}'", ctx.where, f)
        when = x["when"]
        if when not in WINDOWS:
            raise PlaytestError(f"when must be one of {', '.join(WINDOWS)}", ctx.where, f"{f}.when")
        ctx.moment = "spend:" + when
        try:   # an entry may have no effects: paying is all it does (Knockdown's cost_cp)
            effects = [] if _list(x["effects"], ctx.where, f"{f}.effects") == [] else \
                _parse_effects(x["effects"], ctx, f"{f}.effects")
        finally:
            ctx.moment = None
        for j, e in enumerate(effects):
            # a die operation on the holder's own roll: the last effect of an own_roll entry (Seedling)
            if (e.op in DIE_OPS and when == "own_roll" and j == len(effects) - 1 and x.get("max", 1) == 1
                    and e.target == T_SELF):
                continue
            for y in [e] + _subs(e):
                if y.op in PEND_OPS or y.op in (OP_UPGRADE, OP_EXTRA_ATTEMPT, OP_SPEND) or (y.op == OP_ROLL and y.arg > 0):
                    raise PlaytestError(f"{OPS[y.op]} cannot be spent for (a die operation: only as the last effect "
                                        "of an own_roll entry with max = 1)", ctx.where, f"{f}.effects")
        if when in WINDOWS[N_ATTACK_WINDOWS:] and ("if_attack" in x or "repeat" in x):
            raise PlaytestError(f"if_attack and repeat belong to an attack's windows, not to {when!r} (an entry there "
                                "is offered again while its conditions hold)", ctx.where, f)
        mx = x.get("max", 1)
        if choose_bound(effects, tok.limit if mx == "all" else mx if is_whole(mx) else 1) > MAX_CHOOSE:
            raise PlaytestError(f"spending the most this entry allows could queue more than {MAX_CHOOSE} choices",
                                ctx.where, f"{f}.effects")
        e = SpendEntry(WINDOWS.index(when), effects,
                       0 if mx == "all" else _int(mx, ctx.where, f"{f}.max", 1, 15),
                       bool(x.get("repeat", False)), bool(x.get("once_per_turn", False)),
                       bool(x.get("not_gained_this_turn", False)), _int(x.get("cost_cp", 0), ctx.where, f"{f}.cost_cp", 0))
        for k in ("repeat", "once_per_turn", "not_gained_this_turn"):
            if k in x and not isinstance(x[k], bool):
                raise PlaytestError("true or false", ctx.where, f"{f}.{k}")
        if "if_attack" in x:
            ia = _table(x["if_attack"], ctx.where, f"{f}.if_attack")
            bad = sorted(set(ia) - {"kind", "at_least", "inflicts"})
            if bad:
                raise PlaytestError(f"unknown key {bad[0]!r} (kind, at_least, inflicts)", ctx.where, f"{f}.if_attack")
            if "kind" in ia:
                ks = _list(ia["kind"], ctx.where, f"{f}.if_attack.kind")
                if not ks or any(k not in KINDS[:4] for k in ks):
                    raise PlaytestError(f"a list of attack kinds ({', '.join(KINDS[:4])})", ctx.where,
                                        f"{f}.if_attack.kind")
                e.kinds = sum(1 << KINDS.index(k) for k in set(ks))
            if "at_least" in ia:
                e.at_least = _int(ia["at_least"], ctx.where, f"{f}.if_attack.at_least", 1)
            if "inflicts" in ia:
                if ia["inflicts"] is not True:
                    raise PlaytestError("inflicts = true", ctx.where, f"{f}.if_attack.inflicts")
                e.inflicts = True
        for k in ("if_has", "unless_has"):
            if k in x:
                setattr(e, k, _token(ctx, x[k], f"{f}.{k}", allow_negative=True))
        tok.spend.append(e)


def _knocked_out_checks(lst, raw, ctx, fld):
    """A knocked_out event runs inside the damage that knocked its holder out (both engines'
    ``hurt``; ``kernel.ko_events_nb``): only KO_OPS, on its holder, with a plain amount and a
    named token (no per/of, condition or target: nothing that deals damage or reads the
    attack)."""
    for i, (e, x) in enumerate(zip(lst, raw)):
        if e.op not in KO_OPS:
            names = [OPS[o] for o in KO_OPS]
            raise PlaytestError(f"a knocked_out event holds {', '.join(names[:-1])} or {names[-1]} only (it runs "
                                f"inside the damage), got {OPS[e.op]}", ctx.where, f"{fld}[{i}]")
        extra = sorted(set(x) - {OPS[e.op]} - KO_KEYS)
        if extra:
            raise PlaytestError(f"{extra[0]!r} is not allowed in a knocked_out event (an amount n only)", ctx.where,
                                f"{fld}[{i}].{extra[0]}")
        if e.op in (OP_REMOVE, OP_GAIN) and e.arg < 0:
            raise PlaytestError("a knocked_out event names its token (not \"negative\")", ctx.where, f"{fld}[{i}]")


def _token_events(tok, tid, d, ctx, fld):
    """Token table ``d``'s event lists (``EVENTS``) into ``tok`` (token id ``tid``): no
    decision can stop them (die, buy and upgrade effects belong to cards)."""
    for m in EVENTS:
        if m not in d:
            continue
        ctx.moment = m
        try:
            lst = _parse_effects(d[m], ctx, f"{fld}.{m}")
        finally:
            ctx.moment = None
        if m == "knocked_out":
            _knocked_out_checks(lst, d[m], ctx, f"{fld}.{m}")
        for e in lst:
            if e.op in PEND_OPS or e.op == OP_UPGRADE:
                raise PlaytestError(f"{OPS[e.op]} belongs to cards", ctx.where, f"{fld}.{m}")
            if e.op == OP_ROLL and e.arg > 0:
                raise PlaytestError("may_reroll belongs to the last effect of an offensive tier", ctx.where,
                                    f"{fld}.{m}")
            for x in [e] + [y for sub in e.on.values() for y in sub]:
                if x.cond == COND_HELD:
                    x.carg = tid
        if m == "upkeep":
            tok.upkeep = lst
        else:
            tok.events[m] = lst
    _spend_entries(tok, d, ctx, fld)


def _parse_tokens(data, where, start):
    out = []
    for i, t in enumerate(_list(data.get("tokens", []), where, "tokens")):
        f = f"tokens[{i}]"
        _table(t, where, f)
        for k in ("id", "name", "kind", "limit", "use"):
            if k not in t:
                raise PlaytestError(f"missing '{k}'", where, f)
        _text(t["id"], where, f"{f}.id")
        _text(t["name"], where, f"{f}.name")
        if t["kind"] not in TOKEN_KINDS:
            raise PlaytestError(f"kind is one of {', '.join(TOKEN_KINDS)}", where, f"{f}.kind")
        if t["use"] in OLD_USES:
            raise PlaytestError(f"use = {t['use']!r} is data since season1 plan step 5: use = \"data\" with spend "
                                f"entries or events (as {OLD_USES[t['use']]})", where, f"{f}.use")
        unknown = sorted(set(t) - _TOKEN_KEYS)
        old = [k for k in unknown if k in OLD_TOKEN_KEYS]
        if old:
            raise PlaytestError(f"a token's {old[0]} is data since season1 plan step 5: {OLD_TOKEN_KEYS[old[0]]}",
                                where, f"{f}.{old[0]}")
        if unknown:
            raise PlaytestError(f"unknown key {unknown[0]!r} (a token has {', '.join(sorted(_TOKEN_KEYS))})",
                                where, f"{f}.{unknown[0]}")
        if t["use"] not in TOKEN_USES:
            raise PlaytestError(f"use must be one of {', '.join(TOKEN_USES)}", where, f"{f}.use")
        limit = _int(t["limit"], where, f"{f}.limit", 1, MAX_TOKEN_LIMIT, " (a token's stack limit)")
        out.append(Token(t["id"], t["name"], t["kind"] == "negative", limit, TOKEN_USES.index(t["use"]),
                         kind=TOKEN_KINDS.index(t["kind"]),
                         group=_text(t["group"], where, f"{f}.group") if "group" in t else "",
                         grows_into=_text(t["grows_into"], where, f"{f}.grows_into") if "grows_into" in t else ""))
    return out


def _token_groups(tokens, first, token_ids, where) -> dict:
    """Number the groups of ``tokens[first:]`` (a file's own tokens; the groups of the tokens
    before them keep theirs), resolve their ``grows_into`` and check each ladder: one chain
    per group from its root (the token no ``grows_into`` names), no cycle, no gap, every rung
    in the group (VOCABULARY.md 3.4). Returns the groups visible to the file: name ->
    (group id, root token id), the generic file's (owner "") and its own."""
    own = {}
    nxt = 1 + max([t.group_id for t in tokens[:first]] + [-1])
    generic = {u.group: u.group_id for u in tokens[:first] if u.owner == "" and u.group}
    for i, t in enumerate(tokens[first:], first):
        f = f"tokens[{i - first}]"
        if t.grows_into:
            if not t.group:
                raise PlaytestError("grows_into belongs to a token of a group (group = ...)", where, f"{f}.grows_into")
            if t.grows_into not in token_ids or token_ids[t.grows_into] < first:
                raise PlaytestError(f"grows_into names a token of this file, got {t.grows_into!r}", where,
                                    f"{f}.grows_into")
            t.grows_id = token_ids[t.grows_into]
        if t.group:
            if t.group in generic:
                raise PlaytestError(f"group {t.group!r} is the generic file's: a hero file does not add to it",
                                    where, f"{f}.group")
            if t.group not in own:
                own[t.group] = nxt
                nxt += 1
            t.group_id = own[t.group]
    roots = {}
    for g, gid in own.items():
        members = [i for i in range(first, len(tokens)) if tokens[i].group_id == gid]
        for i in members:
            u = tokens[i].grows_id
            if u >= 0 and tokens[u].group_id != gid:
                raise PlaytestError(f"grows_into names {tokens[u].id!r}, a token of another group", where, "tokens")
        named = {tokens[i].grows_id for i in members}
        root = [i for i in members if i not in named]
        if len(root) != 1:
            raise PlaytestError(f"group {g!r}: its grows_into must make one ladder (one chain from one root, no "
                                "cycle)", where, "tokens")
        seen, t = [], root[0]
        while t >= 0 and t not in seen:
            seen.append(t)
            t = tokens[t].grows_id
        if t >= 0 or len(seen) != len(members):
            raise PlaytestError(f"group {g!r}: its grows_into must make one ladder (one chain from one root, no "
                                "gap, no cycle)", where, "tokens")
        roots[g] = (gid, root[0])
    visible = {}
    for g, gid in generic.items():
        named = {u.grows_id for u in tokens[:first] if u.group_id == gid}
        visible[g] = (gid, [i for i, u in enumerate(tokens[:first]) if u.group_id == gid and i not in named][0])
    visible.update(roots)
    return visible


def _parse_cards(data, ctx, owner):
    out = []
    for i, c in enumerate(_list(data.get("cards", []), ctx.where, "cards")):
        f = f"cards[{i}]"
        _table(c, ctx.where, f)
        for k in ("id", "name", "cost", "phase", "copies", "effects"):
            if k not in c:
                raise PlaytestError(f"missing '{k}'", ctx.where, f)
        _text(c["id"], ctx.where, f"{f}.id")
        _text(c["name"], ctx.where, f"{f}.name")
        if c["phase"] not in PHASES_OF_CARDS:
            raise PlaytestError(f"phase must be one of {', '.join(PHASES_OF_CARDS)}", ctx.where, f"{f}.phase")
        effects = _parse_effects(c["effects"], ctx, f"{f}.effects")
        for j, e in enumerate(effects):
            if e.op == OP_ROLL and e.arg > 0 and (j != len(effects) - 1 or any(x.op in PEND_OPS for x in effects)):
                raise PlaytestError("a card's roll with may_reroll is its last effect (and it has no die effect)",
                                    ctx.where, f"{f}.effects")
            # if_roll is allowed in a roll's after (it reads the bonus dice), nowhere else on a card
            for x in [e] + [y for lst in e.on.values() for y in lst]:
                if x.if_roll or x.if_uses:
                    raise PlaytestError("if_roll and if_uses belong to abilities, defences and the passive",
                                        ctx.where, f"{f}.effects")
                if x.cond in (COND_KIND, COND_PIPS_GE, COND_PIPS_LE):
                    raise PlaytestError("a card's effects carry if_dealt, if_has, unless_has or if_spent",
                                        ctx.where, f"{f}.effects")
                if after_damage_only(x) and c.get("when") != "after_damage":
                    raise PlaytestError("if_dealt and of = \"taken\" on a card need when = \"after_damage\"",
                                        ctx.where, f"{f}.when")
            if e.op == OP_ROLL_SUM:
                raise PlaytestError("roll_sum belongs to an offensive tier's effects", ctx.where, f"{f}.effects")
        pend = [j for j, e in enumerate(effects) if e.op in PEND_OPS]
        if (pend and pend != list(range(len(effects) - len(pend), len(effects)))) or \
                (len(pend) > 1 and not _alternatives(effects[pend[0]:])):
            raise PlaytestError("a card holds at most one die effect (or buy), as its last effect, or two die "
                                "effects, last, of which exactly one applies (if_has = T on one, unless_has = T "
                                "on the other)", ctx.where, f"{f}.effects")
        die_ops = [j for j, e in enumerate(effects) if e.op in DIE_OPS]
        dice = c.get("dice", "own" if die_ops else "none")
        if dice not in CARD_DICE:
            raise PlaytestError(f"dice must be one of {', '.join(CARD_DICE)}", ctx.where, f"{f}.dice")
        if die_ops and dice == "none":
            raise PlaytestError("a card with a die effect needs dice = own|opponent|any", ctx.where, f"{f}.dice")
        when = c.get("when", "any")
        if when not in CARD_WHEN:
            raise PlaytestError(f"when must be one of {', '.join(CARD_WHEN)}", ctx.where, f"{f}.when")
        if any(e.op == OP_ADD_DAMAGE for e in effects) and when != "attacking":
            raise PlaytestError("add_damage needs when = \"attacking\"", ctx.where, f"{f}.when")
        if any(e.op == OP_PREVENT for e in effects) and when != "attacked":
            raise PlaytestError("prevent needs when = \"attacked\"", ctx.where, f"{f}.when")
        if any(e.op == OP_EXTRA_ATTEMPT for e in effects) and c["phase"] != "roll":
            raise PlaytestError("extra_attempt needs phase = \"roll\"", ctx.where, f"{f}.phase")
        if c["phase"] == "main" and (die_ops or when != "any"):
            raise PlaytestError("a main-phase card cannot touch dice or attacks", ctx.where, f"{f}.phase")
        if when == "after_damage" and die_ops:
            raise PlaytestError("an after_damage card cannot touch dice (none are current after the damage)",
                                ctx.where, f"{f}.when")
        discard_cost = _int(c.get("discard_cost", 0), ctx.where, f"{f}.discard_cost", 0, MAX_HAND - 1)
        for e in effects:
            for subs in e.on.values():
                for s in subs:
                    if s.op == OP_PREVENT and when != "attacked":
                        raise PlaytestError("prevent needs when = \"attacked\"", ctx.where, f"{f}.when")
        other = []
        if "other_reading" in c:
            other = _parse_effects(c["other_reading"], ctx, f"{f}.other_reading")
            ops_b = [e.op for e in other if e.op in DIE_OPS or e.op == OP_EXTRA_ATTEMPT]
            ops_a = [e.op for e in effects if e.op in DIE_OPS or e.op == OP_EXTRA_ATTEMPT]
            if ops_a != ops_b or other[-1].op != effects[-1].op:
                raise PlaytestError("the other reading changes the numbers of the card's last effect, not its kind "
                                    "(same die operation, as the last effect)", ctx.where, f"{f}.other_reading")
        out.append(Card(c["id"], c["name"], _int(c["cost"], ctx.where, f"{f}.cost", 0),
                        PHASES_OF_CARDS.index(c["phase"]), _int(c["copies"], ctx.where, f"{f}.copies", 0),
                        CARD_DICE.index(dice), CARD_WHEN.index(when), effects, owner, other, discard_cost))
    return out


def _alternatives(effs) -> bool:
    """Two die effects of which exactly one applies: if_has = T on one, unless_has = T on the
    other (Wild Shadow!: set 1 die, or 2 with Sneak)."""
    if len(effs) != 2 or any(e.op not in DIE_OPS for e in effs):
        return False
    a, b = effs
    return {a.cond, b.cond} == {COND_HAS, COND_UNLESS} and a.carg == b.carg


def _parse_tiers(lst, ctx, fld, symbols, n_dice, defence=False):
    if not isinstance(lst, list) or not lst:
        raise PlaytestError("a non-empty list of tiers", ctx.where, fld)
    tiers = []
    for i, t in enumerate(lst):
        f = f"{fld}[{i}]"
        _table(t, ctx.where, f)
        lvl = _int(t.get("level", 1), ctx.where, f"{f}.level", 1)
        if defence:
            target, text = None, ""
        else:
            if "target" not in t:
                raise PlaytestError("missing 'target'", ctx.where, f)
            target = parse_target(t["target"], symbols, n_dice, ctx.where, f"{f}.target")
            text = t["target"]
            for a in target.alternatives:
                if a.kind == 3:
                    raise PlaytestError("kind:N targets are not used by Dice Throne abilities", ctx.where, f"{f}.target")
        ctx.tier = not defence
        ctx.defence = defence      # prevent_half: also in a defence (season1/VOCABULARY.md 5.4)
        try:
            effects = _parse_effects(t.get("effects"), ctx, f"{f}.effects")
        finally:
            ctx.tier = False
            ctx.defence = False
        k = predefence_len(effects)
        for j, e in enumerate(effects):
            if j >= k and (e.flag & PRE_DEFENCE or e.op == OP_UNDEFENDABLE):
                raise PlaytestError("pre_defence and undefendable belong to a tier's first effects (its pre-defence "
                                    "part: a leading run of them)", ctx.where, f"{f}.effects[{j}]")
            if j >= k and any(x.op == OP_UNDEFENDABLE for x in _subs(e)):
                raise PlaytestError("undefendable in a bonus roll needs the roll to be pre_defence = true", ctx.where,
                                    f"{f}.effects[{j}]")
            if e.op == OP_ROLL and e.arg > 0 and (defence or (j != len(effects) - 1 and j >= k)):
                raise PlaytestError("may_reroll belongs to a roll of an offensive tier's pre-defence part or to its "
                                    "last effect", ctx.where, f"{f}.effects[{j}]")
            if e.op in PEND_OPS or e.op in (OP_UPGRADE, OP_EXTRA_ATTEMPT, OP_ADD_DAMAGE):
                raise PlaytestError(f"{OPS[e.op]} belongs to cards", ctx.where, f"{f}.effects")
            for s in [e] + [x for lst in e.on.values() for x in lst]:
                if s.if_uses:
                    raise PlaytestError("if_uses belongs to the passive's on_attack", ctx.where, f"{f}.effects")
                if after_damage_only(s) and (defence or s is not e or j < damage_split(effects)):
                    raise PlaytestError("if_dealt and of = \"taken\" read the damage the attack dealt: in an "
                                        "offensive tier they come after its last damage", ctx.where,
                                        f"{f}.effects[{j}]")
            if e.op == OP_ROLL_SUM and defence:
                raise PlaytestError("roll_sum belongs to an offensive tier's effects", ctx.where, f"{f}.effects[{j}]")
        reroll = -1
        if "may_reroll" in t:
            if not defence:
                raise PlaytestError("only a defence tier sets may_reroll (a bonus roll of an ability sets its own)",
                                    ctx.where, f"{f}.may_reroll")
            reroll = _int(t["may_reroll"], ctx.where, f"{f}.may_reroll", 0, N_DICE)
        dice = 0
        if "dice" in t:
            if not defence:
                raise PlaytestError("only a defence tier sets its dice", ctx.where, f"{f}.dice")
            dice = _int(t["dice"], ctx.where, f"{f}.dice", 1)
            if dice > N_DICE:
                raise PlaytestError(f"at most {N_DICE} dice", ctx.where, f"{f}.dice")
        tiers.append(Tier(lvl, target, text, effects, dice, reroll))
    levels = sorted({t.level for t in tiers})
    if levels[0] != 1 or levels != list(range(1, len(levels) + 1)):
        raise PlaytestError(f"levels must run 1, 2, ... without gaps, got {levels}", ctx.where, fld)
    if defence and len(levels) != len(tiers):
        raise PlaytestError("a defence has one tier per level", ctx.where, fld)
    return tiers


def load_hero(path, token_ids, tokens_out, generic_cards=()) -> Hero:
    where = str(path)
    d = load_toml(path)
    for k in ("name", "faces", "abilities", "defences"):
        if k not in d:
            raise PlaytestError(f"missing '{k}'", where, k)
    die = parse_die(d["faces"], where, "faces")
    symbols = die.symbols
    if [f.number for f in die.faces] != [1, 2, 3, 4, 5, 6]:
        raise PlaytestError("faces are numbered 1..6 in order", where, "faces")
    if len(symbols) > MAX_SYM:
        raise PlaytestError(f"at most {MAX_SYM} symbols", where, "faces")
    if _int(d.get("dice", N_DICE), where, "dice") != N_DICE:
        raise PlaytestError(f"a hero rolls {N_DICE} dice", where, "dice")
    hero_id = Path(path).stem
    first = len(tokens_out)
    for t in _parse_tokens(d, where, len(tokens_out)):
        if t.id in token_ids:
            raise PlaytestError(f"token {t.id!r} defined twice", where, "tokens")
        token_ids[t.id] = len(tokens_out)
        tokens_out.append(t)
    groups = _token_groups(tokens_out, first, token_ids, where)
    for i, t in enumerate(d.get("tokens", [])):
        tid = token_ids[t["id"]]
        tctx = _Ctx(where, token_ids, symbols)
        tctx.groups = groups
        _token_events(tokens_out[tid], tid, t, tctx, f"tokens[{i}]")
    abil = d["abilities"]
    if not isinstance(abil, list) or not 1 <= len(abil) <= MAX_AB:
        raise PlaytestError(f"1..{MAX_AB} abilities", where, "abilities")
    ids = []
    for i, a in enumerate(abil):
        _table(a, where, f"abilities[{i}]")
        if "id" not in a or "name" not in a:
            raise PlaytestError("missing 'id' or 'name'", where, f"abilities[{i}]")
        _text(a["id"], where, f"abilities[{i}].id")
        _text(a["name"], where, f"abilities[{i}].name")
        if a["id"] in ids:
            raise PlaytestError(f"duplicate ability id {a['id']!r}", where, f"abilities[{i}].id")
        ids.append(a["id"])
    ctx = _Ctx(where, token_ids, symbols, ids)
    ctx.groups = groups
    abilities = []
    for i, a in enumerate(abil):
        tiers = _parse_tiers(a.get("tiers"), ctx, f"abilities[{i}].tiers", symbols, N_DICE)
        if len(tiers) > MAX_TIERS:
            raise PlaytestError(f"at most {MAX_TIERS} tiers", where, f"abilities[{i}].tiers")
        abilities.append(Ability(a["id"], a["name"], tiers, bool(a.get("ultimate", False))))
    defs = d["defences"]
    if not isinstance(defs, list) or not 1 <= len(defs) <= MAX_DEF:
        raise PlaytestError(f"1..{MAX_DEF} defences", where, "defences")
    defences, dice = [], []
    for i, df in enumerate(defs):
        _table(df, where, f"defences[{i}]")
        for k in ("id", "name"):
            if k in df:
                _text(df[k], where, f"defences[{i}].{k}")
        dd = _int(df.get("dice", 0), where, f"defences[{i}].dice", 1)
        if dd > N_DICE:
            raise PlaytestError(f"at most {N_DICE} dice", where, f"defences[{i}].dice")
        dtiers = _parse_tiers(df.get("tiers"), ctx, f"defences[{i}].tiers", symbols, N_DICE, defence=True)
        rr = _int(df.get("may_reroll", 0), where, f"defences[{i}].may_reroll", 0, N_DICE)
        defences.append(Ability(df.get("id", f"defence{i}"), df.get("name", "Defence"), dtiers, may_reroll=rr))
        dice.append(dd)
    hero = Hero(hero_id, d["name"], die, symbols, [symbols.index(f.symbol) for f in die.faces], abilities,
                defences, dice)
    if "passive" in d:
        p = _table(d["passive"], where, "passive")
        for k in ("id", "name"):
            if k in p:
                _text(p[k], where, f"passive.{k}")
        hero.passive_name = p.get("name", "passive")
        hero.passive_id = p.get("id", "passive")
        levels = [p] + list(_list(p.get("levels", []), where, "passive.levels"))
        if len(levels) > MAX_PLVL:
            raise PlaytestError(f"at most {MAX_PLVL} levels", where, "passive.levels")
        for i, lv in enumerate(levels):
            f = "passive" if i == 0 else f"passive.levels[{i - 1}]"
            _table(lv, where, f)
            if i > 0 and _int(lv.get("level", i + 1), where, f"{f}.level", 2) != i + 1:
                raise PlaytestError(f"levels run 2, 3, ... in order: this one is level {i + 1}", where, f"{f}.level")
            on = _parse_effects(lv["on_attack"], ctx, f"{f}.on_attack") if "on_attack" in lv else []
            for e in on:
                if e.op not in (OP_CP, OP_DRAW, OP_GAIN, OP_HEAL):
                    raise PlaytestError("on_attack effects are cp, draw, gain or heal", where, f"{f}.on_attack")
                if after_damage_only(e):
                    raise PlaytestError("on_attack resolves before the attack deals damage: no if_dealt or "
                                        "of = \"taken\"", where, f"{f}.on_attack")
            up = []
            if "upkeep" in lv:      # run at the holder's upkeep as a token's upkeep event is
                ctx.moment = "upkeep"
                try:
                    up = _parse_effects(lv["upkeep"], ctx, f"{f}.upkeep")
                finally:
                    ctx.moment = None
                for e in up:
                    if e.op in PEND_OPS or e.op == OP_UPGRADE:
                        raise PlaytestError(f"{OPS[e.op]} belongs to cards", where, f"{f}.upkeep")
                    if e.op == OP_ROLL and e.arg > 0:
                        raise PlaytestError("may_reroll belongs to the last effect of an offensive tier", where,
                                            f"{f}.upkeep")
            # Tithes' costs: -1 (none) when absent (a passive of upkeep effects only: Fertilize)
            rc = _int(lv["reroll_cost"], where, f"{f}.reroll_cost", 0) if "reroll_cost" in lv else -1
            dc = _int(lv["draw_cost"], where, f"{f}.draw_cost", 0) if "draw_cost" in lv else -1
            hero.passive_levels.append(PassiveLevel(rc, dc, on, up))
        hero.tithe_reroll = hero.passive_levels[0].reroll_cost
        hero.tithe_draw = hero.passive_levels[0].draw_cost
    targets = {a.id: (i, a) for i, a in enumerate(abilities)}
    targets.update({df.id: (LV_DEF + k, df) for k, df in enumerate(defences)})
    if hero.passive_levels:
        targets[hero.passive_id] = (LV_PASSIVE, None)
    ctx.upgrade_ids = {k: v[0] for k, v in targets.items()}
    hero.cards = _parse_cards(d, ctx, hero_id)
    for c in hero.cards:
        for e in c.effects:
            if e.op == OP_UPGRADE:
                key = [k for k, v in targets.items() if v[0] == e.arg][0]
                ab = targets[key][1]
                lv = len(hero.passive_levels) if ab is None else max(t.level for t in ab.tiers)
                if e.level > lv:
                    raise PlaytestError(f"{key} has no level {e.level}", where, f"cards[{c.id}].effects")
    return hero


def roster(heroes_dir=None) -> tuple[str, ...]:
    """The heroes of a heroes folder (default: the shipped ``heroes/``): the ids (file names
    without ``.toml``) of its hero files, sorted by file name; ``cards.toml`` there is the
    folder's generic file, not a hero. A hero's index in this tuple is its number in records
    (``hero0``/``hero1``) and in ``play_range``'s hero indices. No hero name is written in code: a hero is a file."""
    d = Path(heroes_dir) if heroes_dir else HEROES_DIR
    if not d.is_dir():
        raise PlaytestError("not a folder (a heroes folder holds one TOML file per hero)", str(d), "--content")
    names = tuple(sorted(p.stem for p in d.glob("*.toml") if p.name != GENERIC_NAME))
    if not names:
        raise PlaytestError("no hero files (*.toml) in this folder", str(d), "--content")
    return names


def generic_file(heroes_dir=None) -> Path:
    """The generic file of a heroes folder: its own ``cards.toml`` when it has one, else the
    shipped ``cards.toml``."""
    d = Path(heroes_dir) if heroes_dir else HEROES_DIR
    return d / GENERIC_NAME if (d / GENERIC_NAME).is_file() else CARDS_FILE


def load_generic(cards_file=CARDS_FILE):
    """``(tokens, token ids, generic cards)`` of the generic file."""
    where = str(cards_file)
    d = load_toml(cards_file)
    tokens = _parse_tokens(d, where, 0)
    token_ids = {}
    for i, t in enumerate(tokens):
        if t.id in token_ids:
            raise PlaytestError(f"token {t.id!r} defined twice", where, f"tokens[{i}]")
        token_ids[t.id] = i
    groups = _token_groups(tokens, 0, token_ids, where)
    ctx = _Ctx(where, token_ids)
    ctx.groups = groups
    for i, t in enumerate(d.get("tokens", [])):
        _token_events(tokens[i], i, t, ctx, f"tokens[{i}]")
    return tokens, token_ids, _parse_cards(d, ctx, "")


def _foreign_token(err: PlaytestError, own: dict, others: dict):
    """The one-line error for a hero that names another hero's token (``others``: token id ->
    the hero whose file defines it), or None when ``err`` is about something else. A token
    resolves against the generic file and the hero's own file only, so that a hero loads the
    same way in every matchup (content is per matchup)."""
    import re

    m = re.search(r"(?:unknown token|got) '([^']+)'", err.reason)
    if m is None or m.group(1) in own or m.group(1) not in others:
        return None
    return PlaytestError(f"token {m.group(1)!r} belongs to hero {others[m.group(1)]}: a token two heroes use is "
                         f"defined in {GENERIC_NAME}", err.where, err.field)


def hero_token_ids(path) -> list:
    """The ids of the tokens a hero file defines (read, not validated: for error messages)."""
    try:
        d = load_toml(path)
    except PlaytestError:
        return []
    return [t.get("id") for t in d.get("tokens", []) if isinstance(t, dict) and isinstance(t.get("id"), str)]


def load_content(heroes, cards_file=None, heroes_dir=None) -> Content:
    """The content of one matchup: the generic file (its tokens get the lowest ids, its cards
    come first), then ``heroes`` in the order given, a mirror's hero once. Token and card ids
    belong to the matchup. A hero's effects name the generic tokens and its own only (so it
    loads the same in every matchup); ``cards_file`` defaults to the folder's own
    ``cards.toml`` if it has one (``generic_file``)."""
    heroes_dir = Path(heroes_dir) if heroes_dir else HEROES_DIR
    cards_file = Path(cards_file) if cards_file else generic_file(heroes_dir)
    if isinstance(heroes, str):
        heroes = (heroes,)
    heroes = tuple(dict.fromkeys(heroes))
    where = str(cards_file)
    if len(heroes) > MAX_HEROES:
        raise PlaytestError(f"at most {MAX_HEROES} heroes in a matchup, got {len(heroes)}", field="--hero")
    tokens, token_ids, generic = load_generic(cards_file)
    for t in tokens:
        t.owner = ""
    hs = {}
    for h in heroes:
        path = heroes_dir / f"{h}.toml"
        for tid in hero_token_ids(path):
            if tid in token_ids:
                raise PlaytestError(f"token {tid!r} is defined in {cards_file.name}: a hero file does not "
                                    "redefine it", str(path), "tokens")
        own = dict(token_ids)
        first = len(tokens)
        try:
            hs[h] = load_hero(path, own, tokens)
        except PlaytestError as e:
            folder = sorted(p.stem for p in heroes_dir.glob("*.toml") if p.name != GENERIC_NAME)
            others = {tid: o for o in folder if o != h for tid in hero_token_ids(heroes_dir / f"{o}.toml")}
            raise (_foreign_token(e, own, others) or e) from None
        for k, t in enumerate(tokens[first:], first):
            t.owner = h
            if t.id in token_ids:
                other = tokens[token_ids[t.id]].owner
                raise PlaytestError(f"token {t.id!r} is defined by {other} too: a token two heroes use is defined "
                                    f"in {GENERIC_NAME}", str(path), "tokens")
            token_ids[t.id] = k
    if len(tokens) > MAX_TOKENS:
        raise PlaytestError(f"at most {MAX_TOKENS} tokens in a matchup ({', '.join(heroes)} and the generic file "
                            f"define {len(tokens)})", where, "tokens")
    cards = list(generic)
    for h in heroes:
        cards += hs[h].cards
    if len(cards) > MAX_CARDS:
        raise PlaytestError(f"at most {MAX_CARDS} distinct cards in a matchup ({', '.join(heroes)} and the generic "
                            f"file hold {len(cards)})", where, "cards")
    for h in heroes:
        n = sum(c.copies for c in generic) + sum(c.copies for c in hs[h].cards)
        if n > MAX_DECK:
            raise PlaytestError(f"a deck holds at most {MAX_DECK} cards, {h}'s has {n}", where, "cards")
    return Content(tokens, token_ids, cards, hs, generic, (cards_file, heroes_dir))


def deck_list(content: Content, hero_id: str) -> list[int]:
    """Card ids of a hero's deck before shuffling: the hero's cards in file order, then
    the generic cards, each repeated `copies` times."""
    ids = {id(c): i for i, c in enumerate(content.cards)}
    out = []
    for c in content.heroes[hero_id].cards + content.generic:
        out += [ids[id(c)]] * c.copies
    return out


# ------------------------------------------------------------------ tables for the kernel
class Tables(NamedTuple):
    eff: np.ndarray         # [E, N_COLS] every effect row
    out_start: np.ndarray   # [R, MAX_SYM + 1] bonus-roll outcome ranges (row C_SUB of a roll effect; column
                            # AFTER: its after list)
    out_len: np.ndarray
    face_sym: np.ndarray    # [H, 6]
    n_sym: np.ndarray       # [H]
    n_ab: np.ndarray        # [H]
    ab_ult: np.ndarray      # [H, MAX_AB]
    tier_n: np.ndarray      # [H, MAX_AB]
    tier_level: np.ndarray  # [H, MAX_AB, MAX_TIERS]
    tier_start: np.ndarray  # [H, MAX_AB, MAX_TIERS] effect range
    tier_len: np.ndarray
    tier_kind: np.ndarray   # attack kind, -1 no attack damage
    tier_value: np.ndarray  # float heuristic value (strategies)
    t_kinds: np.ndarray     # [H, MAX_AB, MAX_TIERS, 4] encoded targets (simcore.dice)
    t_need: np.ndarray      # [H, MAX_AB, MAX_TIERS, 4, 12]
    t_ns: np.ndarray
    def_dice: np.ndarray    # [H, MAX_DEF, MAX_TIERS] dice of each defence per level
    def_n: np.ndarray       # [H] number of defences
    def_start: np.ndarray   # [H, MAX_DEF, MAX_TIERS] effect range per level
    def_len: np.ndarray
    tithe: np.ndarray       # [H, MAX_PLVL, 6] per passive level: reroll cost, draw cost (-1 none),
                            # on_attack effect range (start, length), upkeep effect range
    tok: np.ndarray         # [T, TOK_COLS] kind (TK_*), limit, use, group (-1 none), grows_into (-1 none): TC_*
    tok_ev_start: np.ndarray  # [T, N_EV] each token's event lists (EVENTS order; upkeep first)
    tok_ev_len: np.ndarray
    use_tok: np.ndarray     # [len(TOKEN_USES)] the token id of each use (first defined), -1 none: the
                            # engines read use_tok[U_STUN] (Stun, the one branch token)
    n_tok: int
    card: np.ndarray        # [C, 7] cost, phase, dice, when, eff start, eff len, discard_cost
    deck: np.ndarray        # [H, MAX_DECK] card ids
    deck_n: np.ndarray      # [H]
    lineup: np.ndarray      # [2] hero index of each seat (``with_lineup``)
    sp: np.ndarray          # [n, SP_COLS] the tokens' spend entries (token order; a row with when -1 if none)
    def_reroll: np.ndarray  # [H, MAX_DEF, MAX_TIERS] dice the defender may reroll once per defence level
    sp_at: np.ndarray       # [len(WINDOWS), MAX_SPEND + 1] per moment: the count of its spend entries, then
                            # their numbers in entry order (a window looks at its own entries only)
    tier_tgt: np.ndarray    # [H, MAX_AB, MAX_TIERS] 1: the tier names "the opponent" (tier_targets): with
                            # several opponents it rolls the targeting die (issue 31)
    ev_tok: np.ndarray      # [N_EV] per event moment (EVENTS order): the tokens with an event list there, one
                            # bit a token (the kernel skips a moment no held token has events at)


# the count a heuristic value assumes for an amount's `of`: a token's, a symbol's or
# spent (typical_tokens); a roll_sum's pips (3 dice); CP; the damage taken
_TYPICAL_OF = {OF_PIPS: 10, OF_CP: 4, OF_TAKEN: 5}


def _effect_value(e: Effect, typical_tokens=2) -> float:
    amt = e.n + e.per * (_TYPICAL_OF.get(e.of, typical_tokens) if e.of != OF_NONE else 0)
    if e.half:
        amt = (amt + (1 if e.half == 1 else 0)) // 2
    if e.cap >= 0:
        amt = min(amt, e.cap)
    if e.op == OP_DAMAGE:
        return float(amt) if e.target != T_SELF else -float(amt)
    if e.op == OP_HEAL:
        return 0.5 * amt
    if e.op == OP_CP:
        return 0.7 * amt
    if e.op == OP_GAIN and e.target == T_MATE:
        return 0.0          # a teammate's gain: nothing in 1v1, and not valued in teams either
    if e.op in (OP_GAIN, OP_INFLICT, OP_DRAW):
        return 1.0 * max(amt, 1)
    if e.op == OP_ROLL:
        return (e.n * sum(sum(_effect_value(s) for s in subs) for subs in e.on.values()) / 6.0 * 1.5
                + sum(_effect_value(s) for s in e.after))
    # Season One's ops (no shipped tier holds them, so the shipped values are unchanged)
    if e.op == OP_ADD_DAMAGE:
        return float(amt)
    if e.op == OP_CHOOSE:
        return max(sum(_effect_value(s) for s in alt) for alt in e.alts)
    if e.op == OP_GROW:
        return 1.0 * amt
    if e.op == OP_GROW_ALL:
        return 1.0 * typical_tokens
    if e.op in (OP_UNDEFENDABLE, OP_BLOCK_STATUS):
        return 1.0 * max(e.n, 1)
    return 0.0


class Packer:
    def __init__(self):
        self.rows = []
        self.out = []
        self.chooses = {}    # row -> its choose Effect
        self.chosen = {}     # row -> its chosen-player Effect (target chosen / teammate)

    def add(self, effects) -> tuple[int, int]:
        start = len(self.rows)
        # reserve the rows, then fill (outcome lists go after)
        self.rows.extend([None] * len(effects))
        for i, e in enumerate(effects):
            sub = -1
            if e.op == OP_ROLL:
                sub = len(self.out)
                self.out.append(None)
                starts = [0] * (MAX_SYM + 1)
                lens = [0] * (MAX_SYM + 1)
                for s, subs in e.on.items():
                    starts[s], lens[s] = self.add(subs)
                if e.after:
                    starts[AFTER], lens[AFTER] = self.add(e.after)
                self.out[sub] = (starts, lens)
            elif e.op == OP_CHOOSE:      # the alternatives sit in slots 0..k-1 of an outcome row
                sub = len(self.out)
                self.out.append(None)
                starts = [0] * (MAX_SYM + 1)     # the roll rows' width (column AFTER unused here)
                lens = [0] * (MAX_SYM + 1)
                for k, alt in enumerate(e.alts):
                    starts[k], lens[k] = self.add(alt)
                self.out[sub] = (starts, lens)
                e.row = start + i
                self.chooses[start + i] = e
            elif e.target in (T_CHOSEN, T_MATE, T_TWO):     # may wait in the choose queue for a pick
                e.row = start + i
                self.chosen[start + i] = e
            self.rows[start + i] = [e.op, e.n, e.per, e.of, e.arg, e.target, e.kind, e.level, sub, e.if_roll,
                                    e.if_uses, e.cond, e.carg, e.half, e.cap, e.flag]
        return start, len(effects)


def adds_to_attack(op: int, target: int) -> bool:
    """Whether an ability's effect adds to the attack's damage before it lands: damage to
    the opponent (collateral too), added damage, or a bonus roll (its outcomes may)."""
    return (op == OP_DAMAGE and target != T_SELF) or op == OP_ADD_DAMAGE or op == OP_ROLL


def damage_split(effects) -> int:
    """How many of a tier's effects resolve before its damage lands: up to and including
    the last that adds to the attack (``adds_to_attack``); the rest resolve after it lands
    ("deal 8 damage, then gain Crit": that Crit is not spent on those 8). All of them when
    none adds to the attack. The kernel's twin: ``kernel.split_nb``."""
    last = -1
    for i, e in enumerate(effects):
        if adds_to_attack(e.op, e.target):
            last = i
    return len(effects) if last < 0 else last + 1


def _subs(e) -> list:
    """A roll's outcome effects and its ``after`` list (empty for other effects)."""
    return [x for lst in e.on.values() for x in lst] + list(e.after)


def mitigates(effects) -> bool:
    """Whether a list of effects prevents damage (prevent, prevent_half; a roll's outcomes
    included): what a seat may use on its collateral portion in the collateral window
    (rule collateral_preventable; ``Tables.sp[:, SP_MITIG]``, ``Tables.card[:, C_MITIG]``)."""
    return any(x.op in (OP_PREVENT, OP_PREVENT_HALF) for e in effects for x in [e] + _subs(e))


def tier_targets(tier: Tier) -> bool:
    """Whether a tier needs a target (modes/DESIGN.md 1.1.2, [Z] 3.5: "even if the ability
    deals no damage but has effects that must resolve, you still choose one opponent"): any
    of its effects, bonus-roll outcomes or after-lists, or a choose's alternatives, names the
    opponent (damage, inflict, CP or token loss). Self effects and collateral (target
    all_opponents) need none. The kernel reads it from ``Tables.tier_tgt``."""
    todo = list(tier.effects)
    while todo:
        e = todo.pop()
        if e.target == T_OPP:
            return True
        todo.extend(_subs(e))
        for alt in e.alts:
            todo.extend(alt)
    return False


def predefence_len(effects) -> int:
    """The tier's pre-defence part (season1/VOCABULARY.md 7.1): the longest leading run of
    effects marked ``pre_defence`` or ``undefendable``; an attack runs it at ST_ACCURACY,
    before Accuracy and the defence. The kernel's twin: ``kernel.predef_len_nb``."""
    k = 0
    while k < len(effects) and (effects[k].flag & PRE_DEFENCE or effects[k].op == OP_UNDEFENDABLE):
        k += 1
    return k


def defence_reroll(df, level: int) -> int:
    """Dice the defender may reroll once with defence ``df`` at ``level`` (its tier's own
    ``may_reroll``, else the defence's)."""
    t = sorted(df.tiers, key=lambda x: x.level)[level - 1]
    return t.may_reroll if t.may_reroll >= 0 else df.may_reroll


def attack_kind(tier: Tier, ultimate: bool) -> int:
    """-1 if the tier deals no damage to the opponent (collateral aside), else its kind."""
    k = -1
    for e in tier.effects:
        subs = [e] + _subs(e)
        for s in subs:
            if s.op == OP_DAMAGE and s.target == T_OPP and s.kind != K_COLLAT:
                k = max(k, s.kind)
    if ultimate:
        k = K_ULT
    return k


def _spend_table(content, pk) -> np.ndarray:
    rows = []
    for t, tk in enumerate(content.tokens):
        for e in tk.spend:
            s, n = pk.add(e.effects)
            kinds = e.kinds if e.kinds >= 0 else (KINDS_NOT_ULT if WINDOW_DEFENDER[e.when] else KINDS_ALL)
            rows.append((t, e.when, e.max, int(e.repeat), int(e.once_per_turn), int(e.not_gained_this_turn),
                         e.cost_cp, s, n, e.at_least, kinds, int(e.inflicts), e.if_has, e.unless_has,
                         int(mitigates(e.effects))))
    if len(rows) > MAX_SPEND:
        raise PlaytestError(f"at most {MAX_SPEND} spend entries over all tokens, got {len(rows)}", "content", "tokens")
    out = np.full((max(1, len(rows)), SP_COLS), -1, np.int64)
    if rows:
        out[:] = rows
    return out


def tier_inflicts(tier) -> bool:
    """Whether a tier inflicts a status on the opponent (an inflict effect, a bonus-roll
    outcome included): if_attack.inflicts; the kernel's twin is ``kernel.inflicts_nb``."""
    return any(x.op == OP_INFLICT for e in tier.effects for x in [e] + _subs(e))


def build_tables(content: Content, heroes=None) -> Tables:
    """The tables of a content (one matchup: ``load_content``); hero ``h`` of the tables is
    ``heroes[h]`` (default: the content's heroes in their order), and ``lineup`` puts hero 0
    in seat 0 and hero 1 (a mirror: hero 0 again) in seat 1 (``with_lineup`` changes it)."""
    heroes = tuple(content.heroes) if heroes is None else tuple(heroes)
    H = len(heroes)
    pk = Packer()
    face_sym = np.zeros((H, 6), np.int64)
    n_sym = np.zeros(H, np.int64)
    n_ab = np.zeros(H, np.int64)
    ab_ult = np.zeros((H, MAX_AB), np.int64)
    tier_n = np.zeros((H, MAX_AB), np.int64)
    tier_level = np.zeros((H, MAX_AB, MAX_TIERS), np.int64)
    tier_start = np.zeros((H, MAX_AB, MAX_TIERS), np.int64)
    tier_len = np.zeros((H, MAX_AB, MAX_TIERS), np.int64)
    tier_kind = np.full((H, MAX_AB, MAX_TIERS), -1, np.int64)
    tier_tgt = np.zeros((H, MAX_AB, MAX_TIERS), np.int64)
    tier_value = np.zeros((H, MAX_AB, MAX_TIERS), np.float64)
    t_kinds = np.full((H, MAX_AB, MAX_TIERS, 4), -1, np.int64)
    t_need = np.zeros((H, MAX_AB, MAX_TIERS, 4, 12), np.int64)
    t_ns = np.zeros((H, MAX_AB, MAX_TIERS, 4), np.int64)
    def_dice = np.zeros((H, MAX_DEF, MAX_TIERS), np.int64)
    def_n = np.zeros(H, np.int64)
    def_start = np.zeros((H, MAX_DEF, MAX_TIERS), np.int64)
    def_len = np.zeros((H, MAX_DEF, MAX_TIERS), np.int64)
    def_reroll = np.zeros((H, MAX_DEF, MAX_TIERS), np.int64)
    tithe = np.full((H, MAX_PLVL, 6), -1, np.int64)
    tithe[:, :, 2:] = 0
    for h, hid in enumerate(heroes):
        hero = content.heroes[hid]
        face_sym[h] = hero.face_sym
        n_sym[h] = len(hero.symbols)
        n_ab[h] = len(hero.abilities)
        for a, ab in enumerate(hero.abilities):
            ab_ult[h, a] = int(ab.ultimate)
            tier_n[h, a] = len(ab.tiers)
            for t, tier in enumerate(ab.tiers):
                tier_level[h, a, t] = tier.level
                tier_start[h, a, t], tier_len[h, a, t] = pk.add(tier.effects)
                tier_kind[h, a, t] = attack_kind(tier, ab.ultimate)
                tier_tgt[h, a, t] = int(tier_targets(tier))
                tier_value[h, a, t] = sum(_effect_value(e) for e in tier.effects) + (5.0 if ab.ultimate else 0.0)
                k, nd, ns = tier.target.encode(hero.symbols)
                t_kinds[h, a, t] = k
                t_need[h, a, t] = nd
                t_ns[h, a, t] = ns
        def_n[h] = len(hero.defences)
        for k, df in enumerate(hero.defences):
            for t, tier in enumerate(sorted(df.tiers, key=lambda x: x.level)):
                def_dice[h, k, t] = hero.defence_dice_at(k, t + 1)
                def_start[h, k, t], def_len[h, k, t] = pk.add(tier.effects)
                def_reroll[h, k, t] = defence_reroll(df, t + 1)
        for lv, pl in enumerate(hero.passive_levels):
            tithe[h, lv, :2] = (pl.reroll_cost, pl.draw_cost)
            if pl.on_attack:
                tithe[h, lv, 2], tithe[h, lv, 3] = pk.add(pl.on_attack)
            if pl.upkeep:
                tithe[h, lv, 4], tithe[h, lv, 5] = pk.add(pl.upkeep)
    T = len(content.tokens)
    tok = np.zeros((MAX_TOKENS, TOK_COLS), np.int64)
    tok[:, TC_GROUP:] = -1
    tok_ev_start = np.zeros((MAX_TOKENS, N_EV), np.int64)
    tok_ev_len = np.zeros((MAX_TOKENS, N_EV), np.int64)
    for i, t in enumerate(content.tokens):
        tok[i] = (t.kind, t.limit, t.use, t.group_id, t.grows_id)
        for m, lst in [("upkeep", t.upkeep)] + list(t.events.items()):
            if lst:
                tok_ev_start[i, EVENTS.index(m)], tok_ev_len[i, EVENTS.index(m)] = pk.add(lst)
    use_tok = np.full(len(TOKEN_USES), -1, np.int64)
    for i, t in enumerate(content.tokens):
        if use_tok[t.use] < 0:
            use_tok[t.use] = i
    card = np.zeros((max(1, len(content.cards)), CARD_COLS), np.int64)
    for i, c in enumerate(content.cards):
        s, n = pk.add(c.effects)
        card[i] = (c.cost, c.phase, c.dice, c.when, s, n, c.discard_cost, int(mitigates(c.effects)))
    deck = np.full((H, MAX_DECK), -1, np.int64)
    deck_n = np.zeros(H, np.int64)
    for h, hid in enumerate(heroes):
        dl = deck_list(content, hid)
        deck[h, :len(dl)] = dl
        deck_n[h] = len(dl)
    sp = _spend_table(content, pk)
    sp_at = np.zeros((len(WINDOWS), MAX_SPEND + 1), np.int64)
    for e in range(sp.shape[0]):
        w = sp[e, SP_WHEN]
        if w >= 0:
            sp_at[w, 0] += 1
            sp_at[w, sp_at[w, 0]] = e
    ev_tok = np.zeros(N_EV, np.int64)
    for t in range(len(content.tokens)):
        for m in range(N_EV):
            if tok_ev_len[t, m] > 0:
                ev_tok[m] |= 1 << t
    content.choose_rows = pk.chooses
    content.chosen_rows = pk.chosen
    eff = np.array(pk.rows, np.int64).reshape(-1, N_COLS)
    R_ = max(1, len(pk.out))
    out_start = np.zeros((R_, MAX_SYM + 1), np.int64)
    out_len = np.zeros((R_, MAX_SYM + 1), np.int64)
    for i, (s, l) in enumerate(pk.out):
        out_start[i] = s
        out_len[i] = l
    return Tables(eff, out_start, out_len, face_sym, n_sym, n_ab, ab_ult, tier_n, tier_level, tier_start,
                  tier_len, tier_kind, tier_value, t_kinds, t_need, t_ns, def_dice, def_n, def_start, def_len,
                  tithe, tok, tok_ev_start, tok_ev_len, use_tok, T, card, deck, deck_n,
                  np.array([0, min(1, H - 1)], np.int64), sp, def_reroll, sp_at, tier_tgt, ev_tok)


def with_lineup(T: Tables, lineup) -> Tables:
    """The tables with ``lineup[p]`` = the tables' hero index (the content's order) of seat p."""
    return T._replace(lineup=np.array([int(h) for h in lineup], np.int64))


# ------------------------------------------------------------------ records
# winner: seat that won (-1: simultaneous knock-out draw, or capped); capped: max_turns
# reached; turns: player-turns completed (Stun's extra roll phases belong to their turn);
# first: the seat that started; hero0/hero1: hero index per seat - the engines write the
# content's index, and ``strategies.dicethrone.bind`` turns it into the hero's index in the
# roster (``roster``: the heroes folder's files sorted by name) before anyone reads it;
# hp0/hp1: final health; dmg_<source><seat>: damage dealt BY that seat, by source -
# ability (offensive abilities, their collateral, the defence's counter damage), card
# (cards' damage and attack modifiers), token (Crit's bonus, Retribution), status (Burn on
# the opponent); when prevention cuts an attack, it comes off the ability's part first,
# then the cards', then Crit's; attacks: offensive abilities activated; cards: cards played;
# spends: tokens spent by decision or automatically (Crit, Protect, Accuracy, Retribution,
# paying off Knockdown, Blessing of Divinity); sold: cards sold or discarded for CP;
# uses<a>_<seat>: activations of ability a (the hero file's order); tok<t>_<seat>: uses of
# token t (``Content.tokens`` order) by its holder - spent by decision (Crit, Protect,
# Accuracy, Retribution, paying off Knockdown), Blessing of Divinity saving its holder, or
# an effect that spent at least one (``spend``; one use however many it spent);
# card<c>_<seat>: plays of card c (``Content.cards`` order: generic cards, then each
# hero's), not counting cards sold or discarded.
RECORD_FIELDS = (
    "winner", "capped", "turns", "first", "hero0", "hero1", "hp0", "hp1",
    "dmg_ability0", "dmg_card0", "dmg_token0", "dmg_status0",
    "dmg_ability1", "dmg_card1", "dmg_token1", "dmg_status1",
    "attacks0", "attacks1", "cards0", "cards1", "spends0", "spends1", "sold0", "sold1",
) + tuple(f"uses{a}_{p}" for p in range(2) for a in range(MAX_AB)) \
  + tuple(f"tok{t}_{p}" for p in range(2) for t in range(MAX_TOKENS)) \
  + tuple(f"card{c}_{p}" for p in range(2) for c in range(MAX_CARDS))
N_FIELDS = len(RECORD_FIELDS)


@functools.lru_cache(maxsize=None)
def record_fields(seats: int) -> tuple:
    """The record fields of a game with ``seats`` seats: ``RECORD_FIELDS`` for two; with more,
    the same fields for every seat, plus ``team<p>`` (the seat's team) before the per-ability,
    per-token and per-card counts. ``winner`` is the winning team (-1: a draw or capped); in
    1v1 a seat is its own team."""
    if seats == 2:
        return RECORD_FIELDS
    ps = range(seats)
    return (("winner", "capped", "turns", "first") + tuple(f"hero{p}" for p in ps) + tuple(f"hp{p}" for p in ps)
            + tuple(f"dmg_{s}{p}" for p in ps for s in SOURCES)
            + tuple(f"{k}{p}" for k in ("attacks", "cards", "spends", "sold") for p in ps)
            + tuple(f"team{p}" for p in ps) + tuple(f"place{p}" for p in ps) + tuple(f"out{p}" for p in ps)
            + tuple(f"uses{a}_{p}" for p in ps for a in range(MAX_AB))
            + tuple(f"tok{t}_{p}" for p in ps for t in range(MAX_TOKENS))
            + tuple(f"card{c}_{p}" for p in ps for c in range(MAX_CARDS)))
RECORD_DTYPES = {"winner": np.int8, "capped": np.bool_, "turns": np.int32, "first": np.int8}
# the per-token and per-card counts are small: int16 keeps a record at about 0.5 kB
USE_DTYPE = np.int16
USE_FIELDS = tuple(f for f in RECORD_FIELDS if f.startswith(("tok", "card")) and f[-2] == "_")


def seat_base(p: int) -> int:
    return O_SEATS + p * P_LEN
