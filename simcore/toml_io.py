"""Reading TOML data files with one-line errors naming file, field and reason."""
from __future__ import annotations

from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from .errors import PlaytestError


def load_toml(path) -> dict:
    p = Path(path)
    if not p.exists():
        raise PlaytestError("file not found", where=str(p))
    if not p.is_file():
        raise PlaytestError("not a file", where=str(p))
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as e:
        raise PlaytestError(f"malformed TOML: {e}", where=str(p)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise PlaytestError(f"cannot read: {e}", where=str(p)) from None


def parse_value(text: str):
    """A ``--set key=value`` value: TOML syntax, bare words taken as strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def is_whole(v) -> bool:
    """Whether a TOML value is a whole number (TOML's booleans are Python ints: not them)."""
    return isinstance(v, int) and not isinstance(v, bool)


# the largest whole-number rule value any game accepts: the kernels store the rules as
# int64, and a value past that range was an OverflowError traceback (each game's own
# checks give the narrower range an option really has)
MAX_RULE_INT = 10**9


def apply_options(defaults: dict, overrides: dict, where: str, kinds: dict | None = None) -> dict:
    """Merge ``overrides`` into a copy of ``defaults``: unknown keys, wrong types and whole
    numbers beyond +-``MAX_RULE_INT`` are errors (bool is not int; int is accepted for float)."""
    out = dict(defaults)
    for key, value in overrides.items():
        if key not in defaults:
            raise PlaytestError(f"unknown rule option (known: {', '.join(sorted(defaults))})", where, key)
        want = type(defaults[key])
        ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
        if want is float and is_whole(value):
            value, ok = float(value), True
        if not ok:
            raise PlaytestError(f"must be {want.__name__}, got {type(value).__name__} {value!r}", where, key)
        if want is int and abs(value) > MAX_RULE_INT:
            raise PlaytestError(f"must be between -{MAX_RULE_INT:,} and {MAX_RULE_INT:,}, got {value}", where, key)
        out[key] = value
    return out


def parse_set_options(pairs, field: str = "--set") -> dict:
    out = {}
    for pair in pairs or ():
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise PlaytestError(f"expected key=value, got {pair!r}", field=field)
        out[key.strip()] = parse_value(value.strip())
    return out


def load_options(defaults_file, path=None, overrides: dict | None = None, validate=None) -> dict:
    """A game's rule options: defaults from ``defaults_file``, then a user TOML file, then
    ``--set`` overrides; ``validate(rules, where)`` checks the result, ``where`` naming the
    source the last change came from."""
    rules = load_toml(defaults_file)
    if path is not None:
        rules = apply_options(rules, load_toml(path), str(path))
    if overrides:
        rules = apply_options(rules, overrides, "--set")
    if validate is not None:
        validate(rules, str(path) if path else "--set" if overrides else str(defaults_file))
    return rules
