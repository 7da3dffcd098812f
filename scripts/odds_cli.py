"""``playtest odds ...``: exact dice odds from the command line.

    playtest odds duel --hero shadow_walker [--rolls 3] [--cp 4] [--json]
    playtest odds custom --die 1,2,3,4,5,6 --dice 5 --target large-straight --rolls 3
    playtest odds advise --hero mountain --roll 1,1,4,6,2 --rolls-left 2 --target small-straight
"""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from simcore.errors import PlaytestError

odds_app = typer.Typer(help="Exact dice odds: best-keep probabilities, keep advice, hero tables.",
                       no_args_is_help=True, rich_markup_mode=None)


def _emit_json(obj) -> None:
    typer.echo(json.dumps(obj, sort_keys=False))


def _frac(p) -> str:
    return f"{p.numerator}/{p.denominator}"


def _check_nonneg(v, field):
    if v is not None and v < 0:
        raise PlaytestError(f"must be >= 0, got {v}", field=field)


def _load_setup(rules, sets):
    from simcore.duel.model import load_setup

    overrides = {}
    for s in sets or []:
        k, eq, v = s.partition("=")
        if not eq:
            raise PlaytestError(f"expected key=value, got {s!r}", field="--set")
        try:
            import tomllib

            overrides[k.strip()] = tomllib.loads(f"v = {v.strip()}")["v"]
        except Exception:
            overrides[k.strip()] = v.strip()
    return load_setup(rules_file=rules, overrides=overrides or None)


def _bought(setup, cp: int, field="--cp") -> int:
    _check_nonneg(cp, field)
    r = setup.rules
    return max(0, min(cp // int(r["roll_cost"]), int(r["max_bought_rolls"])))


@odds_app.command("duel")
def odds_duel(
    hero: str = typer.Option(..., "--hero", help="hero key, name or unambiguous prefix (e.g. shadow_walker)"),
    rolls: Optional[int] = typer.Option(None, "--rolls", help="free rolls (default: the rules' 'rolls', 3)"),
    cp: int = typer.Option(0, "--cp", help="CP available to buy extra rolls (each costs the rules' roll_cost)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    rules: Optional[str] = typer.Option(None, "--rules", help="TOML file of rule options"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
) -> None:
    """Odds of every ability (every tier) of a hero after 1..R rolls and with CP-bought rolls,
    and which ability the optimal strategy's roll phase ends with."""
    from simcore.duel.model import find_hero
    from simcore.odds.duel import end_ability_table, hero_space, hero_targets
    from simcore.odds.solver import check_rolls, solve_exact
    from strategies.duel.optimal import plans

    setup = _load_setup(rules, set_)
    if rolls is not None:
        check_rolls(rolls)
        setup.rules["rolls"] = rolls
        from simcore.duel.model import DuelSetup

        setup = DuelSetup(setup.heroes, setup.rules)
    h = find_hero(setup.heroes, hero)
    R = int(setup.rules["rolls"])
    B = _bought(setup, cp)
    extra = max(B, 4) if B == 0 else B
    extra = min(extra, int(setup.rules["max_bought_rolls"]))
    hero_o = setup.heroes[h]
    space = hero_space(hero_o, int(setup.rules["dice"]))
    rows = []
    for a, ab, t, tier, label in hero_targets(hero_o):
        sol = solve_exact(space, tier.target, R + extra)
        by = {}
        for r in range(1, R + extra + 1):
            key = str(r) if r <= R else f"{R}+{r - R}"
            by[key] = float(sol.probability(r))
        p = sol.probability(R + B)
        rows.append({"ability": ab.name, "tier": t + 1, "label": label, "target": tier.target.text,
                     "undefendable": ab.undefendable, "by_rolls": by,
                     "probability": float(p), "fraction": _frac(p)})
    plan = plans(setup)[h]
    ends = end_ability_table(plan, bought=[min(B, plan.best.shape[1] - 1)]).iloc[0].to_dict()
    if as_json:
        _emit_json({"hero": hero_o.name, "rolls": R, "cp": cp, "bought_rolls": B, "abilities": rows,
                    "optimal_ends_with": {k: float(v) for k, v in ends.items()}})
        return
    typer.echo(f"{hero_o.name}: odds of being able to activate each ability, going for it with best keeps")
    typer.echo(f"({R} free rolls; 'R+k' = k extra rolls bought at {setup.rules['roll_cost']} CP each)")
    keys = list(rows[0]["by_rolls"])
    w = max(len(r["label"]) for r in rows) + 2
    typer.echo("".ljust(w) + "".join(f"{k:>8}" for k in keys) + f"   with {cp} CP (exact)")
    for r in rows:
        typer.echo(r["label"].ljust(w) + "".join(f"{r['by_rolls'][k]:8.3f}" for k in keys)
                   + f"   {r['probability']:.4f} = {r['fraction']}")
    typer.echo(f"\nRoll phase under the optimal strategy with {cp} CP ({B} bought rolls affordable) ends with:")
    for a in hero_o.abilities:
        typer.echo(f"  {a.name.ljust(w)}{ends[a.name]:.3f}")
    typer.echo(f"  {'(none)'.ljust(w)}{ends['(none)']:.3f}")
    typer.echo(f"  expected value {ends['expected_value']:.3f}, rolls bought on average {ends['mean_rolls_bought']:.3f}")


@odds_app.command("custom")
def odds_custom(
    die: List[str] = typer.Option(..., "--die", help="six faces, comma list: '1,2,3,4,5,6' or "
                                  "'1:sword,2:sword,...'; repeat for differing dice (the first "
                                  "--die fills up to --dice)"),
    dice: Optional[int] = typer.Option(None, "--dice", help="number of dice in all, locked ones "
                                       "included (default: the number of --die, or 5 for one)"),
    target: str = typer.Option(..., "--target", help="target: '3*fist', '2*dagger+2*shadow', "
                               "small-straight, large-straight, kind:5, 'a | b'"),
    rolls: int = typer.Option(3, "--rolls", help="rolls (the first roll included), 1..12"),
    locked: Optional[str] = typer.Option(None, "--locked", help="faces already locked, e.g. '6,6' "
                                         "or '6:fist' (they count among --dice)"),
    cp: int = typer.Option(0, "--cp", help="CP budget for extra rolls"),
    roll_cost: int = typer.Option(2, "--roll-cost", help="CP per extra roll"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
) -> None:
    """Exact probability of reaching a target with the best keeps, as a fraction and a float."""
    from simcore.dice import parse_die
    from simcore.odds.solver import check_rolls, exact_odds, parse_locked

    check_rolls(rolls)
    dies = [parse_die(d, field="--die") for d in die]
    n = dice if dice is not None else (5 if len(dies) == 1 else len(dies))
    if not 1 <= n <= 6:
        raise PlaytestError(f"must be 1..6, got {n}", field="--dice")
    if len(dies) > n:
        raise PlaytestError(f"{len(dies)} --die given for {n} dice", field="--dice")
    all_dice = [dies[0]] * (n - len(dies) + 1) + dies[1:]
    lock = parse_locked(locked, all_dice)
    p, sol = exact_odds(all_dice, target, rolls, lock, cp, roll_cost)
    total = sol.rolls
    out = {"probability": float(p), "fraction": _frac(p), "target": str(sol.target), "rolls": rolls,
           "bought_rolls": total - rolls, "dice": [str(d) for d in all_dice],
           "locked": [str(f) for f in lock]}
    if as_json:
        _emit_json(out)
        return
    extra = f" + {total - rolls} bought" if total > rolls else ""
    typer.echo(f"P({sol.target} within {rolls} rolls{extra}, best keeps) = {out['fraction']} = {out['probability']:.6f}")


@odds_app.command("advise")
def odds_advise(
    roll: str = typer.Option(..., "--roll", help="the dice in hand as face numbers (or number:symbol), "
                             "e.g. 1,1,4,6,2; with --die, die by die in the order of the dice"),
    rolls_left: int = typer.Option(..., "--rolls-left", help="rerolls still available (>= 1)"),
    target: str = typer.Option(..., "--target", help="a target ('3*fist', small-straight...) or, with "
                               "--hero, an ability name (its first tier)"),
    hero: Optional[str] = typer.Option(None, "--hero", help="hero key, name or unambiguous prefix"),
    die: Optional[List[str]] = typer.Option(None, "--die", help="instead of --hero: six faces; repeat "
                                            "for differing dice (the first --die fills up to --dice)"),
    dice: Optional[int] = typer.Option(None, "--dice", help="with --die: number of dice (default: "
                                       "the number of dice in --roll)"),
    top: int = typer.Option(5, "--top", help="also list this many alternative keeps"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
) -> None:
    """Which dice to keep to reach a target, and the probability it leads to."""
    from simcore.dice import parse_die, parse_target, symbol_vocabulary
    from simcore.odds.solver import cached_space, check_rolls, describe_keep, solve_exact

    check_rolls(rolls_left, "--rolls-left")
    items = [x.strip() for x in roll.split(",")]
    if (hero is None) == (not die):
        raise PlaytestError("give either --hero or --die", field="--hero")
    abilities = {}
    if hero is not None:
        from simcore.duel.model import find_hero, load_setup

        setup = load_setup()
        hero_o = setup.heroes[find_hero(setup.heroes, hero)]
        n = int(setup.rules["dice"])
        all_dice = [hero_o.die] * n
        title = hero_o.name
        abilities = {a.name.lower(): a for a in hero_o.abilities}
    else:
        dies = [parse_die(d, field="--die") for d in die]
        n = dice if dice is not None else len(items)
        if not 1 <= n <= 6 or len(dies) > n:
            raise PlaytestError(f"must be 1..6 and at least the number of --die, got {n}", field="--dice")
        all_dice = [dies[0]] * (n - len(dies) + 1) + dies[1:]
        title = "custom dice"
    if len(items) != n:
        raise PlaytestError(f"expected {n} dice, got {len(items)}", field="--roll")
    faces = []
    for d, x in zip(all_dice, items):
        num, _, sym = x.partition(":")
        idx = [i for i, f in enumerate(d.faces) if str(f.number) == num and (not sym or f.symbol == sym.lower())]
        if not idx:
            raise PlaytestError(f"die {d} has no face {x!r}", field="--roll")
        faces.append(idx[0])
    if target.strip().lower() in abilities:
        t = abilities[target.strip().lower()].tiers[0].target
    else:
        t = parse_target(target, symbol_vocabulary(all_dice), n, field="--target")
    space = cached_space(tuple(all_dice))
    sol = solve_exact(space, t, rolls_left + 1)
    per_group = [[] for _ in space.groups]
    die_group = []
    for d, f in zip(all_dice, faces):
        g = [gi for gi, grp in enumerate(space.groups) if grp.die.faces == d.faces][0]
        per_group[g].append(f)
        die_group.append(g)
    hand = space.hand_index[space.counts_of(per_group)]
    opts = sol.keep_options(hand, rolls_left)
    k, p = opts[0]
    left = list(space.keeps[k])
    positions = []
    for i, (g, f) in enumerate(zip(die_group, faces)):
        s_ = space.group_slots[g][space.groups[g].face_slot[f]]
        if left[s_] > 0:
            left[s_] -= 1
            positions.append(i + 1)
    stop = k == space.full_keep[hand]
    out = {"dice": title, "target": str(t), "roll": [str(d.faces[f]) for d, f in zip(all_dice, faces)],
           "rolls_left": rolls_left, "keep": describe_keep(space, k), "keep_positions": positions,
           "stop": bool(stop), "probability": float(p), "fraction": _frac(p),
           "alternatives": [{"keep": describe_keep(space, kk), "probability": float(pp), "fraction": _frac(pp)}
                            for kk, pp in opts[1:1 + max(0, top)]]}
    if as_json:
        _emit_json(out)
        return
    verb = "keep everything (target met)" if stop and p == 1 else f"keep {out['keep']} (dice {positions})"
    typer.echo(f"{title}, {', '.join(out['roll'])}, {rolls_left} rerolls left, target {t}:")
    typer.echo(f"  best: {verb} -> {out['fraction']} = {out['probability']:.4f}")
    for alt in out["alternatives"]:
        typer.echo(f"  or    keep {alt['keep']:<40} -> {alt['probability']:.4f}")


def report_odds(
    out: str = typer.Option("reports_out/odds", "--out", help="output directory of the page"),
) -> None:
    """Write an odds-only report page (per-hero odds charts and opening keep advice)."""
    from reports.html import Page
    from reports.odds import add_odds_section
    from simcore.duel.model import load_setup

    page = Page("Dice duel: exact odds", out)
    add_odds_section(page, load_setup())
    typer.echo(str(page.write("odds.html")))


def register(app, report_app) -> None:
    app.add_typer(odds_app, name="odds")
    report_app.command("odds")(report_odds)
