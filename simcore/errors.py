"""One error type for every bad input, rendered by the CLI as a single line."""
from __future__ import annotations


# every character str.splitlines() breaks a line at, shown escaped (a user's key or file
# name may contain one: the message must stay one line)
_LINE_BREAKS = {c: repr(c)[1:-1] for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}
_LINE_BREAKS["\n"] = " "


def one_line_text(text) -> str:
    s = str(text)
    for c, rep in _LINE_BREAKS.items():
        if c in s:
            s = s.replace(c, rep)
    return s


class PlaytestError(Exception):
    """A user-facing error: ``where`` (file or option), ``field`` and ``reason``.

    ``str(err)`` is one line, e.g.
    ``heroes/shadow.toml: abilities[2].target: unknown symbol 'shadw'``.
    """

    def __init__(self, reason: str, where: str | None = None, field: str | None = None):
        self.reason = one_line_text(reason)
        self.where = None if where is None else one_line_text(where)
        self.field = None if field is None else one_line_text(field)
        super().__init__(self.one_line())

    def one_line(self) -> str:
        parts = [p for p in (self.where, self.field) if p]
        parts.append(self.reason)
        return ": ".join(parts)


def require(cond: bool, reason: str, where: str | None = None, field: str | None = None) -> None:
    if not cond:
        raise PlaytestError(reason, where, field)


def requirer(where: str):
    """``need(cond, field, reason)`` raising a PlaytestError about ``where`` (a file or
    option source) when ``cond`` is false: the validators of every game's rule options."""

    def need(cond: bool, field: str, reason: str) -> None:
        if not cond:
            raise PlaytestError(reason, where, field)

    return need


def check_games(n, field: str = "--games") -> int:
    """Validate a game count (a positive whole number)."""
    try:
        value = int(n)
    except (TypeError, ValueError):
        raise PlaytestError(f"must be a whole number, got {n!r}", field=field) from None
    if value != n and not isinstance(n, str):
        raise PlaytestError(f"must be a whole number, got {n!r}", field=field)
    if value <= 0:
        raise PlaytestError(f"must be positive, got {value}", field=field)
    return value
