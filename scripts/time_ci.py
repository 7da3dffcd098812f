"""Times the README's test command as CI runs it, and writes the figure the README quotes.

    python scripts/time_ci.py                # clone HEAD into a temp dir, run `bash .ci/run`
                                             # there with an empty numba cache, then write
                                             # docs/data/ci_time.json and README's line
    python scripts/time_ci.py --write-only   # README's line again from docs/data/ci_time.json

The README's line starts with ``<!-- ci-time -->`` and is rewritten whole; tests/test_docs.py
checks that it says what the JSON file says. A cold run takes minutes of both cores: run it
on a quiet machine, never from the test suite.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data" / "ci_time.json"
MARK = "<!-- ci-time -->"


def _duration(s: float) -> str:
    m, sec = divmod(int(round(s)), 60)
    return f"{m} min {sec} s" if m else f"{sec} s"


def sentence(data: dict) -> str:
    return (f"{MARK} On a clean clone with an empty numba cache it took {_duration(data['seconds'])} "
            f"on {data['date']}, {data['tests']:,} tests on {data['machine']}; most of that is numba "
            f"compiling the games' kernels, which later runs load from the cache.")


def write_readme(data: dict, readme: Path = ROOT / "README.md") -> None:
    lines = readme.read_text(encoding="utf-8").splitlines()
    k = next((i for i, ln in enumerate(lines) if ln.startswith(MARK)), None)
    if k is None:
        raise SystemExit(f"{readme}: no line starting with {MARK}")
    lines[k] = sentence(data)
    readme.write_text("\n".join(lines) + "\n", encoding="utf-8")


def measure() -> dict:
    from scripts.docs_examples import machine

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="playtest-ci-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = dict(os.environ, CI="true", PLAYTEST_CACHE_DIR=str(Path(tmp) / "numba"))
        env.pop("NUMBA_CACHE_DIR", None)
        t0 = time.perf_counter()
        p = subprocess.run(["bash", ".ci/run"], cwd=clone, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
    tail = (p.stdout + p.stderr)[-2000:]
    if p.returncode != 0:
        raise SystemExit(f".ci/run failed ({p.returncode}):\n{tail}")
    m = re.search(r"(\d+) passed", tail)
    return {"seconds": round(seconds, 1), "tests": int(m.group(1)) if m else 0,
            "date": _dt.date.today().isoformat(), "commit": commit, "machine": machine()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write-only", action="store_true", help="only rewrite README's line from the JSON")
    args = ap.parse_args(argv)
    if args.write_only:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    else:
        data = measure()
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    write_readme(data)
    print(sentence(data)[len(MARK) + 1:])
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
