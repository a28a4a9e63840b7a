// What the vision pipeline hands on: per site of the board model, the token it reads and how sure it is; whether
// the board is settled (no hand over it, still for the stillness window); and how long each stage took.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "calibration/board_model.h"

namespace sb::vision {

// The pieces a game can show: the side letters (first side first) and the identities a top face shows
// ("0123456789" for Cờ toán dots, the piece letters for Cờ tư lệnh, empty when only the side is seen), and the
// tallest stack a site can hold (draughts kings are two men; Cờ tư lệnh carries up to three).
struct PieceVocabulary {
  std::string sides = "WB";
  std::string kinds;
  int max_stack = 1;
  enum class Face { Plain, Dots, Symbols };
  Face face = Face::Plain;
  // Per kind (in `kinds`' order), how many pieces of it one side owns; empty when not limited. A board never
  // shows a side more faces of a kind than that (Cờ tư lệnh: one commander, two tanks), so the reader gives a
  // face its next likeliest kind when likelier faces already took every piece of its first.
  std::vector<int> most_per_side;

  bool has_identity() const { return !kinds.empty(); }
};

// One site as read.
struct SiteReading {
  std::string token;    // "" empty; else side letter + identity ("W", "R7", "BT")
  float conf = 0;       // 0..1: the probability that `token` is right
  float occupied = 0;   // 0..1: the probability that a piece stands here
  float evidence = 0;   // its log-odds: which of two sites is more surely occupied when both round to 1
  float disturbed = 0;  // 0..1: share of the site's area that moved in this frame (motion gate)
  int level = 0;        // the stack height whose top face was read (1 = one piece), 0 when empty
};

// Milliseconds per stage for one frame (thread CPU time: the machine may be shared). A stage that did not run
// this frame is 0.
struct StageTimes {
  double locate_ms = 0;   // tracker check / relocation
  double rectify_ms = 0;  // canonical images
  double gate_ms = 0;     // motion gate
  double read_ms = 0;     // cell reader (all sites)
  double total_ms = 0;
};

struct BoardObservation {
  int64_t t_ms = 0;
  bool located = false;  // the board's position is known
  bool settled = false;  // no hand over the board and still for the stillness window (CONTRACT "stable")
  bool read = false;     // the sites were read in this frame (else they repeat the last reading)
  std::string board_state;  // the tracker's state: searching, locked, occluded, moved, lost
  bool edge_blocked = false;  // still, but something lies across the board's edge (an arm): not settled
  std::vector<SiteReading> sites;  // board model order
  StageTimes times;
  // Settled after a disturbance: how long after the last frame with motion over the board this frame came.
  int64_t settle_latency_ms = -1;
};

// The observation line of CONTRACT.md: {"t", "board": {site: token}, "conf": {site: p}, "stable"}: occupied sites
// in "board"; "conf" for every occupied site and for the empty ones the reader doubts.
nlohmann::json observation_json(const calib::BoardModel& model, const BoardObservation& obs);

}  // namespace sb::vision
