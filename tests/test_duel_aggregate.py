"""The duel's own tables (``analysis.duel``: matchups, heroes, first player, lengths,
abilities, the matrix JSON and the balance sentences) are the same whether they read every
game's record (``run_matchups``) or the exact per-chunk aggregates of the flat-memory path
(``run_matchups_flat``, what ``playtest duel matchups`` and ``playtest report duel`` play),
for any chunking."""
import numpy as np
import pandas as pd
import pytest

from analysis import duel as ad
from analysis.aggregate import Aggregate
from analysis.execution import Execution
from simcore.duel.model import load_setup
from analysis.duel import run_matchups_flat
from strategies.duel.bind import run_matchups

SETUP = load_setup()
N = 300


@pytest.fixture(scope="module")
def both():
    rec = run_matchups(SETUP, "greedy", N, 8)
    flat, res = run_matchups_flat(SETUP, "greedy", N, 8, Execution(chunk_size=37))
    return rec, flat, res


def test_flat_run_holds_aggregates_of_every_chunk(both):
    rec, flat, res = both
    assert flat.pairs == rec.pairs
    for k, agg in flat.records.items():
        assert isinstance(agg, Aggregate)
        assert agg.games == N and agg.chunks == -(-N // 37)
        assert int(agg.hists["turns_fc"].sum()) == N
        # the aggregate of the records, taken in one piece, is the merged chunk aggregates
        r = dict(rec.records[k], capped=rec.records[k]["timeout"])
        assert Aggregate.of_records(r, 2, "duel").hists["turns_fc"].tolist() == \
            agg.hists["turns_fc"][:, :, :int(np.asarray(r["turns"]).max()) + 1].tolist()


@pytest.mark.parametrize("table", ad.TABLES)
def test_tables_from_aggregates_equal_tables_from_records(both, table):
    rec, flat, _ = both
    want = ad.all_tables(rec, SETUP)[table]
    got = ad.all_tables(flat, SETUP)[table]
    assert len(want) > 0
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_matrix_and_summary_from_aggregates_equal_those_from_records(both):
    rec, flat, _ = both
    assert ad.matrix_json(flat) == ad.matrix_json(rec)
    assert ad.balance_summary(flat) == ad.balance_summary(rec)
    assert ad.ability_names(flat) == ad.ability_names(rec)


def test_aggregates_do_not_depend_on_the_chunking(both):
    _, flat, _ = both
    other, _ = run_matchups_flat(SETUP, "greedy", N, 8, Execution(chunk_size=N))
    for k in flat.records:
        assert other.records[k].chunks == 1
        other.records[k].chunks = flat.records[k].chunks
        assert other.records[k] == flat.records[k]
