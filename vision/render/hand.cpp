#include "vision/render/hand.h"

#include <algorithm>
#include <cmath>

namespace sb::vision {

namespace {

cv::Vec3d unit(const cv::Vec3d& v) {
  double n = cv::norm(v);
  return n > 1e-12 ? v / n : cv::Vec3d(1, 0, 0);
}

const cv::Vec3d kUp(0, 0, -1);

}  // namespace

cv::Vec3d shoulder_of(int player, const calib::BoardModel& model, const HandLook& look, double across) {
  double cx = model.size_mm.x / 2, s = look.size;
  // The first player sits beyond the near edge (large y), the second beyond the far edge; right arm.
  if (player == 0) return {cx + 170 * s + across, model.size_mm.y + 330 * s, -330 * s};
  return {cx - 170 * s - across, -330 * s, -330 * s};
}

HandPose resting_hand(int player, const calib::BoardModel& model, const HandLook& look, double across) {
  HandPose h;
  h.player = player;
  h.shoulder = shoulder_of(player, model, look, across);
  double cx = model.size_mm.x / 2 + (player == 0 ? across : -across);
  double y = player == 0 ? model.size_mm.y + 70 * look.size : -70 * look.size;
  h.grip = {cx, y, -12 * look.size};
  h.rest = 1;
  h.pinch = 0.2;
  return h;
}

HandSolids pose_hand(const HandPose& pose, const HandLook& look) {
  const double s = look.size;
  HandSolids out;
  const cv::Vec3d G = pose.grip, S = pose.shoulder;
  const double rest = std::clamp(pose.rest, 0.0, 1.0), pinch = std::clamp(pose.pinch, 0.0, 1.0);

  // Horizontal direction from the shoulder to the grip: the way the hand points.
  cv::Vec3d toward = G - S;
  toward[2] = 0;
  toward = unit(toward);
  // A reaching hand slopes down to its fingertips; a resting one lies flat.
  double slope = (1 - rest) * 0.55 + rest * 0.05;
  cv::Vec3d forward = unit(toward + kUp * -slope);  // down is -kUp
  cv::Vec3d right = unit(forward.cross(kUp));
  cv::Vec3d back_normal = unit(right.cross(forward));  // out of the back of the hand, roughly up
  if (back_normal.dot(kUp) < 0) back_normal = -back_normal;

  const double palm_len = 92 * s, palm_w = 78 * s, finger = 78 * s;
  // The grip is where thumb and index fingertips meet; the knuckles are behind and above it.
  cv::Vec3d knuckles = G - forward * (finger * (0.55 + 0.3 * rest)) + back_normal * (12 * s * (1 - rest));
  cv::Vec3d wrist = knuckles - forward * palm_len;

  // Elbow: two-link arm from shoulder to wrist, the elbow dropping down and outwards.
  const double upper = 300 * s, fore = 265 * s;
  cv::Vec3d sw = wrist - S;
  double d = cv::norm(sw);
  cv::Vec3d elbow;
  if (d >= upper + fore - 1) {
    elbow = S + unit(sw) * (upper / (upper + fore) * d);
  } else {
    double a = (upper * upper - fore * fore + d * d) / (2 * d);
    double h = std::sqrt(std::max(0.0, upper * upper - a * a));
    cv::Vec3d axis = unit(sw);
    cv::Vec3d bend = unit(cv::Vec3d(0, 0, 1) * 0.8 + right * 0.6);  // down (z+) and to the right
    bend = unit(bend - axis * bend.dot(axis));
    elbow = S + axis * a + bend * h;
  }

  // Arm: upper arm always in its sleeve; the forearm's sleeve covers part of it from the elbow.
  double sleeve = std::clamp(look.sleeve_length[pose.player & 1], 0.0, 1.0);
  out.arm.push_back({S, elbow, 50 * s, 42 * s, true});
  if (sleeve > 0.02) {
    cv::Vec3d cuff = elbow + (wrist - elbow) * sleeve;
    double rc = 42 * s + (30 * s - 42 * s) * sleeve;
    out.arm.push_back({elbow, cuff, 44 * s, rc + 3 * s, true});
    if (sleeve < 0.98) out.arm.push_back({cuff, wrist, rc, 27 * s, false});
  } else {
    out.arm.push_back({elbow, wrist, 38 * s, 27 * s, false});
  }

  // Palm: a flat plate from the wrist to the knuckles.
  cv::Vec3d w0 = wrist - right * (palm_w * 0.4), w1 = wrist + right * (palm_w * 0.4);
  cv::Vec3d k0 = knuckles - right * (palm_w * 0.5), k1 = knuckles + right * (palm_w * 0.5);
  // Rounded towards the knuckles, narrower at the wrist.
  out.palm = {w0,
              w1,
              k1 - forward * (22 * s),
              k1 + forward * (2 * s) - right * (6 * s),
              knuckles + forward * (9 * s),
              k0 + forward * (2 * s) + right * (6 * s),
              k0 - forward * (22 * s)};
  out.palm_thickness = 26 * s;

  // Fingers. The thumb comes from the left side (right hand, palm down); thumb and index meet at the grip
  // when pinching, spread when open, lie straight when resting.
  cv::Vec3d thumb_base = wrist + forward * (palm_len * 0.35) - right * (palm_w * 0.5);
  cv::Vec3d thumb_open = thumb_base + unit(forward - right * 0.8) * (62 * s) + kUp * -(10 * s);
  cv::Vec3d thumb_pinch = G - right * (6 * s);
  cv::Vec3d thumb_rest = thumb_base + unit(forward - right * 0.5) * (60 * s);
  cv::Vec3d thumb_tip = rest > 0.5 ? thumb_rest : thumb_open + (thumb_pinch - thumb_open) * pinch;
  out.fingers.push_back({thumb_base, thumb_tip, 12 * s, 9 * s, false});

  for (int i = 0; i < 4; ++i) {
    double side = (-0.36 + i * 0.24) * palm_w;  // index (i = 0) on the thumb side
    cv::Vec3d base = knuckles + right * side;
    double len = finger * (i == 0 ? 0.95 : i == 1 ? 1.0 : i == 2 ? 0.95 : 0.78);
    cv::Vec3d straight = base + unit(forward + right * (0.12 * (i - 1.5))) * len;
    cv::Vec3d tip;
    if (rest > 0.5) {
      tip = straight;
      tip[2] = base[2];
    } else if (i == 0) {
      tip = straight + (G + right * (6 * s) - straight) * pinch;
    } else {
      // The other fingers curl under the hand as it closes.
      cv::Vec3d curled = base + forward * (len * 0.45) - back_normal * (len * 0.45);
      tip = straight + (curled - straight) * (0.4 + 0.5 * pinch);
    }
    out.fingers.push_back({base, tip, 10 * s, 8 * s, false});
  }
  return out;
}

}  // namespace sb::vision
