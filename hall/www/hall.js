// The hall overview: every board from /api/boards, refreshed every second;
// standings from /api/standings; a click shows one board's moves and records.
"use strict";

const $ = (id) => document.getElementById(id);
let selected = null;

function text(tag, cls, content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content !== undefined) e.textContent = content;
  return e;
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

function card(b) {
  const c = text("div", "card " + b.status + (b.alert ? " alert" : ""));
  c.dataset.board = b.board;
  const head = text("div", "head");
  head.append(text("span", "", `Board ${b.board}`), text("span", "", b.game || "?"));
  c.append(head);
  if (b.players) c.append(text("div", "players", `${b.players[0]} – ${b.players[1]}`));
  const state = b.result ? `${b.result} ${b.reason || ""}` : b.status;
  c.append(text("div", "status", `${state} · ${b.moves} moves`));
  c.append(text("div", "score", scoreText(b.score)));
  if (b.last) c.append(text("div", "last", `last: ${b.last.notation}`));
  if (b.clock) c.append(text("div", "clock", clockText(b.clock)));
  if (b.alert) c.append(text("div", "alert-text", (b.alert.type || "alert") + (b.alert.reason ? ": " + b.alert.reason : "")));
  if (b.last_error) c.append(text("div", "alert-text", b.last_error));
  c.append(text("div", "fen", b.fen || ""));
  c.addEventListener("click", () => { selected = b.board; showDetail(); });
  return c;
}

async function showDetail() {
  if (selected === null) return;
  const res = await fetch(`/api/board/${selected}`);
  if (!res.ok) return;
  const b = await res.json();
  const d = $("detail");
  d.replaceChildren();
  d.append(text("h3", "", `Board ${b.board}: ${b.game || "?"}` + (b.players ? ` — ${b.players[0]} vs ${b.players[1]}` : "")));
  d.append(text("div", "", `${b.status}${b.result ? " " + b.result : ""} · ${scoreText(b.score)}`));
  d.append(text("div", "fen", b.fen));
  const ol = text("ol");
  for (const m of b.move_list || []) ol.append(text("li", "", m.record || m.notation));
  d.append(ol);
  const links = text("div");
  for (const f of ["pdn", "txt", "json"]) {
    const a = text("a", "", f.toUpperCase());
    a.href = `/api/board/${b.board}/record.${f}`;
    a.download = "";
    links.append(a, document.createTextNode(" "));
  }
  d.append(links);
}

async function refresh() {
  try {
    const [boards, standings] = await Promise.all([
      fetch("/api/boards").then((r) => r.json()),
      fetch("/api/standings").then((r) => r.json()),
    ]);
    $("boards").replaceChildren(...boards.map(card));
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
    showDetail();
  } catch (e) {
    $("summary").textContent = "hall server unreachable";
  }
}

refresh();
setInterval(refresh, 1000);
