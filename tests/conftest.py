"""Test-wide settings: runs are saved in a throw-away results store, never in the user's."""
import os
import tempfile

import pytest

# no compile notices or progress lines on stderr (analysis.runs.notices_on): the one-line
# error checks read stderr whole, and a cold cache would add a notice before the error;
# tests/test_compile_notice.py turns them on where it checks them
os.environ["PLAYTEST_NOTICES"] = "0"


@pytest.fixture(autouse=True, scope="session")
def _throwaway_store():
    with tempfile.TemporaryDirectory(prefix="playtest-store-") as d:
        old = os.environ.get("PLAYTEST_STORE")
        os.environ["PLAYTEST_STORE"] = d
        yield d
        if old is None:
            os.environ.pop("PLAYTEST_STORE", None)
        else:
            os.environ["PLAYTEST_STORE"] = old


# --- running the suite on every core (pytest-xdist, ``--dist loadgroup`` in pyproject.toml)
#
# Most of the suite's time is numba compiling each game's kernels (cached on disk, so a
# kernel compiles once per clean checkout, in whichever test first plays it). Tests are
# grouped by game, so that one worker compiles a game's kernels while another compiles a
# different game's, instead of both compiling the same kernels at once. The game groups
# go first, heaviest first (the river's kernels were the largest compile: 390 s of the
# clean-clone run at d0ca65a, Dice Throne's 140 s; the river's play_range compile fell from
# 340 to 108 CPU-seconds at 0a83717); the files that play every game come after them and
# find the kernels in the cache.
GAMES = ("river", "dicethrone", "duel", "arcade", "regicide")
# the other files that exercise one game only (the user-error tests mostly compile duel
# plug-ins, whose cached entries the duel group compiles anyway)
ALSO = {"test_mixed_seats": "duel", "test_odds": "duel", "test_odds_cli": "duel", "test_user_errors": "duel",
        # its traced-run test plays the river through the server: beside the river group it
        # compiled the river's kernels a second time (227 s in the clean-clone run)
        "test_serve_api": "river"}
# files that test several games: each case joins its game's group (by its ``name``
# parameter, or a test named ``test_<game>_...``), so that no two workers compile the same
# game's kernels at once (numba's disk cache has no lock: both would compile them in full).
# test_cluster's game cases too, though each group then starts a local cluster of its own
# (seconds): kept together, its river case ran beside the river group and its two worker
# processes compiled the river's kernels again (406 s in the clean-clone run at d0ca65a).
# test_docs runs the documentation's examples: each joins the group of the game it plays.
BY_GAME = ("test_game_interface", "test_store", "test_aggregate", "test_fix", "test_cluster", "test_docs", "test_plugin_errors")
ORDER = ("river", "dicethrone", "duel", "arcade", "regicide", "cluster", "aggregate", "user_errors",
         "game_interface", "store", "fix", "serve_api", "serve_browser")


# single tests that compile another game's kernel than the rest of their file: with their
# file's group the other game's kernel was compiled on that group's worker, where the
# other game's own group, on the other worker, could compile it at the same time
# (test_illegal_regicide_answer_is_an_error compiled Regicide's plug-in entry in the duel
# group: 146 s of the duel worker in a profile on a loaded machine)
TEST_GROUP = {"test_illegal_regicide_answer_is_an_error": "regicide",
              # plays the river: in its file's own group it compiled the river's kernels a
              # second time beside the river group (78 s of the clean-clone run at 823bbca)
              "test_role_game_play_and_matchups": "river"}


def group_of(basename: str, params: dict | None = None, test: str = "") -> str:
    """The xdist group of a test: its game, or its file's own name."""
    stem = basename[:-3] if basename.endswith(".py") else basename
    if test in TEST_GROUP:
        return TEST_GROUP[test]
    if stem in BY_GAME:
        if (params or {}).get("name") in GAMES:
            return params["name"]
        for g in GAMES:
            if test.startswith(f"test_{g}_"):
                return g
    if stem in ALSO:
        return ALSO[stem]
    for g in GAMES:
        if stem.startswith(f"test_{g}_"):
            return g
    return stem[5:] if stem.startswith("test_") else stem


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    rank = {g: i for i, g in enumerate(ORDER)}

    def group(it):
        return group_of(it.path.name, getattr(getattr(it, "callspec", None), "params", None),
                        getattr(it, "originalname", ""))

    for item in items:
        item.add_marker(pytest.mark.xdist_group(group(item)))
    # heaviest groups first; within a group the collection order is kept
    items.sort(key=lambda it: rank.get(group(it), len(ORDER)))
