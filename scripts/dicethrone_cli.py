"""``playtest dicethrone ...``: the Dice Throne verbs of its own (the shared verbs of
``scripts/game_cli.py`` fill in the rest: run, tournament, replay, tune, matchups...).

    playtest dicethrone odds --hero pyromancer [--card surprise] [--cp 3] [--json]
    playtest dicethrone card-value [-n 2000] [--strategy greedy] [--json]
"""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from simcore.errors import PlaytestError

dt_app = typer.Typer(help="Dice Throne 2.2 (Pyromancer, Paladin): two heroes roll five dice up to three times, "
                          "play cards and spend tokens.", no_args_is_help=True, rich_markup_mode=None)


def _content():
    from strategies.dicethrone.bind import content_tables

    return content_tables()[0]


def _hero_id(content, name: str, field: str = "--hero") -> str:
    from simcore.dicethrone.model import HERO_NAMES
    from simcore.duel.model import find_hero  # the one hero-name matcher

    return HERO_NAMES[find_hero([content.heroes[h] for h in HERO_NAMES], name, field)]


@dt_app.command("odds")
def odds_cmd(
    hero: str = typer.Option(..., "--hero", help="hero key, name or unambiguous prefix (pyromancer, paladin)"),
    card: Optional[List[str]] = typer.Option(None, "--card", help="a die-changing card in hand, id or name "
                                             "(repeatable): used at the best moment of the roll phase"),
    rolls: Optional[int] = typer.Option(None, "--rolls", help="roll attempts (default: the rules' roll_attempts, 3)"),
    cp: int = typer.Option(0, "--cp", help="CP for the hero's paid rerolls (the Paladin's Tithes); cards' "
                                           "costs are not charged"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    rules: Optional[str] = typer.Option(None, "--rules", help="TOML file of rule options"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
) -> None:
    """Exact odds of every offensive ability tier of a hero after 1..R roll attempts (best
    keeps), with CP-bought rerolls where the hero may buy them, and with cards in hand."""
    from simcore.dicethrone.model import load_rules
    from simcore.odds.dicethrone import odds_table
    from simcore.odds.solver import check_rolls
    from simcore.toml_io import parse_set_options

    r = load_rules(rules, parse_set_options(set_))
    R = check_rolls(rolls) if rolls is not None else int(r["roll_attempts"])
    if cp < 0:
        raise PlaytestError(f"must be >= 0, got {cp}", field="--cp")
    content = _content()
    hid = _hero_id(content, hero)
    doc = odds_table(content, hid, R, list(card or []), cp)
    if as_json:
        typer.echo(json.dumps(doc))
        return
    rows = doc["abilities"]
    typer.echo(f"{doc['hero']}: odds of being able to activate each ability tier, going for it with best keeps")
    note = f"; 'R+k' = R attempts and k {doc['bought']}" if doc["bought"] else ""
    typer.echo(f"({doc['rolls']} roll attempts{note})")
    keys = list(rows[0]["by_rolls"])
    w = max(len(x["label"]) for x in rows) + 2
    typer.echo("".ljust(w) + "".join(f"{k:>8}" for k in keys) + f"   with {cp} CP (exact)")
    for x in rows:
        typer.echo(x["label"].ljust(w) + "".join(f"{x['by_rolls'][k]:8.3f}" for k in keys)
                   + f"   {x['probability']:.4f} = {x['fraction']}")
    if doc["cards"]:
        names = ", ".join(f"{c['name']} ({c['action']})" for c in doc["cards"])
        typer.echo(f"\nWith {names} in hand, used at the best moment (cost not charged):")
        keys = list(rows[0]["with_cards"]["by_rolls"])
        typer.echo("".ljust(w) + "".join(f"{k:>8}" for k in keys) + "   exact, gain over no card")
        for x in rows:
            wc = x["with_cards"]
            typer.echo(x["label"].ljust(w) + "".join(f"{wc['by_rolls'][k]:8.3f}" for k in keys)
                       + f"   {wc['probability']:.4f} = {wc['fraction']}  (+{wc['gain']:.4f})")


def register(app, report_app) -> None:
    app.add_typer(dt_app, name="dicethrone")
