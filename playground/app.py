"""``playtest serve``: the balance playground, a local web app on Flask 3.

Why Flask: it is maintained (Pallets), already installed with the project's tools, small,
synchronous (our work is CPU-bound numba code run in background threads, so an async
framework would buy nothing), and its JSON routes and test client are all this needs.
It runs on Werkzeug's threaded server, which is fine for one designer on one machine;
the page and Plotly's JavaScript are served from this package and the installed
``plotly`` package (no CDN: the page works offline).

Safe by default: it listens on 127.0.0.1 (this machine only) unless ``--host`` says
otherwise, answers only requests addressed to that host name (a web page elsewhere
cannot reach it through DNS rebinding), takes only JSON (so another site's form cannot
post to it), accepts only built-in strategy names and data sets inside the data folder
chosen on the command line, and caps the games of one request.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, abort, jsonify, request, send_file

from simcore.errors import PlaytestError

from .service import FieldErrors, Service

HERE = Path(__file__).resolve().parent
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1", "[::1]"}
MAX_DEPTH = 32          # levels of JSON nesting a request may have (the page sends 3 at most)
TOO_DEEP = object()


def json_depth(value) -> int:
    """Levels of nesting of a parsed JSON value (iteratively: a deep body must not
    exhaust the stack of the code that checks it)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def plotly_js() -> Path:
    import plotly

    p = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    if not p.is_file():  # pragma: no cover - a broken plotly install
        raise PlaytestError("plotly's bundled plotly.min.js is missing: reinstall plotly", field="plotly")
    return p


def create_app(service: Service | None = None, host: str = "127.0.0.1") -> Flask:
    app = Flask(__name__, static_folder=str(HERE / "static"), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    svc = service or Service()
    app.config["SERVICE"] = svc
    loopback = host in LOOPBACK_NAMES

    def bad(errors: dict, code: int = 400):
        return jsonify({"errors": errors}), code

    @app.before_request
    def guard():
        if loopback:
            name = (request.host or "").rsplit(":", 1)[0] if not (request.host or "").startswith("[") else \
                request.host.split("]")[0] + "]"
            if name not in LOOPBACK_NAMES:
                return bad({"form": f"this server answers only to 127.0.0.1/localhost, not {name!r}"}, 403)
        if request.method == "POST" and not request.is_json:
            return bad({"form": "send JSON (Content-Type: application/json)"}, 415)

    def payload() -> dict:
        try:
            data = request.get_json(silent=True)
        except RecursionError:   # Python's JSON parser gives up past ~1,000 levels
            data = TOO_DEEP
        if data is TOO_DEEP or (isinstance(data, dict) and json_depth(data) > MAX_DEPTH):
            raise FieldErrors({"form": f"the JSON body is nested more than {MAX_DEPTH} levels deep"})
        if not isinstance(data, dict):
            raise FieldErrors({"form": "the body is not a JSON object"})
        return data

    @app.errorhandler(FieldErrors)
    def on_fields(e):
        return bad(e.errors)

    @app.errorhandler(PlaytestError)
    def on_playtest(e):
        return bad({e.field or "form": e.reason if e.field else e.one_line()})

    @app.errorhandler(413)
    def on_big(e):
        return bad({"form": "request too large"}, 413)

    @app.errorhandler(404)
    def on_404(e):
        return bad({"form": "not found"}, 404)

    @app.errorhandler(Exception)
    def on_error(e):
        from werkzeug.exceptions import HTTPException

        if isinstance(e, HTTPException):
            return bad({"form": e.description}, e.code)
        import traceback

        traceback.print_exc()
        return bad({"form": f"internal error ({type(e).__name__}: {e}); the server is still running"}, 500)

    @app.get("/")
    def index():
        return send_file(HERE / "static" / "index.html", max_age=0)

    @app.get("/favicon.ico")
    def favicon():
        return Response(status=204)

    @app.get("/vendor/plotly.min.js")
    def plotly_bundle():
        return send_file(plotly_js(), mimetype="text/javascript", max_age=3600)

    @app.get("/api/games")
    def games():
        return jsonify({"games": svc.games(), "datasets": svc.datasets(), "host": host,
                        "max_games": svc.max_games})

    @app.get("/api/game/<name>")
    def game(name):
        return jsonify(svc.game_info(name, request.args.get("dataset", "")))

    @app.post("/api/run")
    def run():
        job = svc.start(payload())
        return jsonify({"id": job.id}), 202

    @app.get("/api/run/<job_id>")
    def status(job_id):
        st = svc.status(job_id)
        if st is None:
            abort(404)
        return jsonify(st)

    @app.post("/api/run/<job_id>/cancel")
    def cancel(job_id):
        if not svc.cancel(job_id):
            abort(404)
        return jsonify({"ok": True})

    @app.post("/api/validate")
    def validate():
        p = svc.prepare(payload())
        return jsonify({"ok": True, "games": p.total_games, "matchups": len(p.plan)})

    @app.post("/api/export")
    def export():
        data, cmd = svc.export(payload())
        name = f"playtest-{request.get_json()['game']}-edited.zip"
        return Response(data, mimetype="application/zip",
                        headers={"Content-Disposition": f"attachment; filename={name}", "X-Command": cmd})

    @app.post("/api/fix")
    def fix():
        job = svc.start_fix(payload())
        return jsonify({"id": job.id}), 202

    @app.post("/api/replay")
    def replay():
        return jsonify(svc.replay(payload()))

    @app.post("/api/odds")
    def odds():
        return jsonify(svc.dice_odds(payload()))

    @app.post("/api/advise")
    def advise():
        return jsonify(svc.advise(payload()))

    return app


def serve(host: str = "127.0.0.1", port: int = 8765, data_dir=None, max_games: int | None = None,
          quiet: bool = False) -> None:
    """Start the playground and block (Ctrl-C stops it)."""
    from .service import DEFAULT_MAX_GAMES

    if data_dir is not None and not Path(data_dir).is_dir():
        raise PlaytestError("not a folder", where=str(data_dir), field="--data")
    svc = Service(data_dir, max_games or DEFAULT_MAX_GAMES)
    app = create_app(svc, host)
    server = bind_server(app, host, port)   # fails (one line) before the banner says it listens
    where = "this machine only" if host in LOOPBACK_NAMES else \
        "ANY machine that can reach this one: anyone there can run games on it"
    shown = f"[{host}]" if ":" in host else host
    print(f"playtest serve: the balance playground on http://{shown}:{port}/ (listening on {host}: {where}; "
          f"at most {svc.max_games:,} games per run; data sets: {svc.data_dir or 'none (built-in data only)'}). "
          "Ctrl-C stops it.", flush=True)
    if quiet:
        import logging

        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def bind_server(app, host: str, port: int):
    """Werkzeug's threaded server bound to ``host:port``: a port in use or an address this
    machine does not have is one line, before anything is printed (werkzeug itself prints
    two lines and exits)."""
    import errno
    import socket

    from werkzeug.serving import make_server

    try:
        fam, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(fam, kind, proto) as probe:   # the same options werkzeug binds with
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(addr)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            reason = f"port {port} is in use on {host} (another playtest serve?): choose another with --port"
        else:
            reason = f"cannot listen on {host}:{port} ({e.strerror or e})"
        raise PlaytestError(reason, field="--port") from None
    return make_server(host, port, app, threaded=True)
