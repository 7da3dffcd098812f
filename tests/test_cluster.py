"""The Dask backend: a local cluster of two worker processes (started here, shut down at
the end) gives the same per-game records and tables as --jobs 1, for every game; an unreachable
scheduler is one line."""
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


@pytest.fixture(scope="module")
def cluster():
    import logging

    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                 silence_logs=logging.ERROR)
    try:
        yield c.scheduler_address
    finally:
        c.close()


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
