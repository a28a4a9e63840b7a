#include "calibration/board_model.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "calibration/json_reader.h"
#include "engines/common/errors.h"

namespace sb::calib {

namespace {

using nlohmann::json;
using Reader = JsonReader;

// The dictionaries OpenCV 4.6 predefines, with their sizes; markers.cpp maps the names to OpenCV's enum.
const std::map<std::string, int, std::less<>>& dictionary_sizes() {
  static const std::map<std::string, int, std::less<>> sizes = {
      {"DICT_4X4_50", 50},          {"DICT_4X4_100", 100}, {"DICT_4X4_250", 250}, {"DICT_4X4_1000", 1000},
      {"DICT_5X5_50", 50},          {"DICT_5X5_100", 100}, {"DICT_5X5_250", 250}, {"DICT_5X5_1000", 1000},
      {"DICT_6X6_50", 50},          {"DICT_6X6_100", 100}, {"DICT_6X6_250", 250}, {"DICT_6X6_1000", 1000},
      {"DICT_7X7_50", 50},          {"DICT_7X7_100", 100}, {"DICT_7X7_250", 250}, {"DICT_7X7_1000", 1000},
      {"DICT_ARUCO_ORIGINAL", 1024}};
  return sizes;
}

json point_json(const Vec2& p) {
  return json::array({p.x, p.y});
}

json quad_json(const Quad& q) {
  return json{{"near_left", point_json(q[0])},
              {"near_right", point_json(q[1])},
              {"far_right", point_json(q[2])},
              {"far_left", point_json(q[3])}};
}

Quad read_quad(const Reader& r, const json& j, const std::string& path) {
  Quad q;
  const char* names[4] = {"near_left", "near_right", "far_right", "far_left"};
  for (int i = 0; i < 4; ++i) q[i] = r.point(r.field(j, path, names[i]), path + "." + names[i]);
  // Near is towards larger y, right towards larger x (the frame's orientation).
  if (!(q[0].y > q[3].y && q[1].y > q[2].y && q[1].x > q[0].x && q[2].x > q[3].x))
    r.fail(path, "corners are not near-left, near-right, far-right, far-left in the board frame");
  return q;
}

Shape read_shape(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_object()) r.fail(path, "expected a shape object");
  Shape s;
  if (j.contains("rect")) {
    const json& v = j["rect"];
    if (!v.is_array() || v.size() != 4) r.fail(path + ".rect", "expected [x, y, width, height]");
    double x = r.number(v[0], path + ".rect[0]"), y = r.number(v[1], path + ".rect[1]");
    double w = r.positive(v[2], path + ".rect[2]"), h = r.positive(v[3], path + ".rect[3]");
    s.type = Shape::Type::Polygon;
    s.points = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
    s.paint = r.paint(r.field(j, path, "fill"), path + ".fill");
  } else if (j.contains("polygon")) {
    s.type = Shape::Type::Polygon;
    s.points = r.points(j["polygon"], path + ".polygon", 3);
    s.paint = r.paint(r.field(j, path, "fill"), path + ".fill");
  } else if (j.contains("line")) {
    s.type = Shape::Type::Polyline;
    s.points = r.points(j["line"], path + ".line", 2);
    s.paint = r.paint(r.field(j, path, "stroke"), path + ".stroke");
    s.width_mm = r.positive(r.field(j, path, "width"), path + ".width");
  } else if (j.contains("circle")) {
    s.type = Shape::Type::Disc;
    s.points = {r.point(j["circle"], path + ".circle")};
    s.radius_mm = r.positive(r.field(j, path, "r"), path + ".r");
    s.paint = r.paint(r.field(j, path, "fill"), path + ".fill");
  } else {
    r.fail(path, "expected one of rect, polygon, line, circle");
  }
  return s;
}

bool inside(const Vec2& p, const Vec2& size, double tolerance = 1e-6) {
  return p.x >= -tolerance && p.y >= -tolerance && p.x <= size.x + tolerance && p.y <= size.y + tolerance;
}

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

Box box_of(const Quad& q) {
  Box b{q[0].x, q[0].y, q[0].x, q[0].y};
  for (const Vec2& p : q) {
    b.x0 = std::min(b.x0, p.x), b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x), b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

bool directory_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_directory(p, ec);
}

}  // namespace

std::array<Vec2, 4> Marker::corners() const {
  double h = size_mm / 2;
  return {Vec2{centre.x - h, centre.y - h}, Vec2{centre.x + h, centre.y - h}, Vec2{centre.x + h, centre.y + h},
          Vec2{centre.x - h, centre.y + h}};
}

const Marker* MarkerLayout::find(int id) const {
  for (const Marker& m : markers)
    if (m.id == id) return &m;
  return nullptr;
}

int BoardModel::site_index(std::string_view name) const {
  for (size_t i = 0; i < sites.size(); ++i)
    if (sites[i].name == name) return static_cast<int>(i);
  return -1;
}

const Site& BoardModel::site(std::string_view name) const {
  int i = site_index(name);
  if (i < 0) throw InputError("board '" + game + "' has no site '" + std::string(name) + "'");
  return sites[i];
}

bool BoardModel::operator==(const BoardModel& o) const {
  return to_json() == o.to_json();
}

const char* paint_name(Paint p) {
  switch (p) {
    case Paint::Light:
      return "light";
    case Paint::Dark:
      return "dark";
    case Paint::Ink:
      return "ink";
    case Paint::Water:
      return "water";
    case Paint::Land:
      return "land";
  }
  return "ink";
}

std::optional<Paint> paint_from_name(std::string_view name) {
  for (Paint p : {Paint::Light, Paint::Dark, Paint::Ink, Paint::Water, Paint::Land})
    if (name == paint_name(p)) return p;
  return std::nullopt;
}

json BoardModel::to_json() const {
  json sites_json = json::object();
  for (const Site& s : sites) sites_json[s.name] = point_json(s.centre);
  json drawing_json = json::array();
  for (const Shape& s : drawing) {
    json pts = json::array();
    for (const Vec2& p : s.points) pts.push_back(point_json(p));
    switch (s.type) {
      case Shape::Type::Polygon:
        drawing_json.push_back({{"polygon", pts}, {"fill", paint_name(s.paint)}});
        break;
      case Shape::Type::Polyline:
        drawing_json.push_back({{"line", pts}, {"stroke", paint_name(s.paint)}, {"width", s.width_mm}});
        break;
      case Shape::Type::Disc:
        drawing_json.push_back({{"circle", pts[0]}, {"r", s.radius_mm}, {"fill", paint_name(s.paint)}});
        break;
    }
  }
  json centres = json::object();
  double marker_size = markers.markers.empty() ? 0 : markers.markers[0].size_mm;
  for (const Marker& m : markers.markers) centres[std::to_string(m.id)] = point_json(m.centre);
  return json{{"version", kBoardModelVersion},
              {"game", game},
              {"title", title},
              {"kind", kind == BoardKind::Squares ? "squares" : "lines"},
              {"size_mm", point_json(size_mm)},
              {"lattice", {{"files", files}, {"ranks", ranks}, {"pitch_mm", pitch_mm}}},
              {"playing_area", quad_json(playing_area_)},
              {"outline", quad_json(outline_)},
              {"sites", sites_json},
              {"drawing", drawing_json},
              {"markers", {{"dictionary", markers.dictionary}, {"size_mm", marker_size}, {"centres", centres}}}};
}

BoardModel BoardModel::from_json(const json& j, const std::string& where) {
  Reader r(where);
  if (!j.is_object()) r.fail("top level", "expected a JSON object");
  BoardModel m;
  int version = r.integer(r.field(j, "", "version"), "version", 0, 1000000);
  if (version != kBoardModelVersion)
    r.fail("version", "is " + std::to_string(version) + "; this program reads board models of version " +
                          std::to_string(kBoardModelVersion));
  m.game = r.string(r.field(j, "", "game"), "game");
  m.title = r.string(r.field(j, "", "title"), "title");
  std::string kind = r.string(r.field(j, "", "kind"), "kind");
  if (kind == "squares")
    m.kind = BoardKind::Squares;
  else if (kind == "lines")
    m.kind = BoardKind::Lines;
  else
    r.fail("kind", "expected \"squares\" or \"lines\", not \"" + kind + "\"");
  m.size_mm = r.point(r.field(j, "", "size_mm"), "size_mm");
  if (m.size_mm.x <= 0 || m.size_mm.y <= 0) r.fail("size_mm", "must be positive");

  const json& lattice = r.field(j, "", "lattice");
  m.files = r.integer(r.field(lattice, "lattice", "files"), "lattice.files", 2, 26);
  m.ranks = r.integer(r.field(lattice, "lattice", "ranks"), "lattice.ranks", 2, 99);
  m.pitch_mm = r.positive(r.field(lattice, "lattice", "pitch_mm"), "lattice.pitch_mm");

  m.playing_area_ = read_quad(r, r.field(j, "", "playing_area"), "playing_area");
  m.outline_ = read_quad(r, r.field(j, "", "outline"), "outline");
  for (int i = 0; i < 4; ++i) {
    if (!inside(m.playing_area_[i], m.size_mm)) r.fail("playing_area", "corner off the sheet");
    if (!inside(m.outline_[i], m.size_mm)) r.fail("outline", "corner off the sheet");
  }

  const json& sites = r.field(j, "", "sites");
  if (!sites.is_object() || sites.empty()) r.fail("sites", "expected an object of site name to [x, y]");
  Box area = box_of(m.playing_area_);
  double slack = 1e-6;
  for (auto it = sites.begin(); it != sites.end(); ++it) {
    std::string path = "sites.\"" + it.key() + "\"";
    if (it.key().empty()) r.fail("sites", "empty site name");
    Vec2 c = r.point(it.value(), path);
    if (c.x < area.x0 - slack || c.x > area.x1 + slack || c.y < area.y0 - slack || c.y > area.y1 + slack)
      r.fail(path, "lies outside the playing area");
    m.sites.push_back({it.key(), c});
  }
  // Reading order (far row first, left to right): PDN order for draughts, whatever order the file used.
  std::stable_sort(m.sites.begin(), m.sites.end(), [&](const Site& a, const Site& b) {
    if (std::abs(a.centre.y - b.centre.y) > 1e-6) return a.centre.y < b.centre.y;
    return a.centre.x < b.centre.x;
  });
  for (size_t i = 1; i < m.sites.size(); ++i) {
    const Vec2 &a = m.sites[i - 1].centre, &b = m.sites[i].centre;
    if (std::hypot(a.x - b.x, a.y - b.y) < 1e-3)
      r.fail("sites", "'" + m.sites[i - 1].name + "' and '" + m.sites[i].name + "' are at the same place");
  }

  const json& drawing = r.field(j, "", "drawing");
  if (!drawing.is_array()) r.fail("drawing", "expected a list of shapes");
  for (size_t i = 0; i < drawing.size(); ++i) {
    std::string path = "drawing[" + std::to_string(i) + "]";
    Shape s = read_shape(r, drawing[i], path);
    for (const Vec2& p : s.points)
      if (!inside(p, m.size_mm, 1e-3)) r.fail(path, "reaches off the sheet");
    m.drawing.push_back(std::move(s));
  }

  const json& markers = r.field(j, "", "markers");
  m.markers.dictionary = r.string(r.field(markers, "markers", "dictionary"), "markers.dictionary");
  auto dict = dictionary_sizes().find(m.markers.dictionary);
  if (dict == dictionary_sizes().end())
    r.fail("markers.dictionary", "unknown ArUco dictionary '" + m.markers.dictionary + "'");
  const json& centres = r.field(markers, "markers", "centres");
  if (!centres.is_object()) r.fail("markers.centres", "expected an object of marker id to [x, y]");
  double size = centres.empty() ? 0 : r.positive(r.field(markers, "markers", "size_mm"), "markers.size_mm");
  Box outline = box_of(m.outline_);
  for (auto it = centres.begin(); it != centres.end(); ++it) {
    std::string path = "markers.centres.\"" + it.key() + "\"";
    Marker mk;
    size_t used = 0;
    try {
      mk.id = std::stoi(it.key(), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != it.key().size() || mk.id < 0 || mk.id >= dict->second)
      r.fail(path, "marker id must be a number from 0 to " + std::to_string(dict->second - 1));
    if (m.markers.find(mk.id)) r.fail(path, "marker id used twice");
    mk.centre = r.point(it.value(), path);
    mk.size_mm = size;
    auto c = mk.corners();
    for (const Vec2& p : c)
      if (!inside(p, m.size_mm)) r.fail(path, "marker reaches off the sheet");
    Box b{c[0].x, c[0].y, c[2].x, c[2].y};
    if (b.overlaps(outline)) r.fail(path, "marker lies over the board's drawn area");
    for (const Marker& other : m.markers.markers) {
      auto oc = other.corners();
      if (b.overlaps(Box{oc[0].x, oc[0].y, oc[2].x, oc[2].y}))
        r.fail(path, "marker overlaps marker " + std::to_string(other.id));
    }
    m.markers.markers.push_back(mk);
  }
  std::sort(m.markers.markers.begin(), m.markers.markers.end(),
            [](const Marker& a, const Marker& b) { return a.id < b.id; });
  return m;
}

const std::vector<std::string>& board_games() {
  static const std::vector<std::string> games = {"brazilian", "international", "english", "morris9", "morris3",
                                                 "morris6",   "morris12",      "cotoan",  "cotulenh"};
  return games;
}

std::filesystem::path configs_dir() {
  std::vector<std::filesystem::path> tried;
  if (const char* env = std::getenv("SMARTBOARD_CONFIGS"); env && *env) {
    if (!directory_exists(env)) throw InputError(std::string("SMARTBOARD_CONFIGS='") + env + "' is not a directory");
    return env;
  }
#ifdef SMARTBOARD_CONFIGS_DIR
  tried.emplace_back(SMARTBOARD_CONFIGS_DIR);
#endif
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    tried.push_back(exe.parent_path() / "configs");
    tried.push_back(exe.parent_path().parent_path() / "configs");
    tried.push_back(exe.parent_path().parent_path() / "share" / "smartboard" / "configs");
  }
  for (const auto& p : tried)
    if (directory_exists(p / "boards")) return p;
  std::string list;
  for (const auto& p : tried) list += (list.empty() ? "" : ", ") + p.string();
  throw InputError("cannot find the configs folder (tried " + list + "); set SMARTBOARD_CONFIGS to it");
}

json read_json_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read " + what + " '" + path.string() + "'");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw InputError(path.string() + ": not valid JSON (" + e.what() + ")");
  }
}

void write_json_file(const std::filesystem::path& path, const json& j, const std::string& what) {
  std::ofstream out(path);
  if (out) out << j.dump(1) << "\n";
  if (!out) throw InputError("cannot write " + what + " '" + path.string() + "'");
}

BoardModel read_board_model(const std::filesystem::path& path) {
  return BoardModel::from_json(read_json_file(path, "board model"), path.string());
}

BoardModel load_board_model(std::string_view game) {
  const auto& games = board_games();
  if (std::find(games.begin(), games.end(), game) == games.end())
    throw InputError("no board model for unknown game '" + std::string(game) + "'");
  std::filesystem::path path = configs_dir() / "boards" / (std::string(game) + ".json");
  BoardModel m = read_board_model(path);
  if (m.game != game)
    throw InputError(path.string() + ": game: is '" + m.game + "', expected '" + std::string(game) + "'");
  return m;
}

}  // namespace sb::calib
