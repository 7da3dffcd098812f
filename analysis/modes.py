"""Team and free-for-all Dice Throne (issue 31): the tables of
``simcore/dicethrone/modes/DESIGN.md`` section 5, from a run's records.

The records are those of DESIGN.md section 2.7, one row per game (a dict of equal-length
arrays or a DataFrame):

* ``winner``: the winning team (-1: a draw, or a game ended by a cap), ``capped`` (0/1),
  ``first``: the seat that moved first;
* per seat ``p``: ``hero<p>`` (roster index), ``team<p>``, ``place<p>`` (1 = won; seats out
  together share a place), ``tgt<p>`` (times targeted) and the damage columns
  ``dmg_<source><p>`` (``model.record_fields``).

Every rate has its 95% interval and n; games ended by a cap are left out of every rate and
counted in a ``capped`` column; a team's score is its share of 1st place (``first_shares``:
a draw counts half a win between two teams, nothing to a team out before it). Seats are numbered in turn order
from seat 0 (DESIGN.md 2.2: every mode seats the teams alternately and plays in seat order),
so the seat at turn position ``k`` of a game is ``(first + k) % seats``.

* :func:`team_table`: each team (its heroes, as a sorted tuple of roster indices) against
  each opposing team, and against the field;
* :func:`hero_table`: each hero's score over the teams it played in, its share of its team's
  damage, and how often it was targeted;
* :func:`synergy_table`: how much better a pair does than its two heroes' strengths add up
  to (the residual of an additive logit model), beside DESIGN.md's raw difference (the
  pair's score against its heroes' scores with other partners), each with a
  cluster-bootstrap interval over compositions;
* :func:`order_table`: the score of the team moving 1st, 2nd, ... against an even share,
  with a chi-square test of "no turn-order edge";
* :func:`placement_table`: free-for-all places per hero (shared places split evenly), each
  share against 1/N, and the mean place with a bootstrap interval.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
from scipy import stats

from .stats import wilson

Z95 = 1.959963984540054


def frame(records) -> pd.DataFrame:
    """The records as a DataFrame, checked: the seat columns present for seats 0..N-1."""
    df = records if isinstance(records, pd.DataFrame) else pd.DataFrame({k: np.asarray(v) for k, v in records.items()})
    n = seats_of(df)
    missing = [c for p in range(n) for c in (f"team{p}", f"place{p}") if c not in df]
    missing += [c for c in ("winner", "capped", "first") if c not in df]
    if n < 2 or missing:
        raise ValueError(f"records: {'fewer than 2 seats' if n < 2 else 'missing ' + ', '.join(missing)}")
    return df.reset_index(drop=True)


def seats_of(df) -> int:
    n = 0
    while f"hero{n}" in df:
        n += 1
    return n


def teams_of(df: pd.DataFrame) -> tuple[np.ndarray, list]:
    """``(team id per game and seat [G, N], [per team id: its heroes per game as sorted tuples])``."""
    n = seats_of(df)
    team = np.stack([df[f"team{p}"].to_numpy(int) for p in range(n)], axis=1)
    hero = np.stack([df[f"hero{p}"].to_numpy(int) for p in range(n)], axis=1)
    T = int(team.max()) + 1
    members = [[tuple(sorted(int(h) for h, t in zip(hero[g], team[g]) if t == k)) for g in range(len(df))]
               for k in range(T)]
    return team, members


def first_shares(df: pd.DataFrame, team: np.ndarray | None = None) -> np.ndarray:
    """``[G, teams]``: each team's share of 1st place per game: 1 won, 0 lost, and in a draw
    1/k to each of the k teams that went out together last (their seats' place is 1; a team
    out before them gets 0: in 2v2v2 two teams drawing get a half each, the third none);
    capped games NaN. Records without places (none so far) read a draw as even among all.
    ``team``: ``teams_of(df)[0]`` if the caller has it."""
    if team is None:
        team = np.stack([df[f"team{p}"].to_numpy(int) for p in range(seats_of(df))], axis=1)
    G, n = team.shape
    T = int(team.max()) + 1
    w = df["winner"].to_numpy(int)
    if "place0" in df:
        place = np.stack([df[f"place{p}"].to_numpy(int) for p in range(n)], axis=1)
        first = np.zeros((G, T))
        for k in range(T):
            seat = np.argmax(team == k, axis=1)          # the team's first seat (a team shares its place)
            first[:, k] = place[np.arange(G), seat] == 1
    else:
        first = np.ones((G, T))
    first = np.where((w >= 0)[:, None], np.arange(T)[None, :] == w[:, None], first)
    s = first / first.sum(axis=1, keepdims=True)
    return np.where(df["capped"].to_numpy(bool)[:, None], np.nan, s)





def _rate_cells(score: np.ndarray) -> dict:
    """A score column (NaN: capped) -> rate, Wilson interval, n, capped."""
    ok = ~np.isnan(score)
    n = int(ok.sum())
    k = float(score[ok].sum())
    lo, hi = wilson(k, n) if n else (math.nan, math.nan)
    return {"score": k / n if n else math.nan, "ci_low": lo, "ci_high": hi, "n": n,
            "capped": int((~ok).sum())}


def team_table(records, names=None) -> pd.DataFrame:
    """Each team's score against each opposing team (``opponents``: a tuple of teams, one for
    a two-team mode) and against the field (``opponents = "field"``), over both sides of
    every game it played; a game where the same team sits on both sides is left out."""
    df = frame(records)
    team, members = teams_of(df)
    T = len(members)
    shares = first_shares(df, team)     # a team's score: its share of 1st place
    rows: dict = {}
    for k in range(T):
        sc = shares[:, k]
        for g in range(len(df)):
            mine = members[k][g]
            others = tuple(sorted(members[j][g] for j in range(T) if j != k))
            if mine in others:
                continue
            for key in ((mine, others), (mine, "field")):
                rows.setdefault(key, []).append(sc[g])
    out = []
    for (mine, others), vals in rows.items():
        out.append({"team": _label(mine, names), "opponents": others if others == "field" else
                    " / ".join(_label(o, names) for o in others), **_rate_cells(np.array(vals))})
    if not out:    # every game a mirror (the same team on both sides)
        return pd.DataFrame(columns=["team", "opponents", "score", "ci_low", "ci_high", "n", "capped"])
    return pd.DataFrame(out).sort_values(["opponents", "score"], ascending=[True, False]).reset_index(drop=True)


def _label(team: tuple, names) -> str:
    return " + ".join(names[h] if names is not None else str(h) for h in team)


def hero_table(records, names=None) -> pd.DataFrame:
    """Per hero: its teams' score over the games it played (a game with the hero on more
    than one team is left out: ``mirror_games``), its share of its team's damage (mean
    over its games, normal 95% interval) and the times it was targeted per game."""
    df = frame(records)
    n = seats_of(df)
    team, _ = teams_of(df)
    hero = np.stack([df[f"hero{p}"].to_numpy(int) for p in range(n)], axis=1)
    cols = [[c for c in df.columns if re.fullmatch(rf"dmg_[a-z]+{p}", c)] for p in range(n)]
    dmg = np.stack([sum(df[c].to_numpy(float) for c in cols[p]) if cols[p] else np.zeros(len(df))
                    for p in range(n)], axis=1)
    tgt = np.stack([df[f"tgt{p}"].to_numpy(float) if f"tgt{p}" in df else np.full(len(df), np.nan)
                    for p in range(n)], axis=1)
    shares = first_shares(df, team)
    scores = {k: shares[:, k] for k in range(int(team.max()) + 1)}
    out = []
    for h in sorted(set(hero.ravel().tolist())):
        sc, share, tg, mirror = [], [], [], 0
        for g in range(len(df)):
            seats = np.nonzero(hero[g] == h)[0]
            if seats.size == 0:
                continue
            if len({int(team[g, p]) for p in seats}) > 1:
                mirror += 1
                continue
            p = int(seats[0])
            k = int(team[g, p])
            sc.append(scores[k][g])
            tot = dmg[g, team[g] == k].sum()
            if tot > 0:
                share.append(dmg[g, p] / tot)
            tg.append(tgt[g, p])
        cells = _rate_cells(np.array(sc, float))
        out.append({"hero": names[h] if names is not None else h, **cells, "mirror_games": mirror,
                    **_mean_cells("damage_share", share), **_mean_cells("targeted", [x for x in tg if x == x])})
    return pd.DataFrame(out).sort_values("score", ascending=False).reset_index(drop=True)


def _mean_cells(name: str, xs) -> dict:
    x = np.asarray(xs, float)
    if x.size == 0:
        return {name: math.nan, f"{name}_low": math.nan, f"{name}_high": math.nan}
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.nan
    return {name: m, f"{name}_low": m - half, f"{name}_high": m + half}


def _pair_games(df: pd.DataFrame) -> list:
    """Per composition and per team of two: ``(composition, pair, sum of scores, finished
    games)`` over the finished games; a composition is the sorted tuple of the game's teams.
    (The games of one composition and side share every covariate, so the estimators below
    need only these sums: the bootstrap resamples compositions.)"""
    team, members = teams_of(df)
    T = len(members)
    shares = first_shares(df, team)
    acc: dict = {}
    for k in range(T):
        sc = shares[:, k]
        for g in range(len(df)):
            if np.isnan(sc[g]) or len(members[k][g]) != 2:
                continue
            key = (tuple(sorted(members[j][g] for j in range(T))), members[k][g])
            cell = acc.setdefault(key, [0.0, 0])
            cell[0] += sc[g]
            cell[1] += 1
    return [(comp, pair, s, n) for (comp, pair), (s, n) in acc.items()]


def _synergies(rows: list) -> dict:
    """{pair: (synergy, score of the pair, n of the pair)} over ``rows`` (from
    :func:`_pair_games`): the pair's score minus the mean of each hero's score with other
    partners (pairs whose heroes both played with someone else only); every mean is over
    games."""
    by_pair: dict = {}
    by_hero_other: dict = {}
    for _, pair, s, n in rows:
        c = by_pair.setdefault(pair, [0.0, 0])
        c[0] += s
        c[1] += n
        a, b = pair
        if a == b:
            continue
        for h, partner in ((a, b), (b, a)):
            by_hero_other.setdefault(h, []).append((partner, s, n))
    out = {}
    for pair, (ss, nn) in by_pair.items():
        a, b = pair
        if a == b or nn == 0:
            continue
        wa = [(s, n) for partner, s, n in by_hero_other.get(a, []) if partner != b]
        wb = [(s, n) for partner, s, n in by_hero_other.get(b, []) if partner != a]
        na, nb = sum(n for _, n in wa), sum(n for _, n in wb)
        if not na or not nb:
            continue
        pr = ss / nn
        out[pair] = (pr - (sum(s for s, _ in wa) / na + sum(s for s, _ in wb) / nb) / 2, pr, nn)
    return out


def _logit_model(rows: list, heroes: list) -> dict:
    """The additive model over two-team games: logit P(team A wins) = sum of A's hero
    strengths - sum of B's (draws count half, fitted by maximum quasi-likelihood with a
    small ridge that pins the scale's origin; the games of one composition enter as one row
    weighted by their count); returns ``{pair: mean residual of the pair's games}``
    (observed score minus the model's)."""
    idx = {h: i for i, h in enumerate(heroes)}
    games: dict = {}
    for comp, pair, s, n in rows:
        if len(comp) == 2:
            c = games.setdefault(comp, {}).setdefault(pair, [0.0, 0])
            c[0] += s
            c[1] += n
    X, y, w, who = [], [], [], []
    for comp, sides in games.items():
        a, b = comp
        if a == b or a not in sides or sides[a][1] == 0:
            continue
        x = np.zeros(len(heroes))
        for h in a:
            x[idx[h]] += 1
        for h in b:
            x[idx[h]] -= 1
        X.append(x)
        y.append(sides[a][0] / sides[a][1])
        w.append(sides[a][1])
        who.append((a, b))
    if not X:
        return {}
    X, y, w = np.array(X), np.array(y), np.array(w, float)
    beta = np.zeros(X.shape[1])
    ridge = 1e-6
    for _ in range(50):   # Newton-Raphson on the Bernoulli log-likelihood with a fractional y
        p = 1 / (1 + np.exp(-X @ beta))
        grad = X.T @ (w * (y - p)) - ridge * beta
        H = (X * (w * p * (1 - p))[:, None]).T @ X + ridge * np.eye(X.shape[1])
        step = np.linalg.solve(H, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(-X @ beta))
    res: dict = {}
    for (a, b), yy, pp, ww in zip(who, y, p, w):
        for pair, r in ((a, yy - pp), (b, (1 - yy) - (1 - pp))):
            c = res.setdefault(pair, [0.0, 0.0])
            c[0] += ww * r
            c[1] += ww
    return {pair: float(c[0] / c[1]) for pair, c in res.items()}


def synergy_table(records, names=None, reps: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Pair synergy (DESIGN.md 5.3) for every two-hero team whose heroes also played with
    other partners, two ways, each with a 95% interval by a cluster bootstrap over
    compositions (the games of a composition resampled together, ``reps`` times, percentile
    interval); ``n``: the pair's finished games.

    * ``raw`` (DESIGN.md's difference): the pair's score - the mean of its two heroes' scores
      with other partners. It also carries the partners' strength: two strong heroes score
      more together than each does with an average partner even when nothing interacts;
    * ``synergy``: the pair's mean residual under the additive logit model fitted to every
      two-team game (logit P(A wins) = sum of A's hero strengths - sum of B's): how much
      better the pair does than its heroes' strengths add up to. 0 means no interaction.
    """
    df = frame(records)
    rows = _pair_games(df)
    point = _synergies(rows)
    heroes = sorted({h for _, pair, _, _ in rows for h in pair})
    model = _logit_model(rows, heroes)
    comps = sorted({c for c, _, _, _ in rows})
    by_comp: dict = {}
    for r in rows:
        by_comp.setdefault(r[0], []).append(r)
    rng = np.random.default_rng(seed)
    boot = {pair: [] for pair in point}
    boot_m = {pair: [] for pair in point}
    for _ in range(reps):
        pick = rng.integers(0, len(comps), len(comps))
        sample = [r for i in pick for r in by_comp[comps[i]]]
        got = _synergies(sample)
        got_m = _logit_model(sample, heroes)
        for pair in point:
            if pair in got:
                boot[pair].append(got[pair][0])
            if pair in got_m:
                boot_m[pair].append(got_m[pair])

    def ci(xs):
        b = np.array(xs)
        return (float(np.quantile(b, 0.025)), float(np.quantile(b, 0.975))) if b.size else (math.nan, math.nan)

    out = []
    for pair, (syn, pr, n) in point.items():
        lo, hi = ci(boot[pair])
        mlo, mhi = ci(boot_m[pair])
        out.append({"pair": _label(pair, names), "synergy": model.get(pair, math.nan), "ci_low": mlo, "ci_high": mhi,
                    "raw": syn, "raw_low": lo, "raw_high": hi, "pair_score": pr, "n": n})
    return pd.DataFrame(out).sort_values("synergy", ascending=False).reset_index(drop=True)


def order_table(records) -> tuple[pd.DataFrame, dict]:
    """The turn-order edge: for the team whose first seat moves 1st, 2nd, ... in the game,
    its score over the finished games (Wilson interval) against an even share (1 / teams),
    and a chi-square test over the order positions of "every position scores its even
    share" (a draw gives each team in it its share of 1st place, ``first_shares``). Returns
    ``(table, test)``."""
    df = frame(records)
    n = seats_of(df)
    team, members = teams_of(df)
    T = len(members)
    first = df["first"].to_numpy(int)
    shares = first_shares(df, team)
    capped = df["capped"].to_numpy(bool)
    pts = np.zeros(T)
    games = int((~capped).sum())
    for g in np.nonzero(~capped)[0]:
        order = []
        for k in range(n):
            t = int(team[g, (first[g] + k) % n])
            if t not in order:
                order.append(t)
        for pos, t in enumerate(order):
            pts[pos] += shares[g, t]
    lo, hi = wilson(pts, np.full(T, games))
    table = pd.DataFrame({"order": np.arange(1, T + 1), "score": pts / games if games else np.nan,
                          "ci_low": lo, "ci_high": hi, "n": games, "even_share": 1.0 / T,
                          "capped": int(capped.sum())})
    test = {"chi2": math.nan, "p_value": math.nan, "df": T - 1}
    if games:
        chi = stats.chisquare(pts, np.full(T, games / T))
        test = {"chi2": float(chi.statistic), "p_value": float(chi.pvalue), "df": T - 1}
    return table, test


def placement_table(records, names=None, reps: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Free-for-all places per hero over the finished games: the share of its games at each
    place 1..N (seats sharing a place split the places they span evenly: two seats out
    together at 2nd share 2nd and 3rd, a half each), each with its Wilson interval, the even
    share 1/N beside; and the mean place with a bootstrap interval (games resampled)."""
    df = frame(records)
    n = seats_of(df)
    capped = df["capped"].to_numpy(bool)
    hero = np.stack([df[f"hero{p}"].to_numpy(int) for p in range(n)], axis=1)
    place = np.stack([df[f"place{p}"].to_numpy(int) for p in range(n)], axis=1)
    rng = np.random.default_rng(seed)
    out = []
    for h in sorted(set(hero.ravel().tolist())):
        spread = []   # per (game, seat) of this hero: its split over places 1..n
        for g in np.nonzero(~capped)[0]:
            for p in np.nonzero(hero[g] == h)[0]:
                pl = int(place[g, p])
                tied = int((place[g] == pl).sum())
                v = np.zeros(n)
                v[pl - 1:pl - 1 + tied] = 1.0 / tied
                spread.append(v)
        S = np.array(spread) if spread else np.zeros((0, n))
        m = S.shape[0]
        row = {"hero": names[h] if names is not None else h, "n": m, "capped": int(sum(
            (hero[g] == h).sum() for g in np.nonzero(capped)[0])), "even_share": 1.0 / n}
        for k in range(n):
            k_sum = float(S[:, k].sum())
            lo, hi = wilson(k_sum, m) if m else (math.nan, math.nan)
            row[f"place{k + 1}"] = k_sum / m if m else math.nan
            row[f"place{k + 1}_low"], row[f"place{k + 1}_high"] = lo, hi
        mean_place = S @ np.arange(1, n + 1) if m else np.zeros(0)
        row["mean_place"] = float(mean_place.mean()) if m else math.nan
        if m > 1:
            bs = [mean_place[rng.integers(0, m, m)].mean() for _ in range(reps)]
            row["mean_place_low"], row["mean_place_high"] = float(np.quantile(bs, 0.025)), float(np.quantile(bs, 0.975))
        else:
            row["mean_place_low"] = row["mean_place_high"] = math.nan
        out.append(row)
    return pd.DataFrame(out).sort_values("mean_place").reset_index(drop=True)



# ------------------------------------------------------------------ fix (a band per mode)
def fix_rows(parts: list, tables: list, mode: str, names) -> tuple[list, list]:
    """What ``playtest dicethrone fix`` holds to a band in a team or free-for-all mode:
    ``(rows, field)``, each a list of ``(label, entrants, k, n)``: ``k`` the score summed
    over ``n`` finished games (a team's share of 1st place, ``first_shares``; capped games
    are left out). ``parts[i]``: the records of every seating of ``tables[i]`` (a
    composition: tuples of hero keys, one per team; or a free-for-all table of hero keys);
    ``names``: the roster's keys (a record's ``hero<p>`` indexes them).

    Two teams (2v2, 3v3): one row per composition, its first team's score against the other
    (the other's is its complement). Three teams (2v2v2): one row per team of each
    composition, its score against the two others (even share 1/3). Free-for-all: one row
    per hero, its share of 1st places over every table (even share 1/K; seats tied at 1st
    split it). ``field``: each hero's score over every table it sat at (its team's, in team
    modes; its 1st places in free-for-all)."""
    rows, field = [], {}

    def add_field(h, k, n):
        c = field.setdefault(h, [0.0, 0])
        c[0] += k
        c[1] += n

    for rec, table in zip(parts, tables):
        df = frame(rec)
        n_seats = seats_of(df)
        hero = np.stack([df[f"hero{p}"].to_numpy(int) for p in range(n_seats)], axis=1)
        done = ~df["capped"].to_numpy(bool)
        n_done = int(done.sum())
        if mode.startswith("ffa"):
            place = np.stack([df[f"place{p}"].to_numpy(int) for p in range(n_seats)], axis=1)
            first = place == 1
            share = first / np.maximum(first.sum(axis=1, keepdims=True), 1)
            for h in table:
                at = hero == names.index(h)
                add_field(h, float((share * at)[done].sum()), int(at[done].sum()))
            continue
        team = np.stack([df[f"team{p}"].to_numpy(int) for p in range(n_seats)], axis=1)
        shares = first_shares(df, team)
        T = len(table)
        for j, members in enumerate(table):
            seat = np.argmax(hero == names.index(members[0]), axis=1)     # where its first hero sits
            tid = team[np.arange(len(df)), seat]
            sc = shares[np.arange(len(df)), tid][done]
            k = float(sc.sum())
            if T > 2 or j == 0:
                others = " / ".join(_team_label(t) for i, t in enumerate(table) if i != j)
                rows.append((f"{_team_label(members)} vs {others}", [_team_label(members), others], k, n_done))
            for h in members:
                add_field(h, k, n_done)
    field_rows = [(f"{h} vs the field", [h], k, n) for h, (k, n) in sorted(field.items())]
    if mode.startswith("ffa"):
        rows = [(f"{h}: 1st places", [h], k, n) for h, (k, n) in sorted(field.items())]
    return rows, field_rows


def _team_label(team) -> str:
    return " + ".join(sorted(team))
