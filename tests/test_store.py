"""The results store and resumable runs: every game's run round-trips through the store;
a run killed with SIGKILL mid-way and resumed ends with the tables of a clean run and no
chunk counted twice; a read-only, full or corrupt store gives one line and loses nothing."""
import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_runner import run_cli
from simcore.game import game_names, game_type, get_game

GAMES = game_names()
VOLATILE = {"seconds", "compile_seconds", "command", "run_id", "resumed_chunks", "played_chunks"}


def cli(*args, env=None):
    """``playtest ARGS`` in a process of its own: where the test is about what a user's
    process prints (a one-line error) or sees of another process."""
    p = subprocess.run([sys.executable, "-m", "scripts.cli", *args], capture_output=True, text=True, timeout=600,
                       env=env)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture()
def here(capsys):
    """``playtest ARGS`` in this process, for the runs and listings a test only reads (a
    process of its own spends seconds importing and loading the duel's kernels again)."""
    return lambda *args: run_cli(capsys, *args)


def run_args(name):
    gt = game_type(name)
    if gt.entrants != "heroes":
        return []
    api = get_game(name)
    names = api.entrant_names(api.load_content(api.load_rules()))
    return ["--hero", names[0], "--vs", names[1]]


def tables(doc):
    return {k: v for k, v in doc.items() if k not in VOLATILE}


def one_line(code, err, *fragments):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for f in fragments:
        assert f in lines[0], (f, lines[0])


@pytest.mark.parametrize("name", GAMES)
def test_store_round_trips_every_game(name, tmp_path, capsys, monkeypatch):
    store = str(tmp_path / "store")

    def cli(*args):   # in-process: three processes a game would each load the kernels again
        monkeypatch.setattr(sys, "argv", ["playtest", *args])   # the command the store records
        return run_cli(capsys, *args)
    # the shared tournament verb (a game may keep a `run` command of its own)
    code, out, err = cli(name, "tournament", "-n", "300", "--seed", "3", "--json", "--store", store,
                         "--strategies", game_type(name).default_strategy)
    assert code == 0, err
    doc = json.loads(out)
    code, out2, err = cli("runs", "show", doc["run_id"], "--json", "--store", store)
    assert code == 0, err
    assert tables(json.loads(out2)) == tables(doc)
    code, out3, err = cli("runs", "list", "--json", "--store", store)
    rows = json.loads(out3)
    assert [r["run_id"] for r in rows] == [doc["run_id"]]
    r = rows[0]
    assert r["status"] == "complete" and r["game"] == name and r["seed"] == 3 and r["games_played"] == doc["games"]
    assert r["content_hash"] and r["version"] and r["machine"] and r["started"] and r["ended"]
    assert "tournament" in r["command"] and json.loads(r["strategies"])


DUEL = ["duel", "run", "--hero", "shadow", "--vs", "fire", "-n", "160000", "--seed", "9", "--json"]


def chunk_files(store):
    # whole chunk files only (a write cut by SIGKILL leaves a .tmp-* file the store ignores)
    return sorted(p for p in (Path(store) / "runs").glob("*/chunks/m*.parquet"))


def test_sigkilled_run_resumes_to_the_clean_tables(tmp_path, here):
    store = str(tmp_path / "store")
    code, out, err = here(*DUEL, "--no-store")
    assert code == 0, err
    clean = json.loads(out)
    # 2 matchups x 8 chunks of 20,000 games; kill the run once a few chunks are stored
    p = subprocess.Popen([sys.executable, "-m", "scripts.cli", *DUEL, "--store", store],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while len(chunk_files(store)) < 3 and p.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    kept = len(chunk_files(store))
    assert 3 <= kept < 16, f"the run was not killed mid-way ({kept} chunks stored)"
    rows = json.loads(here("runs", "list", "--json", "--store", store)[1])
    # not "running" forever: its process is gone (issue 33); its stored games are counted
    assert rows[0]["status"] == "stale" and "--resume" in rows[0]["stale_reason"], rows[0]
    assert rows[0]["games_played"] == 20000 * kept
    code, out, err = here(*DUEL, "--store", store, "--resume")
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["run_id"] == rows[0]["run_id"]
    assert resumed["resumed_chunks"] >= kept - 1 and resumed["resumed_chunks"] + resumed["played_chunks"] == 16
    assert tables(resumed) == tables(clean)
    assert resumed["games"] == 320000  # no chunk counted twice
    assert len(chunk_files(store)) == 16
    assert json.loads(here("runs", "list", "--json", "--store", store)[1])[0]["status"] == "complete"


def test_read_only_store_is_one_line(tmp_path):
    if os.geteuid() == 0:
        ro = "/sys/playtest-store-test"  # sysfs refuses new directories, even to root
        if os.path.exists(ro):
            pytest.skip("cannot find a read-only place")
    else:
        d = tmp_path / "ro"
        d.mkdir()
        d.chmod(0o555)
        ro = str(d / "store")
    code, out, err = cli(*DUEL[:-3], "-n", "100", "--store", ro)
    one_line(code, err, "--store", "cannot write")


def test_full_store_keeps_finished_chunks_and_resumes(tmp_path, monkeypatch):
    """ENOSPC on the 3rd chunk: one line, the 2 stored chunks kept, --resume completes."""
    import pyarrow.parquet as pq

    from analysis.execution import Execution
    from analysis.runs import result_json, run
    from analysis.store import Store
    from simcore.errors import PlaytestError

    api = get_game("duel")
    rules = api.load_rules()
    content = api.load_content(rules)
    setup = api.make_setup(rules, content, 2)
    plan = [((0, 1), ("greedy", "greedy"))]
    store = Store(tmp_path / "store")
    real = pq.write_table
    calls = {"n": 0}

    def full(table, where, *a, **k):
        if "chunks" in str(where) or "m0000" in str(where):
            calls["n"] += 1
            if calls["n"] >= 3:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(table, where, *a, **k)

    def go(resume):
        ex = Execution(store=store, chunk_size=100, resume=resume)
        return run("duel", setup, api.entrant_names(content), plan, 500, 2, rules, rules, execution=ex)

    monkeypatch.setattr(pq, "write_table", full)
    with pytest.raises(PlaytestError) as e:
        go(False)
    msg = str(e.value)
    assert "\n" not in msg and "full" in msg and "--resume" in msg
    assert len(chunk_files(store.root)) == 2
    monkeypatch.setattr(pq, "write_table", real)
    res = go(True)
    assert res.extra["resumed_chunks"] == 2 and res.extra["played_chunks"] == 3
    clean = run("duel", setup, api.entrant_names(content), plan, 500, 2, rules, rules,
                execution=Execution(chunk_size=250))
    assert tables(result_json(res, "")) == tables(result_json(clean, ""))


def test_corrupt_store_is_one_line_and_loses_nothing(tmp_path, here):
    store = str(tmp_path / "store")
    args = [*DUEL[:-3], "-n", "3000", "--seed", "4", "--json"]
    code, out, err = here(*args, "--store", store)
    assert code == 0, err
    first = json.loads(out)
    code, out, err = here(*args, "--store", store, "--set", "start_cp=3")
    assert code == 0, err
    # damage one chunk of the first run and the catalogue row of the second
    victim = sorted((Path(store) / "runs" / first["run_id"] / "chunks").glob("*.parquet"))[0]
    victim.write_bytes(b"not parquet")
    second = json.loads(out)["run_id"]
    (Path(store) / "catalogue" / f"{second}.parquet").write_bytes(b"\x00garbage")
    code, out, err = cli("runs", "list", "--json", "--store", store)
    assert code == 0 and [r["run_id"] for r in json.loads(out)] == [first["run_id"]]
    assert len(err.strip().splitlines()) == 1 and "unreadable catalogue" in err
    one_line(*cli("runs", "show", first["run_id"], "--store", store)[::2], "damaged chunk", "--resume")
    # the other run's chunks are untouched and still shown
    code, out, err = here("runs", "show", second, "--json", "--store", store)
    assert code == 0, err
    # --resume plays the damaged chunk again: the first run's tables are back
    code, out, err = here(*args, "--store", store, "--resume")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["run_id"] == first["run_id"] and doc["played_chunks"] == 1
    assert tables(doc) == tables(first)


def test_compare_flags_differences_beyond_noise():
    from analysis.metrics import rate
    from scripts.runs_cli import compare_docs

    def doc(k, n):
        r = rate(k, n)
        return {"seat_win_rate": [r["x"]], "seat_win_rate_ci": [r["x_ci"]], "matchups": [], "seed": 1,
                "metrics": {"advantage_p1": r}}

    same = compare_docs(doc(500, 1000), doc(510, 1000))
    assert same["differences_beyond_noise"] == 0
    row = same["rows"][0]
    assert row["diff"] == pytest.approx(-0.01) and row["diff_ci"][0] < 0 < row["diff_ci"][1]
    far = compare_docs(doc(5000, 10000), doc(5400, 10000))
    assert far["differences_beyond_noise"] == 2 and all(r["diff_ci"][1] < 0 for r in far["rows"])


def test_sigterm_keeps_the_chunks_says_how_to_resume_and_lists_them(tmp_path, here):
    """SIGTERM (as Ctrl-C) closes the run: one line saying the finished chunks are kept and
    how to --resume; ``runs list`` shows it interrupted with its played games (it showed
    "0 games")."""
    store = str(tmp_path / "store")
    p = subprocess.Popen([sys.executable, "-m", "scripts.cli", *DUEL, "--store", store],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while len(chunk_files(store)) < 2 and p.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 130, err
    line = err.strip().splitlines()[-1]
    assert "kept in run" in line and "--resume" in line and "Traceback" not in err, err
    (row,) = json.loads(here("runs", "list", "--json", "--store", store)[1])
    kept = len(chunk_files(store))
    assert row["status"] == "interrupted" and row["games_played"] == 20000 * kept > 0, row
    out = here("runs", "list", "--store", store)[1]
    assert f"{20000 * kept:,} games" in out, out


def test_two_resumes_of_one_run_do_not_both_play_it(tmp_path, here):
    """A run's lock names the process playing it: a second --resume while it is held is one
    line (both replayed the same chunks); a lock whose process is gone is taken over."""
    from analysis.store import Store

    store = tmp_path / "store"
    args = ["duel", "run", "--hero", "shadow", "--vs", "fire", "-n", "400", "--seed", "3", "--json",
            "--store", str(store)]
    assert here(*args)[0] == 0
    (row,) = Store(store).catalogue()
    run = Store(store).open(row["run_id"])
    # a live holder (this test's own process) of the run's lock, as a first --resume would be
    (run.dir / "lock").write_text(json.dumps({"host": __import__("socket").gethostname(), "pid": os.getpid(),
                                              "since": "now"}))
    (run.dir / "chunks" / next(iter(os.listdir(run.dir / "chunks")))).unlink()   # something left to play
    code, out, err = cli(*args, "--resume")
    one_line(code, err, "--resume", f"run {row['run_id']} is being played right now", str(os.getpid()))
    # the holder is gone (a pid that cannot be alive): the lock is stale and taken over
    (run.dir / "lock").write_text(json.dumps({"host": __import__("socket").gethostname(), "pid": 2 ** 22 + 7,
                                              "since": "then"}))
    code, out, err = cli(*args, "--resume")
    assert code == 0, err
    assert json.loads(out)["run_id"] == row["run_id"] and not (run.dir / "lock").exists()


def test_a_run_silent_for_minutes_on_another_host_is_stale():
    from analysis.store import STALE, row_status

    now = time.time()
    alive = {"run_id": "x", "status": "running", "host": "elsewhere", "pid": 1, "heartbeat": now - 5}
    dead = dict(alive, heartbeat=now - STALE - 60)
    assert row_status(alive)["status"] == "running"
    assert row_status(dead)["status"] == "stale"
