"""Measurements quoted in the river battle's report (run by hand, never by the tests):
``python -m scripts.bench_river [proofs|speed|rates] [games]``.

- proofs: exact control proofs per second, the fast best completion against brute-force
  enumeration, on the same random partial formations and unseen pools (pools as large as
  in play: 20 to 45 cards).
- speed: kernel games per second (heuristic vs heuristic, all cores, wall clock) and the
  kernel/reference ratio on the same games.
- search: ``search`` against ``heuristic`` in both roles and the heuristic against
  itself on the same seeds: the attacker's win rate with a 95% Wilson interval and the
  seconds per game (``python -m scripts.bench_river search GAMES SEED``).
- paired: ``search`` against ``heuristic`` in each role, paired game by game with the
  heuristic against itself on the same seeds (the same deal: the game's stream does not
  depend on the strategies): the gain in the searching role's win rate with a 95%
  interval of the paired difference, the discordant games and the seconds per game
  (``python -m scripts.bench_river paired GAMES SEED [PARAMS [ROLES]]``, PARAMS the search's
  ``budget[,candidates[,margin_milli[,z_centi]]]``, ROLES e.g. ``attacker,defender``).
- rates: the attacker's win rate with a 95% Wilson interval for heuristic vs heuristic
  and random vs random, under both tie options.
"""
from __future__ import annotations

import sys
import time

import numba as nb
import numpy as np

from simcore.river import model as M
from simcore.river.formations import best_key_nb, brute_best_key_nb


@nb.njit(cache=True)
def _run_fast(cards, ks, ns, modes, pools, reps):
    s = 0
    for _ in range(reps):
        for i in range(ks.shape[0]):
            s += best_key_nb(cards[i], 0, ks[i], ns[i], modes[i], pools[i])
    return s


@nb.njit(cache=True)
def _run_brute(cards, ks, ns, modes, pools):
    s = 0
    for i in range(ks.shape[0]):
        s += brute_best_key_nb(cards[i], 0, ks[i], ns[i], modes[i], pools[i])
    return s


def proof_cases(n_cases=2000, seed=1):
    rng = np.random.default_rng(seed)
    cards = np.zeros((n_cases, 4), np.int64)
    ks, ns, modes, pools = (np.zeros(n_cases, np.int64) for _ in range(4))
    for i in range(n_cases):
        n = int(rng.integers(2, 5))
        k = int(rng.integers(0, n))
        perm = rng.permutation(60)
        cards[i, :k] = perm[:k]
        pool = 0
        for x in perm[k:k + int(rng.integers(20, 46))]:
            pool |= 1 << int(x)
        ks[i], ns[i], modes[i], pools[i] = k, n, int(rng.integers(0, 6)), pool
    return cards, ks, ns, modes, pools


def proofs(n_cases=2000):
    c = proof_cases(n_cases)
    _run_fast(*[a[:2] for a in c], 1)
    _run_brute(*[a[:2] for a in c])
    t = time.perf_counter()
    _run_fast(*c, 20)
    fast = 20 * n_cases / (time.perf_counter() - t)
    t = time.perf_counter()
    _run_brute(*c)
    brute = n_cases / (time.perf_counter() - t)
    return {"fast_proofs_per_s": fast, "brute_proofs_per_s": brute, "speedup": fast / brute}


def speed(games=20000, ref_games=200):
    from strategies.river.bind import play_range

    play_range(0, 10, 1)
    t = time.perf_counter()
    play_range(0, games, 1)
    k_rate = games / (time.perf_counter() - t)
    t = time.perf_counter()
    play_range(0, ref_games, 1, engine="reference")
    r_rate = ref_games / (time.perf_counter() - t)
    t = time.perf_counter()
    play_range(0, ref_games, 1)
    k_same = ref_games / (time.perf_counter() - t)
    return {"kernel_games_per_s": k_rate, "reference_games_per_s": r_rate,
            "ratio_bulk": k_rate / r_rate, "ratio_same_games": k_same / r_rate}


def rates(games=4000):
    from analysis.stats import wilson
    from strategies.river.bind import play_range

    out = {}
    for tie in ("first", "defender"):
        rules = M.load_rules(overrides={"tie_rule": tie})
        for a, d in (("heuristic", "heuristic"), ("random", "random"), ("heuristic", "random"),
                     ("random", "heuristic")):
            rec = play_range(0, games, 2024, rules, a, d)
            w = int((rec["winner"] == 0).sum())
            lo, hi = wilson(w, games)
            out[(tie, a, d)] = (w / games, float(lo), float(hi), float(rec["turns"].mean()))
    return out


def search(games=300, seed=11):
    from analysis.stats import wilson
    from strategies.river.bind import play_range

    play_range(0, 1, seed, attacker="search", defender="heuristic")
    out = {}
    for a, d in (("search", "heuristic"), ("heuristic", "search"), ("heuristic", "heuristic")):
        t = time.perf_counter()
        rec = play_range(0, games, seed, attacker=a, defender=d)
        dt = time.perf_counter() - t
        w = int((rec["winner"] == 0).sum())
        lo, hi = wilson(w, games)
        out[(a, d)] = (w / games, float(lo), float(hi), dt / games)
    return out


def paired_diff(x, y):
    """Mean of ``x - y`` (per-game 0/1 outcomes on the same deals) with a 95% normal
    interval of the paired difference, and the discordant counts (x only, y only)."""
    d = np.asarray(x, np.float64) - np.asarray(y, np.float64)
    n = d.size
    m = float(d.mean())
    se = float(d.std(ddof=1)) / np.sqrt(n) if n > 1 else 0.0
    return m, m - 1.96 * se, m + 1.96 * se, int((d > 0).sum()), int((d < 0).sum())


def paired(games=200, seed=11, budget=None, roles=("attacker", "defender"), rules=None):
    """The search's gain in each role over the heuristic, game by game on common seeds."""
    from strategies.river.bind import play_range

    params = None if budget is None else str(budget)
    play_range(0, 1, seed, rules, attacker="search", defender="heuristic", params=params)
    base = play_range(0, games, seed, rules, "heuristic", "heuristic")
    out = {"games": games, "seed": seed, "budget": budget,
           "heuristic_attacker_win_rate": float((base["winner"] == 0).mean())}
    for role in roles:
        a, d = ("search", "heuristic") if role == "attacker" else ("heuristic", "search")
        seat = 0 if role == "attacker" else 1
        t = time.perf_counter()
        rec = play_range(0, games, seed, rules, a, d, params=params)
        dt = (time.perf_counter() - t) / games
        m, lo, hi, up, down = paired_diff(rec["winner"] == seat, base["winner"] == seat)
        out[role] = {"search_win_rate": float((rec["winner"] == seat).mean()),
                     "heuristic_win_rate": float((base["winner"] == seat).mean()),
                     "gain": m, "gain_ci": (lo, hi), "search_only_wins": up, "heuristic_only_wins": down,
                     "s_per_game": dt}
    return out


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "proofs"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else None
    if what == "proofs":
        print(proofs(*(x for x in [n] if x)))
    elif what == "speed":
        print(speed(*(x for x in [n] if x)))
    elif what == "paired":
        seed = int(sys.argv[3]) if len(sys.argv) > 3 else 11
        budget = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None   # search --param text
        roles = tuple(sys.argv[5].split(",")) if len(sys.argv) > 5 else ("attacker", "defender")
        r = paired(n or 200, seed, budget, roles)
        print(f"{r['games']} games, seed {r['seed']}, budget {r['budget'] or 'default'}; heuristic vs "
              f"heuristic: attacker wins {100 * r['heuristic_attacker_win_rate']:.1f}%")
        for role in roles:
            v = r[role]
            print(f"search as {role}: wins {100 * v['search_win_rate']:.1f}% vs heuristic {100 * v['heuristic_win_rate']:.1f}%;"
                  f" gain {100 * v['gain']:+.1f} points [{100 * v['gain_ci'][0]:+.1f}, {100 * v['gain_ci'][1]:+.1f}]"
                  f" (search-only wins {v['search_only_wins']}, heuristic-only {v['heuristic_only_wins']}),"
                  f" {v['s_per_game']:.3f} s/game")
    elif what == "search":
        for (a, d), v in search(*(x for x in [n] if x), *[int(x) for x in sys.argv[3:4]]).items():
            print(f"{a} (attacker) vs {d} (defender): attacker wins {100 * v[0]:.1f}% [{100 * v[1]:.1f}, "
                  f"{100 * v[2]:.1f}], {v[3]:.3f} s/game")
    else:
        for key, v in rates(*(x for x in [n] if x)).items():
            print(key, f"attacker wins {100 * v[0]:.1f}% [{100 * v[1]:.1f}, {100 * v[2]:.1f}], mean turns {v[3]:.1f}")
