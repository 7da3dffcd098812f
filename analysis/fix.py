"""Balance search: "what small change would fix it?"

Given a target (every matchup's win rate, or every role's, inside a band such as 45-55%;
or the spread between the strongest and the weakest hero at most S points), the
strategies it must hold under, and the numbers that may change (each with bounds, a step
and a weight), find the cheapest set of edits that meets the target, then prove it with
a fresh run.

The pieces, all game-independent except the *edit space*:

* :class:`Param`: one editable number (its canonical name, current value, bounds, step,
  weight). Cost of an edit: ``weight * |to - from| / max(1, |from|)`` ("relative": a
  whole number's size costs 1, so one point on a 3-damage ability weighs ten times one
  point of a 30-HP start) or ``weight * |to - from|`` ("units").
* An *edit space* per game (:func:`space_for`): turns names into numbers of the game's
  data (``rules.start_hp`` for every game; heroes' numbers for the duel,
  ``analysis/fix_duel.py``), makes the variant's rules and content, and writes the
  patched data files.
* :func:`evaluate`: one tournament of the variant with the shared runner
  (``analysis.runs.run``): every unordered hero pair in both seat orders under each
  strategy (self-play), or every role, on the *same* seeds for every candidate (common
  random numbers: two candidates differ only by their edits).
* :func:`search`: Optuna's TPE sampler with constraints (the target's miss must be 0;
  the objective is the cost), then a greedy shrink of the best edit set (undo one step of
  one edit at a time while the target still holds). Each candidate is screened with few
  games; only candidates whose screening intervals all reach the band get more games
  (the runner's adaptive sampling, ``ci_width``). Every candidate is kept.
* :func:`prove`: the best proposal replayed on a fresh seed with enough games that every
  matchup's 95% interval has a half-width of at most ``proof_width``; it "meets the band"
  only if every interval lies inside it, otherwise the miss is reported.

Why Optuna's TPE (and not CMA-ES or our own N-tuple bandit): the numbers are integers on
grids (steps), the target is a constraint and the cost an objective (TPE's
``constraints_func`` ranks feasible trials by cost and infeasible ones by their miss), it
runs from an ask/tell loop we drive (our budget, our evaluations, common seeds), is
seeded and reproducible, and the library is well maintained. CMA-ES works on a
continuous space and has no constraint handling of its own; NTBEA has no maintained
library.
"""
from __future__ import annotations

import contextlib
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path


from simcore.errors import PlaytestError

from .stats import wilson, z_value

COST_MODES = ("relative", "units")


# ------------------------------------------------------------------ inputs
@dataclass
class Param:
    """One editable number."""
    name: str
    base: int
    lo: int
    hi: int
    step: int = 1
    weight: float = 1.0
    auto: bool = False      # from --vary auto: its bounds shrink to the values the loader takes

    @property
    def grid(self) -> list[int]:
        g = set(range(self.lo, self.hi + 1, self.step)) | {self.hi}
        if self.lo <= self.base <= self.hi:
            g.add(self.base)
        return sorted(g)

    def cost(self, value: int, mode: str = "relative") -> float:
        d = abs(int(value) - self.base)
        return self.weight * (d if mode == "units" else d / max(1, abs(self.base)))


_VARY = re.compile(r"^\s*(?P<name>[^=]+?)\s*=\s*(?P<lo>-?\d+)\s*\.\.\s*(?P<hi>-?\d+)\s*"
                   r"(?::\s*(?P<step>-?\d+))?\s*(?:@\s*(?P<w>[-+0-9.eE]+))?\s*$")
VARY_HELP = "NAME=LO..HI[:STEP][@WEIGHT] (e.g. \"light.Holy Attack.damage=5..14\"), or auto, or auto=HERO,HERO"


def parse_vary(text: str) -> tuple:
    """``("auto", [heroes])`` or ``(name, lo, hi, step, weight)``; syntax only (the edit
    space resolves the name)."""
    t = str(text).strip()
    if t.lower() == "auto" or t.lower().startswith("auto="):
        heroes = [h.strip() for h in t[5:].split(",") if h.strip()] if "=" in t else []
        return ("auto", heroes)
    m = _VARY.match(t)
    if not m:
        raise PlaytestError(f"malformed {t!r}: expected {VARY_HELP}", field="--vary")
    lo, hi = int(m["lo"]), int(m["hi"])
    step = int(m["step"]) if m["step"] is not None else 1
    try:
        w = float(m["w"]) if m["w"] is not None else 1.0
    except ValueError:
        raise PlaytestError(f"malformed weight in {t!r}", field="--vary") from None
    if lo > hi:
        raise PlaytestError(f"empty range {lo}..{hi} in {t!r} (LO must be <= HI)", field="--vary")
    if step < 1:
        raise PlaytestError(f"step must be a whole number >= 1, got {step} in {t!r}", field="--vary")
    if not (w > 0 and math.isfinite(w)):
        raise PlaytestError(f"weight must be a positive number, got {m['w']} in {t!r}", field="--vary")
    return (m["name"].strip(), lo, hi, step, w)


def auto_range(value: int) -> tuple[int, int]:
    """+-50% in whole steps (at least one step either way), never crossing 0: a positive
    number stays at 0 or above, a negative one (Dice Throne's ``cp = -1``, a CP loss) at 0
    or below."""
    d = max(1, abs(int(value)) // 2)
    if value < 0:
        return value - d, min(0, value + d)
    return max(0, value - d), value + d


def build_params(space, specs: list[str]) -> list[Param]:
    """Every --vary resolved against the game's data, before any game is played."""
    if not specs:
        raise PlaytestError(f"say what may change: --vary {VARY_HELP}", field="--vary")
    out: dict[str, Param] = {}
    for text in specs:
        p = parse_vary(text)
        if p[0] == "auto":
            for name, base in space.auto_params(p[1]):
                lo, hi = auto_range(base)
                out.setdefault(name, Param(name, base, lo, hi, auto=True))
            continue
        name, lo, hi, step, w = p
        canon, base, (vmin, vmax) = space.resolve(name)
        if lo < vmin or hi > vmax:
            raise PlaytestError(f"{canon} takes values {vmin}..{vmax}, got {lo}..{hi}", field="--vary")
        if canon in out and text.strip().lower() != "auto":
            raise PlaytestError(f"{canon} is named twice", field="--vary")
        out[canon] = Param(canon, base, lo, hi, step, w)
    params = [p for p in out.values() if len(p.grid) > 1]
    if not params:
        raise PlaytestError("nothing to vary: every range holds a single value", field="--vary")
    return params


def parse_band(text: str) -> tuple[float, float]:
    parts = [x.strip() for x in str(text).replace("-", ",").split(",") if x.strip()] if text else []
    try:
        lo, hi = (float(x) for x in parts)
    except ValueError:
        raise PlaytestError(f"expected LOW,HIGH in percent (e.g. 45,55), got {text!r}", field="--band") from None
    if not (0 <= lo < hi <= 100):
        raise PlaytestError(f"must satisfy 0 <= LOW < HIGH <= 100 (percent), got {text!r}", field="--band")
    return lo / 100, hi / 100


def parse_spread(value) -> float:
    try:
        s = float(value)
    except (TypeError, ValueError):
        raise PlaytestError(f"must be a number of points, got {value!r}", field="--spread") from None
    if not (0 < s <= 100):
        raise PlaytestError(f"must be in (0, 100] points, got {value!r}", field="--spread")
    return s / 100


def parse_budget(text) -> tuple[str, float]:
    """``("games", n)`` or ``("seconds", s)``: "2000000", "2e6", "300s", "5m"."""
    t = str(text).strip().lower()
    m = re.match(r"^([-+]?[0-9.]+(?:e[-+]?\d+)?)\s*(s|sec|seconds|m|min|minutes|games|g)?$", t)
    if not m:
        raise PlaytestError(f"expected a number of games (2000000) or of seconds (300s, 5m), got {text!r}",
                            field="--budget")
    v = float(m[1])
    unit = m[2] or "games"
    if not (v > 0 and math.isfinite(v)):
        raise PlaytestError(f"must be positive, got {text!r}", field="--budget")
    if unit.startswith("m"):
        return "seconds", v * 60
    if unit.startswith("s"):
        return "seconds", v
    return "games", float(int(v))


@dataclass
class Target:
    band: tuple | None = None     # (low, high) as fractions
    spread: float | None = None   # max spread between heroes vs the field, fraction

    def describe(self) -> str:
        if self.band:
            return f"every matchup inside {100 * self.band[0]:g}-{100 * self.band[1]:g}%"
        return f"spread between the strongest and the weakest at most {100 * self.spread:g} points"

    def as_json(self) -> dict:
        return {"band": [100 * x for x in self.band] if self.band else None,
                "spread": 100 * self.spread if self.spread is not None else None}

    def shrunk(self, margin: float) -> "Target":
        """The target the search aims at so that a proof can pass: the band narrowed by
        ``margin`` (a fraction) on each side, the spread by twice it. A candidate whose
        win rates sit just inside the band on the search's seeds lands outside it about
        half the time on the proof's fresh seeds; one ``margin`` (the proof's half-width)
        inside leaves its interval room."""
        if margin <= 0:
            return self
        if self.band:
            lo, hi = self.band
            if hi - lo <= 2 * margin + 1e-9:
                raise PlaytestError(f"the band {100 * lo:g}-{100 * hi:g}% is too narrow for a margin of "
                                    f"{100 * margin:g} points on each side", field="--margin")
            return Target(band=(lo + margin, hi - margin))
        if self.spread <= 2 * margin + 1e-9:
            raise PlaytestError(f"a spread of {100 * self.spread:g} points is too small for a margin of "
                                f"{100 * margin:g} points", field="--margin")
        return Target(spread=self.spread - 2 * margin)

    def miss(self, ev: "Evaluation", intervals: bool = False) -> float:
        """How far (fraction) the worst matchup lies outside the band, 0 inside; with
        ``intervals``, the intervals must lie inside (the proof's test)."""
        if self.band:
            lo, hi = self.band
            worst = 0.0
            for r in ev.rows:
                a, b = (r["x_ci"][0], r["x_ci"][1]) if intervals else (r["x"], r["x"])
                worst = max(worst, lo - a, b - hi)
            return max(0.0, worst)
        worst = 0.0
        for rows in ev.by_strategy(ev.field_rows).values():
            if intervals:
                s = max(r["x_ci"][1] for r in rows) - min(r["x_ci"][0] for r in rows)
            else:
                s = max(r["x"] for r in rows) - min(r["x"] for r in rows)
            worst = max(worst, s - self.spread)
        return max(0.0, worst)

    def violation(self, ev: "Evaluation") -> float:
        """The sum over matchups of their distance outside the band (the spread's excess
        per strategy): 0 exactly when ``miss`` is 0, and a smoother guide for the search
        than the worst matchup alone."""
        if self.band:
            lo, hi = self.band
            return float(sum(max(0.0, lo - r["x"], r["x"] - hi) for r in ev.rows))
        return float(sum(max(0.0, max(r["x"] for r in rows) - min(r["x"] for r in rows) - self.spread)
                         for rows in ev.by_strategy(ev.field_rows).values()))

    def near(self, ev: "Evaluation") -> bool:
        """Could the band be met given the screening intervals (every interval reaches it)?"""
        if self.band:
            lo, hi = self.band
            return all(r["x_ci"][1] >= lo and r["x_ci"][0] <= hi for r in ev.rows)
        for rows in ev.by_strategy(ev.field_rows).values():
            # the smallest spread the intervals allow
            if min(r["x_ci"][1] for r in rows) < max(r["x_ci"][0] for r in rows) - self.spread:
                return False
        return True


# ------------------------------------------------------------------ evaluation
@dataclass
class Evaluation:
    rows: list            # matchups (or roles): {"strategy", "label", "entrants", "k", "n", "x", "x_ci"}
    field_rows: list      # heroes vs the field per strategy (roles: the roles again)
    games: int
    seconds: float
    result: object = None  # analysis.runs.RunResult; in a team or free-for-all mode, a dict of counts

    @staticmethod
    def by_strategy(rows) -> dict:
        out: dict = {}
        for r in rows:
            out.setdefault(r["strategy"], []).append(r)
        return out


def _rate_row(strategy, label, entrants, k, n) -> dict:
    lo, hi = wilson(k, n) if n else (float("nan"), float("nan"))
    return {"strategy": strategy, "label": label, "entrants": list(entrants), "k": float(k), "n": int(n),
            "x": float(k) / n if n else float("nan"), "x_ci": [float(lo), float(hi)]}


def plan_for(space, strategies: list[str]) -> list:
    """Every unordered pair of distinct heroes in both seat orders (a mirror is 50% by
    construction once both seats are pooled), under each strategy in self-play; or every
    role, each strategy in every seat."""
    gt = space.type
    plan = []
    for s in strategies:
        if gt.entrants == "heroes":
            n = len(space.entrants)
            for a in range(n):
                for b in range(a + 1, n):
                    plan += [((a, b), (s, s)), ((b, a), (s, s))]
        else:
            plan.append((tuple(range(space.seats)), (s,) * space.seats))
    return plan


def summarise(space, res) -> tuple[list, list]:
    """Matchup rows (hero pairs pooled over both seat orders; roles) and field rows."""
    from analysis.runs import seat_scores

    gt = space.type
    names = space.entrants
    rows, field_rows = [], []
    if gt.entrants == "heroes":
        acc: dict = {}
        for m in res.matchups:
            wins, draws, capped, n = seat_scores(m.records, 2)
            s = m.strategies[0]
            a, b = m.lineup
            key = (s, min(a, b), max(a, b))
            c = acc.setdefault(key, [0.0, 0])
            c[0] += (wins[0] if a < b else wins[1]) + 0.5 * draws
            c[1] += n - capped
        per_hero: dict = {}
        for (s, a, b), (k, n) in acc.items():
            rows.append(_rate_row(s, f"{names[a]} vs {names[b]}", (names[a], names[b]), k, n))
            for h, kk in ((a, k), (b, n - k)):
                c = per_hero.setdefault((s, h), [0.0, 0])
                c[0] += kk
                c[1] += n
        for (s, h), (k, n) in sorted(per_hero.items()):
            field_rows.append(_rate_row(s, f"{names[h]} vs the field", (names[h],), k, n))
    else:
        for m in res.matchups:
            wins, draws, capped, n = seat_scores(m.records, res.seats)
            share = 1.0 / res.seats
            for seat in range(res.seats):
                r = _rate_row(m.strategies[0], gt.seat_label(seat), (gt.seat_label(seat),),
                              wins[seat] + share * draws, n - capped)
                rows.append(r)
        field_rows = rows
    return rows, field_rows


def table_mode(space):
    """The game's team or free-for-all mode under the space's rules (Dice Throne's
    ``mode``: its ``GameAPI.table_mode``), or None: matchups of the shared runner."""
    fn = getattr(space.api, "table_mode", None)
    return fn(space.rules) if fn is not None else None


def even_share(space) -> float:
    """What a balanced entrant scores: 1/2 (a matchup, or two teams), 1/3 (three teams),
    1/K (a free-for-all of K); a role or a seat: 1/seats."""
    mode = table_mode(space)
    if mode is None:
        return 0.5 if space.type.entrants == "heroes" else 1.0 / space.seats
    return 1.0 / (int(mode[3:]) if mode.startswith("ffa") else 3 if mode == "2v2v2" else 2)


def _evaluate_tables(space, mode, values: dict, strategies: list[str], games: int, seed: int,
                     ci_width: float | None, max_games: int | None) -> Evaluation:
    """``evaluate`` in a team or free-for-all mode: every composition (every free-for-all
    table) of the space's heroes in every seating, ``games`` games a table spread over its
    seatings, on common seeds; with ``ci_width``, blocks of that many more until every row's
    interval is that narrow or ``max_games`` a table. Rows: ``analysis.modes.fix_rows``."""
    import numpy as np

    from analysis.modes import fix_rows

    t0 = time.perf_counter()
    rules, content = space.variant(values)
    tables, seatings, names, play = space.api.table_plan(rules, content, space.params)
    step = max(1, math.ceil(games / seatings))
    cap = max(step, math.ceil((max_games or games * 100) / seatings)) if ci_width is not None else step
    rows, field_rows, total, capped = [], [], 0, 0
    for s in strategies:
        parts = [play(t, 0, step, seed, s) for t in tables]
        done = step
        while True:
            r, f = fix_rows(parts, tables, mode, names)
            widest = max(_half_width(k, n) for _, _, k, n in r)
            if ci_width is None or widest <= ci_width or done >= cap:
                break
            more = min(step, cap - done)
            parts = [_joined(p, play(t, done, more, seed, s)) for p, t in zip(parts, tables)]
            done += more
        rows += [_rate_row(s, label, ent, k, n) for label, ent, k, n in r]
        field_rows += [_rate_row(s, label, ent, k, n) for label, ent, k, n in f]
        total += sum(len(p["winner"]) for p in parts)
        capped += sum(int(np.asarray(p["capped"]).sum()) for p in parts)
    return Evaluation(rows, field_rows, total, time.perf_counter() - t0,
                      {"mode": mode, "games": total, "capped": capped, "tables": len(tables), "seatings": seatings,
                       "games_per_seating": done, "rules": rules})


def _half_width(k: float, n: int) -> float:
    """Half the width of the Wilson interval of ``k`` in ``n`` (1 with no game)."""
    if not n:
        return 1.0
    lo, hi = wilson(k, n)
    return (hi - lo) / 2


def _joined(a: dict, b: dict) -> dict:
    """Two record blocks of the same games' columns, one after the other."""
    import numpy as np

    return {c: np.concatenate([a[c], b[c]]) for c in a}


def evaluate(space, values: dict, strategies: list[str], games: int, seed: int, jobs: int = 1,
             ci_width: float | None = None, max_games: int | None = None, execution=None) -> Evaluation:
    """One tournament of the variant ``values`` (the shared runner, common seeds);
    ``execution`` (``analysis.execution.Execution``): e.g. a results store to keep it in.
    In a team or free-for-all mode (``table_mode``): ``_evaluate_tables``, whose result is
    a dict of its counts (no stored run)."""
    from analysis.runs import run

    mode = table_mode(space)
    if mode is not None:
        return _evaluate_tables(space, mode, values, strategies, games, seed, ci_width, max_games)
    t0 = time.perf_counter()
    rules, content = space.variant(values)
    setup = space.api.make_setup(rules, content, space.seats, space.params)
    res = run(space.game, setup, space.entrants, plan_for(space, strategies), games, seed, rules,
              space.defaults, jobs, ci_width=ci_width, max_games=max_games, execution=execution)
    rows, field_rows = summarise(space, res)
    n = int(sum(m.games for m in res.matchups))
    return Evaluation(rows, field_rows, n, time.perf_counter() - t0, res)


def proof_games(half_width: float, conf: float = 0.95) -> int:
    """Games (not capped) after which a Wilson interval's half-width is at most
    ``half_width`` whatever the rate: half-width <= z / (2 sqrt(n + z^2))."""
    z = z_value(conf)
    return max(1, math.ceil((z / (2 * half_width)) ** 2 - z * z))


# ------------------------------------------------------------------ search
@dataclass
class Candidate:
    id: int
    phase: str               # "baseline", "search", "shrink"
    values: dict
    cost: float
    miss: float              # point estimates' miss (fraction), after refinement if any
    violation: float         # sum of every matchup's distance outside (fraction): the search's constraint
    feasible: bool
    refined: bool
    games: int
    seconds: float
    worst: str = ""
    evaluation: Evaluation | None = None
    repeat_of: int | None = None


@dataclass
class SearchResult:
    params: list
    candidates: list
    best: Candidate
    baseline: Candidate
    games: int
    seconds: float
    optimiser: str
    stopped_by: str
    focus: list = field(default_factory=list)
    focus_rounds: list = field(default_factory=list)

    def edits(self) -> list[dict]:
        return [{"name": p.name, "from": p.base, "to": int(self.best.values[p.name]),
                 "cost": p.cost(self.best.values[p.name], self._mode)}
                for p in self.params if self.best.values[p.name] != p.base]

    _mode: str = "relative"


class Budget:
    def __init__(self, kind: str, amount: float, should_stop=None):
        self.kind, self.amount = kind, amount
        self.t0 = time.perf_counter()
        self.games = 0
        self.should_stop = should_stop
        self.stopped = False

    def spent(self) -> float:
        if not self.stopped and self.should_stop is not None and self.should_stop():
            self.stopped = True
        if self.stopped:  # asked to stop: everything counts as spent
            return self.amount
        return self.games if self.kind == "games" else time.perf_counter() - self.t0

    def left(self) -> bool:
        return self.spent() < self.amount


def _worst(target: Target, ev: Evaluation) -> str:
    if target.band:
        lo, hi = target.band
        r = max(ev.rows, key=lambda r: max(lo - r["x"], r["x"] - hi))
        return f"{r['label']} ({r['strategy']}) {100 * r['x']:.1f}%"
    parts = []
    for s, rows in ev.by_strategy(ev.field_rows).items():
        parts.append(f"{s}: spread {100 * (max(r['x'] for r in rows) - min(r['x'] for r in rows)):.1f}")
    return "; ".join(parts)


def search(space, params: list[Param], target: Target, strategies: list[str], budget: tuple, seed: int,
           search_seed: int = 0, screen_games: int = 1000, refine_width: float | None = 0.01,
           refine_games: int | None = None, cost_mode: str = "relative", jobs: int = 1,
           shrink_share: float = 0.25, progress: bool = False, focus: int | None = 12,
           focus_share: float = 0.35, on_candidate=None, should_stop=None, lock=None,
           start: dict | None = None) -> SearchResult:
    """Optuna TPE (constraint: the target's summed violation; objective: the cost), then a
    greedy shrink of the best edit set; every candidate kept.

    ``focus``: with more numbers than this, first a one-at-a-time screening (each number
    alone at its lower and its upper bound, the others at their current values; at most
    ``focus_share`` of the budget) ranks the numbers by how much they alone reduce the
    violation, and the sampler searches only the ``focus`` best (a sampler started at
    random points of a 50-number space touches every number; small edit sets need a
    small space).

    ``on_candidate(candidate)`` is called with every candidate as soon as it is evaluated
    (the results store keeps it: ``scripts/fix_cli.py``; the playground shows progress);
    ``should_stop()`` returning true ends the search between candidates (the page's
    cancel), like a spent budget. ``lock``: held around each evaluation (the playground
    lets one run at a time into the engines).

    ``start``: values to search from (a later stage of ``playtest GAME fix`` starts from the
    previous stage's proposal); costs are still counted from each number's ``base`` (the
    shipped files), and the baseline is still the shipped values."""
    import warnings

    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    b = Budget(*budget, should_stop)
    refine_games = refine_games or 16 * screen_games
    cands: list[Candidate] = []
    memo: dict = {}
    names = [p.name for p in params]
    all_names = tuple(names)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=b.amount, unit=" games" if b.kind == "games" else " s", unit_scale=True,
                   desc="fix", leave=True, dynamic_ncols=True)

    def best_so_far() -> Candidate | None:
        feas = [c for c in cands if c.feasible]
        if feas:
            return min(feas, key=lambda c: (c.cost, c.miss, c.id))
        return min(cands, key=lambda c: (c.miss, c.violation, c.cost, c.id)) if cands else None

    def assess(values: dict, phase: str, refine: bool = True) -> Candidate:
        key = tuple(int(values[n]) for n in all_names)
        cost = sum(p.cost(values[p.name], cost_mode) for p in params)
        prev = memo.get(key)
        if prev is not None and refine and refine_width and not prev.refined and target.near(prev.evaluation):
            prev = None  # screened only (a sensitivity probe) but near the band: assess it in full
        if prev is not None:
            c = Candidate(len(cands), phase, dict(values), cost, prev.miss, prev.violation, prev.feasible,
                          prev.refined, 0, 0.0, prev.worst, prev.evaluation, repeat_of=prev.id)
            cands.append(c)
            if on_candidate is not None:
                on_candidate(c)
            return c
        t0 = time.perf_counter()
        with lock or contextlib.nullcontext():
            ev = evaluate(space, values, strategies, screen_games, seed, jobs)
        games = ev.games
        refined = False
        if refine and refine_width and target.near(ev):
            with lock or contextlib.nullcontext():
                ev = evaluate(space, values, strategies, screen_games, seed, jobs, ci_width=refine_width,
                              max_games=refine_games)
            games += ev.games
            refined = True
        miss = target.miss(ev)
        c = Candidate(len(cands), phase, dict(values), cost, miss, target.violation(ev),
                      miss == 0 and (refined or not refine_width), refined, games, time.perf_counter() - t0,
                      _worst(target, ev), ev)
        cands.append(c)
        memo[key] = c
        b.games += games
        if on_candidate is not None:
            on_candidate(c)
        if bar is not None:
            bar.n = min(b.amount, b.spent())
            best = best_so_far()
            bar.set_postfix_str(f"best: cost {best.cost:.2f}, miss {100 * best.miss:.1f} pts"
                                + (" (meets the band on screening)" if best.feasible else ""))
            bar.refresh()
        return c

    base = {p.name: p.base for p in params}
    t_start = time.perf_counter()
    grids = {p.name: p.grid for p in params}
    # optuna >= 5 reads constraints set on the trial; 4.x takes a constraints_func
    set_constraint = hasattr(optuna.trial.Trial, "set_constraint")
    old_api = {} if set_constraint else {"constraints_func": lambda ft: (ft.user_attrs["violation"],)}
    stopped_by = "budget"
    state: dict = {}

    def new_study(names_: list, center: dict, round_: int) -> None:
        """A TPE study over ``names_``, the other numbers held at ``center``; the center
        is its first trial (tells the sampler where it starts)."""
        sampler = optuna.samplers.TPESampler(seed=search_seed + round_, multivariate=True,
                                             n_startup_trials=min(10, 2 + 2 * len(names_)), **old_api)
        study = optuna.create_study(direction="minimize", sampler=sampler)
        dists = {n: optuna.distributions.IntDistribution(0, len(grids[n]) - 1) for n in names_}
        state.update(study=study, dists=dists, names=names_, center=center, repeats=0, tried=set(),
                     size=math.prod(len(grids[n]) for n in names_))
        if all(center[n] in grids[n] for n in names_):
            study.enqueue_trial({n: grids[n].index(center[n]) for n in names_})
            trial_of("baseline" if round_ == 0 and center == base else "search")

    def trial_of(phase: str) -> Candidate:
        study, names_ = state["study"], state["names"]
        trial = study.ask(state["dists"])
        values = {**state["center"], **{n: grids[n][trial.params[n]] for n in names_}}
        state["tried"].add(tuple(values[n] for n in names_))
        c = assess(values, phase)
        trial.set_user_attr("violation", c.violation)
        if set_constraint:
            trial.set_constraint("violation", c.violation)
        study.tell(trial, c.cost)
        return c

    def focus_on(center: dict, center_violation: float) -> list:
        """One-at-a-time screening around ``center``: the ``focus`` numbers that alone
        reduce the violation most (at most ``focus_share`` of what is left)."""
        end = b.spent() + (b.amount - b.spent()) * focus_share
        gain: dict = {}
        for p in params:
            for v in (p.lo, p.hi):
                if v == center[p.name] or b.spent() >= end:
                    continue
                c = assess({**center, p.name: v}, "sensitivity", refine=False)  # a ranking: screening suffices
                gain[p.name] = min(gain.get(p.name, math.inf), c.violation)
        ranked = sorted((p for p in params if p.name in gain), key=lambda p: (gain[p.name], p.name))
        helps = [p for p in ranked if gain[p.name] < center_violation]
        return [p.name for p in (helps or ranked)[:focus]]

    baseline = assess(base, "baseline")
    best = baseline
    if start is not None and not baseline.feasible:
        unknown = sorted(set(start) - set(all_names))
        if unknown:
            raise PlaytestError(f"start values name numbers that may not change: {', '.join(unknown)}",
                                field="start")
        start_values = {**base, **{n: int(v) for n, v in start.items()}}
        if start_values != base:
            best = assess(start_values, "start")
    focused: list = []
    use_focus = bool(focus) and len(params) > focus

    def accept(c: Candidate) -> bool:
        if c.cost >= best.cost:
            return False
        if best.feasible:
            return c.feasible
        return c.feasible or (c.miss <= best.miss + 1e-12 and c.violation <= best.violation + 1e-12)

    # rounds of (focus, sampler, shrink) until the budget is spent: the sampler gets
    # 1 - shrink_share of what is left; with many numbers each round re-focuses around
    # the best candidate so far (the numbers that mattered at the start may not be the
    # ones that close the last gaps)
    rounds = 0
    while b.left() and not baseline.feasible:
        center = best.values if not best.feasible else base
        if use_focus and (rounds == 0 or not best.feasible):
            names = focus_on(center, best.violation) or names
            focused.append(list(names))
        if rounds == 0 or use_focus:
            new_study(list(names), dict(center), rounds)
        rounds += 1
        games_before = b.games
        search_end = b.spent() + (b.amount - b.spent()) * (1 - shrink_share)
        exhausted = False
        while b.spent() < search_end:
            if len(state["tried"]) >= state["size"]:
                stopped_by, exhausted = (f"every combination of round {rounds}'s focus was tried" if use_focus
                                         else "every combination of the allowed values was tried"), True
                break
            if state["repeats"] >= 50:
                stopped_by, exhausted = "the sampler proposed only candidates already tried (50 in a row)", True
                break
            c = trial_of("search")
            state["repeats"] = state["repeats"] + 1 if c.repeat_of is not None else 0
        # greedy shrink of the best edit set: undo one edit entirely, else one grid step
        # of one edit (the costliest first), whenever the target still holds; when nothing
        # met the target, whenever the miss and the violation get no worse (drops the
        # edits that do not help, which the sampler's random starts leave behind)
        best = best_so_far()
        while b.left():
            improved = False
            edited = sorted((p for p in params if best.values[p.name] != p.base),
                            key=lambda p: -p.cost(best.values[p.name], cost_mode))
            moves = [(p, p.base) for p in edited]
            for p in edited:
                g = grids[p.name]
                i = g.index(best.values[p.name])
                j = i - 1 if best.values[p.name] > p.base else i + 1
                if 0 <= j < len(g) and g[j] != p.base:
                    moves.append((p, g[j]))
            for p, v in moves:
                if not b.left():
                    break
                c = assess({**best.values, p.name: v}, "shrink")
                if accept(c):
                    best, improved = c, True
                    break
            if not improved:
                break
        if exhausted and (not use_focus or b.games == games_before):
            break
    if b.stopped:
        stopped_by = "stopped on request"
    if rounds:
        stopped_by = f"{stopped_by} after {rounds} round(s) of sampler + shrink"
    best = best if not baseline.feasible else baseline
    if baseline.feasible:
        stopped_by = "the current values already meet the target"
    if bar is not None:
        bar.close()
    res = SearchResult(params, cands, best, baseline, b.games, time.perf_counter() - t_start,
                       f"optuna {optuna.__version__} TPESampler(constraints, multivariate, seed={search_seed}) "
                       "+ greedy shrink", stopped_by)
    res._mode = cost_mode
    res.focus = focused[0] if focused else []
    res.focus_rounds = focused
    return res


def candidate_row(c: Candidate, params: list, cost_mode: str = "relative") -> dict:
    """One candidate as the results store keeps it: the edited values, the cost, the
    miss, and every matchup's (role's) win rate with its 95% interval and games."""
    ev = c.evaluation
    return {"id": c.id, "phase": c.phase, "cost": round(float(c.cost), 6),
            "miss_points": round(100 * c.miss, 4), "violation_points": round(100 * c.violation, 4),
            "feasible": bool(c.feasible), "refined": bool(c.refined), "games": int(c.games),
            "seconds": round(float(c.seconds), 3), "worst": c.worst,
            "repeat_of": -1 if c.repeat_of is None else int(c.repeat_of),
            "edits": len([p for p in params if int(c.values[p.name]) != p.base]),
            "values": {p.name: int(c.values[p.name]) for p in params},
            "rates": [{"matchup": r["label"], "strategy": r["strategy"], "win_rate": r["x"],
                       "win_rate_ci": list(r["x_ci"]), "games": r["n"]} for r in (ev.rows if ev else [])]}


def candidates_table(result: SearchResult):
    import pandas as pd

    rows = []
    for c in result.candidates:
        row = {"id": c.id, "phase": c.phase, "cost": round(c.cost, 6), "miss_points": round(100 * c.miss, 4),
               "violation_points": round(100 * c.violation, 4), "feasible": c.feasible, "refined": c.refined,
               "games": c.games, "seconds": round(c.seconds, 3),
               "worst": c.worst, "repeat_of": -1 if c.repeat_of is None else c.repeat_of}
        for p in result.params:
            row[p.name] = int(c.values[p.name])
        rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ proof
@dataclass
class Proof:
    evaluation: Evaluation
    seed: int
    width: float
    meets: bool
    miss_intervals: float   # how far the worst interval sticks out of the band (fraction)
    miss_points: float      # how far the worst point estimate lies outside (fraction)
    max_half_width: float
    games_per_seat_order: int


def prove(space, values: dict, target: Target, strategies: list[str], seed: int, width: float = 0.005,
          jobs: int = 1, execution_factory=None) -> Proof:
    """Replay ``values`` on ``seed`` with games enough for every matchup's (or role's)
    interval to have a half-width <= ``width`` (fixed in advance from the worst case, so
    no optional stopping); if capped games leave a matchup short, play more.
    ``execution_factory()``: a fresh ``Execution`` per attempt (a stored proof run)."""
    need = proof_games(width)
    # a matchup pools both seat orders; a role, and a team or free-for-all table, is one run
    per = need if space.type.entrants != "heroes" or table_mode(space) is not None else math.ceil(need / 2)
    for _ in range(4):
        ev = evaluate(space, values, strategies, per, seed, jobs,
                      execution=execution_factory() if execution_factory is not None else None)
        hw = max((r["x_ci"][1] - r["x_ci"][0]) / 2 for r in ev.rows)
        if hw <= width + 1e-12:
            break
        per = math.ceil(per * 1.25)
    meets = target.miss(ev, intervals=True) == 0 and hw <= width + 1e-12
    return Proof(ev, seed, width, meets, target.miss(ev, intervals=True), target.miss(ev), hw, per)


def derive_proof_seed(seed: int) -> int:
    """A fresh seed, never the search's: a fixed odd multiplier, mod 2**63."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (2**63)


def stage_seeds(seed: int, proof_seed: int, stages: int) -> list[tuple[int, int]]:
    """(search seed, proof seed) of each stage of ``playtest GAME fix --stages K``: the
    first stage's are the user's; each later stage searches on common seeds and proves on
    a seed that no earlier stage used (a later stage must not tune to the proof that
    rejected the stage before it)."""
    out = [(seed, proof_seed)]
    used = {seed, proof_seed}
    for k in range(2, stages + 1):
        s = (seed * 0xD1B54A32D192ED03 + k * 0x8CB92BA72F3D8DD7) % (2**63)
        while s in used or derive_proof_seed(s) in used:
            s = (s + 1) % (2**63)
        p = derive_proof_seed(s)
        used |= {s, p}
        out.append((s, p))
    return out


# ------------------------------------------------------------------ the playground's entry
SUGGEST_MAX_PARAMS = 40


def suggest(prep, band=(0.45, 0.55), budget_games: int = 200_000, search_seed: int = 0, on_progress=None,
            should_stop=None, lock=None, focus: int = 8) -> dict:
    """The fix search for the playground (``playtest serve``): ``prep`` is the page's
    validated request (``playground.service.Prepared``: game, chosen heroes, strategies,
    games, seed, and the edits already made, which are the starting point). It varies
    every non-zero whole number of the chosen heroes (``--vary auto``; a game without
    content: its whole-number rule options) within +-50%, for a bounded number of games
    (``budget_games``), screening each candidate with the page's games per seat order on
    the page's seed (common random numbers); ``on_progress(games, budget, text)`` after
    every candidate, ``should_stop()`` cancels. No proof run (the page's budget is small):
    the answer says so and gives the command that searches and proves
    (``playtest GAME fix``).

    Returns ``{"edits": {key: value}}`` (the page's edits with the proposal on top: load
    them as the edit stack), the proposal's changes with their cost, the best candidate's
    rates with intervals, the baseline's, and the search's figures."""
    space = EditableSpace.of(prep.game, prep.rules, prep.content, prep.seats,
                             prep.entrant_keys if prep.gt.entrants == "heroes" else None)
    heroes = list(prep.entrant_keys) if prep.gt.entrants == "heroes" else []
    params = []
    for name, base in space.auto_params(heroes) if space.has_content() else space.rule_params():
        lo, hi = auto_range(base)
        params.append(Param(name, base, lo, hi))
    params = [p for p in params if len(p.grid) > 1]
    # every hero's numbers in turn (a, b, a, b...): the one-at-a-time screening spends a
    # share of a small budget in this order, and must reach every hero's first numbers
    groups: dict = {}
    for p in params:
        parts = p.name.split(".")
        groups.setdefault(parts[1] if parts[0] == "hero" and len(parts) > 2 else "", []).append(p)
    params = [g[i] for i in range(max(map(len, groups.values()), default=0)) for g in groups.values()
              if i < len(g)][:SUGGEST_MAX_PARAMS]
    if not params:
        raise PlaytestError("this game offers no whole number to vary", field="fix")
    target = Target(band=tuple(band))
    seen = {"n": 0}

    def note(c: Candidate) -> None:
        seen["n"] += 1
        if on_progress is not None:
            best = c if c.feasible else None
            on_progress(c, seen["n"], best)

    res = search(space, params, target, list(prep.strategies), ("games", float(budget_games)), prep.seed,
                 search_seed, screen_games=prep.games, refine_width=0.02, refine_games=4 * prep.games,
                 focus=focus, on_candidate=note, should_stop=should_stop, lock=lock)
    changes = {e["name"]: e["to"] for e in res.edits()}
    edits = {**prep.edits, **changes}

    def rates(c: Candidate) -> list:
        return [{"matchup": r["label"], "strategy": r["strategy"], "win_rate": r["x"], "win_rate_ci": r["x_ci"],
                 "games": r["n"]} for r in (c.evaluation.rows if c.evaluation else [])]

    import shlex

    vary = " ".join(f"--vary {shlex.quote(f'{p.name}={p.lo}..{p.hi}')}" for p in params
                    if p.name in changes) or "--vary auto"
    lo, hi = (round(100 * x, 4) for x in band)
    return {"edits": edits, "changes": res.edits(), "cost": round(sum(e["cost"] for e in res.edits()), 6),
            "band": [lo, hi], "meets_band_on_screening": bool(res.best.feasible and changes),
            "already_meets": bool(res.baseline.feasible),
            "miss_points": round(100 * res.best.miss, 4), "baseline_miss_points": round(100 * res.baseline.miss, 4),
            "best": rates(res.best), "baseline": rates(res.baseline),
            "candidates": len(res.candidates), "games": res.games, "seconds": round(res.seconds, 3),
            "stopped_by": res.stopped_by, "optimiser": res.optimiser, "params": len(params),
            "proven": False,
            "note": ("screening only (no proof run on a fresh seed): prove it with "
                     f"playtest {prep.game} fix --band {lo:g},{hi:g} -s {','.join(prep.strategies)} {vary}")}


# ------------------------------------------------------------------ spaces
SPACES = {"duel": "analysis.fix_duel:DuelSpace"}


def space_for(game: str, rules_file=None, sets=None, content=None, players=None, generic: bool = False):
    """The edit space of ``game``: the duel's named one (``SPACES``: "light.Holy
    Attack.damage"), else the generic one of every hero or role game
    (:class:`EditableSpace`: the numbers its ``GameAPI.editable_numbers`` offers, by their
    keys). ``generic``: the generic one for every game (the playground's edits are keys)."""
    import importlib

    from simcore.game import game_type

    gt = game_type(game)
    if gt.entrants == "seats":
        raise PlaytestError(f"{gt.title} has neither heroes nor roles: a balance target needs matchups or roles",
                            field="game")
    if game in SPACES and not generic:
        mod, _, obj = SPACES[game].partition(":")
        cls = getattr(importlib.import_module(mod), obj)
    else:
        cls = EditableSpace
    return cls(game, rules_file, sets, content, players)


class RulesSpace:
    """The rule options of any registered game as editable numbers: ``rules.OPTION``."""

    params = None   # the shared ``--param`` text (the search strategy's budget) of every variant's setup

    def __init__(self, game: str, rules_file=None, sets=None, content=None, players=None):
        from simcore.game import game_type, get_game
        from simcore.toml_io import parse_set_options

        self.game = game
        self.type = game_type(game)
        self.api = get_game(game)
        self.rules_file = rules_file
        self.overrides = parse_set_options(sets)
        self.rules = self.api.load_rules(rules_file, self.overrides)
        self.defaults = self.api.load_rules()
        self.content_path = content
        self.content = self.api.load_content(self.rules, content)
        self.entrants = self.api.entrant_names(self.content) if self.type.entrants == "heroes" else \
            [self.type.seat_label(s) for s in range(self.type.default_seats)]
        self.seats = players or self.type.default_seats
        if not self.type.min_seats <= self.seats <= self.type.max_seats:
            raise PlaytestError(f"{self.type.title} seats {self.type.min_seats}-{self.type.max_seats}",
                                field="--players")
        if self.type.entrants == "heroes" and len(self.entrants) < 2:
            raise PlaytestError("a balance target needs at least two heroes", field="--heroes")

    # names
    def resolve(self, name: str) -> tuple[str, int, tuple[int, int]]:
        """(canonical name, current value, (min, max) allowed)."""
        parts = [p.strip() for p in name.split(".")]
        if parts[0].lower() == "rules" and len(parts) == 2:
            return self._resolve_rule(parts[1])
        raise PlaytestError(f"unknown number {name!r}: {self.type.title} edits rule options only "
                            "(rules.OPTION)", field="--vary")

    def _resolve_rule(self, opt: str):
        if opt not in self.rules:
            raise PlaytestError(f"unknown rule option {opt!r} (options: {', '.join(self.rules)})", field="--vary")
        v = self.rules[opt]
        if isinstance(v, bool) or not isinstance(v, int):
            raise PlaytestError(f"rules.{opt} is not a whole number ({v!r}): it cannot be searched", field="--vary")
        return f"rules.{opt}", int(v), (0, 10**6)

    def auto_params(self, heroes: list[str]) -> list:
        raise PlaytestError(f"--vary auto edits heroes' numbers; {self.type.title} has none here: "
                            "name rule options (rules.OPTION=LO..HI)", field="--vary")

    # variants
    def rule_changes(self, values: dict) -> dict:
        return {k[6:]: int(v) for k, v in values.items() if k.startswith("rules.") and v != self.rules[k[6:]]}

    def variant(self, values: dict):
        ch = self.rule_changes(values)
        if not ch:
            return self.rules, self.content
        rules = self.api.load_rules(self.rules_file, {**self.overrides, **ch})
        return rules, self.api.load_content(rules, self.content_path)

    def check_values(self, params: list[Param]) -> None:
        """Every bound of every rule option valid on its own (a one-line error before any game)."""
        for p in params:
            if p.name.startswith("rules."):
                for v in (p.lo, p.hi):
                    try:
                        self.variant({p.name: v})
                    except PlaytestError as e:
                        raise PlaytestError(f"{p.name}={v} is not a valid value: {e.one_line()}",
                                            field="--vary") from None

    # files
    def rules_path(self):
        from pathlib import Path

        return Path(self.rules_file) if self.rules_file else self.type.folder / "rules.toml"

    def patched_files(self, values: dict) -> list[tuple[str, str, str]]:
        """``[(relative path, old text, new text)]`` of every data file an edit touches."""
        import tomlkit

        ch = self.rule_changes(values)
        if not ch:
            return []
        path = self.rules_path()
        old = path.read_text() if path.is_file() else ""  # a game without a rules file: a new one
        doc = tomlkit.parse(old)
        for k, v in ch.items():
            doc[k] = v
        return [("rules.toml", old, tomlkit.dumps(doc))]

    def source_label(self, rel: str) -> str:
        return str(self.rules_path()) if rel == "rules.toml" else rel

    def write_patched(self, values: dict, out) -> list:
        from pathlib import Path

        written = []
        for rel, _old, new in self.patched_files(values):
            p = Path(out) / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(new)
            written.append(p)
        return written


class EditableSpace(RulesSpace):
    """Any game's numbers as its ``GameAPI`` offers them to the playground
    (``editable_numbers``: keys, values, bounds; ``apply_edits``: a validated variant;
    ``export_files``: the data files' text), so one path serves every game: a rules-only
    game (the river battle: ``rules.hand_size``) and a game with content (Dice Throne:
    ``hero.pyromancer.fireball.1.damage``, ``card.play_six.cost``). ``--vary auto`` (or
    ``auto=HERO``) takes every non-zero whole number of the content (of the named heroes:
    keys ``hero.<hero>.``), not the rules."""

    def __init__(self, game: str, rules_file=None, sets=None, content=None, players=None):
        super().__init__(game, rules_file, sets, content, players)
        self.numbers = {e.key: e for e in self.api.editable_numbers(self.rules, self.content)}
        self.base_files = self.api.export_files(self.rules, self.content, self.defaults)

    @classmethod
    def of(cls, game: str, rules: dict, content, seats: int, entrants=None) -> "EditableSpace":
        """The space of data already loaded (and maybe edited): the playground's."""
        from simcore.game import game_type, get_game

        self = cls.__new__(cls)
        self.game, self.type, self.api = game, game_type(game), get_game(game)
        self.rules_file, self.overrides, self.content_path = None, {}, None
        self.rules, self.defaults, self.content = rules, self.api.load_rules(), content
        self.entrants = (list(entrants) if entrants is not None else self.api.entrant_names(content)) \
            if self.type.entrants == "heroes" else [self.type.seat_label(s) for s in range(self.type.default_seats)]
        self.seats = seats
        self.numbers = {e.key: e for e in self.api.editable_numbers(rules, content)}
        self.base_files = self.api.export_files(rules, content, self.defaults)
        return self

    def has_content(self) -> bool:
        return any(not k.startswith("rules.") and e.kind == "int" for k, e in self.numbers.items())

    def rule_params(self) -> list:
        """Every non-zero whole-number rule option (a game without content)."""
        return [(k, int(e.value)) for k, e in self.numbers.items()
                if k.startswith("rules.") and e.kind == "int" and int(e.value) != 0]

    def resolve(self, name: str):
        key = name.strip()
        e = self.numbers.get(key) or next((x for k, x in self.numbers.items() if k.lower() == key.lower()), None)
        if e is None:
            new = self.api.renamed_number(key, list(self.numbers))
            if new is not None:
                raise PlaytestError(f"{name!r} is {new} now (the game's data renamed it)", field="--vary")
            near = [k for k in self.numbers if key.lower() in k.lower()][:5]
            hint = f" (close: {', '.join(near)})" if near else \
                f" (the playground lists them; e.g. {', '.join(list(self.numbers)[:3])})"
            raise PlaytestError(f"unknown number {name!r} of {self.type.title}{hint}", field="--vary")
        if e.kind != "int":
            raise PlaytestError(f"{e.key} is a {e.kind}, not a whole number: it cannot be searched", field="--vary")
        lo = int(e.lo) if e.lo is not None else 0
        hi = int(e.hi) if e.hi is not None else 10**6
        return e.key, int(e.value), (lo, hi)

    def auto_params(self, heroes: list[str]) -> list:
        content = [e for e in self.numbers.values() if not e.key.startswith("rules.") and e.kind == "int"]
        if not content:
            return super().auto_params(heroes)
        if heroes:
            keys = self.api.entrant_names(self.content) if self.type.entrants == "heroes" else []
            pick = []
            for h in heroes:
                hit = [k for k in keys if k == h] or [k for k in keys if k.startswith(h.lower())]
                if len(hit) != 1:
                    raise PlaytestError(f"unknown hero {h!r} (heroes: {', '.join(keys)})", field="--vary")
                pick.append(hit[0])
            # the hero's numbers, and every number of its own file (its cards, its tokens)
            files = {f"{self.api.content_folder}/{k}.toml" for k in pick} if self.api.content_folder else set()
            content = [e for e in content if any(e.key.startswith(f"hero.{k}.") for k in pick) or e.file in files]
        return [(e.key, int(e.value)) for e in content if int(e.value) != 0]

    def changes(self, values: dict) -> dict:
        return {k: int(v) for k, v in values.items() if int(v) != int(self.numbers[k].value)}

    def variant(self, values: dict):
        ch = self.changes(values)
        if not ch:
            return self.rules, self.content
        return self.api.apply_edits(self.rules, self.content, ch)

    def check_values(self, params: list[Param]) -> None:
        """Both bounds of every number valid (one line naming the first that is not, before
        any game). A ``--vary auto`` range is the search's own guess: its bounds move toward
        the number's value until the loader takes them (a token's limit of 1 cannot go to
        0), and a range left with the value alone is dropped from ``params``."""
        for p in params:
            for end in ("lo", "hi"):
                v = getattr(p, end)
                while True:
                    try:
                        self.variant({p.name: v})
                        break
                    except PlaytestError as e:
                        if not p.auto or v == p.base:
                            raise PlaytestError(f"{p.name}={v} is not a valid value: {e.reason}",
                                                field="--vary") from None
                        v += 1 if v < p.base else -1
                setattr(p, end, v)
        params[:] = [p for p in params if len(p.grid) > 1]
        if not params:
            raise PlaytestError("nothing to vary: every range holds a single value", field="--vary")

    def patched_files(self, values: dict) -> list[tuple[str, str, str]]:
        rules, content = self.variant(values)
        new = self.api.export_files(rules, content, self.defaults)
        out = []
        for rel, text in new.items():
            old = self.base_files.get(rel, "")
            if text != old:
                if rel == "rules.toml":  # the user's rules file, edited in place (comments kept)
                    out += RulesSpace.patched_files(self, {k: v for k, v in values.items() if k.startswith("rules.")})
                else:
                    out.append((rel, old, text))
        return out

    def source_label(self, rel: str) -> str:
        if rel == "rules.toml":
            return super().source_label(rel)
        if rel.startswith(f"{self.api.content_folder}/"):
            base = Path(self.content_path) if self.content_path else self.type.folder / self.api.content_folder
            p = base / rel.split("/", 1)[1]
            shipped = self.type.folder / Path(rel).name
            # a file the folder does not hold came from the game's own folder (Dice Throne's
            # generic cards.toml: the folder's own if it has one, else the shipped one)
            return str(shipped if not p.exists() and shipped.is_file() else p)
        return str(self.type.folder / rel)

    def write_patched(self, values: dict, out) -> list:
        """Every data file of the proposal under ``out`` (a content folder complete, edited
        or not, so ``--heroes out/heroes`` plays it)."""
        rules, content = self.variant(values)
        written = []
        edited = {rel: new for rel, _old, new in self.patched_files(values)}
        for rel, text in self.api.export_files(rules, content, self.defaults).items():
            if rel == "rules.toml" and rel not in edited:
                continue
            p = Path(out) / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(edited.get(rel, text))
            written.append(p)
        return written


def unified_diff(files: list[tuple[str, str, str]], space=None) -> str:
    import difflib
    from pathlib import Path

    out = []
    for rel, old, new in files:
        src = space.source_label(rel) if space is not None else rel
        try:  # a path under the working directory reads as the repository's path
            src = str(Path(src).resolve().relative_to(Path.cwd().resolve()))
        except ValueError:
            src = src.lstrip("/")
        out += difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                    fromfile=f"a/{src}", tofile=f"b/{src}")
    return "".join(out)
