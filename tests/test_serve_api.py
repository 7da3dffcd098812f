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


def test_the_fix_hook_says_it_is_not_built(client):
    if Service.fix_available():  # the fix search has landed: the page offers it
        assert client.get("/api/game/duel").json["has_fix"] is True
        return
    r = client.post("/api/fix", json={"game": "duel"})
    assert r.status_code == 400 and "not wired yet" in r.json["errors"]["fix"]
    assert client.get("/api/game/duel").json["has_fix"] is False


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
