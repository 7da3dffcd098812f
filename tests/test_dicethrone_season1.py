"""Season One's constructs (simcore/dicethrone/season1/VOCABULARY.md, the plan of section 12),
one fixture hero per construct written into ``tmp_path`` and played against the Paladin
through BOTH engines with forced dice (``dicethrone_helpers.play_both``). Each test fails on
the code before its step: the fixture does not load there, or the state differs."""
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import PAL, play_both, position, seat  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402

# a fixture hero: one symbol per face pair, one defence that does nothing much
HEAD = '''
name = "Fixture"
faces = ["1:a", "2:a", "3:b", "4:b", "5:c", "6:d"]
dice = 5
'''
DEFENCE = '''
[[defences]]
id = "guard"
name = "Guard"
dice = 1
tiers = [ { level = 1, effects = [ { prevent = 0 } ] } ]
'''
A, B, C, D = 0, 2, 4, 5          # a face index showing each symbol


def fixture(tmp_path, body, cards=None, name="fixture"):
    """Content of the fixture hero (``body``: its abilities and tokens) and the Paladin;
    ``cards``: text appended to the generic cards file. Returns (content, tables)."""
    d = tmp_path / "heroes"
    d.mkdir(exist_ok=True)
    shutil.copy(M.HEROES_DIR / "paladin.toml", d / "paladin.toml")
    (d / f"{name}.toml").write_text(HEAD + body + DEFENCE)
    kw = {}
    if cards is not None:
        cf = tmp_path / "cards.toml"
        cf.write_text(M.CARDS_FILE.read_text() + cards)
        kw["cards_file"] = cf
    content = M.load_content(heroes=(name, PAL), heroes_dir=d, **kw)
    return content, M.build_tables(content, heroes=(name, PAL))


def fixture_position(content, levels=None, toks=({}, {}), **kw):
    """A position of the fixture hero (seat 0) against the Paladin; ``levels``: {ability
    index: level} of the fixture hero; ``toks``: {token id: count} per seat (the fixture
    content's token ids)."""
    S = position(heroes=tuple(content.heroes), content=content, **kw)
    for a, lv in (levels or {}).items():
        S[M.seat_base(0) + M.P_LVL + a] = lv
    for p in range(2):
        for t, n in toks[p].items():
            S[M.seat_base(p) + M.P_TOK + content.token_ids[t]] = n
    return S


# ------------------------------------------------------------------ step 1: limits
NINE_TIERS = '''
[[abilities]]
id = "smack"
name = "Smack"
tiers = [
''' + "".join(f'  {{ level = {lv}, target = "{n}*a", effects = [ {{ damage = {10 * lv + n}, kind = "pure" }} ] }},\n'
              for lv in (1, 2, 3) for n in (3, 4, 5)) + ''']
'''


def test_nine_tiers_load_and_the_ninth_activates(tmp_path):
    """Smack, Longbow, Fist Strike and Splinter have 9 tiers over levels I-III (step 1:
    MAX_TIERS 8 -> 10); the 9th (level III, 5 of a kind) activates in both engines."""
    content, tables = fixture(tmp_path, NINE_TIERS)
    assert len(content.heroes["fixture"].abilities[0].tiers) == 9
    S0 = fixture_position(content, levels={0: 3}, adice=(A, A, A, A, A), attempts=3)
    g, S, seen = play_both(S0, script=[M.MV_ABILITY + 8], content=content, tables=tables)
    assert seen[0][0] == M.PH_ABILITY and seen[0][2] == [M.MV_ABILITY + t for t in (6, 7, 8)]
    assert seat(S, 1, M.P_HP) == 50 - 35

