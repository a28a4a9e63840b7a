#include "vision/view_registration.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

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
  // Kept past this call: a grey frame is its own grey view, and a camera may reuse its buffer.
  ref_gray_ = params_.refine_grow <= 0 ? cv::Mat() : gray.data == frame.data ? gray.clone() : gray;
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
  if (r.told && r.moved) {
    const double t_refine = thread_cpu_ms();
    refine(gray, r);
    r.refine_ms = thread_cpu_ms() - t_refine;
  }
  r.ms = thread_cpu_ms() - t0;
  return r;
}

void ViewRegistration::refine(const cv::Mat& gray, Registration& r) const {
  if (params_.refine_grow <= 0 || ref_gray_.empty() || quad_.size() != 4) return;
  cv::Point2f centre(0, 0);
  for (const cv::Point2f& p : quad_) centre += p * 0.25f;
  std::vector<cv::Point2f> area, area_moved;
  for (const cv::Point2f& p : quad_) area.push_back(centre + (p - centre) * static_cast<float>(params_.refine_grow));
  const cv::Matx33d ransac = r.image_motion;
  cv::perspectiveTransform(area, area_moved, cv::Mat(ransac));
  const cv::Rect crop = cv::boundingRect(area_moved) & cv::Rect(0, 0, gray.cols, gray.rows);
  if (crop.width < 16 || crop.height < 16) return;

  // ECC's template: the new view over the area, scaled down when large.
  const double scale = std::min(1.0, params_.refine_max_side / static_cast<double>(std::max(crop.width, crop.height)));
  cv::Mat templ = gray(crop);
  if (scale < 1.0)
    cv::resize(templ, templ,
               cv::Size(std::max(1, cvRound(crop.width * scale)), std::max(1, cvRound(crop.height * scale))), 0, 0,
               cv::INTER_AREA);
  // A pixel x of the crop is at (x + 0.5)·s − 0.5 in its copy scaled by s (s as rounded to whole pixels).
  const double sx = templ.cols / static_cast<double>(crop.width), sy = templ.rows / static_cast<double>(crop.height);
  const cv::Matx33d to_template = cv::Matx33d(sx, 0, 0.5 * sx - 0.5, 0, sy, 0.5 * sy - 0.5, 0, 0, 1) *
                                  cv::Matx33d(1, 0, -crop.x, 0, 1, -crop.y, 0, 0, 1);
  // Its input: the reference brought onto the template by RANSAC's motion, with room round it for the alignment
  // to move, so that what is left to find is near the identity and no pixel of the template falls outside.
  // No mask: ECC (OpenCV 4.6) leaves the input's pixels outside its mask as they are, not less their mean, and
  // those along the mask's edge pull the warp (a small board aligned so grew by a percent, and 2 px off).
  const int room = static_cast<int>(std::ceil(params_.refine_max_px * std::max(sx, sy))) + 2;
  const cv::Matx33d shifted(1, 0, room, 0, 1, room, 0, 0, 1);
  const cv::Matx33d bring = shifted * to_template * ransac;
  cv::Mat input;
  cv::warpPerspective(ref_gray_, input, cv::Mat(bring), cv::Size(templ.cols + 2 * room, templ.rows + 2 * room),
                      cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  // ECC's warp takes the template's points (the new view's) to the input's.
  cv::Mat warp = cv::Mat(cv::Matx33f(shifted));
  try {
    cv::findTransformECC(templ, input, warp, cv::MOTION_HOMOGRAPHY,
                         cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, params_.refine_iterations,
                                          params_.refine_eps),
                         cv::noArray(), 5);
  } catch (const cv::Exception&) {
    return;  // it diverged: the views are too unlike over the board
  }
  const cv::Matx33d aligned = cv::Mat_<double>(warp);
  // A new view's point x is the reference's bring⁻¹·aligned·to_template·x.
  const cv::Matx33d refined = (bring.inv() * aligned * to_template).inv();

  // Both motions judged alike: the correlation of the new view with the reference brought onto it by each.
  cv::Mat by_ransac, by_refined;
  cv::warpPerspective(input, by_ransac, cv::Mat(shifted), templ.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP);
  cv::warpPerspective(input, by_refined, cv::Mat(aligned), templ.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP);
  r.correlation_ransac = cv::computeECC(templ, by_ransac);
  r.correlation_refined = cv::computeECC(templ, by_refined);
  if (!(r.correlation_refined > r.correlation_ransac)) return;

  std::vector<cv::Point2f> at_ransac, at_refined;
  cv::perspectiveTransform(quad_, at_ransac, cv::Mat(ransac));
  cv::perspectiveTransform(quad_, at_refined, cv::Mat(refined));
  double shift = 0;
  for (size_t i = 0; i < quad_.size(); ++i) {
    if (cv::norm(at_refined[i] - at_ransac[i]) > params_.refine_max_px) return;
    shift = std::max(shift, static_cast<double>(cv::norm(at_refined[i] - quad_[i])));
  }
  r.image_motion = refined;
  r.corner_shift_px = shift;
  r.refined = true;
}

}  // namespace sb::vision
