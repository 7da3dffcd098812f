"""The examples in README.md and docs/ are real: this script writes their output, and the
test suite runs them again at a small game count (tests/test_docs.py).

    python scripts/docs_examples.py             # re-run every example, rewrite its output
    python scripts/docs_examples.py --only README.md --match "report duel"
    python scripts/docs_examples.py --list      # every example and how the tests run it

An example is a fenced ``console`` block whose lines starting with ``$ `` are commands and
whose other lines are what the command printed. The line before the fence is a directive,
an HTML comment (invisible on GitHub and in the built site), one of:

    <!-- example: test="-n 200" head=8 check=3 time -->
    <!-- illustrative: why it is not run (a server, minutes of play, a cluster...) -->

* ``test="ARGS"``: the options the tests use instead (each replaces the same option of the
  shown command, or is added): the shown command plays the full count, the test a few games.
* ``head=N``: keep the first N lines of the output (then a ``...`` line).
* ``check=N``: the tests compare only the first N shown lines (default: all of them). Lines
  further down depend on the data (a verdict such as "too strong" may not be reached at
  small n) and stay as printed by the full run.
* ``figure="FILE DEST"``: copy FILE, written by the command (relative to its working
  directory), to DEST in the repository, as a small PNG (a palette of 128 colours).
* ``fails``: the command is meant to fail: the shown output is its one-line error (stderr)
  and the tests expect a non-zero exit.
* A line ``<!-- stale --> ...`` right under the block says that its output is an earlier
  version's (shown until the script can run it again); the script removes it.
* ``time``: the line after the block says how long the full command took here
  (``<!-- took -->`` marks it; the script rewrites it).

The comparison is by *shape*: each line is reduced to its words (numbers, intervals and run
ids removed), and each checked line's shape must appear in the small run's output (a JSON
object: each of its keys must appear, at every level). So a
renamed column, a missing header or a verb that fails breaks the test; a number that moved
does not.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIRECTIVE = re.compile(r"^<!--\s*(example|illustrative)\b:?(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
TOOK = "<!-- took -->"
STALE = "<!-- stale -->"   # a line under an example whose output is an earlier version's


@dataclass
class Example:
    path: Path
    line: int                      # 1-based line of the opening fence
    lang: str
    kind: str                      # "example", "illustrative" or "" (no directive)
    attrs: dict = field(default_factory=dict)
    reason: str = ""
    commands: list = field(default_factory=list)   # [(command line, [output lines])]
    start: int = 0                 # index of the fence line in the file's lines
    end: int = 0                   # index of the closing fence line

    @property
    def where(self) -> str:
        p = self.path.resolve()
        return f"{p.relative_to(ROOT) if p.is_relative_to(ROOT) else p}:{self.line}"


def doc_files() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def _attrs(text: str) -> dict:
    out = {}
    for tok in shlex.split(text):
        k, _, v = tok.partition("=")
        out[k] = v if _ else True
    return out


def blocks(path: Path) -> list[Example]:
    """Every fenced block of a Markdown file, with its directive (if any)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(2), m.group(3)
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        prev = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        d = DIRECTIVE.match(prev.strip())
        ex = Example(path, i + 1, lang, d.group(1) if d else "", start=i, end=j)
        if d and d.group(1) == "example":
            ex.attrs = _attrs(d.group(2))
        elif d:
            ex.reason = d.group(2).strip()
        body = [ln[len(m.group(1)):] for ln in lines[i + 1:j]]
        for ln in body:
            if ln.startswith("$ "):
                ex.commands.append((ln[2:], []))
            elif ex.commands:
                ex.commands[-1][1].append(ln)
        out.append(ex)
        i = j + 1
    return out


def examples() -> list[Example]:
    return [b for p in doc_files() for b in blocks(p)]


def shape(line: str) -> str:
    """A line's words, without its numbers: what must not change between runs."""
    words = [w for w in re.split(r"\s+", line.strip()) if w and not re.search(r"\d", w)]
    words = [re.sub(r"[\[\](),;:=%]+", "", w) for w in words]
    return " ".join(w for w in words if re.search(r"[A-Za-z]", w))


def argv_of(command: str) -> list[str]:
    """The arguments after ``playtest`` (shell comments dropped)."""
    toks = shlex.split(command, comments=True)
    if not toks or toks[0] != "playtest":
        raise ValueError(f"not a playtest command: {command}")
    return toks[1:]


def with_options(argv: list[str], extra: str) -> list[str]:
    """``argv`` with each option of ``extra`` replacing the same option (or added)."""
    argv = list(argv)
    toks = shlex.split(extra)
    i = 0
    while i < len(toks):
        opt = toks[i]
        val = toks[i + 1] if i + 1 < len(toks) and not toks[i + 1].startswith("-") else None
        if opt in argv:
            k = argv.index(opt)
            if val is not None:
                argv[k + 1] = val
        else:
            argv += [opt] + ([val] if val is not None else [])
        i += 2 if val is not None else 1
    return argv


def game_of(argv: list[str]) -> str:
    """The game an example plays (the test joins that game's group of workers)."""
    first = argv[0]
    if first in ("report", "odds") and len(argv) > 1:
        return "duel" if first == "odds" else argv[1]
    return first


def check_output(ex: Example, shown: list[str], printed: str) -> list[str]:
    """The shown lines whose shape is missing from ``printed`` (empty: it matches). A JSON
    object is compared by its keys, at every level of nesting of objects."""
    whole = "\n".join(shown).strip()
    if whole.startswith("{"):
        try:
            want, got = json.loads(whole), json.loads(printed)
        except ValueError:
            pass
        else:
            return [f"key {k}" for k in sorted(_keys(want) - _keys(got))]
    have = {shape(ln) for ln in printed.splitlines()}
    want = [ln for ln in shown if ln.strip() and ln.strip() != "..."]
    n = int(ex.attrs.get("check", len(want)))
    return [ln for ln in want[:n] if shape(ln) not in have]


def _keys(obj, prefix="") -> set:
    """Every key path of the objects nested in ``obj`` (a list's items pooled)."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out |= {prefix + k} | _keys(v, prefix + k + ".")
    elif isinstance(obj, list):
        for v in obj:
            out |= _keys(v, prefix + "[].")
    return out


def _duration(s: float) -> str:
    if s < 60:
        return f"{s:.0f} s"
    return f"{int(s // 60)} min {int(round(s % 60))} s"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                cpu = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu})"


def run_full(argv: list[str], cwd: str, env: dict, fails: bool = False) -> tuple[str, float]:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "scripts.cli", *argv], cwd=cwd, env=env,
                       capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if (p.returncode != 0) != fails:
        raise SystemExit(f"playtest {' '.join(argv)}: exit {p.returncode}: {p.stderr.strip()}")
    return (p.stderr if fails else p.stdout), dt


def save_png(src: Path, dest: Path) -> None:
    """``src`` as a PNG of at most 128 colours (a third of the size, the same to the eye)."""
    from PIL import Image   # matplotlib's own dependency

    dest.parent.mkdir(parents=True, exist_ok=True)
    with Image.open(src) as im:
        im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(dest, optimize=True)


def regenerate(path: Path, match: str | None = None) -> int:
    """Re-run the examples of one file and write their output back; returns how many."""
    lines = path.read_text(encoding="utf-8").splitlines()
    done = 0
    for ex in reversed(blocks(path)):       # from the bottom: indices stay valid
        if ex.kind != "example" or not ex.commands:
            continue
        if match and not any(match in c for c, _ in ex.commands):
            continue
        body, took = [], 0.0
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0   # before, as the bench
        with tempfile.TemporaryDirectory(prefix="playtest-docs-") as tmp:
            env = dict(os.environ, PYTHONPATH=str(ROOT), PLAYTEST_STORE=os.path.join(tmp, "store"),
                       COLUMNS="100")
            for cmd, _ in ex.commands:
                print(f"{ex.where}: $ {cmd}", file=sys.stderr)
                out, dt = run_full(argv_of(cmd), tmp, env, fails="fails" in ex.attrs)
                took += dt
                out_lines = out.rstrip("\n").splitlines()
                head = int(ex.attrs.get("head", 0))
                if head and len(out_lines) > head:
                    out_lines = out_lines[:head] + ["..."]
                body += [f"$ {cmd}"] + out_lines
            if "figure" in ex.attrs:
                src, dest = ex.attrs["figure"].split()
                save_png(Path(tmp) / src, ROOT / dest)
        indent = FENCE.match(lines[ex.start]).group(1)
        new = [lines[ex.start]] + [indent + b if b else b for b in body] + [lines[ex.end]]
        rest = lines[ex.end + 1:]
        if rest and rest[0].startswith(STALE):     # the output is today's now
            rest = rest[1:]
        if "time" in ex.attrs:
            if rest and rest[0].startswith(TOOK):
                rest = rest[1:]
            today = _dt.date.today().isoformat()
            rest = [f"{TOOK} It took {_duration(took)} on {today} on {machine()}, load average "
                    f"{load:.1f} before it (a first run also compiles the kernels)."] + rest
        lines = lines[:ex.start] + new + rest
        done += 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="only this file (repeatable), e.g. README.md")
    ap.add_argument("--match", help="only examples whose command contains this text")
    ap.add_argument("--list", action="store_true", help="list the examples, run nothing")
    args = ap.parse_args(argv)
    files = [ROOT / f for f in args.only] if args.only else doc_files()
    if args.list:
        for p in files:
            for ex in blocks(p):
                if ex.commands:
                    how = ex.attrs.get("test", "") if ex.kind == "example" else ex.reason
                    print(f"{ex.where}  {ex.kind or 'NO DIRECTIVE'}  {how}")
        return 0
    total = sum(regenerate(p, args.match) for p in files)
    print(f"regenerated {total} example(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
