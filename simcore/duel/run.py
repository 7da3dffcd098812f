"""Running duel games: one matchup (``simulate``) or the whole tournament
(``run_matchups``), with the compiled kernel (default) or the reference engine.

Game i of a run with seed s is played from stream (s, i) whatever the matchup, the
worker or the chunk; the tournament plays every ordered pair (A, B) and (B, A) on the
same seeds, so each pairing is replayed with seats swapped (TAG-style).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numba as nb
import numpy as np

from ..errors import PlaytestError, check_games
from ..parallel import run_chunks
from .kernel import allocate_records, block_scratch, n_blocks, play_block
from .model import DuelSetup
from .state import ILLEGAL

ENGINES = ("kernel", "reference")
_user_entries: dict = {}


def chunk_entry(strategy):
    """The compiled chunk entry point of a strategy (cached for built-ins; compiled once
    per process for a user strategy)."""
    if strategy.chunk is not None:
        return strategy.chunk
    key = (strategy.name, strategy.keep, strategy.choose)
    if key not in _user_entries:
        keep, choose = strategy.keep, strategy.choose

        @nb.njit(nogil=True)
        def block(data, tb, rules, seed, start, stop, blk, nblk, ha, hb, work, rstate,
                  w, f, t, hp, cp, to, ab, bo):
            play_block(keep, choose, data, tb, rules, seed, start, stop, blk, nblk, ha, hb,
                       work, rstate, w, f, t, hp, cp, to, ab, bo)

        @nb.njit(parallel=True, nogil=True)
        def entry(data, tb, rules, seed, start, stop, nblk, ha, hb, w, f, t, hp, cp, to, ab, bo):
            work, rstate = block_scratch(nblk)
            for blk in nb.prange(nblk):
                block(data, tb, rules, seed, start, stop, blk, nblk, ha, hb, work, rstate,
                      w, f, t, hp, cp, to, ab, bo)

        _user_entries[key] = entry
    return _user_entries[key]


def _resolve_strategy(strategy):
    if isinstance(strategy, str):
        from strategies.duel import load_strategy

        return load_strategy(strategy)
    return strategy


def play_range(start: int, stop: int, setup: DuelSetup, a: int, b: int, strategy, data, seed: int,
               engine: str = "kernel", out: dict | None = None) -> dict:
    """Records of games ``start..stop-1`` of matchup (a, b), into ``out`` if given.
    Module-level: it runs in workers."""
    strategy = _resolve_strategy(strategy)
    try:
        return _play_range(start, stop, setup, a, b, strategy, data, seed, engine, out)
    except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
        from ..plugins import compile_error

        raise compile_error(strategy.name, "keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, "
                            "data, rng) / choose(faces, n_dice, legal, me, st, tb, rules, data, rng)", e) from None


def _play_range(start, stop, setup, a, b, strategy, data, seed, engine, out):
    if engine == "reference":
        from .engine import play_games

        rec = play_games(setup, a, b, strategy, seed, start, stop, data)
        if out is not None:
            for k, v in rec.items():
                out[k][...] = v
        return rec
    rec = allocate_records(stop - start) if out is None else out
    chunk_entry(strategy)(data, setup.tables, setup.rules_vec, seed, start, stop,
                          n_blocks(stop - start), a, b,
                          rec["winner"], rec["first"], rec["turns"], rec["hp"], rec["cp"],
                          rec["timeout"], rec["abilities"], rec["bought"])
    return rec


def check_seed(seed) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise PlaytestError(f"must be a whole number in 0..2**63-1, got {seed!r}", field="--seed")
    return seed


def simulate(setup: DuelSetup, a: int, b: int, strategy, games: int, seed: int, jobs: int = 1,
             chunk_size: int | None = None, progress=False, engine: str = "kernel", data=None,
             threads: int | None = None) -> dict:
    """Per-game records of ``games`` games: seat 0 plays hero ``a``, seat 1 hero ``b``."""
    games = check_games(games)
    seed = check_seed(seed)
    if engine not in ENGINES:
        raise PlaytestError(f"unknown engine {engine!r} (one of {', '.join(ENGINES)})", field="--engine")
    strategy = _resolve_strategy(strategy)
    if a == b and not setup.rules["mirror_matches"]:
        raise PlaytestError("mirror matches are off in the rule options (mirror_matches = false)",
                            field="--vs")
    for h in (a, b):
        if not 0 <= h < len(setup.heroes):
            raise PlaytestError(f"no hero with index {h}", field="--hero")
    if data is None:
        data = strategy.make_data(setup)
    # pass the strategy by name: a pickled numba dispatcher would be rebuilt (and
    # recompiled, uncached) in every worker process
    strat_arg = strategy.name if jobs > 1 else strategy
    rec = run_chunks(play_range, games, setup, a, b, strat_arg, data, seed, engine,
                     jobs=jobs, chunk_size=chunk_size, threads=threads, progress=progress,
                     allocate=allocate_records)
    return check_legal(rec, strategy.name, setup, a, b)


def check_legal(rec: dict, name: str, setup: DuelSetup, a: int, b: int) -> dict:
    """Raise a one-line error naming the strategy if any game stopped on an illegal
    ability choice (``state.ILLEGAL``: an index that is neither -1 nor satisfied by the dice)."""
    bad = np.flatnonzero(rec["winner"] == ILLEGAL)
    if bad.size:
        raise PlaytestError(f"strategy {name!r} chose an illegal ability ({setup.heroes[a].key} vs "
                            f"{setup.heroes[b].key}, {bad.size:,} game(s), first game index {int(bad[0])}): "
                            "choose must return -1 (no attack) or an ability a with legal[a] >= 0",
                            field="--strategy")
    return rec


@dataclass
class MatchupRun:
    heroes: list          # hero names, in index order
    pairs: list           # ordered (a, b) pairs played
    records: dict         # (a, b) -> records
    games: int            # games per ordered pair
    seed: int
    strategy: str
    rules: dict
    hero_keys: list = field(default_factory=list)
    engine: str = "kernel"
    setup: DuelSetup = None


def tournament_pairs(n_heroes: int, mirrors: bool) -> list:
    return [(a, b) for a in range(n_heroes) for b in range(n_heroes) if a != b or mirrors]


def run_matchups(setup: DuelSetup, strategy, games: int, seed: int, jobs: int = 1,
                 chunk_size: int | None = None, progress=False, engine: str = "kernel",
                 threads: int | None = None) -> MatchupRun:
    """Every ordered hero pair (mirrors if the rules allow them), ``games`` games each,
    all on the seeds (seed, 0..games-1)."""
    strategy = _resolve_strategy(strategy)
    data = strategy.make_data(setup)
    pairs = tournament_pairs(len(setup.heroes), bool(setup.rules["mirror_matches"]))
    records = {}
    for a, b in pairs:
        label = f"{setup.heroes[a].key} vs {setup.heroes[b].key}" if progress else False
        records[(a, b)] = simulate(setup, a, b, strategy, games, seed, jobs, chunk_size, label,
                                   engine, data, threads)
    return MatchupRun([h.name for h in setup.heroes], pairs, records, games, seed, strategy.name,
                      dict(setup.rules), [h.key for h in setup.heroes], engine, setup)
