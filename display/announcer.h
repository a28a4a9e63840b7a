// The words of every announcement, in English and Vietnamese: the banner the
// screen shows and the sentence spoken aloud. One place for the phrasing, so the
// banner and the voice always agree.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::display {

enum class Language { English, Vietnamese };

// "en" / "vi"; throws InputError for anything else.
Language language_from_code(const std::string& code);
const char* language_code(Language l);

struct Announcement {
  std::string kind;    // move, capture, illegal, restored, takeback, over, setup, mismatch, unclear, info
  std::string title;   // the banner's large line
  std::string detail;  // the banner's second line (reason, squares, calculation, points); may be empty
  std::string speech;  // what is said aloud; empty: nothing to say
};

// The announcement of an event as GameView::apply returns it (with "calc" for
// Cờ toán captures). `sides` is the game's side names, first side first.
// An event that announces nothing (a clock tick) gives an empty kind.
Announcement announce(const nlohmann::json& event, const std::vector<std::string>& sides, Language lang);

// {"kind", "en": {"title","detail","speech"}, "vi": {...}}, or null for an event that announces nothing.
nlohmann::json announcement_json(const nlohmann::json& event, const std::vector<std::string>& sides);

}  // namespace sb::display
