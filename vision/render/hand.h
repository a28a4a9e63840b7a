// A player's arm and hand as simple solids: tapered capsules for the upper arm, forearm, fingers and thumb,
// and a flat palm, posed from the shoulder to the point between thumb and fingertips. The renderer draws them;
// the simulation asks where they cover the board.
#pragma once

#include <opencv2/core.hpp>
#include <vector>

#include "vision/render/look.h"
#include "vision/render/scene.h"

namespace sb::vision {

struct Capsule {
  cv::Vec3d a, b;  // end centres, board frame (mm)
  double ra = 0, rb = 0;
  bool sleeve = false;  // cloth, not skin
};

struct HandSolids {
  std::vector<Capsule> arm;     // upper arm and forearm pieces, shoulder first
  std::vector<cv::Vec3d> palm;  // outline of the back of the hand
  double palm_thickness = 0;
  std::vector<Capsule> fingers;  // thumb first
};

HandSolids pose_hand(const HandPose& pose, const HandLook& look);

// Where a player sits: the shoulder of their right arm, reaching towards the board.
cv::Vec3d shoulder_of(int player, const calib::BoardModel& model, const HandLook& look, double across = 0);

// A hand lying still on the table just off the board edge in front of its player ("resting").
HandPose resting_hand(int player, const calib::BoardModel& model, const HandLook& look, double across);

}  // namespace sb::vision
