"""The playground's server side without a browser (Flask's test client and the service):
concurrent runs from two tabs neither mix nor crash, a long run is cancelled, the
comparison is paired on the same seeds, the exported files load back as a data set,
and requests from elsewhere are refused."""
from __future__ import annotations

import io
import threading
import time
import zipfile

import numpy as np
import pytest

from playground.app import create_app
from playground.service import Service
from playground.views import paired

HOLY = "hero.light_guardian.3.0.damage"


def wait(client, job_id, timeout=120):
    t0 = time.time()
    while time.time() - t0 < timeout:
        st = client.get(f"/api/run/{job_id}").json
        if st["state"] not in ("queued", "running"):
            return st
        time.sleep(0.05)
    raise AssertionError("the run did not finish")


@pytest.fixture
def client(tmp_path):
    app = create_app(Service(tmp_path))
    c = app.test_client()
    c.data_dir = tmp_path
    return c


def run(client, **kw):
    body = {"game": "duel", "strategies": ["greedy"], "games": 150, "seed": 1, **kw}
    r = client.post("/api/run", json=body)
    assert r.status_code == 202, r.json
    return r.json["id"]


def test_two_tabs_at_once_neither_mix_nor_crash(client):
    ids = {}

    def tab(name, seed, edits):
        ids[name] = run(client, seed=seed, edits=edits)

    threads = [threading.Thread(target=tab, args=("a", 5, {})), threading.Thread(target=tab, args=("b", 6, {HOLY: 20}))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a, b = wait(client, ids["a"]), wait(client, ids["b"])
    assert a["state"] == b["state"] == "done", (a.get("error"), b.get("error"))
    # each alone, afresh (a new server: nothing cached) gives the same numbers
    solo = create_app(Service()).test_client()
    a2 = wait(solo, run(solo, seed=5))
    b2 = wait(solo, run(solo, seed=6, edits={HOLY: 20}))
    assert a["result"]["grid"] == a2["result"]["grid"]
    assert b["result"]["grid"] == b2["result"]["grid"]
    assert b["result"]["compare"]["grid"] == b2["result"]["compare"]["grid"]
    assert a["result"]["grid"] != b["result"]["grid"]


def test_a_long_run_is_cancelled(client):
    job = run(client, games=100_000)
    time.sleep(0.3)
    assert client.post(f"/api/run/{job}/cancel", json={}).json == {"ok": True}
    st = wait(client, job, timeout=60)
    assert st["state"] == "cancelled"
    assert st["done"] < 16 * 100_000
    # the server goes on
    assert wait(client, run(client))["state"] == "done"


def test_paired_change_is_zero_for_the_same_games_and_exact_otherwise():
    base = np.array([1.0, 0.0, 0.5, 1.0, np.nan])
    same = paired(base.copy(), base)
    assert same["delta"] == 0 and not same["beyond"] and same["changed_games"] == 0 and same["n"] == 4
    new = np.array([1.0, 1.0, 0.5, 1.0, 0.0])
    d = paired(new, base)
    assert d["delta"] == pytest.approx(0.25) and d["n"] == 4 and d["changed_games"] == 1
    assert d["ci"][0] < 0.25 < d["ci"][1]


def test_export_loads_back_as_a_data_set_and_reproduces_the_edited_run(client):
    edited = wait(client, run(client, edits={HOLY: 20, "rules.start_hp": 28}))["result"]
    r = client.post("/api/export", json={"game": "duel", "strategies": ["greedy"], "games": 150, "seed": 1,
                                         "edits": {HOLY: 20, "rules.start_hp": 28}})
    assert r.status_code == 200 and "--rules rules.toml --content heroes" in r.headers["X-Command"]
    zipfile.ZipFile(io.BytesIO(r.data)).extractall(client.data_dir / "mine")
    info = client.get("/api/game/duel?dataset=mine").json
    assert "mine" in info["datasets"]
    holy = next(i for g in info["editables"] for i in g["items"] if i["key"] == HOLY)
    assert holy["value"] == 20
    again = wait(client, run(client, dataset="mine"))["result"]
    assert again["grid"] == edited["grid"]


def test_requests_from_elsewhere_and_bad_bodies_are_refused(client):
    assert client.get("/api/games", headers={"Host": "evil.example:8765"}).status_code == 403
    assert client.post("/api/run", data="games=1", content_type="application/x-www-form-urlencoded").status_code == 415
    assert client.post("/api/run", data="[1]", content_type="application/json").status_code == 400
    assert client.get("/api/game/nope").json["errors"]["game"].startswith("unknown game")
    assert client.get("/api/run/nothere").status_code == 404


def test_every_registered_game_is_listed_with_its_numbers(client):
    from simcore.game import game_names

    games = [g["name"] for g in client.get("/api/games").json["games"]]
    assert games == game_names()
    for g in games:
        info = client.get(f"/api/game/{g}").json
        assert info["strategies"] and info["editables"], g
        for item in (i for grp in info["editables"] for i in grp["items"]):
            if item["kind"] in ("int", "float"):
                assert item["lo"] <= item["value"] <= item["hi"], (g, item)


def test_odds_and_replay(client):
    odds = client.post("/api/odds", json={"game": "duel", "entrant": "light_guardian", "extra": 0}).json
    holy = next(r for r in odds["rows"] if r["label"] == "Holy Attack")
    assert holy["target"] == "large-straight" and odds["columns"] == ["1", "2", "3"]
    adv = client.post("/api/advise", json={"game": "duel", "entrant": "light_guardian", "roll": "1,2,3,4,6",
                                           "rolls_left": 1, "target": "Holy Attack"}).json
    assert adv["keep_positions"] == [1, 2, 3, 4] and adv["fraction"] == "1/6"
    bad = client.post("/api/advise", json={"game": "duel", "entrant": "light_guardian", "roll": "1,2,9,4,6",
                                           "rolls_left": 1, "target": "Holy Attack"})
    assert bad.status_code == 400 and "no face" in bad.json["errors"]["roll"]
    rp = client.post("/api/replay", json={"game": "regicide", "players": 2, "strategies": ["heuristic", "heuristic"],
                                          "seed": 1, "index": 0}).json
    assert rp["steps"] and rp["steps"][-1].startswith("result:")


def test_one_lineup_with_a_strategy_per_seat_is_the_cli_run(client, capsys):
    import json

    from scripts.cli import main

    res = wait(client, run(client, mode="lineup", seat_strategies=["optimal", "greedy"],
                           seat_entrants=["light_guardian", "fire_kindler"], games=300, seed=4))
    v = res["result"]
    assert v["command"] == ("playtest duel run --strategy optimal,greedy -n 300 --seed 4 "
                            "--hero light_guardian --vs fire_kindler")
    assert v["rows"] == ["Light Guardian (optimal)", "Fire Kindler (greedy)"]
    with pytest.raises(SystemExit) as e:
        main(v["command"].split()[1:] + ["--json"])
        raise SystemExit(0)
    assert not e.value.code
    doc = json.loads(capsys.readouterr().out)
    assert [m["win_rate"] for m in doc["matchups"]] == [m["win_rate"] for m in v["doc"]["matchups"]]
    bad = client.post("/api/run", json={"game": "duel", "mode": "lineup", "seat_strategies": ["greedy"],
                                        "seat_entrants": ["light_guardian", "x"], "games": 10})
    assert bad.status_code == 400 and "one built-in strategy per seat" in bad.json["errors"]["seat_strategies"]


def twins_dataset(root):
    """A data set of two identical duel heroes, except that b's Sword Strike tier 1 does 8
    instead of 4."""
    from simcore.duel.model import HEROES_DIR

    d = root / "twins" / "heroes"
    d.mkdir(parents=True)
    src = (HEROES_DIR / "mountain_warrior.toml").read_text()
    (d / "a.toml").write_text(src)
    strong = src.replace('{ target = "3*sword", damage = 4 }', '{ target = "3*sword", damage = 8 }')
    (d / "b.toml").write_text(strong.replace('name = "Mountain Warrior"', 'name = "Strong Warrior"'))


def test_the_fix_search_runs_in_the_background_and_its_proposal_loads_as_edits(client):
    twins_dataset(client.data_dir)
    assert client.get("/api/game/duel?dataset=twins").json["has_fix"] is True
    body = {"game": "duel", "dataset": "twins", "strategies": ["greedy"], "games": 300, "seed": 3,
            "band": "45,55", "fix_games": 30000}
    r = client.post("/api/fix", json=body)
    assert r.status_code == 202, r.json
    st = wait(client, r.json["id"], timeout=600)
    assert st["state"] == "done" and st["kind"] == "fix", st.get("error")
    fx = st["result"]
    assert 0 < st["done"] <= 30000 and fx["games"] <= 30000 + 5 * 300 * 2  # the budget bounds the work
    assert fx["proven"] is False and "playtest duel fix" in fx["note"]
    assert fx["baseline_miss_points"] > 0 and fx["meets_band_on_screening"], fx
    assert fx["edits"] and all(k.startswith("hero.") for k in fx["edits"])
    lo, hi = fx["best"][0]["win_rate_ci"]
    assert 0.45 <= fx["best"][0]["win_rate"] <= 0.55 and lo < fx["best"][0]["win_rate"] < hi
    # the proposal, loaded as the page's edits, replays the same seeds: a vs b moves into the band
    v = wait(client, run(client, dataset="twins", games=300, seed=3, edits=fx["edits"]))["result"]
    ab = next(m for m in v["doc"]["matchups"] if [x["entrant"] for x in m["seats"]] == ["a", "b"])
    ba = next(m for m in v["doc"]["matchups"] if [x["entrant"] for x in m["seats"]] == ["b", "a"])
    pooled = (ab["win_rate"] + 1 - ba["win_rate"]) / 2
    base = v["compare"]
    assert 0.40 <= pooled <= 0.60 and base is not None


def test_the_fix_search_is_cancelled_and_checks_its_fields(client):
    bad = client.post("/api/fix", json={"game": "duel", "band": "55,45", "fix_games": -3})
    assert bad.status_code == 400
    assert "LOW < HIGH" in bad.json["errors"]["band"] and "between" in bad.json["errors"]["fix_games"]
    r = client.post("/api/fix", json={"game": "duel", "strategies": ["greedy"], "games": 200, "fix_games": 2000000})
    assert r.status_code == 202, r.json
    time.sleep(1.0)
    assert client.post(f"/api/run/{r.json['id']}/cancel", json={}).status_code == 200
    st = wait(client, r.json["id"], timeout=300)
    assert st["state"] == "cancelled" and st["done"] < 2000000
    assert st["result"]["cancelled"] is True and "stopped on request" in st["result"]["stopped_by"]


def test_a_hero_edit_replays_only_that_heros_games_and_matches_a_full_replay(client, monkeypatch):
    """The shortcut (``GameAPI.edit_scope``) must give exactly what replaying every
    matchup gives, for every built-in strategy."""
    body = dict(strategies=["random", "greedy", "optimal"], games=40, seed=9, edits={HOLY: 15})
    short = wait(client, run(client, **body))["result"]
    assert short["played_games"] == 40 * 9 * 16 + 40 * 9 * 7  # the baseline, then the 7 pairs with Light Guardian
    from simcore.game import get_game

    monkeypatch.setattr(type(get_game("duel")), "edit_scope", lambda self, edits: None)
    full_client = create_app(Service()).test_client()
    full = wait(full_client, run(full_client, **body))["result"]
    assert full["played_games"] == 2 * 40 * 9 * 16
    assert short["grid"] == full["grid"] and short["compare"] == full["compare"]


def test_the_lead_metrics_of_traced_games_reach_the_metrics(client):
    """Every run of the page is traced: lead changes, decided-at and drama (simcore/leads.py)
    come with intervals, for a hero game and a role game, and agree with a traced CLI run."""
    from analysis.runs import run as run_plan
    from simcore.game import get_game

    v = wait(client, run(client, games=100, seed=4))["result"]
    m = v["doc"]["metrics"]
    for k in ("lead_change", "decisiveness", "drama"):
        assert m[k]["x"] is not None and m[k]["x_ci"][0] <= m[k]["x"] <= m[k]["x_ci"][1], (k, m[k])
    assert 0 <= m["decisiveness"]["x"] <= 1 and m["lead_change"]["x"] >= 0
    # the same games traced by the shared runner give the same means
    api = get_game("duel")
    rules = api.load_rules()
    content = api.load_content(rules)
    plan = [(tuple(lu), tuple(st)) for lu, st in v["doc"].get("plan", [])] or None
    if plan is None:
        from analysis.runs import lineups_for

        plan = lineups_for("duel", len(content), 2, ["greedy"], True)
    res = run_plan("duel", api.make_setup(rules, content, 2), api.entrant_names(content), plan, 100, 4, rules,
                   rules, trace=True)
    assert res.metrics()["lead_change"]["x"] == pytest.approx(m["lead_change"]["x"], abs=1e-12)
    r = client.post("/api/run", json={"game": "river", "games": 60, "seed": 2})
    assert r.status_code == 202, r.json
    rv = wait(client, r.json["id"], timeout=600)
    assert rv["state"] == "done", rv.get("error")
    assert rv["result"]["doc"]["metrics"]["lead_change"]["x"] is not None


def test_advise_for_a_game_without_dice_and_a_deeply_nested_body_are_4xx_with_one_line(client):
    """Both were HTTP 500 (a TypeError on the missing dice, a RecursionError in the JSON
    parser): a request the server cannot serve is the client's error, with its reason."""
    r = client.post("/api/advise", json={"game": "river"})
    assert r.status_code == 400, r.json
    assert r.json["errors"] == {"odds_entrant": "this game has no dice"}
    for depth in (100_000, 40):
        body = '{"game": ' + '[' * depth + ']' * depth + '}'
        r = client.post("/api/run", data=body, content_type="application/json")
        assert 400 <= r.status_code < 500, (depth, r.status_code, r.json)
        (msg,) = r.json["errors"].values()
        assert "nested" in msg and "\n" not in msg, msg


def test_serve_on_a_busy_port_fails_in_one_line_before_its_banner(capsys):
    import socket

    from playground.app import serve
    from simcore.errors import PlaytestError

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(PlaytestError) as e:
            serve("127.0.0.1", port, quiet=True)
    assert "--port" in str(e.value) and "in use" in str(e.value)
    out = capsys.readouterr()
    assert out.out == "" and out.err == "", out
