"""``playtest serve``: start the balance playground (``playground/app.py``)."""
from __future__ import annotations

from typing import Optional

import typer

from simcore.errors import PlaytestError


def serve_cmd(host: str = typer.Option("127.0.0.1", "--host",
                                       help="Address to listen on. The default, 127.0.0.1, is this machine only; "
                                            "0.0.0.0 shares the playground with the network (anyone who can reach "
                                            "it can run games)."),
              port: int = typer.Option(8765, "--port", help="Port (1024-65535)."),
              data: Optional[str] = typer.Option(None, "--data",
                                                 help="Folder of data sets the page may load: each sub-folder "
                                                      "holds rules.toml and/or the game's content folder "
                                                      "(e.g. heroes/), as a playground export does."),
              max_games: Optional[int] = typer.Option(None, "--max-games",
                                                      help="Cap on the games of one run, all matchups together "
                                                           "(default 2,000,000).")):
    """The balance playground in the browser: run, edit any number, compare on the same seeds."""
    from playground.app import serve

    if not 1024 <= port <= 65535:
        raise PlaytestError(f"must be 1024..65535, got {port}", field="--port")
    if max_games is not None and max_games < 1:
        raise PlaytestError(f"must be >= 1, got {max_games}", field="--max-games")
    serve(host, port, data, max_games)


def register(app, report_app) -> None:
    app.command("serve")(serve_cmd)
