"""One set of verbs, with the same options everywhere: what every game's sub-command has,
written once here and held by ``tests/test_verbs_conformance.py`` (parametrised over the
game registry) against the Typer app that ``scripts/cli.py`` builds.

- Every game has :data:`VERBS` (``report`` is ``playtest report GAME``); a game with
  entrants (heroes or roles) also has :data:`ENTRANT_VERBS`.
- Every verb that plays games takes :data:`PLAY_OPTIONS` (the same names, the same
  meaning), except the pairs of :data:`NOT_TAKEN`, each with its reason (the same for every
  game: a verb never takes an option in one game and refuses it in another).
- The strategy options: :data:`STRATEGY_OPTIONS`, per verb.
- Options a game does not have are not offered, so they are refused in one line (click's
  "No such option", ``scripts/cli.py``) instead of silently ignored: ``--hero``/``--vs``
  only in games with heroes (:data:`HERO_OPTIONS`), ``--content`` only in games with
  content files (``GameAPI.content_folder``), ``--players`` only in games whose seat count
  varies.
- A verb that makes no sense for a game is not faked: :func:`missing_reason` says why.
"""
from __future__ import annotations

VERBS = ("rules", "strategies", "run", "tournament", "replay", "tune", "fix", "report")
ENTRANT_VERBS = ("play", "matchups")

# the verbs that play games, and the options every one of them takes
PLAYING = ("run", "play", "matchups", "tournament", "tune", "fix", "report")
PLAY_OPTIONS = ("--games", "-n", "--seed", "--jobs", "-j", "--ci-width", "--max-games", "--backend", "--scheduler",
                "--store", "--no-store", "--records", "--resume", "--json", "--out", "-o", "--rules", "--set",
                "--param")

_SEQUENTIAL = ("a balance search chooses each candidate from the ones before it: it cannot be resumed or "
               "spread over a cluster yet; it keeps its own run, candidates and proof in the store")
NOT_TAKEN = {
    ("tune", "--ci-width"): "every value is played on the same seeds and the same number of games (common "
                            "random numbers): a per-value stopping rule would pair different games",
    ("tune", "--max-games"): "as --ci-width",
    ("report", "--ci-width"): "a report plays its game's fixed plan at -n, so every section and figure reads "
                              "the same games",
    ("report", "--max-games"): "as --ci-width",
    ("report", "--json"): "a report writes report.html and its tables under --out, with the result document "
                          "as run.json there",
    ("fix", "-n"): "the search's game counts are --screen-games, --refine-games and --budget",
    ("fix", "--games"): "as -n",
    ("fix", "--ci-width"): "the search refines candidates to --refine-width and proves at --proof-width",
    ("fix", "--max-games"): "as --ci-width",
    ("fix", "--backend"): _SEQUENTIAL,
    ("fix", "--scheduler"): _SEQUENTIAL,
    ("fix", "--records"): _SEQUENTIAL,
    ("fix", "--resume"): _SEQUENTIAL,
}

# the strategy options of each verb: one lineup (a strategy per seat, the second seat's
# with --vs-strategy), one strategy for every entrant, or a list every seat plays
STRATEGY_OPTIONS = {
    "run": ("--strategy", "-s", "--vs-strategy"),
    "play": ("--strategy", "-s", "--vs-strategy"),
    "matchups": ("--strategy", "-s"),
    "replay": ("--strategy", "-s"),
    "tournament": ("--strategies",),
    "tune": ("--strategies",),
    "report": ("--strategies",),
    "fix": ("--strategy", "-s"),
}

HERO_OPTIONS = {"run": ("--hero", "--vs"), "play": ("--hero", "--vs"), "replay": ("--hero", "--vs")}

# verbs that read the game's data files (--rules, --set), and those that play with its
# content (--content: a folder of the content files, where the game has them)
DATA_VERBS = ("rules", "run", "play", "matchups", "tournament", "replay", "tune", "fix", "report")
CONTENT_VERBS = ("run", "play", "matchups", "tournament", "replay", "tune", "fix", "report")


# options whose help (their meaning) is the same in every verb of every game
SAME_EVERYWHERE = ("--seed", "--jobs", "--backend", "--scheduler", "--store", "--no-store", "--records", "--resume",
                   "--rules", "--set", "--param", "--content")

# verbs with --players where the game's seat count varies (none where it does not)
SEATED = ("run", "tournament", "replay", "tune", "fix", "report")


def expected_verbs(game_type) -> tuple:
    """The verbs this game offers: every one of :data:`VERBS` and :data:`ENTRANT_VERBS`
    but those :func:`missing_reason` explains."""
    return tuple(v for v in VERBS + ENTRANT_VERBS if missing_reason(game_type, v) is None)


def missing_reason(game_type, verb: str) -> str | None:
    """Why ``verb`` is not offered for this game (None: it is)."""
    if verb == "fix" and game_type.entrants == "seats":
        return ("fix balances entrants (heroes or roles) against each other; the seats of this game are "
                "identical, so there is nothing to balance (the first player's edge: tune)")
    if verb in ENTRANT_VERBS and game_type.entrants == "seats":
        return f"{verb} pits entrants (heroes or roles) against each other; this game has identical seats"
    return None
