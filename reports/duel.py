"""The dice duel designer report: one self-contained HTML page (figures embedded, each
also saved as PNG beside it) built from a ``MatchupRun`` (``simcore.duel.model``).

Sections: written balance summary; matchup heatmap (win rate and 95% interval per cell);
hero win rates vs the field; first-player advantage; game-length histograms; ability
activation tables; the odds section of ``reports.odds`` when that module exists; any
``extra_sections``; and how the run was made (seed, games, strategy, rule options,
version, the command that reproduces it). Definitions: ``analysis.duel``.
"""
from __future__ import annotations

import html
import importlib
import shlex
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from analysis import duel as ad  # noqa: E402
from analysis.runs import ci_decimals, fmt_rate  # noqa: E402
from reports.html import Page  # noqa: E402
from simcore import __version__  # noqa: E402

DEFINITIONS = [
    "Score = wins + half the draws. A draw is both heroes dead at once, or the turn cap "
    "(a timeout, counted as a draw).",
    "Win rate of the row hero A against the column hero B = A's score / games over both seat "
    "orders (A in seat 0 of run A-B, A in seat 1 of run B-A, same dice streams with seats "
    "swapped). A mirror counts both seats of its one run, so it is 50% by construction; what "
    "remains of a seat bias shows up as the first-player edge.",
    "Intervals are Wilson 95% intervals on that score over the matchup's distinct games.",
    "First-player win rate = the first player's score / games, per matchup and over all games.",
    "Hero win rate against the field = the mean of its win rates against every other hero "
    "(mirrors excluded, equal weight per matchup).",
    "A hero or matchup is flagged as off balance only when its 95% interval excludes 50%.",
]


def _odds_module():
    """``reports.odds`` if it exists; errors raised while importing it propagate."""
    try:
        return importlib.import_module("reports.odds")
    except ModuleNotFoundError as e:
        if e.name == "reports.odds":
            return None
        raise


def reproduce_command(run, setup=None, out_dir="duel-report") -> str:
    """The CLI line that replays this run: games, seed, strategy, engine and every rule
    option that differs from ``rules.toml`` (as ``--set key=value``)."""
    from simcore.duel.model import HEROES_DIR, default_rules

    parts = ["playtest", "report", "duel", "--games", str(run.games), "--seed", str(run.seed),
             "--strategy", str(run.strategy)]
    engine = getattr(run, "engine", "kernel")
    if engine and engine != "kernel":
        parts += ["--engine", engine]
    setup = setup if setup is not None else getattr(run, "setup", None)
    if setup is not None and setup.heroes:
        src = Path(setup.heroes[0].source).parent if setup.heroes[0].source else None
        if src is not None and src.resolve() != HEROES_DIR.resolve():
            parts += ["--heroes", str(src)]
    defaults = default_rules()
    for k, v in sorted(run.rules.items()):
        if k in defaults and defaults[k] != v:
            val = str(v).lower() if isinstance(v, bool) else (f'"{v}"' if isinstance(v, str) else str(v))
            parts += ["--set", f"{k}={val}"]
    parts += ["--out", str(out_dir)]
    return shlex.join(parts)


# ---------------------------------------------------------------- figures
def heatmap_figure(run, m: pd.DataFrame):
    names = ad.hero_names(run)
    H = len(names)
    rate = np.full((H, H), np.nan)
    lo = np.full((H, H), np.nan)
    hi = np.full((H, H), np.nan)
    sig = np.zeros((H, H), bool)
    for r in m.itertuples():
        i, j = int(r.hero_idx), int(r.opponent_idx)
        rate[i, j], lo[i, j], hi[i, j], sig[i, j] = r.win_rate, r.ci_low, r.ci_high, r.significant
    dev = np.nanmax(np.abs(rate - 0.5)) if np.isfinite(rate).any() else 0.0
    span = max(0.15, float(dev))
    fig, ax = plt.subplots(figsize=(1.9 * H + 2.2, 1.5 * H + 1.4))
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="#dddddd")
    im = ax.imshow(np.ma.masked_invalid(rate), cmap=cmap, vmin=0.5 - span, vmax=0.5 + span)
    for i in range(H):
        for j in range(H):
            if not np.isfinite(rate[i, j]):
                ax.text(j, i, "not played", ha="center", va="center", fontsize=8, color="#555")
                continue
            dark = abs(rate[i, j] - 0.5) > 0.6 * span
            d = ci_decimals(lo[i, j], hi[i, j])     # enough decimals for the interval's two ends
            txt = f"{100 * rate[i, j]:.{d}f}%{' *' if sig[i, j] else ''}\n[{100 * lo[i, j]:.{d}f}, {100 * hi[i, j]:.{d}f}]"
            if i == j:
                txt = "mirror\n50% by\nconstruction"
            ax.text(j, i, txt, ha="center", va="center", fontsize=8.5,
                    color="white" if dark else "black", fontweight="bold" if sig[i, j] else "normal")
    ax.set_xticks(range(H), names, rotation=20, ha="right")
    ax.set_yticks(range(H), names)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("hero (row)")
    ax.set_title("Row hero's win rate vs column hero (seats averaged), 95% interval")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, format=lambda x, _: f"{100 * x:.0f}%")
    return fig


def _sig_colour(lo, hi):
    return ["#c0392b" if l_ > 0.5 else "#2c6fbb" if h < 0.5 else "#8a8a8a" for l_, h in zip(lo, hi)]


def hero_figure(ht: pd.DataFrame):
    d = ht.sort_values("win_rate")
    fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(d) + 1.4))
    y = np.arange(len(d))
    err = np.vstack([d.win_rate - d.ci_low, d.ci_high - d.win_rate]) * 100
    ax.barh(y, 100 * d.win_rate, xerr=err, color=_sig_colour(d.ci_low, d.ci_high), capsize=4, height=0.6)
    for yi, r in zip(y, d.itertuples()):
        ax.text(100 * r.ci_high + 1.5, yi, fmt_rate(r.win_rate, (r.ci_low, r.ci_high)),
                va="center", fontsize=8.5)
    ax.axvline(50, color="black", lw=1, ls="--")
    ax.set_yticks(y, d.hero)
    # bars start at zero (a bar's length is its rate: an axis cut at 40% made 55% look
    # three times 45%); room on the right for the labels, ticks only up to 100%
    ax.set_xlim(0.0, max(100.0, 100 * float(d.ci_high.max())) + 22.0)
    ax.set_xticks(np.arange(0, 101, 10))
    ax.set_xlabel("win rate against the field, % (mirrors excluded)")
    ax.set_title("Hero win rates with 95% intervals (red: above 50%, blue: below, grey: noise)")
    return fig


def first_player_figure(fp: pd.DataFrame):
    d = fp.copy()
    labels = ["all games" if a == "all" else (f"{a} mirror" if a == b else f"{a} vs {b}")
              for a, b in zip(d.hero_a, d.hero_b)]
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(d) + 1.4))
    y = np.arange(len(d))[::-1]
    err = np.vstack([d.first_player_win_rate - d.ci_low, d.ci_high - d.first_player_win_rate]) * 100
    colours = _sig_colour(d.ci_low, d.ci_high)
    colours[-1] = "#333333" if colours[-1] == "#8a8a8a" else colours[-1]
    ax.barh(y, 100 * d.first_player_win_rate, xerr=err, color=colours, capsize=3, height=0.6)
    ax.axvline(50, color="black", lw=1, ls="--")
    ax.set_yticks(y, labels)
    ax.set_xlim(0.0, 100.0)       # bars start at zero: a bar's length is its rate
    ax.set_xticks(np.arange(0, 101, 10))
    ax.set_xlabel("first player's score rate, % (wins + half draws)")
    ax.set_title("First-player advantage with 95% intervals")
    return fig


def length_figure(run):
    names = ad.hero_names(run)
    pairs = ad._matchups(run)
    n = len(pairs)
    cols = min(4, n) or 1
    rows = -(-n // cols) or 1
    hists = [ad._turn_hist(ad._runs_of(run, a, b)) for a, b in pairs]  # records or aggregates
    fig, axes = plt.subplots(rows, cols, figsize=(3.3 * cols, 2.4 * rows), squeeze=False)
    for k, ((a, b), h) in enumerate(zip(pairs, hists)):
        ax = axes[k // cols][k % cols]
        ng = int(h.sum())
        tmax = int(np.nonzero(h)[0].max()) if ng else 1
        step = 1.0 if tmax <= 60 else float(np.ceil(tmax / 60))
        ax.hist(np.arange(h.size), bins=np.arange(0.5, tmax + step + 0.5, step), weights=h, color="#4f7cac",
                edgecolor="none")
        title = f"{names[a]} mirror" if a == b else f"{names[a]} vs {names[b]}"
        ax.set_title(title, fontsize=9)
        if ng:
            from analysis.aggregate import hist_median

            med = hist_median(h)
            mean = float((np.arange(h.size) * h).sum()) / ng
            ax.axvline(med, color="#c0392b", lw=1)
            tout = int(sum(ad._timeouts(r) for r in ad._runs_of(run, a, b)))
            note = f"mean {mean:.1f}\nmedian {med:.0f}" + (f"\ntimeouts {tout}" if tout else "")
            ax.text(0.97, 0.93, note, transform=ax.transAxes, ha="right", va="top", fontsize=7.5)
        ax.set_xlim(0, tmax + step)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(labelsize=7.5)
    for k in range(n, rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    fig.supxlabel("game length (player-turns; each panel has its own scale); red line: median", fontsize=9)
    fig.supylabel("games", fontsize=9)
    fig.tight_layout()
    return fig


def ability_figure(at: pd.DataFrame):
    heroes = list(dict.fromkeys(at.hero))
    fig, axes = plt.subplots(1, len(heroes), figsize=(3.4 * len(heroes), 3.4), squeeze=False)
    for ax, h in zip(axes[0], heroes):
        d = at[at.hero == h]
        ax.barh(np.arange(len(d))[::-1], 100 * d.per_turn,
                color=["#bbbbbb" if a == "(no attack)" else "#4f7cac" for a in d.ability])
        ax.set_yticks(np.arange(len(d))[::-1], d.ability, fontsize=8)
        ax.set_title(h, fontsize=9.5)
        ax.set_xlabel("% of own turns", fontsize=8)
        ax.tick_params(axis="x", labelsize=7.5)
    fig.suptitle("Ability activations per own turn", fontsize=10)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- page
def _rate_ci_n(rates, lows, highs, ns) -> list[str]:
    """'23.8% [19.9, 28.2] (n=400)' per row (``fmt_rate``); '– (n=0)' where no game."""
    return [fmt_rate(r, (lo, hi), int(n)) if n else "– (n=0)"
            for r, lo, hi, n in zip(rates, lows, highs, ns)]


def _rate_cols(rates, lows, highs) -> tuple[list[str], list[str]]:
    """A rate column and its interval column, each row with one decimal or more until its
    interval's ends differ as printed (``ci_decimals``: a 2,000,000-game matchup printed
    '[99.8, 99.8]')."""
    ds = [ci_decimals(lo, hi) for lo, hi in zip(lows, highs)]
    return ([f"{100 * r:.{d}f}%" for r, d in zip(rates, ds)],
            [f"[{100 * lo:.{d}f}, {100 * hi:.{d}f}]" for lo, hi, d in zip(lows, highs, ds)])


def _fmt_matchups(m: pd.DataFrame) -> pd.DataFrame:
    d = m.copy()
    rate_txt, ci_txt = _rate_cols(d.win_rate, d.ci_low, d.ci_high)
    out = pd.DataFrame({
        "hero": d.hero, "opponent": d.opponent, "games": [f"{g:,}" for g in d.distinct_games],
        # a mirror pools both seats of its one run, so its wins, draws and losses count every
        # game twice: show it per game instead (decided / drawn adds up to the games)
        "W / D / L": [f"{w:,} decided / {dr // 2:,} drawn (mirror)" if mir
                      else f"{w:,} / {dr:,} / {l_:,}"
                      for w, dr, l_, mir in zip(d.wins, d.draws, d.losses, d.mirror)],
        # a mirror's rate is one half by construction: an interval around it would suggest a
        # measurement (its seat orders are in the moving first / second columns)
        "win rate": ["50% (mirror)" if mir else r for r, mir in zip(rate_txt, d.mirror)],
        "95% interval": ["by construction" if mir else c for c, mir in zip(ci_txt, d.mirror)],
        "off 50%": ["yes" if s else "" for s in d.significant],
        "moving first": _rate_ci_n(d.win_rate_first, d.first_ci_low, d.first_ci_high, d.games_first),
        "moving second": _rate_ci_n(d.win_rate_second, d.second_ci_low, d.second_ci_high, d.games_second),
        "timeouts": [f"{t:,}" for t in d.timeouts], "mean turns": [f"{v:.1f}" for v in d.mean_turns],
        "median turns": [f"{v:g}" for v in d.median_turns],
    })
    return out


def _fmt_heroes(ht: pd.DataFrame) -> pd.DataFrame:
    rate_txt, ci_txt = _rate_cols(ht.win_rate, ht.ci_low, ht.ci_high)
    return pd.DataFrame({
        "hero": ht.hero, "games": [f"{g:,}" for g in ht.games], "win rate": rate_txt, "95% interval": ci_txt,
        # as printed: the printed rate less 50
        "edge (points)": [ad.edge_text(r, lo, hi) for r, lo, hi in zip(ht.win_rate, ht.ci_low, ht.ci_high)],
        "timeouts (as draws)": [f"{t:,}" for t in ht.timeouts],
        "best matchup": [f"vs {o} {r}" for o, r in zip(ht.best_vs, _rate_ci_n(
            ht.best_win_rate, ht.best_ci_low, ht.best_ci_high, ht.best_games))],
        "worst matchup": [f"vs {o} {r}" for o, r in zip(ht.worst_vs, _rate_ci_n(
            ht.worst_win_rate, ht.worst_ci_low, ht.worst_ci_high, ht.worst_games))],
        "moving first": _rate_ci_n(ht.win_rate_first, ht.first_ci_low, ht.first_ci_high, ht.games_first),
        "moving second": _rate_ci_n(ht.win_rate_second, ht.second_ci_low, ht.second_ci_high,
                                    ht.games_second),
        "attacks / turn": [f"{v:.2f}" for v in ht.attacks_per_turn],
        "bought rolls / turn": [f"{v:.2f}" for v in ht.bought_rolls_per_turn],
    })


HERO_TABLES = (
    ("hero", "games", "win rate", "95% interval", "edge (points)", "timeouts (as draws)", "attacks / turn",
     "bought rolls / turn"),
    ("hero", "best matchup", "worst matchup", "moving first", "moving second"),
)


def _hero_tables(ht: pd.DataFrame) -> list[pd.DataFrame]:
    """``_fmt_heroes`` as two tables that each fit the text column (as one table of eleven
    columns, four of them a rate with its interval and n, it ran past the page's right
    edge in a real browser): the hero's rate and play, then its matchups and seat orders."""
    full = _fmt_heroes(ht)
    return [full[list(cols)] for cols in HERO_TABLES]


def _fmt_first(fp: pd.DataFrame) -> pd.DataFrame:
    rate_txt, ci_txt = _rate_cols(fp.first_player_win_rate, fp.ci_low, fp.ci_high)
    return pd.DataFrame({
        "matchup": ["all games" if a == "all" else (f"{a} mirror" if a == b else f"{a} vs {b}")
                    for a, b in zip(fp.hero_a, fp.hero_b)],
        "games": [f"{g:,}" for g in fp.games], "first W / D / L": [f"{w:,} / {d:,} / {l_:,}" for w, d, l_ in
                                                zip(fp.first_wins, fp.draws, fp.first_losses)],
        "timeouts (of the draws)": [f"{t:,}" for t in fp.timeouts],
        "first player's score": rate_txt, "95% interval": ci_txt,
        # the edge as printed is the printed score less 50 (53.75% reads 53.8%: +3.8, not +3.7)
        "edge (points)": [ad.edge_text(r, lo, hi) for r, lo, hi in zip(fp.first_player_win_rate, fp.ci_low,
                                                                        fp.ci_high)],
    })


def build_report(run, out_dir, extra_sections=None, setup=None, command: str | None = None,
                 tables: dict | None = None, title: str = "Dice duel balance report") -> Path:
    """Write ``<out_dir>/report.html`` (self-contained) and one PNG per figure; return the
    HTML path. ``extra_sections``: callables ``section(page)`` adding their own headings,
    figures and tables (run after the standard sections). ``setup`` defaults to
    ``run.setup``; ``command`` (the reproducing command line) defaults to one built from the
    run's options. ``tables``: the ``analysis.duel.all_tables`` result, if already made."""
    setup = setup if setup is not None else getattr(run, "setup", None)
    t = ad.all_tables(run, setup) if tables is None else tables
    m, ht, fp, at = t["matchups"], t["heroes"], t["first_player"], t["abilities"]
    page = Page(title, out_dir)
    page.paragraph(f"{len(ad.hero_names(run))} heroes, {len(run.pairs)} seatings x {run.games:,} games, "
                   f"strategy {run.strategy!s}, seed {run.seed}.", cls="meta")

    page.heading("Summary: what is out of balance")
    page.bullets(ad.balance_summary(run, m, ht), cls="summary")

    page.heading("Matchups")
    page.paragraph("Each cell: the row hero's win rate against the column hero, both seat orders "
                   "pooled, with its 95% interval; a star and bold type mark cells whose interval "
                   "excludes 50%. Red favours the row hero, blue the column hero.")
    page.figure(heatmap_figure(run, m), "matchup_heatmap",
                caption="Matchup win rates (row vs column) with Wilson 95% intervals.")
    page.table(_fmt_matchups(m), caption="Per matchup, row hero's view.")

    page.heading("Hero win rates against the field")
    if not ht.empty:
        page.figure(hero_figure(ht), "hero_win_rates",
                    caption="Mean win rate against the other heroes (equal weight per matchup), 95% interval.")
        rates, matchups = _hero_tables(ht)
        page.table(rates)
        page.table(matchups, caption="Each hero's best and worst matchup, and its rate by seat order "
                                     "(rate, 95% interval, n).")
    else:
        page.paragraph("Only mirror matches were played: no hero faced another.")

    page.heading("First-player advantage")
    page.figure(first_player_figure(fp), "first_player",
                caption="Score rate of whoever took the first turn, per matchup and over all games.")
    page.table(_fmt_first(fp))

    page.heading("Game length")
    page.figure(length_figure(run), "game_lengths",
                caption="Distribution of player-turns per game, both seat orders pooled.")

    page.heading("Ability activations")
    if not at.empty:
        page.figure(ability_figure(at), "ability_activations",
                    caption="Share of each hero's own turns spent on each ability.")
        for h in dict.fromkeys(at.hero):
            d = at[at.hero == h]
            page.table(pd.DataFrame({
                "ability": d.ability, "activations": [f"{v:,}" for v in d.activations],
                "per own turn": [f"{v:.3f}" for v in d.per_turn], "per game": [f"{v:.2f}" for v in d.per_game],
                "share of attacks": [("–" if not np.isfinite(s) else fmt_rate(s, (lo, hi), int(n)))
                                     for s, lo, hi, n in zip(d.share_of_attacks, d.share_ci_low,
                                                             d.share_ci_high, d.attacks)],
            }), caption=f"{h}: {int(d.games.iloc[0]):,} games, {int(d.hero_turns.iloc[0]):,} own turns, "
                        f"{int(d.attacks.iloc[0]):,} attacks (the n of 'share of attacks'; its Wilson "
                        f"95% interval treats the attacks as independent).")

    odds = _odds_module()
    if odds is not None and setup is not None:
        odds.add_odds_section(page, setup)

    for section in extra_sections or ():
        section(page)

    page.heading("Definitions")
    page.bullets(DEFINITIONS)

    page.heading("How this was made")
    cmd = command or reproduce_command(run, setup, out_dir)
    rules = ", ".join(f"{k} = {v}" for k, v in sorted(run.rules.items()))
    page.raw(
        '<ul class="meta">'
        f"<li>seed: {html.escape(str(run.seed))}</li>"
        f"<li>games: {run.games:,} per seating ({len(run.pairs)} seatings; a matchup pools both seatings)</li>"
        f"<li>strategy: {html.escape(str(run.strategy))}; engine: {html.escape(str(getattr(run, 'engine', 'kernel')))}</li>"
        f"<li>rule options: {html.escape(rules)}</li>"
        f"<li>playtest version: {html.escape(__version__)}</li>"
        f"<li>reproduce: <code>{html.escape(cmd)}</code></li></ul>")
    return page.write("report.html")


SKILL_ORDER = ("random", "greedy", "optimal")  # the built-ins from least to most skilled


def skill_order(names) -> list:
    """Strategies from least to most skilled: the built-ins in SKILL_ORDER, others after."""
    names = list(dict.fromkeys(names))
    return sorted(names, key=lambda s: (SKILL_ORDER.index(s) if s in SKILL_ORDER else len(SKILL_ORDER), names.index(s)))


def skill_figure(sk: pd.DataFrame):
    strategies = skill_order(sk.strategy)
    heroes = list(dict.fromkeys(sk.hero))
    fig, ax = plt.subplots(figsize=(9, 3.8))
    width = 0.8 / max(1, len(strategies))
    for i, s in enumerate(strategies):
        d = sk[sk.strategy == s].set_index("hero").reindex(heroes)
        x = np.arange(len(heroes)) + (i - (len(strategies) - 1) / 2) * width
        ax.bar(x, 100 * d.win_rate, width, label=s,
               yerr=[100 * (d.win_rate - d.ci_low), 100 * (d.ci_high - d.win_rate)], capsize=3)
    ax.axhline(50, color="k", lw=0.8, ls="--")
    ax.set_xticks(np.arange(len(heroes)), heroes)
    ax.set_ylabel("win rate vs the field (%)")
    ax.set_ylim(0, 100)
    ax.legend(title="both players use", fontsize=8)
    ax.set_title("Hero strength by skill level (95% intervals)")
    return fig


def skill_section(sk: pd.DataFrame):
    """A report section (for ``extra_sections``) comparing hero win rates across strategies."""

    def section(page):
        page.heading("Balance by skill level")
        page.paragraph("The same tournament played with every built-in strategy (both players use "
                       "it): a hero that is only strong in expert hands, or only against clumsy "
                       "opponents, shows it here.")
        page.figure(skill_figure(sk), "skill_levels",
                    caption="Hero win rate against the field per strategy, Wilson 95% intervals.")
        page.paragraph(skill_timeouts_line(sk))
        page.table(_fmt_skill(sk))

    return section


def skill_timeouts_line(sk: pd.DataFrame) -> str:
    """How many games of each strategy's tournament reached the turn cap (counted as draws)."""
    per = sk.drop_duplicates("strategy").set_index("strategy")
    parts = [f"{s}: {int(per.tournament_timeouts[s]):,} of {int(per.tournament_games[s]):,} games"
             for s in skill_order(sk.strategy)]
    return ("Games that reached the turn cap (timeouts) count as draws, i.e. half a win, as everywhere "
            "in this report; the table shows them among the n games behind each rate (the hero's "
            "games against other heroes). Capped games per whole tournament, mirror matches "
            "included (these do not enter any hero's rate): " + "; ".join(parts) + ".")


def _fmt_skill(sk: pd.DataFrame) -> pd.DataFrame:
    d = sk.assign(_o=[skill_order(sk.strategy).index(s) for s in sk.strategy]).sort_values(
        "_o", kind="stable").drop(columns="_o")
    return pd.DataFrame({
        "strategy": d.strategy, "hero": d.hero,
        # as many decimals as the interval needs to show two different ends (ci_decimals)
        "win rate": [f"{100 * r:.{ci_decimals(a, b)}f}%" for r, a, b in zip(d.win_rate, d.ci_low, d.ci_high)],
        "95% interval": [f"[{100 * a:.{ci_decimals(a, b)}f}, {100 * b:.{ci_decimals(a, b)}f}]"
                         for a, b in zip(d.ci_low, d.ci_high)],
        "games (n)": [f"{g:,}" for g in d.games],
        "timeouts (as draws)": [f"{t:,}" for t in d.timeouts],
        "games per seating": [f"{g:,}" for g in d.games_per_seating],
    })
