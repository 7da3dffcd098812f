"""A self-contained HTML page builder for designer reports: figures are saved as PNG
beside the page and embedded in it (base64), tables are rendered from DataFrames.

    page = Page("Dice duel balance", out_dir)
    page.heading("Matchups")
    page.paragraph("...")
    page.figure(fig, "matchup_heatmap", caption="...")   # writes matchup_heatmap.png
    page.table(df, caption="...")
    path = page.write("report.html")
"""
from __future__ import annotations

import base64
import html
import io
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from analysis.io import ensure_dir  # noqa: E402

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #333;padding-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.88em}th,td{border:1px solid #ccc;padding:.25em .55em;text-align:right}
th{background:#f2f2f2}.ci{white-space:nowrap}td:first-child,th:first-child{text-align:left}figure{margin:1em 0}figcaption{font-size:.88em;color:#555}
img{max-width:100%}.summary{background:#f7f7f2;border-left:4px solid #b58900;padding:.6em 1em}.meta{font-size:.85em;color:#666}
code{background:#f2f2f2;padding:0 .2em}
"""


def _is_text(col) -> bool:
    """A column of words (names, labels), not of formatted numbers like '1,234' or '54.1%'
    (empty cells, '–' and 'n/a' decide nothing: a column of rates with blanks is numbers)."""
    vals = [str(v) for v in col.dropna().head(20) if str(v).strip() not in ("", "–", "n/a")]
    return bool(vals) and not all(re.match(r"^[-+]?[\d,.]+\s*(%|\[|–|$)", v) for v in vals)


# column names a designer reads instead of the raw ones
HEADERS = {
    "win_rate": "win rate", "win_ci_low": "95% CI low", "win_ci_high": "95% CI high",
    "ci_low": "95% CI low", "ci_high": "95% CI high", "rate": "share",
    "alive_rate": "share alive", "alive_ci_low": "95% CI low", "alive_ci_high": "95% CI high",
    "share_rate": "share", "share_ci_low": "95% CI low", "share_ci_high": "95% CI high",
    "jester_rate": "share with a Jester", "jester_ci_low": "95% CI low", "jester_ci_high": "95% CI high",
    "games_per_s": "games / s", "mean_defeated": "enemies defeated (mean)", "mean_turns": "turns (mean)",
    "bought_rolls_affordable": "rolls the CP can buy", "expected_value": "expected value",
    "mean_rolls_bought": "rolls bought (mean)", "q10": "10th pct", "q90": "90th pct", "std": "std dev",
}


def readable(name: str) -> str:
    return HEADERS.get(name, name.replace("_", " "))


def number(x) -> str:
    """A float to at most 3 decimals, no padding zeros ('11.6', '-22.4', '0.021'); large
    values with thousands separators."""
    if x != x:  # NaN
        return "–"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    s = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def column_number(values):
    """``number`` for one column: every value with the same decimals, the most any of them
    needs (at most 3), so that a column never mixes '0.7' with '0.814'."""
    d = 0
    for x in values:
        if x == x and abs(x) < 1000:
            s = number(x)
            d = max(d, len(s.split(".")[1]) if "." in s else 0)

    def fmt(x) -> str:
        if x != x:
            return "–"
        s = f"{x:,.{d}f}"
        return s[1:] if re.fullmatch(r"-0(\.0*)?", s) else s   # no '-0.00'
    return fmt


class Page:
    def __init__(self, title: str, out_dir):
        self.title = title
        self.out = ensure_dir(out_dir)
        self.parts: list[str] = [f"<h1>{html.escape(title)}</h1>"]
        self.pngs: list[Path] = []

    def heading(self, text: str, level: int = 2) -> None:
        self.parts.append(f"<h{level}>{html.escape(text)}</h{level}>")

    def paragraph(self, text: str, cls: str | None = None) -> None:
        c = f' class="{cls}"' if cls else ""
        self.parts.append(f"<p{c}>{html.escape(text)}</p>")

    def bullets(self, items, cls: str | None = None) -> None:
        c = f' class="{cls}"' if cls else ""
        lis = "".join(f"<li>{html.escape(str(i))}</li>" for i in items)
        self.parts.append(f"<ul{c}>{lis}</ul>")

    def raw(self, fragment: str) -> None:
        """Trusted HTML (built by the report code itself, never from user text)."""
        self.parts.append(fragment)

    def figure(self, fig, name: str, caption: str | None = None, dpi: int = 110) -> Path:
        """Save ``fig`` as ``<out>/<name>.png``, embed it, close it."""
        path = self.out / f"{name}.png"
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
        plt.close(fig)
        data = buf.getvalue()
        path.write_bytes(data)
        self.pngs.append(path)
        b64 = base64.b64encode(data).decode("ascii")
        cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        self.parts.append(f'<figure><img alt="{html.escape(name)}" src="data:image/png;base64,{b64}">{cap}</figure>')
        return path

    def table(self, df, caption: str | None = None, float_format: str | None = None, index: bool = False) -> None:
        """An HTML table: column names made readable (``HEADERS``, else '_' -> ' '), whole
        numbers with thousands separators, other numbers to at most 3 decimals, the same
        in every row of a column (``column_number``; or ``float_format``); numbers
        right-aligned, text left-aligned."""
        cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
        frame = df if index else df.reset_index(drop=True)
        frame = frame.rename(columns={c: readable(c) for c in frame.columns if isinstance(c, str)})
        formatters = {}
        for c in frame.columns:
            kind = getattr(frame[c].dtype, "kind", "O")
            if kind in "iu":
                formatters[c] = lambda x: f"{x:,}"
            elif kind == "f":
                formatters[c] = (lambda x: float_format.format(x)) if float_format else column_number(frame[c])
        body = frame.to_html(index=index, escape=True, border=0, formatters=formatters or None, na_rep="–")
        # an interval ("[83.1, 90.6]") is never broken after its comma: a narrow column may
        # put it on the line below its value, whole
        body = re.sub(r"(<td>[^<]*?)(\[[^<\]]*\])", r'\1<span class="ci">\2</span>', body)
        # numbers right-aligned, text columns (names, labels) left-aligned
        tid = f"t{sum(p.count('<table') for p in self.parts) + 1}"
        text_cols = [i + 1 + int(index) for i, c in enumerate(frame.columns) if _is_text(frame[c])]
        style = "".join(f"#{tid} td:nth-child({i}),#{tid} th:nth-child({i}){{text-align:left}}" for i in text_cols)
        self.parts.append((f"<style>{style}</style>" if style else "")
                          + body.replace("<table", f'<table id="{tid}"', 1).replace("<thead>", f"{cap}<thead>", 1))

    def write(self, filename: str = "report.html") -> Path:
        path = self.out / filename
        doc = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
               f"<title>{html.escape(self.title)}</title><style>{_CSS}</style></head><body>"
               + "\n".join(self.parts) + "</body></html>\n")
        path.write_text(doc, encoding="utf-8")
        return path
