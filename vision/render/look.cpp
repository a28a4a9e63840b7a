#include "vision/render/look.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "engines/common/errors.h"

namespace sb::vision {

namespace {

using nlohmann::json;

template <class E, size_t N>
struct EnumNames {
  std::array<const char*, N> names;
  const char* name(E v) const { return names[static_cast<size_t>(v)]; }
  E parse(const std::string& text, const std::string& where) const {
    for (size_t i = 0; i < N; ++i)
      if (text == names[i]) return static_cast<E>(i);
    std::string list;
    for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
    throw InputError(where + ": unknown value \"" + text + "\" (expected one of " + list + ")");
  }
};

const EnumNames<BoardMaterial, 3> kBoardMaterials{{"paper", "cardboard", "wood"}};
const EnumNames<TableSurface, 4> kTableSurfaces{{"wood", "cloth", "laminate", "stone"}};
const EnumNames<PieceMaterial, 3> kPieceMaterials{{"plastic", "wood", "stone"}};
const EnumNames<PieceShape, 2> kPieceShapes{{"disc", "stone"}};
const EnumNames<FaceKind, 4> kFaceKinds{{"plain", "grooves", "dots", "symbols"}};
const EnumNames<DotArrangement, 3> kDotArrangements{{"dice", "ring", "scattered"}};
const EnumNames<ZeroMark, 4> kZeroMarks{{"ring", "cross", "star", "blank"}};
const EnumNames<SymbolStyle, 2> kSymbolStyles{{"letters", "pictograms"}};

// Reads the fields of one JSON object strictly: every key must be known, every value of the right type and
// range; errors name the object's path and the key.
class Fields {
 public:
  Fields(const json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j.is_object()) throw InputError(where_ + ": expected a JSON object");
  }
  ~Fields() noexcept(false) {
    if (std::uncaught_exceptions()) return;
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!seen_.count(it.key())) throw InputError(where_ + ": unknown key \"" + it.key() + "\"");
  }
  std::string path(const char* key) const { return where_ + "." + key; }
  const json* get(const char* key) {
    seen_.insert(key);
    auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }
  void number(const char* key, double& out, double lo, double hi) {
    if (const json* v = get(key)) {
      if (!v->is_number()) throw InputError(path(key) + ": expected a number");
      double d = v->get<double>();
      if (!std::isfinite(d) || d < lo || d > hi) {
        std::ostringstream s;
        s << path(key) << ": " << d << " is outside " << lo << ".." << hi;
        throw InputError(s.str());
      }
      out = d;
    }
  }
  void integer(const char* key, int& out, int lo, int hi) {
    if (const json* v = get(key)) {
      if (!v->is_number_integer()) throw InputError(path(key) + ": expected an integer");
      auto i = v->get<int64_t>();
      if (i < lo || i > hi)
        throw InputError(path(key) + ": " + std::to_string(i) + " is outside " + std::to_string(lo) + ".." +
                         std::to_string(hi));
      out = static_cast<int>(i);
    }
  }
  void seed(const char* key, uint64_t& out) {
    if (const json* v = get(key)) {
      if (!v->is_number_unsigned() && !v->is_number_integer()) throw InputError(path(key) + ": expected an integer");
      out = v->get<uint64_t>();
    }
  }
  void boolean(const char* key, bool& out) {
    if (const json* v = get(key)) {
      if (!v->is_boolean()) throw InputError(path(key) + ": expected true or false");
      out = v->get<bool>();
    }
  }
  void colour(const char* key, Rgb& out) {
    if (const json* v = get(key)) {
      if (!v->is_string()) throw InputError(path(key) + ": expected a colour \"#rrggbb\"");
      out = parse_rgb(v->get<std::string>(), path(key));
    }
  }
  template <class E, size_t N>
  void choice(const char* key, E& out, const EnumNames<E, N>& names) {
    if (const json* v = get(key)) {
      if (!v->is_string()) throw InputError(path(key) + ": expected a name");
      out = names.parse(v->get<std::string>(), path(key));
    }
  }

 private:
  const json& j_;
  std::string where_;
  std::set<std::string> seen_;
};

json colours_json(const BoardColours& c) {
  return {{"sheet", rgb_hex(c.sheet)}, {"light", rgb_hex(c.light)}, {"dark", rgb_hex(c.dark)},
          {"ink", rgb_hex(c.ink)},     {"water", rgb_hex(c.water)}, {"land", rgb_hex(c.land)}};
}

void read_colours(const json& j, const std::string& where, BoardColours& c) {
  Fields f(j, where);
  f.colour("sheet", c.sheet);
  f.colour("light", c.light);
  f.colour("dark", c.dark);
  f.colour("ink", c.ink);
  f.colour("water", c.water);
  f.colour("land", c.land);
}

json sides_json(const std::vector<SideColours>& sides) {
  json j = json::object();
  for (const SideColours& s : sides) j[std::string(1, s.side)] = {{"body", rgb_hex(s.body)}, {"mark", rgb_hex(s.mark)}};
  return j;
}

std::vector<SideColours> read_sides(const json& j, const std::string& where) {
  if (!j.is_object() || j.size() != 2) throw InputError(where + ": expected an object with the two sides' letters");
  std::vector<SideColours> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (key.size() != 1 || !std::isupper(static_cast<unsigned char>(key[0])))
      throw InputError(where + ": side \"" + key + "\" must be one upper-case letter");
    SideColours s;
    s.side = key[0];
    Fields f(*it, where + "." + key);
    f.colour("body", s.body);
    f.colour("mark", s.mark);
    if (!it->contains("body") || !it->contains("mark"))
      throw InputError(where + "." + key + ": needs both \"body\" and \"mark\"");
    out.push_back(s);
  }
  // The first player's side (W or R) first, whatever order JSON keeps keys in.
  std::stable_sort(out.begin(), out.end(), [](const SideColours& a, const SideColours& b) {
    auto rank = [](char c) { return c == 'W' || c == 'R' ? 0 : 1; };
    return rank(a.side) < rank(b.side);
  });
  return out;
}

json pieces_json(const PieceLook& p) {
  return {{"sides", sides_json(p.sides)},
          {"shape", name_of(p.shape)},
          {"face", name_of(p.face)},
          {"material", name_of(p.material)},
          {"diameter_pitch", p.diameter_pitch},
          {"height_mm", p.height_mm},
          {"gloss", p.gloss},
          {"shade_jitter", p.shade_jitter},
          {"grooves", p.grooves},
          {"dots", name_of(p.dots)},
          {"dot_size", p.dot_size},
          {"zero", name_of(p.zero)},
          {"symbols", name_of(p.symbols)},
          {"max_offset", p.max_offset},
          {"max_turn_deg", p.max_turn_deg},
          {"pattern_seed", p.pattern_seed}};
}

void read_pieces(const json& j, const std::string& where, PieceLook& p) {
  Fields f(j, where);
  if (const json* s = f.get("sides")) p.sides = read_sides(*s, f.path("sides"));
  f.choice("shape", p.shape, kPieceShapes);
  f.choice("face", p.face, kFaceKinds);
  f.choice("material", p.material, kPieceMaterials);
  f.number("diameter_pitch", p.diameter_pitch, 0.3, 0.95);
  f.number("height_mm", p.height_mm, 2, 15);
  f.number("gloss", p.gloss, 0, 1);
  f.number("shade_jitter", p.shade_jitter, 0, 1);
  f.integer("grooves", p.grooves, 0, 4);
  f.choice("dots", p.dots, kDotArrangements);
  f.number("dot_size", p.dot_size, 0.05, 0.3);
  f.choice("zero", p.zero, kZeroMarks);
  f.choice("symbols", p.symbols, kSymbolStyles);
  f.number("max_offset", p.max_offset, 0, 0.25);
  f.number("max_turn_deg", p.max_turn_deg, 0, 180);
  f.seed("pattern_seed", p.pattern_seed);
}

double log_uniform(Rng& rng, double lo, double hi) {
  return std::exp(rng.uniform(std::log(lo), std::log(hi)));
}

// A colour pair for a set that looks nothing like the config's: two clearly different hues, or one colour in
// two clearly different brightnesses.
void random_palette(PieceLook& p, Rng& rng) {
  double h0 = rng.uniform(0, 360), h1 = h0 + rng.uniform(70, 290);
  double v0 = rng.uniform(0.35, 0.95), v1 = rng.uniform(0.35, 0.95);
  const bool same_hue = rng.chance(0.25);
  if (same_hue) {  // light and dark
    h1 = h0 + rng.normal(0, 10);
    v0 = rng.uniform(0.75, 0.95);
    v1 = rng.uniform(0.15, 0.4);
  }
  Rgb b0 = from_hsv(h0, rng.uniform(0.35, 0.9), v0), b1 = from_hsv(h1, rng.uniform(0.35, 0.9), v1);
  bool coloured_marks = (p.face == FaceKind::Dots || p.face == FaceKind::Symbols) && rng.chance(0.4);
  auto contrast = [&](const Rgb& body) { return body.luma() > 0.5 ? Rgb{0.08, 0.07, 0.06} : Rgb{0.96, 0.95, 0.92}; };
  if (coloured_marks) {  // ivory pieces, marks in the side's colour
    Rgb ivory = from_hsv(rng.uniform(30, 60), rng.uniform(0.03, 0.2), rng.uniform(0.85, 0.97));
    p.sides[0].body = ivory;
    p.sides[1].body = ivory;
    // One hue: the marks then tell the sides apart by their brightness alone, a bright one and a dark one (two
    // brightnesses drawn alike made sets whose sides differed by a shade: Cờ toán 9400032 image 357's marks
    // #2a73c8 and #0433af).
    p.sides[0].mark = from_hsv(h0, rng.uniform(0.6, 0.95), same_hue ? rng.uniform(0.7, 0.85) : rng.uniform(0.45, 0.8));
    p.sides[1].mark = from_hsv(h1, rng.uniform(0.6, 0.95), same_hue ? rng.uniform(0.15, 0.3) : rng.uniform(0.45, 0.8));
  } else {
    p.sides[0].body = b0;
    p.sides[1].body = b1;
    p.sides[0].mark = p.face == FaceKind::Grooves || p.face == FaceKind::Plain ? b0 * 0.8 : contrast(b0);
    p.sides[1].mark = p.face == FaceKind::Grooves || p.face == FaceKind::Plain ? b1 * 0.8 : contrast(b1);
  }
}

BoardColours vary_board(const BoardColours& base, Rng& rng, bool alternative) {
  BoardColours c = base;
  if (alternative) {
    struct Pair {
      Rgb light, dark;
    };
    static const Pair pairs[] = {{{0.91, 0.87, 0.72}, {0.18, 0.42, 0.24}},   // buff and green
                                 {{0.95, 0.95, 0.93}, {0.12, 0.12, 0.12}},   // white and black
                                 {{0.94, 0.85, 0.68}, {0.55, 0.33, 0.18}},   // maple and walnut
                                 {{0.92, 0.93, 0.96}, {0.25, 0.35, 0.60}},   // white and blue
                                 {{0.90, 0.80, 0.60}, {0.60, 0.18, 0.14}}};  // cream and red
    const Pair& p = pairs[rng.below(static_cast<int>(std::size(pairs)))];
    c.light = p.light;
    c.dark = p.dark;
    c.sheet = from_hsv(rng.uniform(20, 60), rng.uniform(0.0, 0.3), rng.uniform(0.75, 0.97));
    c.land = from_hsv(rng.uniform(30, 110), rng.uniform(0.1, 0.35), rng.uniform(0.75, 0.95));
    c.water = from_hsv(rng.uniform(185, 225), rng.uniform(0.25, 0.6), rng.uniform(0.7, 0.95));
    c.ink = rng.chance(0.7) ? Rgb{0.08, 0.08, 0.08} : from_hsv(rng.uniform(0, 360), 0.6, 0.3);
  }
  c.sheet = vary_shade(c.sheet, 0.4, rng);
  c.light = vary_shade(c.light, 0.5, rng);
  c.dark = vary_shade(c.dark, 0.5, rng);
  c.water = vary_shade(c.water, 0.5, rng);
  c.land = vary_shade(c.land, 0.5, rng);
  return c;
}

}  // namespace

const char* name_of(BoardMaterial v) {
  return kBoardMaterials.name(v);
}
const char* name_of(TableSurface v) {
  return kTableSurfaces.name(v);
}
const char* name_of(PieceMaterial v) {
  return kPieceMaterials.name(v);
}
const char* name_of(PieceShape v) {
  return kPieceShapes.name(v);
}
const char* name_of(FaceKind v) {
  return kFaceKinds.name(v);
}
const char* name_of(DotArrangement v) {
  return kDotArrangements.name(v);
}
const char* name_of(ZeroMark v) {
  return kZeroMarks.name(v);
}
const char* name_of(SymbolStyle v) {
  return kSymbolStyles.name(v);
}

const SideColours& PieceLook::colours(char side) const {
  for (const SideColours& s : sides)
    if (s.side == side) return s;
  throw InputError(std::string("piece look has no colours for side '") + side + "'");
}

json Look::to_json() const {
  json j;
  j["camera"] = camera.to_json();
  j["board"] = {{"material", name_of(board.material)},
                {"colours", colours_json(board.colours)},
                {"edge", rgb_hex(board.edge)},
                {"thickness_mm", board.thickness_mm},
                {"texture", board.texture},
                {"gloss", board.gloss},
                {"markers", board.markers}};
  j["table"] = {{"surface", name_of(table.surface)},
                {"base", rgb_hex(table.base)},
                {"accent", rgb_hex(table.accent)},
                {"scale_mm", table.scale_mm},
                {"angle_deg", table.angle_deg}};
  j["pieces"] = pieces_json(pieces);
  j["light"] = {{"exposure", light.exposure},
                {"ambient", light.ambient},
                {"directional", light.directional},
                {"azimuth_deg", light.azimuth_deg},
                {"elevation_deg", light.elevation_deg},
                {"kelvin", light.kelvin},
                {"gradient", light.gradient},
                {"gradient_angle_deg", light.gradient_angle_deg},
                {"glare_spots", light.glare_spots},
                {"glare_strength", light.glare_strength},
                {"glare_size_mm", light.glare_size_mm},
                {"vignette", light.vignette},
                {"shadow_softness_mm", light.shadow_softness_mm}};
  j["sensor"] = {{"noise", sensor.noise},
                 {"defocus_px", sensor.defocus_px},
                 {"motion_px", sensor.motion_px},
                 {"motion_angle_deg", sensor.motion_angle_deg},
                 {"jpeg_quality", sensor.jpeg_quality}};
  j["hands"] = {{"skin", {rgb_hex(hands.skin[0]), rgb_hex(hands.skin[1])}},
                {"sleeve", {rgb_hex(hands.sleeve[0]), rgb_hex(hands.sleeve[1])}},
                {"sleeve_length", {hands.sleeve_length[0], hands.sleeve_length[1]}},
                {"size", hands.size}};
  return j;
}

Look Look::from_json(const json& j, const std::string& where) {
  Look look;
  Fields top(j, where);
  if (const json* c = top.get("camera")) look.camera = CameraPlacement::from_json(*c, top.path("camera"));
  if (const json* b = top.get("board")) {
    Fields f(*b, top.path("board"));
    f.choice("material", look.board.material, kBoardMaterials);
    if (const json* c = f.get("colours")) read_colours(*c, f.path("colours"), look.board.colours);
    f.colour("edge", look.board.edge);
    f.number("thickness_mm", look.board.thickness_mm, 0, 40);
    f.number("texture", look.board.texture, 0, 1);
    f.number("gloss", look.board.gloss, 0, 1);
    f.boolean("markers", look.board.markers);
  }
  if (const json* t = top.get("table")) {
    Fields f(*t, top.path("table"));
    f.choice("surface", look.table.surface, kTableSurfaces);
    f.colour("base", look.table.base);
    f.colour("accent", look.table.accent);
    f.number("scale_mm", look.table.scale_mm, 0.5, 500);
    f.number("angle_deg", look.table.angle_deg, -360, 360);
  }
  if (const json* p = top.get("pieces")) read_pieces(*p, top.path("pieces"), look.pieces);
  if (const json* l = top.get("light")) {
    Fields f(*l, top.path("light"));
    f.number("exposure", look.light.exposure, 0.1, 3);
    f.number("ambient", look.light.ambient, 0, 2);
    f.number("directional", look.light.directional, 0, 2);
    f.number("azimuth_deg", look.light.azimuth_deg, -360, 360);
    f.number("elevation_deg", look.light.elevation_deg, 10, 90);
    f.number("kelvin", look.light.kelvin, 2000, 12000);
    f.number("gradient", look.light.gradient, 0, 0.9);
    f.number("gradient_angle_deg", look.light.gradient_angle_deg, -360, 360);
    f.integer("glare_spots", look.light.glare_spots, 0, 6);
    f.number("glare_strength", look.light.glare_strength, 0, 2);
    f.number("glare_size_mm", look.light.glare_size_mm, 1, 300);
    f.number("vignette", look.light.vignette, 0, 0.9);
    f.number("shadow_softness_mm", look.light.shadow_softness_mm, 0, 20);
  }
  if (const json* s = top.get("sensor")) {
    Fields f(*s, top.path("sensor"));
    f.number("noise", look.sensor.noise, 0, 40);
    f.number("defocus_px", look.sensor.defocus_px, 0, 10);
    f.number("motion_px", look.sensor.motion_px, 0, 40);
    f.number("motion_angle_deg", look.sensor.motion_angle_deg, -360, 360);
    f.integer("jpeg_quality", look.sensor.jpeg_quality, 0, 100);
    if (look.sensor.jpeg_quality != 0 && look.sensor.jpeg_quality < 5)
      throw InputError(top.path("sensor") + ".jpeg_quality: use 0 (none) or 5..100");
  }
  if (const json* h = top.get("hands")) {
    Fields f(*h, top.path("hands"));
    auto pair_of = [&](const char* key, auto read) {
      if (const json* v = f.get(key)) {
        if (!v->is_array() || v->size() != 2)
          throw InputError(f.path(key) + ": expected a list of two, one per player");
        for (int i = 0; i < 2; ++i) read(i, (*v)[i], f.path(key) + "[" + std::to_string(i) + "]");
      }
    };
    auto colour = [](const json& v, const std::string& path) {
      if (!v.is_string()) throw InputError(path + ": expected a colour \"#rrggbb\"");
      return parse_rgb(v.get<std::string>(), path);
    };
    pair_of("skin", [&](int i, const json& v, const std::string& path) { look.hands.skin[i] = colour(v, path); });
    pair_of("sleeve", [&](int i, const json& v, const std::string& path) { look.hands.sleeve[i] = colour(v, path); });
    pair_of("sleeve_length", [&](int i, const json& v, const std::string& path) {
      if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1) throw InputError(path + ": expected 0..1");
      look.hands.sleeve_length[i] = v.get<double>();
    });
    f.number("size", look.hands.size, 0.6, 1.5);
  }
  return look;
}

bool Look::operator==(const Look& o) const {
  return to_json() == o.to_json();
}

GameArt GameArt::from_json(const json& j, const std::string& game, const std::string& where) {
  GameArt art;
  art.game = game;
  if (!j.is_object()) throw InputError(where + ": a game config must be a JSON object");
  if (!j.contains("pieces")) throw InputError(where + ": missing \"pieces\" (the default look of the piece set)");
  read_pieces(j["pieces"], where + ": pieces", art.pieces);
  if (art.pieces.sides.size() != 2) throw InputError(where + ": pieces.sides must give both sides' colours");
  if (j.contains("board_look")) read_colours(j["board_look"], where + ": board_look", art.board);
  return art;
}

json GameArt::to_json() const {
  return {{"pieces", pieces_json(pieces)}, {"board_look", colours_json(board)}};
}

GameArt load_game_art(const std::string& game) {
  auto path = calib::configs_dir() / (game + ".json");
  std::ifstream in(path);
  if (!in) throw InputError("no piece look for game '" + game + "': cannot read " + path.string());
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw InputError(path.string() + ": not valid JSON (" + e.what() + ")");
  }
  return GameArt::from_json(j, game, path.string());
}

Look sample_look(const GameArt& art, const calib::BoardModel& model, cv::Size image_size, const LookRange& range,
                 Rng& rng0) {
  Look look;
  // Each part draws from its own stream, so pinning one part keeps the others.
  Rng rc = rng0.fork(1), rb = rng0.fork(2), rt = rng0.fork(3), rp = rng0.fork(4), rl = rng0.fork(5), rs = rng0.fork(6);

  // Camera.
  CameraPlacement& cam = look.camera;
  cam.tilt_deg = rc.chance(0.25) ? rc.uniform(0, std::min(8.0, range.max_tilt_deg)) : rc.uniform(0, range.max_tilt_deg);
  cam.azimuth_deg = range.any_azimuth ? rc.uniform(0, 360) : (rc.chance(0.5) ? 0 : 180) + rc.uniform(-25, 25);
  cam.roll_deg = rc.normal(0, 4);
  cam.hfov_deg = rc.uniform(50, 75);
  if (rc.chance(0.6)) {
    cam.k1 = rc.uniform(-0.18, 0.06);
    cam.k2 = rc.uniform(-0.02, 0.04);
  }
  cam.aim_offset_mm = {rc.normal(0, 0.25 * model.pitch_mm), rc.normal(0, 0.25 * model.pitch_mm)};
  double fit = max_px_per_pitch(model, cam, image_size);
  double hi = std::min(range.max_px_per_pitch, fit);
  double lo = std::min(range.min_px_per_pitch, hi);
  cam.px_per_pitch = log_uniform(rc, lo, hi);

  // Board.
  BoardLook& b = look.board;
  b.material = static_cast<BoardMaterial>(rb.below(3));
  b.colours = vary_board(art.board, rb, rb.chance(0.3));
  switch (b.material) {
    case BoardMaterial::Paper:
      b.thickness_mm = rb.uniform(0.1, 0.4);
      b.gloss = rb.uniform(0, 0.2);
      b.edge = b.colours.sheet * 0.95;
      break;
    case BoardMaterial::Cardboard:
      b.thickness_mm = rb.uniform(1.5, 3.5);
      b.gloss = rb.uniform(0, 0.3);
      b.edge = from_hsv(rb.uniform(25, 40), rb.uniform(0.2, 0.45), rb.uniform(0.45, 0.75));
      break;
    case BoardMaterial::Wood:
      b.thickness_mm = rb.uniform(8, 20);
      b.gloss = rb.uniform(0.2, 0.8);
      b.edge = from_hsv(rb.uniform(18, 35), rb.uniform(0.4, 0.7), rb.uniform(0.3, 0.65));
      if (rb.chance(0.6)) b.colours.sheet = from_hsv(rb.uniform(22, 38), rb.uniform(0.3, 0.55), rb.uniform(0.55, 0.85));
      break;
  }
  b.texture = rb.uniform(0.2, 0.9);
  b.markers = rb.chance(0.85);

  // Table.
  TableLook& t = look.table;
  t.surface = static_cast<TableSurface>(rt.below(4));
  t.angle_deg = rt.uniform(0, 180);
  switch (t.surface) {
    case TableSurface::Wood:
      t.base = from_hsv(rt.uniform(18, 38), rt.uniform(0.35, 0.7), rt.uniform(0.3, 0.8));
      t.accent = t.base * rt.uniform(0.6, 0.85);
      t.scale_mm = rt.uniform(5, 18);
      break;
    case TableSurface::Cloth:
      t.base = rt.chance(0.4) ? from_hsv(rt.uniform(110, 150), rt.uniform(0.4, 0.7), rt.uniform(0.25, 0.5))
                              : from_hsv(rt.uniform(0, 360), rt.uniform(0.05, 0.6), rt.uniform(0.2, 0.9));
      t.accent = t.base * rt.uniform(0.75, 0.92);
      t.scale_mm = rt.uniform(0.8, 3);
      break;
    case TableSurface::Laminate:
      t.base = from_hsv(rt.uniform(20, 60), rt.uniform(0, 0.15), rt.uniform(0.55, 0.95));
      t.accent = t.base * rt.uniform(0.85, 0.97);
      t.scale_mm = rt.uniform(1, 4);
      break;
    case TableSurface::Stone:
      t.base = rt.chance(0.5) ? from_hsv(rt.uniform(0, 60), rt.uniform(0, 0.08), rt.uniform(0.75, 0.95))
                              : from_hsv(rt.uniform(0, 60), rt.uniform(0, 0.1), rt.uniform(0.15, 0.4));
      t.accent = t.base.luma() > 0.5 ? t.base * rt.uniform(0.55, 0.8) : t.base * rt.uniform(1.4, 2.0);
      t.scale_mm = rt.uniform(30, 120);
      break;
  }

  // Pieces.
  PieceLook& p = look.pieces;
  p = art.pieces;
  if (!range.default_sets_only && rp.chance(0.3)) random_palette(p, rp);
  for (SideColours& s : p.sides) {
    s.body = vary_shade(s.body, 0.6, rp);
    s.mark = vary_shade(s.mark, 0.4, rp);
  }
  if (rp.chance(0.4)) p.material = static_cast<PieceMaterial>(rp.below(3));
  p.diameter_pitch = std::clamp(art.pieces.diameter_pitch * rp.uniform(0.9, 1.08), 0.55, 0.86);
  p.height_mm = p.shape == PieceShape::Stone ? rp.uniform(5, 8) : rp.uniform(5, 10);
  switch (p.material) {
    case PieceMaterial::Plastic:
      p.gloss = rp.uniform(0.3, 0.9);
      break;
    case PieceMaterial::Wood:
      p.gloss = rp.uniform(0.05, 0.4);
      break;
    case PieceMaterial::Stone:
      p.gloss = rp.uniform(0.2, 0.7);
      break;
  }
  p.shade_jitter = rp.uniform(0, 0.6);
  if (p.face == FaceKind::Grooves) p.grooves = rp.between(0, 3);
  p.dots = static_cast<DotArrangement>(rp.below(3));
  p.dot_size = p.dots == DotArrangement::Scattered ? rp.uniform(0.09, 0.14) : rp.uniform(0.10, 0.19);
  p.zero = static_cast<ZeroMark>(rp.below(4));
  p.symbols = static_cast<SymbolStyle>(rp.below(2));
  p.max_offset = rp.uniform(0, 0.2);
  p.max_turn_deg = p.face == FaceKind::Symbols && rp.chance(0.5) ? rp.uniform(5, 30) : 180;
  p.pattern_seed = rp.next() >> 12;

  // Light.
  LightLook& l = look.light;
  l.exposure = rl.uniform(0.8, 1.2);
  l.ambient = rl.uniform(0.35, 0.85);
  l.directional = (1 - l.ambient) * rl.uniform(0.6, 1.3);
  l.azimuth_deg = rl.uniform(0, 360);
  l.elevation_deg = rl.uniform(30, 85);
  l.kelvin = rl.uniform(2700, 7500);
  l.gradient = rl.uniform(0, 0.4);
  l.gradient_angle_deg = rl.uniform(0, 360);
  l.glare_spots = rl.chance(0.5) ? 0 : rl.between(1, 2);
  l.glare_strength = rl.uniform(0.2, 0.8);
  l.glare_size_mm = rl.uniform(15, 60);
  l.vignette = rl.uniform(0, 0.5);
  l.shadow_softness_mm = rl.uniform(1, 5);

  // Sensor.
  SensorLook& s = look.sensor;
  s.noise = rs.uniform(0.5, 6);
  if (range.sensor_blur) {
    if (rs.chance(0.3)) s.defocus_px = rs.uniform(0.4, 1.8);
    if (rs.chance(0.15)) {
      s.motion_px = rs.uniform(2, 8);
      s.motion_angle_deg = rs.uniform(0, 180);
    }
  }
  if (range.jpeg && rs.chance(0.5)) s.jpeg_quality = rs.between(35, 95);

  // Hands: skin tones from pale to dark, any sleeve.
  Rng rh = rng0.fork(7);
  HandLook& h = look.hands;
  for (int i = 0; i < 2; ++i) {
    double depth = rh.uniform(0, 1);
    h.skin[i] = mix(Rgb{0.93, 0.76, 0.66}, Rgb{0.36, 0.23, 0.16}, depth);
    h.skin[i] = vary_shade(h.skin[i], 0.3, rh);
    h.sleeve[i] = from_hsv(rh.uniform(0, 360), rh.uniform(0, 0.8), rh.uniform(0.1, 0.9));
    h.sleeve_length[i] = rh.chance(0.3) ? 0.0 : rh.uniform(0.2, 1.0);
  }
  h.size = rh.uniform(0.85, 1.12);
  // Colours are kept as 8-bit hex in JSON: settle them now so a look read back from a truth file is this one.
  return Look::from_json(look.to_json(), "sampled look");
}

Look apply_look_patch(const Look& base, const json& patch, const std::string& where) {
  if (!patch.is_object()) throw InputError(where + ": expected a JSON object");
  json j = base.to_json();
  j.merge_patch(patch);
  return Look::from_json(j, where);
}

}  // namespace sb::vision
