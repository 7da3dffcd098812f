"""One set of verbs (issue 32 item 4): every registered game's sub-command holds to
``scripts/verbs.py``: the same verbs, and every verb that plays games takes the same
options with the same meaning (the same help text in every game); a verb or an option a
game does not have is absent (so refused in one line), never accepted and ignored."""
from __future__ import annotations

import pytest
import typer

from scripts import verbs as V
from scripts.cli import app, report_app
from simcore.game import game_names, game_type, get_game

CMD = typer.main.get_command(app)
GAMES = game_names()


def options(cmd, hidden=False) -> dict:
    """option string -> click parameter, visible ones (hidden ones too with ``hidden``)."""
    out = {}
    for p in cmd.params:
        if getattr(p, "param_type_name", "") == "option" and (hidden or not p.hidden):
            for o in list(p.opts) + list(p.secondary_opts):
                out[o] = p
    return out


def verb(game, name):
    if name == "report":
        return CMD.commands["report"].commands.get(game)
    return CMD.commands[game].commands.get(name)


def test_every_game_is_a_sub_command():
    assert set(GAMES) <= set(CMD.commands)
    assert set(GAMES) <= set(CMD.commands["report"].commands)


@pytest.mark.parametrize("game", GAMES)
def test_verbs(game):
    gt = game_type(game)
    want = V.expected_verbs(gt)
    for name in V.VERBS + V.ENTRANT_VERBS:
        have = verb(game, name) is not None
        if name in want:
            assert have, f"playtest {game} {name} is missing"
        else:
            assert not have, f"playtest {game} {name} exists, but: {V.missing_reason(gt, name)}"
            assert V.missing_reason(gt, name), name
    if gt.entrants in ("heroes", "roles"):
        assert {"play", "matchups", "fix"} <= set(want)


@pytest.mark.parametrize("game", GAMES)
def test_playing_verbs_take_the_same_options(game):
    gt = game_type(game)
    api = get_game(game)
    bad = []
    for name in V.expected_verbs(gt):
        opts = options(verb(game, name))
        if name in V.PLAYING:
            for o in V.PLAY_OPTIONS:
                skip = (name, o) in V.NOT_TAKEN
                if skip and o in opts:
                    bad.append(f"{name} takes {o}, but NOT_TAKEN says: {V.NOT_TAKEN[(name, o)]}")
                elif not skip and o not in opts:
                    bad.append(f"{name} lacks {o}")
        strat = {"--strategy", "-s", "--vs-strategy", "--strategies"} & set(opts)
        if name in V.STRATEGY_OPTIONS and strat != set(V.STRATEGY_OPTIONS[name]):
            bad.append(f"{name}: strategy options {sorted(strat)}, want {sorted(V.STRATEGY_OPTIONS[name])}")
        heroes = {"--hero", "--vs"} & set(opts)
        want_heroes = set(V.HERO_OPTIONS.get(name, ())) if gt.entrants == "heroes" else set()
        if name in V.HERO_OPTIONS and heroes != want_heroes:
            bad.append(f"{name}: hero options {sorted(heroes)}, want {sorted(want_heroes)}")
        if name in V.CONTENT_VERBS and ("--content" in opts) != bool(api.content_folder):
            bad.append(f"{name}: --content {'offered' if '--content' in opts else 'missing'}, the game "
                       f"{'has' if api.content_folder else 'has no'} content files")
        if name in V.SEATED and name in V.expected_verbs(gt):
            varies = gt.min_seats < gt.max_seats
            if ("--players" in opts) != varies:
                bad.append(f"{name}: --players {'offered' if '--players' in opts else 'missing'}, seats "
                           f"{gt.min_seats}-{gt.max_seats}")
        if name in V.DATA_VERBS and not {"--rules", "--set"} <= set(opts):
            bad.append(f"{name} lacks --rules/--set")
    assert not bad, f"playtest {game}:\n" + "\n".join(bad)


def test_the_same_option_means_the_same_everywhere():
    """The help of an option is its meaning: the same text for a verb in every game, and
    for the options of ``SAME_EVERYWHERE`` in every verb too."""
    seen: dict = {}
    per_verb: dict = {}
    bad = []
    for game in GAMES:
        for name in V.expected_verbs(game_type(game)):
            for o, p in options(verb(game, name)).items():
                if not o.startswith("--"):
                    continue
                text = (p.help or "").strip()
                if o in V.SAME_EVERYWHERE:
                    first = seen.setdefault(o, (text, f"{game} {name}"))
                    if first[0] != text:
                        bad.append(f"{o}: {game} {name} says {text!r}, {first[1]} says {first[0]!r}")
                if o in V.PLAY_OPTIONS:
                    first = per_verb.setdefault((name, o), (text, game))
                    if first[0] != text:
                        bad.append(f"{name} {o}: {game} says {text!r}, {first[1]} says {first[0]!r}")
    assert not bad, "\n".join(bad)


def test_not_taken_are_reasons_not_gaps():
    """Every exception names a playing verb and one of the shared options, with a reason."""
    for (name, o), why in V.NOT_TAKEN.items():
        assert name in V.PLAYING and o in V.PLAY_OPTIONS and why.strip()


def _cli(capsys, *argv):
    from scripts.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(argv))
        raise SystemExit(0)
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


@pytest.mark.parametrize("argv", [("river", "run", "--hero", "x"), ("arcade", "run", "--hero", "x"),
                                  ("arcade", "replay", "--vs", "x"), ("river", "tournament", "--content", "x"),
                                  ("river", "run", "--players", "3"), ("duel", "tune", "--players", "2")])
def test_an_option_the_game_does_not_have_is_refused_in_one_line(capsys, argv):
    """Issue 33: ``river run --hero`` and ``arcade run --hero`` were accepted and ignored."""
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and err.startswith("playtest: error:") and err.count("\n") == 1, err
    assert argv[2] in err


def test_role_game_play_and_matchups(capsys):
    code, out, err = _cli(capsys, "river", "play", "--strategy", "heuristic", "--vs-strategy", "random", "-n", "40",
                          "--json", "--no-store")
    assert code == 0, err
    import json

    d = json.loads(out)
    assert d["strategy"] == "heuristic" and d["vs_strategy"] == "random" and d["win_rate_games"] == 80
    assert [m["seats"][0]["strategy"] for m in d["matchups"]] == ["heuristic", "random"]
    code, out, err = _cli(capsys, "river", "matchups", "-n", "40", "--no-store")
    assert code == 0, err
    assert "row role's score against the column role" in out
