"""Exact roll odds with die-changing cards (simcore/odds/resources.py, simcore/odds/dicethrone.py)
and ``playtest dicethrone odds``: held to hand-computed values, to the card-free solver, and
to an independent brute force over ordered dice on small cases."""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from functools import lru_cache

import pytest

from simcore.dice import parse_die, parse_target
from simcore.odds.resources import DieAction, ResourceSolver
from simcore.odds.solver import cached_space, solve_exact

D6 = parse_die(["1:one", "2:two", "3:three", "4:four", "5:five", "6:six"])
ABC = parse_die(["1:a", "2:a", "3:b", "4:b", "5:c", "6:c"])


def solve(die, n, target, rolls, actions):
    space = cached_space((die,) * n, (), False)
    t = parse_target(target, die.symbols, n)
    return ResourceSolver(space, space.met_vector(t), actions).probability(rolls)


def test_single_die_hand_values():
    # one die, target a six, one roll: 1/6; a reroll card or an extra attempt: 1 - (5/6)^2;
    # set to 6 (or any face): certain; move by one: a 5 or a 6 (2/6)
    assert solve(D6, 1, "1*six", 1, []) == Fraction(1, 6)
    assert solve(D6, 1, "1*six", 1, [DieAction("reroll", 1)]) == Fraction(11, 36)
    assert solve(D6, 1, "1*six", 1, [DieAction("extra", 1)]) == Fraction(11, 36)
    assert solve(D6, 1, "1*six", 1, [DieAction("set", 1, 6)]) == 1
    assert solve(D6, 1, "1*six", 1, [DieAction("set", 1, 0)]) == 1
    assert solve(D6, 1, "1*six", 1, [DieAction("set", 1, 5)]) == Fraction(1, 6)   # useless card
    assert solve(D6, 1, "1*six", 1, [DieAction("move", 1)]) == Fraction(2, 6)
    # two rolls and a reroll card: three chances
    assert solve(D6, 1, "1*six", 2, [DieAction("reroll", 1)]) == 1 - Fraction(5, 6) ** 3
    # two reroll cards = two more chances
    assert solve(D6, 1, "1*six", 1, [DieAction("reroll", 1)] * 2) == 1 - Fraction(5, 6) ** 3


def test_no_card_equals_the_shared_solver():
    space = cached_space((ABC,) * 5, (), False)
    for text in ("3*a+1*c", "small-straight", "4*c"):
        t = parse_target(text, ABC.symbols, 5)
        ex = solve_exact(space, t, 3)
        rs = ResourceSolver(space, space.met_vector(t), [])
        assert [rs.probability(r) for r in (1, 2, 3)] == [ex.probability(r) for r in (1, 2, 3)]


def test_pyromancer_ultimate_by_hand():
    from simcore.dicethrone.model import load_content
    from simcore.odds.dicethrone import card_action, find_card, hero_space

    content = load_content(("pyromancer",))
    hero = content.heroes["pyromancer"]
    ult = [a for a in hero.abilities if a.ultimate][0].tiers[0].target    # 5*meteor (face 6)
    space = hero_space(hero)
    met = space.met_vector(ult)

    def p(cards, rolls=1):
        acts = [card_action(find_card(content, "pyromancer", c)) for c in cards]
        return ResourceSolver(space, met, acts).probability(rolls)

    assert p([]) == Fraction(1, 6 ** 5)
    # one die to any face: at least four meteors in one roll (5 * 5 + 1 of 6^5)
    assert p(["surprise"]) == Fraction(26, 6 ** 5)
    assert p(["Play Six"]) == Fraction(26, 6 ** 5)          # the meteor is the 6
    # move by one: four meteors and a 5 (fiery soul) or five meteors
    assert p(["flick"]) == Fraction(6, 6 ** 5)
    # two dice to any face: at least three meteors
    three = sum(Fraction(int(__import__("math").comb(5, k)) * 5 ** (5 - k), 6 ** 5) for k in (3, 4, 5))
    assert p(["unexpected"]) == three
    # a card can only help, and two cards help more than one
    assert p(["surprise"], 3) > p([], 3) and p(["surprise", "flick"], 3) > p(["surprise"], 3)


# ---------------------------------------------------------------- brute force
def A(*args, **kw):
    """A DieAction built when the test runs (a parameter list stays importable)."""
    return lambda: DieAction(*args, **kw)


def brute(die, n, target, rolls, actions, budget=None):
    """Expectimax over ordered dice tuples, written from the rules of the actions without
    the multiset space: the independent twin of the DP (``budget``: CP the actions' costs
    come out of; None: free)."""
    t = parse_target(target, die.symbols, n)
    faces = die.faces
    acts = tuple(actions)
    subsets = [s for k in range(1, n + 1) for s in itertools.combinations(range(n), k)]

    def met(d):
        return t.met([faces[i] for i in d])

    def outcomes(d, positions):
        for vals in itertools.product(range(6), repeat=len(positions)):
            e = list(d)
            for p_, v in zip(positions, vals):
                e[p_] = v
            yield tuple(e)

    def avg(d, s, f):
        return sum((f(e) for e in outcomes(d, s)), Fraction(0)) / 6 ** len(s)

    @lru_cache(maxsize=None)
    def seq(d, r, left, b, n_, more):
        """``more`` optional rerolls of up to ``n_`` dice still to come (a card's times)."""
        best = V(d, r, left, b)
        if more:
            for s in subsets:
                if len(s) <= n_:
                    best = max(best, avg(d, s, lambda e: seq(e, r, left, b, n_, more - 1)))
        return best

    @lru_cache(maxsize=None)
    def V(d, r, left, b):
        best = Fraction(int(met(d)))
        if r >= 1:
            for s in subsets:
                best = max(best, avg(d, s, lambda e: V(e, r - 1, left, b)))
        for j, used in enumerate(left):
            a = acts[j]
            if used or (b is not None and a.cost > b):
                continue
            left2 = left[:j] + (True,) + left[j + 1:]
            b2 = None if b is None else b - a.cost
            if a.kind == "reroll":
                for s in subsets:
                    if len(s) <= a.n:
                        best = max(best, avg(d, s, lambda e: seq(e, r, left2, b2, a.n, a.times - 1)))
            elif a.kind == "extra":
                best = max(best, V(d, r + a.n, left2, b2))
            else:
                results = {d}
                for _ in range(a.n):
                    nxt = set()
                    for x in results:
                        for i in range(n):
                            for f in range(6):
                                num, cur = faces[f].number, faces[x[i]].number
                                if a.kind == "set":
                                    ok = a.face in (0, num)
                                elif a.kind == "copy":
                                    ok = f != x[i] and any(x[j2] == f for j2 in range(n) if j2 != i)
                                else:
                                    ok = abs(num - cur) == 1
                                if ok:
                                    nxt.add(x[:i] + (f,) + x[i + 1:])
                    results = nxt or results
                for e in results:
                    best = max(best, V(e, r, left2, b2))
        return best

    start = tuple(False for _ in acts)
    return avg((0,) * n, tuple(range(n)), lambda e: V(e, rolls - 1, start, budget))


@pytest.mark.parametrize("target,rolls,actions", [
    ("2*c", 2, [DieAction("reroll", 1)]),
    ("1*a+1*b+1*c", 2, [DieAction("set", 1, 0)]),
    ("3*b", 1, [DieAction("move", 1), DieAction("reroll", 2)]),
    ("1*a+1*b+1*c", 1, [DieAction("move", 2)]),
    ("1*a+2*c", 1, [DieAction("set", 1, 6), DieAction("extra", 1)]),
    ("3*c", 2, [DieAction("set", 2, 0)]),
    # issue 29: Me Too (copy), I Can Again (extra) alone and in pairs, Worthy of Me's two readings
    ("3*c", 1, [A("copy", 1)]),
    ("3*a", 2, [A("copy", 1)]),
    ("2*b+1*c", 1, [A("copy", 1), A("extra", 1)]),
    ("3*c", 1, [A("copy", 2)]),
    ("1*a+1*b+1*c", 1, [A("extra", 1)]),
    ("3*b", 1, [A("reroll", 1, times=2)]),
    ("3*b", 1, [A("reroll", 2)]),
    ("2*c", 2, [A("reroll", 1, times=2), A("copy", 1)]),
    ("1*a+1*b+1*c", 1, [A("reroll", 1, times=3)]),
])
def test_dp_matches_brute_force_on_three_dice(target, rolls, actions):
    n = 3
    actions = [a() if callable(a) else a for a in actions]
    assert solve(ABC, n, target, rolls, actions) == brute(ABC, n, target, rolls, actions)


def _solve_budget(die, n, target, rolls, actions, budget):
    space = cached_space((die,) * n, (), False)
    t = parse_target(target, die.symbols, n)
    return ResourceSolver(space, space.met_vector(t), actions, budget=budget).probability(rolls)


@pytest.mark.parametrize("target,rolls,actions,budget", [
    # a card alone, affordable or not; a pair whose costs together exceed the CP; cards and
    # Tithes-like 1-CP rerolls from one purse
    ("3*c", 1, [A("set", 1, 0, "surprise", cost=2)], 1),
    ("3*c", 1, [A("set", 1, 0, "surprise", cost=2)], 2),
    ("3*c", 2, [A("set", 1, 0, "surprise", cost=2), A("copy", 1, 0, "me too", cost=1)], 2),
    ("3*c", 1, [A("set", 1, 0, "surprise", cost=2), A("copy", 1, 0, "me too", cost=1)], 3),
    ("2*b+1*c", 1, [A("extra", 1, 0, "again", cost=1)] + [A("reroll", 1, 0, "tithe", cost=1)] * 2, 2),
    ("1*a+1*b+1*c", 1, [A("reroll", 1, 0, "worthy", cost=1, times=2),
                        A("reroll", 1, 0, "tithe", cost=1)], 1),
])
def test_budget_matches_brute_force(target, rolls, actions, budget):
    actions = [a() for a in actions]
    got = _solve_budget(ABC, 3, target, rolls, actions, budget)
    assert got == brute(ABC, 3, target, rolls, actions, budget)
    assert got <= brute(ABC, 3, target, rolls, actions)       # the free figure bounds it


def test_float_twin_of_the_exact_dp():
    acts = [DieAction("reroll", 1, times=2), DieAction("copy", 1), DieAction("extra", 1)]
    space = cached_space((ABC,) * 3, (), False)
    met = space.met_vector(parse_target("2*b+1*c", ABC.symbols, 3))
    ex = ResourceSolver(space, met, acts).probability(2)
    fl = ResourceSolver(space, met, acts, exact=False).probability(2)
    assert fl == pytest.approx(float(ex), abs=1e-12)


def test_monte_carlo_of_two_rerolls_in_a_row():
    """Simulated, not solved: one die, a six wanted, one roll and a card of two single-die
    rerolls in a row (policy: reroll while no six). The exact 1 - (5/6)^3 lies in the 99.9%
    interval of 200,000 plays."""
    import numpy as np

    rng = np.random.default_rng(29)
    n = 200_000
    rolls = rng.integers(1, 7, size=(n, 3))
    hit = (rolls == 6).any(axis=1)
    p = float(1 - Fraction(5, 6) ** 3)
    assert float(solve(D6, 1, "1*six", 1, [DieAction("reroll", 1, times=2)])) == pytest.approx(p)
    half = 3.29 * (p * (1 - p) / n) ** 0.5
    assert abs(hit.mean() - p) < half


# ---------------------------------------------------------------- the CLI
from dicethrone_helpers import run_cli as run  # noqa: E402  (playtest ARGV in-process)


def test_cli_json_shape_and_card(capsys):
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "pyromancer", "--card", "surprise", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["hero"] == "Pyromancer" and d["rolls"] == 3 and d["bought_rolls"] == 0
    ult = [r for r in d["abilities"] if r["ultimate"]][0]
    assert set(ult["by_rolls"]) == {"1", "2", "3"}
    assert ult["fraction"] == "6240321451/470184984576"     # = playtest odds custom ... kind:5 style value
    # with 0 CP the 2-CP Surprise cannot be paid: the figure is the card-free one; the
    # upper bound (the card free) is the old figure
    assert ult["with_cards"]["fraction"] == ult["fraction"] and ult["with_cards"]["gain"] == 0
    assert ult["with_cards"]["upper_bound"]["by_rolls"]["1"] == pytest.approx(26 / 6 ** 5)
    assert ult["with_cards"]["upper_bound"]["probability"] > ult["probability"]
    assert {"ability", "tier", "label", "target", "undefendable", "by_rolls", "probability", "fraction"} <= set(ult)


def test_cli_paladin_tithes_columns(capsys):
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "paladin", "--cp", "2", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["bought_rolls"] == 2
    row = d["abilities"][0]
    assert row["probability"] == pytest.approx(row["by_rolls"]["3+2"])
    assert row["by_rolls"]["3"] < row["by_rolls"]["3+1"] < row["by_rolls"]["3+2"]


@pytest.mark.parametrize("argv,field,listed", [
    (("--hero", "wizard"), "--hero", "paladin, pyromancer"),     # the roster: file-name order
    (("--hero", "pyromancer", "--card", "nope"), "--card", "play_six"),
    (("--hero", "pyromancer", "--card", "boss_generous"), "--card", "surprise"),
    (("--hero", "pyromancer", "--card", "might"), "--card", "flick"),     # a Paladin card
    (("--hero", "pyromancer", "--card", "just_this"), "defensive roll", "i_can_again"),   # when = attacked
    (("--hero", "paladin", "--card", "give_hand"), "opponent's dice", "me_too"),
    (("--hero", "paladin", "--cp", "16"), "--cp", "0..15"),
    (("--hero", "paladin", "--cp", "-1"), "--cp", "0..15"),
])
def test_cli_bad_names(capsys, argv, field, listed):
    code, out, err = run(capsys, "dicethrone", "odds", *argv)
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err and listed in err


# ---------------------------------------------------------------- cards as printed (issue 29)
def _content():
    from simcore.dicethrone.model import load_content

    return load_content(("pyromancer", "paladin"))


def _card(content, cid):
    return [c for c in content.cards if c.id == cid][0]


def test_card_when_is_respected():
    """Just This (when = "attacked") is an extra attempt in the *defensive* roll: it cannot
    help the offensive roll, so the odds refuse it (before: counted as a 4th attempt)."""
    from simcore.dicethrone import model as M
    from simcore.errors import PlaytestError
    from simcore.odds.dicethrone import card_action, card_refusal, find_card

    content = _content()
    jt = _card(content, "just_this")
    assert jt.when == M.CW_ATTACKED and card_action(jt) is None
    assert "defensive roll" in card_refusal(jt)
    with pytest.raises(PlaytestError, match="defensive roll"):
        find_card(content, "pyromancer", "Just This")
    for c in content.cards:      # no card played only in an attack's window counts
        if c.when != M.CW_ANY:
            assert card_action(c) is None


def test_i_can_again_and_me_too_by_hand():
    """I Can Again = one more attempt; Me Too = one die set to a face another die shows."""
    from simcore.odds.dicethrone import card_action, find_card, hero_space

    content = _content()
    hero = content.heroes["pyromancer"]
    space = hero_space(hero)
    ult = [a for a in hero.abilities if a.ultimate][0].tiers[0].target    # 5*meteor
    met = space.met_vector(ult)

    def p(cards, rolls=1):
        acts = [card_action(find_card(content, "pyromancer", c)) for c in cards]
        return ResourceSolver(space, met, acts).probability(rolls)

    assert p(["I Can Again"], 1) == p([], 2) and p(["i_can_again"], 2) == p([], 3)
    # Me Too in one roll: four meteors and any other die (5 * 5), or five meteors
    assert p(["me_too"]) == Fraction(26, 6 ** 5)
    # small straight (1-2-3-4 of faces) needs numbers: copying never makes a new number
    straight = [a for a in hero.abilities if "straight" in a.tiers[0].text][0].tiers[0].target
    m2 = space.met_vector(straight)
    assert (ResourceSolver(space, m2, [card_action(find_card(content, "pyromancer", "me_too"))]).probability(1)
            == ResourceSolver(space, m2, []).probability(1))


def test_worthy_of_me_readings():
    """The played reading is two single-die rerolls in a row (the same die again allowed);
    the other reading (one reroll of up to 2 dice) is in the data and never better."""
    from simcore.odds.dicethrone import card_action, other_action

    content = _content()
    w = _card(content, "worthy_of_me")
    a, b = card_action(w), other_action(w)
    assert (a.kind, a.n, a.times) == ("reroll", 1, 2) and (b.kind, b.n, b.times) == ("reroll", 2, 1)
    # one die, a six wanted, one roll: reroll it twice = three chances; once = two
    a1, b1 = DieAction("reroll", 1, times=2), DieAction("reroll", 2)
    assert solve(D6, 1, "1*six", 1, [a1]) == 1 - Fraction(5, 6) ** 3
    assert solve(D6, 1, "1*six", 1, [b1]) == 1 - Fraction(5, 6) ** 2
    for target in ("2*six", "1*five+1*six", "small-straight"):
        n = 4 if "straight" in target else 2
        assert solve(D6, n, target, 1, [a1]) >= solve(D6, n, target, 1, [b1])


def test_cli_shows_the_other_reading(capsys):
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "pyromancer", "--card", "worthy_of_me", "--cp", "1",
                       "--json")
    assert code == 0
    d = json.loads(out)
    assert d["cards"][0]["other_reading"] == "reroll up to 2 dice"
    for row in d["abilities"]:
        o = row["with_cards"]["other_readings"][0]
        assert o["card"] == "worthy_of_me" and o["probability"] <= row["with_cards"]["probability"] + 1e-15
    ult = [r for r in d["abilities"] if r["ultimate"]][0]
    assert ult["with_cards"]["other_readings"][0]["probability"] < ult["with_cards"]["probability"]
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "pyromancer", "--card", "worthy_of_me", "--cp", "1")
    assert code == 0 and "Worthy of Me under its other reading (reroll up to 2 dice" in out


# ---------------------------------------------------------------- CP charged (issue 29)
def test_budget_by_hand():
    """One die, a six wanted, one roll. A 2-CP set-to-6 card: certain with 2 CP, out of
    reach with 1; a 1-CP reroll and two 1-CP Tithes-like rerolls share the CP."""
    s6 = DieAction("set", 1, 6, "six", cost=2)
    rr = DieAction("reroll", 1, 0, "tithe", cost=1)
    space = cached_space((D6,), (), False)
    met = space.met_vector(parse_target("1*six", D6.symbols, 1))
    assert ResourceSolver(space, met, [s6], budget=2).probability(1) == 1
    assert ResourceSolver(space, met, [s6], budget=1).probability(1) == Fraction(1, 6)
    assert ResourceSolver(space, met, [s6]).probability(1) == 1                 # not charged
    assert ResourceSolver(space, met, [rr] * 3, budget=2).probability(1) == 1 - Fraction(5, 6) ** 3
    assert ResourceSolver(space, met, [rr] * 3).probability(1) == 1 - Fraction(5, 6) ** 4
    # the card and the rerolls compete for 2 CP: the card alone (certain) is the best buy
    assert ResourceSolver(space, met, [s6] + [rr] * 2, budget=2).probability(1) == 1
    assert ResourceSolver(space, met, [s6] + [rr] * 2, budget=3).probability(1) == 1


def test_cli_charges_card_costs_from_cp(capsys):
    """--cp is the player's CP: Unexpected (3 CP) is out of reach at --cp 2 (before: free
    on top of it); at --cp 3 it is paid; the old figure is kept as the upper bound."""
    docs = {}
    for cp in (2, 3):
        code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "pyromancer", "--card", "unexpected",
                           "--cp", str(cp), "--json")
        assert code == 0
        docs[cp] = json.loads(out)
    assert docs[2]["card_cost_charged"] is True and docs[2]["cards_cost"] == 3
    for r2, r3 in zip(docs[2]["abilities"], docs[3]["abilities"]):
        assert r2["with_cards"]["fraction"] == r2["fraction"]                     # unaffordable
        assert r3["with_cards"]["fraction"] == r3["with_cards"]["upper_bound"]["fraction"]   # paid in full
        assert r2["with_cards"]["upper_bound"]["fraction"] == r3["with_cards"]["upper_bound"]["fraction"]
    ult = [r for r in docs[3]["abilities"] if r["ultimate"]][0]
    assert ult["with_cards"]["probability"] > ult["probability"]


def test_cli_paladin_cards_and_tithes_share_cp(capsys):
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "paladin", "--card", "play_six", "--card", "surprise",
                       "--cp", "2", "--json")
    assert code == 0
    d = json.loads(out)
    ult = [r for r in d["abilities"] if r["ultimate"]][0]
    wc = ult["with_cards"]
    # 2 CP buy Surprise, or Play Six and a Tithes reroll, or two rerolls: less than all of it free
    assert ult["probability"] < wc["probability"] < wc["upper_bound"]["probability"]
    assert ult["probability"] == pytest.approx(ult["by_rolls"]["3+2"])


def test_tithes_up_to_the_cp_given(capsys):
    """Tithes buys cp // 1 rerolls up to the CP cap (before: at most 6)."""
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "paladin", "--cp", "9", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["bought_rolls"] == 9
    row = [r for r in d["abilities"] if r["ultimate"]][0]
    assert "3+9" in row["by_rolls"] and row["probability"] == pytest.approx(row["by_rolls"]["3+9"])
    assert row["by_rolls"]["3+6"] < row["by_rolls"]["3+7"] < row["by_rolls"]["3+9"]


def test_opponent_note(capsys):
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "pyromancer")
    assert code == 0 and "opponent's roll-phase cards can change your dice" in out and "best case" in out
    code, out, _ = run(capsys, "dicethrone", "odds", "--hero", "pyromancer", "--json")
    assert "best case against an opponent who holds none" in json.loads(out)["opponent_note"]
