"""What each Dice Throne card is worth: a hero's win rate in one matchup (any pair of the
roster) with its full deck, against the same games with one card swapped for a blank.

The blank keeps the deck's size and order, so game ``i`` of the variant is played from
the same stream ``(seed, i)`` as game ``i`` of the baseline: same shuffles, same dice,
until the blank is drawn and the games part. A blank card costs more CP than a player can
hold (never playable) but can still be sold or discarded for the rules' ``sell_cp``, like
any card: a card's value here is what it is worth *beyond* its sell value, to the given
strategies.

value = P(hero wins | full deck) - P(hero wins | card blanked), draws counted half, both
seat orders pooled (``n`` games each). The interval is the paired one: the mean and the
standard error of the per-game differences ``d_i = score_i(full) - score_i(blank)`` on
common seeds (normal approximation, 95%). Because most games never see the card or
play out identically, ``d_i`` is 0 for most ``i`` and the paired interval is much tighter
than the unpaired one (two independent win rates); both half-widths are reported.
Games capped in either version are left out of that pair.

Flat memory: the games are played in chunks of :data:`CARD_CHUNK` per seat order, the
full deck's chunk then every card's variant of the same games, and each pair of chunks
is reduced to exact integer sums (:func:`paired_sums`); the table is read from the sums
(:func:`paired_from_sums`), equal to :func:`paired` of the whole run's records
(``tests/test_flat_verbs.py``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcore.dicethrone import model as M

BLANK_COST = 1 << 20
Z95 = 1.959963984540054


def blank_tables(T, hero: int, card_id: int):
    """Tables where every copy of card ``card_id`` in hero ``hero``'s deck is a blank card
    (no effect, never playable: only sold or discarded)."""
    blank = np.zeros((1, M.CARD_COLS), np.int64)     # no effects, no discard_cost, prevents nothing
    blank[0, :4] = (BLANK_COST, M.CP_MAIN, M.CD_NONE, M.CW_ANY)
    card = np.vstack([T.card, blank])
    deck = T.deck.copy()
    row = deck[hero]
    row[row == card_id] = card.shape[0] - 1
    return T._replace(card=card, deck=deck)


def hero_scores(rec: dict, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the score of the hero in ``seat`` (1 win, 0.5 draw, 0 loss) and capped."""
    w = rec["winner"].astype(np.int64)
    capped = rec["capped"].astype(bool)
    s = np.where(w == seat, 1.0, np.where(w < 0, 0.5, 0.0))
    return s, capped


def play_scores(hero: str, opponent: str, n: int, seed: int, strategies, rules, tables, start: int = 0,
                search: dict | None = None, roster=None) -> tuple:
    """Scores of ``hero`` over games start..n-1 in each seat order (hero first, then second);
    ``search``: the search strategy's budget and horizon (``bind.parse_params``); ``tables``:
    ``(content, tables, strategy data)`` (``DiceThroneAPI.tables``). The games are played
    through the registry (``get_game("dicethrone").play``)."""
    from simcore.game import get_game

    api = get_game("dicethrone")
    setup = {**api.make_setup(rules, None, 2), **(search or {}), "tables": tables}
    if roster is not None:
        setup["roster"] = roster
    strategies = tuple(strategies)
    a = api.play(start, n, seed, setup, (hero, opponent), strategies)
    s1, c1 = hero_scores(a, 0)
    del a
    b = api.play(start, n, seed, setup, (opponent, hero), strategies[::-1])
    s2, c2 = hero_scores(b, 1)
    return np.concatenate([s1, s2]), np.concatenate([c1, c2])


# games per seat order played at once: card_values holds one chunk's scores (of the full
# deck and of one variant), never the whole run's, so its memory does not grow with ``n``
CARD_CHUNK = 100_000


def paired_sums(base: np.ndarray, base_cap: np.ndarray, var: np.ndarray, var_cap: np.ndarray) -> np.ndarray:
    """The exact integer sums :func:`paired` needs, of one chunk of pairs (scores are 0,
    0.5 or 1: counted in halves): [pairs, sum 2d, sum (2d)^2, sum 2b, sum (2b)^2, sum 2v,
    sum (2v)^2, pairs that differ]. Sums of chunks add up."""
    keep = ~(base_cap | var_cap)
    b = np.rint(2 * base[keep]).astype(np.int64)
    v = np.rint(2 * var[keep]).astype(np.int64)
    d = b - v
    return np.array([keep.sum(), d.sum(), (d * d).sum(), b.sum(), (b * b).sum(), v.sum(), (v * v).sum(),
                     np.count_nonzero(d)], np.int64)


def paired_from_sums(sums) -> dict:
    """:func:`paired` from the summed :func:`paired_sums` of every chunk: counts and means
    exactly equal; the standard errors from the exact variance (the records' numpy
    variance can differ in the last bit)."""
    from fractions import Fraction

    n, sd, sdd, sb, sbb, sv, svv, changed = (int(x) for x in sums)
    nan = float("nan")

    def var(s1, s2):  # sample variance (ddof 1) of values x / 2 whose sums are s1, s2
        return float(Fraction(s2 * n - s1 * s1, 4 * n * (n - 1))) if n > 1 else nan

    mean = sd / (2 * n) if n else nan
    se = float(np.sqrt(var(sd, sdd)) / np.sqrt(n)) if n > 1 else nan
    se_unpaired = float(np.sqrt(var(sb, sbb) / n + var(sv, svv) / n)) if n > 1 else nan
    return {"value": mean, "value_ci": [mean - Z95 * se, mean + Z95 * se], "half_width": Z95 * se,
            "half_width_unpaired": Z95 * se_unpaired, "pairs": n, "changed": changed,
            "win_rate_full": sb / (2 * n) if n else nan,
            "win_rate_blank": sv / (2 * n) if n else nan}


def paired(base: np.ndarray, base_cap: np.ndarray, var: np.ndarray, var_cap: np.ndarray) -> dict:
    """Paired difference of two score vectors on common seeds (module doc)."""
    keep = ~(base_cap | var_cap)
    d = base[keep] - var[keep]
    n = int(keep.sum())
    mean = float(d.mean()) if n else float("nan")
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    b, v = base[keep], var[keep]
    se_unpaired = float(np.sqrt(b.var(ddof=1) / n + v.var(ddof=1) / n)) if n > 1 else float("nan")
    return {"value": mean, "value_ci": [mean - Z95 * se, mean + Z95 * se], "half_width": Z95 * se,
            "half_width_unpaired": Z95 * se_unpaired, "pairs": n, "changed": int((d != 0).sum()),
            "win_rate_full": float(b.mean()) if n else float("nan"),
            "win_rate_blank": float(v.mean()) if n else float("nan")}


def pair_of(roster, heroes=None, vs=None) -> tuple[tuple, str | None]:
    """``(decks, opponent)`` of a card-value run: the heroes whose decks are valued and, for
    one deck, the hero it plays against (``heroes`` and ``vs``: ids; checked against the
    roster). Two heroes: each deck against the other. One: against ``vs``, or the one other
    hero of a two-hero roster. None: both heroes of a two-hero roster."""
    from simcore.errors import PlaytestError

    heroes = tuple(dict.fromkeys(roster.names[roster.index(h)] for h in (heroes or ())))
    if vs is not None:
        vs = roster.names[roster.index(vs)]
    if len(heroes) > 2:
        raise PlaytestError(f"card values are per matchup: name at most two heroes, got {', '.join(heroes)}",
                            field="--hero")
    if not heroes:
        if len(roster.names) != 2 or vs is not None:
            raise PlaytestError(f"name the matchup: --hero A --vs B (heroes: {', '.join(roster.names)})",
                                field="--hero")
        heroes = roster.names
    if len(heroes) == 2:
        if vs is not None and vs not in heroes:
            raise PlaytestError(f"{vs} is not one of the two heroes named ({', '.join(heroes)})", field="--vs")
        return heroes, None
    if vs is None:
        others = [h for h in roster.names if h != heroes[0]]
        if len(others) != 1:
            raise PlaytestError(f"name {heroes[0]}'s opponent: --vs B (heroes: {', '.join(roster.names)})",
                                field="--vs")
        vs = others[0]
    return heroes, vs


def card_values(n: int = 2000, seed: int = 1, strategies=("greedy", "greedy"), rules: dict | None = None,
                heroes=None, cards=None, tables=None, search: dict | None = None, vs=None,
                roster=None) -> pd.DataFrame:
    """One row per (hero, card of that hero's deck): the card's value to that hero against
    its opponent (module doc), both seat orders, ``n`` games each. ``heroes``/``vs``: the
    matchup (:func:`pair_of`: two heroes, each deck against the other; or one deck against
    ``vs``); ``roster``: the heroes (default the shipped ones); ``cards``: only these ids;
    ``tables``: the matchup's ``(content, tables, data)`` when given; ``search``: the search
    strategy's budget and horizon (``bind.parse_params`` of ``--param``)."""
    from simcore.game import get_game
    from simcore.parallel import chunk_bounds

    api = get_game("dicethrone")
    roster = roster or api.roster()
    rules = rules if rules is not None else M.load_rules()
    decks, vs = pair_of(roster, heroes, vs)
    strategies = tuple(strategies)
    rows = []
    for hero in decks:
        opp = vs or [x for x in decks if x != hero][0]   # 1v1: the other hero
        content, T, _ = tables if tables is not None else api.tables(roster=roster, heroes=(hero, opp))
        ids = {c.id: i for i, c in enumerate(content.cards)}
        h = list(content.heroes).index(hero)
        full = api.tables(content, T)
        todo = [c for c in content.heroes[hero].cards + content.generic if cards is None or c.id in cards]
        sums = [np.zeros(8, np.int64) for _ in todo]
        # chunk by chunk: the full deck's games of a chunk, then each card's variant of the
        # same games, reduced to exact sums (memory bounded by CARD_CHUNK, not n)
        for a, b in chunk_bounds(n, CARD_CHUNK):
            base, base_cap = play_scores(hero, opp, b, seed, strategies, rules, full, start=a, search=search,
                                         roster=roster)
            for i, c in enumerate(todo):
                tv = api.tables(content, blank_tables(T, h, ids[c.id]))
                var, var_cap = play_scores(hero, opp, b, seed, strategies, rules, tv, start=a, search=search,
                                           roster=roster)
                sums[i] += paired_sums(base, base_cap, var, var_cap)
        for c, sm in zip(todo, sums):
            row = {"hero": hero, "vs": opp, "card": c.id, "name": c.name, "deck": "generic" if not c.owner else "hero",
                   "copies": c.copies, "cost": c.cost, "phase": M.PHASES_OF_CARDS[c.phase], "games": 2 * n}
            row.update(paired_from_sums(sm))
            rows.append(row)
    return pd.DataFrame(rows)


def ranked(df: pd.DataFrame) -> pd.DataFrame:
    return df.sort_values("value", ascending=False).reset_index(drop=True)
