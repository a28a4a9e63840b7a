// The server's small parts: request targets, static file resolution, tokens,
// listen addresses and board models.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "display/board_model.h"
#include "display/request_target.h"
#include "display/server_options.h"
#include "display/static_files.h"
#include "display/token.h"
#include "display_fixtures.h"
#include "engines/common/errors.h"

namespace sb::display {
namespace {

namespace fs = std::filesystem;

TEST(RequestTarget, SplitsAndDecodes) {
  auto t = parse_target("/api/moves?from=e3&captures=1&fen=R%3AR0e2%2C1a1+x");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->path, "/api/moves");
  EXPECT_EQ(t->query.at("from"), "e3");
  EXPECT_EQ(t->query.at("fen"), "R:R0e2,1a1 x");
  EXPECT_EQ(parse_target("/a%20b#frag")->path, "/a b");
  EXPECT_FALSE(parse_target("relative"));
  EXPECT_FALSE(parse_target("/%zz"));
  EXPECT_FALSE(parse_target("/%4"));
  EXPECT_FALSE(parse_target("/a%00b"));
  EXPECT_FALSE(parse_target(""));
}

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    base = fs::path(::testing::TempDir()) / ("sb_static_" + std::to_string(::getpid()));
    fs::remove_all(base);
    fs::create_directories(base / "www" / "sub");
    std::ofstream(base / "www" / "index.html") << "<p>hi";
    std::ofstream(base / "www" / "sub" / "index.html") << "<p>sub";
    std::ofstream(base / "www" / "app.js") << "1";
    std::ofstream(base / "www" / ".secret") << "no";
    std::ofstream(base / "outside.txt") << "outside";
    fs::create_symlink(base / "outside.txt", base / "www" / "link.txt");
  }
  void TearDown() override { fs::remove_all(base); }
  fs::path base;
};

TEST_F(StaticFiles, ServesFilesUnderTheRoot) {
  auto root = resolve_static(base / "www", "/");
  ASSERT_EQ(root.status, StaticFile::Status::Found);
  EXPECT_EQ(root.path.filename(), "index.html");
  EXPECT_EQ(root.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(resolve_static(base / "www", "/sub/").path, fs::canonical(base / "www" / "sub" / "index.html"));
  EXPECT_EQ(resolve_static(base / "www", "/app.js").content_type, "application/javascript; charset=utf-8");
  EXPECT_EQ(resolve_static(base / "www", "/missing.js").status, StaticFile::Status::NotFound);
}

TEST_F(StaticFiles, NeverLeavesTheRoot) {
  EXPECT_EQ(resolve_static(base / "www", "/../outside.txt").status, StaticFile::Status::Forbidden);
  EXPECT_EQ(resolve_static(base / "www", "/sub/../../outside.txt").status, StaticFile::Status::Forbidden);
  EXPECT_EQ(resolve_static(base / "www", "/.secret").status, StaticFile::Status::Forbidden);
  EXPECT_EQ(resolve_static(base / "www", "/link.txt").status, StaticFile::Status::Forbidden);
  EXPECT_EQ(resolve_static(base / "www", "/..\\outside.txt").status, StaticFile::Status::Forbidden);
  EXPECT_EQ(resolve_static(base / "www", "relative").status, StaticFile::Status::Forbidden);
}

TEST(Token, IsRandomAndCheckedExactly) {
  std::string a = make_token(), b = make_token();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_NE(a, b);
  EXPECT_TRUE(bearer_matches("Bearer " + a, a));
  EXPECT_TRUE(bearer_matches("bearer " + a, a));
  EXPECT_FALSE(bearer_matches("Bearer " + b, a));
  EXPECT_FALSE(bearer_matches("Bearer " + a + "x", a));
  EXPECT_FALSE(bearer_matches("Bearer " + a.substr(1), a));
  EXPECT_FALSE(bearer_matches(a, a));
  EXPECT_FALSE(bearer_matches("Bearer ", ""));
}

TEST(ListenAddress, ParsesPortsAndAddresses) {
  EXPECT_EQ(parse_listen_address("8080").address, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("8080").port, 8080);
  EXPECT_EQ(parse_listen_address("0.0.0.0:9000").address, "0.0.0.0");
  EXPECT_EQ(parse_listen_address("[::1]:9000").address, "::1");
  EXPECT_EQ(parse_listen_address("[::1]:9000").port, 9000);
  for (const char* bad : {"", "http", "80x", "70000", "::1:80", "[::1]80", ":80", "1.2.3.4:"})
    EXPECT_THROW(parse_listen_address(bad), InputError) << bad;
}

TEST(BoardModel, ValidatesAndOrdersSites) {
  nlohmann::json model = testing::cotoan_board_model();
  EXPECT_NO_THROW(validate_board_model(model));
  auto order = reading_order(model);
  ASSERT_EQ(order.size(), 99u);
  EXPECT_EQ(order.front(), "a11");
  EXPECT_EQ(order[8], "i11");
  EXPECT_EQ(order.back(), "i1");

  nlohmann::json bad = model;
  bad["sites"]["a1"] = "here";
  try {
    validate_board_model(bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "board model: site 'a1' is not a pair of numbers");
  }
  bad = model;
  bad["shapes"][3] = {{"kind", "hexagon"}};
  EXPECT_THROW(validate_board_model(bad), InputError);
  bad = model;
  bad.erase("width_mm");
  EXPECT_THROW(validate_board_model(bad), InputError);
  EXPECT_THROW(validate_board_model(nlohmann::json::array()), InputError);
}

}  // namespace
}  // namespace sb::display
