"""The layers of ``simcore/game.py`` hold in the code: every import of every module of the
project's packages (stdlib ``ast``: module level, inside functions and classes, relative
ones resolved) goes to its own layer or to a layer below it, and the modules of the
shared runner (``analysis/``) import each other as a chain, never in a circle.

There is no exception list: a game that needs something of a higher layer gets it through
the registry (``simcore.game.get_game``, ``reports.sections``), not through an import.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the layers of simcore/game.py's docstring, lowest first; a package may import its own
# layer and the ones before it. ``playground`` (``playtest serve``) is a front end like
# ``scripts``.
LAYERS = (("simcore",), ("strategies",), ("analysis",), ("reports",), ("scripts", "playground"))
LEVEL = {pkg: i for i, pkgs in enumerate(LAYERS) for pkg in pkgs}


def modules(pkg: str) -> dict[str, Path]:
    out = {}
    for p in sorted((ROOT / pkg).rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def imports(name: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported module) of every import statement anywhere in the file; ``from X
    import y`` counts as X.y when X.y is a module of the project, else as X."""
    tree = ast.parse(path.read_text(), str(path))
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((node.lineno, mod))
            out += [(node.lineno, f"{mod}.{a.name}") for a in node.names if f"{mod}.{a.name}" in ALL]
    return out


ALL = {m: p for pkg in LEVEL for m, p in modules(pkg).items()}


def top(mod: str) -> str:
    return mod.split(".")[0]


def test_the_walker_sees_imports_inside_functions_and_relative_ones(tmp_path):
    """The walker itself: an upward import hidden in a function, and a relative one."""
    f = tmp_path / "x.py"
    f.write_text("from .aggregate import Aggregate\n\ndef f():\n    from reports.game import Page\n    import scripts.cli\n")
    got = {m for _, m in imports("analysis.x", f)}
    assert {"analysis.aggregate", "reports.game", "scripts.cli"} <= got


@pytest.mark.parametrize("pkg", list(LEVEL))
def test_no_upward_import(pkg):
    bad = []
    for name, path in modules(pkg).items():
        for line, mod in imports(name, path):
            t = top(mod)
            if t in LEVEL and LEVEL[t] > LEVEL[pkg]:
                bad.append(f"{path.relative_to(ROOT)}:{line} ({pkg}, layer {LEVEL[pkg]}) imports {mod} "
                           f"({t}, layer {LEVEL[t]})")
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_analysis_has_no_import_cycle():
    """The modules of ``analysis/`` import each other as a chain (a directed graph without
    a cycle): a cycle would show which module is not where it belongs."""
    mods = modules("analysis")
    graph = {m: sorted({x for _, x in imports(m, p) if x in mods and x != m}) for m, p in mods.items()}
    state: dict = {}
    stack: list = []
    cycles = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for x in graph[m]:
            if state.get(x) == 1:
                cycles.append(" -> ".join(stack[stack.index(x):] + [x]))
            elif x not in state:
                visit(x)
        stack.pop()
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m)
    assert not cycles, "import cycles in analysis/:\n" + "\n".join(cycles)


def test_analysis_reaches_strategies_only_through_the_registry():
    """The shared runner and the metrics work for any registered game: they find a game's
    play, strategies and data through ``simcore.game.get_game(name)``, never by importing a
    game's binding (``strategies/``)."""
    bad = [f"{path.relative_to(ROOT)}:{line} imports {mod}"
           for name, path in modules("analysis").items() for line, mod in imports(name, path)
           if top(mod) == "strategies"]
    assert not bad, "analysis/ imports strategies/:\n" + "\n".join(bad)
