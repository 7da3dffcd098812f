"""The ``playtest regicide`` commands and the report: JSON output, one-line errors, files."""
import json

import pandas as pd
import pytest

from scripts.cli import main


def run_cli(args, capsys):
    code = 0
    try:
        main(args)
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def test_run_json(capsys):
    code, out, err = run_cli(["regicide", "run", "--players", "3", "--strategy", "heuristic", "--games", "300",
                              "--seed", "4", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["games"] == 300 and 0 <= d["win_rate_ci"][0] <= d["win_rate"] <= d["win_rate_ci"][1] <= 1
    assert d["players"] == 3 and 0 < d["mean_enemies_defeated"] <= 12
    code, out2, _ = run_cli(["regicide", "run", "--players", "3", "--strategy", "heuristic", "--games", "300",
                             "--seed", "4", "--json", "--jobs", "2"], capsys)
    d2 = json.loads(out2)
    assert {k: v for k, v in d2.items() if k != "seconds"} == {k: v for k, v in d.items() if k != "seconds"}


def test_run_cheat_is_labelled_and_tables_written(tmp_path, capsys):
    code, out, _ = run_cli(["regicide", "run", "--strategy", "cheat", "--games", "2", "--param", "2",
                            "--json", "--out", str(tmp_path)], capsys)
    d = json.loads(out)
    assert d["perfect_information"] is True and "CHEAT" in d["strategy"]
    wr = pd.read_parquet(tmp_path / "regicide_win_rates.parquet")
    assert "CHEAT" in wr["strategy"].iloc[0]
    meta = json.loads((tmp_path / "regicide_run.json").read_text())
    assert meta["seed"] == 0 and meta["games"] == 2 and meta["rules"]["solo_yield_allowed"] is True


@pytest.mark.parametrize("args,needle", [
    (["--players", "0"], "--players"),
    (["--games", "-3"], "--games"),
    (["--strategy", "nope"], "unknown strategy"),
    (["--set", "hand_size_2=12"], "hand_size_2"),
    (["--set", "colour=red"], "unknown rule option"),
    (["--rules", "/no/such/file.toml"], "file not found"),
    (["--jobs", "0"], "--jobs"),
    (["--strategy", "search", "--param", "abc"], "--param"),
])
def test_bad_options_are_one_line_errors(args, needle, capsys):
    code, out, err = run_cli(["regicide", "run", "--games", "5", *args], capsys)
    assert code == 2
    assert err.startswith("playtest: error:") and needle in err and err.count("\n") == 1


def test_rules_and_strategies_commands(capsys):
    code, out, _ = run_cli(["regicide", "rules", "--json", "--set", "solo_yield_allowed=false"], capsys)
    assert json.loads(out)["solo_yield_allowed"] is False
    code, out, _ = run_cli(["regicide", "strategies"], capsys)
    assert "search" in out and "CHEAT" in out


def test_report_small(tmp_path, capsys):
    code, out, err = run_cli(["report", "regicide", "--out", str(tmp_path), "--games", "200",
                              "--search-games", "4", "--budget", "1"], capsys)
    assert code == 0, err
    html = (tmp_path / "regicide_report.html").read_text()
    assert "data:image/png;base64" in html and "CHEAT" in html
    for name in ("regicide_win_rates.png", "regicide_progress.png", "regicide_lengths.png",
                 "regicide_progress.parquet", "regicide_records_games.csv", "regicide_run.json"):
        assert (tmp_path / name).exists()
    pr = pd.read_csv(tmp_path / "regicide_progress.csv")
    solo_random = pr[(pr.players == 1) & (pr.strategy == "random")]
    assert solo_random["alive_rate"].is_monotonic_decreasing and solo_random["alive_rate"].iloc[0] == 1.0
