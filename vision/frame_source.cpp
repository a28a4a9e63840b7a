#include "vision/frame_source.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <thread>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engines/common/errors.h"

namespace sb::vision {

namespace fs = std::filesystem;

const char* source_state_name(SourceState s) {
  switch (s) {
    case SourceState::Running: return "running";
    case SourceState::Reconnecting: return "reconnecting";
    case SourceState::Ended: return "ended";
  }
  return "?";
}

const char* source_event_name(SourceEvent::Kind k) {
  switch (k) {
    case SourceEvent::Kind::SkippedFrame: return "skipped_frame";
    case SourceEvent::Kind::Lost: return "lost";
    case SourceEvent::Kind::Retry: return "retry";
    case SourceEvent::Kind::Reconnected: return "reconnected";
  }
  return "?";
}

std::vector<SourceEvent> FrameSource::take_events() {
  std::vector<SourceEvent> out;
  out.swap(events_);
  return out;
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_image_name(const fs::path& p) {
  static const char* kExt[] = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"};
  const std::string ext = lower(p.extension().string());
  return std::any_of(std::begin(kExt), std::end(kExt), [&](const char* e) { return ext == e; });
}

// Every frame the pipeline sees is 8-bit BGR.
cv::Mat as_bgr8(const cv::Mat& in) {
  if (in.empty()) return in;
  cv::Mat m = in;
  if (m.depth() != CV_8U) {
    double scale = m.depth() == CV_16U ? 1.0 / 257 : 1.0;
    m.convertTo(m, CV_8U, scale);
  }
  if (m.channels() == 1) cv::cvtColor(m, m, cv::COLOR_GRAY2BGR);
  else if (m.channels() == 4) cv::cvtColor(m, m, cv::COLOR_BGRA2BGR);
  return m;
}

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// ---------------------------------------------------------------- folder

ImageFolderSource::ImageFolderSource(const std::string& dir, double fps) : dir_(dir), fps_(fps) {
  if (!(fps > 0)) throw InputError("--fps must be positive");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError("source folder '" + dir + "' does not exist");
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && is_image_name(entry.path())) files_.push_back(entry.path().string());
  if (ec) throw InputError("source folder '" + dir + "' cannot be read: " + ec.message());
  if (files_.empty()) throw InputError("source folder '" + dir + "' holds no image (png, jpg, bmp, tif, webp)");
  std::sort(files_.begin(), files_.end());
}

std::optional<Frame> ImageFolderSource::next() {
  while (pos_ < files_.size()) {
    const size_t i = pos_++;
    const int64_t t = static_cast<int64_t>(static_cast<double>(i) * 1000.0 / fps_ + 0.5);
    cv::Mat img;
    try {
      img = as_bgr8(cv::imread(files_[i], cv::IMREAD_UNCHANGED));
    } catch (const cv::Exception&) {
      img.release();
    }
    if (img.empty()) {
      report({SourceEvent::Kind::SkippedFrame, t,
              "skipped '" + fs::path(files_[i]).filename().string() + "': not a readable image"});
      continue;
    }
    Frame f;
    f.image = img;
    f.t_ms = t;
    f.index = delivered_++;
    f.name = fs::path(files_[i]).filename().string();
    return f;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- live

LiveSource::LiveSource(std::string description, CaptureOpener open, ReconnectParams params, Clock clock, Sleep sleep)
    : description_(std::move(description)),
      open_(std::move(open)),
      params_(params),
      clock_(clock ? std::move(clock) : Clock(steady_ms)),
      sleep_(sleep ? std::move(sleep) : Sleep([](int64_t ms) {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      })) {
  start_ms_ = clock_();
  capture_ = open_();
  if (!capture_) throw InputError(description_ + " cannot be opened");
}

bool LiveSource::reopen() {
  int64_t wait = params_.first_retry_ms;
  while (params_.max_attempts < 0 || attempts_ < params_.max_attempts) {
    sleep_(wait);
    ++attempts_;
    capture_ = open_();
    if (capture_) return true;
    wait = std::min<int64_t>(wait * 2, params_.max_retry_ms);
    report({SourceEvent::Kind::Retry, clock_() - start_ms_,
            description_ + ": reopening failed (attempt " + std::to_string(attempts_) + "), next try in " +
                std::to_string(wait) + " ms",
            attempts_, wait});
  }
  return false;
}

std::optional<Frame> LiveSource::next() {
  if (gave_up_) return std::nullopt;
  int failures = 0;
  for (;;) {
    cv::Mat img;
    bool ok = false;
    if (capture_) {
      try {
        ok = capture_->read(img);
      } catch (const cv::Exception&) {
        ok = false;
      }
      img = ok ? as_bgr8(img) : cv::Mat();
    }
    if (ok && !img.empty()) {
      if (state_ == SourceState::Reconnecting) {
        report({SourceEvent::Kind::Reconnected, clock_() - start_ms_,
                description_ + ": delivering again after " + std::to_string(attempts_) + " attempt(s)", attempts_});
        attempts_ = 0;
      }
      state_ = SourceState::Running;
      Frame f;
      f.image = img;
      f.t_ms = clock_() - start_ms_;
      f.index = delivered_++;
      return f;
    }
    if (capture_ && ++failures < params_.failed_reads) {
      report({SourceEvent::Kind::SkippedFrame, clock_() - start_ms_, description_ + ": a frame could not be read"});
      continue;
    }
    if (state_ != SourceState::Reconnecting) {
      state_ = SourceState::Reconnecting;
      report({SourceEvent::Kind::Lost, clock_() - start_ms_, description_ + ": no frames; reconnecting"});
    }
    capture_.reset();
    failures = 0;
    if (!reopen()) {
      gave_up_ = true;
      return std::nullopt;
    }
  }
}

// ---------------------------------------------------------------- video file

VideoFileSource::VideoFileSource(const std::string& path, double fallback_fps) : path_(path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw InputError("video '" + path + "' does not exist");
  capture_ = std::make_unique<cv::VideoCapture>();
  bool opened = false;
  // Only the backends that decode files: CAP_ANY would also probe camera libraries (gPhoto2 scans USB) for a
  // file that is no video, slowly and leaking what they allocate.
  for (int backend : {cv::CAP_FFMPEG, cv::CAP_GSTREAMER}) {
    try {
      opened = capture_->open(path, backend);
    } catch (const cv::Exception&) {
      opened = false;
    }
    if (opened) break;
  }
  if (!opened) throw InputError("video '" + path + "' cannot be decoded (not a video file OpenCV reads)");
  double fps = capture_->get(cv::CAP_PROP_FPS);
  fps_ = fps > 0.5 && fps < 1000 ? fps : fallback_fps;
  double n = capture_->get(cv::CAP_PROP_FRAME_COUNT);
  frame_count_ = n > 0 ? static_cast<int64_t>(n) : -1;
}

std::optional<Frame> VideoFileSource::next() {
  while (!ended_) {
    cv::Mat img;
    bool ok = false;
    try {
      ok = capture_->read(img);
    } catch (const cv::Exception&) {
      ok = false;
    }
    const int64_t i = read_++;
    const int64_t t = static_cast<int64_t>(static_cast<double>(i) * 1000.0 / fps_ + 0.5);
    if (ok && !img.empty()) {
      damaged_run_ = 0;
      Frame f;
      f.image = as_bgr8(img);
      f.t_ms = t;
      f.index = delivered_++;
      return f;
    }
    // A failed read before the frame count is a damaged frame: skip it. Past it (or with no count) the file ends.
    if (frame_count_ > 0 && i + 1 < frame_count_) {
      report({SourceEvent::Kind::SkippedFrame, t,
              describe() + ": frame " + std::to_string(i) + " could not be decoded"});
      if (++damaged_run_ > 30) ended_ = true;  // a long run of damage: give the rest up
      continue;
    }
    ended_ = true;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- opening

namespace {

class VideoCaptureDevice : public Capture {
 public:
  explicit VideoCaptureDevice(std::unique_ptr<cv::VideoCapture> c) : c_(std::move(c)) {}
  bool read(cv::Mat& bgr) override { return c_->read(bgr); }

 private:
  std::unique_ptr<cv::VideoCapture> c_;
};

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() < 4 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::unique_ptr<FrameSource> open_source(const std::string& spec, double fps, const ReconnectParams& reconnect) {
  if (!(fps > 0 && fps <= 1000)) throw InputError("--fps must be in (0, 1000]");
  if (spec.empty()) throw InputError("--source: empty");
  if (all_digits(spec)) {
    const int index = std::stoi(spec);
    CaptureOpener open = [index]() -> std::unique_ptr<Capture> {
      auto c = std::make_unique<cv::VideoCapture>();
      try {
        if (!c->open(index, cv::CAP_V4L2) && !c->open(index, cv::CAP_ANY)) return nullptr;
      } catch (const cv::Exception&) {
        return nullptr;
      }
      return std::make_unique<VideoCaptureDevice>(std::move(c));
    };
    return std::make_unique<LiveSource>("camera " + spec, open, reconnect);
  }
  if (spec.find("://") != std::string::npos) {
    CaptureOpener open = [spec]() -> std::unique_ptr<Capture> {
      auto c = std::make_unique<cv::VideoCapture>();
      try {
        if (!c->open(spec, cv::CAP_FFMPEG) && !c->open(spec, cv::CAP_ANY)) return nullptr;
      } catch (const cv::Exception&) {
        return nullptr;
      }
      return std::make_unique<VideoCaptureDevice>(std::move(c));
    };
    return std::make_unique<LiveSource>("stream '" + spec + "'", open, reconnect);
  }
  std::error_code ec;
  if (fs::is_directory(spec, ec)) return std::make_unique<ImageFolderSource>(spec, fps);
  if (fs::is_regular_file(spec, ec)) {
    if (is_image_name(spec))
      throw InputError("--source '" + spec + "' is one image: use 'smartboard read', or a folder of images");
    return std::make_unique<VideoFileSource>(spec, fps);
  }
  throw InputError("--source '" + spec + "' is not a camera index, stream URL, folder or video file");
}

}  // namespace sb::vision
