// Speech for the page: the server renders each announcement to WAV with
// espeak-ng on its own thread (never on a network thread) and the page fetches
// /api/speech?seq=N&lang=xx. Only the newest announcement is worth rendering:
// a request for one that a newer announcement has overtaken is answered "gone"
// at once, and a render still waiting when a newer one arrives is dropped.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "display/announcer.h"
#include "display/speech.h"

namespace sb::display {

class SpeechService {
 public:
  struct Reply {
    int status = 200;  // 200 WAV, 404 no such announcement, 410 overtaken, 503 speech unavailable
    std::shared_ptr<const std::string> wav;
    std::string error;
  };
  using Callback = std::function<void(Reply)>;

  explicit SpeechService(SpeechOptions options = {});
  ~SpeechService();
  SpeechService(const SpeechService&) = delete;
  SpeechService& operator=(const SpeechService&) = delete;

  // The announcement `seq` says `en` / `vi` (empty: it says nothing).
  void announce(int64_t seq, std::string en, std::string vi);
  // Answers through `done`, from this thread or the service's worker.
  void request(int64_t seq, Language lang, Callback done);

  uint64_t rendered() const;
  uint64_t dropped() const;

 private:
  struct Key {
    int64_t seq;
    Language lang;
    bool operator<(const Key& o) const { return seq != o.seq ? seq < o.seq : lang < o.lang; }
  };
  void run();

  SpeechOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  int64_t latest_ = 0;                                      // newest announcement that says something
  std::map<int64_t, std::pair<std::string, std::string>> texts_;  // recent announcements
  std::map<Key, std::shared_ptr<const std::string>> cache_; // recent renders
  std::map<Key, std::vector<Callback>> waiting_;            // renders asked for, not done
  bool stopping_ = false;
  uint64_t rendered_ = 0, dropped_ = 0;
  std::thread worker_;
};

}  // namespace sb::display
