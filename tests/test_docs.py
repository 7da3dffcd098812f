"""The README and docs/ cannot lie: the site builds without a warning (a broken link fails),
the CLI reference is what the Typer app says, every command shown parses, every example
with output runs again here at a small game count and prints the same lines (by shape:
scripts/docs_examples.py), and the figures quoted come from the files their scripts write.

Regenerate after changing a verb, an option or an output: ``python scripts/regen_docs.py``.
"""
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import docs_examples as dx
from tests.cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_site_builds_strict(tmp_path):
    """mkdocs build --strict: a broken link, a missing anchor or a page left out of the nav
    is a warning, and --strict makes it fail."""
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "rules" / "duel" / "index.html").exists()   # the digests are pages


def test_cli_reference_is_generated_from_the_app():
    from scripts.gen_cli_docs import OUT, render

    assert OUT.read_text(encoding="utf-8") == render(), (
        "docs/cli.md differs from the Typer app: run python scripts/gen_cli_docs.py")


def test_readme_is_short_and_shows_the_ci_command():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = next(ln for ln in ci if "pytest" in ln and not ln.startswith("#"))
    first_screen = "\n".join(text.splitlines()[:60])
    assert command.strip() in first_screen, "README's test command must be exactly .ci/run's"
    assert "python3 -m pip install -e . && playtest report duel --out duel-report" in first_screen


def test_readme_links_exist():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [ln for ln in links if "://" not in ln]
    assert local, "README links into docs/"
    missing = [ln for ln in local if not (ROOT / ln).exists()]
    assert not missing, missing


def test_every_shown_command_has_a_directive():
    """A block with ``$ `` lines is an example (run by the tests) or says why it is not."""
    bad = []
    for ex in dx.examples():
        if not ex.commands:
            continue
        if ex.lang != "console":
            bad.append(f"{ex.where}: '$ ' lines belong in a console block")
        elif ex.kind == "illustrative" and not ex.reason:
            bad.append(f"{ex.where}: illustrative without a reason")
        elif ex.kind == "":
            bad.append(f"{ex.where}: no <!-- example --> or <!-- illustrative: why --> line before it")
        elif ex.kind == "example" and not any(out for _, out in ex.commands):
            bad.append(f"{ex.where}: no output yet: run python scripts/docs_examples.py")
    assert not bad, "\n".join(bad)


def _shown_commands():
    """Every ``playtest`` command in a sh/console block of the README and docs/."""
    for ex in dx.examples():
        if ex.lang not in ("sh", "console", "bash"):
            continue
        lines = [c for c, _ in ex.commands] if ex.lang == "console" else \
            dx.Path(ex.path).read_text(encoding="utf-8").splitlines()[ex.start + 1:ex.end]
        for ln in lines:
            ln = ln.strip()
            if ln.startswith("playtest "):
                yield ex.where, ln


def test_every_shown_command_parses():
    """Each command's verb exists and its options parse (without playing a game), so a
    renamed verb or flag in the app fails here until the docs follow."""
    import typer
    from scripts.cli import app

    root = typer.main.get_command(app)
    bad = []
    for where, line in _shown_commands():
        argv = dx.argv_of(line)
        cmd, path, i = root, ["playtest"], 0
        while hasattr(cmd, "commands") and i < len(argv):
            if argv[i] not in cmd.commands:
                bad.append(f"{where}: {line}: no command {argv[i]!r}")
                cmd = None
                break
            cmd, path, i = cmd.commands[argv[i]], path + [argv[i]], i + 1
        if cmd is None:
            continue
        if hasattr(cmd, "commands"):
            bad.append(f"{where}: {line}: incomplete command")
            continue
        try:
            cmd.make_context(" ".join(path), list(argv[i:]), resilient_parsing=False)
        except Exception as e:  # click's UsageError/BadParameter: the docs are out of date
            bad.append(f"{where}: {line}: {e}")
    assert not bad, "\n".join(bad)


def _example_cases():
    for ex in dx.examples():
        if ex.kind != "example":
            continue
        for k, (cmd, shown) in enumerate(ex.commands):
            argv = dx.argv_of(cmd)
            yield pytest.param(dx.game_of(argv), ex, k, id=f"{ex.where}#{k}")


@pytest.mark.parametrize("name, ex, k", list(_example_cases()))
def test_example_runs_and_prints_the_same_lines(name, ex, k, capsys, tmp_path, monkeypatch):
    """The shown command, with the example's small test options, exits as shown and prints
    every checked line's shape (``name``: the game, so that the case joins its game's group
    of workers, tests/conftest.py)."""
    cmd, shown = ex.commands[k]
    argv = dx.with_options(dx.argv_of(cmd), ex.attrs.get("test", ""))
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *argv)
    if "fails" in ex.attrs:
        assert code != 0 and err.strip(), (argv, out)
        printed = err
    else:
        assert code == 0, (argv, err)
        printed = out
    missing = dx.check_output(ex, shown, printed)
    assert not missing, f"{ex.where}: playtest {shlex.join(argv)} no longer prints lines shaped like:\n" + \
        "\n".join(missing) + "\n--- it printed:\n" + printed


def test_shape_ignores_numbers_but_not_words():
    assert dx.shape("  seat 1: 25.2% [24.0, 26.4]") == dx.shape("seat 1: 9.9% [ 1.0,12.0]") == "seat"
    assert dx.shape("first player scores 56.69% [56.54, 56.85]") != dx.shape("first mover scores 56.69%")
    assert dx.with_options(["duel", "play", "-n", "200000", "--seed", "7"], "-n 20 --no-store") == \
        ["duel", "play", "-n", "20", "--seed", "7", "--no-store"]
    ex = dx.Example(ROOT / "x.md", 1, "console", "example")
    shown = ['{"games": 40, "matchups": [{"wins": [1, 2], "capped": 0}]}']
    assert dx.check_output(ex, shown, '{"games": 4, "matchups": [{"wins": [0, 4], "capped": 1}], "new": 1}') == []
    assert dx.check_output(ex, shown, '{"games": 4, "matchups": [{"wins": [0, 4]}]}') == ["key matchups.[].capped"]


def test_benchmark_table_is_the_scripts():
    """docs/benchmarks.md's table is what scripts/bench.py --markdown wrote from
    docs/data/bench.json (not typed by hand)."""
    import datetime as dt

    from scripts import bench

    data = json.loads((ROOT / "docs" / "data" / "bench.json").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    region = page.split(bench.BEGIN, 1)[1].split(bench.END, 1)[0].strip()
    rows = [ln for ln in region.splitlines() if ln.startswith("| `")]
    assert rows == [f"| `{k}` | {bench._value(v)} | {bench._meaning(k)} |" for k, v in sorted(data["figures"].items())]
    when = dt.datetime.fromisoformat(data["when"])
    assert f"Measured {when:%Y-%m-%d %H:%M} UTC on {data['machine']}" in region
    assert data["commit"] in region


def test_ci_time_is_the_scripts():
    """The README's test-suite time is the sentence scripts/time_ci.py writes from
    docs/data/ci_time.json."""
    from scripts.time_ci import sentence

    data = json.loads((ROOT / "docs" / "data" / "ci_time.json").read_text(encoding="utf-8"))
    assert sentence(data) in README.read_text(encoding="utf-8")


def test_regenerating_rewrites_only_the_output(tmp_path):
    """scripts/docs_examples.py replaces a block's output and its time line in place, and a
    second run changes nothing but what the command prints (no text doubled)."""
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nBefore.\n\n<!-- example: time head=2 -->\n```console\n$ playtest games\nold output\n```\n"
                    f"{dx.STALE} an earlier version's output\n\nAfter.\n", encoding="utf-8")
    for _ in range(2):
        assert dx.regenerate(page) == 1
        text = page.read_text(encoding="utf-8")
        assert text.count("# Title") == 1 and text.count("Before.") == 1 and text.count("After.") == 1
        assert "old output" not in text and "earlier version" not in text and text.count(dx.TOOK) == 1
        [ex] = dx.blocks(page)
        [(cmd, shown)] = ex.commands
        assert cmd == "playtest games" and shown[0].startswith("duel") and shown[-1] == "..." and len(shown) == 3
