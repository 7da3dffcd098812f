"""Dice Throne strategies (any strategy in any seat).

Interface (numba; the built-ins and a plug-in ``--strategy package.module:function`` alike):
``decide(phase, obs, moves, n_moves, rules, data, rng) -> int``, an index into
``moves[:n_moves]``. ``phase`` is a ``simcore.dicethrone.model.PH_*`` (``PHASE_NAMES``):
main, roll, window (a priority window for cards), ability, token (a token's spend window:
an attack's - Crit, Protect, Accuracy, Retribution, Evasive... -, the start of an offensive
roll phase - paying off Knockdown -, or the holder's upkeep; moves ``MV_PASS`` and
``MV_SPEND + entry * 16 + n``; ``MV_SPEND`` moves also stand in main, roll and window
decisions: the holder's ``main``, ``own_roll`` and ``any`` spends, after which the same
decision comes back; the phase knockdown, Knockdown's payment before Season One's plan
step 5, is no longer used), die (a card's die effect, or a spend's: Seedling), discard, defence (which
defence), bonus (reroll waiting dice: an ability's bonus dice, a pre-defence roll's, a
card's roll's, or the defence dice - ``O_BONUS_SRC`` says which), buy (a card's
``buy``: how many tokens to buy with CP; moves ``MV_PASS`` or ``MV_BUY + k``), choose (which
alternative of a ``choose`` effect to take, moves ``MV_PICK + k``; the pending choose's effect
row is ``obs[O_CHOOSE]``: Season One's Meditate, Ninjutsu), target (2v2's targeting die
showing "pick" - the attacker picks among the living opponents - or "their_pick" - the
opponent on the attacker's left picks among its team; moves ``MV_TARGET + seat``; the die is
``obs[O_TDIE]``, and a window on it is a window decision at ``obs[O_STEP] == ST_TWIN``, whose
die cards act on that one die); ``obs`` the state
vector as the deciding seat sees it (``kernel.observe_nb``: both decks and the other hand
read NONE; layout ``model.O_*``, a seat's block at ``O_SEATS + seat * P_LEN``); ``moves`` the
legal moves (``model.MV_*``); ``rules`` the rules vector (``model.rules_vector``); ``data``
the seat's float64 row (``bind.full_data``: greedy's table ``basic.strategy_data``, then
the blocks of ``optimal`` and ``search``); ``rng`` the strategies' own stream (draw with
``simcore.rng.below_nb``), never the dice's.

Built-ins:

- ``random``: uniform over the legal moves (the strategies' own stream).
- ``greedy``: keeps dice toward the ability tier with the best value x chance (a per-die
  hit chance over the attempts left), stops when that tier is made, activates the
  most valuable satisfied tier (with ``may_skip_ability``, the default: unless the
  opponent's defence, plus Retribution, could knock it out and the tier's value is below
  the opponent's health - then it passes; ``basic.greedy_skips``), always spends tokens and pays Knockdown, plays upgrade
  cards and other main-phase cards when it can pay (status removal only when it holds a
  status), plays attack modifiers when attacking and prevention when attacked, buys the
  most tokens a ``buy`` card lets it (Turning Up the Heat's Fire Mastery), takes the
  alternative of a ``choose`` of highest ``model._effect_value`` (``basic.choose_pick``), never
  plays dice-changing cards, picks targets by a stated rule (the attacker: an opponent the
  tier can knock out, then the lowest health, then the weakest defence against the tier;
  a defender picking for its team: the strongest defence; ``basic.target_pick``), takes the
  first defence when a hero has several, sells
  the last card when over the hand limit, and rerolls the bonus dice of a roll it may
  reroll (Pyroblast III, Death Blossom II, Throwing Stars!, Shade Shift's defence dice)
  whose faces are worth less than a fresh die on average (``basic.bonus_reroll``), and
  spends its own-turn tokens by the entry's kind (``basic.spend_class``: Cleanse and
  Wellspring when offered, Sapling's heal in main phase 2 and its draw below 3 cards,
  Seedling's reroll never).
- ``optimal`` (``optimal.py``): the exact roll-phase DP of ``simcore.odds`` over the five
  dice with token-aware ability values at the hero's current levels, die-changing cards
  played in the roll phase when they raise the expected value enough; with
  ``may_skip_ability`` it weighs each tier less the damage it can expect back against
  passing; a ``buy`` card's tokens: as many as it may when a token's gain weight beats
  the CP it costs (``CP_VALUE`` a CP), else none; a ``choose``: the alternative of highest
  ``optimal.effect_value``; else ``greedy`` (the Season One decisions too: spends, bonus
  rerolls; in the roll phase its DP spends nothing).
- ``search`` (``search.py``): determinized Monte Carlo search (hidden cards sampled from
  what the seat sees) with kernel rollouts by ``optimal``; the machinery is shared with
  the duel's ``search`` (``strategies/mcsearch.py``).
"""
BUILTIN = {
    "random": (0, "uniform over the legal moves"),
    "greedy": (1, "chase the best ability tier, play cards when they pay, pass an attack the defence could punish"),
    "optimal": (2, "exact roll DP over the dice multisets with token-aware values; die cards when they pay"),
    "search": (3, "determinized Monte Carlo search, optimal rollouts (budget: rollouts per move)"),
}
