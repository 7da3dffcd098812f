"""The numba kernel against the pure-Python reference engine: identical records and final
state vectors game for game, for 2 to 6 players, every built-in strategy, mixed seats
and rule options; records independent of how the games are cut into ranges."""
import numpy as np
import pytest

from simcore.arcade import model as M
from strategies.arcade import BUILTIN
from strategies.arcade.bind import play_range

# random play makes rounds of hundreds (sometimes thousands) of turns at 4-6 players (a
# whole game ~10^4 turns, ~0.5 s in the reference engine): fewer random games
RANDOM_RULES = None
# every built-in but search, whose twin runs are in tests/test_arcade_search.py (slow games)
GAMES = {"greedy": {2: 120, 3: 60, 4: 40, 5: 30, 6: 25}, "defensive": {2: 120, 3: 60, 4: 40, 5: 30, 6: 25},
         "random": {2: 80, 3: 20, 4: 8, 5: 5, 6: 4}}


def assert_same(a, b):
    assert set(a) == set(b)
    for k in a:
        assert np.array_equal(a[k], b[k]), (k, np.nonzero(a[k] != b[k])[0][:5])


def both(start, stop, seed, players, strategies, rules=None):
    k = play_range(start, stop, seed, players, strategies, rules=rules, keep_states=True)
    r = play_range(start, stop, seed, players, strategies, rules=rules, engine="reference", keep_states=True)
    assert_same(k, r)
    return k


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("strategy", sorted(GAMES))
def test_kernel_matches_reference(players, strategy):
    assert set(GAMES) | {"search"} == set(BUILTIN)
    n = GAMES[strategy][players]
    k = both(0, n, 100 + players, players, strategy)
    assert (k["players"] == players).all() and (k["first"] == 0).all()
    assert len(np.unique(k["turns"])) > n // 4
    # caps are rare (a round can live-lock when nearly every card is in a hand)
    done = k["capped"] == 0
    assert done.mean() >= 0.9
    # a finished game: one winner, every other seat eliminated in order, one loss per round
    for i in np.nonzero(done)[0]:
        order = sorted(k[f"elim_order_{p}"][i] for p in range(players))
        assert order == list(range(players)) and k[f"elim_order_{k['winner'][i]}"][i] == 0
        assert sum(k[f"losses_{p}"][i] for p in range(players)) == k["rounds"][i]
    assert ((k["loser_r1"] >= 0) | (k["rounds"] == 1)).all()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_mixed_seats_match(players):
    seats = [("greedy", "defensive", "random")[p % 3] for p in range(players)]
    both(0, 10, 7, players, seats, RANDOM_RULES)


@pytest.mark.parametrize("overrides", [
    {"draw_optional": False, "draw_after_penalty": False, "start_card_effect": True},
    {"starter_leads_freely": False, "start_card_effect": True},
    {"hand_on_anything": True, "hand_answers_hand": True, "named_suit_persists": False},
    {"skull_draw_when_reviving": True, "skull_draw_without_revive": False, "special_other_lords": True},
    {"skip_per_card": 2, "start_card_effect": True}, {"skip_per_card": 0, "draw_per_card": 2, "revive_draw": 2},
    {"special_vii": False, "special_ace": False, "special_hand": False, "draw_per_card": 2, "revive_draw": 1},
    {"penalty_per_loss": 2, "hand_size": 4, "elimination_hand": 2, "first_starter": 1},
    {"max_rounds": 4},
])
def test_kernel_matches_reference_under_rule_options(overrides):
    rules = M.load_rules(overrides=overrides)
    for players in (3, 5):
        k = both(0, 20, 5, players, ["greedy", "defensive"] * 2 + ["greedy"], rules) if players == 5 else \
            both(0, 20, 5, players, "greedy", rules)
    if "max_rounds" in overrides:
        assert k["capped"].all() and (k["cap_kind"] == M.CAP_ROUNDS).all()


def test_the_skull_fires_and_records_agree():
    k = both(0, 100, 3, 4, "greedy")
    assert k["revives"].sum() > 0 and k["draw_cards"].sum() > 0 and k["skip_cards"].sum() > 0


def test_records_do_not_depend_on_the_range_cut():
    a = play_range(0, 300, 9, 4, "greedy")
    b = [play_range(s, min(s + 70, 300), 9, 4, "greedy") for s in range(0, 300, 70)]
    for f in a:
        assert np.array_equal(a[f], np.concatenate([x[f] for x in b])), f
    c = play_range(0, 300, 10, 4, "greedy")
    assert not np.array_equal(a["turns"], c["turns"])


def test_strategies_never_get_the_game_stream():
    """The stream handed to a strategy is its own (the game's key would replay the deal)."""
    from simcore.arcade.reference import play_game
    from simcore.rng import stream_key

    seen = []

    def spy(phase, obs, moves, n, rules, data, rng):
        seen.append(int(rng[0]))
        assert (obs[M.O_DRAW:M.O_DRAW + obs[M.O_DRAW_N]] == M.NONE).all()
        assert all(obs[M.O_HAND + q] == 0 for q in range(4) if q != obs[M.O_CUR])
        return 0

    rules, deck = M.load_rules(overrides={"max_turns_per_round": 50}), M.load_deck()
    g = play_game(4, rules, deck, 5, 3, [spy] * 4, np.zeros((4, 1)))
    assert seen and set(seen) == {stream_key(5, 3, M.STRATEGY_DOMAIN)}
    assert int(g.rng[0]) == stream_key(5, 3, M.DOMAIN) != seen[0]


def test_trace_adds_lead_statistics_without_changing_the_games():
    a = play_range(0, 40, 2, 4, "greedy")
    b = play_range(0, 40, 2, 4, "greedy", trace=True)
    for f in a:
        assert np.array_equal(a[f], b[f]), f
    assert b["leads"].shape == (40, 3) and np.isfinite(b["leads"]).all()
    assert (b["lead_changes"] >= 0).all() and ((b["decided_at"] >= 0) & (b["decided_at"] <= 1)).all()
