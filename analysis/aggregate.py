"""Flat-memory runs: each chunk of games is reduced, where it was played, to the few
numbers every table and metric needs, and only those travel back and are kept.

An :class:`Aggregate` of a set of games (one chunk, one matchup, a whole run) holds:

``outcome[first, winner + 1, capped]``  game counts by first mover, winner (-1 = none)
                                        and cap: every win rate, draw, capped count,
                                        ``advantage_p1``, ``drawishness``, ``completion``
                                        and the pairwise results of the ratings;
``turns[t]``                            exact histogram of turns (turn counts are small
                                        integers): mean, standard deviation, median and
                                        percentiles of ``duration``, exactly;
``leads[col]``                          for each lead statistic (when traced): count of
                                        games with a value and the *exact* sum and sum of
                                        squares of the values (integers times a power of
                                        two: float64 values are dyadic rationals), so the
                                        mean and interval do not depend on the order or
                                        the cut of the chunks;
``counts[field]``                       per-field sums of the game's own integer/boolean
                                        record fields (abilities used, enemies defeated...);
``hists[name]``                         the game's own exact histograms (``GameAPI.reduce``:
                                        e.g. the duel's turns by first mover and timeout,
                                        Regicide's enemies defeated and end reasons), what
                                        its own tables need beyond the counts above.

Everything is integer arithmetic: merging is associative and commutative, so a run's
aggregate is bit-identical for any chunking, any worker count, any backend (local
processes, a Dask cluster) and any order of completion, and the tables built from it
equal the tables built from the concatenated records (``tests/test_aggregate.py``).
"""
from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
from scipy import stats as st

from simcore.game import LEAD_FIELDS, STANDARD_FIELDS, get_game

from .metrics import lead_matrix  # the lead statistics of a record table

# record fields never summed as game-specific counts
SKIP_COUNTS = set(STANDARD_FIELDS) | {"leads", "game", "timeout"}


# ------------------------------------------------------------------ exact float sums
def exact_sums(v: np.ndarray) -> tuple[int, int, int]:
    """``(s1, s2, e)`` with ``sum(v) == s1 * 2**e`` and ``sum(v*v) == s2 * 2**(2e)``
    exactly (``v``: finite float64 values)."""
    v = np.asarray(v, np.float64)
    if v.size == 0:
        return 0, 0, 0
    m, ex = np.frexp(v)
    mant = (m * 2.0 ** 53).astype(np.int64)      # exact: |m| < 1 has 53 significant bits
    exp = ex.astype(np.int64) - 53
    nz = mant != 0
    if not nz.any():
        return 0, 0, 0
    e0 = int(exp[nz].min())
    shift = np.where(nz, exp - e0, 0)
    big = mant.astype(object) * np.power(2, shift.astype(object))
    return int(big.sum()), int((big * big).sum()), e0


def _align(a: tuple, b: tuple) -> tuple:
    (a1, a2, ae), (b1, b2, be) = a, b
    if a1 == 0 and a2 == 0:
        return b
    if b1 == 0 and b2 == 0:
        return a
    e = min(ae, be)
    return ((a1 << (ae - e)) + (b1 << (be - e)), (a2 << 2 * (ae - e)) + (b2 << 2 * (be - e)), e)


def _padded_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b`` for histograms of the same rank whose axes may differ in length (a longer
    game seen in one chunk only): the shorter one is zero-padded at the end of each axis."""
    if a.shape == b.shape:
        return a + b
    if a.ndim != b.ndim:
        raise ValueError(f"merging histograms of different ranks {a.shape} and {b.shape}")
    out = np.zeros(tuple(max(x, y) for x, y in zip(a.shape, b.shape)), np.int64)
    out[tuple(slice(0, n) for n in a.shape)] += a
    out[tuple(slice(0, n) for n in b.shape)] += b
    return out


# ------------------------------------------------------------------ percentiles of a histogram
def hist_percentile(hist: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (method "linear") of the values whose histogram is
    ``hist`` (``hist[t]`` = how many values equal ``t``), with numpy's exact float steps."""
    n = int(hist.sum())
    cum = np.cumsum(hist)
    quant = np.true_divide(q, 100)
    vi = np.float64(n - 1) * np.float64(quant)

    def at(i: int) -> np.float64:
        return np.float64(np.searchsorted(cum, i + 1))  # the i-th smallest value (0-based)

    if vi >= n - 1:
        return float(at(n - 1))
    prev = math.floor(vi)
    a, b = at(prev), at(prev + 1)
    g = np.float64(vi - np.float64(prev))
    d = b - a
    r = b - d * (1 - g) if g >= 0.5 else a + d * g
    return float(r)


def hist_median(hist: np.ndarray) -> float:
    n = int(hist.sum())
    cum = np.cumsum(hist)
    lo = np.float64(np.searchsorted(cum, (n - 1) // 2 + 1))
    hi = np.float64(np.searchsorted(cum, n // 2 + 1))
    return float((lo + hi) / 2) if n % 2 == 0 else float(lo)


# ------------------------------------------------------------------ the aggregate
class Aggregate:
    """Mergeable counts of a set of games (see the module docstring)."""

    __slots__ = ("seats", "games", "outcome", "turns", "leads", "counts", "hists", "chunks")

    def __init__(self, seats: int):
        self.seats = int(seats)
        self.games = 0
        self.outcome = np.zeros((self.seats, self.seats + 1, 2), np.int64)
        self.turns = np.zeros(1, np.int64)
        self.leads: dict | None = None       # col -> [n, s1, s2, e]
        self.counts: dict = {}               # field -> int64 array of sums
        self.hists: dict = {}                # name -> int64 histogram (GameAPI.reduce)
        self.chunks = 0

    # --- building
    @classmethod
    def of_records(cls, rec: dict, seats: int, game: str | None = None) -> "Aggregate":
        """The aggregate of the games of ``rec``; with ``game``, also that game's own
        histograms (``GameAPI.reduce``)."""
        a = cls(seats)
        w = np.asarray(rec["winner"]).astype(np.int64)
        n = int(w.size)
        a.games = n
        a.chunks = 1
        capped = np.asarray(rec["capped"], bool).astype(np.int64)
        first = np.asarray(rec["first"]).astype(np.int64)
        if n and (first.min() < 0 or first.max() >= seats or w.min() < -1 or w.max() >= seats):
            raise ValueError("winner/first out of range for the seats")
        flat = (first * (seats + 1) + (w + 1)) * 2 + capped
        a.outcome = np.bincount(flat, minlength=seats * (seats + 1) * 2).astype(np.int64).reshape(a.outcome.shape)
        t = np.asarray(rec["turns"]).astype(np.int64)
        a.turns = np.bincount(t, minlength=1).astype(np.int64) if n else np.zeros(1, np.int64)
        lv = lead_matrix(rec)
        if lv is not None:
            a.leads = {}
            for i, col in enumerate(LEAD_FIELDS):
                v = lv[:, i]
                v = v[~np.isnan(v)]
                s1, s2, e = exact_sums(v)
                a.leads[col] = [int(v.size), s1, s2, e]
        for k, v in rec.items():
            if k in SKIP_COUNTS:
                continue
            arr = np.asarray(v)
            if arr.ndim >= 1 and arr.shape[0] == n and (arr.dtype.kind in "iub"):
                a.counts[k] = arr.sum(axis=0, dtype=np.int64)  # exact, without an int64 copy
        if game is not None:
            from simcore.game import get_game

            for k, v in get_game(game).reduce(rec).items():
                a.hists[k] = np.asarray(v, np.int64)
        return a

    def merge(self, other: "Aggregate") -> "Aggregate":
        """Add ``other`` into this aggregate (in place); returns self."""
        if other.seats != self.seats:
            raise ValueError("merging aggregates of different seat counts")
        was_empty = self.games == 0 and self.chunks == 0
        if was_empty:
            self.leads = None if other.leads is None else {k: list(v) for k, v in other.leads.items()}
        elif other.games or other.chunks:
            if self.leads is None or other.leads is None:
                self.leads = None  # a part was not traced: the lead metrics are not measured
            else:
                for k, (n, s1, s2, e) in other.leads.items():
                    a = self.leads[k]
                    self.leads[k] = [a[0] + n, *_align((a[1], a[2], a[3]), (s1, s2, e))]
        self.games += other.games
        self.chunks += other.chunks
        self.outcome = self.outcome + other.outcome
        m = max(self.turns.size, other.turns.size)
        t = np.zeros(m, np.int64)
        t[:self.turns.size] += self.turns
        t[:other.turns.size] += other.turns
        self.turns = t
        for k, v in other.counts.items():
            self.counts[k] = self.counts[k] + v if k in self.counts else np.array(v, np.int64)
        for k, v in other.hists.items():
            self.hists[k] = _padded_sum(self.hists[k], v) if k in self.hists else np.array(v, np.int64)
        return self

    @classmethod
    def total(cls, parts, seats: int) -> "Aggregate":
        out = cls(seats)
        for p in parts:
            out.merge(p)
        return out

    # --- transport and storage (JSON-safe; big integers as strings)
    def to_json(self) -> str:
        return json.dumps({
            "seats": self.seats, "games": self.games, "chunks": self.chunks,
            "outcome": self.outcome.ravel().tolist(), "turns": self.turns.tolist(),
            "leads": None if self.leads is None else {k: [v[0], str(v[1]), str(v[2]), v[3]]
                                                      for k, v in self.leads.items()},
            "counts": {k: {"shape": list(np.shape(v)), "v": np.ravel(v).tolist()} for k, v in self.counts.items()},
            "hists": {k: {"shape": list(np.shape(v)), "v": np.ravel(v).tolist()} for k, v in self.hists.items()},
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Aggregate":
        d = json.loads(text)
        a = cls(d["seats"])
        a.games, a.chunks = int(d["games"]), int(d["chunks"])
        a.outcome = np.array(d["outcome"], np.int64).reshape(a.outcome.shape)
        a.turns = np.array(d["turns"], np.int64)
        if d["leads"] is not None:
            a.leads = {k: [int(v[0]), int(v[1]), int(v[2]), int(v[3])] for k, v in d["leads"].items()}
        a.counts = {k: np.array(v["v"], np.int64).reshape(v["shape"]) for k, v in d["counts"].items()}
        a.hists = {k: np.array(v["v"], np.int64).reshape(v["shape"]) for k, v in d.get("hists", {}).items()}
        return a

    def __eq__(self, other) -> bool:
        return isinstance(other, Aggregate) and self.to_json() == other.to_json()

    # --- what the tables read
    @property
    def capped(self) -> int:
        return int(self.outcome[:, :, 1].sum())

    def seat_scores(self) -> tuple[np.ndarray, int, int, int]:
        """(wins per seat, no-winner games not capped, capped games, games), like
        ``analysis.runs.seat_scores`` on records."""
        done = self.outcome[:, :, 0].sum(axis=0)   # by winner + 1
        return done[1:].astype(np.int64), int(done[0]), self.capped, self.games

    def pairwise(self, entrants_per_seat: list[int], k: int):
        """``analysis.ratings.pairwise`` from the counts."""
        wins = np.zeros((k, k))
        games = np.zeros((k, k))
        by_w = self.outcome[:, :, 0].sum(axis=0)
        n_done = int(by_w.sum())
        nobody = int(by_w[0])
        seats = len(entrants_per_seat)
        for s in range(seats):
            for t in range(seats):
                if s == t:
                    continue
                i, j = entrants_per_seat[s], entrants_per_seat[t]
                if i == j:
                    continue
                ws = int(by_w[s + 1])
                other = int(by_w[1:].sum()) - ws - int(by_w[t + 1])
                wins[i, j] += ws + 0.5 * nobody
                games[i, j] += n_done - other
        games = (games + games.T) / 2
        return wins, games

    def half_width(self) -> float:
        from .stats import wilson

        wins, draws, capped, n = self.seat_scores()
        done = n - capped
        if done == 0:
            return 1.0
        lo, hi = wilson(int(wins[0]) + 0.5 * draws, done)
        return (hi - lo) / 2


# ------------------------------------------------------------------ metrics
def _mean_ci_exact(n: int, s1: int, s2: int, e: int) -> dict:
    """``analysis.metrics.mean_ci`` from exact sums (mean and variance computed exactly,
    then rounded once)."""
    from .metrics import CONF, _na

    if n == 0:
        return _na("no games with a winner", 0)
    scale = Fraction(2) ** e
    S1 = Fraction(s1) * scale
    S2 = Fraction(s2) * scale * scale
    m = float(S1 / n)
    if n == 1:
        return {"x": m, "x_ci": [m, m], "n": 1}
    var = (S2 - S1 * S1 / n) / (n - 1)
    sd = math.sqrt(float(var)) if var > 0 else 0.0
    half = float(st.t.ppf(0.5 + CONF / 2, n - 1) * sd / math.sqrt(n))
    return {"x": m, "x_ci": [m - half, m + half], "n": int(n)}


def duration(agg: Aggregate) -> dict:
    from .metrics import _na

    h = agg.turns
    n = int(h.sum())
    if n == 0:
        return _na("no games")
    t = np.arange(h.size, dtype=object)
    ho = h.astype(object)
    out = _mean_ci_exact(n, int((t * ho).sum()), int((t * t * ho).sum()), 0)
    out.update({"median": hist_median(h), "p5": hist_percentile(h, 5), "p95": hist_percentile(h, 95)})
    return out


def metrics(agg: Aggregate, entrant_rates=None, entrant_games=None, cooperative: bool = False) -> dict:
    """``analysis.metrics.metrics`` from an aggregate (same keys, same definitions)."""
    from .metrics import _na, rate, spread

    n = agg.games
    out = {}
    if entrant_rates is not None and len(entrant_rates) >= 2:
        out["balance"] = spread(entrant_rates, entrant_games, games=n)
    else:
        out["balance"] = _na("one entrant: nothing to compare", n)
    done = agg.outcome[:, :, 0]                      # [first, winner + 1]
    n_done = int(done.sum())
    if cooperative:
        out["advantage_p1"] = _na("cooperative game: no first-player edge", n)
        out["drawishness"] = _na("cooperative game: no draws", n)
    else:
        first_won = sum(int(done[f, f + 1]) for f in range(agg.seats))
        nobody = int(done[:, 0].sum())
        out["advantage_p1"] = rate(first_won + 0.5 * nobody, n_done)
        out["drawishness"] = rate(nobody, n)
    out["completion"] = rate(agg.capped, n)
    out["completion"]["capped_games"] = agg.capped
    out["duration"] = duration(agg)
    if cooperative:
        for k in ("decisiveness", "lead_change", "drama"):
            out[k] = _na("cooperative game: no leader", n)
    elif agg.leads is None:
        for k in ("decisiveness", "lead_change", "drama"):
            out[k] = _na("not measured (run with --trace)", n)
    else:
        out["lead_change"] = _mean_ci_exact(*agg.leads["lead_changes"])
        out["decisiveness"] = _mean_ci_exact(*agg.leads["decided_at"])
        out["drama"] = _mean_ci_exact(*agg.leads["drama"])
    return out


# ------------------------------------------------------------------ the chunk task
def play_chunk(start: int, stop: int, game: str, setup, lineup: tuple, strategies: tuple, seed: int,
               engine: str = "kernel", trace: bool = False) -> dict:
    """Module level: runs in worker processes, which look the game up by name."""
    return get_game(game).play(start, stop, seed, setup, lineup, strategies, engine, trace)


def aggregate_chunk(start: int, stop: int, game: str, setup, lineup: tuple, strategies: tuple, seed: int,
                    engine: str, trace: bool, seats: int, threads: int = 0, keep_records: bool = False):
    """Module level (runs in worker processes and on cluster workers): play games
    ``start..stop-1`` and reduce them. Returns ``(start, stop, aggregate JSON, records or
    None)``; the records travel back only with ``keep_records``."""
    if threads:
        from simcore.parallel import _set_threads

        _set_threads(threads)
    rec = play_chunk(start, stop, game, setup, lineup, strategies, seed, engine, trace)
    agg = Aggregate.of_records(rec, seats, game)
    return start, stop, agg.to_json(), (rec if keep_records else None)
