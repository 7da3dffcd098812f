"""Time from a changed number to the redrawn heatmap in ``playtest serve``, measured in a
real browser (Playwright on the system Chromium):

    python -m scripts.bench_serve --games 20000 --strategy greedy [--edits 3]

Starts the server on a free loopback port, runs the four-hero duel tournament once (the
baseline), then changes Light Guardian's Holy Attack damage ``--edits`` times (8, 9, ...)
and prints, for each, the milliseconds from the input's change event to the end of the
heatmap's redraw (the page's own ``performance.now()``), and the server's play time.
"""
from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOLY = "hero.light_guardian.3.0.damage"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "scripts.cli", "serve", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "api/games", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=a.chromium, args=["--no-sandbox"])
            pg = b.new_page(viewport={"width": 1400, "height": 1000})
            pg.goto(url)
            pg.wait_for_selector("#editables details")
            for s in pg.query_selector_all("input[name=strategy]"):
                s.set_checked(s.get_attribute("value") == a.strategy)
            pg.fill("#games", str(a.games))
            pg.click("#run")
            pg.wait_for_function("document.body.dataset.runs == '1'", timeout=600_000)
            first = int(pg.evaluate("document.body.dataset.lastRunMs"))
            print(f"baseline run: {first} ms ({a.strategy}, {a.games:,} games per seating, 16 matchups)")
            pg.fill("#filter", "holy attack")
            out = []
            for i in range(a.edits):
                # set the value and fire the change event in one step, timed by the page itself
                pg.evaluate("""([key, v]) => { const el = document.getElementById('edit-' + key); el.value = v;
                    window.__t0 = performance.now(); el.dispatchEvent(new Event('change')); }""", [HOLY, str(8 + i)])
                pg.wait_for_function(f"document.body.dataset.runs == '{i + 2}'", timeout=600_000)
                ms = pg.evaluate("performance.now() - window.__t0")
                v = pg.evaluate("S.view")
                out.append({"edit": f"Holy Attack damage {8 + i}", "ms_to_redrawn_heatmap": round(ms),
                            "server_seconds": v["seconds"], "games_played": v["played_games"]})
                print(json.dumps(out[-1]))
            b.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
