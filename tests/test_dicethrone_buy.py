"""A card's ``buy`` effect (issue 29 item 15, second half): Turning Up the Heat as the sources
print it, "gain 1 Fire Mastery, then spend any CP for 1 Fire Mastery each". The amount is the
player's decision (``PH_BUY``), bounded by its CP and the token's stack limit, and played
identically by both engines; the data is validated; every strategy decides it."""
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import DATA, TOK, play_both, position, seat, tok  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402
from strategies.dicethrone.basic import greedy_decide  # noqa: E402
from strategies.dicethrone.optimal import optimal_decide  # noqa: E402

HEAT = ("turning_up_the_heat", "fan_the_flames")   # the second card keeps a main-phase decision open
RULES = M.rules_vector(M.load_rules())
RNG = np.zeros(2, np.uint64)


def heat(cp, fm=0):
    return position(step=M.ST_MAIN1, hands=(HEAT, ()), cp=(cp, 0), tokens=({"fire_mastery": fm}, {}))


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_buys_the_chosen_amount_in_both_engines(k):
    """3 CP, no Fire Mastery: +1, then 0..3 bought at 1 CP each (3 CP pays for 3; room 4)."""
    g, S, seen = play_both(heat(3), script=[M.MV_PLAY + 0, M.MV_BUY + k if k else M.MV_PASS])
    assert seen[1] == (M.PH_BUY, 0, [M.MV_PASS, M.MV_BUY + 1, M.MV_BUY + 2, M.MV_BUY + 3])
    assert tok(S, 0, "fire_mastery") == 1 + k and seat(S, 0, M.P_CP) == 3 - k
    assert S[M.O_PHASE] == M.PH_MAIN and S[M.O_STEP] == M.ST_MAIN1 and S[M.O_PEND_OP] == 0   # back in the main phase
    assert seat(S, 0, M.P_HAND_N) == 1


def test_the_stack_limit_caps_the_amount():
    """10 CP and 2 Fire Mastery (limit 5): after the +1, room for 2 only."""
    g, S, seen = play_both(heat(10, fm=2), script=[M.MV_PLAY + 0, M.MV_BUY + 2])
    assert seen[1] == (M.PH_BUY, 0, [M.MV_PASS, M.MV_BUY + 1, M.MV_BUY + 2])
    assert tok(S, 0, "fire_mastery") == 5 and seat(S, 0, M.P_CP) == 8


@pytest.mark.parametrize("cp,fm", [(0, 0), (4, 5), (6, 4)])
def test_no_decision_without_cp_or_room(cp, fm):
    """No CP, or no room under the limit (full before, or full after the +1): the card gives
    what it gives and play goes on in the main phase, no buy decision offered."""
    g, S, seen = play_both(heat(cp, fm), script=[M.MV_PLAY + 0])
    assert S[M.O_PHASE] == M.PH_MAIN and all(ph != M.PH_BUY for ph, _, _ in seen)
    assert tok(S, 0, "fire_mastery") == min(fm + 1, 5) and seat(S, 0, M.P_CP) == cp


def heroes_with(tmp_path, old, new):
    d = tmp_path / "heroes"
    d.mkdir(exist_ok=True)
    for f in M.HEROES_DIR.glob("*.toml"):
        shutil.copy(f, d / f.name)
    text = (d / "pyromancer.toml").read_text()
    assert old in text
    (d / "pyromancer.toml").write_text(text.replace(old, new, 1))
    return d


BUY = '{ buy = "fire_mastery", cost = 1 }'


@pytest.mark.parametrize("new,field,reason", [
    ('{ buy = "fire_mastery" }', "effects[1]", "buy needs cost"),
    ('{ buy = "fire_mastery", cost = 0 }', "effects[1].cost", "must be >= 1"),
    ('{ buy = "fire_masterz", cost = 1 }', "effects[1].buy", "unknown token 'fire_masterz'"),
    ('{ buy = "fire_mastery", cost = 1, n = 2 }', "effects[1]", "buy takes cost only"),
    ('{ buy = "fire_mastery", cost = 1, target = "opponent" }', "effects[1].target", "for itself"),
    (BUY + ', { cp = 1 }', "effects", "at most one die effect (or buy), as its last effect"),
])
def test_buy_errors_are_one_line(tmp_path, new, field, reason):
    d = heroes_with(tmp_path, BUY, new)
    with pytest.raises(PlaytestError) as e:
        M.load_content(("pyromancer", "paladin"), heroes_dir=d)
    msg = str(e.value)
    assert "\n" not in msg and f": cards[3].{field}: " in msg and reason in msg, msg


def test_cost_belongs_to_buy_and_buy_to_cards(tmp_path):
    d = heroes_with(tmp_path, '{ gain = "fire_mastery", n = 1 }, { damage = 4 } ]',
                    '{ gain = "fire_mastery", n = 1 }, { damage = 4 }, ' + BUY + ' ]')
    with pytest.raises(PlaytestError, match="abilities\\[0\\].tiers\\[0\\].effects: buy belongs to cards"):
        M.load_content(("pyromancer", "paladin"), heroes_dir=d)
    d = heroes_with(tmp_path, '{ gain = "fire_mastery", n = 1 }, { damage = 4 } ]',
                    '{ gain = "fire_mastery", n = 1, cost = 2 }, { damage = 4 } ]')
    with pytest.raises(PlaytestError, match="unknown key 'cost'"):
        M.load_content(("pyromancer", "paladin"), heroes_dir=d)
    d = heroes_with(tmp_path, 'upkeep = [ { remove = "fire_mastery", n = 1 } ]',
                    'upkeep = [ { remove = "fire_mastery", n = 1 }, ' + BUY + ' ]')
    with pytest.raises(PlaytestError, match="tokens\\[0\\].upkeep: buy belongs to cards"):
        M.load_content(("pyromancer", "paladin"), heroes_dir=d)


def buy_position(cost, n):
    """The Pyromancer deciding a buy of Fire Mastery at ``cost`` CP each, ``n`` moves."""
    S = heat(9)
    S[M.O_STEP], S[M.O_PHASE], S[M.O_CUR] = M.ST_DIE, M.PH_BUY, 0
    S[M.O_PEND_OP], S[M.O_PEND_ARG], S[M.O_PEND_N] = M.OP_BUY, TOK["fire_mastery"], cost
    moves = np.zeros(M.MAX_MOVES, np.int64)
    moves[:n] = [M.MV_PASS] + [M.MV_BUY + i for i in range(1, n)]
    return S, moves


def test_strategies_decide_the_amount():
    """greedy buys the most; optimal buys the most while Fire Mastery's weight (0.8) beats
    the CP it costs (0.6 a CP), and none at 2 CP each (1.2)."""
    for cost, greedy_k, optimal_k in ((1, 3, 3), (2, 3, 0)):
        S, moves = buy_position(cost, 4)
        assert greedy_decide(M.PH_BUY, S, moves, 4, RULES, DATA, RNG) == greedy_k
        assert optimal_decide(M.PH_BUY, S, moves, 4, RULES, DATA, RNG) == optimal_k

