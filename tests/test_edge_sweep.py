"""scripts/edge_sweep.py sorts each setting into refused (a one-line PlaytestError), ok, or
a defect (any other exception, or still running at the time limit)."""
import signal
import time

from scripts.edge_sweep import _alarm, _check, _leaves
from simcore.errors import PlaytestError


def test_check_sorts_refused_ok_and_defects(capsys):
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        def refuse():
            raise PlaytestError("must be <= 16", "rules.toml", "income_cards")

        def crash():
            raise MemoryError("Unable to allocate 26.7 GiB")

        def hang():
            t = time.monotonic()
            while time.monotonic() - t < 30:   # a Python loop: the alarm stops it after 1 s
                pass

        assert _check("a", refuse, 5) is True
        assert _check("b", lambda: None, 5) is True
        assert _check("c", crash, 5) is False
        t = time.monotonic()
        assert _check("d", hang, 1) is False
        assert time.monotonic() - t < 20
    finally:
        signal.signal(signal.SIGALRM, old)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "a  refused: rules.toml: income_cards: must be <= 16"
    assert lines[1].startswith("b  ok (")
    assert lines[2] == "c  DEFECT MemoryError: Unable to allocate 26.7 GiB"
    assert lines[3] == "d  DEFECT TimeoutError: still running at the time limit"


def test_leaves_are_the_whole_numbers_only():
    doc = {"a": 1, "b": [2, {"c": 3, "d": "x", "e": True}], "f": 1.5}
    assert list(_leaves(doc)) == [("a",), ("b", 0), ("b", 1, "c")]
