#include "vision/eval/read_tally.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace sb::vision {

namespace {

// A failure list long enough for any report; beyond it only the counts grow.
constexpr size_t kMaxFailures = 5000;
constexpr float kDoubtful = 0.8f;

}  // namespace

// Definitions:
// - site error: the token read is not the true token, over every site (an empty site read as empty is right);
// - side error: over the sites where a piece stood and a piece was read, the side letter differs;
// - identity accuracy (Cờ toán's dot count, Cờ tư lệnh's symbol): over the sites where a piece stood, a piece
//   was read and its side was read right, the identity is right. A piece missed altogether counts as a site
//   error (`missed`), not as an identity error, so the three figures do not count one mistake twice.
void ReadTally::add_image(const std::string& image, const std::vector<SiteComparison>& sites, const std::string& note) {
  ++f_.images;
  ImageFailure failure{image, note, {}};
  for (const SiteComparison& s : sites) {
    ++f_.sites;
    ++confusion_[{s.truth, s.read}];
    const bool right = s.truth == s.read;
    if (!right) {
      ++f_.site_errors;
      if (s.conf < kDoubtful) ++f_.errors_doubted;
      failure.wrong.push_back(s);
    } else if (s.conf < kDoubtful) {
      ++f_.right_doubted;
    }
    if (!s.truth.empty() && s.read.empty()) ++f_.missed;
    if (s.truth.empty() && !s.read.empty()) ++f_.phantom;
    if (s.truth.empty() || s.read.empty()) continue;
    ++f_.both_occupied;
    if (s.truth[0] != s.read[0]) {
      ++f_.side_errors;
      continue;
    }
    if (s.truth.size() > 1 || s.read.size() > 1) {
      ++f_.identity_checked;
      if (s.truth.substr(1) != s.read.substr(1)) ++f_.identity_errors;
    }
  }
  if (failure.wrong.empty()) {
    ++f_.images_all_right;
  } else if (failures_.size() < kMaxFailures) {
    failures_.push_back(std::move(failure));
  }
}

std::vector<std::string> ReadTally::classes() const {
  std::set<std::string> seen;
  for (const auto& [pair, n] : confusion_) {
    seen.insert(pair.first);
    seen.insert(pair.second);
  }
  std::vector<std::string> out(seen.begin(), seen.end());
  // "" sorts first already; tokens sort by side letter then identity, which groups each side's pieces.
  return out;
}

std::vector<std::pair<std::pair<std::string, std::string>, int64_t>> ReadTally::top_errors(size_t n) const {
  std::vector<std::pair<std::pair<std::string, std::string>, int64_t>> errors;
  for (const auto& [pair, count] : confusion_)
    if (pair.first != pair.second) errors.emplace_back(pair, count);
  std::stable_sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (errors.size() > n) errors.resize(n);
  return errors;
}

void ReadTally::merge(const ReadTally& o) {
  ReadFigures& a = f_;
  const ReadFigures& b = o.f_;
  a.images += b.images;
  a.sites += b.sites;
  a.site_errors += b.site_errors;
  a.missed += b.missed;
  a.phantom += b.phantom;
  a.both_occupied += b.both_occupied;
  a.side_errors += b.side_errors;
  a.identity_checked += b.identity_checked;
  a.identity_errors += b.identity_errors;
  a.errors_doubted += b.errors_doubted;
  a.right_doubted += b.right_doubted;
  a.images_all_right += b.images_all_right;
  for (const auto& [pair, n] : o.confusion_) confusion_[pair] += n;
  for (const ImageFailure& f : o.failures_)
    if (failures_.size() < kMaxFailures) failures_.push_back(f);
}

std::string confusion_text(const ReadTally& tally) {
  const std::vector<std::string> classes = tally.classes();
  auto label = [](const std::string& c) { return c.empty() ? std::string(".") : c; };
  size_t width = 3;
  for (const auto& [pair, n] : tally.confusion()) width = std::max(width, std::to_string(n).size() + 1);
  for (const std::string& c : classes) width = std::max(width, c.size() + 1);
  // The row labels' column: wide enough for the header and every token.
  size_t label_width = 12;
  for (const std::string& c : classes) label_width = std::max(label_width, c.size() + 2);
  std::string out;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-*s", static_cast<int>(label_width), "truth\\read");
  out += buf;
  for (const std::string& c : classes) {
    std::snprintf(buf, sizeof buf, "%*s", static_cast<int>(width), label(c).c_str());
    out += buf;
  }
  out += "\n";
  for (const std::string& t : classes) {
    int64_t row_total = 0;
    for (const std::string& r : classes) {
      auto it = tally.confusion().find({t, r});
      if (it != tally.confusion().end()) row_total += it->second;
    }
    if (row_total == 0) continue;  // a token only ever read, never true
    std::snprintf(buf, sizeof buf, "%-*s", static_cast<int>(label_width), label(t).c_str());
    out += buf;
    for (const std::string& r : classes) {
      auto it = tally.confusion().find({t, r});
      if (it == tally.confusion().end() || it->second == 0) {
        std::snprintf(buf, sizeof buf, "%*s", static_cast<int>(width), "");
      } else {
        std::snprintf(buf, sizeof buf, "%*lld", static_cast<int>(width), static_cast<long long>(it->second));
      }
      out += buf;
    }
    out += "\n";
  }
  return out;
}

}  // namespace sb::vision
