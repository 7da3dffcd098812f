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

    content = load_content()
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
def brute(die, n, target, rolls, actions):
    """Expectimax over ordered dice tuples, written from the rules of the actions without
    the multiset space: the independent twin of the DP."""
    t = parse_target(target, die.symbols, n)
    faces = die.faces
    acts = tuple(actions)

    def met(d):
        return t.met([faces[i] for i in d])

    def outcomes(d, positions):
        for vals in itertools.product(range(6), repeat=len(positions)):
            e = list(d)
            for p_, v in zip(positions, vals):
                e[p_] = v
            yield tuple(e)

    @lru_cache(maxsize=None)
    def V(d, r, left):
        best = Fraction(int(met(d)))
        subsets = [s for k in range(n + 1) for s in itertools.combinations(range(n), k)]
        if r >= 1:
            for s in subsets:
                if s:
                    best = max(best, sum((V(e, r - 1, left) for e in outcomes(d, s)), Fraction(0)) / 6 ** len(s))
        for j, used in enumerate(left):
            if used:
                continue
            a = acts[j]
            left2 = left[:j] + (True,) + left[j + 1:]
            if a.kind == "reroll":
                for s in subsets:
                    if 0 < len(s) <= a.n:
                        best = max(best, sum((V(e, r, left2) for e in outcomes(d, s)), Fraction(0)) / 6 ** len(s))
            elif a.kind == "extra":
                best = max(best, V(d, r + a.n, left2))
            else:
                results = {d}
                for _ in range(a.n):
                    nxt = set()
                    for x in results:
                        for i in range(n):
                            for f in range(6):
                                num, cur = faces[f].number, faces[x[i]].number
                                ok = (a.face in (0, num)) if a.kind == "set" else abs(num - cur) == 1
                                if ok:
                                    nxt.add(x[:i] + (f,) + x[i + 1:])
                    results = nxt or results
                for e in results:
                    best = max(best, V(e, r, left2))
        return best

    start = tuple(False for _ in acts)
    return sum((V(e, rolls - 1, start) for e in outcomes((0,) * n, tuple(range(n)))), Fraction(0)) / 6 ** n


@pytest.mark.parametrize("target,rolls,actions", [
    ("2*c", 2, [DieAction("reroll", 1)]),
    ("1*a+1*b+1*c", 2, [DieAction("set", 1, 0)]),
    ("3*b", 1, [DieAction("move", 1), DieAction("reroll", 2)]),
    ("1*a+1*b+1*c", 1, [DieAction("move", 2)]),
    ("1*a+2*c", 1, [DieAction("set", 1, 6), DieAction("extra", 1)]),
    ("3*c", 2, [DieAction("set", 2, 0)]),
])
def test_dp_matches_brute_force_on_three_dice(target, rolls, actions):
    n = 3
    assert solve(ABC, n, target, rolls, actions) == brute(ABC, n, target, rolls, actions)


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
    assert ult["with_cards"]["by_rolls"]["1"] == pytest.approx(26 / 6 ** 5)
    assert ult["with_cards"]["probability"] > ult["probability"]
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
    (("--hero", "wizard"), "--hero", "pyromancer, paladin"),
    (("--hero", "pyromancer", "--card", "nope"), "--card", "play_six"),
    (("--hero", "pyromancer", "--card", "boss_generous"), "--card", "surprise"),
    (("--hero", "pyromancer", "--card", "might"), "--card", "flick"),     # a Paladin card
])
def test_cli_bad_names(capsys, argv, field, listed):
    code, out, err = run(capsys, "dicethrone", "odds", *argv)
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err and listed in err
