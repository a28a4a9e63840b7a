// What the app gives the screen: the board model from calibration's configs,
// legal moves from the engines, the www folder, and the host for replayed games.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/args.h"
#include "calibration/board_model.h"
#include "display/host.h"
#include "display/server_options.h"
#include "engines/common/rules.h"

namespace sb::cli {

// The board model in the form the screen draws (display/board_model.h).
nlohmann::json screen_board_model(const calib::BoardModel& model);

// The page's folder: SMARTBOARD_WWW if set, else display/www of the source tree
// (beside configs/), else beside or above the executable. InputError when none exists.
std::string find_www_root();

// The options every command that serves the screen takes: --http [ADDR:]PORT,
// --lang en|vi, --speak (also on this machine's audio), --www DIR.
std::vector<OptionSpec> screen_option_specs();
display::ServerOptions screen_options(const Args& args, const std::string& default_listen = "127.0.0.1:8080");

// The legal moves answering a query of the teaching mode, from the engine, in
// the form of `smartboard moves --json`.
nlohmann::json legal_moves_json(const Rules& rules, const display::MoveQuery& query);

// A draughts game as PDN from the screen's move list (the display's state),
// written by the draughts engine's PDN writer. InputError for another game or a
// move the rules do not take.
std::string pdn_record(const Rules& rules, const nlohmann::json& state);

// The host of a live game (`smartboard referee … --http`, the demo): legal moves
// from the engine, commands, records and extra state from the functions the
// command wires to its referee. `command` must be set; the others may be empty.
struct ScreenHooks {
  std::function<display::CommandReply(const nlohmann::json&)> command;
  std::function<std::optional<display::Record>(const std::string& format)> record;
  std::function<nlohmann::json()> state_extra;
};

class LiveHost : public display::GameHost {
 public:
  LiveHost(std::shared_ptr<const Rules> rules, nlohmann::json board, std::string start_fen, ScreenHooks hooks);

  std::string game() const override { return rules_->id(); }
  nlohmann::json board_model() const override { return board_; }
  std::string start_fen() const override { return start_fen_; }
  nlohmann::json legal_moves(const display::MoveQuery& query) const override {
    return legal_moves_json(*rules_, query);
  }
  display::CommandReply command(const nlohmann::json& command) override { return hooks_.command(command); }
  std::optional<display::Record> record(const std::string& format) const override {
    return hooks_.record ? hooks_.record(format) : std::nullopt;
  }
  nlohmann::json state_extra() const override {
    return hooks_.state_extra ? hooks_.state_extra() : nlohmann::json::object();
  }

 private:
  std::shared_ptr<const Rules> rules_;
  nlohmann::json board_;
  std::string start_fen_;
  ScreenHooks hooks_;
};

// The host of `smartboard serve-events`: a recorded game replayed to the screen.
// Operators may pause, resume and change the speed of the replay.
class ReplayHost : public display::GameHost {
 public:
  // `rules` may be null while a game's engine is not built: the teaching mode then says so.
  ReplayHost(std::string game, std::unique_ptr<Rules> rules, nlohmann::json board, std::string start_fen);

  std::string game() const override { return game_; }
  nlohmann::json board_model() const override { return board_; }
  std::string start_fen() const override { return start_fen_; }
  nlohmann::json legal_moves(const display::MoveQuery& query) const override;
  display::CommandReply command(const nlohmann::json& command) override;
  std::optional<display::Record> record(const std::string& format) const override;

  // The screen's state, for the PDN record (set once the server exists).
  void set_state_source(std::function<nlohmann::json()> state) { state_ = std::move(state); }

  // Replay control, shared with the replaying loop.
  double speed() const { return speed_.load(); }
  bool paused() const;
  void stop();
  bool stopped() const { return stopped_.load(); }

 private:
  std::string game_;
  std::unique_ptr<Rules> rules_;
  nlohmann::json board_;
  std::string start_fen_;
  std::function<nlohmann::json()> state_;
  std::atomic<double> speed_{1.0};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> paused_{false};
};

}  // namespace sb::cli
