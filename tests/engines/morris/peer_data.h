// The Sanmill trajectories of tests/data/peers/morris (see its README): each ply
// lists the legal actions and the one played; a removal is a ply of its own there.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engines/common/json.h"

namespace sb::morris_peer {

struct Ply {
  std::vector<std::string> legal;  // sorted
  std::string picked;
};

struct PeerGames {
  std::vector<std::pair<int, uint64_t>> perft_plies;  // depth, nodes (removals count as plies)
  std::vector<std::vector<Ply>> trajectories;
};

inline PeerGames load(const std::string& game) {
  const std::string path =
      std::string(SMARTBOARD_SOURCE_DIR) + "/tests/data/peers/morris/" + game + "-sanmill-trajectories.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  const Json j = Json::parse(text.str(), path);
  PeerGames g;
  for (const Json& row : j.at("perft_plies").as_array())
    g.perft_plies.push_back({row.as_array()[0].as_int(), static_cast<uint64_t>(row.as_array()[1].as_number())});
  for (const Json& t : j.at("trajectories").as_array()) {
    std::vector<Ply> plies;
    for (const Json& p : t.as_array()) {
      Ply ply;
      for (const Json& l : p.at("legal").as_array()) ply.legal.push_back(l.as_string());
      ply.picked = p.at("picked").as_string();
      plies.push_back(ply);
    }
    g.trajectories.push_back(plies);
  }
  return g;
}

// The trajectory in our notation: a removal ply joins the move before it.
inline std::vector<std::string> joined_moves(const std::vector<Ply>& plies) {
  std::vector<std::string> moves;
  for (const Ply& p : plies) {
    if (!p.picked.empty() && p.picked[0] == 'x' && !moves.empty()) moves.back() += p.picked;
    else moves.push_back(p.picked);
  }
  return moves;
}

}  // namespace sb::morris_peer
