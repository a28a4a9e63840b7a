// Draws the board from its model (GET /api/board) and the pieces from the
// position the server reads out of each FEN. Nothing here knows a board: sites,
// lines, squares, the river, the Morris squares all come from the model.
"use strict";
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// Dots of a Cờ toán piece: the faces of dice, on a 3×3 grid.
const DOT_LAYOUT = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  7: [[-1, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [1, 1]],
  8: [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
  9: [[-1, -1], [0, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
};

class BoardView {
  constructor(svg, model, family) {
    this.svg = svg;
    this.model = model;
    this.family = family;
    this.sites = model.sites;
    this.r = (model.piece_mm || this.spacing() * 0.8) / 2;
    svg.setAttribute("viewBox", `0 0 ${model.width_mm} ${model.height_mm}`);
    svg.replaceChildren();
    const defs = svgEl("defs", {}, svg);
    const marker = svgEl("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5,
      markerHeight: 5, orient: "auto-start-reverse" }, defs);
    svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#ff1744" }, marker);
    this.layers = {};
    for (const name of ["shapes", "highlight", "pieces", "hints", "hits"]) this.layers[name] = svgEl("g", { class: name }, svg);
    this.drawShapes();
    this.drawHitAreas();
  }

  spacing() {
    const pts = Object.values(this.sites);
    let best = Infinity;
    for (let i = 0; i < pts.length; i++)
      for (let j = i + 1; j < pts.length; j++) {
        const d = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]);
        if (d > 1e-6 && d < best) best = d;
      }
    return isFinite(best) ? best : 30;
  }

  // Filled shapes take the fill of their style (f-<style>), lines its stroke (k-<style>),
  // with the model's width in millimetres.
  drawShapes() {
    const g = this.layers.shapes;
    for (const s of this.model.shapes || []) {
      const style = s.style || "ink";
      const fill = "f-" + style, stroke = "k-" + style;
      const width = s.width ? { "stroke-width": s.width } : {};
      if (s.kind === "rect") svgEl("rect", { x: s.x, y: s.y, width: s.w, height: s.h, class: fill }, g);
      else if (s.kind === "polygon") svgEl("polygon", { points: s.points.map((p) => p.join(",")).join(" "), class: fill }, g);
      else if (s.kind === "circle") svgEl("circle", { cx: s.center[0], cy: s.center[1], r: s.r, class: fill }, g);
      else if (s.kind === "line")
        svgEl("line", Object.assign({ x1: s.from[0], y1: s.from[1], x2: s.to[0], y2: s.to[1], class: stroke }, width), g);
      else if (s.kind === "polyline")
        svgEl("polyline", Object.assign({ points: s.points.map((p) => p.join(",")).join(" "), class: stroke }, width), g);
      else if (s.kind === "text") {
        const el = svgEl("text", { x: s.at[0], y: s.at[1], class: "t-" + style, "text-anchor": "middle",
          "dominant-baseline": "central" }, g);
        if (s.size) el.style.fontSize = s.size + "px";
        el.textContent = s.text;
      }
    }
  }

  drawHitAreas() {
    for (const [name, p] of Object.entries(this.sites)) {
      const c = svgEl("circle", { cx: p[0], cy: p[1], r: this.r, class: "site-hit", "data-site": name }, this.layers.hits);
      c.addEventListener("click", () => this.onSite && this.onSite(name));
    }
  }

  // position: {"pieces": [{site, side, label?, king?, hero?, stack?}], "in_hand"?}
  drawPieces(position) {
    const g = this.layers.pieces;
    g.replaceChildren();
    for (const p of (position && position.pieces) || []) {
      const at = this.sites[p.site];
      if (!at) continue;
      const piece = svgEl("g", { class: `piece piece-${p.side}`, "data-site": p.site,
        transform: `translate(${at[0]},${at[1]})` }, g);
      drawPiece(piece, p, this.r, this.family);
    }
  }

  clearHighlights() { this.layers.highlight.replaceChildren(); }

  mark(site, cls) {
    const at = this.sites[site];
    if (!at) return;
    svgEl("circle", { cx: at[0], cy: at[1], r: this.r * 1.12, class: cls, "data-site": site }, this.layers.highlight);
  }

  highlightLast(last) {
    if (!last) return;
    if (last.from) this.mark(last.from, "hl-from");
    for (const s of last.path || []) if (s !== last.from && s !== last.to) this.mark(s, "hl-from");
    if (last.to) this.mark(last.to, "hl-to");
    for (const s of last.captured || []) this.mark(s, "hl-captured");
  }

  highlightAlert(squares) {
    for (const s of squares || []) this.mark(s, "hl-alert");
  }

  clearHints() { this.layers.hints.replaceChildren(); }

  hintMove(to) {
    const at = this.sites[to];
    if (at) svgEl("circle", { cx: at[0], cy: at[1], r: this.r * 0.3, class: "hint-move", "data-hint": to }, this.layers.hints);
  }

  hintCapture(from, to, label) {
    const a = this.sites[from], b = this.sites[to];
    if (!b) return;
    svgEl("circle", { cx: b[0], cy: b[1], r: this.r * 1.05, class: "hint-capture", "data-hint": to }, this.layers.hints);
    if (a && from !== to) {
      const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1, k = this.r / len;
      svgEl("line", { x1: a[0] + dx * k, y1: a[1] + dy * k, x2: b[0] - dx * k, y2: b[1] - dy * k, class: "hint-arrow" },
        this.layers.hints);
    }
    if (label) {
      const el = svgEl("text", { x: b[0], y: b[1] - this.r * 1.25, class: "hint-text" }, this.layers.hints);
      el.textContent = label;
    }
  }

  select(site) { this.mark(site, "hl-selected"); }
}

function drawPiece(g, p, r, family) {
  svgEl("circle", { r: r, class: "piece-body" }, g);
  if (family === "cotoan" && p.label !== undefined) {
    const n = parseInt(p.label, 10);
    if (n === 0) {
      svgEl("circle", { r: r * 0.45, class: "piece-crown", style: "stroke:#fff" }, g);
    } else {
      const step = r * 0.42, dot = r * 0.13;
      for (const [dx, dy] of DOT_LAYOUT[n] || []) svgEl("circle", { cx: dx * step, cy: dy * step, r: dot, class: "piece-dot" }, g);
    }
    g.setAttribute("data-label", p.label);
  } else if (family === "cotulenh" && p.label) {
    const text = svgEl("text", { class: "piece-label", "font-size": r * 1.1 }, g);
    text.textContent = p.label;
    if (p.stack && p.stack.length > 1) {
      svgEl("circle", { cx: r * 0.72, cy: -r * 0.72, r: r * 0.42, class: "stack-badge" }, g);
      const c = svgEl("text", { x: r * 0.72, y: -r * 0.72, class: "stack-count" }, g);
      c.textContent = p.stack.length;
      const title = svgEl("title", {}, g);
      title.textContent = p.stack.join(" + ");
    }
    if (p.hero) svgEl("circle", { r: r * 1.12, class: "piece-hero" }, g);
    g.setAttribute("data-label", p.label);
  }
  if (p.king) {
    svgEl("circle", { r: r * 0.62, class: "piece-crown" }, g);
    svgEl("path", { d: `M${-r * 0.4},${r * 0.2} L${-r * 0.4},${-r * 0.25} L${-r * 0.2},0 L0,${-r * 0.35} L${r * 0.2},0 ` +
      `L${r * 0.4},${-r * 0.25} L${r * 0.4},${r * 0.2} Z`, class: "piece-crown" }, g);
    g.setAttribute("data-king", "1");
  }
}

// A small row of stones for the pieces a Morris player still holds.
function drawHand(container, side, count) {
  container.replaceChildren();
  if (!count) return;
  const w = 16 * count;
  const svg = svgEl("svg", { viewBox: `0 0 ${w} 16`, width: w, class: `hand-${side}` }, container);
  for (let i = 0; i < count; i++) {
    const g = svgEl("g", { class: `piece piece-${side}`, transform: `translate(${8 + 16 * i},8)` }, svg);
    svgEl("circle", { r: 6.5, class: "piece-body" }, g);
  }
}

// The Cờ toán calculation of a capture, from the numbers on the pair (RULES.md §3).
function cotoanCalc(a, b, op, distance) {
  const sym = { "+": "+", "-": "\u2212", "*": "\u00d7", "/": "\u00f7" }[op] || op;
  let result, rest = 0, value;
  if (op === "+") result = a + b;
  else if (op === "-") result = a - b;
  else if (op === "*") result = a * b;
  else if (op === "/" && b) { result = Math.floor(a / b); rest = a % b; }
  else return "";
  if (op === "/") value = rest ? (distance === result && distance !== rest ? result : rest) : result;
  else value = result % 10;
  let s = `${a} ${sym} ${b} = ${result}`;
  if (op === "/" && rest) s += ` r ${rest}`;
  if (value !== result || (op === "/" && rest)) s += ` \u2192 ${value}`;
  return s;
}
