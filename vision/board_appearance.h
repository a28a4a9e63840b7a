// What the empty board looks like in a frame, from its model: every pixel of a top-plane image is labelled with
// the paint role of the board point it shows (light, dark, ink, water, land, bare sheet); in a frame, each
// role's colour and one smooth light falloff across the board are measured from the pixels that show them (most
// of the board is empty at any time), and the frame is compared with that prediction. Where it differs by more
// than a shadow or a lamp's unevenness would explain, something lies on the board: a piece.
#pragma once

#include <array>
#include <opencv2/core.hpp>
#include <vector>

#include "vision/rectifier.h"

namespace sb::vision {

constexpr uchar kNoPaint = 255;     // a pixel on the border between two paints, or off the sheet
constexpr int kClippedLevel = 250;  // a channel at this grey level or more may be clipped at white
// In paint_labels' `borders`: a pixel drawn in ink that is labelled kNoPaint (a line too thin to keep its label).
constexpr uchar kLineCore = 0x80;

// Paint labels of the level-1 top-plane image (Rectifier::top_frame()), built once per fit. `borders`, when
// given, gets per pixel labelled kNoPaint for lying on a border between paints the roles within its reach (bit k
// for role k; 0 elsewhere and off the sheet), and kLineCore on the ink of lines drawn too thin for a label.
cv::Mat paint_labels(const Rectifier& rect, cv::Mat* borders = nullptr);

struct BoardPaint {
  std::array<cv::Vec3f, 6> colour{};  // per paint role (calib::Paint order, then the bare sheet), BGR
  std::array<bool, 6> seen{};
  // Per role and channel, the share of its sampled pixels at kClippedLevel or more: a lamp that overexposes a
  // light paint clips it, and its measured colour is then less than the light it gets.
  std::array<cv::Vec3f, 6> clipped{};
  // The colour of lines drawn too thin for paint_labels to label any pixel as ink (measure_lines): what borders
  // on them is judged as a blend with it. Unknown while lines_seen is false, or when the ink is seen as a role.
  cv::Vec3f lines{};
  bool lines_seen = false;
  cv::Vec<float, 6> light;  // log-brightness falloff: a + b·x + c·y + d·x² + e·x·y + f·y² (x, y in 0..1)
  int main_role = -1;       // the role that covers most of the board
  // Per channel, the log-ratio of this picture's colours to the empty board's a set kept, each relative to its
  // own paint (CellReader's foreign share), as a smooth field over the board with the terms of `light`: a lamp
  // that overexposes the board clips its light paint towards white more on one side than on the other (one factor
  // per channel left a corner's empty point foreign). Not measured while empty_board_measured is false.
  std::array<cv::Vec<float, 6>, 3> empty_board_ratio{};
  bool empty_board_measured = false;
  bool ok = false;
  float gain(float x, float y) const;  // exp of the falloff at a top-plane pixel position scaled to 0..1
  // The empty board's ratio field of channel `k` at a top-plane pixel position scaled to 0..1 (1 unmeasured).
  float empty_board_gain(int k, float x, float y) const;
  // The board's own colour where the light is as at the board's centre: a white reference that does not change
  // with the pieces on the board (the main role's colour).
  cv::Vec3f reference() const {
    return main_role < 0 ? cv::Vec3f(200, 200, 200) : colour[static_cast<size_t>(main_role)] * gain(0.5f, 0.5f);
  }
};

// Measures the paint colours and the falloff in a level-1 top-plane image (`exclude`: 8-bit, non-zero where
// not to look, e.g. inside discs already known to be pieces; may be empty).
BoardPaint measure_paint(const cv::Mat& top_bgr, const cv::Mat& labels, const cv::Mat& exclude = cv::Mat());

// BoardPaint::lines, measured over the pixels `borders` (paint_labels') marks kLineCore (at least 50), as each
// role's colour is: the middle value per channel, the falloff taken out.
void measure_lines(const cv::Mat& top_bgr, const cv::Mat& borders, BoardPaint& paint);

// Per pixel of a level-1 top-plane image: 1 where the paint model does not explain it (a colour of another hue,
// or much darker than a shadow or brighter than glare would make the paint there), 0 where it does, kNoPaint
// where there is no model (borders between paints). With `rois`, only the pixels inside them are judged (the
// others are kNoPaint). With `glare` (one per roi), a pixel of a roi may also be its paint brightened by up to
// that many grey levels in every channel: a lamp's reflection adds its own light, of about the same amount to
// each channel, and doubles the brightness of a dark paint where a light paint gains a tenth (measured on the
// pixel's channels below white, as glare_near does). The prediction is compared clipped at white, as the camera
// shows it. With `borders` (paint_labels' roles within reach of each border pixel), the borders between paints
// are judged too, as a blend of the paints round them: a mark that lies along a drawn line shows there.
cv::Mat foreign_mask(const cv::Mat& top_bgr, const cv::Mat& labels, const BoardPaint& paint,
                     const std::vector<cv::Rect>* rois = nullptr, const std::vector<float>* glare = nullptr,
                     const cv::Mat* borders = nullptr);

// How much a lamp's glare brightens the board near `centre`: the `share` quantile, over the pixels within `reach`
// of it painted otherwise than `centre` is (a draughts board's light squares round a dark one: no piece stands
// there), of each pixel's least excess over the paint model among its unclipped channels (a pixel clipped at
// white in all three: the most its paint lacked of white, a lower bound). 0 when fewer than 30 pixels are
// counted. Shadows lower the excess; a light piece's side that reaches there raises it by little more than it
// differs from that paint. With `below` > 0, a glare less than it is returned as 0 without the pixels being
// ordered (a caller that uses only glare of at least `below`).
float glare_near(const cv::Mat& top_bgr, const cv::Mat& labels, const BoardPaint& paint, cv::Point2f centre,
                 float reach, float share, float below = 0);

// glare_near round many centres of one picture and paint (a read asks round every site whose centre looks
// foreign, and their reaches overlap several times over): each pixel's excess over the paint model is measured
// once, the first time a row is needed. The picture, labels and paint must not change while it is used.
class GlareField {
 public:
  GlareField(const cv::Mat& top_bgr, const cv::Mat& labels, const BoardPaint& paint);
  // glare_near(top_bgr, labels, paint, centre, reach, share, below), to the bit.
  float near(cv::Point2f centre, float reach, float share, float below = 0);
  // How much a glare brightens the paint `centre` itself shows, measured round it: the `share` quantile of the
  // excess (as glare_near counts it) over the pixels of that paint between `inner` and `outer` of it (a draughts
  // square's corners, which the man on it leaves bare). 0 when fewer than 30 pixels are counted. With `below` > 0,
  // a glare less than it is returned as 0 without the pixels being ordered (as near's). The pixels a piece in
  // `hidden` may show (its top face and its side down to its base) are not counted.
  struct Silhouette {
    cv::Point2f top, base;  // the top face's centre and the base's, in top-plane pixels
    float radius = 0;
  };
  float near_own(cv::Point2f centre, float inner, float outer, float share, float below = 0,
                 const std::vector<Silhouette>& hidden = {});

 private:
  // Row v of excess_, measured the first time it is asked for.
  const float* excess_row(int v);

  cv::Mat top_, labels_;
  BoardPaint paint_;
  cv::Mat excess_;           // CV_32F, NaN where the paint is not modelled; rows filled on first use
  std::vector<uchar> done_;  // per row
};

// The share of the modelled pixels within `radius` of `centre` that are foreign. When too few are modelled there,
// (with `wider`) the share within kWiderCentre times `radius`; 0.5 when too few are modelled either.
constexpr float kWiderCentre = 1.6f;
// Fewer modelled pixels than this within a centre's circle cannot be judged there.
constexpr int kJudgedPixelsMin = 8;
float foreign_share(const cv::Mat& mask, cv::Point2f centre, float radius, bool wider = true);

}  // namespace sb::vision
