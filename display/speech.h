// Spoken announcements with espeak-ng: rendered to WAV for the page to play, or
// spoken on the machine's own audio. Either way only the newest announcement
// matters: one that a newer one overtakes before it is spoken is dropped, never
// queued behind it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "display/announcer.h"

namespace sb::display {

struct SpeechOptions {
  std::string program = "espeak-ng";
  int words_per_minute = 150;
  // An announcement not started within this long after it was made is stale.
  std::chrono::milliseconds max_age{4000};
};

// The espeak-ng voice of a language: "en-gb", "vi".
const char* espeak_voice(Language lang);

// The announcement as a WAV file (16-bit mono PCM). Throws std::runtime_error
// when espeak-ng is missing or fails.
std::string render_wav(const std::string& text, Language lang, const SpeechOptions& options = {});

// Speaks on the machine's audio, one announcement at a time, newest first.
class Speaker {
 public:
  struct Utterance {
    std::string text;
    Language lang = Language::English;
    std::chrono::steady_clock::time_point made;
  };
  // Says one utterance, returning when it has been said. The default speaks with espeak-ng.
  using Sink = std::function<void(const Utterance&)>;

  explicit Speaker(SpeechOptions options = {}, Sink sink = nullptr);
  ~Speaker();
  Speaker(const Speaker&) = delete;
  Speaker& operator=(const Speaker&) = delete;

  // Returns at once. Replaces an announcement still waiting to be spoken.
  void say(std::string text, Language lang);
  // Waits until nothing is waiting or being spoken (tests, shutdown).
  void drain();

  uint64_t spoken() const;
  uint64_t dropped() const;

 private:
  void run();

  SpeechOptions options_;
  Sink sink_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Utterance> pending_;
  bool speaking_ = false;
  bool stopping_ = false;
  uint64_t spoken_ = 0, dropped_ = 0;
  std::thread worker_;
};

}  // namespace sb::display
