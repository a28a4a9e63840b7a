// Scoring a reader against the truth: every site of every image compared, token by token, and the figures
// issue 8 sets targets for (per-site error, side error, dot count and symbol accuracy) with a confusion table
// of what was read against what stood there.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sb::vision {

// One site as the truth has it and as it was read ("" for empty).
struct SiteComparison {
  std::string site;
  std::string truth;
  std::string read;
  float conf = 0;
};

// The figures of a tally. Rates are errors over the sites they were counted on; see read_tally.cpp for the
// exact definitions.
struct ReadFigures {
  int64_t images = 0;
  int64_t sites = 0;         // every site of every image
  int64_t site_errors = 0;   // the token read differs from the truth (empty counts as a token)
  int64_t missed = 0;        // a piece stood there, the reader saw an empty site
  int64_t phantom = 0;       // the site was empty, the reader saw a piece
  int64_t both_occupied = 0; // sites where a piece stood and one was read: where side and identity are judged
  int64_t side_errors = 0;   // ... and the side read was wrong
  int64_t identity_checked = 0;  // ... and the side was right and the game shows identities (dots, symbols)
  int64_t identity_errors = 0;
  int64_t errors_doubted = 0;    // site errors the reader itself gave a confidence below 0.8 (the arbiter weighs
                                 // these less)
  int64_t right_doubted = 0;     // right readings with a confidence below 0.8
  int64_t images_all_right = 0;

  double site_error_rate() const { return sites ? static_cast<double>(site_errors) / sites : 0; }
  double side_error_rate() const { return both_occupied ? static_cast<double>(side_errors) / both_occupied : 0; }
  double identity_accuracy() const {
    return identity_checked ? 1.0 - static_cast<double>(identity_errors) / identity_checked : 0;
  }
};

// An image with at least one site read wrong (for the report's list of failures).
struct ImageFailure {
  std::string image;
  std::string note;  // what the caller knows of how it was drawn (the look)
  std::vector<SiteComparison> wrong;
};

class ReadTally {
 public:
  // One image: its sites compared. `note` describes the image for the failure list.
  void add_image(const std::string& image, const std::vector<SiteComparison>& sites, const std::string& note = "");

  ReadFigures figures() const { return f_; }
  // (truth, read) → count; "" is an empty site.
  const std::map<std::pair<std::string, std::string>, int64_t>& confusion() const { return confusion_; }
  // Every token seen in the truth or read, "" first, then by side letter and identity.
  std::vector<std::string> classes() const;
  const std::vector<ImageFailure>& failures() const { return failures_; }
  // Per (truth → read) pair of the errors: how many, most first.
  std::vector<std::pair<std::pair<std::string, std::string>, int64_t>> top_errors(size_t n) const;

  void merge(const ReadTally& other);

 private:
  ReadFigures f_;
  std::map<std::pair<std::string, std::string>, int64_t> confusion_;
  std::vector<ImageFailure> failures_;
};

// The confusion table as fixed-width text: rows are the truth, columns what was read ("." for an empty site);
// zero cells are blank so the errors stand out.
std::string confusion_text(const ReadTally& tally);

}  // namespace sb::vision
