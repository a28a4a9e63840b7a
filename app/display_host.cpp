#include "app/display_host.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "display/announcer.h"
#include "engines/common/errors.h"
#include "engines/draughts/draughts_rules.h"
#include "engines/draughts/pdn.h"

namespace sb::cli {

namespace fs = std::filesystem;

namespace {

nlohmann::json point(const calib::Vec2& p) { return {p.x, p.y}; }

nlohmann::json to_nlohmann(const Json& j) { return nlohmann::json::parse(j.dump()); }

}  // namespace

nlohmann::json screen_board_model(const calib::BoardModel& m) {
  nlohmann::json sites = nlohmann::json::object();
  for (const calib::Site& s : m.sites) sites[s.name] = point(s.centre);
  nlohmann::json shapes = nlohmann::json::array();
  for (const calib::Shape& s : m.drawing) {
    const std::string style = calib::paint_name(s.paint);
    nlohmann::json points = nlohmann::json::array();
    for (const calib::Vec2& p : s.points) points.push_back(point(p));
    switch (s.type) {
      case calib::Shape::Type::Polygon:
        shapes.push_back({{"kind", "polygon"}, {"points", points}, {"style", style}});
        break;
      case calib::Shape::Type::Polyline:
        shapes.push_back({{"kind", "polyline"}, {"points", points}, {"style", style}, {"width", s.width_mm}});
        break;
      case calib::Shape::Type::Disc:
        if (!s.points.empty())
          shapes.push_back({{"kind", "circle"}, {"center", point(s.points[0])}, {"r", s.radius_mm}, {"style", style}});
        break;
    }
  }
  return {{"game", m.game},         {"title", m.title},          {"width_mm", m.size_mm.x},
          {"height_mm", m.size_mm.y}, {"piece_mm", m.pitch_mm * 0.8}, {"sites", sites},
          {"shapes", shapes}};
}

std::string find_www_root() {
  std::vector<fs::path> tried;
  auto usable = [&](const fs::path& p) {
    tried.push_back(p);
    std::error_code ec;
    return fs::is_regular_file(p / "index.html", ec);
  };
  if (const char* env = std::getenv("SMARTBOARD_WWW")) {
    if (usable(env)) return env;
    throw InputError(std::string("SMARTBOARD_WWW '") + env + "' has no index.html");
  }
  try {
    fs::path beside_configs = calib::configs_dir().parent_path() / "display" / "www";
    if (usable(beside_configs)) return beside_configs.string();
  } catch (const InputError&) {
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& p : {exe.parent_path() / "display" / "www", exe.parent_path().parent_path() / "display" / "www",
                              exe.parent_path().parent_path() / "share" / "smartboard" / "www"})
      if (usable(p)) return p.string();
  }
  std::string list;
  for (const fs::path& p : tried) list += (list.empty() ? "" : ", ") + p.string();
  throw InputError("the screen's files (display/www) were not found; tried " + list);
}

std::vector<OptionSpec> screen_option_specs() { return {{"--http"}, {"--lang"}, {"--speak", false}, {"--www"}}; }

display::ServerOptions screen_options(const Args& args, const std::string& default_listen) {
  display::ServerOptions o;
  display::ListenAddress where = display::parse_listen_address(args.value_or("--http", default_listen));
  o.address = where.address;
  o.port = where.port;
  o.www_root = args.has("--www") ? args.value("--www").value() : find_www_root();
  if (!fs::is_regular_file(fs::path(o.www_root) / "index.html"))
    throw InputError("--www '" + o.www_root + "': no index.html there");
  o.language = display::language_from_code(args.value_or("--lang", "en"));
  return o;
}

nlohmann::json legal_moves_json(const Rules& rules, const display::MoveQuery& q) {
  State s = rules.from_fen(q.fen);
  int from = -1;
  if (!q.from.empty()) {
    from = rules.site_index(q.from);
    if (from < 0) throw InputError("moves: no site '" + q.from + "' on a " + rules.id() + " board");
  }
  nlohmann::json out = nlohmann::json::array();
  for (const Move& m : rules.legal_moves(s)) {
    if (from >= 0 && m.from != from) continue;
    if (q.captures_only && m.captured.empty()) continue;
    nlohmann::json j = m.details.is_object() ? to_nlohmann(m.details) : nlohmann::json::object();
    j["notation"] = m.notation;
    j["from"] = m.from >= 0 ? nlohmann::json(rules.site_name(m.from)) : nlohmann::json(nullptr);
    j["to"] = m.to >= 0 ? nlohmann::json(rules.site_name(m.to)) : nlohmann::json(nullptr);
    nlohmann::json captured = nlohmann::json::array(), path = nlohmann::json::array();
    for (int c : m.captured) captured.push_back(rules.site_name(c));
    for (int p : m.path) path.push_back(rules.site_name(p));
    j["captured"] = captured;
    j["path"] = path;
    j["points"] = m.points;
    out.push_back(j);
  }
  return out;
}

std::string pdn_record(const Rules& rules, const nlohmann::json& state) {
  const auto* draughts_rules = dynamic_cast<const draughts::DraughtsRules*>(&rules);
  if (!draughts_rules) throw InputError("a PDN record is for draughts, not " + rules.id());
  // The screen keeps the moves as the referee announced them; replaying them
  // through the engine gives the writer real moves (numbering, SetUp/FEN, GameType).
  const std::string start_fen = state.value("start_fen", rules.fen(rules.start()));
  const State start = rules.from_fen(start_fen);
  State s = start;
  std::vector<Move> moves;
  const nlohmann::json& listed = state.at("moves");
  for (size_t i = 0; i < listed.size(); ++i) {
    const std::string notation = listed[i].value("notation", "");
    try {
      Move m = rules.parse_move(s, notation);
      s = rules.apply(s, m);
      moves.push_back(std::move(m));
    } catch (const InputError& e) {
      throw InputError("PDN record: move " + std::to_string(i + 1) + " '" + notation + "' of the screen's game: " +
                       e.what());
    }
  }
  std::string result = "*";
  if (state.contains("result") && state["result"].is_object()) result = state["result"].value("result", "*");
  result = draughts::normalized_result(result.empty() ? "*" : result);
  return draughts::write_pdn(draughts::record_pdn(*draughts_rules, start, moves, result, {{"Event", "smartboard"}}));
}

LiveHost::LiveHost(std::shared_ptr<const Rules> rules, nlohmann::json board, std::string start_fen, ScreenHooks hooks)
    : rules_(std::move(rules)), board_(std::move(board)), start_fen_(std::move(start_fen)), hooks_(std::move(hooks)) {
  if (!rules_ || !hooks_.command) throw std::logic_error("LiveHost needs rules and a command hook");
}

ReplayHost::ReplayHost(std::string game, std::unique_ptr<Rules> rules, nlohmann::json board, std::string start_fen)
    : game_(std::move(game)), rules_(std::move(rules)), board_(std::move(board)), start_fen_(std::move(start_fen)) {}

nlohmann::json ReplayHost::legal_moves(const display::MoveQuery& query) const {
  if (!rules_) throw std::runtime_error("this build has no " + game_ + " engine to list legal moves");
  return legal_moves_json(*rules_, query);
}

display::CommandReply ReplayHost::command(const nlohmann::json& c) {
  const std::string name = c.value("command", "");
  if (name == "pause" || name == "resume") {
    paused_ = name == "pause";
    return display::CommandReply::ok({{"message", name == "pause" ? "replay paused" : "replay resumed"}});
  }
  if (name == "speed") {
    if (!c.contains("speed") || !c["speed"].is_number() || c["speed"].get<double>() <= 0 || c["speed"].get<double>() > 1000)
      return display::CommandReply::error(400, "speed: expected \"speed\": a number above 0, at most 1000");
    speed_ = c["speed"].get<double>();
    return display::CommandReply::ok({{"message", "replay speed " + c["speed"].dump()}});
  }
  return display::CommandReply::error(
      409, "this screen replays a recorded game: it takes pause, resume and speed, not '" + name + "'");
}

std::optional<display::Record> ReplayHost::record(const std::string& format) const {
  if (format != "pdn" || !state_ || !rules_) return std::nullopt;
  if (!dynamic_cast<const draughts::DraughtsRules*>(rules_.get())) return std::nullopt;
  return display::Record{"application/x-pdn; charset=utf-8", game_ + ".pdn", pdn_record(*rules_, state_())};
}

bool ReplayHost::paused() const { return paused_.load(); }

void ReplayHost::stop() { stopped_ = true; }

}  // namespace sb::cli
