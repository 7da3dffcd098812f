"""``playtest``: the command line. Each game registers its own sub-commands
(``scripts/<game>_cli.py``) and its ``report`` command; this module only assembles them
and turns every bad input into one line on stderr and a non-zero exit."""
from __future__ import annotations

import importlib
import sys

import typer

try:  # typer >= 0.22 vendors click as typer._click
    from typer import _click as click
except ImportError:  # pragma: no cover
    import click

from simcore.errors import PlaytestError

app = typer.Typer(
    name="playtest",
    help="Monte Carlo balance lab for dice and card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
report_app = typer.Typer(help="Simulate with good defaults and write a designer report.",
                         no_args_is_help=True, rich_markup_mode=None)
app.add_typer(report_app, name="report")

# games with commands of their own define ``register(app, report_app)`` and keep them;
# every registered game gets the shared verbs it does not define (scripts/game_cli.py)
GAME_MODULES = ("scripts.duel_cli", "scripts.odds_cli", "scripts.regicide_cli", "scripts.dicethrone_cli",
                "scripts.serve_cli", "scripts.runs_cli")
for _name in GAME_MODULES:
    importlib.import_module(_name).register(app, report_app)

from scripts.fix_cli import add_fix_verb  # noqa: E402
from scripts.game_cli import add_game_verbs, add_report_verb, games_cmd  # noqa: E402
from simcore.game import game_names, game_type  # noqa: E402

app.command("games")(games_cmd)
_OWN = {g.name: g for g in app.registered_groups}
for _game in game_names():
    if _game in _OWN:
        _sub = _OWN[_game].typer_instance
        add_game_verbs(_sub, _game, frozenset(c.name for c in _sub.registered_commands))
    else:
        _sub = typer.Typer(help=f"{game_type(_game).title}: {game_type(_game).description}",
                           no_args_is_help=True, rich_markup_mode=None)
        add_game_verbs(_sub, _game)
        app.add_typer(_sub, name=_game)
    if _game not in {c.name for c in report_app.registered_commands}:
        add_report_verb(report_app, _game)
    add_fix_verb(_sub, _game)  # balance search (hero and role games)


def fail(message: str, code: int = 2) -> None:
    print(f"playtest: error: {message}", file=sys.stderr)
    raise SystemExit(code)


def _on_sigterm(signum, frame):
    raise KeyboardInterrupt   # a run stopped by SIGTERM is closed like Ctrl-C: marked, its chunks kept


def main(argv=None) -> None:
    import signal
    import threading

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        _main(argv)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv) -> None:
    exc = click.exceptions
    try:
        rv = app(args=argv, standalone_mode=False, prog_name="playtest")
    except SystemExit:
        raise
    except PlaytestError as e:
        fail(e.one_line())
    except exc.NoArgsIsHelpError as e:  # show help, exit like click
        print(e.format_message() if hasattr(e, "format_message") else str(e))
        raise SystemExit(0) from None
    except exc.UsageError as e:
        fail(e.format_message().replace("\n", " "))
    except exc.ClickException as e:
        fail(e.format_message().replace("\n", " "), e.exit_code or 1)
    except KeyboardInterrupt as e:   # a run's interrupt note is already out (analysis.runs.run)
        from analysis.runs import Interrupted

        if isinstance(e, Interrupted):
            raise SystemExit(130) from None
        fail("interrupted", 130)
    except BrokenPipeError:
        raise SystemExit(0) from None
    except Exception as e:  # typer's Abort/Exit types vary across versions
        name = type(e).__name__
        if name == "Abort":
            fail("aborted", 130)
        if name == "Exit":
            raise SystemExit(getattr(e, "exit_code", 0)) from None
        raise
    if isinstance(rv, int) and rv:
        raise SystemExit(rv)


if __name__ == "__main__":
    main()
