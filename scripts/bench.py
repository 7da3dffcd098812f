"""Benchmarks: figures and ratios printed, never asserted. Each game contributes a
module ``scripts/bench_<game>.py`` with ``run(quick: bool) -> dict`` of named figures.

    python scripts/bench.py            # human-readable
    python scripts/bench.py --json     # one JSON object
    python scripts/bench.py --quick    # smaller runs (a smoke test)
    python scripts/bench.py --markdown # also rewrite the table in docs/benchmarks.md

``--markdown`` writes today's figures between the ``<!-- bench:begin -->`` and
``<!-- bench:end -->`` lines of docs/benchmarks.md (the page shows one table, never a
history: git keeps the earlier ones), with the date, the machine and the commit in one line
under it, and the raw figures to docs/data/bench.json.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

SECTIONS = ("scripts.bench_duel", "scripts.bench_odds", "scripts.bench_regicide", "scripts.bench_games")
ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"

# what a figure means, by the end of its key (the first match wins); a key not listed shows
# as it is
MEANING = (
    ("kernel_games_per_s", "kernel, games per second, every thread"),
    ("kernel_1thread_games_per_cpu_s", "kernel, games per CPU-second, one thread"),
    ("kernel_1thread_games_per_s", "kernel, games per second, one thread"),
    ("reference_games_per_s", "reference engine, games per second"),
    ("kernel_over_reference_ceiling", "highest kernel/reference ratio the shared strategy allows"),
    ("kernel_over_reference", "kernel speed / reference engine speed, same games"),
    ("kernel_strategy_share", "share of the kernel's time spent in the strategy"),
    ("turns_per_game", "turns a game (mean)"),
    ("game_time_over_1v1", "time of a game / time of a 1v1 game, same heroes and strategy (target: <= 3)"),
    ("search_s_per_game", "seconds a game with the search strategy"),
    ("_seconds", "seconds"),
    ("_per_s", "per second"),
)


def _meaning(key: str) -> str:
    return next((m for end, m in MEANING if key.endswith(end)), "")


def _value(v) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, int) or float(v).is_integer() and abs(v) >= 1000:
        return f"{int(v):,}"
    return f"{v:,.4g}" if abs(v) < 1000 else f"{v:,.0f}"


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return head + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"


def _machine() -> str:
    cpu = ""
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                   if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores" + (f" ({cpu})" if cpu else "")


def markdown_table(figures: dict, load: float | None, quick: bool, when: _dt.datetime,
                   load_after: float | None = None) -> str:
    rows = ["| figure | value | meaning |", "|---|---:|---|"]
    for k in sorted(figures):
        rows.append(f"| `{k}` | {_value(figures[k])} | {_meaning(k)} |")
    stamp = (f"Measured {when:%Y-%m-%d %H:%M} UTC on {_machine()}"
             + (f", load average {load:.2f} before the run" if load is not None else "")
             + ((" and" if load is not None else ", load average") + f" {load_after:.2f} after it"
                if load_after is not None else "")
             + f", commit {_commit()}: `python scripts/bench.py --markdown"
             + (" --quick" if quick else "") + "`.")
    return "\n".join(rows) + "\n\n" + stamp


def write_markdown(figures: dict, load: float | None, quick: bool, page: Path = PAGE) -> None:
    when = _dt.datetime.now(_dt.timezone.utc)
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else None   # others' jobs show here
    text = page.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{page}: no {BEGIN} ... {END} region to write the table into")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    page.write_text(head + BEGIN + "\n" + markdown_table(figures, load, quick, when, load_after) + "\n" + END + tail,
                    encoding="utf-8")
    data = page.parent / "data" / "bench.json"
    data.parent.mkdir(exist_ok=True)
    data.write_text(json.dumps({"when": when.isoformat(timespec="seconds"), "machine": _machine(),
                                "commit": _commit(), "quick": quick, "load_before": load, "load_after": load_after,
                                "figures": figures}, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="small runs, for a smoke test")
    ap.add_argument("--only", action="append", default=None,
                    help="run only these sections (duel, odds, regicide, games); repeatable")
    ap.add_argument("--markdown", action="store_true",
                    help="also write the table into docs/benchmarks.md and docs/data/bench.json")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
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
    if args.markdown:
        write_markdown(out, load, args.quick)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    raise SystemExit(main())
