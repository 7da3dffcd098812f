"""What each Dice Throne card is worth (analysis/dicethrone_cards.py, reports/dicethrone_cards.py,
``playtest dicethrone card-value``): the blank card, the common-seed pairing, the paired
interval, the report section and the CLI, on a few dozen games."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis.dicethrone_cards import BLANK_COST, blank_tables, card_values, paired, play_scores
from simcore.dicethrone import model as M


def _tables():
    from strategies.dicethrone.bind import content_tables

    return content_tables(("pyromancer", "paladin"))


def test_blank_replaces_every_copy_in_one_deck_only():
    content, T, _ = _tables()
    cid = [c.id for c in content.cards].index("next_time")
    Tv = blank_tables(T, 0, cid)
    blank = Tv.card.shape[0] - 1
    assert Tv.card[blank, 0] == BLANK_COST and Tv.card[blank, 5] == 0         # unaffordable, no effect
    assert (Tv.deck[0] == cid).sum() == 0 and (Tv.deck[0] == blank).sum() == (T.deck[0] == cid).sum() > 0
    assert np.array_equal(Tv.deck[1], T.deck[1]) and Tv.deck_n.tolist() == T.deck_n.tolist()
    assert T.card.shape[0] == len(content.cards) and (T.deck[0] == cid).sum() > 0   # cached tables untouched


def test_paired_interval_by_hand():
    base = np.array([1, 1, 0, 0.5, 1, 0], float)
    var = np.array([1, 0, 0, 0.5, 0, 1], float)
    cap = np.zeros(6, bool)
    r = paired(base, cap, var, cap)
    d = base - var                                   # 0, 1, 0, 0, 1, -1
    assert r["value"] == pytest.approx(d.mean()) and r["pairs"] == 6 and r["changed"] == 3
    se = d.std(ddof=1) / np.sqrt(6)
    assert r["half_width"] == pytest.approx(1.959963984540054 * se)
    capped = cap.copy()
    capped[1] = True                                 # a pair capped on one side is left out
    assert paired(base, cap, var, capped)["pairs"] == 5


def test_unplayed_card_is_worth_exactly_zero_on_common_seeds():
    # greedy never plays Absolution (its prevention sits in a bonus roll): with it blanked
    # every game replays identically, which only holds if both versions share their streams
    df = card_values(n=40, seed=3, heroes=("paladin",), vs="pyromancer", cards={"absolution", "next_time"})
    row = df.set_index("card").loc["absolution"]
    assert row["value"] == 0 and row["changed"] == 0 and row["half_width"] == 0
    nt = df.set_index("card").loc["next_time"]
    assert nt["changed"] > 0 and nt["half_width"] < nt["half_width_unpaired"]


def test_scores_both_seat_orders_from_the_holder_side():
    content, T, data = _tables()
    s, capped = play_scores("pyromancer", "paladin", 20, 5, ("greedy", "greedy"), M.load_rules(), (content, T, data))
    from strategies.dicethrone.bind import play_range

    a = play_range(0, 20, 5, ("pyromancer", "paladin"))
    b = play_range(0, 20, 5, ("paladin", "pyromancer"))
    want = [1.0 if w == 0 else (0.5 if w < 0 else 0.0) for w in a["winner"]] + \
           [1.0 if w == 1 else (0.5 if w < 0 else 0.0) for w in b["winner"]]
    assert s.tolist() == want and len(capped) == 40


def test_report_section_writes_table_and_chart(tmp_path):
    from reports.dicethrone_cards import card_value_section
    from reports.html import Page

    df = pd.DataFrame([{"hero": "pyromancer", "card": "x", "name": "X", "deck": "hero", "copies": 1, "cost": 1,
                        "phase": "main", "games": 10, "value": 0.05, "value_ci": [0.01, 0.09], "half_width": 0.04,
                        "half_width_unpaired": 0.2, "pairs": 10, "changed": 2, "win_rate_full": 0.5,
                        "win_rate_blank": 0.45}])
    page = Page("t", tmp_path)
    card_value_section(5, df=df)(page)
    html = page.write("r.html").read_text()
    assert "What each card is worth" in html and "+5.0" in html and "paired" in html
    assert (tmp_path / "card_values.png").exists()


def test_reports_registry_gives_the_section():
    from reports.sections import report_sections
    from types import SimpleNamespace

    secs = report_sections("dicethrone", SimpleNamespace(extra={"section_games": 7}, seed=1, games=50,
                                                                  rules=M.load_rules(), matchups=[], seats=2))
    # the roster's levels (none played here) and the verdict, damage by source and what gets
    # used (from the run), the team games and free-for-all (the roster's eight heroes), then
    # where each card's worth is found (a roster of more than two heroes)
    assert len(secs) == 5 and all(callable(s) for s in secs)


from dicethrone_helpers import run_cli as run  # noqa: E402  (playtest ARGV in-process)


def test_cli_json_and_errors(capsys, tmp_path):
    code, out, _ = run(capsys, "dicethrone", "card-value", "-n", "15", "--hero", "pyro", "--vs", "paladin",
                       "--card", "Next Time", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["games_per_card"] == 30 and [c["card"] for c in d["cards"]] == ["next_time"]
    assert d["cards"][0]["hero"] == "pyromancer" and len(d["cards"][0]["value_ci"]) == 2
    code, out, err = run(capsys, "dicethrone", "card-value", "--hero", "pyro", "--vs", "paladin",
                         "--card", "nope")
    assert code != 0 and "--card" in err and "next_time" in err and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "dicethrone", "card-value", "--hero", "pyro", "--vs", "paladin",
                         "--strategy", "wizardry")
    assert code != 0 and "--strategy" in err and "greedy" in err
    code, out, err = run(capsys, "report", "dicethrone", "--section-games", "0", "--out", str(tmp_path / "r"))
    assert code != 0 and "--section-games" in err and not (tmp_path / "r").exists()
