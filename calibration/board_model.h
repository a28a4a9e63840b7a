// The board model of a game: its physical size, where every site is, how the board is drawn and where the
// calibration markers are. Vision, the renderer, the printable boards and the display all read this one model
// (from configs/boards/<game>.json); none of them knows a board's geometry otherwise.
//
// Frame: millimetres on the board sheet, origin at the sheet's far-left corner as the first player (White,
// Red) sees it, x to that player's right, y towards that player. A printed page has the first player at the
// bottom, so the frame is also the frame of a top-down image with y down.
#pragma once

#include <array>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::calib {

struct Vec2 {
  double x = 0;
  double y = 0;
  bool operator==(const Vec2&) const = default;
};

// Squares: sites are the centres of squares (draughts, Cờ toán). Lines: sites are points where lines meet
// (Morris, Cờ tư lệnh).
enum class BoardKind { Squares, Lines };

// What a drawn area or line is, not its colour: the printer, the renderer and the display each choose their
// own colours for it.
enum class Paint { Light, Dark, Ink, Water, Land };

// One drawing primitive, painted in list order (later ones on top).
struct Shape {
  enum class Type {
    Polygon,   // `points` is a closed outline, filled with `paint`
    Polyline,  // `points` is an open path stroked `width_mm` wide
    Disc,      // a filled circle at points[0] of radius `radius_mm`
  };
  Type type = Type::Polygon;
  Paint paint = Paint::Ink;
  std::vector<Vec2> points;
  double width_mm = 0;
  double radius_mm = 0;
};

struct Site {
  std::string name;  // the game's name for it: "1".."50" (draughts, PDN) or "a1".. (the others)
  Vec2 centre;
};

// A square ArUco marker lying flat, sides parallel to the frame's axes.
struct Marker {
  int id = 0;
  Vec2 centre;
  double size_mm = 0;  // side of the black square, border included
  // Corners in ArUco's order (the marker's top-left, top-right, bottom-right, bottom-left as printed), which
  // in this frame is far-left, far-right, near-right, near-left.
  std::array<Vec2, 4> corners() const;
};

struct MarkerLayout {
  std::string dictionary;  // an OpenCV predefined dictionary name, e.g. "DICT_4X4_100"
  std::vector<Marker> markers;
  const Marker* find(int id) const;  // nullptr when the board has no such marker
};

// Four corners of a quadrilateral in the order CONTRACT.md uses for --corners: near-left, near-right,
// far-right, far-left as the first player sees the board.
using Quad = std::array<Vec2, 4>;

class BoardModel {
 public:
  std::string game;   // the game id, "brazilian"
  std::string title;  // for people: "Brazilian draughts"
  BoardKind kind = BoardKind::Squares;
  Vec2 size_mm;         // the whole sheet, markers included
  int files = 0;        // sites across (squares or lines) ...
  int ranks = 0;        // ... and from near to far: 8×8, 7×7 (morris9), 11×12 (cotulenh)
  double pitch_mm = 0;  // distance between neighbouring sites along a file or rank
  std::vector<Site> sites;
  std::vector<Shape> drawing;
  MarkerLayout markers;

  // The four corners `--corners` names: square boards the outer corners of the grid of squares, line boards
  // the corner sites (a1 k1 k12 a12). Sites are evenly spaced between them.
  const Quad& playing_area_corners() const { return playing_area_; }
  // The outermost quadrilateral drawn on the board, the one an outline detector sees on a plain board without
  // markers: the frame of the grid of squares, the frame around Morris and Cờ tư lệnh boards (half a piece
  // beyond the outer lines).
  const Quad& outline_corners() const { return outline_; }

  // Site lookup by the game's name. site() throws InputError naming the board and the name.
  int site_index(std::string_view name) const;  // -1 when there is no such site
  const Site& site(std::string_view name) const;

  // The JSON form (the format of configs/boards/*.json); from_json(to_json(m)) == m.
  nlohmann::json to_json() const;
  // Parses and checks a board model. `where` names the source in errors ("configs/boards/morris9.json").
  // Throws InputError naming the first problem: a missing or mistyped field, a site or marker off the
  // sheet, a marker over the playing area, duplicate names or ids.
  static BoardModel from_json(const nlohmann::json& j, const std::string& where);

  bool operator==(const BoardModel&) const;

 private:
  Quad playing_area_{};
  Quad outline_{};
};

// The version of the board model format this code reads.
constexpr int kBoardModelVersion = 1;

// Reads configs/boards/<game>.json from configs_dir(). Throws InputError when the game has no board model,
// or the file cannot be read, is not JSON, or fails the checks of BoardModel::from_json.
BoardModel load_board_model(std::string_view game);
// Reads a board model from a file.
BoardModel read_board_model(const std::filesystem::path& path);

// The game ids that have a board model, in CONTRACT.md order.
const std::vector<std::string>& board_games();

// Where the configs/ folder is, in this order: the environment variable SMARTBOARD_CONFIGS if set (it must
// name a directory); the source tree the binary was built from; `configs/` beside or one level above the
// executable. Throws InputError listing the places tried when none exists.
std::filesystem::path configs_dir();

// Names used in the JSON and in messages.
const char* paint_name(Paint p);
std::optional<Paint> paint_from_name(std::string_view name);

}  // namespace sb::calib
