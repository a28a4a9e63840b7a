// The vision pipeline for one board: frames in, board observations out.
//
//   Frame ─► locate (BoardLocate; a plain board's fit rechecked when still) ─► rectify (Rectifier: gate image;
//            top-plane images when reading)
//         ─► gate (MotionGate: settled?) ─► read (CellReader, on settling and again every reread_ms while
//            settled; the reads of one settled spell are pooled per site) ─► BoardObservation
//
// Each stage is timed (thread CPU time). With `debug` set, debug_image() shows the frame with the board zone, the
// gate's verdict, every site's reading and the motion per site.
#pragma once

#include <future>
#include <memory>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "vision/board_locate.h"
#include "vision/cell_reader.h"
#include "vision/frame_source.h"
#include "vision/motion_gate.h"
#include "vision/motion_streak.h"
#include "vision/observation.h"
#include "vision/piece_set.h"
#include "vision/rectifier.h"

namespace sb::vision {

struct PipelineParams {
  LocateParams locate;
  RectifyParams rectify;
  GateParams gate;
  ReaderParams reader;
  int64_t reread_ms = 500;   // while settled, read again this often; the reads are pooled
  int max_pooled = 5;        // reads kept per settled spell
  int64_t recheck_ms = 500;  // plain boards held unsettled but still: how often to check whether the camera moved
  // Reads run on a worker thread (a live camera): the frame loop goes on gating every frame while the board is
  // read, and the read's observation comes with the first frame processed after it is done (a read of a spell
  // that ended meanwhile is dropped). Off: the frame that settles is read before process() returns.
  bool read_in_background = false;
  // A read takes the sites whose neighbourhood did not change since they were last read from the previous
  // read (CellReader's ReadCache); only the others are read again. The cache is dropped when the geometry or
  // the set changes.
  bool reuse_unchanged_sites = true;
  // A frame read (and the one a set is learnt from) has a straight motion streak found over the board's region
  // taken out first (vision/motion_streak.h), so that faces are cut from the sharp picture: Cờ toán unseen
  // 9400021 dots 97.40 -> 98.24 %, Cờ tư lệnh unseen 9500031 symbols 98.71 -> 98.98 %; it costs 30-35 ms when a
  // streak is undone. Only for sets with faces (dots, symbols): plain men are read by rim and colour, which the
  // Wiener filter's ringing disturbs more than the streak does (brazilian 9703101 image 18, morris12 9707101
  // images 8 and 21: a man missed or seen where none stands, each read right from the streaked picture).
  bool undo_motion_streak = true;
  StreakParams streak;
  bool debug = false;  // draw debug_image()
};

class Pipeline {
 public:
  Pipeline(calib::BoardModel model, PieceVocabulary vocab, std::vector<SideModel> default_sides,
           PipelineParams params = {}, std::optional<calib::Lens> lens = std::nullopt);

  // A known fit (--corners, --calibration) for frames of `image_size`; `lens`, when given, is the lens the fit was
  // made through (calib::fit_corners_with_lens estimates one) and replaces the pipeline's.
  void use_fit(const calib::BoardFit& fit, cv::Size image_size, std::optional<calib::Lens> lens = std::nullopt);
  void set_piece_set(PieceSet set);
  const PieceSet& piece_set() const { return set_; }

  BoardObservation process(const Frame& frame);

  // Learns the piece set from the latest read frame, whose tokens are `expected` (per site, "" or a token), and
  // uses it from now on if it reads that board right, or nearly right (at most one piece in ten missed, seen on an
  // empty site or given the wrong side; symbols misread weigh less) and better than the set in use. Returns whether the
  // learnt set is now in use; `problems` gets the sites it reads wrong.
  bool learn(const std::vector<std::string>& expected, std::vector<std::string>* problems);
  // Learns the piece set from the latest read frame, taken to show the start position `start`, as the referee and
  // eval-vision do when a game begins. `seen` is that frame's reading with the set in use. When it looks like
  // the start (looks_like_start), this is learn(). When it does not, the set in use may be what is wrong, not the
  // board: a set unlike the defaults (an English board's green squares under near-black men: the defaults take
  // the dark paint for the men's colour, every empty square for a man and every black man for an empty square)
  // never reads its start as one. Then the set learnt from this frame must itself read it as the start, all but
  // one site's occupancy and side, at most one piece in ten of another identity; a board that is not the start
  // (half set up, a move already made) leaves the sites the learnt set reads wrong, and is refused.
  bool learn_start(const std::vector<std::string>& start, const std::vector<SiteReading>& seen,
                   std::vector<std::string>* problems);
  // How many settled readings not read as the start a game's learning tries before giving up (each try costs a
  // learn and two reads, and a start never seen is not coming back mid-game).
  static constexpr int kUnconfirmedStartTries = 10;
  // A board found by its drawn outline may lie any way round (markers and given corners tell the first player's
  // side; an outline does not). From the latest read frame, whose tokens are `expected` (the start position),
  // finds the turn of the board whose reading matches best and keeps it. Returns the quarter turns applied.
  int orient(const std::vector<std::string>& expected);
  bool orientation_known() const { return locate_.orientation_known(); }
  bool has_read_frame() const { return !last_read_frame_.empty(); }
  // A live camera's check that it did not move is running on its worker (process() returned meanwhile).
  bool checking_camera() const { return pending_check_.valid(); }

  const calib::BoardModel& model() const { return model_; }
  const CellReader& reader() const { return *reader_; }
  const Rectifier* rectifier() const { return rect_ ? &*rect_ : nullptr; }
  const std::optional<calib::Calibration>& calibration() const { return locate_.calibration(); }
  const cv::Mat& debug_image() const { return debug_; }
  // The motion gate's view of the latest frame (MotionGate::debug_image): what moved, what changed since the
  // board last settled, and what of that holds it unsettled. Drawn on demand; empty before the board is located.
  cv::Mat gate_debug_image(int scale = 3) const { return gate_ ? gate_->debug_image(gate_image_, scale) : cv::Mat(); }
  // The reader's details of the latest read (for evaluation and overlays).
  const ReadResult& last_read() const { return last_read_; }
  // The motion streak found in the latest read frame (none found: length 0).
  const MotionStreak& last_streak() const { return last_streak_; }
  // Whether a read frame's motion streak is taken out (PipelineParams::undo_motion_streak, faces only).
  bool undoes_streaks() const;
  // Sites the latest read took from the previous read (unchanged since).
  int sites_reused() const { return cache_ ? cache_->reused : 0; }

 private:
  // learn(), or with `confirm` learn_start()'s rule for a frame the set in use did not read as the start.
  bool learn_checked(const std::vector<std::string>& expected, std::vector<std::string>* problems, bool confirm);
  void rebuild_geometry();
  void pool(const ReadResult& r, BoardObservation& obs);
  void draw_debug(const Frame& frame, const BoardObservation& obs, const GateResult& g);
  // Background reads: start one of this frame; take a finished one into `obs`.
  void start_background_read(const Frame& frame);
  void take_background_read(BoardObservation& obs);

  calib::BoardModel model_;
  PieceVocabulary vocab_;
  PipelineParams params_;
  BoardLocate locate_;
  std::shared_ptr<const CellReader> reader_;  // shared with a read running in the background
  PieceSet set_;
  uint64_t geometry_revision_ = 0;
  std::optional<Rectifier> rect_;
  std::optional<MotionGate> gate_;
  FramePyramid pyramid_;
  cv::Mat gate_image_;

  int64_t last_read_ms_ = -1;
  int64_t last_recheck_ms_ = -1;
  std::vector<ReadResult> pooled_;
  std::vector<SiteReading> current_;  // the latest pooled reading
  ReadResult last_read_;
  std::shared_ptr<ReadCache> cache_;  // replaced, not cleared, when stale: a background read may hold the old one
  cv::Mat last_read_frame_;           // as read: its motion streak taken out
  cv::Mat last_streaked_frame_;       // as seen, when a streak was taken out of it (else empty)
  MotionStreak last_streak_;
  cv::Vec3f last_white_;
  cv::Mat debug_;

  struct BackgroundRead {
    ReadResult result;
    double ms = 0;  // the worker's processor time
    cv::Mat frame;
    cv::Mat streaked;  // as seen, when a streak was taken out of `frame`
    cv::Vec3f white;
    MotionStreak streak;
  };
  std::future<BackgroundRead> pending_;
  std::future<BoardLocate::RecheckOutcome> pending_check_;  // a live camera's check that it did not move
  bool check_wanted_ = false;                               // a check is due once the running one is done
  bool pending_stale_ = false;  // the spell it was started in has ended, or the geometry or set changed
};

}  // namespace sb::vision
