"""Balance sweeps: "what small change would fix it?"

Replay the whole tournament (same seeds, so the variants differ only by the change) for
each value of one knob, and report every hero's win rate against the field, the spread
between the strongest and the weakest hero and the first-player edge, with intervals.
A knob is a rule option (``start_hp``) or one effect of one hero's ability tier
(``light_guardian``, ``Holy Attack``, ``damage``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import pandas as pd

from simcore.errors import PlaytestError
from simcore.toml_io import parse_value
from simcore.duel.model import BOOL_EFFECTS, EFFECTS, DuelSetup, find_hero, validate_rules


@dataclass
class Knob:
    """One thing to vary: a rule option, or an effect of a hero's ability tier."""
    option: str | None = None
    hero: str | None = None
    ability: str | None = None
    effect: str | None = None
    tier: int | None = None  # None: every tier of a tiered ability gets the value

    def label(self, setup: DuelSetup) -> str:
        if self.option:
            return self.option
        h = setup.heroes[find_hero(setup.heroes, self.hero)]
        t = "" if self.tier is None else f" tier {self.tier + 1}"
        return f"{h.name} / {self.ability}{t} / {self.effect}"


def parse_values(text: str, field: str = "--values") -> list:
    vals = [parse_value(v.strip()) for v in str(text).split(",") if v.strip()]
    if not vals:
        raise PlaytestError("give at least one value (comma-separated)", field=field)
    return vals


def variant(setup: DuelSetup, knob: Knob, value) -> DuelSetup:
    """A copy of ``setup`` with the knob set to ``value`` (validated like a data file); the
    search strategy's budget carries over."""
    if knob.option:
        rules = dict(setup.rules)
        if knob.option not in rules:
            raise PlaytestError(f"unknown rule option (known: {', '.join(sorted(rules))})", field="--option")
        want = type(rules[knob.option])
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise PlaytestError(f"{knob.option} takes {want.__name__} values, got {value!r}", field="--values")
        rules[knob.option] = value
        validate_rules(rules, "--values")
        return DuelSetup(setup.heroes, rules, search_budget=setup.search_budget)
    if knob.effect not in EFFECTS:
        raise PlaytestError(f"unknown effect {knob.effect!r} (effects: {', '.join(EFFECTS)})", field="--effect")
    heroes = copy.deepcopy(setup.heroes)
    hero = heroes[find_hero(heroes, knob.hero)]
    ability = hero.abilities[hero.ability_index(knob.ability, "--ability")]
    if knob.tier is not None and not 0 <= knob.tier < len(ability.tiers):
        raise PlaytestError(f"{ability.name} has {len(ability.tiers)} tier(s)", field="--tier")
    if knob.effect in BOOL_EFFECTS:
        if not isinstance(value, bool):
            raise PlaytestError(f"{knob.effect} takes true/false, got {value!r}", field="--values")
        value = int(value)
    elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
        raise PlaytestError(f"{knob.effect} takes whole numbers 0..1000, got {value!r}", field="--values")
    tiers = ability.tiers if knob.tier is None else [ability.tiers[knob.tier]]
    for t in tiers:
        t.effects[knob.effect] = value
    return DuelSetup(heroes, dict(setup.rules), search_budget=setup.search_budget)


def sweep(setup: DuelSetup, knob: Knob, values: list, strategy, games: int, seed: int, jobs: int = 1,
          progress=False, execution=None) -> pd.DataFrame:
    """One row per (value, hero): win rate vs the field with its interval, plus per value
    the spread between the strongest and weakest hero and the first player's score rate.

    Each variant's tournament plays on the shared chunked path (``run_matchups_flat``):
    every chunk is reduced to exact aggregates where it is played, so memory does not grow
    with ``games``; the tables equal those from every game's record
    (``tests/test_flat_verbs.py``). ``execution()``: a fresh ``analysis.execution.Execution``
    per variant (default: local processes, ``jobs``, no store). Every variant is built and
    validated before the first game."""
    from analysis import duel as ad
    from analysis.duel import run_matchups_flat
    from analysis.execution import Execution

    variants = [(v, variant(setup, knob, v)) for v in values]
    rows = []
    for v, s in variants:
        ex = execution() if execution is not None else Execution(jobs=jobs)
        run, _ = run_matchups_flat(s, strategy, games, seed, ex, progress=progress)
        m = ad.matchup_table(run)
        ht = ad.hero_table(run, m)
        fp = ad.first_player_table(run)
        overall = fp[fp.hero_a == "all"].iloc[0]
        spread = float(ht.win_rate.max() - ht.win_rate.min()) if not ht.empty else float("nan")
        for _, r in ht.iterrows():
            rows.append({
                "knob": knob.label(setup), "value": v, "hero": r.hero, "win_rate": r.win_rate,
                "ci_low": r.ci_low, "ci_high": r.ci_high, "games": int(r.games), "spread": spread,
                "first_player_win_rate": float(overall.first_player_win_rate),
                "first_player_ci_low": float(overall.ci_low), "first_player_ci_high": float(overall.ci_high),
            })
    return pd.DataFrame(rows)
