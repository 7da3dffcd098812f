"""Hand-made Dice Throne positions played through BOTH engines with forced dice.

``position(...)`` builds a state vector through the reference engine's objects;
``play_both(S0, dice, script)`` continues it in the kernel and in the reference engine
with a stream whose next ``below(6)`` draws are exactly ``dice`` (face indices 0..5),
applying the scripted moves (by value: each must be legal) at every decision, and checks
after every step that both engines offer the same moves and hold the same state vector.
"""
from __future__ import annotations

import numpy as np

from simcore import rng as R
from simcore.dicethrone import model as M
from simcore.dicethrone.kernel import advance_nb, apply_nb
from simcore.dicethrone.reference import Game
from strategies.dicethrone.bind import full_data

PYRO, PAL = "pyromancer", "paladin"


def tables_in_order(heroes, heroes_dir=None):
    """``(content, tables, strategy data)`` of the shipped heroes ``heroes`` in this order (a
    run's matchup content lists its heroes in roster order; the scenarios below were written
    with the Pyromancer as hero 0)."""
    content = M.load_content(heroes, heroes_dir=heroes_dir)
    T = M.build_tables(content)
    return content, T, full_data(content, T)


CONTENT, TABLES, DATA = tables_in_order((PYRO, PAL))
TABLES = M.with_lineup(TABLES, (0, 1))
TOK = CONTENT.token_ids
AB = {h: {a.id: i for i, a in enumerate(CONTENT.heroes[h].abilities)} for h in CONTENT.heroes}
# level slots (model.P_LVL) by id: abilities, defences (LV_DEF + k), the passive (LV_PASSIVE)
LV = {h: {**AB[h], **{d.id: M.LV_DEF + k for k, d in enumerate(CONTENT.heroes[h].defences)},
          **({CONTENT.heroes[h].passive_id: M.LV_PASSIVE} if CONTENT.heroes[h].passive_levels else {})}
      for h in CONTENT.heroes}
CARD = {c.id: i for i, c in enumerate(CONTENT.cards)}


def spend_move(content, token, n=1, k=0):
    """The move spending ``n`` of ``token`` through its spend entry ``k`` (``MV_SPEND + entry
    * 16 + n``; entries are numbered over the content's tokens in order)."""
    i = 0
    for t in content.tokens:
        for j, _ in enumerate(t.spend):
            if t.id == token and j == k:
                return M.MV_SPEND + i * 16 + n
            i += 1
    raise KeyError(token)


# the moves spending one of the shipped data tokens of CONTENT (the Paladin's, Knockdown's payment)
SPEND = {t.id: spend_move(CONTENT, t.id) for t in CONTENT.tokens if t.spend}
# face indices
FIRE, MAGMA, SOUL, METEOR = 0, 3, 4, 5
SWORD, HELM, HEART, PRAY = 0, 2, 4, 5


def forced_stream(faces) -> np.ndarray:
    """A stream state whose next len(faces) draws of below(6) are ``faces``."""
    faces = list(faces)
    for idx in range(2_000_000):
        st = R.new_state(4242, idx, 99)
        probe = st.copy()
        if all(R.below_py(probe, 6) == f for f in faces):
            return st
    raise AssertionError("no stream found")


def scenario_rules(**overrides):
    """The rules the scenarios play under: the defaults, except that a met ability must be
    used (may_skip_ability = false, the old default), so that a scenario scripts the ability
    choice only where there is one; the tests of the seed's "you may activate it" (the
    default) set it themselves."""
    return M.load_rules(overrides={"may_skip_ability": False, **overrides})


def _turn_at(g, rules, step, active, adice, attempts, turn):
    """Game ``g`` at ``step`` of seat ``active``'s turn ``turn`` (its income already skipped),
    its dice ``adice`` after ``attempts`` roll attempts, its target the opponent on its left."""
    g.first = g.active = active
    g.target = g.first_opponent(active)
    g.income_skipped = 1
    g.turn = turn
    g.step = step
    g.adice = list(adice)
    g.attempts, g.max_attempts = attempts, rules["roll_attempts"]
    g.roll_who = 1 if step in (M.ST_ROLL, M.ST_PREWIN, M.ST_ABILITY) else 0
    g.prio, g.passes = g.next_seat(active), 1
    if step in (M.ST_ROLL, M.ST_PREWIN, M.ST_ABILITY):
        g.def_pick = -1          # as after the roll phase's start: no defence chosen yet


def position(heroes=(PYRO, PAL), rules=None, step=M.ST_ROLL, active=0, adice=(0, 0, 0, 0, 0),
             attempts=3, hands=((), ()), hp=(50, 50), cp=(0, 0), tokens=({}, {}), levels=({}, {}),
             decks=None, turn=4, content=CONTENT):
    rules = rules or scenario_rules()
    g = Game(content, rules, heroes, 0, 0)
    _turn_at(g, rules, step, active, adice, attempts, turn)
    for p, pl in enumerate(g.players):
        pl.hand = [CARD[c] for c in hands[p]]
        if decks is not None:
            pl.deck = [CARD[c] for c in decks[p]]
        pl.hp, pl.cp = hp[p], cp[p]
        for t, n in tokens[p].items():
            pl.tokens[TOK[t]] = n
        for a, lv in levels[p].items():
            pl.levels[LV[pl.hero.id][a]] = lv
    return g.vector()


def team_position(heroes=(PYRO, PAL, PAL, PYRO), rules=None, step=M.ST_ROLL, active=0, order=None,
                  adice=(0, 0, 0, 0, 0), attempts=3, hands=None, hp=(50, 50), cp=None, tokens=None, turn=4,
                  content=CONTENT):
    """A 2v2 position (seats 0 and 2 team 0, seats 1 and 3 team 1; ``hp`` per team) built as
    :func:`position` builds a 1v1 one; ``order``: the turn order (default: seat order from
    ``active``); the active seat's target is the opponent on its left. ``content``: another
    matchup's (``tables_in_order``; ``tokens`` then names that content's tokens)."""
    rules = rules or scenario_rules(mode="2v2")
    n = len(heroes)
    g = Game(content, rules, heroes, 0, 0)
    g.order = list(order) if order is not None else [(active + k) % n for k in range(n)]
    _turn_at(g, rules, step, active, adice, attempts, turn)
    for p, pl in enumerate(g.players):
        pl.hand = [CARD[c] for c in (hands[p] if hands else ())]
        pl.hp = hp[pl.team]
        pl.cp = cp[p] if cp else 0
        for t, k in (tokens[p] if tokens else {}).items():
            pl.tokens[content.token_ids[t]] = k
    return g.vector()


def play_both(S0, dice=(), script=(), rules=None, content=CONTENT, tables=None):
    """Returns (reference game, kernel state, decisions seen [(phase, seat, moves)])."""
    rules = rules or scenario_rules()
    rv = M.rules_vector(rules)
    lineup = [int(S0[M.seat_base(p) + M.P_HERO]) for p in range(int(S0[M.O_NSEATS]))]
    T = M.with_lineup(tables if tables is not None else TABLES, lineup)
    heroes = tuple(list(content.heroes)[h] for h in lineup)
    g = Game(content, rules, heroes, 0, 0)
    g.load_vector(S0)
    g.rng = forced_stream(dice)
    S = np.array(S0, np.int64)
    krng = g.rng.copy()
    moves = np.zeros(M.MAX_MOVES, np.int64)
    phase, n = advance_nb(S, rv, T, krng, moves)
    mv = g.advance()
    seen = []
    script = list(script)
    while True:
        assert list(moves[:n]) == mv, (list(moves[:n]), mv)
        assert np.array_equal(S, g.vector()), np.nonzero(S != g.vector())[0]
        if phase == M.PH_DONE or not script:
            break
        seen.append((phase, int(S[M.O_CUR]), list(mv)))
        m = script.pop(0)
        assert m in mv, (M.PHASE_NAMES[phase], m, mv)
        phase, n = apply_nb(S, phase, m, rv, T, krng, moves)
        g.apply(m)
        mv = g.advance()
    return g, S, seen


def seat(S, p, field):
    return int(S[M.seat_base(p) + field])


def tok(S, p, name):
    return int(S[M.seat_base(p) + M.P_TOK + TOK[name]])


from cli_runner import run_cli  # noqa: E402,F401  (the Dice Throne test files import it from here)


def hero_copy(source: str, new_id: str, new_name: str, change=None) -> str:
    """The text of a shipped hero file as another hero (a fixture for rosters of 3+ heroes):
    its own token and card ids renamed (``<new_id>_<id>``: ids are unique over a roster), its
    name changed, and ``change = (old, new)`` applied once (one number changed)."""
    import re

    text = (M.HEROES_DIR / f"{source}.toml").read_text()
    own = re.findall(r'^\[\[tokens\]\]\s*\nid = "([^"]+)"', text, flags=re.M)
    for t in own:   # the token's id and every effect naming it (not its ``use``: an engine branch's name)
        text = re.sub(rf'(?<!use = )"{t}"', f'"{new_id}_{t}"', text)
    text = re.sub(r'^(\[\[cards\]\]\s*\nid = ")([^"]+)"', lambda m: f'{m.group(1)}{new_id}_{m.group(2)}"', text,
                  flags=re.M)
    old_name = re.search(r'^name = "([^"]+)"', text, flags=re.M).group(1)
    text = text.replace(f'name = "{old_name}"', f'name = "{new_name}"', 1)
    if change is not None:
        assert change[0] in text, change
        text = text.replace(change[0], change[1], 1)
    return text


def fixture_roster(folder, copies=(("ember", "pyromancer", "Ember Mage", None),), cards=None):
    """A heroes folder: the shipped Paladin and Pyromancer (the heroes these tests were
    written with; Season One's heroes joined the shipped folder later), plus ``copies``
    (``(id, source, name, change)``, :func:`hero_copy`), and ``cards`` as its own
    ``cards.toml`` when given."""
    from pathlib import Path

    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    for h in (PAL, PYRO):
        f = M.HEROES_DIR / f"{h}.toml"
        (d / f.name).write_text(f.read_text())
    for new_id, source, name, change in copies:
        (d / f"{new_id}.toml").write_text(hero_copy(source, new_id, name, change))
    if cards is not None:
        (d / "cards.toml").write_text(cards)
    return d
