"""Interval estimates used by every table: each rate travels with its interval and n."""
from __future__ import annotations

import math

import numpy as np
from scipy import stats


def z_value(conf: float = 0.95) -> float:
    return float(stats.norm.ppf(0.5 + conf / 2.0))


def wilson(successes, n, conf: float = 0.95):
    """Wilson score interval for a binomial rate. Vectorised; ``successes`` may be
    fractional (draws counted as half a win). Returns ``(low, high)`` arrays; where
    ``n == 0`` both are NaN."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(conf)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        # exact ends at 0 and n successes (rounding would leave 1e-18 above 0)
        low = np.where(n > 0, np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
        high = np.where(n > 0, np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def rate_table(successes, n, conf: float = 0.95) -> dict:
    low, high = wilson(successes, n, conf)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.asarray(successes, dtype=float) / np.asarray(n, dtype=float)
    return {"rate": rate, "ci_low": low, "ci_high": high, "n": n}


Z = 1.959963984540054


def ratio_interval(x: float, t: float, xx: float, xt: float, tt: float, n: int) -> tuple[float, float]:
    """95% interval of the share ``x / t`` of two sums over ``n`` units (the delta method for
    a ratio of means, the units as the sampling units: ``xx``, ``xt``, ``tt`` are the sums of
    ``x*x``, ``x*t`` and ``t*t`` over the units), clipped to [0, 1]. At a share of 0 or 1
    every unit has the same ratio and the interval has no width: say so rather than print it."""
    r = x / t
    if n < 2:
        return 0.0, 1.0
    resid = (xx - 2 * r * xt + r * r * tt) / (n - 1)      # variance of x - r*t per unit
    half = Z * math.sqrt(max(resid, 0.0) / n) / (t / n)
    return max(0.0, r - half), min(1.0, r + half)


def diff_rates(a: dict, b: dict) -> dict:
    """``a - b`` for two rates with Wilson intervals (Newcombe's hybrid score interval,
    independent samples)."""
    if a.get("x") is None or b.get("x") is None:
        return {"x": None, "x_ci": None, "note": "a rate is not defined"}
    p1, (l1, u1) = a["x"], a["x_ci"]
    p2, (l2, u2) = b["x"], b["x_ci"]
    d = p1 - p2
    return {"x": d, "x_ci": [d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
                             d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)]}


def diff_means(a: dict, b: dict) -> dict:
    """``a - b`` for two means with t intervals (normal interval of the difference,
    independent samples; each standard error recovered from its interval)."""
    if a.get("x") is None or b.get("x") is None:
        return {"x": None, "x_ci": None, "note": "a mean is not defined"}
    def se(m):
        if m["n"] < 2:
            return 0.0
        return (m["x_ci"][1] - m["x"]) / float(stats.t.ppf(0.975, m["n"] - 1))

    d = a["x"] - b["x"]
    half = Z * math.sqrt(se(a) ** 2 + se(b) ** 2)
    return {"x": d, "x_ci": [d - half, d + half]}
