#include "engines/registry.h"

#include <functional>

#include "engines/common/errors.h"

namespace sb {

// Each family's factory, declared by the family; see its header.
std::unique_ptr<Rules> make_draughts_rules(std::string_view id, const Json& options);
std::unique_ptr<Rules> make_morris_rules(std::string_view id, const Json& options);
std::unique_ptr<Rules> make_cotoan_rules(const Json& options);
std::unique_ptr<Rules> make_cotulenh_rules(const Json& options);

namespace {

struct Entry {
  const char* id;
  std::function<std::unique_ptr<Rules>(const Json&)> make;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {"brazilian", [](const Json& o) { return make_draughts_rules("brazilian", o); }},
      {"international", [](const Json& o) { return make_draughts_rules("international", o); }},
      {"english", [](const Json& o) { return make_draughts_rules("english", o); }},
      {"morris9", [](const Json& o) { return make_morris_rules("morris9", o); }},
      {"morris3", [](const Json& o) { return make_morris_rules("morris3", o); }},
      {"morris6", [](const Json& o) { return make_morris_rules("morris6", o); }},
      {"morris12", [](const Json& o) { return make_morris_rules("morris12", o); }},
      {"cotoan", [](const Json& o) { return make_cotoan_rules(o); }},
      {"cotulenh", [](const Json& o) { return make_cotulenh_rules(o); }},
  };
  return table;
}

}  // namespace

const std::vector<std::string>& game_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const Entry& e : entries()) v.push_back(e.id);
    return v;
  }();
  return ids;
}

bool is_game_id(std::string_view id) {
  for (const Entry& e : entries())
    if (id == e.id) return true;
  return false;
}

std::unique_ptr<Rules> make_rules(std::string_view id, const Json& options) {
  for (const Entry& e : entries())
    if (id == e.id) return e.make(options);
  std::string list;
  for (const Entry& e : entries()) list += (list.empty() ? "" : ", ") + std::string(e.id);
  throw InputError("unknown game '" + std::string(id) + "' (games: " + list + ")");
}

}  // namespace sb
