// Where frames come from: a camera by index (V4L2 through cv::VideoCapture), a video file, a folder of images
// read in name order at a fixed rate, or a stream URL (RTSP, HTTP MJPEG as phone and IP cameras give).
//
// A source never throws in the middle of a game: an unreadable image in a folder is skipped, a live camera or
// stream that stops delivering is reopened with back-off, and each of these is reported as a SourceEvent for the
// caller to show. Only opening a source that cannot be read at all (no such file, an empty folder, a file that is
// not a video) is an InputError.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

namespace sb::vision {

struct Frame {
  cv::Mat image;       // 8-bit BGR
  int64_t t_ms = 0;    // milliseconds since the source started: from the frame rate for files and folders, the
                       // clock for live sources
  int64_t index = 0;   // frames delivered before this one
  std::string name;    // the image's file name (folders), else empty
};

// The state of a source as a player's screen would show it.
enum class SourceState {
  Running,       // frames arrive
  Reconnecting,  // a live source stopped; it is being reopened with back-off
  Ended,         // a file or folder was read to its end
};
const char* source_state_name(SourceState s);

// Something that happened while reading, for the operator (never fatal).
struct SourceEvent {
  enum class Kind {
    SkippedFrame,  // one frame or image could not be read and was left out
    Lost,          // a live source stopped delivering
    Retry,         // an attempt to reopen it failed; the next one follows after `retry_in_ms`
    Reconnected,   // it delivers again
  };
  Kind kind = Kind::SkippedFrame;
  int64_t t_ms = 0;
  std::string message;  // one line: what and where
  int attempt = 0;      // Retry, Reconnected: the number of the attempt
  int64_t retry_in_ms = 0;
};
const char* source_event_name(SourceEvent::Kind k);

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // The next frame; nullopt once the source has ended (files and folders only: a live source keeps trying).
  virtual std::optional<Frame> next() = 0;
  virtual SourceState state() const = 0;
  // For messages: "camera 0", "video 'game.mp4'", "folder 'frames/'", "stream 'rtsp://…'".
  virtual std::string describe() const = 0;
  // The events since the last call.
  std::vector<SourceEvent> take_events();

 protected:
  void report(SourceEvent e) { events_.push_back(std::move(e)); }

 private:
  std::vector<SourceEvent> events_;
};

// The images of a folder (png, jpg, jpeg, bmp, tif, tiff, webp; any case) in name order, frame i at
// i·1000/fps ms. Throws InputError when the folder does not exist or holds no image; an image that cannot be
// decoded is skipped with a SkippedFrame event (its time slot stays empty).
class ImageFolderSource : public FrameSource {
 public:
  ImageFolderSource(const std::string& dir, double fps);
  std::optional<Frame> next() override;
  SourceState state() const override { return pos_ < files_.size() ? SourceState::Running : SourceState::Ended; }
  std::string describe() const override { return "folder '" + dir_ + "'"; }
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::string dir_;
  double fps_;
  std::vector<std::string> files_;
  size_t pos_ = 0;
  int64_t delivered_ = 0;
};

// One raw capture device as the live source sees it: a camera, a stream. Tests put a fake one in.
class Capture {
 public:
  virtual ~Capture() = default;
  // false when no frame came (the device or stream is gone, or a frame could not be decoded).
  virtual bool read(cv::Mat& bgr) = 0;
};
// Opens a capture; nullptr when it cannot be opened now.
using CaptureOpener = std::function<std::unique_ptr<Capture>()>;

struct ReconnectParams {
  int first_retry_ms = 250;   // the wait before the first attempt to reopen
  int max_retry_ms = 8000;    // waits double up to this
  int failed_reads = 3;       // reads in a row that bring nothing before the source counts as lost
  int max_attempts = -1;      // reopen attempts before giving up (-1: never give up, as in a game)
};

// A camera or stream that must not stop a game when it fails: frames are timed by a monotonic clock; when reads
// fail `failed_reads` times in a row the source is Lost, closed and reopened after 250 ms, 500 ms, 1 s, … (up
// to max_retry_ms) until it delivers again. The clock and the sleep can be replaced (tests).
class LiveSource : public FrameSource {
 public:
  using Clock = std::function<int64_t()>;             // milliseconds, monotonic
  using Sleep = std::function<void(int64_t ms)>;
  LiveSource(std::string description, CaptureOpener open, ReconnectParams params = {}, Clock clock = {},
             Sleep sleep = {});
  std::optional<Frame> next() override;
  SourceState state() const override { return state_; }
  std::string describe() const override { return description_; }

 private:
  bool reopen();

  std::string description_;
  CaptureOpener open_;
  ReconnectParams params_;
  Clock clock_;
  Sleep sleep_;
  std::unique_ptr<Capture> capture_;
  SourceState state_ = SourceState::Running;
  int64_t start_ms_ = 0;
  int64_t delivered_ = 0;
  int attempts_ = 0;
  bool gave_up_ = false;
};

// A video file read frame by frame; its own frame rate (or `fps` when the file gives none) times the frames.
// Throws InputError when the file does not exist or is not a video OpenCV can decode.
class VideoFileSource : public FrameSource {
 public:
  VideoFileSource(const std::string& path, double fallback_fps);
  std::optional<Frame> next() override;
  SourceState state() const override { return ended_ ? SourceState::Ended : SourceState::Running; }
  std::string describe() const override { return "video '" + path_ + "'"; }

 private:
  std::string path_;
  std::unique_ptr<cv::VideoCapture> capture_;
  double fps_ = 30;
  int64_t frame_count_ = -1;
  int64_t read_ = 0;  // frames taken from the file, delivered or not
  int64_t delivered_ = 0;
  int damaged_run_ = 0;
  bool ended_ = false;
};

// What `--source` names: a camera index ("0"), a stream URL ("rtsp://…", "http://…/video"), a folder of images,
// or a video file. Throws InputError naming `spec` when it is none of these or cannot be opened.
std::unique_ptr<FrameSource> open_source(const std::string& spec, double fps = 30,
                                         const ReconnectParams& reconnect = {});

}  // namespace sb::vision
