"""Regenerates everything in README.md and docs/ that a script writes, in one command.

    python scripts/regen_docs.py              # the CLI reference, then every example's output
    python scripts/regen_docs.py --bench      # also the benchmark table (minutes of both cores)
    python scripts/regen_docs.py --ci-time    # also time .ci/run on a clean clone (minutes)

Run it after a change to a verb, an option or what a command prints; tests/test_docs.py
says which part is out of date. The examples replay their full game counts (the README's
main job plays 22 million games), so the whole run takes minutes.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", action="store_true", help="also run scripts/bench.py --markdown")
    ap.add_argument("--ci-time", action="store_true", help="also run scripts/time_ci.py")
    ap.add_argument("--skip-examples", action="store_true", help="only the CLI reference (seconds)")
    args = ap.parse_args(argv)
    from scripts import docs_examples, gen_cli_docs

    gen_cli_docs.main([])
    if not args.skip_examples:
        docs_examples.main([])
    if args.bench:
        from scripts import bench
        bench.main(["--markdown"])
    if args.ci_time:
        from scripts import time_ci
        time_ci.main([])
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
