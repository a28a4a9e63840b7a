#include "display/speech.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "display/process.h"
#include "display/speech_service.h"

namespace sb::display {
namespace {

using namespace std::chrono_literals;

TEST(Speaker, AStaleAnnouncementIsDroppedNotQueued) {
  std::mutex m;
  std::vector<std::string> said;
  std::atomic<bool> release{false};
  Speaker speaker({}, [&](const Speaker::Utterance& u) {
    {
      std::lock_guard<std::mutex> lock(m);
      said.push_back(u.text);
    }
    while (!release) std::this_thread::sleep_for(1ms);  // a long sentence
  });
  speaker.say("first", Language::English);
  for (int i = 0; i < 500; ++i) {
    std::lock_guard<std::mutex> lock(m);
    if (!said.empty()) break;
  }
  std::this_thread::sleep_for(20ms);
  // While "first" is spoken, three more arrive: only the newest is worth saying.
  speaker.say("second", Language::English);
  speaker.say("third", Language::English);
  speaker.say("fourth", Language::Vietnamese);
  release = true;
  speaker.drain();
  EXPECT_EQ(said, (std::vector<std::string>{"first", "fourth"}));
  EXPECT_EQ(speaker.spoken(), 2u);
  EXPECT_EQ(speaker.dropped(), 2u);
}

TEST(Speaker, AnAnnouncementTooOldToStartIsDropped) {
  SpeechOptions o;
  o.max_age = 30ms;
  std::vector<std::string> said;
  std::atomic<bool> release{false};
  Speaker speaker(o, [&](const Speaker::Utterance& u) {
    said.push_back(u.text);
    while (!release) std::this_thread::sleep_for(1ms);
  });
  speaker.say("first", Language::English);
  std::this_thread::sleep_for(20ms);
  speaker.say("old news", Language::English);
  std::this_thread::sleep_for(80ms);
  release = true;
  speaker.drain();
  EXPECT_EQ(said, (std::vector<std::string>{"first"}));
  EXPECT_EQ(speaker.dropped(), 1u);
}

TEST(Speech, RendersWavWithEspeak) {
  if (!on_path("espeak-ng")) GTEST_SKIP() << "espeak-ng is not installed (scripts/setup installs it)";
  std::string wav = render_wav("Đỏ, 8 từ e3 ăn e7. 8 cộng 5 bằng 13, được 3.", Language::Vietnamese);
  ASSERT_GT(wav.size(), 44u);
  EXPECT_EQ(wav.substr(0, 4), "RIFF");
  EXPECT_EQ(wav.substr(8, 4), "WAVE");
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(wav[at + i])) << (8 * i);
    return v;
  };
  EXPECT_EQ(u32(4), wav.size() - 8);  // real sizes, not espeak's streaming placeholders
  EXPECT_GT(wav.size(), 22050u);       // more than half a second of 16-bit 22 kHz sound
  // Text that looks like an option is still text.
  EXPECT_NO_THROW(render_wav("--help", Language::English));
}

TEST(Speech, AMissingProgramIsAClearError) {
  SpeechOptions o;
  o.program = "no-such-espeak-program";
  try {
    render_wav("hello", Language::English, o);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no-such-espeak-program is not installed");
  }
}

TEST(SpeechService, OvertakenRequestsAreAnsweredGone) {
  SpeechOptions o;
  o.program = "no-such-espeak-program";  // renders fail fast; the bookkeeping is what is tested
  SpeechService service(o);
  service.announce(1, "one", "một");
  service.announce(2, "two", "hai");
  std::promise<SpeechService::Reply> old_reply, missing_reply, new_reply;
  service.request(1, Language::English, [&](SpeechService::Reply r) { old_reply.set_value(r); });
  service.request(9, Language::English, [&](SpeechService::Reply r) { missing_reply.set_value(r); });
  service.request(2, Language::English, [&](SpeechService::Reply r) { new_reply.set_value(r); });
  EXPECT_EQ(old_reply.get_future().get().status, 410);
  EXPECT_EQ(missing_reply.get_future().get().status, 404);
  auto fresh = new_reply.get_future().get();
  EXPECT_EQ(fresh.status, 503);
  EXPECT_EQ(fresh.error, "no-such-espeak-program is not installed");
}

}  // namespace
}  // namespace sb::display
