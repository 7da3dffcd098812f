"""The Dask backend: a local cluster of two worker processes (started here, shut down at
the end) gives the same per-game records and tables as --jobs 1, for every game; an unreachable
scheduler is one line."""
import sys

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from analysis.execution import Execution  # noqa: E402
from analysis.runs import lineups_for, play_chunk, result_json, run  # noqa: E402
from analysis.store import Store  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402
from simcore.game import game_names, game_type, get_game  # noqa: E402
from simcore.parallel import run_chunks  # noqa: E402

N = 240
VOLATILE = {"compile_seconds", "run_id", "resumed_chunks", "played_chunks"}


def local_cluster(workers: int):
    """A local cluster of ``workers`` single-thread worker processes, with a free
    dashboard port; yields its address and closes it."""
    import logging

    c = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                                 silence_logs=logging.ERROR)
    try:
        yield c.scheduler_address
    finally:
        c.close()


@pytest.fixture(scope="module")
def cluster():
    yield from local_cluster(2)


def context(name):
    api = get_game(name)
    gt = game_type(name)
    rules = api.load_rules()
    content = api.load_content(rules)
    names = api.entrant_names(content)
    setup = api.make_setup(rules, content, gt.default_seats)
    plan = lineups_for(name, len(names), gt.default_seats, [gt.default_strategy],
                       fixed=(0, 1) if gt.entrants == "heroes" else None)
    return api, rules, names, setup, plan


def stored_records(store: Store, run_id: str, matchup: int) -> dict:
    import pandas as pd

    d = store.root / "runs" / run_id / "records" / f"m{matchup:04d}"
    df = pd.concat([pd.read_parquet(f) for f in sorted(d.glob("*.parquet"))]).sort_values("game_index")
    return {c: df[c].to_numpy() for c in df.columns}


@pytest.mark.parametrize("name", game_names())
def test_dask_cluster_gives_the_records_and_tables_of_jobs_1(name, cluster, tmp_path):
    api, rules, names, setup, plan = context(name)
    store = Store(tmp_path / "store")
    ex = Execution(backend_name="dask", scheduler=cluster, store=store, keep_records=True, chunk_size=35)
    res = run(name, setup, names, plan, N, 6, rules, rules, execution=ex)
    assert ex.played_chunks == len(plan) * -(-N // 35)
    local = run(name, setup, names, plan, N, 6, rules, rules, execution=Execution(jobs=1))
    strip = lambda d: {k: v for k, v in d.items() if k not in VOLATILE}  # noqa: E731
    assert strip(result_json(res, "")) == strip(result_json(local, ""))
    for mi, (lu, st) in enumerate(plan):
        want = run_chunks(play_chunk, N, name, setup, lu, st, 6, jobs=1, chunk_size=N)
        got = stored_records(store, res.extra["run_id"], mi)
        np.testing.assert_array_equal(got["game_index"], np.arange(N))
        for f, v in want.items():
            v = np.asarray(v)
            if v.ndim == 1:
                np.testing.assert_array_equal(got[f], v, err_msg=f"{name} {f}")
            else:
                flat = v.reshape(N, -1)
                cols = sorted((c for c in got if c.startswith(f + "_")), key=lambda c: [int(x) for x in
                                                                                       c[len(f) + 1:].split("_")])
                np.testing.assert_array_equal(np.stack([got[c] for c in cols], 1), flat, err_msg=f"{name} {f}")


def test_unreachable_scheduler_is_one_line():
    api, rules, names, setup, plan = context("duel")
    with pytest.raises(PlaytestError) as e:
        run("duel", setup, names, plan, 10, 1, rules, rules,
            execution=Execution(backend_name="dask", scheduler="tcp://127.0.0.1:9"))
    assert "--scheduler" in str(e.value) and "\n" not in str(e.value)


def die_once(start, stop, marker_dir, threads=1):
    """Module level, run on a worker: the chunk starting at 20 kills its worker process
    the first time it is played."""
    import os
    from pathlib import Path

    m = Path(marker_dir) / f"died-{start}"
    if start == 20 and not m.exists():
        m.write_text("x")
        os._exit(1)
    return start, stop


def test_a_chunk_whose_worker_died_is_played_again_and_counted_once(cluster, tmp_path):
    import cloudpickle

    from simcore.backends import DaskBackend

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    be = DaskBackend(cluster)
    try:
        got = list(be.map(die_once, [(a, a + 10) for a in range(0, 60, 10)], str(tmp_path)))
    finally:
        be.close()
    assert (tmp_path / "died-20").exists(), "the worker was not killed"
    assert sorted(got) == [(a, a + 10) for a in range(0, 60, 10)]


def test_plugin_modules_reach_the_workers_or_fail_in_one_line(cluster, tmp_path, monkeypatch):
    """A single-file plug-in module the workers lack is uploaded to them; one inside a
    package they do not have stops the run before any game, in one line saying why."""
    import importlib
    import shutil

    from simcore.backends import DaskBackend

    mods = tmp_path / "mods"
    (mods / "cluster_pkg").mkdir(parents=True)
    src = __file__.replace("test_cluster.py", "passing_duel_strategy.py")
    shutil.copy(src, mods / "cluster_passer.py")
    (mods / "cluster_pkg" / "__init__.py").write_text("")
    shutil.copy(src, mods / "cluster_pkg" / "inner.py")
    monkeypatch.syspath_prepend(str(mods))
    be = DaskBackend(cluster)
    try:
        be.client.wait_for_workers(2, timeout=120)  # a worker killed by another test is restarted
        be.check_plugins(["cluster_passer:passer", "greedy"])
        found = be.client.run(lambda: importlib.import_module("cluster_passer").__name__)
        assert set(found.values()) == {"cluster_passer"} and len(found) == 2
        with pytest.raises(PlaytestError) as e:
            be.check_plugins(["cluster_pkg.inner:passer"])
    finally:
        be.close()
    msg = str(e.value)
    assert "\n" not in msg and "--strategy" in msg and "cluster_pkg.inner" in msg and "workers" in msg


@pytest.fixture()
def one_worker():
    """A cluster of one worker process for the plug-in test: every worker compiles the
    plug-in's functions, and one worker is enough to show that the module reaches the
    workers and plays there."""
    yield from local_cluster(1)


def test_a_plugin_strategy_plays_on_the_cluster_like_jobs_1(one_worker, tmp_path, monkeypatch):
    """A user's plug-in strategy (a single-file module only this process can import: it is
    uploaded to the worker) plays on a cluster worker process, against a built-in and in
    both seats, and gives the records, the shared tables and the duel's own tables of
    --jobs 1."""
    import shutil

    from analysis import duel as ad
    from simcore.duel.model import load_setup
    from simcore.duel.model import MatchupRun

    mods = tmp_path / "mods"
    mods.mkdir()
    shutil.copy(__file__.replace("test_cluster.py", "passing_duel_strategy.py"), mods / "cluster_plugin_duel.py")
    monkeypatch.syspath_prepend(str(mods))
    spec = "cluster_plugin_duel:passer"
    api, rules, names, setup, _ = context("duel")
    plan = [((0, 1), (spec, "greedy")), ((1, 0), ("greedy", spec))]
    n = 60
    store = Store(tmp_path / "store")
    ex = Execution(backend_name="dask", scheduler=one_worker, store=store, keep_records=True, chunk_size=25)
    res = run("duel", setup, names, plan, n, 4, rules, rules, execution=ex)
    assert ex.played_chunks == len(plan) * -(-n // 25)
    local = run("duel", setup, names, plan, n, 4, rules, rules, execution=Execution(jobs=1))
    strip = lambda d: {k: v for k, v in d.items() if k not in VOLATILE}  # noqa: E731
    assert strip(result_json(res, "")) == strip(result_json(local, ""))
    # the plug-in really played: it never attacks, so the built-in wins every game it finishes
    for m in res.matchups:
        plugin_seat = m.strategies.index(spec)
        assert m.records.outcome[:, plugin_seat + 1, :].sum() == 0 and m.records.counts["abilities"][plugin_seat].sum() == 0
    setup_obj = load_setup()
    heroes = [h.name for h in setup_obj.heroes]
    tables = [ad.all_tables(MatchupRun(heroes, [lu for lu, _ in plan], {m.lineup: m.records for m in r.matchups},
                                       n, 4, spec, dict(setup_obj.rules)), setup_obj) for r in (res, local)]
    for k in ad.TABLES:
        assert tables[0][k].equals(tables[1][k]), k
    for mi, (lu, st) in enumerate(plan):
        want = run_chunks(play_chunk, n, "duel", setup, lu, st, 4, jobs=1, chunk_size=n)
        got = stored_records(store, res.extra["run_id"], mi)
        np.testing.assert_array_equal(got["winner"], want["winner"])
        np.testing.assert_array_equal(got["turns"], want["turns"])


@pytest.mark.parametrize("address", ["notaurl", "tcp://127.0.0.1", "tcp://127.0.0.1:abc", "http://127.0.0.1:8787",
                                     "ftp://h:1", "tcp://h:70000"])
def test_a_malformed_scheduler_address_is_one_line_before_any_work(address, tmp_path, capsys):
    """distributed raised a traceback for each of these; now one line naming --scheduler,
    and the run is not even started in the store."""
    from cli_runner import run_cli

    store = tmp_path / "store"
    code, out, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "10",
                             "--backend", "dask", "--scheduler", address, "--store", str(store))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err[-2000:]
    assert "--scheduler" in lines[0] and "tcp://HOST:PORT" in lines[0], lines[0]
    assert not list((store / "runs").glob("*")) if (store / "runs").exists() else True


def test_a_large_argument_reaches_the_workers_once_not_in_every_task(cluster):
    """Dice Throne's setup (24 MiB of tables) was pickled into every chunk's task, and
    distributed warned of a 24 MiB graph: a large argument is now scattered once."""
    import warnings

    from simcore.backends import DaskBackend

    be = DaskBackend(cluster)
    try:
        be.client.upload_file(__file__.replace("test_cluster.py", "cluster_task.py"))
        import cluster_task

        big = np.ones(3_000_000)   # 24 MB, like Dice Throne's tables
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = sorted(be.map(cluster_task.received, [(0, 1), (1, 2), (2, 3), (3, 4)], big))
        assert got == [(i, i + 1, "ndarray", big.nbytes) for i in range(4)]
        large = [str(w.message) for w in caught if "large" in str(w.message).lower()]
        assert not large, large
        assert len(be._shared) == 1    # sent once
    finally:
        be.close()
