"""The duel command line: JSON shapes and one-line errors for bad input."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.cli import main
from simcore.duel.model import HEROES_DIR


def run_cli(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
        raise SystemExit(0)
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


def assert_one_line_error(code, err, *needles):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("playtest: error: ")
    assert "Traceback" not in err
    for n in needles:
        assert n in lines[0], (n, lines[0])


def test_play_json(capsys):
    code, out, _ = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "Fire Kindler",
                           "-n", "500", "--json")
    d = json.loads(out)
    assert code == 0 and d["games"] == 1000 and d["seat_orders"] == 2
    assert d["wins"] + d["draws"] + d["losses"] == 1000
    lo, hi = d["win_rate_ci"]
    assert lo <= d["win_rate"] <= hi


def test_matchups_json_shape_and_files(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "duel", "matchups", "-n", "300", "--seed", "3", "--json",
                           "--out", str(tmp_path))
    d = json.loads(out)
    assert code == 0
    assert d["heroes"] == ["Mountain Warrior", "Shadow Walker", "Fire Kindler", "Light Guardian"]
    assert len(d["win_rate"]) == 4 and all(len(r) == 4 for r in d["win_rate"])
    for i in range(4):
        assert d["win_rate"][i][i] == 0.5
        for j in range(4):
            lo, hi = d["win_rate_ci"][i][j]
            assert lo <= d["win_rate"][i][j] <= hi
            if i != j:  # the two views of a matchup add up to one
                assert d["win_rate"][i][j] + d["win_rate"][j][i] == pytest.approx(1.0)
    assert 0 < d["first_player_win_rate"] < 1
    sidecar = json.loads((tmp_path / "run.json").read_text())
    assert sidecar["seed"] == 3 and sidecar["strategy"] == "greedy"
    assert (tmp_path / "matchups.parquet").exists() and (tmp_path / "matchups.csv").exists()


def test_unknown_hero(capsys):
    code, _, err = run_cli(capsys, "duel", "play", "--hero", "wizard", "--vs", "shadow", "-n", "10")
    assert_one_line_error(code, err, "--hero", "unknown hero 'wizard'", "mountain_warrior")


@pytest.mark.parametrize("games", ["-5", "0"])
def test_bad_game_count(capsys, games):
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", games)
    assert_one_line_error(code, err, "--games", "must be positive")


def test_non_numeric_game_count(capsys):
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "many")
    assert_one_line_error(code, err, "--games")


def test_unknown_strategy(capsys):
    code, _, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "10",
                           "--strategy", "clever")
    assert_one_line_error(code, err, "--strategy", "unknown strategy 'clever'")
    code, _, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "10",
                           "--strategy", "nosuchpkg.mod:fn")
    assert_one_line_error(code, err, "--strategy", "cannot import module 'nosuchpkg.mod'")


def test_impossible_and_unknown_rule_options(capsys, tmp_path):
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "10", "--set", "hp_cap=20")
    assert_one_line_error(code, err, "hp_cap", "must be >= start_hp (30)")
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "10", "--set", "hit_points=20")
    assert_one_line_error(code, err, "hit_points", "unknown rule option")
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "10", "--set", "first_player=coin")
    assert_one_line_error(code, err, "first_player", "must be one of lot, seat0")
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "10", "--set", "turn_cap=lots")
    assert_one_line_error(code, err, "turn_cap", "must be int")
    rules = tmp_path / "rules.toml"
    rules.write_text("roll_cost = 0\n")
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "10", "--rules", str(rules))
    assert_one_line_error(code, err, str(rules), "roll_cost", "must be >= 1")
    code, _, err = run_cli(capsys, "duel", "matchups", "-n", "10", "--rules", str(tmp_path / "none.toml"))
    assert_one_line_error(code, err, "none.toml", "file not found")


def test_mirror_matches_can_be_switched_off(capsys):
    code, _, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "shadow", "-n", "10",
                           "--set", "mirror_matches=false")
    assert_one_line_error(code, err, "mirror matches are off")
    code, out, _ = run_cli(capsys, "duel", "matchups", "-n", "50", "--json", "--set", "mirror_matches=false")
    d = json.loads(out)
    assert d["win_rate"][0][0] is None


def copy_heroes(tmp_path) -> Path:
    d = tmp_path / "heroes"
    shutil.copytree(HEROES_DIR, d)
    return d


@pytest.mark.parametrize("edit,needles", [
    (lambda s: s.replace('name = "Charge"', 'name = "Charge'), ["malformed TOML"]),
    (lambda s: s.replace('"small-straight"', '"3*swrod"'), ["abilities[3].target", "unknown symbol 'swrod'"]),
    (lambda s: s.replace('"3*heart"', '"6*heart"'), ["abilities[1].target", "needs 6 dice"]),
    (lambda s: s.replace("damage = 14", "damage = -14"), ["abilities[4].damage", "whole number 0..1000"]),
    (lambda s: s.replace("dice = 3", "dice = 9"), ["defence.dice"]),
    (lambda s: s.replace('"6:fist"]', '"7:fist"]'), ["faces", "1..6"]),
    (lambda s: s.replace("heart = { heal = 1 }", "hart = { heal = 1 }"), ["defence.symbols.hart", "no symbol 'hart'"]),
    # found by tests/test_loaders_fuzz.py: a non-table here was an AttributeError traceback
    (lambda s: s.replace("symbols = { heart = { heal = 1 }, fist = { strike = 1 } }", "symbols = 1"),
     ["defence.symbols", "must be a table"]),
    (lambda s: s.replace("daze = true", "dazed = true"), ["abilities[2].dazed", "unknown key"]),
    (lambda s: s.replace('{ target = "3*sword", damage = 4 }', '{ target = "5*sword", damage = 4 }'),
     ["abilities[0].tiers", "from the weakest up"]),
])
def test_malformed_hero_files(capsys, tmp_path, edit, needles):
    d = copy_heroes(tmp_path)
    f = d / "mountain_warrior.toml"
    f.write_text(edit(f.read_text()))
    code, _, err = run_cli(capsys, "duel", "heroes", "--heroes", str(d))
    assert_one_line_error(code, err, "mountain_warrior.toml", *needles)


def test_a_new_hero_is_just_a_file(capsys, tmp_path):
    d = copy_heroes(tmp_path)
    (d / "stone_golem.toml").write_text('''
name = "Stone Golem"
order = 5
faces = ["1:rock", "2:rock", "3:rock", "4:rock", "5:moss", "6:moss"]
[[abilities]]
name = "Boulder"
tiers = [{ target = "3*rock", damage = 3 }, { target = "5*rock", damage = 9 }]
[[abilities]]
name = "Regrow"
target = "2*moss | large-straight"
heal = 3
[defence]
dice = 2
symbols = { rock = { shield = 1 } }
''')
    code, out, _ = run_cli(capsys, "duel", "matchups", "-n", "200", "--heroes", str(d), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["heroes"][-1] == "Stone Golem" and len(d["win_rate"]) == 5


def test_console_script_errors_without_traceback():
    """The real process (what the ``playtest`` console script runs: ``scripts.cli:main``),
    started from the project root; never skipped."""
    root = Path(__file__).resolve().parents[1]
    p = subprocess.run([sys.executable, "-m", "scripts.cli", "duel", "play", "--hero", "x", "--vs", "y",
                        "-n", "5"], capture_output=True, text=True, timeout=120, cwd=root)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_report_duel_small(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "report", "duel", "--out", str(tmp_path), "-n", "300",
                           "--compare", "random", "--compare-games", "200", "--strategy", "greedy")
    assert code == 0 and "report:" in out
    html = (tmp_path / "report.html").read_text()
    assert "Balance by skill level" in html and "Summary" in html
    for png in ("matchup_heatmap", "skill_levels", "hero_win_rates", "first_player", "game_lengths"):
        assert (tmp_path / f"{png}.png").stat().st_size > 1000
    import pandas as pd

    sk = pd.read_csv(tmp_path / "skill_levels.csv")
    assert set(sk.strategy) == {"greedy", "random"} and len(sk) == 8
    assert ((sk.ci_low <= sk.win_rate) & (sk.win_rate <= sk.ci_high)).all()


def test_tune_sweeps_an_ability_effect(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "duel", "tune", "--hero", "light", "--ability", "Holy Attack",
                           "--effect", "damage", "--values", "7,20", "-n", "1500", "--strategy", "optimal",
                           "--json", "--out", str(tmp_path))
    d = json.loads(out)
    assert code == 0 and d["values"] == [7, 20] and len(d["rows"]) == 8
    lg = {r["value"]: r for r in d["rows"] if r["hero"] == "Light Guardian"}
    # a much stronger Holy Attack must raise the Light Guardian's win rate beyond noise
    assert lg[20]["ci_low"] > lg[7]["ci_high"]
    # value 7 is the printed hero: the same as the plain tournament on the same seeds
    from analysis.duel import hero_table
    from simcore.duel.model import load_setup
    from strategies.duel.bind import run_matchups

    base = hero_table(run_matchups(load_setup(), "optimal", 1500, 1)).set_index("hero")
    assert lg[7]["win_rate"] == pytest.approx(base.win_rate["Light Guardian"])
    assert (tmp_path / "tune_sweep.csv").exists()


def test_tune_rule_option_and_errors(capsys):
    code, out, _ = run_cli(capsys, "duel", "tune", "--option", "roll_cost", "--values", "1,4", "-n", "300",
                           "--strategy", "greedy")
    assert code == 0 and "smallest spread" in out
    code, _, err = run_cli(capsys, "duel", "tune", "--option", "start_hp", "--values", "40", "-n", "10")
    assert_one_line_error(code, err, "hp_cap", "must be >= start_hp (40)")
    code, _, err = run_cli(capsys, "duel", "tune", "--hero", "light", "--ability", "Holy",
                           "--effect", "damage", "--values", "3", "-n", "10")
    assert_one_line_error(code, err, "--ability", "no ability 'Holy'")
    code, _, err = run_cli(capsys, "duel", "tune", "--hero", "light", "--ability", "Prayer",
                           "--effect", "speed", "--values", "3", "-n", "10")
    assert_one_line_error(code, err, "--effect", "unknown effect 'speed'")
    code, _, err = run_cli(capsys, "duel", "tune", "--hero", "light", "--ability", "Prayer",
                           "--effect", "heal", "--values", "-3", "-n", "10")
    assert_one_line_error(code, err, "--values", "0..1000")


def test_matchups_take_the_run_options_and_resume_to_the_same_matrix(capsys, tmp_path):
    """`duel matchups` plays on the shared chunked path: stored (--store), with its chunk
    size and --jobs not changing the matrix, and --resume replaying nothing of a finished run."""
    store = str(tmp_path / "store")
    args = ["duel", "matchups", "-n", "90", "--seed", "5", "--json", "--store", store]
    code, out, err = run_cli(capsys, *args, "--chunk-size", "40")
    assert code == 0, err
    d = json.loads(out)
    assert d["run_id"] and d["played_chunks"] == 16 * 3
    code, out, err = run_cli(capsys, *args, "--chunk-size", "40", "--resume")
    d2 = json.loads(out)
    assert d2["played_chunks"] == 0 and d2["resumed_chunks"] == 16 * 3
    code, out, err = run_cli(capsys, "duel", "matchups", "-n", "90", "--seed", "5", "--json", "--no-store")
    d3 = json.loads(out)
    assert "run_id" not in d3
    for k in ("win_rate", "win_rate_ci", "games_matrix", "first_player_win_rate", "hero_win_rate", "timeouts",
              "matchups", "metrics", "ratings"):
        assert d[k] == d2[k] == d3[k], k


def test_play_takes_the_shared_options(capsys, tmp_path):
    """Issue 32: ``duel play`` lacked --ci-width, --max-games and --out that every other
    playing verb takes, and read its hero files from --heroes where ``duel run`` read
    --content: now one name (--heroes stays a hidden alias), the same options."""
    d = copy_heroes(tmp_path)
    out = tmp_path / "out"
    code, txt, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "200",
                             "--ci-width", "0.2", "--max-games", "400", "--content", str(d), "--out", str(out),
                             "--json", "--no-store")
    assert code == 0, err
    doc = json.loads(txt)
    assert doc["reached_ci_width"] is True and doc["games"] >= 400
    assert (out / "matchups.csv").exists() and json.loads((out / "run.json").read_text())["game"] == "duel"
    code, _, err = run_cli(capsys, "duel", "play", "--hero", "shadow", "--vs", "fire", "-n", "10",
                           "--content", str(d), "--heroes", str(d))
    assert_one_line_error(code, err, "--heroes")


def test_matchups_takes_ci_width(capsys):
    code, out, err = run_cli(capsys, "duel", "matchups", "-n", "100", "--ci-width", "0.3", "--strategy", "random",
                             "--json", "--no-store")
    assert code == 0, err
    d = json.loads(out)
    assert all(m["reached_ci_width"] for m in d["matchups"])
