"""Dice Throne's heroes as a roster: the hero files of one heroes folder (sorted by file
name: ``model.roster``) with its generic file, checked once, and the content of each
matchup built from them on demand.

Why per matchup: token and card ids belong to a matchup (``model.load_content`` of its one
or two heroes plus the generic file), so eight heroes with 27 tokens and 138 cards never
need one table that holds them all (``season1/VOCABULARY.md`` section 1.2). A matchup's
content lists its heroes in roster order, whichever seat each sits in, so both seat orders
of a pair share one content (and one set of tables); a mirror loads its hero once.

What it guarantees:

- every input problem is found when the roster is made, before any game: each hero file
  loads alone with the generic file, no two hero files define the same token or card id
  (their ``token.<id>``/``card.<id>`` edit keys would be ambiguous), and every pair fits
  the engine's per-matchup limits (``MAX_TOKENS``, ``MAX_CARDS``), each problem as one
  ``file: field: reason`` line;
- a roster is its files' text (``texts``: ``heroes/<hero>.toml`` and ``heroes/cards.toml``,
  the generic file, as an export writes them): an edited roster (``playtest serve``,
  ``fix``, ``tune``) is the same object made from edited text, and ``key`` (a hash of
  that text) names it in the caches of every process it is sent to (it pickles as text).
"""
from __future__ import annotations

import hashlib
import shutil
import tempfile
import weakref
from pathlib import Path

from ..errors import PlaytestError
from ..toml_io import load_toml
from . import model as M

GENERIC_KEY = f"heroes/{M.GENERIC_NAME}"   # the generic file among a roster's texts
CONTENTS_KEPT = 8                          # matchup contents kept per roster (a few KB each)


def hero_key(name: str) -> str:
    return f"heroes/{name}.toml"


class Roster:
    """The heroes of one folder (or of edited text), in file-name order."""

    def __init__(self, heroes_dir=None, texts: dict | None = None):
        self._tmp = None
        if texts is None:
            self.heroes_dir = Path(heroes_dir) if heroes_dir else M.HEROES_DIR
            self.names = M.roster(self.heroes_dir)
            self.cards_file = M.generic_file(self.heroes_dir)
            self.texts = {GENERIC_KEY: _read(self.cards_file)}
            self.texts.update({hero_key(h): _read(self.heroes_dir / f"{h}.toml") for h in self.names})
        else:
            self.texts = dict(texts)
            self._materialise()
        self.key = _text_key(self.texts)
        self._contents: dict = {}
        self.heroes = self._check()

    def _materialise(self) -> None:
        """Write the texts into a folder of its own (removed with the roster): the loader
        reads files, so that an edited roster loads exactly as its files would."""
        root = Path(tempfile.mkdtemp(prefix="playtest-dicethrone-"))
        self._tmp = weakref.finalize(self, shutil.rmtree, str(root), True)
        d = root / "heroes"
        d.mkdir()
        for rel, text in self.texts.items():
            (root / rel).write_text(text)
        self.heroes_dir = d
        self.cards_file = d / M.GENERIC_NAME
        self.names = M.roster(d)

    def __getstate__(self):
        return {"texts": self.texts}

    def __setstate__(self, state):
        """A roster sent to a worker process: made (and checked) once per process and text,
        then shared (a run sends its setup with every chunk)."""
        key = _text_key(state["texts"])
        made = _MADE.get(key)
        if made is None:
            made = Roster(texts=state["texts"])
            if len(_MADE) >= 4:
                _MADE.pop(next(iter(_MADE)))
            _MADE[key] = made
        self.__dict__.update(made.__dict__)
        self._origin = made      # its folder lives as long as the roster that wrote it

    # ------------------------------------------------------------ checks
    def _check(self) -> list:
        """Every hero alone with the generic file (its ``Hero``, which knows this roster, as
        the CLI and the playground list heroes), then the ids and limits every pair needs."""
        heroes, own_tokens, own_cards = [], {}, {}
        generic = M.load_generic(self.cards_file)
        n_tok, n_cards = len(generic[0]), len(generic[2])
        for h in self.names:
            c = self._load((h,))
            hero = c.heroes[h]
            hero._roster = self
            heroes.append(hero)
            own_tokens[h] = [t.id for t in c.tokens if t.owner == h]
            own_cards[h] = [x.id for x in hero.cards]
        for kind, own, known in (("token", own_tokens, {t.id for t in generic[0]}),
                                 ("card", own_cards, {x.id for x in generic[2]})):
            seen: dict = {}
            for h in self.names:
                for i in own[h]:
                    if i in known:
                        raise PlaytestError(f"{kind} {i!r} is defined in {M.GENERIC_NAME}: a hero file does not "
                                            "redefine it", str(self.heroes_dir / f"{h}.toml"), f"{kind}s")
                    if i in seen:
                        raise PlaytestError(f"{kind} {i!r} is defined by {seen[i]} too: ids are unique over the "
                                            f"heroes of a folder (a {kind} two heroes use is defined in "
                                            f"{M.GENERIC_NAME})", str(self.heroes_dir / f"{h}.toml"), f"{kind}s")
                    seen[i] = h
        for i, a in enumerate(self.names):
            for b in self.names[i + 1:]:
                t = n_tok + len(own_tokens[a]) + len(own_tokens[b])
                k = n_cards + len(own_cards[a]) + len(own_cards[b])
                if t > M.MAX_TOKENS or k > M.MAX_CARDS:
                    what = (f"{t} tokens (at most {M.MAX_TOKENS})" if t > M.MAX_TOKENS
                            else f"{k} distinct cards (at most {M.MAX_CARDS})")
                    raise PlaytestError(f"{a} against {b} needs {what} with the generic file: the engine holds "
                                        "one matchup's", str(self.heroes_dir / f"{b}.toml"), "tokens")
        return heroes

    def _load(self, heroes):
        return M.load_content(heroes, self.cards_file, self.heroes_dir)

    # ------------------------------------------------------------ lookups
    def index(self, name) -> int:
        """The roster index of a hero id (or of an index, checked)."""
        import numpy as np

        if isinstance(name, (int, np.integer)):
            if not 0 <= int(name) < len(self.names):
                raise PlaytestError(f"hero index must be 0..{len(self.names) - 1}, got {name}", field="--hero")
            return int(name)
        if name not in self.names:
            raise PlaytestError(f"unknown hero {name!r} (known: {', '.join(self.names)})", field="--hero")
        return self.names.index(name)

    def matchup(self, heroes) -> tuple:
        """A matchup's heroes as its content holds them: roster order, a mirror's hero once."""
        idx = sorted({self.index(h) for h in heroes})
        return tuple(self.names[i] for i in idx)

    def content(self, heroes):
        """The ``Content`` of the matchup of ``heroes`` (names or indices, any seat order)."""
        key = self.matchup(heroes)
        hit = self._contents.get(key)
        if hit is None:
            if len(self._contents) >= CONTENTS_KEPT:
                self._contents.pop(next(iter(self._contents)))
            hit = self._contents[key] = self._load(key)
        return hit

    def hero_file(self, name: str) -> Path:
        return self.heroes_dir / f"{self.names[self.index(name)]}.toml"


_MADE: dict = {}


def _text_key(texts: dict) -> str:
    return hashlib.sha1(repr(sorted(texts.items())).encode()).hexdigest()[:16]


def _read(path: Path) -> str:
    load_toml(path)   # the one-line errors of a missing or malformed file, before its text is kept
    return Path(path).read_text()
