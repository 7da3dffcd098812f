"""Dice, faces and the target language shared by every dice game and the odds solver.

A die has six faces; a face has a number and a symbol. Targets (the same strings in
TOML ability definitions and on the command line):

- ``3*fist``                  at least three dice showing the symbol ``fist``;
- ``2*dagger+2*shadow``       both at once (symbol counts add up per symbol);
- ``small-straight``          four consecutive face numbers (1-4, 2-5 or 3-6);
- ``large-straight``          five consecutive face numbers (1-5 or 2-6);
- ``kind:5``                  five dice showing the same face number;
- ``a | b``                   any of the alternatives.

Straights and ``kind`` are judged on face numbers, everything else on symbols.
A target compiles to arrays (``Target.encode``) that the numba kernels evaluate with
``target_met_nb``; ``Target.met`` is the readable twin.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from .errors import PlaytestError

KIND_SYMBOLS = 0
KIND_SMALL_STRAIGHT = 1
KIND_LARGE_STRAIGHT = 2
KIND_OF_A_KIND = 3
MAX_ALTERNATIVES = 4
MAX_SYMBOLS = 12  # distinct symbols over all dice of one set
_SYMBOL_RE = re.compile(r"^[a-z][a-z0-9_\-]*$")


@dataclass(frozen=True)
class Face:
    number: int
    symbol: str

    def __str__(self) -> str:
        return f"{self.number}:{self.symbol}"


@dataclass(frozen=True)
class Die:
    faces: tuple  # six Face

    @property
    def symbols(self) -> list[str]:
        out: list[str] = []
        for f in self.faces:
            if f.symbol not in out:
                out.append(f.symbol)
        return out

    def __str__(self) -> str:
        return ",".join(str(f) for f in self.faces)


def parse_face(text, where=None, field=None) -> Face:
    """``"3"`` (number only: its symbol is the number itself) or ``"3:sword"``,
    or a TOML table ``{number = 3, symbol = "sword"}``."""
    if isinstance(text, dict):
        unknown = set(text) - {"number", "symbol"}
        if unknown:
            raise PlaytestError(f"unknown key {sorted(unknown)[0]!r} (expected number, symbol)", where, field)
        if "number" not in text or "symbol" not in text:
            raise PlaytestError("a face needs both 'number' and 'symbol'", where, field)
        num, sym = text["number"], text["symbol"]
    else:
        s = str(text).strip()
        num, _, sym = s.partition(":")
        if not sym:
            sym = num
        try:
            num = int(num)
        except ValueError:
            raise PlaytestError(f"face {s!r}: number must be a whole number", where, field) from None
    if not isinstance(num, int) or isinstance(num, bool) or not 1 <= num <= 6:
        raise PlaytestError(f"face number must be 1..6, got {num!r}", where, field)
    sym = str(sym).strip().lower()
    if not (_SYMBOL_RE.match(sym) or sym.isdigit()):
        raise PlaytestError(f"bad symbol name {sym!r} (letters, digits, '_' or '-')", where, field)
    return Face(num, sym)


def parse_die(spec, where=None, field=None) -> Die:
    """A die from a comma list (``"1,2,3,4,5,6"``, ``"1:sword,2:sword,..."``) or a
    list of faces (strings or tables)."""
    if not isinstance(spec, (str, list, tuple)):
        raise PlaytestError(f"must be a list of 6 faces or a comma list, got {type(spec).__name__} {spec!r}",
                            where, field)
    items = [x for x in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(items) != 6:
        raise PlaytestError(f"a die has 6 faces, got {len(items)}", where, field)
    return Die(tuple(parse_face(x, where, field) for x in items))


def symbol_vocabulary(dice) -> list[str]:
    vocab: list[str] = []
    for d in dice:
        for s in d.symbols:
            if s not in vocab:
                vocab.append(s)
    if len(vocab) > MAX_SYMBOLS:
        raise PlaytestError(f"at most {MAX_SYMBOLS} distinct symbols over one set of dice, got {len(vocab)}")
    return vocab


@dataclass(frozen=True)
class Alternative:
    kind: int
    counts: tuple = ()  # ((symbol, n), ...) for KIND_SYMBOLS
    n: int = 0  # for KIND_OF_A_KIND

    def __str__(self) -> str:
        if self.kind == KIND_SYMBOLS:
            return "+".join(f"{n}*{s}" for s, n in self.counts)
        if self.kind == KIND_SMALL_STRAIGHT:
            return "small-straight"
        if self.kind == KIND_LARGE_STRAIGHT:
            return "large-straight"
        return f"kind:{self.n}"


@dataclass(frozen=True)
class Target:
    text: str
    alternatives: tuple = field(default_factory=tuple)

    def __str__(self) -> str:
        return " | ".join(str(a) for a in self.alternatives)

    def symbols(self) -> set:
        return {s for a in self.alternatives for s, _ in a.counts}

    def encode(self, vocab: list[str]):
        """Arrays for the kernels: ``kinds[MAX_ALTERNATIVES]`` (-1 = unused slot),
        ``need[MAX_ALTERNATIVES, MAX_SYMBOLS]``, ``n[MAX_ALTERNATIVES]``."""
        kinds = np.full(MAX_ALTERNATIVES, -1, np.int64)
        need = np.zeros((MAX_ALTERNATIVES, MAX_SYMBOLS), np.int64)
        ns = np.zeros(MAX_ALTERNATIVES, np.int64)
        for i, a in enumerate(self.alternatives):
            kinds[i] = a.kind
            ns[i] = a.n
            for s, n in a.counts:
                need[i, vocab.index(s)] = n
        return kinds, need, ns

    def met(self, faces) -> bool:
        """Readable twin: do these faces (a list of ``Face``) satisfy the target?"""
        return any(alternative_met(a, faces) for a in self.alternatives)


def alternative_met(a: Alternative, faces) -> bool:
    if a.kind == KIND_SYMBOLS:
        return all(sum(f.symbol == s for f in faces) >= n for s, n in a.counts)
    numbers = {f.number for f in faces}
    if a.kind == KIND_SMALL_STRAIGHT:
        return any(set(range(lo, lo + 4)) <= numbers for lo in (1, 2, 3))
    if a.kind == KIND_LARGE_STRAIGHT:
        return any(set(range(lo, lo + 5)) <= numbers for lo in (1, 2))
    return max(sum(f.number == v for f in faces) for v in range(1, 7)) >= a.n


_COUNT_RE = re.compile(r"^(\d+)\s*\*\s*([a-z0-9][a-z0-9_\-]*)$")


def parse_target(text, symbols=None, n_dice: int | None = None, where=None, field=None) -> Target:
    """Parse a target string; ``symbols`` (if given) are the symbols the dice can show,
    ``n_dice`` the number of dice (a target needing more dice than that is an error)."""
    if not isinstance(text, str) or not text.strip():
        raise PlaytestError("target must be a non-empty string", where, field)
    alts = []
    for part in text.split("|"):
        p = part.strip().lower()
        if not p:
            raise PlaytestError(f"target {text!r}: empty alternative around '|'", where, field)
        if p in ("small-straight", "large-straight"):
            alt = Alternative(KIND_SMALL_STRAIGHT if p.startswith("small") else KIND_LARGE_STRAIGHT)
            need = 4 if p.startswith("small") else 5
        elif p.startswith("kind:"):
            try:
                n = int(p[5:])
            except ValueError:
                raise PlaytestError(f"target {text!r}: 'kind:N' needs a whole number, got {p[5:]!r}", where, field) from None
            if n < 2:
                raise PlaytestError(f"target {text!r}: 'kind:N' needs N >= 2", where, field)
            alt, need = Alternative(KIND_OF_A_KIND, n=n), n
        else:
            counts: dict[str, int] = {}
            for term in p.split("+"):
                m = _COUNT_RE.match(term.strip())
                if not m:
                    raise PlaytestError(
                        f"target {text!r}: cannot read {term.strip()!r} (expected N*symbol, "
                        "small-straight, large-straight or kind:N)", where, field)
                n, sym = int(m.group(1)), m.group(2)
                if n < 1:
                    raise PlaytestError(f"target {text!r}: count must be >= 1 in {term.strip()!r}", where, field)
                if symbols is not None and sym not in symbols:
                    raise PlaytestError(
                        f"target {text!r}: unknown symbol {sym!r} (dice show: {', '.join(symbols)})", where, field)
                counts[sym] = counts.get(sym, 0) + n
            alt = Alternative(KIND_SYMBOLS, counts=tuple(counts.items()))
            need = sum(counts.values())
        if n_dice is not None and need > n_dice:
            raise PlaytestError(f"target {text!r}: {str(alt)!r} needs {need} dice, only {n_dice} rolled", where, field)
        alts.append(alt)
    if len(alts) > MAX_ALTERNATIVES:
        raise PlaytestError(f"target {text!r}: at most {MAX_ALTERNATIVES} alternatives", where, field)
    return Target(text.strip(), tuple(alts))


# ------------------------------------------------------------------ compiled twin
@nb.njit(cache=True, inline="always")
def target_met_row(sym_counts, num_counts, kinds, need, ns, r, n_sym):
    """Row ``r`` of a table of encoded targets (``kinds[R, L]``, ``need[R, L, S]``,
    ``ns[R, L]``): do these counts satisfy it? ``sym_counts``: dice per symbol id (only the
    first ``n_sym`` symbols are compared); ``num_counts[7]``: dice per face number 1..6.
    Indexes the tables directly (no array views in the hot loop)."""
    for a in range(kinds.shape[1]):
        k = kinds[r, a]
        if k < 0:
            break
        if k == KIND_SYMBOLS:
            ok = True
            for s in range(n_sym):
                if sym_counts[s] < need[r, a, s]:
                    ok = False
                    break
            if ok:
                return True
        elif k == KIND_SMALL_STRAIGHT:
            for lo in range(1, 4):
                if num_counts[lo] > 0 and num_counts[lo + 1] > 0 and num_counts[lo + 2] > 0 and num_counts[lo + 3] > 0:
                    return True
        elif k == KIND_LARGE_STRAIGHT:
            for lo in range(1, 3):
                if (num_counts[lo] > 0 and num_counts[lo + 1] > 0 and num_counts[lo + 2] > 0
                        and num_counts[lo + 3] > 0 and num_counts[lo + 4] > 0):
                    return True
        else:
            for v in range(1, 7):
                if num_counts[v] >= ns[r, a]:
                    return True
    return False


@nb.njit(cache=True)
def target_met_nb(sym_counts, num_counts, kinds, need, ns):
    """One encoded target (``Target.encode``): ``kinds[L]``, ``need[L, S]``, ``ns[L]``."""
    return target_met_row(sym_counts, num_counts, kinds.reshape((1, kinds.shape[0])),
                          need.reshape((1, need.shape[0], need.shape[1])),
                          ns.reshape((1, ns.shape[0])), 0, need.shape[1])
