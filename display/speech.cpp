#include "display/speech.h"

#include <cstring>
#include <iostream>
#include <stdexcept>

#include "display/process.h"

namespace sb::display {

namespace {

constexpr size_t kMaxWavBytes = 16 << 20;

void put_u32le(std::string& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// espeak-ng writes a streaming header with placeholder sizes; set the real ones so
// every player knows where the sound ends.
void fix_wav_sizes(std::string& wav) {
  if (wav.size() < 44 || wav.compare(0, 4, "RIFF") != 0 || wav.compare(8, 4, "WAVE") != 0)
    throw std::runtime_error("espeak-ng did not write a WAV file");
  put_u32le(wav, 4, static_cast<uint32_t>(wav.size() - 8));
  // Find the "data" chunk (after "fmt " and any others).
  size_t at = 12;
  while (at + 8 <= wav.size()) {
    uint32_t len = 0;
    for (int i = 0; i < 4; ++i) len |= static_cast<uint32_t>(static_cast<unsigned char>(wav[at + 4 + i])) << (8 * i);
    if (wav.compare(at, 4, "data") == 0) {
      put_u32le(wav, at + 4, static_cast<uint32_t>(wav.size() - at - 8));
      return;
    }
    at += 8 + len;
  }
  throw std::runtime_error("espeak-ng wrote a WAV file without sound data");
}

}  // namespace

const char* espeak_voice(Language lang) { return lang == Language::English ? "en-gb" : "vi"; }

std::string render_wav(const std::string& text, Language lang, const SpeechOptions& options) {
  // A leading '-' would be read as an option: the text is always one argument after a space.
  ProcessResult r = run_process({options.program, "-v", espeak_voice(lang), "-s", std::to_string(options.words_per_minute),
                                 "--stdout", " " + text},
                                kMaxWavBytes, std::chrono::seconds(10));
  if (r.status != 0) {
    if (!on_path(options.program)) throw std::runtime_error(options.program + " is not installed");
    throw std::runtime_error(options.program + " failed" + (r.timed_out ? " (timed out)" : r.truncated ? " (too long)" : ""));
  }
  fix_wav_sizes(r.out);
  return std::move(r.out);
}

Speaker::Speaker(SpeechOptions options, Sink sink) : options_(std::move(options)), sink_(std::move(sink)) {
  if (!sink_) {
    sink_ = [program = options_.program, wpm = options_.words_per_minute](const Utterance& u) {
      ProcessResult r = run_process({program, "-v", espeak_voice(u.lang), "-s", std::to_string(wpm), " " + u.text}, 1 << 16,
                                    std::chrono::seconds(30));
      static bool warned = false;
      if (r.status != 0 && !warned) {
        warned = true;
        std::cerr << "speech: " << program << " could not speak on this machine's audio\n";
      }
    };
  }
  worker_ = std::thread([this] { run(); });
}

Speaker::~Speaker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    if (pending_) {
      pending_.reset();
      ++dropped_;
    }
  }
  wake_.notify_all();
  worker_.join();
}

void Speaker::say(std::string text, Language lang) {
  if (text.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pending_) ++dropped_;
    pending_ = Utterance{std::move(text), lang, std::chrono::steady_clock::now()};
  }
  wake_.notify_all();
}

void Speaker::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait(lock, [this] { return !pending_ && !speaking_; });
}

uint64_t Speaker::spoken() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return spoken_;
}

uint64_t Speaker::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

void Speaker::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || pending_; });
    if (stopping_) return;
    Utterance u = std::move(*pending_);
    pending_.reset();
    if (std::chrono::steady_clock::now() - u.made > options_.max_age) {
      ++dropped_;
      wake_.notify_all();
      continue;
    }
    speaking_ = true;
    lock.unlock();
    sink_(u);
    lock.lock();
    speaking_ = false;
    ++spoken_;
    wake_.notify_all();
  }
}

}  // namespace sb::display
