"""``playtest ARGV`` in-process for the tests: (exit code, stdout, stderr)."""


def run_cli(capsys, *argv):
    from scripts.cli import main

    try:
        main(list(argv))
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err
