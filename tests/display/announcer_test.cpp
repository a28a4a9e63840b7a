#include "display/announcer.h"

#include <gtest/gtest.h>

#include "display/board_model.h"
#include "display/game_view.h"
#include "display_fixtures.h"

namespace sb::display {
namespace {

const std::vector<std::string> kRedBlue = {"red", "blue"};

TEST(Announcer, CotoanCaptureWritesOutTheCalculationInBothLanguages) {
  nlohmann::json e = {{"type", "move"}, {"side", "red"}, {"notation", "8:e3xe7"}, {"captured", {"e7"}}, {"points", 5},
                      {"calc", {{"a", 8}, {"b", 5}, {"op", "+"}, {"result", 13}, {"remainder", 0}, {"value", 3}}}};
  Announcement en = announce(e, kRedBlue, Language::English);
  EXPECT_EQ(en.kind, "capture");
  EXPECT_EQ(en.title, "Red  8:e3xe7");
  EXPECT_EQ(en.detail, "takes e7  \u00b7  8 + 5 = 13 \u2192 3  \u00b7  +5 points");
  EXPECT_EQ(en.speech, "Red, 8 from e3 takes e7. 8 plus 5 equals 13, counts 3. 5 points.");
  Announcement vi = announce(e, kRedBlue, Language::Vietnamese);
  EXPECT_EQ(vi.title, "Đỏ  8:e3xe7");
  EXPECT_EQ(vi.detail, "ăn e7  \u00b7  8 + 5 = 13 \u2192 3  \u00b7  +5 điểm");
  EXPECT_EQ(vi.speech, "Đỏ, 8 từ e3 ăn e7. 8 cộng 5 bằng 13, được 3. 5 điểm.");
}

TEST(Announcer, DivisionSaysItsRemainder) {
  nlohmann::json e = {{"type", "move"}, {"side", "blue"}, {"notation", "8:c5xc9"}, {"captured", {"c9"}}, {"points", 2},
                      {"calc", {{"a", 8}, {"b", 5}, {"op", "/"}, {"result", 1}, {"remainder", 3}, {"value", 3}}}};
  EXPECT_EQ(announce(e, kRedBlue, Language::Vietnamese).detail, "ăn c9  \u00b7  8 \u00f7 5 = 1 dư 3 \u2192 3  \u00b7  +2 điểm");
  EXPECT_EQ(announce(e, kRedBlue, Language::English).speech,
            "Blue, 8 from c5 takes c9. 8 divided by 5 equals 1 remainder 3, counts 3. 2 points.");
}

TEST(Announcer, IllegalMoveGivesReasonAndSquares) {
  nlohmann::json e = {{"type", "illegal"}, {"reason", "a capture is mandatory (22x13)"}, {"squares", {"22", "18"}}};
  Announcement en = announce(e, {"white", "black"}, Language::English);
  EXPECT_EQ(en.kind, "illegal");
  EXPECT_EQ(en.title, "Illegal move");
  EXPECT_EQ(en.detail, "a capture is mandatory (22x13)  \u00b7  22, 18");
  EXPECT_EQ(en.speech, "Illegal move. a capture is mandatory (22x13).");
  // Without a Vietnamese reason from the arbiter, the banner keeps the English one.
  EXPECT_EQ(announce(e, {"white", "black"}, Language::Vietnamese).title, "Nước đi không hợp lệ");
}

TEST(Announcer, DraughtsMoveIsSpokenAsSquares) {
  nlohmann::json e = {{"type", "move"}, {"side", "white"}, {"notation", "22x13"}, {"captured", {"18"}}, {"points", 1}};
  Announcement en = announce(e, {"white", "black"}, Language::English);
  // Its point is the piece it took: no "1 point" beside "takes 18".
  EXPECT_EQ(en.speech, "White, 22 takes 13.");
  EXPECT_EQ(en.detail, "takes 18");
}

TEST(Announcer, RefusedCommandSaysWhichAndWhy) {
  nlohmann::json e = {
      {"type", "refused"}, {"t", 5}, {"command", {{"command", "confirm"}}}, {"reason", "confirm: no move to confirm"}};
  Announcement en = announce(e, {"white", "black"}, Language::English);
  EXPECT_EQ(en.kind, "refused");
  EXPECT_EQ(en.title, "Command refused: confirm");
  EXPECT_EQ(en.detail, "confirm: no move to confirm");
  EXPECT_EQ(announce(e, {"white", "black"}, Language::Vietnamese).title, "Lệnh bị từ chối: confirm");
  EXPECT_TRUE(en.speech.empty());  // for the operator's eyes, not the hall's ears
}

TEST(Announcer, GameOverNamesTheWinner) {
  nlohmann::json e = {{"type", "game_over"}, {"result", "0-1"}, {"reason", "captured the 0"}};
  Announcement en = announce(e, kRedBlue, Language::English);
  EXPECT_EQ(en.title, "Game over: 0-1");
  EXPECT_EQ(en.detail, "Blue wins \u2014 captured the 0");
  EXPECT_EQ(announce(e, kRedBlue, Language::Vietnamese).speech, "Kết thúc ván đấu. Xanh thắng.");
  nlohmann::json draw = {{"type", "game_over"}, {"result", "1/2-1/2"}, {"reason", "agreement"}};
  EXPECT_EQ(announce(draw, kRedBlue, Language::English).detail, "Draw \u2014 agreement");
}

TEST(Announcer, ClockTicksAnnounceNothing) {
  EXPECT_TRUE(announcement_json({{"type", "clock"}, {"t", 5}}, kRedBlue).is_null());
  EXPECT_TRUE(announcement_json({{"type", "info"}, {"t", 5}}, kRedBlue).is_null());
  EXPECT_EQ(announcement_json({{"type", "restored"}}, kRedBlue)["vi"]["title"], "Đã đặt lại thế cờ");
}

TEST(Announcer, LanguagesByCode) {
  EXPECT_EQ(language_from_code("vi"), Language::Vietnamese);
  EXPECT_STREQ(language_code(Language::English), "en");
  EXPECT_THROW(language_from_code("fr"), InputError);
}

}  // namespace
}  // namespace sb::display
