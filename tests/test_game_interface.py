"""Conformance suite of the game interface, parametrized over the registry: a game gets
these tests by registering (``simcore/game.py``)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis.runs import play_chunk
from simcore.game import STANDARD_FIELDS, game_names, game_type, get_game
from simcore.parallel import run_chunks
from cli_runner import run_cli

GAMES = game_names()
# strategies too slow for a conformance run of many games (their own tests cover them)
SLOW = {"search", "cheat"}


def setup_of(name, seats=None):
    api = get_game(name)
    rules = api.load_rules()
    content = api.load_content(rules)
    gt = game_type(name)
    return api, api.make_setup(rules, content, seats or gt.default_seats), gt


def lineup(gt, api, setup, seats=None):
    if gt.entrants == "heroes":
        return (0, 1)
    return tuple(range(seats or gt.default_seats))


@pytest.mark.parametrize("name", GAMES)
def test_declaration_is_complete(name):
    gt = game_type(name)
    assert gt.digest.exists(), "the rules digest ships with the package"
    api = get_game(name)
    assert api.strategies(), "at least one built-in strategy"
    assert gt.default_strategy in api.strategies()


@pytest.mark.parametrize("name", GAMES)
def test_kernel_equals_reference_for_every_fast_strategy(name):
    api, setup, gt = setup_of(name)
    for strat in [s for s in api.strategies() if s not in SLOW]:
        specs = (strat,) * gt.default_seats
        k = api.play(0, 60, 7, setup, lineup(gt, api, setup), specs, "kernel")
        r = api.play(0, 60, 7, setup, lineup(gt, api, setup), specs, "reference")
        for f in STANDARD_FIELDS:
            assert f in k, f"standard field {f} missing"
        for f in k:
            if f in r:
                np.testing.assert_array_equal(np.asarray(k[f]), np.asarray(r[f]), err_msg=f"{name} {strat} {f}")


# the duel's plug-ins are a keep/choose pair with entries of their own (tests/test_duel_*.py)
MOVE_LIST = [g for g in GAMES if g != "duel"]
PLUGIN = "plugin_any_move:decide"


def plugin_seats(name) -> int:
    """Seats of the plug-in tests: the default, at least two (a built-in beside the plug-in)."""
    return max(2, game_type(name).default_seats)


@pytest.mark.parametrize("name", MOVE_LIST)
def test_a_plugin_plays_the_same_games_in_both_engines(name):
    """A user's plug-in in the first seat, ``random`` in the others (a built-in through its
    cached function; the cheapest to compile): the kernel's plug-in entry and the
    reference engine give the same records, and the plug-in's seat is not played by the
    built-in (the records differ from ``random`` in every seat)."""
    seats = plugin_seats(name)
    api, setup, gt = setup_of(name, seats)
    lu = lineup(gt, api, setup, seats)
    specs = (PLUGIN,) + ("random",) * (seats - 1)
    k = api.play(0, 40, 5, setup, lu, specs, "kernel")
    r = api.play(0, 40, 5, setup, lu, specs, "reference")
    for f in k:
        if f in r:
            np.testing.assert_array_equal(np.asarray(k[f]), np.asarray(r[f]), err_msg=f"{name} {f}")
    b = api.play(0, 40, 5, setup, lu, ("random",) * seats, "kernel")
    assert any(not np.array_equal(np.asarray(k[f]), np.asarray(b[f])) for f in k if f != "game")


@pytest.mark.parametrize("name", MOVE_LIST)
def test_a_plugin_run_loads_the_game_from_the_disk_cache(name):
    """After a plug-in run (the test above, or here), a new process playing a plug-in
    loads the game's plug-in entry and the built-in's function from numba's disk cache
    instead of compiling them again (the plug-in itself is compiled in each process)."""
    code = f"""
import importlib, sys
from simcore.game import get_game, game_type
from strategies.bind import _BUILTIN_FUNCTIONS
api = get_game({name!r}); gt = game_type({name!r})
seats = {plugin_seats(name)}
rules = api.load_rules(); setup = api.make_setup(rules, api.load_content(rules), seats)
lu = (0, 1) if gt.entrants == "heroes" else tuple(range(seats))
specs = ({PLUGIN!r},) + ("random",) * (seats - 1)
api.play(0, 2, 5, setup, lu, specs, "kernel")
entry = importlib.import_module(type(api).__module__).plugin_chunk_nb
print(sum(entry.stats.cache_hits.values()), sum(entry.stats.cache_misses.values()),
      sum(f.cache_hits for f in _BUILTIN_FUNCTIONS.values()), len(_BUILTIN_FUNCTIONS))
"""
    seats = plugin_seats(name)
    api, setup, gt = setup_of(name, seats)
    specs = (PLUGIN,) + ("random",) * (seats - 1)
    api.play(0, 2, 5, setup, lineup(gt, api, setup, seats), specs, "kernel")    # compiled and saved, if not yet
    here = Path(__file__).parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here), str(here.parent)])}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert p.returncode == 0, p.stderr
    hits, misses, fn_hits, fns = map(int, p.stdout.split())
    assert (hits, misses) == (1, 0), "the plug-in entry came from the disk cache"
    assert fn_hits == fns == 1, "the built-in's function came from the disk cache"


@pytest.mark.parametrize("name", GAMES)
def test_same_records_for_any_jobs_and_chunk_size(name):
    api, setup, gt = setup_of(name)
    specs = (gt.default_strategy,) * gt.default_seats
    lu = lineup(gt, api, setup)
    a = run_chunks(play_chunk, 300, name, setup, lu, specs, 3, jobs=1, chunk_size=300)
    b = run_chunks(play_chunk, 300, name, setup, lu, specs, 3, jobs=2, chunk_size=37)
    for f in a:
        np.testing.assert_array_equal(a[f], b[f], err_msg=f"{name} {f}")


def cli_process(*args):
    """``playtest ARGS`` as a user runs it, in a process of its own."""
    p = subprocess.run([sys.executable, "-m", "scripts.cli", *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture()
def cli(capsys):
    """``playtest ARGS`` in this process (the same ``main``; a process of its own would
    spend seconds importing and loading the compiled kernels again)."""
    return lambda *args: run_cli(capsys, *args)


SCHEMA = {"game", "seed", "games", "strategies", "rules", "version", "metrics", "ratings", "capped_games",
          "matchups", "entrants"}
METRICS = {"balance", "advantage_p1", "drawishness", "completion", "duration", "decisiveness", "lead_change",
           "drama"}


def run_args(name):
    gt = game_type(name)
    heroes = []
    if gt.entrants == "heroes":
        api, setup, _ = setup_of(name)
        names = api.entrant_names(api.load_content(api.load_rules()))
        heroes = ["--hero", names[0], "--vs", names[1]]
    return heroes


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("verb", ["run", "tournament"])
def test_json_schema_of_every_verb(name, verb, cli):
    args = [name, verb, "-n", "200", "--json", "--seed", "5"] + (run_args(name) if verb == "run" else [])
    if verb == "tournament":
        args += ["--strategies", game_type(name).default_strategy]
    code, out, err = cli(*args)
    assert code == 0, err
    doc = json.loads(out)
    assert SCHEMA <= set(doc), SCHEMA - set(doc)
    assert doc["game"] == name and doc["seed"] == 5
    assert set(doc["metrics"]) == METRICS
    for m in doc["metrics"].values():
        assert "n" in m and ("x" in m and "x_ci" in m)
    for row in doc["matchups"]:
        assert len(row["win_rate_ci"]) == 2 and row["win_rate_ci"][0] <= row["win_rate"] <= row["win_rate_ci"][1]


def one_line_error(code, out, err, *fragments):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for f in fragments:
        assert f in lines[0], (f, lines[0])


def test_unknown_game_is_one_line():
    code, out, err = cli_process("nosuchgame", "run")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", GAMES)
def test_bad_inputs_are_one_line_errors(name, tmp_path, cli):
    base = [name, "run", "-n", "10"] + run_args(name)
    one_line_error(*cli(*base, "--strategy", "bogus"), "--strategy", "bogus")
    one_line_error(*cli(*base, "--set", "no_such_option=1"), "no_such_option")
    # a whole number past int64 (the kernels' rule vectors) was an OverflowError traceback
    # (found by tests/test_loaders_fuzz.py); every game has a whole-number option
    key = next(k for k, v in get_game(name).load_rules().items() if type(v) is int)
    one_line_error(*cli(*base, "--set", f"{key}={2 ** 63}"), key, "must be between")
    f = tmp_path / "file.txt"
    f.write_text("x")
    one_line_error(*cli(*base, "--out", str(f)), "--out", "not a directory")
    one_line_error(*cli(name, "run", "-n", "1000000000000000") if not run_args(name)
                   else cli(name, "run", "-n", "1000000000000000", *run_args(name)), "--games", "memory")
    one_line_error(*cli(*base, "--jobs", "1000"), "--jobs")


@pytest.mark.parametrize("name", GAMES)
def test_shared_report_sections_for_every_game(name, tmp_path):
    """The report every game gets: summary, matchups, metrics with intervals, ratings,
    game length; written as one page with its figures."""
    from analysis.runs import lineups_for, result_json, run
    from reports.game import build_game_report
    from reports.sections import report_sections

    api, setup, gt = setup_of(name)
    rules = api.load_rules()
    ents = api.entrant_names(api.load_content(rules))
    plan = lineups_for(name, len(ents), gt.default_seats, [gt.default_strategy])
    res = run(name, setup, ents, plan, 100, 3, rules, rules, trace=True)
    doc = result_json(res, "test")
    path = build_game_report(res, doc, tmp_path, "playtest test", report_sections(name, res))
    page = path.read_text()
    for heading in ("Summary", "Matchups", "Game length", "Balance metrics", "Ratings", "How this was made"):
        assert f">{heading}<" in page, heading
    assert (tmp_path / "game_lengths.png").exists()
    assert "Games ended by a cap" in page


@pytest.mark.parametrize("name", GAMES)
def test_adaptive_sampling_is_the_same_for_any_jobs(name):
    """--ci-width plays fixed blocks, so the games played, the records and the stopping
    decision do not depend on the number of workers."""
    from analysis.runs import play_matchup

    api, setup, gt = setup_of(name)
    specs = (gt.default_strategy,) * gt.default_seats
    lu = lineup(gt, api, setup)
    a = play_matchup(name, setup, lu, specs, 200, 9, jobs=1, ci_width=0.04, max_games=1000)
    b = play_matchup(name, setup, lu, specs, 200, 9, jobs=2, chunk_size=64, ci_width=0.04, max_games=1000)
    assert a.games == b.games and a.reached == b.reached
    assert a.games % 200 == 0 and 200 <= a.games <= 1000
    # each chunk is reduced to exact integer aggregates: equal aggregates (but for how many
    # chunks they were cut into), equal tables
    ja, jb = (json.loads(m.aggregate(gt.default_seats).to_json()) for m in (a, b))
    ja.pop("chunks"), jb.pop("chunks")
    assert ja == jb


def test_adaptive_sampling_stops_at_the_width_or_the_cap():
    from analysis.runs import _half_width, play_matchup

    api, setup, gt = setup_of("duel")
    wide = play_matchup("duel", setup, (0, 1), ("greedy", "greedy"), 100, 2, ci_width=0.2, max_games=1000)
    assert wide.reached and wide.games == 100 and _half_width(wide.records) <= 0.2
    narrow = play_matchup("duel", setup, (0, 1), ("greedy", "greedy"), 100, 2, ci_width=0.001, max_games=300)
    assert narrow.reached is False and narrow.games == 300


@pytest.mark.parametrize("args", [
    ["duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "300", "--strategy", "greedy",
     "--vs-strategy", "random", "--json"],
    ["duel", "matchups", "-n", "100", "--strategy", "greedy", "--json"],
    ["regicide", "run", "-n", "100", "--json"],
])
def test_json_schema_of_each_games_own_verbs(args, cli):
    code, out, err = cli(*args)
    assert code == 0, err
    doc = json.loads(out)
    assert SCHEMA <= set(doc), SCHEMA - set(doc)
    assert set(doc["metrics"]) == METRICS
    assert len(doc["win_rate_ci"]) == 2 if isinstance(doc.get("win_rate"), float) else True
