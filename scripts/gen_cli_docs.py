"""Writes docs/cli.md, the command-line reference, from the Typer app itself.

    python scripts/gen_cli_docs.py            # rewrite docs/cli.md
    python scripts/gen_cli_docs.py --check    # exit 1 if docs/cli.md differs (what the test does)

The page is every command of ``playtest`` with its help text and every option's help
record (the same text as ``--help``), commands sorted by name. Nothing is written by hand,
so a renamed flag or a changed default changes the page, and tests/test_docs.py fails until
the page is regenerated.
"""
from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "cli.md"

HEADER = """# CLI reference

Generated from the Typer app by `python scripts/gen_cli_docs.py` (do not edit by hand:
`tests/test_docs.py` fails when this page and the app disagree). Every command also
answers `--help` with the same text.

Options shared by every verb that plays games (`-n`, `--seed`, `--jobs`, `--strategy`,
`--ci-width`, `--backend`, `--store`, ...) mean the same thing everywhere; see
[Statistics](statistics.md) for seeds and intervals and [Running on a cluster](cluster.md)
for the backends.
"""


def _text(s: str) -> str:
    """Help text as Markdown that renders as written (no emphasis, no HTML)."""
    s = s.replace("\b\n", "").replace("\b", "")
    s = s.replace("\\", "\\\\")
    for ch in "*_`[]":
        s = s.replace(ch, "\\" + ch)
    return s.replace("<", "&lt;").replace(">", "&gt;")


def _cell(s: str) -> str:
    return re.sub(r"\s+", " ", _text(s)).replace("|", "\\|").strip()


def _commands(cmd, path):
    yield path, cmd
    if hasattr(cmd, "commands"):
        for name in sorted(cmd.commands):
            yield from _commands(cmd.commands[name], path + [name])


def render() -> str:
    import typer
    try:  # typer >= 0.22 vendors click as typer._click
        from typer import _click as click
    except ImportError:  # pragma: no cover
        import click
    from scripts.cli import app

    root = typer.main.get_command(app)
    parts = [HEADER]
    for path, cmd in _commands(root, ["playtest"]):
        name = " ".join(path)
        level = "#" * min(len(path) + 1, 4)
        parts.append(f"{level} {name}\n")
        ctx = click.Context(cmd, info_name=name)
        help_text = inspect.cleandoc(cmd.help or "")
        if help_text:
            parts.append(_text(help_text) + "\n")
        if hasattr(cmd, "commands"):
            subs = sorted(cmd.commands)
            parts.append("Commands: " + ", ".join(f"`{s}`" for s in subs) + ".\n")
            continue
        pieces = cmd.collect_usage_pieces(ctx)
        parts.append(f"Usage: `{name} {' '.join(pieces)}`\n")
        rows = []
        for p in cmd.get_params(ctx):
            rec = p.get_help_record(ctx)
            if rec is None:
                if getattr(p, "param_type_name", "") == "argument":
                    rec = (p.make_metavar(ctx) if _takes_ctx(p.make_metavar) else p.make_metavar(), "")
                else:
                    continue
            opts, desc = rec
            if opts == "--help":
                continue
            rows.append(f"| `{opts.replace('|', '/')}` | {_cell(desc)} |")
        if rows:
            parts.append("| option | meaning |\n|---|---|\n" + "\n".join(rows) + "\n")
    return "\n".join(parts)


def _takes_ctx(fn) -> bool:
    try:
        return len(inspect.signature(fn).parameters) >= 1
    except (TypeError, ValueError):  # pragma: no cover
        return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/cli.md is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run python scripts/gen_cli_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("COLUMNS", "100")
    raise SystemExit(main())
