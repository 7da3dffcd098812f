// playtest balance playground: every input is generated from /api/game/<name>
// (the game's rules and content); nothing here knows a particular game.
"use strict";
const $ = (s) => document.querySelector(s);
const $$ = (s) => Array.from(document.querySelectorAll(s));
const S = { game: null, info: null, edits: [], job: null, view: null, replay: [], step: 0 };
const pct = (x, d = 1) => (x === null || x === undefined ? "n/a" : (100 * x).toFixed(d));
const fmtN = (n) => Number(n).toLocaleString("en-US");
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

async function api(path, body) {
  const opt = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opt);
  const ct = r.headers.get("Content-Type") || "";
  if (ct.includes("application/json")) {
    const data = await r.json();
    if (!r.ok) throw Object.assign(new Error("bad request"), { errors: data.errors || { form: "error " + r.status } });
    return data;
  }
  if (!r.ok) throw Object.assign(new Error("bad request"), { errors: { form: "error " + r.status } });
  return r;
}

function clearErrors(scope) {
  $$(".err").forEach((e) => { if (!scope || scope.includes(e.dataset.err)) { e.textContent = ""; } });
  $$(".bad").forEach((e) => e.classList.remove("bad"));
}
function showErrors(errors, rename = {}) {
  for (const [k0, msg] of Object.entries(errors || {})) {
    const k = rename[k0] || k0;
    let el = document.querySelector(`.err[data-err="${CSS.escape(k)}"]`) || $(".err[data-err=form]");
    el.textContent = (el.dataset.err === k ? "" : k + ": ") + msg;
    const input = document.getElementById("edit-" + k) || document.getElementById(k);
    if (input) input.classList.add("bad");
  }
}

// ------------------------------------------------------------------ games and inputs
async function loadGames() {
  const d = await api("/api/games");
  $("#game").innerHTML = d.games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`).join("");
  $("#dataset").innerHTML = `<option value="">built-in</option>` + d.datasets.map((n) => `<option>${esc(n)}</option>`).join("");
  $("#where").textContent = `serving on ${d.host} ` + (["127.0.0.1", "localhost", "::1"].includes(d.host) ? "(this machine only)" : "(reachable from the network)") + ` · at most ${fmtN(d.max_games)} games per run`;
  await selectGame(d.games[0].name);
}

async function selectGame(name) {
  clearErrors();
  let info;
  try { info = await api(`/api/game/${encodeURIComponent(name)}?dataset=${encodeURIComponent($("#dataset").value)}`); }
  catch (e) { showErrors(e.errors); return; }
  S.game = name; S.info = info; S.edits = []; S.view = null;
  $("#game").value = name;
  const pl = $("#players");
  pl.min = info.seats[0]; pl.max = info.seats[1]; pl.value = info.default_seats;
  $("#players-row").hidden = info.seats[0] === info.seats[1];
  const heroes = info.entrants_kind === "heroes";
  $("#entrants-box").hidden = !heroes;
  $("#entrants").innerHTML = info.entrants.map((e) =>
    `<label class="check"><input type="checkbox" name="entrant" value="${esc(e.key)}" checked> ${esc(e.title)}</label>`).join("");
  $("#strategies").innerHTML = info.strategies.map((s) =>
    `<label class="check" title="${esc(s.description)}"><input type="checkbox" name="strategy" value="${esc(s.name)}" ${s.name === info.default_strategy ? "checked" : ""}> ${esc(s.name)} <span class="hint">${esc(s.description)}</span></label>`).join("");
  buildEditables();
  renderStack();
  setupSeats();
  $("#fix").disabled = !info.has_fix;
  $("#fix").textContent = info.has_fix ? "Suggest a fix" : "Suggest a fix (not installed: playtest GAME fix)";
  $("#fix-box").hidden = info.entrants_kind === "seats";
  $("#odds-tab").hidden = false;
  setupOdds();
  setupReplay();
  resetResults();
}

function seatRowsHtml(cls, n) {
  const heroes = S.info.entrants_kind === "heroes";
  let h = "";
  for (let s = 0; s < n; s++) {
    h += `<label class="seat-row">${esc(S.info.seat_labels[s] || "seat " + (s + 1))}`;
    if (heroes) h += ` <select class="${cls}-ent">` + S.info.entrants.map((e, i) => `<option value="${esc(e.key)}" ${i === (s === 0 ? 0 : S.info.entrants.length - 1) ? "selected" : ""}>${esc(e.title)}</option>`).join("") + "</select>";
    h += ` <select class="${cls}-strat">` + S.info.strategies.map((x) => `<option ${x.name === S.info.default_strategy ? "selected" : ""}>${esc(x.name)}</option>`).join("") + "</select></label>";
  }
  return h;
}

function mode() { return $("input[name=mode]:checked").value; }
function setupSeats() {
  const lineup = mode() === "lineup";
  $("#seat-rows").innerHTML = seatRowsHtml("seat", Number($("#players").value) || S.info.default_seats);
  $("#seat-rows").hidden = !lineup;
  $("#entrants-box").hidden = lineup || S.info.entrants_kind !== "heroes";
  $("#strategies-box").hidden = lineup;
}

function buildEditables() {
  const box = $("#editables");
  box.innerHTML = "";
  S.info.editables.forEach((g, gi) => {
    const det = document.createElement("details");
    det.open = gi === 0 && g.items.length <= 40;
    det.innerHTML = `<summary>${esc(g.group)} <span class="hint">${g.items.length} numbers · ${esc(g.items[0].file)}</span></summary>`;
    const grid = document.createElement("div");
    grid.className = "edit-grid";
    for (const it of g.items) {
      const row = document.createElement("div");
      row.className = "edit-row";
      row.dataset.search = (g.group + " " + it.label + " " + it.key).toLowerCase();
      let input;
      const id = "edit-" + it.key;
      if (it.kind === "bool") {
        input = `<input type="checkbox" id="${esc(id)}" ${it.value ? "checked" : ""}>`;
      } else if (it.kind === "choice") {
        input = `<select id="${esc(id)}">` + it.choices.map((c) => `<option ${c === it.value ? "selected" : ""}>${esc(c)}</option>`).join("") + "</select>";
      } else {
        input = `<input type="number" id="${esc(id)}" value="${esc(it.value)}" ${it.lo !== null ? `min="${it.lo}"` : ""} ${it.hi !== null ? `max="${it.hi}"` : ""} step="${it.kind === "int" ? 1 : "any"}">`;
      }
      const bounds = it.kind === "int" || it.kind === "float" ? `<span class="hint">${it.lo}–${it.hi}</span>` : "";
      row.innerHTML = `<label for="${esc(id)}">${esc(it.label)}</label>${input}${bounds}<div class="err" data-err="${esc(it.key)}"></div>`;
      const el = row.querySelector("input,select");
      el.dataset.key = it.key;
      el.addEventListener("change", () => onEdit({ ...it, group: g.group }, el));
      grid.appendChild(row);
    }
    det.appendChild(grid);
    box.appendChild(det);
  });
}

function editable(key) {
  for (const g of S.info.editables) for (const it of g.items) if (it.key === key) return { ...it, group: g.group };
  return null;
}
function editsDict() {
  const d = {};
  for (const e of S.edits) d[e.key] = e.value;
  for (const [k, v] of Object.entries(d)) if (editable(k) && editable(k).value === v) delete d[k];
  return d;
}

function localCheck(it, raw) {
  if (it.kind === "bool" || it.kind === "choice") return { value: raw };
  if (String(raw).trim() === "") return { error: "enter a number" };
  const v = Number(raw);
  if (!Number.isFinite(v)) return { error: `must be a number, got "${raw}"` };
  if (it.kind === "int" && !Number.isInteger(v)) return { error: `must be a whole number, got ${raw}` };
  if ((it.lo !== null && v < it.lo) || (it.hi !== null && v > it.hi)) return { error: `must be between ${it.lo} and ${it.hi}, got ${v}` };
  return { value: v };
}

function onEdit(it, el) {
  clearErrors([it.key]);
  const raw = it.kind === "bool" ? el.checked : el.value;
  const c = localCheck(it, raw);
  if (c.error) { showErrors({ [it.key]: c.error }); return; }
  const before = JSON.stringify(editsDict());
  S.edits.push({ key: it.key, value: c.value, label: `${it.group}: ${it.label}` });
  if (JSON.stringify(editsDict()) === before) { S.edits.pop(); return; }  // no change: nothing to undo or run
  renderStack();
  if ($("#auto").checked && S.view) run();
}

function renderStack() {
  const d = editsDict();
  const keys = Object.keys(d);
  $("#stack").innerHTML = keys.length ? keys.map((k) => {
    const it = editable(k);
    return `<span class="chip">${esc(it.group)} · ${esc(it.label)}: <s>${esc(it.value)}</s> → <b>${esc(d[k])}</b></span>`;
  }).join(" ") : "no edits";
  $("#undo").disabled = S.edits.length === 0;
  $("#reset").disabled = S.edits.length === 0;
  $$("#editables [data-key]").forEach((el) => {
    const it = editable(el.dataset.key);
    const v = el.dataset.key in d ? d[el.dataset.key] : it.value;
    if (it.kind === "bool") el.checked = !!v; else if (document.activeElement !== el || !el.classList.contains("bad")) el.value = v;
    el.closest(".edit-row").classList.toggle("changed", el.dataset.key in d);
  });
}

function undo() { S.edits.pop(); clearErrors(); renderStack(); if (S.view) run(); }
function resetEdits() { S.edits = []; clearErrors(); renderStack(); if (S.view) run(); }

function payload() {
  return {
    game: S.game, dataset: $("#dataset").value, players: $("#players").value,
    entrants: $$("input[name=entrant]:checked").map((e) => e.value),
    strategies: $$("input[name=strategy]:checked").map((e) => e.value),
    games: $("#games").value, seed: $("#seed").value, edits: editsDict(), mode: mode(),
    seat_strategies: $$(".seat-strat").map((e) => e.value), seat_entrants: $$(".seat-ent").map((e) => e.value),
  };
}

// ------------------------------------------------------------------ running
async function run() {
  clearErrors();
  if (S.job) { try { await api(`/api/run/${S.job}/cancel`, {}); } catch (e) { /* finished meanwhile */ } }
  let r;
  try { r = await api("/api/run", payload()); }
  catch (e) { showErrors(e.errors); setProgress(0, 0, "not started: fix the fields marked in red"); return; }
  S.job = r.id;
  $("#cancel").disabled = false;
  $("#run").disabled = false;
  S.t0 = performance.now();
  poll(r.id);
}

async function poll(id) {
  let st;
  try { st = await api(`/api/run/${id}`); } catch (e) { showErrors(e.errors); return; }
  if (S.job !== id) return;
  if (st.state === "queued" || st.state === "running") {
    setProgress(st.done, st.total, `${st.phase || "starting"} · ${fmtN(st.done)} of ${fmtN(st.total || 0)} games · ${st.elapsed.toFixed(1)} s`);
    setTimeout(() => poll(id), 250);
    return;
  }
  S.job = null;
  $("#cancel").disabled = true;
  if (st.state === "done") {
    const v = st.result;
    setProgress(1, 1, `done: ${fmtN(v.played_games)} games played in ${v.seconds.toFixed(1)} s` + (v.played_games === 0 ? " (all from the cache)" : ""));
    S.view = v;
    if (st.ratings) v.doc.ratings = st.ratings;
    render(v);
    if (v.doc.ratings_pending && !st.ratings) pollRatings(id, v);
    const ms = performance.now() - S.t0;
    document.body.dataset.lastRunMs = String(Math.round(ms));
    document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
  } else if (st.state === "cancelled") {
    setProgress(0, 1, "cancelled");
  } else {
    setProgress(0, 1, "failed");
    showErrors({ [st.error.field]: st.error.message });
  }
}

async function pollRatings(id, v) {
  if (S.view !== v) return;
  let st;
  try { st = await api(`/api/run/${id}`); } catch (e) { return; }
  if (st.ratings) { v.doc.ratings = st.ratings; renderRatings(v); return; }
  setTimeout(() => pollRatings(id, v), 500);
}

function setProgress(done, total, text) {
  $("#bar").style.width = total ? `${Math.min(100, (100 * done) / total)}%` : "0";
  $("#progress-text").textContent = text;
}

async function cancel() {
  if (!S.job) return;
  await api(`/api/run/${S.job}/cancel`, {});
}

// ------------------------------------------------------------------ drawing
// the lead metrics come from traced games (simcore/leads.py): the score each game follows
const METRIC_LABELS = { balance: "balance (spread of win rates)", advantage_p1: "first-player score",
  drawishness: "draws", completion: "capped games", duration: "game length (turns)",
  lead_change: "lead changes per game", decisiveness: "decided at (share of the game)",
  drama: "drama (winner's mean deficit)" };
const LAYOUT = { margin: { l: 150, r: 20, t: 40, b: 90 }, font: { family: "system-ui, sans-serif", size: 12 }, paper_bgcolor: "#fff", plot_bgcolor: "#fff" };
const DIVERGING = [[0, "#b2182b"], [0.25, "#ef8a62"], [0.5, "#f7f7f7"], [0.75, "#67a9cf"], [1, "#2166ac"]];
const CONF = { displaylogo: false, responsive: true };

function resetResults() {
  ["#heat", "#delta", "#entrant-chart", "#hist"].forEach((s) => { try { Plotly.purge($(s)); } catch (e) {} $(s).innerHTML = ""; });
  $("#delta").hidden = true;
  $("#results-body").hidden = true;
  $("#summary").innerHTML = `${esc(S.info.title)}: pick what to play and press <b>Run</b>.`;
  $("#command-box").hidden = true;
  $("#metrics").innerHTML = ""; $("#ratings").innerHTML = "";
}

function cellHover(v, r, c, s) {
  if (!s) return "not played";
  const hero = v.entrants_kind === "heroes";
  let t = `<b>${esc(r)}</b> vs <b>${esc(c)}</b><br>score ${pct(s.x)}% [${pct(s.ci[0])}, ${pct(s.ci[1])}] (95%)` +
    `<br>wins ${fmtN(s.wins)} · draws ${fmtN(s.draws)} · losses ${fmtN(s.losses)} (n=${fmtN(s.n)})`;
  if (s.capped) t += `<br>ended by a cap: ${fmtN(s.capped)}`;
  if (hero || s.n_first) t += `<br>moving first ${pct(s.x_first)}% (n=${fmtN(s.n_first)}) · second ${pct(s.x_second)}% (n=${fmtN(s.n_second)})`;
  return t;
}

function heatTitle(v) {
  if (v.entrants_kind === "heroes") return "Matchups: the row hero's score against the column hero (win 1, draw ½), %, ±95% interval";
  if (v.kind === "cooperative") return "The team's win rate with each strategy, %, ±95% interval";
  return `Each ${v.col_axis}'s score in each matchup (win 1, draw shared), %, ±95% interval`;
}

function render(v) {
  $("#results-body").hidden = false;
  const hero = v.entrants_kind === "heroes";
  const doc = v.doc;
  const ents = v.entrant_rates.slice().sort((a, b) => b.x - a.x);
  const fp = doc.metrics.advantage_p1;
  const edited = Object.keys(v.edits).length;
  let sum = `<b>${esc(v.title)}</b>: ${fmtN(doc.games)} games, ${v.matchups} matchups × ${fmtN(v.games_per_matchup)}, seed ${v.seed}, ${esc(v.strategies.join(", "))}` +
    (edited ? `, <b>${edited} edit(s)</b> compared with the unedited baseline on the same seeds` : "") + ".";
  if (ents.length > 1) sum += `<br>Strongest ${esc(ents[0].label)} ${pct(ents[0].x)}% [${pct(ents[0].ci[0])}, ${pct(ents[0].ci[1])}]; weakest ${esc(ents[ents.length - 1].label)} ${pct(ents[ents.length - 1].x)}% [${pct(ents[ents.length - 1].ci[0])}, ${pct(ents[ents.length - 1].ci[1])}].`;
  if (fp && fp.x !== null) sum += `<br>First-player edge: the first mover scores <b>${pct(fp.x)}%</b> [${pct(fp.x_ci[0])}, ${pct(fp.x_ci[1])}]` +
    (v.compare && v.compare.base_metrics.advantage_p1.x !== null ? ` (baseline ${pct(v.compare.base_metrics.advantage_p1.x)}%)` : "") + ".";
  sum += `<br>Games ended by a cap: ${fmtN(doc.capped_games)}.`;
  $("#summary").innerHTML = sum;
  $("#command").textContent = v.command;
  $("#command-box").hidden = false;

  // heatmap: the score of the row against the column, values written in the cells
  const z = v.grid.map((row) => row.map((s) => (s ? 100 * s.x : null)));
  const text = v.grid.map((row) => row.map((s) => (s ? `<b>${(100 * s.x).toFixed(1)}</b><br><span style="font-size:11px">±${(50 * (s.ci[1] - s.ci[0])).toFixed(1)}</span>` : "")));
  const hover = v.grid.map((row, i) => row.map((s, j) => cellHover(v, v.rows[i], v.cols[j], s)));
  const h = 120 + 46 * v.rows.length;
  Plotly.react("heat", [{
    type: "heatmap", z, x: v.cols, y: v.rows, text, texttemplate: "%{text}", hovertext: hover, hoverinfo: "text",
    colorscale: DIVERGING, zmin: 0, zmax: 100, xgap: 2, ygap: 2, textfont: { size: 14 },
    colorbar: { title: { text: "row's score %", side: "right" }, thickness: 12 },
  }], { ...LAYOUT, height: Math.max(320, h), title: { text: heatTitle(v), font: { size: 14 } },
        xaxis: { title: v.col_axis, side: "bottom", automargin: true }, yaxis: { autorange: "reversed", automargin: true } }, CONF);

  // the change against the baseline, paired on the same seeds
  if (v.compare) {
    $("#delta").hidden = false;
    const cz = v.compare.grid.map((row) => row.map((d) => (d && d.delta !== null ? 100 * d.delta : null)));
    const m = Math.max(1, ...cz.flat().filter((x) => x !== null).map(Math.abs));
    const ct = v.compare.grid.map((row) => row.map((d) => (d && d.delta !== null ? (d.changed_games === 0 ? "<span style='color:#888'>same games</span>" : `<b>${d.delta >= 0 ? "+" : ""}${(100 * d.delta).toFixed(1)}</b><br><span style='font-size:11px'>${d.beyond ? "±" + (50 * (d.ci[1] - d.ci[0])).toFixed(1) : "noise"}</span>`) : "")));
    const ch = v.compare.grid.map((row, i) => row.map((d, j) => {
      if (!d || d.delta === null) return "no comparison";
      const b = v.compare.base_grid[i][j], s = v.grid[i][j];
      return `<b>${esc(v.rows[i])}</b> vs <b>${esc(v.cols[j])}</b><br>change ${d.delta >= 0 ? "+" : ""}${pct(d.delta)} points [${pct(d.ci[0])}, ${pct(d.ci[1])}] (paired, 95%)` +
        `<br>${d.beyond ? "<b>beyond noise</b>" : "within noise"} · ${fmtN(d.changed_games)} of ${fmtN(d.n)} games changed` +
        `<br>baseline ${pct(b.x)}% → now ${pct(s.x)}%`;
    }));
    Plotly.react("delta", [{
      type: "heatmap", z: cz, x: v.cols, y: v.rows, text: ct, texttemplate: "%{text}", hovertext: ch, hoverinfo: "text",
      colorscale: DIVERGING, zmin: -m, zmax: m, xgap: 2, ygap: 2, textfont: { size: 14 },
      colorbar: { title: { text: "change, points", side: "right" }, thickness: 12 },
    }], { ...LAYOUT, height: Math.max(320, h), title: { text: "Change against the baseline (same seeds), points; \"noise\" = the 95% interval includes 0", font: { size: 14 } },
          xaxis: { title: v.col_axis, automargin: true }, yaxis: { autorange: "reversed", automargin: true } }, CONF);
  } else {
    $("#delta").hidden = true;
    Plotly.purge($("#delta"));
  }

  // entrants against the field
  const er = v.entrant_rates.slice().reverse();
  const traces = [{
    type: "scatter", mode: "markers", name: edited ? "edited" : "win rate", x: er.map((e) => 100 * e.x), y: er.map((e) => e.label),
    error_x: { type: "data", symmetric: false, array: er.map((e) => 100 * (e.ci[1] - e.x)), arrayminus: er.map((e) => 100 * (e.x - e.ci[0])), thickness: 1.5, width: 4 },
    marker: { size: 10, color: "#2166ac" },
    text: er.map((e) => `${pct(e.x)}%`), hovertext: er.map((e) => `<b>${esc(e.label)}</b><br>${pct(e.x)}% [${pct(e.ci[0])}, ${pct(e.ci[1])}] (n=${fmtN(e.n)})`), hoverinfo: "text",
  }];
  if (v.compare) {
    const ce = v.compare.entrants.slice().reverse();
    traces.push({ type: "scatter", mode: "markers", name: "baseline", x: ce.map((e) => (e ? 100 * e.base.x : null)), y: er.map((e) => e.label),
      marker: { size: 10, symbol: "diamond-open", color: "#888" },
      hovertext: ce.map((e) => (e ? `baseline ${pct(e.base.x)}% → change ${e.delta >= 0 ? "+" : ""}${pct(e.delta)} [${pct(e.ci[0])}, ${pct(e.ci[1])}] ${e.beyond ? "(beyond noise)" : "(noise)"}` : "")), hoverinfo: "text" });
  }
  const labels = er.map((e, i) => {
    let t = `${pct(e.x)}%`;
    const c = v.compare && v.compare.entrants[v.entrant_rates.length - 1 - i];
    if (c) t += ` (${c.delta >= 0 ? "+" : ""}${pct(c.delta)}${c.beyond ? "" : ", noise"})`;
    return { xref: "paper", x: 1.01, y: e.label, text: t, showarrow: false, xanchor: "left", font: { size: 12, color: "#333" } };
  });
  Plotly.react("entrant-chart", traces, { ...LAYOUT, height: 150 + 34 * er.length, margin: { ...LAYOUT.margin, r: 130, b: 50 },
    title: { text: hero ? "Each hero against the field, % (95% interval)" : "Each matchup row, % (95% interval)", font: { size: 14 } },
    xaxis: { range: [0, 100], title: "score %", zeroline: false }, yaxis: { automargin: true },
    shapes: [{ type: "line", x0: 50, x1: 50, yref: "paper", y0: 0, y1: 1, line: { dash: "dot", color: "#999" } }],
    annotations: labels, showlegend: !!v.compare, legend: { orientation: "h", y: -0.25 } }, CONF);

  // game length
  const hs = v.histogram;
  const ht = [{ type: "bar", x: hs.x, y: hs.y, name: edited ? "edited" : "games", marker: { color: "#4c78a8" } }];
  if (v.compare) ht.push({ type: "scatter", mode: "lines", line: { shape: "hvh", color: "#222", width: 1.5 }, x: v.compare.base_histogram.x, y: v.compare.base_histogram.y, name: "baseline" });
  const dur = doc.metrics.duration;
  Plotly.react("hist", ht, { ...LAYOUT, height: 300, margin: { ...LAYOUT.margin, l: 60 },
    title: { text: `Game length: mean ${dur.x !== null ? dur.x.toFixed(1) : "n/a"} turns` + (hs.capped ? `, ${fmtN(hs.capped)} capped (not shown)` : ""), font: { size: 14 } },
    xaxis: { title: "turns" + (hs.last_is_more ? " (last bar: that many or more)" : "") }, yaxis: { title: "games" }, bargap: 0.05,
    showlegend: !!v.compare, legend: { orientation: "h", y: -0.3 } }, CONF);

  // metrics and ratings
  const bm = v.compare ? v.compare.base_metrics : null;
  const mrow = (k, m) => {
    const isPct = !["duration", "lead_change", "drama"].includes(k);
    const f = (x) => (x === null || x === undefined ? "n/a" : isPct ? pct(x) + "%" : x.toFixed(2));
    const ci = m.x_ci ? `${isPct ? pct(m.x_ci[0]) : m.x_ci[0].toFixed(2)} – ${isPct ? pct(m.x_ci[1]) : m.x_ci[1].toFixed(2)}` : esc(m.note || "");
    return `<tr data-metric="${esc(k)}"><td title="${esc(k)}">${esc(METRIC_LABELS[k] || k)}</td><td>${f(m.x)}</td><td>${ci}</td><td>${fmtN(m.n || 0)}</td>${bm ? `<td>${f(bm[k] ? bm[k].x : null)}</td>` : ""}</tr>`;
  };
  $("#lead-score").textContent = S.info && S.info.score ? `lead metrics follow ${S.info.score}` : "";
  $("#metrics").innerHTML = `<tr><th>metric</th><th>value</th><th>95% interval</th><th>games</th>${bm ? "<th>baseline</th>" : ""}</tr>` +
    Object.entries(doc.metrics).map(([k, m]) => mrow(k, m)).join("");
  renderRatings(v);
}

function renderRatings(v) {
  const doc = v.doc;
  if (doc.ratings_pending && !doc.ratings.length) { $("#ratings").innerHTML = "<tr><td>computing the bootstrap intervals…</td></tr>"; return; }
  $("#ratings").innerHTML = doc.ratings.length ? `<tr><th>#</th><th>entrant / strategy</th><th>rating</th><th>95% interval</th><th>games</th></tr>` +
    doc.ratings.map((r, i) => `<tr><td>${i + 1}</td><td>${esc(r.entrant)}</td><td>${r.rating.toFixed(0)}</td><td>${r.rating_ci[0].toFixed(0)} – ${r.rating_ci[1].toFixed(0)}</td><td>${fmtN(r.games)}</td></tr>`).join("")
    : `<tr><td>not defined here (a cooperative game, or a single entrant)</td></tr>`;
}

// ------------------------------------------------------------------ export
async function exportToml() {
  clearErrors();
  try {
    const r = await fetch("/api/export", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload()) });
    if (!r.ok) { showErrors((await r.json()).errors); return; }
    const blob = await r.blob();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `playtest-${S.game}-edited.zip`;
    document.body.appendChild(a); a.click(); a.remove();
    $("#command").textContent = r.headers.get("X-Command");
    $("#command-box").hidden = false;
  } catch (e) { showErrors({ form: String(e) }); }
}

// ------------------------------------------------------------------ odds
function setupOdds() {
  const heroes = S.info.entrants_kind === "heroes" && S.info.has_dice;
  $("#odds-entrant").innerHTML = (heroes ? S.info.entrants.map((e) => `<option value="${esc(e.key)}">${esc(e.title)}</option>`).join("") : "") +
    `<option value="__custom">custom dice…</option>`;
  $("#custom-box").hidden = heroes;
  $("#odds-extra").parentElement.hidden = !heroes;
  $("#odds-table").innerHTML = ""; $("#advice").hidden = true;
  try { Plotly.purge($("#odds-chart")); } catch (e) {}
}
function oddsPayload() {
  const who = $("#odds-entrant").value;
  const p = { game: S.game, dataset: $("#dataset").value, edits: editsDict() };
  if (who === "__custom") Object.assign(p, { custom: true, faces: $("#odds-faces").value, dice: $("#odds-dice").value, target: $("#odds-target").value, rolls: $("#odds-rolls").value });
  else Object.assign(p, { entrant: who, extra: $("#odds-extra").value });
  return p;
}
async function showOdds() {
  clearErrors();
  $("#custom-box").hidden = $("#odds-entrant").value !== "__custom";
  $("#odds-extra").parentElement.hidden = $("#odds-entrant").value === "__custom";
  let d;
  try { d = await api("/api/odds", oddsPayload()); } catch (e) { showErrors(e.errors); return; }
  $("#odds-table").innerHTML = `<tr><th>${esc(d.title)}: target</th>` + d.columns.map((c) => `<th>${esc(c)} roll${c === "1" ? "" : "s"}</th>`).join("") + `<th>exact, ${d.free_rolls} rolls</th></tr>` +
    d.rows.map((r) => `<tr><td>${esc(r.label)} <span class="hint">${esc(r.target)}</span></td>` + r.p.map((p) => `<td>${p.toFixed(3)}</td>`).join("") + `<td>${esc(r.fraction)}</td></tr>`).join("");
  Plotly.react("odds-chart", d.rows.map((r) => ({ type: "scatter", mode: "lines+markers", name: r.label, x: d.columns, y: r.p.map((p) => 100 * p), hovertemplate: `${esc(r.label)}: %{y:.1f}%<extra>%{x} rolls</extra>` })),
    { ...LAYOUT, height: 340, margin: { l: 60, r: 20, t: 40, b: 50 }, title: { text: `${esc(d.title)}: chance of each target with the best keeps, by rolls ("R+k": k rolls bought)`, font: { size: 14 } },
      xaxis: { title: "rolls", type: "category" }, yaxis: { title: "%", range: [0, 100] } }, CONF);
  $("#adv-targets").innerHTML = d.rows.map((r) => `<option value="${esc(r.label)}">`).join("");
  d.faces.sort((a, b) => parseInt(a) - parseInt(b));
  $("#faces-help").textContent = `Faces: ${d.faces.join(", ")}. Give the roll as face numbers in die order (or number:symbol), e.g. ${d.faces.slice(0, d.dice).map((f) => f.split(":")[0]).join(",")}.`;
}
async function advise() {
  clearErrors(["roll", "rolls_left", "adv_target"]);
  const p = { ...oddsPayload(), roll: $("#adv-roll").value, rolls_left: $("#adv-left").value, target: $("#adv-target").value };
  let d;
  try { d = await api("/api/advise", p); } catch (e) { showErrors(e.errors, { target: "adv_target" }); return; }
  const box = $("#advice");
  box.hidden = false;
  box.innerHTML = `Roll ${esc(d.roll.join(" "))}, ${d.rolls_left} reroll(s) left, target ${esc(d.target)}:<br>` +
    (d.stop && d.probability === 1 ? "<b>target met: keep everything</b>" : `<b>keep ${esc(d.keep)}</b> (dice ${d.keep_positions.join(", ") || "none"}) → <b>${(100 * d.probability).toFixed(2)}%</b> = ${esc(d.fraction)}`) +
    (d.alternatives.length ? "<br><span class='meta'>next best: " + d.alternatives.map((a) => `${esc(a.keep)} ${(100 * a.probability).toFixed(2)}%`).join(" · ") + "</span>" : "");
}

// ------------------------------------------------------------------ replay
function setupReplay() {
  $("#replay-seats").innerHTML = seatRowsHtml("rp", Number($("#players").value) || S.info.default_seats);
  $("#replay-text").textContent = ""; $("#replay-nav").hidden = true;
}
async function showReplay() {
  clearErrors();
  const p = { game: S.game, dataset: $("#dataset").value, edits: editsDict(), players: $("#players").value,
    seed: $("#replay-seed").value, index: $("#replay-index").value,
    strategies: $$(".rp-strat").map((e) => e.value) };
  if (S.info.entrants_kind === "heroes") p.entrants = $$(".rp-ent").map((e) => e.value);
  let d;
  try { d = await api("/api/replay", p); } catch (e) { showErrors(e.errors, { seed: "index", players: "index" }); return; }
  S.replay = d.steps; S.step = 0;
  $("#rp-step").max = d.steps.length - 1;
  $("#replay-nav").hidden = false;
  drawStep();
}
function drawStep() {
  const pre = $("#replay-text");
  pre.innerHTML = S.replay.map((s, i) => (i <= S.step ? `<div class="${i === S.step ? "cur" : ""}">${esc(s)}</div>` : "")).join("");
  $("#rp-step").value = S.step;
  $("#rp-pos").textContent = `step ${S.step + 1} of ${S.replay.length}`;
  const cur = pre.querySelector(".cur");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ wiring
$("#game").addEventListener("change", (e) => selectGame(e.target.value));
$("#dataset").addEventListener("change", () => selectGame($("#game").value));
$("#players").addEventListener("change", () => { setupReplay(); setupSeats(); });
$$("input[name=mode]").forEach((r) => r.addEventListener("change", setupSeats));
$("#run").addEventListener("click", run);
$("#cancel").addEventListener("click", cancel);
$("#undo").addEventListener("click", undo);
$("#reset").addEventListener("click", resetEdits);
$("#export").addEventListener("click", exportToml);
// the fix search (analysis.fix.suggest): in the background like a run, with progress and
// cancel; its proposal is loaded as the edit stack (then run on the same seeds)
$("#fix").addEventListener("click", startFix);
async function startFix() {
  clearErrors();
  if (S.job) { try { await api(`/api/run/${S.job}/cancel`, {}); } catch (e) { /* finished meanwhile */ } }
  let r;
  try { r = await api("/api/fix", { ...payload(), band: $("#band").value, fix_games: $("#fix-games").value }); }
  catch (e) { showErrors(e.errors); setProgress(0, 0, "fix search not started: fix the fields marked in red"); return; }
  S.job = r.id;
  $("#cancel").disabled = false;
  pollFix(r.id);
}

async function pollFix(id) {
  let st;
  try { st = await api(`/api/run/${id}`); } catch (e) { showErrors(e.errors); return; }
  if (S.job !== id) return;
  if (st.state === "queued" || st.state === "running") {
    setProgress(st.done, st.total, `${st.phase || "fix search"} · ${fmtN(st.done)} of ${fmtN(st.total)} games · ${st.elapsed.toFixed(1)} s`);
    setTimeout(() => pollFix(id), 250);
    return;
  }
  S.job = null;
  $("#cancel").disabled = true;
  if (st.state === "error") { setProgress(0, 1, "fix search failed"); showErrors({ [st.error.field]: st.error.message }); return; }
  const d = st.result;
  setProgress(1, 1, (st.state === "cancelled" ? "fix search cancelled: the best so far" : "fix search done") +
    `: ${d.candidates} candidates, ${fmtN(d.games)} games in ${d.seconds.toFixed(1)} s`);
  renderFix(d);
}

function renderFix(d) {
  S.fix = d;
  const rate = (r) => `${pct(r.win_rate)}% [${pct(r.win_rate_ci[0])}, ${pct(r.win_rate_ci[1])}]`;
  const base = Object.fromEntries(d.baseline.map((r) => [r.matchup + "|" + r.strategy, r]));
  const changes = d.changes.map((c) => { const it = editable(c.name); return `<li>${esc(it ? it.group + " · " + it.label : c.name)}: ${esc(c.from)} → <b>${esc(c.to)}</b> <span class="hint">cost ${c.cost.toFixed(2)}</span></li>`; }).join("");
  const verdict = d.already_meets ? "the current numbers already meet the band" :
    d.meets_band_on_screening ? `meets ${d.band[0]}–${d.band[1]}% on screening (cost ${d.cost.toFixed(2)})` :
    `no edit set found that meets ${d.band[0]}–${d.band[1]}%: the best misses by ${d.miss_points.toFixed(1)} points (baseline ${d.baseline_miss_points.toFixed(1)})`;
  $("#summary").innerHTML = `<div id="fix-result"><b>Suggested fix</b>: ${esc(verdict)}` +
    (changes ? `<ul id="fix-changes">${changes}</ul>` : "<p>no change proposed</p>") +
    `<table class="fix-rates"><tr><th>matchup</th><th>now</th><th>with the fix</th></tr>` +
    d.best.map((r) => { const b = base[r.matchup + "|" + r.strategy]; return `<tr><td>${esc(r.matchup)} <span class="hint">${esc(r.strategy)}</span></td><td>${b ? rate(b) : ""}</td><td>${rate(r)}</td></tr>`; }).join("") +
    `</table><p class="meta">${esc(d.note)} · ${esc(d.stopped_by)}</p>` +
    (changes ? `<button id="fix-load" class="primary">Load as edits</button>` : "") + "</div>";
  if (changes) $("#fix-load").addEventListener("click", loadFix);
}

function loadFix() {
  const d = S.fix;
  S.edits = Object.entries(d.edits).map(([k, v]) => { const it = editable(k); return { key: k, value: v, label: it ? `${it.group}: ${it.label}` : k }; });
  clearErrors();
  renderStack();
  run();
}
$("#filter").addEventListener("input", (e) => {
  const q = e.target.value.trim().toLowerCase();
  $$(".edit-row").forEach((r) => { r.hidden = q && !r.dataset.search.includes(q); });
  $$("#editables details").forEach((d) => { if (q) d.open = d.querySelectorAll(".edit-row:not([hidden])").length > 0; });
});
$$("#tabs button").forEach((b) => b.addEventListener("click", () => {
  $$("#tabs button").forEach((x) => x.classList.toggle("on", x === b));
  $$(".tab").forEach((t) => { t.hidden = t.id !== "tab-" + b.dataset.tab; });
  if (b.dataset.tab === "results") window.dispatchEvent(new Event("resize"));
}));
$("#odds-entrant").addEventListener("change", showOdds);
$("#odds-go").addEventListener("click", showOdds);
$("#adv-go").addEventListener("click", advise);
$("#replay-go").addEventListener("click", showReplay);
$("#rp-prev").addEventListener("click", () => { S.step = Math.max(0, S.step - 1); drawStep(); });
$("#rp-next").addEventListener("click", () => { S.step = Math.min(S.replay.length - 1, S.step + 1); drawStep(); });
$("#rp-step").addEventListener("input", (e) => { S.step = Number(e.target.value); drawStep(); });
loadGames().catch((e) => showErrors(e.errors || { form: String(e) }));
