"""Benchmarks: figures and ratios printed, never asserted. Each game contributes a
module ``scripts/bench_<game>.py`` with ``run(quick: bool) -> dict`` of named figures.

    python scripts/bench.py            # human-readable
    python scripts/bench.py --json     # one JSON object
    python scripts/bench.py --quick    # smaller runs (a smoke test)
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys

SECTIONS = ("scripts.bench_duel", "scripts.bench_odds", "scripts.bench_regicide", "scripts.bench_games")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="small runs, for a smoke test")
    ap.add_argument("--only", action="append", default=None,
                    help="run only these sections (duel, odds, regicide, games); repeatable")
    args = ap.parse_args(argv)
    out: dict = {"cores": os.cpu_count()}
    for name in SECTIONS:
        short = name.rsplit("_", 1)[1]
        if args.only and short not in args.only:
            continue
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        figures = mod.run(quick=args.quick)
        out.update(figures)
        if not args.json:
            print(f"== {short}", file=sys.stderr if args.json else sys.stdout)
            for k, v in figures.items():
                print(f"  {k:40s} {v:,.4g}" if isinstance(v, (int, float)) else f"  {k:40s} {v}")
    if args.json:
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    raise SystemExit(main())
