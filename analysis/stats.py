"""Interval estimates used by every table: each rate travels with its interval and n."""
from __future__ import annotations

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
