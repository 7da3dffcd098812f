"""``playtest serve`` driven in a real browser (Playwright + the system Chromium): run a
duel tournament, change Light Guardian's Holy Attack damage, see its row move the way a
direct CLI run says, export the TOML and play it with the CLI; bad values show a message
next to their field and the server stays up.

The server is the real command (``python -m scripts.cli serve``) on a free loopback port,
started once for this module and stopped at the end.
"""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent


def find_chromium() -> str:
    """The system Chromium (browsers cannot be downloaded from their vendors here): found on
    the PATH, else installed from Debian's packages when this is a root shell with apt-get
    (so the README's one test command needs nothing installed by hand); never a skip."""
    import shutil

    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run("apt-get update -qq && apt-get install -y -qq chromium", shell=True, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
        path = shutil.which("chromium")
        if path:
            return path
    pytest.fail("the browser tests need Chromium: install the Debian package 'chromium' (apt-get install chromium)")
GAMES, SEED, STRATEGY = 400, 3, "optimal"
HOLY = "hero.light_guardian.3.0.damage"


def twins_dataset(root):
    """A data set of two identical duel heroes, except that b's Sword Strike tier 1 does 8
    instead of 4 (a known fix for the fix search)."""
    from simcore.duel.model import HEROES_DIR

    d = root / "twins" / "heroes"
    d.mkdir(parents=True)
    src = (HEROES_DIR / "mountain_warrior.toml").read_text()
    (d / "a.toml").write_text(src)
    strong = src.replace('{ target = "3*sword", damage = 4 }', '{ target = "3*sword", damage = 8 }')
    (d / "b.toml").write_text(strong.replace('name = "Mountain Warrior"', 'name = "Strong Warrior"'))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    data = tmp_path_factory.mktemp("datasets")
    twins_dataset(data)
    proc = subprocess.Popen([sys.executable, "-m", "scripts.cli", "serve", "--port", str(port), "--data", str(data)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(url + "api/games", timeout=2).read()
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                pytest.fail(f"the server did not start: {proc.stdout.read()}")
            time.sleep(0.2)
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector("#editables details")
    yield pg
    pg.close()
    assert not errors, errors


def wait_runs(pg, n: int) -> None:
    pg.wait_for_function(f"Number(document.body.dataset.runs || 0) >= {n}", timeout=120_000)


def err_text(pg, key: str) -> str:
    return pg.inner_text(f'.err[data-err="{key}"]')


def alive(server) -> bool:
    return json.loads(urllib.request.urlopen(server + "api/games", timeout=5).read())["games"][0]["name"] == "duel"


def cli_light_guardian(*extra, cwd=ROOT) -> float:
    out = subprocess.run([sys.executable, "-m", "scripts.cli", "duel", "tournament", "--strategies", STRATEGY,
                          "-n", str(GAMES), "--seed", str(SEED), "--json", *extra],
                         cwd=cwd, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    return next(e["win_rate"] for e in doc["entrants"] if e["entrant"] == "light_guardian")


def test_tournament_edit_compare_export(page, server, tmp_path):
    pg = page
    for s in pg.query_selector_all("input[name=strategy]"):
        s.set_checked(s.get_attribute("value") == STRATEGY)
    pg.fill("#games", str(GAMES))
    pg.fill("#seed", str(SEED))
    pg.click("#run")
    wait_runs(pg, 1)
    assert "done" in pg.inner_text("#progress-text")
    assert pg.query_selector("#heat .main-svg") is not None  # the Plotly heatmap was drawn
    base = pg.evaluate("S.view")
    assert base["rows"] == ["Mountain Warrior", "Shadow Walker", "Fire Kindler", "Light Guardian"]
    lg_base = next(e for e in base["entrant_rates"] if e["label"] == "Light Guardian")
    assert base["compare"] is None
    # the lead metrics of the traced games, in the metrics panel with their intervals
    for k in ("lead_change", "decisiveness", "drama"):
        m = base["doc"]["metrics"][k]
        assert m["x"] is not None and m["x_ci"][0] <= m["x"] <= m["x_ci"][1], (k, m)
        assert pg.inner_text(f'#metrics tr[data-metric="{k}"] td:nth-child(2)') not in ("n/a", "")
    assert "lead changes per game" in pg.inner_text("#metrics")

    pg.fill("#filter", "holy attack")
    box = pg.locator(f'[id="edit-{HOLY}"]')
    assert box.input_value() == "7"
    box.fill("25")
    box.dispatch_event("change")
    wait_runs(pg, 2)
    view = pg.evaluate("S.view")
    assert view["edits"] == {HOLY: 25}
    lg = next(e for e in view["entrant_rates"] if e["label"] == "Light Guardian")
    i = view["rows"].index("Light Guardian")
    change = view["compare"]["entrants"][i]
    assert change["base"]["x"] == pytest.approx(lg_base["x"])  # the same seeds: the baseline is the first run
    assert change["delta"] == pytest.approx(lg["x"] - lg_base["x"], abs=1e-12)
    assert pg.query_selector("#delta .main-svg") is not None and not pg.is_hidden("#delta")
    assert "Light Guardian" in pg.inner_text("#stack")

    # the same tournament from the command line, unedited and with the exported files
    with pg.expect_download() as dl:
        pg.click("#export")
    z = zipfile.ZipFile(io.BytesIO(Path(dl.value.path()).read_bytes()))
    z.extractall(tmp_path)
    assert "damage = 25" in (tmp_path / "heroes" / "light_guardian.toml").read_text()
    command = (tmp_path / "command.txt").read_text().split()
    assert command[:3] == ["playtest", "duel", "tournament"] and "--content" in command
    cli_base = cli_light_guardian()
    cli_edit = cli_light_guardian("--content", "heroes", cwd=tmp_path)
    assert cli_base == pytest.approx(lg_base["x"], abs=1e-12)
    assert cli_edit == pytest.approx(lg["x"], abs=1e-12)
    assert cli_edit > cli_base and change["delta"] > 0 and change["beyond"]

    # undo restores the baseline (from the cache: no game played)
    pg.click("#undo")
    wait_runs(pg, 3)
    assert pg.evaluate("S.view.compare") is None
    assert pg.evaluate("S.view.played_games") == 0
    assert box.input_value() == "7"


def test_bad_values_show_a_message_and_the_server_stays_up(page, server):
    pg = page
    for value, needle in (("abc", "whole number"), ("-5", "between 1"), ("5000000", "between 1")):
        pg.fill("#games", value)
        pg.click("#run")
        pg.wait_for_function("document.querySelector('.err[data-err=games]').textContent.length > 0")
        assert needle in err_text(pg, "games"), err_text(pg, "games")
    pg.fill("#games", "200000")  # within one matchup's cap, over the run's cap of 2,000,000
    pg.click("#run")
    pg.wait_for_function("document.querySelector('.err[data-err=games]').textContent.includes('cap')")
    pg.fill("#games", "100")
    pg.fill("#seed", "x1")
    pg.click("#run")
    pg.wait_for_function("document.querySelector('.err[data-err=seed]').textContent.length > 0")
    assert "whole number" in err_text(pg, "seed")
    assert "bad" in pg.get_attribute("#seed", "class")
    pg.fill("#seed", "1")

    # an edited number out of bounds or negative: a message beside it, nothing run
    pg.fill("#filter", "holy attack")
    box = pg.locator(f'[id="edit-{HOLY}"]')
    for value, needle in (("-3", "between 0 and 1000"), ("5000", "between 0 and 1000"), ("2.5", "whole number")):
        box.fill(value)
        box.dispatch_event("change")
        assert needle in err_text(pg, HOLY), err_text(pg, HOLY)
    assert pg.inner_text("#stack") == "no edits"

    # the server's own checks, bypassing the page's: text, negative, out of bounds, a module path
    for body, field, needle in (
            ({"edits": {HOLY: "ten"}}, HOLY, "whole number"),
            ({"edits": {"rules.start_hp": -1}}, "rules.start_hp", "between 1"),
            ({"edits": {"rules.hp_cap": 5}}, "rules.hp_cap", "start_hp"),
            ({"strategies": ["strategies.duel:greedy"]}, "strategies", "unknown strategy"),
            ({"dataset": "../../etc"}, "dataset", "no data set")):
        res = pg.evaluate("""async (b) => { const r = await fetch('/api/run', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(b)});
            return [r.status, await r.json()]; }""", {"game": "duel", "games": 100, "seed": 1, **body})
        assert res[0] == 400 and needle in res[1]["errors"][field], res
    assert alive(server)

    # a long run is cancelled from the page
    pg.fill("#games", "100000")
    pg.click("#run")
    pg.wait_for_function("document.querySelector('#progress-text').textContent.includes('games')")
    pg.click("#cancel")
    pg.wait_for_function("document.querySelector('#progress-text').textContent === 'cancelled'", timeout=60_000)

    # and a good run still goes through
    pg.fill("#games", "100")
    pg.click("#run")
    wait_runs(pg, 1)
    assert "done" in pg.inner_text("#progress-text")


def test_fix_search_from_the_page_loads_its_proposal_as_edits(page, server):
    """The fix button: a tiny budget on the twins data set, in the background with progress;
    its proposal loads as the edit stack and the replay on the same seeds brings a vs b
    into the band; a long search is cancelled from the page."""
    pg = page
    pg.select_option("#dataset", "twins")
    pg.wait_for_function("S.info && S.info.dataset === 'twins' && S.info.entrants.length === 2")
    assert not pg.is_disabled("#fix")
    for s in pg.query_selector_all("input[name=strategy]"):
        s.set_checked(s.get_attribute("value") == "greedy")
    pg.fill("#games", "300")
    pg.fill("#seed", "3")
    pg.fill("#band", "45,55")
    pg.fill("#fix-games", "30000")
    pg.click("#fix")
    pg.wait_for_selector("#fix-result", timeout=300_000)
    assert "fix search done" in pg.inner_text("#progress-text")
    fx = pg.evaluate("S.fix")
    assert fx["meets_band_on_screening"] and fx["games"] <= 33000, fx
    assert "Strong Warrior" in pg.inner_text("#fix-changes") or "Mountain Warrior" in pg.inner_text("#fix-changes")
    pg.click("#fix-load")
    wait_runs(pg, 1)
    view = pg.evaluate("S.view")
    assert view["edits"] == fx["edits"]
    ab = next(m for m in view["doc"]["matchups"] if [x["entrant"] for x in m["seats"]] == ["a", "b"])
    ba = next(m for m in view["doc"]["matchups"] if [x["entrant"] for x in m["seats"]] == ["b", "a"])
    assert 0.40 <= (ab["win_rate"] + 1 - ba["win_rate"]) / 2 <= 0.60
    assert pg.inner_text("#stack") != "no edits"

    # a long search is cancelled from the page, and says what it had found. It starts from
    # the original numbers: from the proposal's, already in the band, the search ends after
    # its baseline, and a cancel that came later found it done (the test failed about half
    # of its runs, waiting for "cancelled")
    pg.click("#reset")
    assert pg.inner_text("#stack") == "no edits"
    pg.fill("#fix-games", "2000000")
    pg.click("#fix")
    pg.wait_for_function("document.querySelector('#progress-text').textContent.includes('fix search:')",
                         timeout=120_000)
    pg.click("#cancel")
    pg.wait_for_function("document.querySelector('#progress-text').textContent.includes('fix search cancelled')",
                         timeout=120_000)
    assert alive(server)
