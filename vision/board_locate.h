// The locate stage: where the board is in each frame. Calibration's tracker does the work on boards with
// markers (a cheap check of the markers every frame, a full relocation every so often and whenever the check
// fails, a "board moved" state when a new fit is confirmed). A plain board is located once, from the corners the
// operator gives, a saved calibration, or the board's drawn outline, and its fit is kept.
#pragma once

#include <cstdint>
#include <memory>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_locator.h"
#include "calibration/calibration.h"
#include "calibration/tracker.h"
#include "vision/view_registration.h"

namespace sb::vision {

struct LocateParams {
  calib::LocatorParams locator;
  calib::TrackerParams tracker;
  bool use_outline = true;          // plain boards: look for the drawn outline when nothing else gives the board
  int retry_every_frames = 15;      // while the board is not found: frames between attempts
  RegistrationParams registration;  // plain boards: the check that the camera did not move
};

struct LocateResult {
  bool located = false;  // a fit is known
  bool changed = false;  // the fit differs from the previous frame's (first fit, or the board moved)
  std::string state;     // searching, locked, occluded, moved, lost, fixed
  int markers = 0;       // markers the check saw in place
  double ms = 0;         // this stage's time
};

class BoardLocate {
 public:
  BoardLocate(calib::BoardModel model, std::optional<calib::Lens> lens = std::nullopt, LocateParams params = {});

  // Starts from a known fit (--corners, --calibration) on frames of `image_size`. Markers, when the board has
  // them and they are seen, still correct it when the board moves. `lens`, when given (one estimated with the
  // fit, calib::fit_corners_with_lens), is the camera's lens from now on: the fit is through it, and so are the
  // markers' and the camera check's later fits.
  void use_fit(const calib::BoardFit& fit, cv::Size image_size, std::optional<calib::Lens> lens = std::nullopt);

  LocateResult update(const cv::Mat& frame);

  // A plain board's kept fit checked against the view it was made on (call it on a still frame: a settled
  // board). When the camera moved, the fit follows it (revision() is bumped) and the result says moved. A board
  // tracked by its markers is checked so only while the markers do not confirm its fit (nullopt otherwise; the
  // view is taken while they do).
  // With `refresh_reference` (a settled frame: no hand in it), a view told unmoved becomes the reference for
  // later checks, so that the reference follows the light (a lamp switched on since leaves too few features
  // alike to tell a later knock).
  std::optional<Registration> recheck(const cv::Mat& frame, bool refresh_reference = false);

  // recheck() in three parts, so that its costly middle (feature detection, tens of milliseconds) can run on
  // another thread while a live camera's frames go on: begin_recheck() copies what the check needs (nullopt: no
  // check for this board), run_recheck() touches nothing of this object, finish_recheck() takes its outcome
  // (ignored, told false, when the fit changed meanwhile). `frame` is kept by reference count, not copied: a
  // caller that hands the job to another thread gives it a frame of its own.
  struct RecheckJob {
    cv::Mat frame;
    std::shared_ptr<const ViewRegistration> reference;  // null: this fit has no reference view yet
    std::vector<cv::Point2f> quad;                      // the playing area's corners under the fit
    RegistrationParams params;
    uint64_t revision = 0;  // the fit checked
    bool refresh_reference = false;
  };
  struct RecheckOutcome {
    Registration registration;
    std::shared_ptr<const ViewRegistration> reference;  // the view to check later frames against, when new
    std::vector<cv::Point2f> quad;                      // where the playing area's corners are in the frame
    uint64_t revision = 0;
  };
  std::optional<RecheckJob> begin_recheck(const cv::Mat& frame, bool refresh_reference = false) const;
  static RecheckOutcome run_recheck(const RecheckJob& job);
  Registration finish_recheck(const RecheckOutcome& outcome);

  const std::optional<calib::Calibration>& calibration() const { return calibration_; }
  // Whether the fit knows which side of the board is the first player's: markers do, the given corners do; a
  // drawn outline does not (it takes the side lowest in the image).
  bool orientation_known() const { return calibration_ && calibration_->fit.method != "outline"; }
  // The board's quarter turns that map the playing area onto itself: {0, 2} for an oblong one, {0, 1, 2, 3}
  // for a square one.
  std::vector<int> possible_turns() const;
  // The fit with the board turned by `quarter_turns` (counter-clockwise in the board frame) about the playing
  // area's centre: which way round a board found by its outline lies, once something tells.
  void turn(int quarter_turns);
  uint64_t revision() const { return revision_; }  // bumped by every new fit
  const calib::BoardModel& model() const { return tracker_.locator().model(); }

 private:
  void adopt(const calib::BoardFit& fit, cv::Size size);
  std::vector<cv::Point2f> board_quad_px() const;  // the playing area's corners in the image

  calib::BoardTracker tracker_;
  LocateParams params_;
  std::optional<calib::Lens> lens_;
  std::optional<calib::Calibration> calibration_;
  bool fixed_ = false;  // a plain board: the fit is kept, the tracker is not run
  bool markers_seen_ = false;
  bool markers_confirm_ = false;  // the tracker's last update found the markers where the fit says
  int64_t frames_ = 0;
  uint64_t revision_ = 0;
  std::shared_ptr<const ViewRegistration> view_;  // plain boards: the view the fit was made on
  uint64_t view_revision_ = 0;
};

}  // namespace sb::vision
