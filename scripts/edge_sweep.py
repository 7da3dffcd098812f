"""Edge sweep: every whole number a user can set, at edge values, one at a time (and every
rule switch flipped); each setting must be refused on load with a one-line
``PlaytestError``, or load and play a few games on both engines. Anything else (another
exception, a game running past the time limit) is printed as ``DEFECT`` and makes the exit
status 1.

    python scripts/edge_sweep.py                      # every game's rule options
    python scripts/edge_sweep.py --game dicethrone --content --values 0,51,1000000

The loader fuzz tests (``tests/test_loaders_fuzz.py``) prove that a malformed file loads
or fails cleanly; they play no game. This plays: the first sweep found a rule option that
loaded and then hung both engines (Dice Throne ``income_cards=10**9``: a billion draws a
turn) and a content number that loaded and then exhausted the memory (a token's stack
limit of 10**6: the optimal strategy's tables). The time limit is a ``SIGALRM`` in this
process: it stops a Python loop (the reference engine), not a compiled kernel's loop (a
kernel that never returns shows as the sweep stopping at that line).
"""
from __future__ import annotations

import argparse
import copy
import signal
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simcore.errors import PlaytestError  # noqa: E402
from simcore.game import game_names, get_game  # noqa: E402
from simcore.toml_io import is_whole  # noqa: E402

VALUES = (-1, 0, 1, 2, 3, 7, 13, 20, 100, 10**6, 10**9)


def _alarm(*_):
    raise TimeoutError("still running at the time limit")


def _play(api, rules, content, games: int, strategies) -> None:
    """``games`` kernel games and one reference game per strategy, every seat the same."""
    seats = api.type.default_seats
    n = len(api.entrant_names(content))
    lineup = tuple(i % n for i in range(seats)) if api.type.entrants == "heroes" else tuple(range(seats))
    setup = api.make_setup(rules, content, seats)
    for s in strategies:
        api.play(0, games, 1, setup, lineup, (s,) * seats)
        api.play(0, 1, 1, setup, lineup, (s,) * seats, engine="reference")


def _check(label: str, fn, limit: int) -> bool:
    """Run ``fn``; print one line; False for a defect."""
    t0 = time.perf_counter()
    signal.alarm(limit)
    try:
        fn()
    except PlaytestError as e:
        print(f"{label}  refused: {e}", flush=True)
        return True
    except Exception as e:  # the defects this sweep looks for
        print(f"{label}  DEFECT {type(e).__name__}: {str(e)[:160]}", flush=True)
        return False
    finally:
        signal.alarm(0)
    print(f"{label}  ok ({time.perf_counter() - t0:.1f} s)", flush=True)
    return True


def rule_sweep(game: str, values, games: int, limit: int) -> int:
    api = get_game(game)
    base = api.load_rules()
    content = api.load_content(base)
    strategies = ("random", api.type.default_strategy)
    # the shipped rules first, with no time limit: this compiles or loads the kernels
    bad = not _check(f"{game} shipped rules", lambda: _play(api, base, content, games, strategies), 0)
    for key, v0 in base.items():
        if isinstance(v0, bool):
            tries = [not v0]                  # a switch: the other way
        elif is_whole(v0):
            tries = values
        else:
            continue
        for v in tries:
            def run(key=key, v=v):
                _play(api, api.load_rules(None, {key: v}), content, games, strategies)
            bad += not _check(f"{game} rules {key}={v}", run, limit)
    return bad


def _leaves(d, pre=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, pre + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _leaves(v, pre + (i,))
    elif is_whole(d):
        yield pre


def _content_files(game: str):
    """``({relative path: shipped file}, play(folder))`` of a game with content files."""
    if game == "dicethrone":
        from simcore.dicethrone import model as M
        from simcore.dicethrone.roster import Roster
        from strategies.dicethrone.bind import play_range

        files = {"heroes/cards.toml": M.CARDS_FILE, **{f"heroes/{h}.toml": M.HEROES_DIR / f"{h}.toml"
                                                       for h in M.roster()}}

        def play(root, games):
            ro = Roster(root / "heroes")
            for s in ("greedy", "random"):
                play_range(0, games, 1, strategies=(s, s), roster=ro)
                play_range(0, 1, 1, strategies=(s, s), roster=ro, engine="reference")
        return files, play
    if game == "river":
        from simcore.river import model as M
        from strategies.river.bind import play_range

        files = {"deck.toml": M.DECK_FILE, "tiles.toml": M.TILES_FILE, "tactics.toml": M.TACTICS_FILE}

        def play(root, games):
            T = M.make_tables(deck=M.load_deck(root / "deck.toml"), tiles=M.load_tiles(root / "tiles.toml"),
                              tactics=M.load_tactics(root / "tactics.toml"))
            for s in ("heuristic", "random"):
                play_range(0, games, 1, attacker=s, defender=s, tables=T)
                play_range(0, 1, 1, attacker=s, defender=s, tables=T, engine="reference")
        return files, play
    if game == "arcade":
        from simcore.arcade import model as M
        from strategies.arcade.bind import play_range

        def play(root, games):
            deck = M.load_deck(root / "deck.toml")
            for s in ("greedy", "random"):
                play_range(0, games, 1, 4, s, deck=deck)
                play_range(0, 1, 1, 4, s, deck=deck, engine="reference")
        return {"deck.toml": M.DECK_FILE}, play
    return None


def play_files(play, texts: dict, games: int) -> None:
    """``play`` on a temporary folder holding ``texts`` (relative path -> text)."""
    with tempfile.TemporaryDirectory(prefix="playtest-sweep-") as tmp:
        root = Path(tmp)
        for r, t in texts.items():
            (root / r).parent.mkdir(parents=True, exist_ok=True)
            (root / r).write_text(t, encoding="utf-8")
        play(root, games)


def content_sweep(game: str, values, games: int, limit: int) -> int:
    import tomlkit

    spec = _content_files(game)
    if spec is None:
        print(f"{game}: no content files (its numbers are rule options)")
        return 0
    files, play = spec
    texts = {rel: p.read_text(encoding="utf-8") for rel, p in files.items()}
    # the shipped files first, with no time limit: this compiles or loads the kernels
    bad = not _check(f"{game} shipped files", lambda: play_files(play, texts, games), 0)
    for rel, text in texts.items():
        orig = tomllib.loads(text)
        for path in _leaves(orig):
            for v in values:
                d = copy.deepcopy(orig)
                node = d
                for k in path[:-1]:
                    node = node[k]
                node[path[-1]] = v

                def run(rel=rel, d=d):
                    play_files(play, {**texts, rel: tomlkit.dumps(d)}, games)
                bad += not _check(f"{game} {rel}:{'.'.join(map(str, path))}={v}", run, limit)
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="a game (repeatable; default: all)")
    ap.add_argument("--content", action="store_true", help="the content files' numbers instead of the rules")
    ap.add_argument("--values", default=",".join(map(str, VALUES)), help="comma-separated whole numbers")
    ap.add_argument("--games", type=int, default=10, help="kernel games per setting and strategy")
    ap.add_argument("--limit", type=int, default=60, help="seconds a setting may take")
    a = ap.parse_args(argv)
    values = [int(x) for x in a.values.split(",")]
    signal.signal(signal.SIGALRM, _alarm)
    bad = 0
    for g in a.game or game_names():
        bad += (content_sweep if a.content else rule_sweep)(g, values, a.games, a.limit)
    print(f"{bad} defect(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
