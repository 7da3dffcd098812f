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
    assert d["capped"] == 0 and d["stalled"] == 0  # reported in every run (issue 12)
    code, out2, _ = run_cli(["regicide", "run", "--players", "3", "--strategy", "heuristic", "--games", "300",
                             "--seed", "4", "--json", "--jobs", "2"], capsys)
    d2 = json.loads(out2)
    volatile = {"seconds", "compile_seconds", "run_id", "played_chunks", "resumed_chunks"}  # of this run, not its games
    assert {k: v for k, v in d2.items() if k not in volatile} == {k: v for k, v in d.items() if k not in volatile}


def test_run_text_reports_capped_and_stalled_games(capsys):
    code, out, _ = run_cli(["regicide", "run", "--players", "1", "--strategy", "heuristic", "--games", "300",
                            "--seed", "1"], capsys)
    assert code == 0
    line = next(ln for ln in out.splitlines() if "turn cap" in ln)
    assert "ended by the turn cap 0 (0.00%" in line and "stalled" in line
    assert "(median)" in out


def test_run_text_when_every_game_is_capped_says_n_a_not_nan(capsys):
    """With no finished game there is no win rate and no mean: the text says n/a (it printed
    'nan'), and still counts the capped games."""
    code, out, err = run_cli(["regicide", "run", "-n", "20", "--set", "max_turns=3", "--no-store"], capsys)
    assert code == 0, err
    assert "nan" not in out.lower()
    assert "win rate        n/a  (n=0 finished games; 20 capped apart)" in out
    assert "enemies defeated n/a" in out and "turns n/a (mean)" in out


def test_run_cheat_is_labelled_and_tables_written(tmp_path, capsys):
    code, out, _ = run_cli(["regicide", "run", "--strategy", "cheat", "--games", "2", "--param", "2",
                            "--json", "--out", str(tmp_path)], capsys)
    d = json.loads(out)
    # one name everywhere (issue 33): the strategy by its name, the ceiling's mark in its label
    assert d["perfect_information"] is True and d["strategy"] == "cheat" and "CHEAT" in d["strategy_label"]
    assert d["strategies"] == ["cheat"]
    wr = pd.read_parquet(tmp_path / "win_rates.parquet")
    assert "CHEAT" in wr["strategy"].iloc[0]
    meta = json.loads((tmp_path / "run.json").read_text())
    assert meta["seed"] == 1 and meta["games"] == 2 and meta["rules"]["solo_yield_allowed"] is True


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
    code, out, err = run_cli(["report", "regicide", "--out", str(tmp_path), "-n", "200",
                              "--search-games", "4", "--param", "1"], capsys)
    assert code == 0, err
    html = (tmp_path / "report.html").read_text()
    assert "data:image/png;base64" in html and "CHEAT" in html
    for name in ("win_rates.png", "progress.png", "lengths.png",
                 "progress.parquet", "run.json"):
        assert (tmp_path / name).exists()
    # flat memory: no per-game table beside the report (records: --records, in the store)
    assert not (tmp_path / "games.csv").exists()
    pr = pd.read_csv(tmp_path / "progress.csv")
    solo_random = pr[(pr.players == 1) & (pr.strategy == "random")]
    assert solo_random["alive_rate"].is_monotonic_decreasing and solo_random["alive_rate"].iloc[0] == 1.0


def test_run_plays_on_the_flat_path_with_the_run_options(tmp_path, capsys):
    """`regicide run` reduces chunks to aggregates (the shared path): same summary as the
    records of `run_games`, stored as a run, per-game records only with --records."""
    from analysis.regicide import summary
    from strategies.regicide.bind import run_games

    store = tmp_path / "store"
    code, out, err = run_cli(["regicide", "run", "--players", "2", "--games", "120", "--seed", "9", "--json",
                              "--store", str(store), "--records"], capsys)
    assert code == 0, err
    d = json.loads(out)
    want = summary(run_games(2, "heuristic", 120, seed=9))
    assert {k: d[k] for k in want} == want
    assert d["run_id"] and d["played_chunks"] >= 1
    recs = pd.concat(pd.read_parquet(f) for f in (store / "runs" / d["run_id"] / "records").rglob("*.parquet"))
    assert sorted(recs["game_index"]) == list(range(120)) and recs["win"].sum() == want["wins"]
    code, out, err = run_cli(["regicide", "run", "--players", "2", "--games", "120", "--seed", "9", "--json",
                              "--store", str(store), "--resume"], capsys)
    d2 = json.loads(out)
    assert d2["played_chunks"] == 0 and d2["resumed_chunks"] == d["played_chunks"]
    assert {k: d2[k] for k in want} == want


def test_run_prints_rates_with_interval_and_n_and_lists_strategies_as_runs_show(tmp_path, capsys):
    """Issue 33: ``regicide run`` printed '0.0265 (95% CI 0.0200-0.0350, n=2000' unlike every
    other verb, and its JSON listed the strategies per seat with their labels while ``runs
    show --json`` listed their names: now a rate reads as everywhere ('2.7% [2.0, 3.5]'), and
    both JSON documents list the same names."""
    store = str(tmp_path / "store")
    code, out, err = run_cli(["regicide", "run", "-p", "2", "--strategy", "heuristic", "--vs-strategy", "random",
                              "-n", "200", "--store", store], capsys)
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("win rate"))
    assert "%" in line and "[" in line and "n=200 finished games" in line, line
    code, out, err = run_cli(["regicide", "run", "-p", "2", "--strategy", "heuristic", "--vs-strategy", "random",
                              "-n", "200", "--store", store, "--json"], capsys)
    own = json.loads(out)
    assert own["strategies"] == ["heuristic", "random"] and own["strategy"] == "heuristic,random"
    code, out, err = run_cli(["runs", "show", own["run_id"], "--store", store, "--json"], capsys)
    assert code == 0, err
    shown = json.loads(out)
    assert shown["strategies"] == own["strategies"]
    assert shown["matchups"][0]["seats"] == own["matchups"][0]["seats"]


def test_run_takes_ci_width(capsys):
    code, out, err = run_cli(["regicide", "run", "-n", "100", "--ci-width", "0.2", "--json", "--no-store"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["matchups"][0]["reached_ci_width"] is True and d["games"] >= 100
