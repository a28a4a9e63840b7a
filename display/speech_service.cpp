#include "display/speech_service.h"

#include <stdexcept>

namespace sb::display {

namespace {
constexpr size_t kKeepTexts = 16;
constexpr size_t kKeepRenders = 8;
}  // namespace

SpeechService::SpeechService(SpeechOptions options) : options_(std::move(options)) {
  worker_ = std::thread([this] { run(); });
}

SpeechService::~SpeechService() {
  std::map<Key, std::vector<Callback>> waiting;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    waiting.swap(waiting_);
  }
  wake_.notify_all();
  worker_.join();
  for (auto& [key, callbacks] : waiting)
    for (auto& cb : callbacks) cb({503, nullptr, "the server is stopping"});
}

void SpeechService::announce(int64_t seq, std::string en, std::string vi) {
  if (en.empty() && vi.empty()) return;
  std::map<Key, std::vector<Callback>> overtaken;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    latest_ = std::max(latest_, seq);
    texts_[seq] = {std::move(en), std::move(vi)};
    while (texts_.size() > kKeepTexts) texts_.erase(texts_.begin());
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (it->first.seq < latest_) {
        overtaken.insert(std::move(*it));
        it = waiting_.erase(it);
        ++dropped_;
      } else {
        ++it;
      }
    }
  }
  for (auto& [key, callbacks] : overtaken)
    for (auto& cb : callbacks) cb({410, nullptr, "overtaken by a newer announcement"});
}

void SpeechService::request(int64_t seq, Language lang, Callback done) {
  std::unique_lock<std::mutex> lock(mutex_);
  const Key key{seq, lang};
  if (auto it = cache_.find(key); it != cache_.end()) {
    auto wav = it->second;
    lock.unlock();
    done({200, wav, ""});
    return;
  }
  if (seq < latest_) {
    lock.unlock();
    done({410, nullptr, "overtaken by a newer announcement"});
    return;
  }
  if (!texts_.count(seq)) {
    lock.unlock();
    done({404, nullptr, "no spoken announcement " + std::to_string(seq)});
    return;
  }
  waiting_[key].push_back(std::move(done));
  lock.unlock();
  wake_.notify_all();
}

uint64_t SpeechService::rendered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rendered_;
}

uint64_t SpeechService::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

void SpeechService::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
    if (stopping_) return;
    // The newest first: older ones are overtaken anyway.
    const Key key = waiting_.rbegin()->first;
    std::string text;
    if (auto it = texts_.find(key.seq); it != texts_.end())
      text = key.lang == Language::English ? it->second.first : it->second.second;
    lock.unlock();
    Reply reply;
    if (text.empty()) {
      reply.status = 404;
      reply.error = "announcement " + std::to_string(key.seq) + " says nothing in this language";
    } else {
      try {
        reply.wav = std::make_shared<const std::string>(render_wav(text, key.lang, options_));
      } catch (const std::exception& e) {
        reply.status = 503;
        reply.error = e.what();
      }
    }
    lock.lock();
    if (reply.wav) {
      cache_[key] = reply.wav;
      while (cache_.size() > kKeepRenders) cache_.erase(cache_.begin());
      ++rendered_;
    }
    std::vector<Callback> callbacks;
    if (auto it = waiting_.find(key); it != waiting_.end()) {
      callbacks = std::move(it->second);
      waiting_.erase(it);
    }
    lock.unlock();
    for (auto& cb : callbacks) cb(reply);
    lock.lock();
  }
}

}  // namespace sb::display
