// The referee screen: state from /api/state, then every event from /ws.
"use strict";
const $ = (id) => document.getElementById(id);

const screen = {
  lang: "en",
  state: null,
  board: null,
  model: null,
  teach: false,
  selected: null,
  sound: false,
  token: sessionStorage.getItem("smartboard-token") || new URLSearchParams(location.search).get("token") || "",
  bannerTimer: null,
  clock: null,
};

// ---------------------------------------------------------------- start-up
async function fetchJson(url, options) {
  const res = await fetch(url, options);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(body.error || res.statusText), { status: res.status });
  return body;
}

async function load() {
  const [model, state] = await Promise.all([fetchJson("/api/board"), fetchJson("/api/state")]);
  screen.model = model;
  screen.board = new BoardView($("board"), model, state.family);
  screen.board.onSite = onSiteTouched;
  setLanguage(state.language || "en");
  renderState(state);
  renderSideButtons();  // setLanguage drew none: the sides come with the state
  if (state.alert) showBanner(state.alert, true);
  document.body.dataset.ready = "1";
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  let opened = false;
  ws.onopen = async () => {
    opened = true;
    $("connection").classList.add("hidden");
    // Whatever happened while away: reload the state, then follow the stream.
    try { renderState(await fetchJson("/api/state")); } catch (e) { /* the next event will tell */ }
  };
  ws.onmessage = (m) => {
    let event;
    try { event = JSON.parse(m.data); } catch (e) { return; }
    onEvent(event);
  };
  ws.onclose = () => {
    $("connection").textContent = t(screen.lang, "disconnected");
    $("connection").classList.remove("hidden");
    setTimeout(connect, opened ? 500 : 2000);
  };
}

// ---------------------------------------------------------------- events
function onEvent(e) {
  const s = screen.state;
  if (!s || (e.seq && e.seq <= s.seq)) return;  // already in the state we loaded
  s.seq = e.seq || s.seq;
  if (e.position) s.position = e.position;
  if (e.fen) s.fen = e.fen;
  if (e.score) s.score = e.score;
  switch (e.type) {
    case "move": {
      const ply = e.ply || s.moves.length + 1;
      s.moves = s.moves.slice(0, Math.max(0, ply - 1));
      s.moves.push({ ply, side: e.side, notation: e.notation, captured: e.captured || [], points: e.points || 0,
        calculation: e.calculation, from: e.from, to: e.to });
      s.last = { from: e.from, to: e.to, path: e.path || [], captured: e.captured || [] };
      if (e.clock) s.clock = Object.assign({ running: s.position && s.position.to_move }, e.clock);
      s.alert = null;
      if (s.status !== "over") s.status = "playing";
      break;
    }
    case "takeback":
      s.moves = s.moves.slice(0, e.ply || 0);
      s.last = null; s.alert = null; s.result = null; s.status = "playing";
      break;
    case "illegal": s.alert = e; s.status = "illegal"; break;
    case "unclear": case "setup_mismatch": s.alert = e; break;
    case "restored": s.alert = null; if (s.status === "illegal") s.status = "playing"; break;
    case "setup_ok": s.alert = null; if (!s.moves.length) s.status = "playing"; break;
    case "game_over": s.result = { result: e.result, reason: e.reason }; s.status = "over"; s.alert = null; break;
    case "clock": s.clock = Object.assign({}, e.clock || e); break;
    case "info":
      if (e.reason === "language" && e.lang) setLanguage(e.lang);
      if (e.reason === "new_game") { s.moves = []; s.result = null; s.last = null; s.alert = null; s.status = "setup"; }
      break;
  }
  renderState(s);
  if (e.announce) {
    showBanner(e, e.type === "illegal" || e.type === "setup_mismatch" || e.type === "game_over");
    if (e.speech) speak(e.seq, e.announce[screen.lang] && e.announce[screen.lang].speech);
  } else if (e.type === "restored" || e.type === "move") {
    hideBanner();
  }
}

// ---------------------------------------------------------------- rendering
function renderState(s) {
  screen.state = s;
  $("game-name").textContent = t(screen.lang, "game_" + s.game);
  $("status").textContent = t(screen.lang, "status_" + s.status);
  const b = screen.board;
  if (b) {
    b.drawPieces(s.position);
    b.clearHighlights();
    b.highlightLast(s.last);
    if (s.alert) b.highlightAlert(s.alert.squares);
    b.clearHints();
    if (screen.selected) showMovesFor(screen.selected, false);
  }
  renderSides(s);
  renderMoves(s);
  const result = $("result");
  if (s.result) {
    result.textContent = s.result.result + (s.result.reason ? " \u2014 " + s.result.reason : "");
    result.classList.remove("hidden");
  } else {
    result.classList.add("hidden");
  }
}

function renderSides(s) {
  const box = $("sides");
  const sides = s.sides || Object.keys(s.score || {});
  if (box.children.length !== sides.length) {
    box.replaceChildren();
    for (const side of sides) {
      const div = document.createElement("div");
      div.className = `side side-${side}`;
      div.dataset.side = side;
      div.innerHTML = '<div class="name"></div><div class="score"></div><div class="clock"></div><div></div><div class="hand"></div>';
      box.appendChild(div);
    }
  }
  const toMove = s.position && s.position.to_move;
  for (const div of box.children) {
    const side = div.dataset.side;
    div.querySelector(".name").textContent = t(screen.lang, side);
    div.querySelector(".score").textContent = (s.score && s.score[side] !== undefined) ? s.score[side] : 0;
    div.classList.toggle("to-move", side === toMove && s.status !== "over");
    const inHand = s.position && s.position.in_hand ? s.position.in_hand[side] : 0;
    drawHand(div.querySelector(".hand"), side, inHand);
  }
  renderClock(s.clock);
}

// The referee's clock: {"<side>": ms left, "game_left"?: ms, "running": side|null}.
function renderClock(c) {
  if (!(screen.clock && screen.clock.data === c)) screen.clock = c ? { data: c, at: performance.now() } : null;
  tickClock();
}

function formatMs(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000), m = Math.floor(total / 60), sec = total % 60;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

function tickClock() {
  const c = screen.clock;
  const elapsed = c ? performance.now() - c.at : 0;
  for (const div of $("sides").children) {
    const el = div.querySelector(".clock");
    const side = div.dataset.side;
    if (!c || typeof c.data[side] !== "number") { el.textContent = ""; continue; }
    const running = c.data.running === side;
    const ms = c.data[side] - (running ? elapsed : 0);
    el.textContent = formatMs(ms);
    el.classList.toggle("running", running);
    el.classList.toggle("low", ms < 30000);
  }
  if (c && typeof c.data.game_left === "number")
    $("status").textContent = t(screen.lang, "status_" + screen.state.status) + " \u00b7 " +
      formatMs(c.data.game_left - (c.data.running ? elapsed : 0));
}
setInterval(tickClock, 200);

function renderMoves(s) {
  const list = $("moves");
  list.replaceChildren();
  s.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.dataset.ply = m.ply;
    li.className = `move side-${m.side}` + (i === s.moves.length - 1 ? " last" : "");
    li.appendChild(document.createTextNode(m.notation));
    if (m.calculation && m.notation.indexOf("(") < 0) {
      const c = document.createElement("span");
      c.className = "calc";
      c.textContent = m.calculation;
      li.appendChild(c);
    }
    if (m.points) {
      const p = document.createElement("span");
      p.className = "points";
      p.textContent = `+${m.points}`;
      li.appendChild(p);
    }
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

function showBanner(e, sticky) {
  const a = e.announce && (e.announce[screen.lang] || e.announce.en);
  if (!a) return;
  const banner = $("banner");
  banner.dataset.kind = e.announce.kind;
  banner.dataset.seq = e.seq || 0;
  banner.querySelector(".banner-title").textContent = a.title;
  banner.querySelector(".banner-detail").textContent = a.detail || "";
  banner.classList.remove("hidden");
  clearTimeout(screen.bannerTimer);
  if (!sticky) screen.bannerTimer = setTimeout(hideBanner, e.announce.kind === "capture" ? 5000 : 3000);
}

function hideBanner() {
  clearTimeout(screen.bannerTimer);
  $("banner").classList.add("hidden");
}

function setLanguage(lang) {
  screen.lang = lang === "vi" ? "vi" : "en";
  applyI18n(screen.lang);
  $("btn-lang").textContent = screen.lang === "en" ? "VI" : "EN";
  renderSideButtons();
  if (screen.state) renderState(screen.state);
}

// ---------------------------------------------------------------- speech
// One announcement at a time and only the newest: one still waiting when a newer
// arrives is dropped, and one more than 4 s old is not started.
const voice = { audio: new Audio(), playing: false, pending: null };
voice.audio.addEventListener("ended", () => { voice.playing = false; playNext(); });
voice.audio.addEventListener("error", () => { voice.playing = false; playNext(); });

function speak(seq, text) {
  if (!screen.sound || !text) return;
  voice.pending = { seq, at: performance.now() };
  if (!voice.playing) playNext();
}

function playNext() {
  const next = voice.pending;
  voice.pending = null;
  if (!next || performance.now() - next.at > 4000) return;
  voice.playing = true;
  voice.audio.src = `/api/speech?seq=${next.seq}&lang=${screen.lang}`;
  voice.audio.play().catch(() => { voice.playing = false; });
}

// ---------------------------------------------------------------- teaching mode
function pieceAt(site) {
  const s = screen.state;
  return s && s.position && (s.position.pieces || []).find((p) => p.site === site);
}

function moveLabel(m) {
  if (m.calculation) return m.calculation;
  if (screen.state.family === "cotoan" && m.pair && m.op) {
    const front = m.pair[0] === m.from ? m.pair[1] : m.pair[0];
    const a = pieceAt(m.from), b = pieceAt(front);
    if (a && b) {
      const df = Math.abs(front.charCodeAt(0) - m.to.charCodeAt(0));
      const dr = Math.abs(parseInt(front.slice(1), 10) - parseInt(m.to.slice(1), 10));
      return cotoanCalc(parseInt(a.label, 10), parseInt(b.label, 10), m.op, Math.max(df, dr));
    }
  }
  return m.points ? `+${m.points}` : "";
}

async function onSiteTouched(site) {
  if (!screen.teach) return;
  if (screen.selected === site || !pieceAt(site)) {
    screen.selected = null;
    screen.board.clearHints();
    renderState(screen.state);
    return;
  }
  screen.selected = site;
  await showMovesFor(site, true);
}

async function showMovesFor(site, fresh) {
  const b = screen.board;
  let reply;
  try {
    reply = await fetchJson(`/api/moves?from=${encodeURIComponent(site)}&fen=${encodeURIComponent(screen.state.fen)}`);
  } catch (e) {
    $("teach-hint").textContent = e.message;
    return;
  }
  if (screen.selected !== site) return;
  b.clearHints();
  b.select(site);
  const list = $("teach-list");
  list.replaceChildren();
  for (const m of reply.moves) {
    const capture = m.captured && m.captured.length;
    const label = capture ? moveLabel(m) : "";
    if (capture) for (const c of m.captured) b.hintCapture(m.from || site, c, label);
    else b.hintMove(m.to);
    const li = document.createElement("li");
    li.textContent = m.notation + (label && m.notation.indexOf("(") < 0 ? `  (${label})` : "");
    list.appendChild(li);
  }
  $("teach-hint").textContent = reply.moves.length ? "" : t(screen.lang, "no_moves");
  if (fresh) list.scrollTop = 0;
}

async function showAllCaptures() {
  const b = screen.board;
  screen.selected = null;
  b.clearHints();
  let reply;
  try {
    reply = await fetchJson(`/api/moves?captures=1&fen=${encodeURIComponent(screen.state.fen)}`);
  } catch (e) {
    $("teach-hint").textContent = e.message;
    return;
  }
  const list = $("teach-list");
  list.replaceChildren();
  for (const m of reply.moves) {
    const label = moveLabel(m);
    for (const c of m.captured || []) b.hintCapture(m.from || m.to, c, label);
    const li = document.createElement("li");
    li.textContent = m.notation + (label && m.notation.indexOf("(") < 0 ? `  (${label})` : "");
    list.appendChild(li);
  }
  const side = screen.state.position && screen.state.position.to_move;
  $("teach-hint").textContent = reply.moves.length ? `${t(screen.lang, "captures_for")} ${t(screen.lang, side)}`
                                                    : t(screen.lang, "no_captures");
}

// ---------------------------------------------------------------- operator
async function command(body) {
  const reply = $("op-reply");
  try {
    const r = await fetchJson("/api/command", { method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + screen.token } });
    reply.textContent = "\u2713 " + (r.message || body.command);
  } catch (e) {
    reply.textContent = "\u2717 " + e.message;
  }
}

function renderSideButtons() {
  const row = $("op-side-row");
  if (!row || !screen.state) return;
  row.replaceChildren();
  for (const side of screen.state.sides || []) {
    for (const cmd of ["offer_draw", "accept_draw", "resign", "flag"]) {
      const btn = document.createElement("button");
      btn.textContent = `${t(screen.lang, side)} ${t(screen.lang, cmd)}`;
      btn.addEventListener("click", () => command({ command: cmd, side }));
      row.appendChild(btn);
    }
  }
}

async function unlock() {
  screen.token = $("token").value.trim() || screen.token;
  try {
    await fetchJson("/api/auth", { headers: { Authorization: "Bearer " + screen.token } });
    sessionStorage.setItem("smartboard-token", screen.token);
    $("op-commands").disabled = false;
    $("token-state").textContent = t(screen.lang, "token_ok");
  } catch (e) {
    $("op-commands").disabled = true;
    $("token-state").textContent = t(screen.lang, "token_bad");
  }
}

function wire() {
  $("btn-lang").addEventListener("click", async () => {
    const next = screen.lang === "en" ? "vi" : "en";
    // With the token the whole hall switches (and the voice); without it only this screen.
    if (screen.token && !$("op-commands").disabled) await command({ command: "language", lang: next });
    else setLanguage(next);
  });
  $("btn-sound").addEventListener("click", () => {
    screen.sound = !screen.sound;
    $("btn-sound").setAttribute("aria-pressed", String(screen.sound));
    $("btn-sound").dataset.i18n = screen.sound ? "sound_on" : "sound_off";
    $("btn-sound").textContent = t(screen.lang, $("btn-sound").dataset.i18n);
  });
  $("btn-teach").addEventListener("click", () => {
    screen.teach = !screen.teach;
    $("btn-teach").setAttribute("aria-pressed", String(screen.teach));
    $("teach-panel").classList.toggle("hidden", !screen.teach);
    $("board").classList.toggle("teach", screen.teach);
    screen.selected = null;
    if (screen.board) screen.board.clearHints();
  });
  $("btn-captures").addEventListener("click", showAllCaptures);
  $("btn-operator").addEventListener("click", () => {
    $("token").value = screen.token;
    $("camera").src = "/api/camera.mjpeg";
    $("operator").showModal();
    if (screen.token) unlock();
  });
  $("operator").addEventListener("close", () => { $("camera").removeAttribute("src"); });
  $("btn-token").addEventListener("click", unlock);
  for (const btn of document.querySelectorAll("#op-commands button[data-cmd]")) {
    btn.addEventListener("click", () => {
      const cmd = btn.dataset.cmd, body = { command: cmd };
      if ((cmd === "confirm" || cmd === "correct") && $("op-move").value.trim()) body.move = $("op-move").value.trim();
      if (cmd === "declare") body.result = $("op-result").value;
      if (cmd === "set_clock") {
        const ms = Math.round(Number($("op-minutes").value) * 60000);
        for (const side of screen.state.sides || []) body[side] = ms;
      }
      command(body);
    });
  }
}

wire();
load().then(connect).catch((e) => {
  $("connection").textContent = "smartboard: " + e.message;
  $("connection").classList.remove("hidden");
  setTimeout(() => location.reload(), 3000);
});
