// The hall overview: every board from /api/boards as a card with a small live
// diagram, refreshed every second; standings from /api/standings; a click on a
// card opens that board enlarged: the referee's own screen for it.
// Diagrams are drawn from the game's board model (/api/model/GAME, the
// configs/boards file the referee's screen and the printed boards use too) with
// the pieces the hall's own copy of the game says stand on each site.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const models = {};     // game -> board model, or a pending promise
let boards = [];
let selected = null;   // the enlarged board's number

const PAINT = { light: "#f0d9b5", dark: "#b58863", ink: "#333", water: "#9cc9ea", land: "#e3efc9" };

function text(tag, cls, content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content !== undefined) e.textContent = content;
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function model(game) {
  if (!game) return null;
  if (!(game in models)) {
    models[game] = null;
    fetch(`/api/model/${encodeURIComponent(game)}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((m) => { models[game] = m; if (m) render(); })
      .catch(() => {});
  }
  return models[game];
}

// Pieces: the side's letter gives the colour (first player light or red, second
// dark or blue), the kind character (king, number, piece letter) is written on it.
function pieceColours(b, token) {
  const first = token[0] === "W" || token[0] === "R";
  const redBlue = b.sides && b.sides[0] === "red";
  if (redBlue) return first ? ["#c0392b", "#fff"] : ["#2468b4", "#fff"];
  return first ? ["#fafafa", "#222"] : ["#222", "#fafafa"];
}

function diagram(b, big) {
  const m = model(b.game);
  if (!m) return text("div", "diagram-missing", b.fen || "");
  const o = m.outline;
  const pad = m.lattice.pitch_mm * 0.55;
  const xs = [o.near_left[0], o.near_right[0], o.far_left[0], o.far_right[0]];
  const ys = [o.near_left[1], o.near_right[1], o.far_left[1], o.far_right[1]];
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
  const w = Math.max(...xs) - x0 + pad, h = Math.max(...ys) - y0 + pad;
  const root = svg("svg", { viewBox: `${x0} ${y0} ${w} ${h}`, class: big ? "diagram big" : "diagram" });
  root.append(svg("rect", { x: x0, y: y0, width: w, height: h, fill: "#ddd" }));
  for (const s of m.drawing) {
    const pts = (s.polygon || s.line || []).map((p) => p.join(",")).join(" ");
    if (s.polygon) root.append(svg("polygon", { points: pts, fill: PAINT[s.fill] || "#999" }));
    else if (s.line) root.append(svg("polyline", { points: pts, fill: "none", stroke: PAINT[s.stroke] || "#333", "stroke-width": s.width }));
    else if (s.circle) root.append(svg("circle", { cx: s.circle[0], cy: s.circle[1], r: s.r, fill: PAINT[s.fill] || "#333" }));
  }
  const r = m.lattice.pitch_mm * (m.kind === "lines" ? 0.42 : 0.4);
  const last = b.last || {};
  const marked = new Set([last.from, last.to, ...(last.path || [])].filter((x) => x !== undefined && x !== null).map(String));
  for (const name of marked) {
    const c = m.sites[name];
    if (c) root.append(svg("circle", { cx: c[0], cy: c[1], r: r * 1.18, fill: "none", stroke: "#f1c40f", "stroke-width": r * 0.22 }));
  }
  for (const [name, token] of Object.entries(b.sites || {})) {
    const c = m.sites[name];
    if (!c) continue;
    const [fill, ink] = pieceColours(b, token);
    root.append(svg("circle", { cx: c[0], cy: c[1], r, fill, stroke: "#555", "stroke-width": r * 0.08 }));
    if (token.length > 1) {
      const t = svg("text", { x: c[0], y: c[1] + r * 0.38, "text-anchor": "middle", "font-size": r * 1.05, fill: ink, "font-weight": "bold" });
      t.textContent = token.slice(1);
      root.append(t);
    }
  }
  return root;
}

function scoreText(score) {
  if (!score) return "";
  return Object.entries(score).map(([side, n]) => `${side} ${n}`).join(" · ");
}

function clockText(clock) {
  if (!clock) return "";
  const parts = [];
  for (const [k, v] of Object.entries(clock)) {
    if (typeof v !== "number") continue;
    const s = Math.max(0, Math.round(v / 1000));
    parts.push(`${k} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`);
  }
  return parts.join(" ");
}

function alertText(b) {
  if (b.alert) return (b.alert.type || "alert") + (b.alert.reason ? ": " + b.alert.reason : "");
  return b.last_error || "";
}

function card(b) {
  const c = text("div", "card " + b.status + (b.alert ? " alert" : ""));
  c.dataset.board = b.board;
  const head = text("div", "head");
  head.append(text("span", "", `Board ${b.board}`), text("span", "", b.game || "?"));
  c.append(head);
  if (b.players) c.append(text("div", "players", `${b.players[0]} – ${b.players[1]}`));
  c.append(diagram(b, false));
  const state = b.result ? `${b.result} ${b.reason || ""}` : b.status;
  c.append(text("div", "status", `${state} · ${b.moves} moves`));
  c.append(text("div", "score", scoreText(b.score)));
  if (b.last) c.append(text("div", "last", `last: ${b.last.notation}`));
  if (b.clock) c.append(text("div", "clock", clockText(b.clock)));
  if (alertText(b)) c.append(text("div", "alert-text", alertText(b)));
  c.addEventListener("click", () => openBoard(b.board));
  return c;
}

// One board enlarged over the overview: the referee's own screen for that board
// (served by the hall on a port of its own, /api/board/N/screen) under a line of
// the hall's facts and record links; when no screen can be had, the hall's own
// big diagram with the clocks and the moves. Escape or a click outside closes it.
let screenOf = null;   // the board whose screen is in the frame

function recordLinks(b) {
  const links = text("div", "links", "records: ");
  for (const f of ["pdn", "txt", "json"]) {
    if (f === "pdn" && !["brazilian", "international", "english"].includes(b.game)) continue;
    const a = text("a", "", f.toUpperCase());
    a.href = `/api/board/${b.board}/record.${f}`;
    a.download = "";
    links.append(a, document.createTextNode(" "));
  }
  return links;
}

function closeBoard() {
  selected = null;
  screenOf = null;
  $("enlarged").hidden = true;
  $("enlarged-board").replaceChildren();
}

function openBoard(n) {
  selected = n;
  screenOf = null;
  $("enlarged-board").replaceChildren();
  showBoard();
}

async function showBoard() {
  if (selected === null) return;
  const n = selected;
  let b;
  try {
    const res = await fetch(`/api/board/${n}`);
    if (!res.ok) return;
    b = await res.json();
  } catch (e) { return; }
  if (selected !== n) return;
  const box = $("enlarged-board");
  box.className = "enlarged " + b.status + (b.alert ? " alert" : "");
  const head = text("div", "head");
  head.append(text("h2", "", `Board ${b.board}: ${b.game || "?"}` + (b.players ? ` — ${b.players[0]} vs ${b.players[1]}` : "")));
  head.append(recordLinks(b));
  const close = text("button", "close", "×");
  close.addEventListener("click", closeBoard);
  head.append(close);
  if (screenOf === n) {  // the referee's screen updates itself; only the line above it is redrawn
    box.firstChild.replaceWith(head);
    return;
  }
  let port = null;
  try {
    const res = await fetch(`/api/board/${n}/screen`);
    if (res.ok) port = (await res.json()).port;
  } catch (e) { /* the hall's own view below */ }
  if (selected !== n) return;
  box.replaceChildren(head);
  if (port) {
    screenOf = n;
    const frame = document.createElement("iframe");
    frame.className = "screen";
    frame.src = `${location.protocol}//${location.hostname}:${port}/`;
    frame.title = `the referee's screen of board ${n}`;
    box.append(frame);
  } else {
    const body = text("div", "body");
    body.append(diagram(b, true));
    const side = text("div", "facts");
    side.append(text("div", "status", b.result ? `${b.result} ${b.reason || ""}` : `${b.status}` + (b.to_move ? `, ${b.to_move} to move` : "")));
    side.append(text("div", "score", scoreText(b.score)));
    if (b.clock) side.append(text("div", "clock big", clockText(b.clock)));
    if (b.last) side.append(text("div", "last", `last move: ${b.last.notation}`));
    if (alertText(b)) side.append(text("div", "alert-text", alertText(b)));
    const ol = text("ol", "moves");
    for (const m of b.move_list || []) ol.append(text("li", "", m.record || m.notation));
    side.append(ol);
    body.append(side);
    box.append(body);
  }
  $("enlarged").hidden = false;
}

function render() {
  $("boards").replaceChildren(...boards.map(card));
}

async function refresh() {
  try {
    const [list, standings] = await Promise.all([
      fetch("/api/boards").then((r) => r.json()),
      fetch("/api/standings").then((r) => r.json()),
    ]);
    boards = list;
    render();
    const counts = {};
    for (const b of boards) counts[b.status] = (counts[b.status] || 0) + 1;
    $("summary").textContent = `${boards.length} boards · ` + Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(" · ");
    if (standings.event) $("title").textContent = `${standings.event}` + (standings.round ? `, round ${standings.round}` : "");
    const body = $("standings").querySelector("tbody");
    body.replaceChildren(...standings.standings.map((r) => {
      const tr = text("tr");
      tr.append(text("td", "", r.rank), text("td", "", r.player), text("td", "", r.points), text("td", "", r.played));
      return tr;
    }));
    showBoard();
  } catch (e) {
    $("summary").textContent = "hall server unreachable";
  }
}

$("enlarged").addEventListener("click", (e) => { if (e.target === $("enlarged")) closeBoard(); });
document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeBoard(); });
refresh();
setInterval(refresh, 1000);
