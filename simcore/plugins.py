"""Importing a user's plug-in module (``--strategy package.module:function``) and turning
what can go wrong into one line naming the module and the problem: a module that is not
found (with a hint when a file of that name sits in the current directory, which the
``playtest`` console script does not search), a syntax error, an exception raised while
importing, or a numba compile error of the plug-in's functions."""
from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

from .errors import PlaytestError

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _not_found_hint(mod_name: str) -> str:
    top = mod_name.split(".")[0]
    if mod_name.endswith(".py") or "/" in mod_name or "\\" in mod_name:
        stem = Path(mod_name).with_suffix("").as_posix().replace("/", ".").strip(".")
        return f"; give a module path, not a file name (e.g. {stem}:FUNCTION, run with PYTHONPATH=.)"
    here = Path.cwd()
    if (here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file() or (here / top).is_dir():
        if "" not in sys.path and str(here) not in sys.path:
            return (f"; {top!r} is in the current directory, which is not on the import path: "
                    f"run with PYTHONPATH=. (or install it as a package)")
    return "; the module must be importable: on PYTHONPATH (e.g. PYTHONPATH=.) or installed"


def import_plugin_module(mod_name: str, field: str = "--strategy"):
    """``importlib.import_module(mod_name)`` with every failure as a one-line PlaytestError."""
    if not mod_name or not all(p.isidentifier() for p in mod_name.split(".")):
        raise PlaytestError(f"{mod_name!r} is not a module path (package.module:function)"
                            + (_not_found_hint(mod_name) if mod_name else ""), field=field)
    try:
        return importlib.import_module(mod_name)
    except ModuleNotFoundError as e:
        missing = e.name or mod_name
        if mod_name == missing or mod_name.startswith(missing + "."):
            raise PlaytestError(f"cannot import module {mod_name!r}: no module named {missing!r}"
                                + _not_found_hint(mod_name), field=field) from None
        raise PlaytestError(f"module {mod_name!r} failed to import: it needs module {missing!r}, "
                            "which is not installed", field=field) from None
    except SyntaxError as e:
        where = f"{Path(e.filename).name}:{e.lineno}" if e.filename else "?"
        raise PlaytestError(f"module {mod_name!r} has a syntax error at {where}: {e.msg}", field=field) from None
    except Exception as e:  # noqa: BLE001 - the user's module raised while importing
        raise PlaytestError(f"module {mod_name!r} raised {type(e).__name__} on import: {e}", field=field) from None


def check_arity(fn, label: str, params: tuple, field: str = "--strategy") -> None:
    """A plug-in function must take exactly the documented positional arguments."""
    import inspect

    try:
        sig = inspect.signature(getattr(fn, "py_func", fn))
    except (TypeError, ValueError):
        return
    ps = list(sig.parameters.values())
    if any(p.kind in (p.VAR_POSITIONAL,) for p in ps):
        return
    if len(ps) != len(params):
        got = ", ".join(p.name for p in ps)
        raise PlaytestError(f"{label} takes {len(ps)} argument(s) ({got}); the interface is "
                            f"{label.rsplit('.', 1)[-1]}({', '.join(params)})", field=field)


def numba_error_line(e: BaseException) -> str:
    """The first informative line of a numba compile error (ANSI colours removed)."""
    text = _ANSI.sub("", str(e))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    skip = ("Failed in nopython mode pipeline", "During:", "File ", "^", "Traceback")
    for i, ln in enumerate(lines):
        if not ln.startswith(skip):
            if ln.endswith(":") and i + 1 < len(lines):
                ln = f"{ln} {lines[i + 1]}"
            m = re.search(r"to signature '([^']*)' due to \"?([^\"]*)", ln)
            if ln.startswith("Cannot bind") and m:
                return f"signature {m.group(1)}: {m.group(2).strip()}"
            return ln if len(ln) <= 200 else ln[:197] + "..."
    return type(e).__name__


def compile_error(spec: str, signature: str, e: BaseException, field: str = "--strategy") -> PlaytestError:
    """The one-line error for a plug-in whose functions do not compile with the documented
    signature, ending with numba's first useful line."""
    return PlaytestError(f"plug-in {spec!r} does not compile with the documented signature {signature}: "
                         f"{numba_error_line(e)}", field=field)
