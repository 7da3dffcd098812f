"""What a new user runs into, answered by one line naming the culprit (issue 12): illegal
plug-in answers, broken plug-in modules, duplicate heroes, out-of-range replay indices."""
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from scripts.cli import main
from simcore.duel.model import HEROES_DIR, load_heroes, load_setup
from simcore.errors import PlaytestError

ROOT = Path(__file__).resolve().parents[1]

PLUGIN = textwrap.dedent('''
    import numba as nb

    @nb.njit
    def never(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
        return (1 << n_dice) - 1

    @nb.njit
    def never_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
        return 99

    @nb.njit
    def short(faces, n_dice):
        return 0

    @nb.njit
    def short_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
        return -1

    @nb.njit
    def typo(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
        return faces + tb

    @nb.njit
    def typo_choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
        return -1

    @nb.njit
    def rshort(phase, obs, moves):
        return 0

    @nb.njit
    def rtypo(phase, obs, moves, n_moves, rules, data, rng):
        return obs + rules.nope

    @nb.njit
    def rbad(phase, obs, moves, n_moves, rules, data, rng):
        return 99
''')


@pytest.fixture(scope="module")
def plugdir(tmp_path_factory):
    """The plug-in modules, imported once for the whole file: a plug-in's entry is
    compiled once per process and plug-in function (tens of seconds), so the tests that
    play ``uplug:never`` share one compilation instead of each re-importing the module."""
    d = tmp_path_factory.mktemp("plugins")
    (d / "uplug.py").write_text(PLUGIN)
    (d / "usyntax.py").write_text("import numba\ndef f(:\n    pass\n")
    (d / "uraise.py").write_text("raise RuntimeError('boom at import')\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(d))
        for m in ("uplug", "usyntax", "uraise"):
            sys.modules.pop(m, None)
        yield d
        for m in ("uplug", "usyntax", "uraise"):
            sys.modules.pop(m, None)


def run_cli(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
        raise SystemExit(0)
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


def one_line(capsys, *argv_and_needles):
    argv = [a for a in argv_and_needles if not a.startswith("~")]
    needles = [a[1:] for a in argv_and_needles if a.startswith("~")]
    code, _, err = run_cli(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("playtest: error: "), err
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


DUEL = ("duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "50", "--strategy")


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_illegal_duel_choice_is_an_error_naming_the_strategy(capsys, plugdir, engine):
    line = one_line(capsys, *DUEL, "uplug:never", "--engine", engine, "~uplug:never", "~illegal ability")
    assert "50.00%" not in line


def test_illegal_choice_stops_the_game_in_both_engines(plugdir):
    """The game stops at the illegal choice (recorded: the seat), the same in both engines."""
    from strategies.duel import load_strategy
    from strategies.duel.bind import play_range, strategy_datas

    setup = load_setup()
    pair = (load_strategy("uplug:never"), load_strategy("greedy"))
    data = strategy_datas(setup, pair)
    k = play_range(0, 20, setup, 0, 1, pair, data, 3, "kernel")
    r = play_range(0, 20, setup, 0, 1, pair, data, 3, "reference")
    assert (k["illegal"] == 0).all() and np.array_equal(k["illegal"], r["illegal"])
    assert (k["winner"] == -1).all() and np.array_equal(k["turns"], r["turns"]) and not k["timeout"].any()


@pytest.mark.parametrize("spec,needles", [
    ("uplug:short", ["uplug.short", "takes 2 argument"]),
    ("uplug:typo", ["uplug:typo", "does not compile", "keep(faces"]),
    ("usyntax:f", ["usyntax", "syntax error", "usyntax.py:2"]),
    ("uraise:f", ["uraise", "RuntimeError", "boom at import"]),
    ("no_such_mod_xyz:f", ["no_such_mod_xyz", "PYTHONPATH"]),
    ("plug/file.py:f", ["not a module path", "plug.file:FUNCTION"]),
])
def test_broken_duel_plugins_are_one_line(capsys, plugdir, spec, needles):
    one_line(capsys, *DUEL, spec, *[f"~{n}" for n in needles])


@pytest.mark.parametrize("spec,needles", [
    ("uplug:rshort", ["uplug.rshort", "takes 3 argument"]),
    ("uplug:rtypo", ["uplug:rtypo", "does not compile", "nope"]),
    ("usyntax:f", ["usyntax", "syntax error"]),
    ("uraise:f", ["uraise", "boom at import"]),
])
def test_broken_regicide_plugins_are_one_line(capsys, plugdir, spec, needles):
    one_line(capsys, "regicide", "run", "-n", "5", "--strategy", spec, *[f"~{n}" for n in needles])


def test_module_in_the_current_directory_gets_a_hint(tmp_path):
    """The console script does not put the current directory on the import path."""
    (tmp_path / "mystrat.py").write_text(PLUGIN)
    code = ("import sys; sys.path[:] = [p for p in sys.path if p not in ('', '.')]; "
            f"sys.path.insert(0, {str(ROOT)!r}); from scripts.cli import main; "
            "main(['duel', 'play', '--hero', 'shadow', '--vs', 'fire', '-n', '5', '--strategy', 'mystrat:never'])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert "mystrat" in lines[0] and "PYTHONPATH=." in lines[0] and "current directory" in lines[0]


def test_duplicate_hero_names_and_keys(tmp_path):
    d = tmp_path / "heroes"
    shutil.copytree(HEROES_DIR, d)
    shutil.copy(d / "shadow_walker.toml", d / "shadow_copy.toml")
    with pytest.raises(PlaytestError, match="hero name 'Shadow Walker' is also the name"):
        load_heroes(d)
    (d / "shadow_copy.toml").unlink()
    text = (d / "fire_kindler.toml").read_text().replace('name = "Fire Kindler"', 'name = "shadow-walker"', 1)
    (d / "zz.toml").write_text(text)
    with pytest.raises(PlaytestError, match="also the"):
        load_heroes(d)
    (d / "zz.toml").unlink()
    assert len(load_heroes(d)) == 4


@pytest.mark.parametrize("game", ["99999999999999999999", "18446744073709551616", "-1"])
def test_replay_game_out_of_range(capsys, game):
    one_line(capsys, "duel", "replay", "--hero", "shadow", "--vs", "fire", "--game", game, "~--game",
             "~0..2**63-1")


def test_illegal_regicide_answer_is_an_error(capsys, plugdir):
    one_line(capsys, "regicide", "run", "-n", "5", "--strategy", "uplug:rbad", "~uplug:rbad")


def test_help_points_to_the_shipped_rules_digests(capsys):
    import simcore.duel
    import simcore.regicide

    for pkg, game in ((simcore.duel, "duel"), (simcore.regicide, "regicide")):
        rules_md = Path(pkg.__file__).parent / "RULES.md"
        assert rules_md.stat().st_size > 1000
        code, out, _ = run_cli(capsys, game, "--help")
        assert code == 0 and f"simcore/{game}/RULES.md" in out and "shared/rules" not in out
    text = (ROOT / "pyproject.toml").read_text()
    assert '"*.md"' in text and "hypothesis" in text
    ignored = (ROOT / ".gitignore").read_text().split()
    assert {"/duel-report/", "/regicide-report/", "/odds-report/"} <= set(ignored)
