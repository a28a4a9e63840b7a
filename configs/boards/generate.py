#!/usr/bin/env python3
"""Writes configs/boards/<game>.json, the board model of every game.

The JSON files are the data everything reads (the C++ loader in
calibration/board_model.cpp, vision, the renderer, the display). This script
only records how their numbers were chosen, so a club can change a size and
regenerate: `python3 configs/boards/generate.py`.

Frame: millimetres on the board sheet, origin at its far-left corner as the
first player (White / Red) sees it, x to that player's right, y towards them.
So a printed page has the first player at the bottom.

Layout of every sheet: the playing area, a margin around it (pieces on line
boards overhang the outer lines), then a ring of ArUco markers: one at each
corner of the sheet and one in the middle of each side, so a hand reaching in
from any side leaves markers on at least three sides. Markers are about one
square wide, so they stay detectable at the smallest camera scale the vision
supports (30 px per square).
"""
import json
import os

VERSION = 1
DICTIONARY = "DICT_4X4_100"
GAP = 5.0     # playing area (or margin) edge to marker: the marker's white quiet zone
OUTER = 4.0   # marker to sheet edge
LINE = 0.8    # ink line width, mm
FRAME = 1.2   # outer frame of a board

GAMES = ["brazilian", "international", "english", "morris9", "morris3", "morris6", "morris12", "cotoan",
         "cotulenh"]


def r(v):
    return round(v, 3)


def pt(x, y):
    return [r(x), r(y)]


def files_letters(n):
    return "abcdefghijklmnopqrstuvwxyz"[:n]


class Sheet:
    """Places a playing area of size (w, h) with margin `margin` and a marker ring of size `marker`."""

    def __init__(self, w, h, margin, marker):
        self.marker = marker
        ring = GAP + marker + OUTER
        self.x0 = ring + margin
        self.y0 = ring + margin
        self.w, self.h = w, h
        self.width = w + 2 * (margin + ring)
        self.height = h + 2 * (margin + ring)

    def markers(self, first_id):
        m = self.marker
        lo_x, hi_x = OUTER + m / 2, self.width - OUTER - m / 2
        lo_y, hi_y = OUTER + m / 2, self.height - OUTER - m / 2
        mid_x, mid_y = self.width / 2, self.height / 2
        # Clockwise from the far-left corner.
        centres = [(lo_x, lo_y), (mid_x, lo_y), (hi_x, lo_y), (hi_x, mid_y), (hi_x, hi_y), (mid_x, hi_y),
                   (lo_x, hi_y), (lo_x, mid_y)]
        return {str(first_id + i): pt(x, y) for i, (x, y) in enumerate(centres)}


def rect(x, y, w, h, paint):
    return {"rect": [r(x), r(y), r(w), r(h)], "fill": paint}


def line(points, width=LINE, paint="ink"):
    return {"line": [pt(x, y) for x, y in points], "stroke": paint, "width": width}


def frame(x, y, w, h, width=FRAME):
    return line([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], width)


# ---------------------------------------------------------------------------------------------------------
# Draughts: the dark squares are numbered (PDN) from the far row, left to right as the first player sees it;
# the near-left corner square (a1) is dark.

def draughts(game, title, n, pitch, first_id):
    s = Sheet(n * pitch, n * pitch, 0.0, pitch)
    drawing, sites = [], {}
    number = 0
    for row in range(n):  # row 0 = far row (rank n)
        rank = n - row
        for col in range(n):
            dark = (col + rank) % 2 == 1  # a1: col 0, rank 1 → dark
            x, y = s.x0 + col * pitch, s.y0 + row * pitch
            drawing.append(rect(x, y, pitch, pitch, "dark" if dark else "light"))
            if dark:
                number += 1
                sites[str(number)] = pt(x + pitch / 2, y + pitch / 2)
    drawing.append(frame(s.x0, s.y0, s.w, s.h))
    return model(game, title, "squares", s, n, n, pitch, sites, drawing, first_id, square_area(s))


def square_area(s):
    return {"near_left": pt(s.x0, s.y0 + s.h), "near_right": pt(s.x0 + s.w, s.y0 + s.h),
            "far_right": pt(s.x0 + s.w, s.y0), "far_left": pt(s.x0, s.y0)}


def lattice_area(s, files, ranks):
    # Line boards: the corner sites (CONTRACT.md --corners).
    return {"near_left": pt(s.x0, s.y0 + s.h), "near_right": pt(s.x0 + s.w, s.y0 + s.h),
            "far_right": pt(s.x0 + s.w, s.y0), "far_left": pt(s.x0, s.y0)}


def model(game, title, kind, s, files, ranks, pitch, sites, drawing, first_id, area, outline=None):
    return {
        "version": VERSION,
        "game": game,
        "title": title,
        "kind": kind,
        "size_mm": [r(s.width), r(s.height)],
        "lattice": {"files": files, "ranks": ranks, "pitch_mm": pitch},
        "playing_area": area,
        "outline": outline or area,
        "sites": sites,
        "drawing": drawing,
        "markers": {"dictionary": DICTIONARY, "size_mm": s.marker, "centres": s.markers(first_id)},
    }


# ---------------------------------------------------------------------------------------------------------
# Morris boards: points on an n×n lattice named a1… from the first player's near-left corner.

def morris(game, title, n, pitch, marker, first_id, points, segments):
    overhang = 14.0  # half a piece beyond the outer square
    s = Sheet((n - 1) * pitch, (n - 1) * pitch, overhang, marker)
    letters = files_letters(n)

    def at(name):
        f, k = letters.index(name[0]), int(name[1:]) - 1
        return (s.x0 + f * pitch, s.y0 + (n - 1 - k) * pitch)

    drawing = [rect(s.x0 - overhang, s.y0 - overhang, s.w + 2 * overhang, s.h + 2 * overhang, "light")]
    for seg in segments:
        drawing.append(line([at(p) for p in seg], 1.5))
    for p in points:
        x, y = at(p)
        drawing.append({"circle": pt(x, y), "r": 4.0, "fill": "ink"})
    left, top = s.x0 - overhang, s.y0 - overhang
    right, bottom = s.x0 + s.w + overhang, s.y0 + s.h + overhang
    drawing.append(frame(left, top, right - left, bottom - top))
    outline = {"near_left": pt(left, bottom), "near_right": pt(right, bottom), "far_right": pt(right, top),
               "far_left": pt(left, top)}
    sites = {p: pt(*at(p)) for p in points}
    return model(game, title, "lines", s, n, n, pitch, sites, drawing, first_id, lattice_area(s, n, n), outline)


MORRIS9_POINTS = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4",
                  "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"]
MORRIS9_LINES = [["a1", "g1", "g7", "a7", "a1"], ["b2", "f2", "f6", "b6", "b2"], ["c3", "e3", "e5", "c5", "c3"],
                 ["d1", "d3"], ["d5", "d7"], ["a4", "c4"], ["e4", "g4"]]
MORRIS12_LINES = MORRIS9_LINES + [["a1", "c3"], ["g1", "e3"], ["g7", "e5"], ["a7", "c5"]]
MORRIS6_POINTS = ["a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3", "d3", "e3", "b2", "c2", "d2", "a1", "c1", "e1"]
MORRIS6_LINES = [["a1", "e1", "e5", "a5", "a1"], ["b2", "d2", "d4", "b4", "b2"], ["c1", "c2"], ["c4", "c5"],
                 ["a3", "b3"], ["d3", "e3"]]
MORRIS3_POINTS = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
MORRIS3_LINES = [["a1", "c1", "c3", "a3", "a1"], ["a2", "c2"], ["b1", "b3"], ["a1", "c3"], ["c1", "a3"]]


# ---------------------------------------------------------------------------------------------------------
# Cờ toán: 9 files × 11 ranks of squares, all alike; e2 and e10 (the squares of the 0 pieces) carry a diagonal.

def cotoan(first_id):
    pitch, files, ranks = 24.0, 9, 11
    s = Sheet(files * pitch, ranks * pitch, 0.0, 22.0)
    letters = files_letters(files)
    drawing = [rect(s.x0, s.y0, s.w, s.h, "light")]
    for f in range(1, files):
        x = s.x0 + f * pitch
        drawing.append(line([(x, s.y0), (x, s.y0 + s.h)]))
    for k in range(1, ranks):
        y = s.y0 + k * pitch
        drawing.append(line([(s.x0, y), (s.x0 + s.w, y)]))
    drawing.append(frame(s.x0, s.y0, s.w, s.h))
    sites = {}
    for k in range(ranks):
        for f in range(files):
            sites[f"{letters[f]}{k + 1}"] = pt(s.x0 + (f + 0.5) * pitch, s.y0 + (ranks - 1 - k + 0.5) * pitch)
    for name in ("e2", "e10"):
        f, k = letters.index(name[0]), int(name[1:]) - 1
        x0, y1 = s.x0 + f * pitch, s.y0 + (ranks - k) * pitch
        drawing.append(line([(x0, y1), (x0 + pitch, y1 - pitch)]))  # near-left to far-right corner
    return model("cotoan", "Cờ toán Việt Nam", "squares", s, files, ranks, pitch, sites, drawing, first_id,
                 square_area(s))


# ---------------------------------------------------------------------------------------------------------
# Cờ tư lệnh: 11 × 12 intersections; the sea over files a–b up to the coast (file c), the river between ranks 6
# and 7 east of the coast with fords on files f and h.

def cotulenh(first_id):
    pitch, files, ranks, overhang = 20.0, 11, 12, 11.0
    s = Sheet((files - 1) * pitch, (ranks - 1) * pitch, overhang, 20.0)
    letters = files_letters(files)

    def x_of(f):
        return s.x0 + f * pitch

    def y_of(k):  # k = rank - 1
        return s.y0 + (ranks - 1 - k) * pitch

    left, right = s.x0 - overhang, s.x0 + s.w + overhang
    top, bottom = s.y0 - overhang, s.y0 + s.h + overhang
    coast = x_of(2)
    drawing = [rect(left, top, right - left, bottom - top, "land"),
               rect(left, top, coast - left, bottom - top, "water")]
    river_far, river_near = y_of(6), y_of(5)
    drawing.append(rect(coast, river_far, right - coast, river_near - river_far, "water"))
    ford = pitch * 0.6
    for f in (5, 7):  # files f and h
        drawing.append(rect(x_of(f) - ford / 2, river_far, ford, river_near - river_far, "land"))
    for k in range(ranks):
        drawing.append(line([(x_of(0), y_of(k)), (x_of(files - 1), y_of(k))]))
    for f in range(files):
        drawing.append(line([(x_of(f), y_of(0)), (x_of(f), y_of(ranks - 1))]))
    drawing.append(frame(left, top, right - left, bottom - top))
    sites = {f"{letters[f]}{k + 1}": pt(x_of(f), y_of(k)) for k in range(ranks) for f in range(files)}
    outline = {"near_left": pt(left, bottom), "near_right": pt(right, bottom), "far_right": pt(right, top),
               "far_left": pt(left, top)}
    return model("cotulenh", "Cờ tư lệnh", "lines", s, files, ranks, pitch, sites, drawing, first_id,
                 lattice_area(s, files, ranks), outline)


def build(game):
    first_id = GAMES.index(game) * 10  # each game its own marker ids: a board is never taken for another
    if game == "brazilian":
        return draughts(game, "Brazilian draughts", 8, 26.0, first_id)
    if game == "english":
        return draughts(game, "English draughts", 8, 26.0, first_id)
    if game == "international":
        return draughts(game, "International draughts", 10, 22.0, first_id)
    if game == "morris9":
        return morris(game, "Nine men's morris", 7, 29.0, 26.0, first_id, MORRIS9_POINTS, MORRIS9_LINES)
    if game == "morris12":
        return morris(game, "Twelve men's morris", 7, 29.0, 26.0, first_id, MORRIS9_POINTS, MORRIS12_LINES)
    if game == "morris6":
        return morris(game, "Six men's morris", 5, 40.0, 26.0, first_id, MORRIS6_POINTS, MORRIS6_LINES)
    if game == "morris3":
        return morris(game, "Three men's morris", 3, 45.0, 26.0, first_id, MORRIS3_POINTS, MORRIS3_LINES)
    if game == "cotoan":
        return cotoan(first_id)
    if game == "cotulenh":
        return cotulenh(first_id)
    raise ValueError(game)


def dump(value, indent=0):
    """JSON with one shape, site or marker per line: readable and diff-friendly."""
    pad = "  " * indent
    if isinstance(value, dict) and indent < 2 and not all(isinstance(v, list) and len(v) == 2 and
                                                          not isinstance(v[0], list) for v in value.values()):
        items = [f'{pad}  {json.dumps(k, ensure_ascii=False)}: {dump(v, indent + 1)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, dict) and indent < 2:
        items = [f'{pad}  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        items = [f"{pad}  {json.dumps(v, ensure_ascii=False)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for game in GAMES:
        with open(os.path.join(here, f"{game}.json"), "w", encoding="utf-8") as out:
            out.write(dump(build(game)) + "\n")


if __name__ == "__main__":
    main()
