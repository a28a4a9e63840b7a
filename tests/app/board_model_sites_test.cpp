// Every board model (configs/boards) names exactly the sites its game's rules name, so vision, the arbiter and
// the display agree on where "22" or "f4" is. Games whose engine has not landed yet are skipped by name.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb {
namespace {

TEST(BoardModelSites, EveryBoardNamesTheSitesOfItsRules) {
  std::vector<std::string> pending;
  for (const std::string& game : game_ids()) {
    std::ifstream in(std::string(SMARTBOARD_SOURCE_DIR) + "/configs/boards/" + game + ".json");
    ASSERT_TRUE(in) << game;
    nlohmann::json model = nlohmann::json::parse(in);
    std::set<std::string> board;
    for (auto it = model["sites"].begin(); it != model["sites"].end(); ++it) board.insert(it.key());
    std::unique_ptr<Rules> rules;
    try {
      rules = make_rules(game);
    } catch (const InputError&) {
      pending.push_back(game);
      continue;
    }
    std::set<std::string> named;
    for (int i = 0; i < rules->site_count(); ++i) named.insert(rules->site_name(i));
    EXPECT_EQ(board, named) << game;
  }
  if (!pending.empty()) {
    std::string list;
    for (const auto& g : pending) list += " " + g;
    std::cout << "engines not yet available:" << list << "\n";
  }
}

}  // namespace
}  // namespace sb
