"""Before/after benchmark: ``scripts/bench.py --json`` in two checkouts, alternately
(A, B, A, B, ...), in one run, so that both see the same machine; prints every figure's
median in each checkout and the ratio B / A. Ratios, never single figures, are what to
quote on a shared machine.

    python scripts/bench_ab.py OLD_CHECKOUT [NEW_CHECKOUT (default: this one)] \\
        [--rounds 3] [--only duel --only regicide] [--quick]

Each checkout gets its own numba cache (``PLAYTEST_CACHE_DIR``), warmed before timing.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def bench(checkout: Path, only: list[str], quick: bool) -> dict:
    env = dict(os.environ, PLAYTEST_CACHE_DIR=str(Path.home() / ".cache" / "playtest-ab" / checkout.name),
               PYTHONPATH=str(checkout))
    cmd = [sys.executable, "scripts/bench.py", "--json"] + (["--quick"] if quick else [])
    for o in only:
        cmd += ["--only", o]
    p = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"bench failed in {checkout}: {p.stderr.strip().splitlines()[-1:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path, nargs="?", default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    a_dir, b_dir = args.old.resolve(), args.new.resolve()
    bench(a_dir, args.only, True)  # compile / fill both caches first
    bench(b_dir, args.only, True)
    runs: dict = {"A": [], "B": []}
    for _ in range(args.rounds):
        runs["A"].append(bench(a_dir, args.only, args.quick))
        runs["B"].append(bench(b_dir, args.only, args.quick))
    keys = [k for k in runs["A"][0] if k in runs["B"][0] and isinstance(runs["A"][0][k], (int, float))]
    print(f"A = {a_dir}\nB = {b_dir}\n{args.rounds} rounds, alternating; medians")
    print(f"{'figure':44s} {'A':>14s} {'B':>14s} {'B / A':>8s}")
    for k in keys:
        a = statistics.median(r[k] for r in runs["A"])
        b = statistics.median(r[k] for r in runs["B"])
        print(f"{k:44s} {a:14,.4g} {b:14,.4g} {b / a if a else float('nan'):8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
