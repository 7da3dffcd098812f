"""Regicide analysis: per-game records (``strategies.regicide.bind``) to tables. Every rate
carries its Wilson 95% interval and sample size; the perfect-information strategy is
labelled as a cheat in every table."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcore.regicide.model import MEDAL_NAMES, REASON_NAMES, SUIT_NAMES

from .stats import wilson

KEYS = ["strategy", "players"]
RANKS = {11: "Jack", 12: "Queen", 13: "King"}


def _ci(df: pd.DataFrame, k: str, n: str, prefix: str = "") -> pd.DataFrame:
    lo, hi = wilson(df[k].to_numpy(float), df[n].to_numpy(float))
    df[f"{prefix}rate"] = df[k] / df[n]
    df[f"{prefix}ci_low"] = lo
    df[f"{prefix}ci_high"] = hi
    return df


def win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate by strategy and player count, with the Wilson 95% interval, and the
    mean number of enemies defeated."""
    g = df.groupby(KEYS, sort=False)
    out = g.agg(games=("win", "size"), wins=("win", "sum"), mean_defeated=("defeated", "mean"),
                mean_turns=("turns", "mean")).reset_index()
    out = _ci(out, "wins", "games", "win_")
    return out[KEYS + ["games", "wins", "win_rate", "win_ci_low", "win_ci_high", "mean_defeated", "mean_turns"]]


def progress(df: pd.DataFrame) -> pd.DataFrame:
    """Share of games still alive after each enemy: ``alive_after`` k = P(defeated >= k),
    k = 0..12 (k = 12 is the win rate)."""
    rows = []
    for (s, p), part in df.groupby(KEYS, sort=False):
        n = len(part)
        d = part["defeated"].to_numpy()
        for k in range(13):
            rows.append({"strategy": s, "players": p, "enemies_defeated": k, "games": n,
                         "alive": int((d >= k).sum())})
    out = pd.DataFrame(rows)
    out = _ci(out, "alive", "games", "alive_")
    return out


def end_enemy(df: pd.DataFrame) -> pd.DataFrame:
    """Which enemy ended the run (castle position, rank and suit), share of the lost games."""
    lost = df[df["win"] == 0]
    rows = []
    for (s, p), part in lost.groupby(KEYS, sort=False):
        n = len(part)
        for (pos, r, su), cnt in part.groupby(["end_pos", "end_rank", "end_suit"]).size().items():
            rows.append({"strategy": s, "players": p, "castle_position": int(pos) + 1,
                         "rank": RANKS.get(int(r), "?"), "suit": SUIT_NAMES[int(su)],
                         "losses": int(cnt), "lost_games": n})
    out = pd.DataFrame(rows, columns=["strategy", "players", "castle_position", "rank", "suit", "losses", "lost_games"])
    if len(out):
        out = _ci(out, "losses", "lost_games", "share_")
    return out


def end_by_rank_suit(df: pd.DataFrame) -> pd.DataFrame:
    """Losses by the ending enemy's rank and suit (summed over castle positions)."""
    e = end_enemy(df)
    if not len(e):
        return e
    out = e.groupby(KEYS + ["rank", "suit"], sort=False).agg(losses=("losses", "sum"),
                                                             lost_games=("lost_games", "first")).reset_index()
    return _ci(out, "losses", "lost_games", "share_")


def lengths(df: pd.DataFrame) -> pd.DataFrame:
    """Game length (turns) by strategy and player count."""
    g = df.groupby(KEYS, sort=False)["turns"]
    out = g.agg(games="size", mean="mean", std="std", min="min", median="median", max="max").reset_index()
    out["q10"] = g.quantile(0.1).to_numpy()
    out["q90"] = g.quantile(0.9).to_numpy()
    return out


def medals(df: pd.DataFrame) -> pd.DataFrame:
    """Solo games: medal distribution (gold = won with 0 flips, silver 1, bronze 2) and
    flip use, each share with its interval."""
    solo = df[df["players"] == 1]
    rows = []
    for s, part in solo.groupby("strategy", sort=False):
        n = len(part)
        for m in (3, 2, 1, 0):
            rows.append({"strategy": s, "what": f"medal: {MEDAL_NAMES[m]}", "games": n,
                         "count": int((part["medal"] == m).sum())})
        for f in range(int(part["flips_used"].max()) + 1):
            rows.append({"strategy": s, "what": f"flips used: {f}", "games": n,
                         "count": int((part["flips_used"] == f).sum())})
    out = pd.DataFrame(rows, columns=["strategy", "what", "games", "count"])
    if len(out):
        out = _ci(out, "count", "games")
    return out


def jesters(df: pd.DataFrame) -> pd.DataFrame:
    """Jester use (3-4 players hold Jesters), yields and exact kills per game."""
    g = df.groupby(KEYS, sort=False)
    out = g.agg(games=("win", "size"), mean_jesters=("jesters", "mean"),
                games_with_jester=("jesters", lambda x: int((x > 0).sum())),
                mean_yields=("yields", "mean"), mean_exact_kills=("exact_kills", "mean")).reset_index()
    return _ci(out, "games_with_jester", "games", "jester_")


def reasons(df: pd.DataFrame) -> pd.DataFrame:
    out = df.groupby(KEYS + ["reason"], sort=False).size().rename("games").reset_index()
    out["end"] = [REASON_NAMES[int(r)] for r in out["reason"]]
    tot = out.groupby(KEYS, sort=False)["games"].transform("sum")
    out["total"] = tot
    return _ci(out, "games", "total")


def all_tables(df: pd.DataFrame) -> dict:
    return {"win_rates": win_rates(df), "progress": progress(df), "end_enemy": end_enemy(df),
            "end_by_rank_suit": end_by_rank_suit(df), "lengths": lengths(df), "medals": medals(df),
            "jesters": jesters(df), "end_reasons": reasons(df)}


def label(name: str, perfect_information: bool) -> str:
    return f"{name} [CHEAT: perfect information]" if perfect_information else name


def summary(rec: dict) -> dict:
    """The ``--json`` summary of one run."""
    n = int(len(rec["win"]))
    w = int(np.sum(rec["win"]))
    lo, hi = wilson(w, n)
    return {"games": n, "wins": w, "win_rate": w / n, "win_rate_ci": [lo, hi],
            "mean_enemies_defeated": float(np.mean(rec["defeated"])), "mean_turns": float(np.mean(rec["turns"]))}
