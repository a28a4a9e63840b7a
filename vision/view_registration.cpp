#include "vision/view_registration.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/thread_clock.h"

namespace sb::vision {

namespace {

cv::Mat gray_of(const cv::Mat& frame) {
  cv::Mat gray;
  if (frame.channels() == 3)
    cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
  else if (frame.channels() == 4)
    cv::cvtColor(frame, gray, cv::COLOR_BGRA2GRAY);
  else
    gray = frame;
  return gray;
}

}  // namespace

void ViewRegistration::detect(const cv::Mat& gray, std::vector<cv::Point2f>& points, cv::Mat& descriptors) const {
  cv::Ptr<cv::ORB> orb = cv::ORB::create(params_.features);
  std::vector<cv::KeyPoint> kp;
  orb->detectAndCompute(gray, mask_.size() == gray.size() ? mask_ : cv::Mat(), kp, descriptors);
  points.clear();
  for (const cv::KeyPoint& k : kp) points.push_back(k.pt);
}

cv::Mat ViewRegistration::small_gray(const cv::Mat& gray) const {
  cv::Mat small;
  const int k = std::max(1, params_.shift_scale);
  cv::resize(gray, small, cv::Size(std::max(1, gray.cols / k), std::max(1, gray.rows / k)), 0, 0, cv::INTER_AREA);
  small.convertTo(small, CV_32F);
  return small;
}

void ViewRegistration::set_reference(const cv::Mat& frame, const std::vector<cv::Point2f>& quad, const cv::Mat& mask) {
  quad_ = quad;
  mask_ = mask;
  size_ = frame.size();
  const cv::Mat gray = gray_of(frame);
  detect(gray, ref_points_, ref_descriptors_);
  ref_small_ = params_.guided_radius_px > 0 ? small_gray(gray) : cv::Mat();
}

void ViewRegistration::judge(const std::vector<cv::Point2f>& from, const std::vector<cv::Point2f>& to,
                             Registration& r) const {
  std::vector<uchar> inlier;
  cv::Mat h =
      from.size() >= 4 ? cv::findHomography(from, to, cv::RANSAC, params_.ransac_px, inlier, 2000, 0.999) : cv::Mat();
  r.inliers = static_cast<int>(std::count(inlier.begin(), inlier.end(), uchar{1}));
  if (h.empty() || r.inliers < params_.min_inliers ||
      r.inliers < params_.min_inlier_share * static_cast<double>(from.size()))
    return;
  r.told = true;
  r.image_motion = cv::Matx33d(h);
  std::vector<cv::Point2f> moved;
  cv::perspectiveTransform(quad_, moved, h);
  for (size_t i = 0; i < quad_.size(); ++i)
    r.corner_shift_px = std::max(r.corner_shift_px, static_cast<double>(cv::norm(moved[i] - quad_[i])));
  // A hand over part of the view leaves the matches on the other part, and the homography through them may
  // tilt enough to move the far corners by a pixel or two though nothing moved (a hand held still over a small
  // board, the board then "moved" and the gate started anew under the hand). A scene that did not move is
  // explained point for point by no motion as well as by the fitted one.
  std::vector<cv::Point2f> mapped;
  cv::perspectiveTransform(from, mapped, h);
  const double still2 = params_.still_px * params_.still_px;
  for (size_t i = 0; i < from.size(); ++i) {
    const cv::Point2f dm = mapped[i] - to[i], ds = from[i] - to[i];
    r.fitted_close += dm.dot(dm) <= still2;
    r.still_close += ds.dot(ds) <= still2;
  }
  const bool no_motion_explains = r.still_close >= params_.still_share * r.fitted_close;
  r.moved = r.corner_shift_px > params_.moved_px && !no_motion_explains;
}

Registration ViewRegistration::check(const cv::Mat& frame) const {
  const double t0 = thread_cpu_ms();
  Registration r;
  if (ref_descriptors_.empty() || frame.size() != size_) {
    r.ms = thread_cpu_ms() - t0;
    return r;
  }
  std::vector<cv::Point2f> points;
  cv::Mat descriptors;
  const cv::Mat gray = gray_of(frame);
  detect(gray, points, descriptors);
  if (descriptors.empty()) {
    r.ms = thread_cpu_ms() - t0;
    return r;
  }
  cv::BFMatcher matcher(cv::NORM_HAMMING, /*crossCheck=*/true);
  std::vector<cv::DMatch> matches;
  matcher.match(ref_descriptors_, descriptors, matches);
  r.matches = static_cast<int>(matches.size());
  if (r.matches < params_.min_inliers) {
    r.ms = thread_cpu_ms() - t0;
    return r;
  }
  std::vector<cv::Point2f> from, to;
  for (const cv::DMatch& m : matches) {
    from.push_back(ref_points_[static_cast<size_t>(m.queryIdx)]);
    to.push_back(points[static_cast<size_t>(m.trainIdx)]);
  }
  judge(from, to, r);
  if (!r.told && !ref_small_.empty()) {
    // The views' shift, then each reference feature matched among the new view's near where it puts it: the
    // nearest descriptor there, when plainly nearer than the next (a repeated corner has its twins a pitch away).
    const cv::Mat small = small_gray(gray);
    cv::Mat window;
    cv::createHanningWindow(window, small.size(), CV_32F);
    const cv::Point2d s = cv::phaseCorrelate(ref_small_, small, window) * std::max(1, params_.shift_scale);
    r.shift = s;
    const float radius2 = static_cast<float>(params_.guided_radius_px * params_.guided_radius_px);
    std::vector<cv::Point2f> gfrom, gto;
    for (size_t i = 0; i < ref_points_.size(); ++i) {
      const cv::Point2f want = ref_points_[i] + cv::Point2f(static_cast<float>(s.x), static_cast<float>(s.y));
      int best = -1, best_d = 1 << 30, second_d = 1 << 30;
      for (size_t j = 0; j < points.size(); ++j) {
        const cv::Point2f d = points[j] - want;
        if (d.dot(d) > radius2) continue;
        const int dist = static_cast<int>(cv::norm(ref_descriptors_.row(static_cast<int>(i)),
                                                   descriptors.row(static_cast<int>(j)), cv::NORM_HAMMING));
        if (dist < best_d)
          second_d = best_d, best_d = dist, best = static_cast<int>(j);
        else if (dist < second_d)
          second_d = dist;
      }
      if (best < 0 || best_d > 0.8 * second_d) continue;
      gfrom.push_back(ref_points_[i]);
      gto.push_back(points[static_cast<size_t>(best)]);
    }
    Registration g;
    g.matches = static_cast<int>(gfrom.size());
    judge(gfrom, gto, g);
    if (g.told) {
      g.guided = true;
      g.shift = s;
      r = g;
    }
  }
  r.ms = thread_cpu_ms() - t0;
  return r;
}

}  // namespace sb::vision
