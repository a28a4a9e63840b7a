// Frame sources: folders in name order with a corrupt file skipped and reported, a live source that fails
// mid-stream reconnecting with back-off, an HTTP MJPEG stream (as phone and IP cameras give) served by a tiny
// server in the test that drops its viewer and comes back, and clear errors for what cannot be read at all.
#include "vision/frame_source.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <thread>

#include "engines/common/errors.h"

namespace sb::vision {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sb_vision_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

cv::Mat flat(int grey) {
  return cv::Mat(24, 32, CV_8UC3, cv::Scalar(grey, grey, grey));
}

TEST(ImageFolderSource, DeliversImagesInNameOrderTimedByTheFrameRate) {
  fs::path d = fresh_dir("order");
  cv::imwrite((d / "b.png").string(), flat(20));
  cv::imwrite((d / "a.png").string(), flat(10));
  cv::imwrite((d / "c.JPG").string(), flat(30));
  std::ofstream(d / "notes.txt") << "not an image";
  ImageFolderSource src(d.string(), 10);
  std::vector<std::string> names;
  std::vector<int64_t> times;
  while (auto f = src.next()) {
    names.push_back(f->name);
    times.push_back(f->t_ms);
    EXPECT_EQ(f->image.type(), CV_8UC3);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a.png", "b.png", "c.JPG"}));
  EXPECT_EQ(times, (std::vector<int64_t>{0, 100, 200}));
  EXPECT_EQ(src.state(), SourceState::Ended);
  fs::remove_all(d);
}

TEST(ImageFolderSource, SkipsACorruptImageWithAReportAndGoesOn) {
  fs::path d = fresh_dir("corrupt");
  cv::imwrite((d / "000.png").string(), flat(10));
  std::ofstream(d / "001.png", std::ios::binary) << "\x89PNG garbage that is no picture";
  cv::imwrite((d / "002.png").string(), flat(30));
  ImageFolderSource src(d.string(), 30);
  auto a = src.next();
  ASSERT_TRUE(a);
  EXPECT_TRUE(src.take_events().empty());
  auto b = src.next();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "002.png");
  EXPECT_EQ(b->t_ms, 67);  // its own time slot: the corrupt one's stays empty
  std::vector<SourceEvent> events = src.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SourceEvent::Kind::SkippedFrame);
  EXPECT_NE(events[0].message.find("001.png"), std::string::npos);
  EXPECT_FALSE(src.next());
  fs::remove_all(d);
}

TEST(OpenSource, NamesWhatCannotBeReadAtAll) {
  fs::path d = fresh_dir("errors");
  EXPECT_THROW(open_source((d / "missing").string()), InputError);
  EXPECT_THROW(open_source(d.string()), InputError);  // an empty folder
  std::ofstream(d / "fake.mp4") << "this is no video";
  EXPECT_THROW(open_source((d / "fake.mp4").string()), InputError);
  cv::imwrite((d / "one.png").string(), flat(5));
  try {
    open_source((d / "one.png").string());
    ADD_FAILURE() << "one image is no source";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("smartboard read"), std::string::npos) << e.what();
  }
  EXPECT_THROW(open_source(d.string(), 0), InputError);
  fs::remove_all(d);
}

// A camera that delivers `good` frames, then nothing until it has been reopened `fail_opens` times.
struct FlakyCamera {
  int good = 3;
  int fail_opens = 2;
  int opens = 0;
  int delivered = 0;
};

class FakeCapture : public Capture {
 public:
  explicit FakeCapture(FlakyCamera& cam) : cam_(cam) {}
  bool read(cv::Mat& bgr) override {
    if (cam_.opens == 1 && cam_.delivered >= cam_.good) return false;  // the first session dies
    bgr = flat(10 + cam_.delivered++);
    return true;
  }

 private:
  FlakyCamera& cam_;
};

TEST(LiveSource, ACameraLostMidGameIsReopenedWithBackOffAndReported) {
  FlakyCamera cam;
  int64_t now = 0;
  std::vector<int64_t> waits;
  CaptureOpener open = [&]() -> std::unique_ptr<Capture> {
    ++cam.opens;
    if (cam.opens > 1 && cam.opens <= 1 + cam.fail_opens) return nullptr;
    return std::make_unique<FakeCapture>(cam);
  };
  LiveSource src(
      "camera 7", open, {}, [&] { return now; },
      [&](int64_t ms) {
        waits.push_back(ms);
        now += ms;
      });
  for (int i = 0; i < 3; ++i) {
    now += 33;
    ASSERT_TRUE(src.next());
  }
  EXPECT_TRUE(src.take_events().empty());
  // The fourth frame comes only after the camera was reopened (third attempt).
  auto f = src.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(src.state(), SourceState::Running);
  EXPECT_EQ(waits, (std::vector<int64_t>{250, 500, 1000}));
  EXPECT_EQ(f->t_ms, 99 + 1750);
  std::vector<SourceEvent> events = src.take_events();
  std::vector<SourceEvent::Kind> kinds;
  for (const auto& e : events)
    if (e.kind != SourceEvent::Kind::SkippedFrame) kinds.push_back(e.kind);
  EXPECT_EQ(kinds, (std::vector<SourceEvent::Kind>{SourceEvent::Kind::Lost, SourceEvent::Kind::Retry,
                                                   SourceEvent::Kind::Retry, SourceEvent::Kind::Reconnected}));
  EXPECT_EQ(events.back().attempt, 3);
}

TEST(LiveSource, GivesUpOnlyWhenToldTo) {
  int opens = 0;
  CaptureOpener open = [&]() -> std::unique_ptr<Capture> {
    if (opens++ > 0) return nullptr;
    struct Dead : Capture {
      bool read(cv::Mat&) override { return false; }
    };
    return std::make_unique<Dead>();
  };
  ReconnectParams p;
  p.max_attempts = 4;
  LiveSource src(
      "stream 'rtsp://x'", open, p, [] { return int64_t{0}; }, [](int64_t) {});
  EXPECT_FALSE(src.next());
  EXPECT_EQ(opens, 5);
  EXPECT_EQ(src.state(), SourceState::Reconnecting);
}

// An HTTP MJPEG camera on loopback: each viewer that connects gets `per_viewer` JPEG frames of rising grey
// (multipart/x-mixed-replace, as phone and IP cameras send them), then the connection drops (the camera's
// Wi-Fi went away). Serves `viewers` connections, then stops.
class MjpegServer {
 public:
  MjpegServer(int per_viewer, int viewers) : per_viewer_(per_viewer), viewers_(viewers) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 4) != 0) return;
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~MjpegServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  int connections() const { return connections_; }

 private:
  void serve() {
    int grey = 20;
    for (int v = 0; v < viewers_ && !stop_; ++v) {
      pollfd p{fd_, POLLIN, 0};
      while (!stop_ && ::poll(&p, 1, 50) <= 0) {
      }
      if (stop_) return;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      ++connections_;
      std::string request;
      char buf[1024];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::read(c, buf, sizeof buf);
        if (n <= 0) break;
        request.append(buf, static_cast<size_t>(n));
      }
      std::string out =
          "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\nCache-Control: "
          "no-cache\r\n\r\n";
      for (int i = 0; i < per_viewer_; ++i, grey += 10) {
        std::vector<uchar> jpeg;
        cv::imencode(".jpg", cv::Mat(48, 64, CV_8UC3, cv::Scalar(grey, grey, grey)), jpeg);
        out += "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(jpeg.size()) + "\r\n\r\n";
        out.append(jpeg.begin(), jpeg.end());
        out += "\r\n";
      }
      for (size_t sent = 0; sent < out.size();) {
        const ssize_t n = ::send(c, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<size_t>(n);
      }
      ::shutdown(c, SHUT_RDWR);
      ::close(c);
    }
  }

  int per_viewer_, viewers_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<int> connections_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(StreamSource, AnHttpMjpegStreamIsReadAndReopenedWhenItDrops) {
  MjpegServer camera(6, 2);
  ASSERT_GT(camera.port(), 0) << "no loopback port for the test camera";
  ReconnectParams quick;
  quick.first_retry_ms = 50;
  quick.max_attempts = 20;
  std::unique_ptr<FrameSource> src =
      open_source("http://127.0.0.1:" + std::to_string(camera.port()) + "/video.mjpg", 30, quick);
  EXPECT_EQ(src->describe().rfind("stream 'http://127.0.0.1:", 0), 0u) << src->describe();
  // The greys of the frames delivered: the first viewer's six, then, after the drop, the second viewer's.
  std::vector<int> greys;
  std::vector<SourceEvent::Kind> kinds;
  int64_t last_t = -1;
  for (int i = 0; i < 12; ++i) {
    std::optional<Frame> f = src->next();
    for (const SourceEvent& e : src->take_events())
      if (e.kind != SourceEvent::Kind::SkippedFrame) kinds.push_back(e.kind);
    ASSERT_TRUE(f) << "the stream gave no frame " << i + 1;
    ASSERT_EQ(f->image.type(), CV_8UC3);
    ASSERT_EQ(f->image.size(), cv::Size(64, 48));
    EXPECT_GE(f->t_ms, last_t);
    last_t = f->t_ms;
    greys.push_back(static_cast<int>(std::lround(cv::mean(f->image)[0])));
  }
  ASSERT_EQ(greys.size(), 12u);
  for (size_t i = 0; i < greys.size(); ++i)
    EXPECT_NEAR(greys[i], 20 + 10 * static_cast<int>(i), 3) << "frame " << i + 1;
  EXPECT_EQ(camera.connections(), 2);
  ASSERT_FALSE(kinds.empty());
  EXPECT_EQ(kinds.front(), SourceEvent::Kind::Lost);
  EXPECT_EQ(kinds.back(), SourceEvent::Kind::Reconnected);
  EXPECT_EQ(src->state(), SourceState::Running);
}

}  // namespace
}  // namespace sb::vision
