#include "vision/board_locate.h"

#include <time.h>

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "vision/thread_clock.h"

namespace sb::vision {

BoardLocate::BoardLocate(calib::BoardModel model, std::optional<calib::Lens> lens, LocateParams params)
    : tracker_(calib::BoardLocator(std::move(model), params.locator, lens), params.tracker),
      params_(params),
      lens_(std::move(lens)) {}

std::vector<cv::Point2f> BoardLocate::board_quad_px() const {
  const calib::Quad& q = model().playing_area_corners();
  std::vector<calib::Vec2> mm(q.begin(), q.end());
  std::vector<cv::Point2f> out;
  for (const cv::Point2d& p : calibration_->image_points(mm))
    out.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  return out;
}

std::optional<Registration> BoardLocate::recheck(const cv::Mat& frame, bool refresh_reference) {
  std::optional<RecheckJob> job = begin_recheck(frame, refresh_reference);
  if (!job) return std::nullopt;
  return finish_recheck(run_recheck(*job));
}

std::optional<BoardLocate::RecheckJob> BoardLocate::begin_recheck(const cv::Mat& frame, bool refresh_reference) const {
  if (!calibration_ || frame.size() != calibration_->image_size) return std::nullopt;
  const bool have_view = view_ && view_revision_ == revision_;
  if (!fixed_) {
    // A board tracked by its markers: while they confirm the fit, the view is only taken (once per fit); when
    // they no longer do and the detector cannot find them again (a knocked camera, small or glared markers),
    // the view tells whether the camera moved.
    if (markers_confirm_ && have_view) return std::nullopt;
    if (!markers_confirm_ && !have_view) return std::nullopt;
  }
  RecheckJob job;
  job.frame = frame;
  if (have_view) job.reference = view_;
  job.quad = board_quad_px();
  job.params = params_.registration;
  job.revision = revision_;
  job.refresh_reference = refresh_reference;
  return job;
}

BoardLocate::RecheckOutcome BoardLocate::run_recheck(const RecheckJob& job) {
  const double t0 = thread_cpu_ms();
  auto reference_at = [&](const std::vector<cv::Point2f>& quad) {
    // Features on the board and round it (the table near it stays still too): the playing area grown by half.
    cv::Point2f c(0, 0);
    for (const auto& p : quad) c += p * 0.25f;
    std::vector<cv::Point> zone;
    for (const auto& p : quad) {
      const cv::Point2f g = c + (p - c) * 1.5f;
      zone.emplace_back(cvRound(g.x), cvRound(g.y));
    }
    cv::Mat mask = cv::Mat::zeros(job.frame.size(), CV_8U);
    cv::fillConvexPoly(mask, zone, cv::Scalar(255));
    auto view = std::make_shared<ViewRegistration>(job.params);
    view->set_reference(job.frame, quad, mask);
    return std::shared_ptr<const ViewRegistration>(std::move(view));
  };
  RecheckOutcome out;
  out.revision = job.revision;
  out.quad = job.quad;
  if (!job.reference) {
    out.reference = reference_at(job.quad);
    out.registration.told = true;
  } else {
    out.registration = job.reference->check(job.frame);
    if (out.registration.told && out.registration.moved) {
      // The camera moved: the playing area's corners follow the image motion, and the view is taken anew there.
      cv::perspectiveTransform(job.quad, out.quad, cv::Mat(out.registration.image_motion));
      out.reference = reference_at(out.quad);
    } else if (out.registration.told && job.refresh_reference) {
      out.reference = reference_at(job.quad);
    }
  }
  out.registration.ms = thread_cpu_ms() - t0;
  return out;
}

Registration BoardLocate::finish_recheck(const RecheckOutcome& outcome) {
  if (outcome.revision != revision_ || !calibration_) return Registration{};
  const Registration& r = outcome.registration;
  if (r.told && r.moved) {
    // The fit is made anew from the corners where the image motion took them.
    std::vector<cv::Point2d> ideal;
    for (const auto& p : outcome.quad) ideal.emplace_back(p.x, p.y);
    if (lens_) ideal = lens_->undistort(ideal);
    const calib::Quad& q = model().playing_area_corners();
    std::vector<cv::Point2f> from, to;
    for (size_t i = 0; i < 4; ++i) {
      from.emplace_back(static_cast<float>(q[i].x), static_cast<float>(q[i].y));
      to.emplace_back(static_cast<float>(ideal[i].x), static_cast<float>(ideal[i].y));
    }
    calib::BoardFit fit = calibration_->fit;
    fit.board_to_ideal = cv::Matx33d(cv::getPerspectiveTransform(from, to));
    fit.points = r.inliers;
    adopt(fit, calibration_->image_size);
    tracker_.reset(fit);
  }
  if (outcome.reference) {
    view_ = outcome.reference;
    view_revision_ = revision_;
  }
  return r;
}

void BoardLocate::adopt(const calib::BoardFit& fit, cv::Size size) {
  calib::Calibration c;
  c.game = model().game;
  c.image_size = size;
  c.fit = fit;
  c.lens = lens_;
  calibration_ = c;
  ++revision_;
}

void BoardLocate::use_fit(const calib::BoardFit& fit, cv::Size image_size, std::optional<calib::Lens> lens) {
  if (lens) {
    lens_ = std::move(lens);
    calib::BoardModel model = tracker_.locator().model();
    tracker_ = calib::BoardTracker(calib::BoardLocator(std::move(model), params_.locator, lens_), params_.tracker);
  }
  adopt(fit, image_size);
  tracker_.reset(fit);
  // Whether markers will keep it up to date is known once a frame shows them (update()).
  fixed_ = true;
  markers_seen_ = false;
  frames_ = 0;
}

std::vector<int> BoardLocate::possible_turns() const {
  const calib::Quad& q = model().playing_area_corners();
  const double w = std::hypot(q[1].x - q[0].x, q[1].y - q[0].y), h = std::hypot(q[3].x - q[0].x, q[3].y - q[0].y);
  if (std::abs(w - h) <= 0.01 * std::max(w, h)) return {0, 1, 2, 3};
  return {0, 2};
}

void BoardLocate::turn(int quarter_turns) {
  quarter_turns = ((quarter_turns % 4) + 4) % 4;
  if (!calibration_ || quarter_turns == 0) return;
  // T maps each corner of the playing area to the one `quarter_turns` further round; the turned fit shows
  // board point p where the old fit showed T(p).
  const calib::Quad& q = model().playing_area_corners();
  std::vector<cv::Point2f> from, to;
  for (size_t i = 0; i < 4; ++i) {
    from.emplace_back(static_cast<float>(q[i].x), static_cast<float>(q[i].y));
    const calib::Vec2& t = q[(i + static_cast<size_t>(quarter_turns)) % 4];
    to.emplace_back(static_cast<float>(t.x), static_cast<float>(t.y));
  }
  const cv::Matx33d turn_map(cv::getPerspectiveTransform(from, to));
  calib::BoardFit fit = calibration_->fit;
  fit.board_to_ideal = fit.board_to_ideal * turn_map;
  const bool fixed = fixed_;
  adopt(fit, calibration_->image_size);
  tracker_.reset(fit);
  fixed_ = fixed;
}

LocateResult BoardLocate::update(const cv::Mat& frame) {
  const double t0 = thread_cpu_ms();
  LocateResult r;
  const cv::Size size(frame.cols, frame.rows);
  if (calibration_ && calibration_->image_size != size) {
    // Another frame size (a camera that changed its mode): the fit no longer applies.
    calibration_.reset();
    fixed_ = false;
  }
  ++frames_;

  if (fixed_) {
    // A given fit. If the board has markers and they are where the fit says, track them from now on, so a
    // moved board is followed; otherwise keep the fit as it is.
    if (!markers_seen_ && !model().markers.markers.empty() && frames_ <= 3) {
      cv::Mat gray = calib::gray_of(frame);
      if (tracker_.markers_in_place(gray, calibration_->fit) >= 2) markers_seen_ = true, fixed_ = false;
    }
    if (fixed_) {
      r.located = true;
      r.state = "fixed";
      r.changed = frames_ == 1;
      r.ms = thread_cpu_ms() - t0;
      return r;
    }
  }

  if (!calibration_ && !tracker_.fit()) {
    // Searching: markers first (the tracker), then the drawn outline of a plain board.
    if ((frames_ - 1) % std::max(1, params_.retry_every_frames) != 0) {
      r.state = "searching";
      r.ms = thread_cpu_ms() - t0;
      return r;
    }
    calib::TrackUpdate u = tracker_.update(frame);
    if (tracker_.fit()) {
      adopt(*tracker_.fit(), size);
      r.located = r.changed = true;
      r.state = calib::track_state_name(u.state);
      r.markers = u.markers_in_place;
      r.ms = thread_cpu_ms() - t0;
      return r;
    }
    if (params_.use_outline) {
      if (auto fit = tracker_.locator().find_outline(frame)) {
        adopt(*fit, size);
        fixed_ = true;
        r.located = r.changed = true;
        r.state = "fixed";
        r.ms = thread_cpu_ms() - t0;
        return r;
      }
    }
    r.state = "searching";
    r.ms = thread_cpu_ms() - t0;
    return r;
  }

  calib::TrackUpdate u = tracker_.update(frame);
  r.state = calib::track_state_name(u.state);
  r.markers = u.markers_in_place;
  markers_confirm_ = u.state == calib::TrackState::Locked || u.state == calib::TrackState::Moved;
  if (tracker_.fit() && (u.state == calib::TrackState::Moved || !calibration_)) {
    adopt(*tracker_.fit(), size);
    r.changed = true;
  }
  r.located = calibration_.has_value();
  r.ms = thread_cpu_ms() - t0;
  return r;
}

}  // namespace sb::vision
