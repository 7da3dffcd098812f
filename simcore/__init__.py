"""playtest simulation core: shared machinery (random streams, chunked parallel runs,
errors, dice targets) and one sub-package per game."""

__version__ = "0.1.0"


def _numba_cache_dir() -> None:
    """Point numba's on-disk cache at a directory named after a hash of the project's
    compiled sources.

    numba invalidates a cached function only when *its own* file changes, not when a
    function it inlines from another file does (a strategy's cached entry point inlines the
    game kernel): a stale cache would silently run old rules. Keying the cache directory on
    every source of ``simcore`` and ``strategies`` makes any change start a fresh cache
    (earlier caches of the same checkout are removed; other checkouts' are left alone).
    ``NUMBA_CACHE_DIR`` set by the user wins; ``PLAYTEST_CACHE_DIR`` moves the root.
    """
    import hashlib
    import os
    import shutil
    from pathlib import Path

    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for pkg in ("simcore", "strategies"):
        for f in sorted((root / pkg).rglob("*.py")):
            h.update(str(f.relative_to(root)).encode())
            h.update(f.read_bytes())
    base = Path(os.environ.get("PLAYTEST_CACHE_DIR") or Path.home() / ".cache" / "playtest" / "numba")
    # one folder per checkout (two clones on one machine must not delete each other's
    # cache), one sub-folder per version of its sources
    checkout = base / hashlib.sha256(str(root).encode()).hexdigest()[:12]
    target = checkout / h.hexdigest()[:16]
    try:
        if not target.exists():
            target.mkdir(parents=True, exist_ok=True)
            for old in checkout.iterdir():  # caches of earlier versions of these sources
                if old != target and old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return  # unwritable home: numba falls back to its default (__pycache__)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
    import sys

    if "numba" in sys.modules:  # numba already read its config: update it in place
        sys.modules["numba"].config.CACHE_DIR = str(target)


_numba_cache_dir()
