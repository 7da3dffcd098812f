"""Writing result tables: CSV + Parquet per table, and a JSON sidecar with the run's
provenance (seed, games, strategy, rule options, package version)."""
from __future__ import annotations

import json
import platform
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from simcore import __version__
from simcore.errors import PlaytestError


def ensure_dir(path) -> Path:
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlaytestError(f"cannot create directory: {e.strerror}", where=str(p)) from None
    return p


def write_tables(out_dir, tables: dict[str, pd.DataFrame], meta: dict, stem: str = "") -> list[Path]:
    """Write each DataFrame as ``<stem><name>.csv`` and ``.parquet``; write
    ``<stem>run.json`` with ``meta`` plus version and timestamp. Returns the paths."""
    out = ensure_dir(out_dir)
    written = []
    for name, df in tables.items():
        base = out / f"{stem}{name}"
        df.to_csv(base.with_suffix(".csv"), index=False)
        df.to_parquet(base.with_suffix(".parquet"), index=False)
        written += [base.with_suffix(".csv"), base.with_suffix(".parquet")]
    side = dict(meta)
    side.setdefault("package_version", __version__)
    side.setdefault("python", platform.python_version())
    side.setdefault("written_utc", datetime.now(timezone.utc).isoformat(timespec="seconds"))
    side["tables"] = sorted(f"{stem}{n}" for n in tables)
    path = out / f"{stem}run.json"
    path.write_text(json.dumps(side, indent=2, sort_keys=True, default=_json_default) + "\n")
    written.append(path)
    return written


def _json_default(o):
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")
