"""A compile is said, and a long run shows its progress, in a terminal and in a pipe
(issue 33, item 2): the "compiling" notice needed a wholly empty cache, so Dice Throne's
first compile (minutes) printed nothing once any other game was cached, and a pipe never
saw it (it was shown only with a progress bar)."""
import io
import pytest

from analysis import runs


@pytest.fixture
def notices(monkeypatch):
    monkeypatch.setenv("PLAYTEST_NOTICES", "1")
    monkeypatch.setattr(runs, "NOTICE_AFTER", 0.01)


@pytest.mark.parametrize("game", ["duel", "dicethrone", "river", "arcade", "regicide"])
def test_a_slow_warm_up_says_what_is_compiled_and_for_how_long(game, notices, capsys):
    # a compile: still going when the notice is due, whatever the cache holds
    runs.warm_up(lambda said: said.wait(60), game, what="greedy", wants_event=True)
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"playtest: compiling the {game} kernels for greedy") and "min" in line, line
    assert runs.COMPILE_TIME[game] in line


def test_a_quick_warm_up_says_nothing(notices, monkeypatch, capsys):
    monkeypatch.setattr(runs, "NOTICE_AFTER", 60.0)
    runs.warm_up(lambda: None, "duel")
    assert capsys.readouterr().err == ""


def test_a_pipe_gets_a_progress_line_with_games_rate_and_time_left():
    out = io.StringIO()
    p = runs.RunProgress(1_000_000, "duel (optimal)", every=0.0, out=out)
    p.t0 -= 10.0                       # ten seconds into the run
    p.update(250_000)
    line = out.getvalue().strip()
    assert line.startswith("playtest: duel (optimal): 250,000 of 1,000,000 games played (25%), ")
    assert "games/s" in line and "left" in line, line
