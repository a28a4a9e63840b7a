// Everything that decides how a rendered picture looks, as one plain value with a JSON round trip (KataGo's
// options style): the camera placement, board and table surfaces, the piece set, the light and the sensor.
// `sample_look` draws a random look from the whole range the renderer supports; `apply_look_patch` lets a
// caller pin any part of it ("--look '{\"board\":{\"material\":\"wood\"}}'").
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vision/render/camera.h"
#include "vision/render/colour.h"
#include "vision/render/rng.h"

namespace sb::vision {

enum class BoardMaterial { Paper, Cardboard, Wood };
enum class TableSurface { Wood, Cloth, Laminate, Stone };
enum class PieceMaterial { Plastic, Wood, Stone };
enum class PieceShape { Disc, Stone };                  // flat cylinder, or a cylinder with a rounded top edge
enum class FaceKind { Plain, Grooves, Dots, Symbols };  // what the top face shows
enum class DotArrangement { Dice, Ring, Scattered };
enum class ZeroMark { Ring, Cross, Star, Blank };  // how the Cờ toán 0 piece shows it is the 0
enum class SymbolStyle { Letters, Pictograms };

// Names as written in JSON; the parsers throw InputError naming `where` and the allowed names.
const char* name_of(BoardMaterial v);
const char* name_of(TableSurface v);
const char* name_of(PieceMaterial v);
const char* name_of(PieceShape v);
const char* name_of(FaceKind v);
const char* name_of(DotArrangement v);
const char* name_of(ZeroMark v);
const char* name_of(SymbolStyle v);

struct BoardColours {
  Rgb sheet{0.96, 0.95, 0.91};  // the board outside the drawing
  Rgb light{0.93, 0.86, 0.72};
  Rgb dark{0.42, 0.28, 0.17};
  Rgb ink{0.1, 0.1, 0.1};
  Rgb water{0.62, 0.78, 0.90};
  Rgb land{0.93, 0.89, 0.76};
  bool operator==(const BoardColours&) const = default;
};

struct BoardLook {
  BoardMaterial material = BoardMaterial::Paper;
  BoardColours colours;
  Rgb edge{0.55, 0.45, 0.35};  // the sheet's cut edge (wood, cardboard)
  double thickness_mm = 0.3;
  double texture = 0.5;  // strength of paper fibre, cardboard speckle or wood grain, 0..1
  double gloss = 0.1;    // how much of a lamp's glare the surface shows, 0..1
  bool markers = true;   // the calibration markers printed on the board
  bool operator==(const BoardLook&) const = default;
};

struct TableLook {
  TableSurface surface = TableSurface::Wood;
  Rgb base{0.55, 0.38, 0.24};
  Rgb accent{0.40, 0.26, 0.15};  // grain, weave or veins
  double scale_mm = 12;          // size of the pattern
  double angle_deg = 0;          // direction of grain or weave
  bool operator==(const TableLook&) const = default;
};

struct SideColours {
  char side = 'W';  // the token's side letter
  Rgb body;         // the piece
  Rgb mark;         // its dots, symbols, grooves
  bool operator==(const SideColours&) const = default;
};

struct PieceLook {
  std::vector<SideColours> sides;  // one per side letter
  PieceShape shape = PieceShape::Disc;
  FaceKind face = FaceKind::Plain;
  PieceMaterial material = PieceMaterial::Plastic;
  double diameter_pitch = 0.8;  // piece diameter as a fraction of the site pitch
  double height_mm = 7;         // one piece (a stack is several)
  double gloss = 0.4;           // 0 matte .. 1 polished
  double shade_jitter = 0.3;    // piece-to-piece variation of shade, 0..1
  int grooves = 2;              // rings pressed into a draughts man's face
  DotArrangement dots = DotArrangement::Dice;
  double dot_size = 0.16;  // dot radius as a fraction of the piece radius
  ZeroMark zero = ZeroMark::Ring;
  SymbolStyle symbols = SymbolStyle::Letters;
  double max_offset = 0.15;                     // off-centre placement, fraction of the pitch (≤ 0.2)
  double max_turn_deg = 180;                    // random rotation of a piece about its axis
  uint64_t pattern_seed = 1;                    // scattered dots, wood figure
  const SideColours& colours(char side) const;  // throws InputError for a side with no colours
  bool operator==(const PieceLook&) const = default;
};

struct LightLook {
  double exposure = 1.0;      // overall brightness
  double ambient = 0.55;      // share of light from everywhere
  double directional = 0.45;  // share from one lamp (casts the shadows)
  double azimuth_deg = 30;    // where that lamp is (0: behind the first player)
  double elevation_deg = 60;  // its height above the table
  double kelvin = 5000;       // colour temperature
  double gradient = 0.15;     // brightness falls by this fraction across the board
  double gradient_angle_deg = 0;
  int glare_spots = 0;  // lamp reflections on the board
  double glare_strength = 0.5;
  double glare_size_mm = 30;
  double vignette = 0.25;  // brightness lost at the image corners
  double shadow_softness_mm = 2.5;
  bool operator==(const LightLook&) const = default;
};

struct SensorLook {
  double noise = 2.0;       // grey levels (sigma) of sensor noise
  double defocus_px = 0.0;  // Gaussian blur sigma
  double motion_px = 0.0;   // length of a motion-blur streak
  double motion_angle_deg = 0;
  int jpeg_quality = 0;  // 0: no compression artefacts; else 20..100
  bool operator==(const SensorLook&) const = default;
};

struct HandLook {
  std::array<Rgb, 2> skin{Rgb{0.87, 0.67, 0.55}, Rgb{0.55, 0.38, 0.27}};  // each player's skin
  std::array<Rgb, 2> sleeve{Rgb{0.2, 0.25, 0.4}, Rgb{0.6, 0.6, 0.62}};
  std::array<double, 2> sleeve_length{0.5, 0.8};  // share of the forearm a sleeve covers, 0..1
  double size = 1.0;                              // hand and arm size relative to an adult's
  bool operator==(const HandLook&) const = default;
};

struct Look {
  CameraPlacement camera;
  BoardLook board;
  TableLook table;
  PieceLook pieces;
  LightLook light;
  SensorLook sensor;
  HandLook hands;

  nlohmann::json to_json() const;
  // Strict: unknown keys, wrong types and values out of range throw InputError naming the key.
  static Look from_json(const nlohmann::json& j, const std::string& where);
  bool operator==(const Look& o) const;
};

// The look of a game's pieces and board as its config describes them (configs/<game>.json, keys "pieces"
// and "board_look"): the defaults the sampler varies around.
struct GameArt {
  std::string game;
  PieceLook pieces;
  BoardColours board;
  static GameArt from_json(const nlohmann::json& j, const std::string& game, const std::string& where);
  nlohmann::json to_json() const;  // the "pieces" and "board_look" objects
};

// Reads configs/<game>.json. Throws InputError when it is missing or its look keys are malformed.
GameArt load_game_art(const std::string& game);

// What a look may vary; the defaults are the whole supported range.
struct LookRange {
  double min_px_per_pitch = 25;
  double max_px_per_pitch = 100;
  double max_tilt_deg = 45;
  bool any_azimuth = true;         // false: the camera stands behind one of the players (±25°)
  bool default_sets_only = false;  // false: some sets look nothing like the config's
  bool sensor_blur = true;         // defocus and motion blur may appear
  bool jpeg = true;                // JPEG artefacts may appear
};

Look sample_look(const GameArt& art, const calib::BoardModel& model, cv::Size image_size, const LookRange& range,
                 Rng& rng);

// The look with the keys of `patch` (same shape as Look::to_json, any subset) replaced.
Look apply_look_patch(const Look& base, const nlohmann::json& patch, const std::string& where);

}  // namespace sb::vision
