"""``playtest odds ...`` commands, the report section and the benchmark module."""
from __future__ import annotations

import json

import pytest

from scripts.cli import main


def run(capsys, *argv):
    try:
        main(list(argv))
        code = 0
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_custom_json_exact_fraction(capsys):
    code, out, _ = run(capsys, "odds", "custom", "--die", "1,2,3,4,5,6", "--dice", "5",
                       "--target", "kind:5", "--rolls", "3", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["fraction"] == "347897/7558272" and d["probability"] == pytest.approx(0.0460286, abs=1e-7)


def test_custom_differing_dice_locked_and_cp(capsys):
    hero = "1:sword,2:sword,3:sword,4:heart,5:heart,6:fist"
    special = "1:gem,2:gem,3:gem,4:gem,5:gem,6:sword"
    base = ["odds", "custom", "--die", hero, "--die", special, "--dice", "5",
            "--target", "3*fist+1*gem", "--locked", "6:fist", "--json"]
    _, out3, _ = run(capsys, *base, "--rolls", "3")
    _, out4, _ = run(capsys, *base, "--rolls", "3", "--cp", "2")
    _, out4b, _ = run(capsys, *base, "--rolls", "4")
    p3, p4, p4b = (json.loads(o) for o in (out3, out4, out4b))
    assert p3["dice"][-1].startswith("1:gem") and p3["locked"] == ["6:fist"]
    assert p4["fraction"] == p4b["fraction"] and p4["probability"] > p3["probability"]


def test_advise(capsys):
    code, out, _ = run(capsys, "odds", "advise", "--hero", "mountain", "--roll", "1,1,4,6,2",
                       "--rolls-left", "2", "--target", "small-straight", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["keep"] == "1:sword,2:sword,4:heart" and d["keep_positions"] == [1, 3, 5]
    assert d["fraction"] == "671/1296"
    assert all(a["probability"] <= d["probability"] for a in d["alternatives"])


def test_advise_custom_dice(capsys):
    code, out, _ = run(capsys, "odds", "advise", "--die", "1,2,3,4,5,6", "--roll", "6,6,6,6,2",
                       "--rolls-left", "1", "--target", "kind:5", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["keep_positions"] == [1, 2, 3, 4] and d["fraction"] == "1/6"
    code, out, _ = run(capsys, "odds", "advise", "--die", "1:a,2:a,3:b,4:b,5:c,6:c",
                       "--die", "1:c,2:c,3:c,4:c,5:c,6:a", "--roll", "1,3,5,2",
                       "--rolls-left", "1", "--target", "3*c", "--json")
    d = json.loads(out)
    # keep both c (one on the special die); two plain dice rerolled need one c: 1-(2/3)^2
    assert d["keep"] == "2:c,5:c" and d["keep_positions"] == [3, 4] and d["fraction"] == "5/9"


def test_duel_table(capsys):
    code, out, _ = run(capsys, "odds", "duel", "--hero", "fire", "--cp", "4", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["bought_rolls"] == 2 and len(d["abilities"]) == 7
    flame3 = [a for a in d["abilities"] if a["label"] == "Flame (tier 3)"][0]
    assert flame3["probability"] == pytest.approx(flame3["by_rolls"]["3+2"])
    ends = d["optimal_ends_with"]
    assert sum(v for k, v in ends.items() if k not in ("expected_value", "mean_rolls_bought",
                                                        "bought_rolls_affordable")) == pytest.approx(1.0)
    code, out, _ = run(capsys, "odds", "duel", "--hero", "fire", "--rolls", "2")
    assert code == 0 and "Flame (tier 3)" in out and "2+4" in out


@pytest.mark.parametrize("argv,msg", [
    (["odds", "custom", "--die", "1,2,3,4,5,6", "--target", "3*fsit"], "unknown symbol 'fsit'"),
    (["odds", "custom", "--die", "1,2,3,4,5", "--target", "kind:2"], "a die has 6 faces"),
    (["odds", "custom", "--die", "1,2,3,4,5,6", "--target", "kind:2", "--rolls", "0"], "1..12"),
    (["odds", "advise", "--hero", "nobody", "--roll", "1,2,3,4,5", "--rolls-left", "1",
      "--target", "kind:2"], "unknown hero"),
    (["odds", "advise", "--hero", "mountain", "--roll", "1,2,3,4", "--rolls-left", "1",
      "--target", "3*sword"], "expected 5 dice"),
])
def test_bad_input_one_line(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and msg in err and err.count("\n") == 1


def test_report_section(tmp_path):
    from reports.html import Page
    from reports.odds import add_odds_section
    from simcore.duel.model import load_setup

    setup = load_setup()
    page = Page("odds", tmp_path)
    add_odds_section(page, setup)
    html = page.write().read_text()
    assert len(page.pngs) == len(setup.heroes)
    assert "Keep advice for the most common opening rolls" in html and "Mountain Fury" in html
