// The board of Cờ tư lệnh: 11 files × 12 ranks of intersections, its terrain, and
// the straight lines pieces move and shoot along. Everything here is fixed
// geometry, computed once.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>

namespace sb::cotulenh {

inline constexpr int kFiles = 11;
inline constexpr int kRanks = 12;
inline constexpr int kSites = kFiles * kRanks;

constexpr int site_of(int file, int rank) {
  return rank * kFiles + file;
}
constexpr int file_of(int site) {
  return site % kFiles;
}
constexpr int rank_of(int site) {
  return site / kFiles;
}

std::string site_name(int site);       // "a1" .. "k12"
int site_from_name(std::string_view);  // -1 when not a site

using SiteSet = std::bitset<kSites>;

// The eight directions; the first four are orthogonal.
inline constexpr int kDirections = 8;
inline constexpr std::array<int, kDirections> kDirFile = {0, 0, 1, -1, 1, 1, -1, -1};
inline constexpr std::array<int, kDirections> kDirRank = {1, -1, 0, 0, 1, -1, 1, -1};
constexpr bool is_diagonal(int dir) {
  return dir >= 4;
}

// The river runs between ranks 6 and 7 (rows 5 and 6); fords on files f and h.
inline constexpr int kLastRedRow = 5;
constexpr bool red_half(int site) {
  return rank_of(site) <= kLastRedRow;
}
constexpr bool on_bank(int site) {
  return rank_of(site) == kLastRedRow || rank_of(site) == kLastRedRow + 1;
}

struct Geometry {
  // Terrain: where land pieces may stand (files c-k), where a navy may sail (files
  // a-c and the river mouth d6 e6 d7 e7), open sea (files a-b).
  std::array<bool, kSites> land{};
  std::array<bool, kSites> navigable{};
  std::array<bool, kSites> sea{};
  // The sites along each ray, nearest first.
  std::array<std::array<std::array<uint8_t, 12>, kDirections>, kSites> ray{};
  std::array<std::array<uint8_t, kDirections>, kSites> ray_len{};

  static const Geometry& get();

  // The direction and distance from `a` to `b` along one of the eight lines, or
  // dir = -1 when they are not on a common line.
  struct Line {
    int dir = -1;
    int dist = 0;
  };
  static Line line(int a, int b);
};

// A one-step move from `a` to the adjacent `b` crosses the river.
constexpr bool crosses_river(int a, int b) {
  return red_half(a) != red_half(b);
}
// It crosses at a ford: straight along file f or h, or (when diagonal fords are
// allowed) a diagonal step with one end on those files.
bool crosses_at_ford(int a, int b, bool diagonal_fords);

}  // namespace sb::cotulenh
