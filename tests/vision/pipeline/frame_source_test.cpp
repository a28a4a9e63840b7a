// Frame sources: folders in name order with a corrupt file skipped and reported, a live source that fails
// mid-stream reconnecting with back-off, and clear errors for what cannot be read at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "engines/common/errors.h"
#include "vision/frame_source.h"

namespace sb::vision {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sb_vision_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

cv::Mat flat(int grey) { return cv::Mat(24, 32, CV_8UC3, cv::Scalar(grey, grey, grey)); }

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
  LiveSource src("camera 7", open, {}, [&] { return now; }, [&](int64_t ms) {
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
  LiveSource src("stream 'rtsp://x'", open, p, [] { return int64_t{0}; }, [](int64_t) {});
  EXPECT_FALSE(src.next());
  EXPECT_EQ(opens, 5);
  EXPECT_EQ(src.state(), SourceState::Reconnecting);
}

}  // namespace
}  // namespace sb::vision
