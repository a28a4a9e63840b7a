// The hall's picture of every board of an event, built from the boards' MQTT
// messages (hall/topics.h).
//
// Each board's events are taken exactly once and in order: an event is named by
// (stream, seq), a copy already taken is counted as a duplicate and dropped, one
// that arrives ahead of a gap waits for the missing ones, and a gap that lasts
// (a broker restart lost messages it had not delivered yet, or the hall started
// late) is answered by a resend request on the board's resend topic, repeated
// with back-off until the gap closes. The retained state tells a hall how many
// events a board has published, so a late hall knows what to ask for; the
// retained record carries a stopped referee's whole stream.
//
// Accepted events are folded through the game's rules (hall/game_fold.h); an
// event that does not fit is refused with its reason, recorded as an error of
// the board, and skipped. Hostile or broken payloads never throw out of here:
// each becomes one line in the error list.
//
// Thread-safe: the MQTT thread feeds it, the web server reads it.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/record.h"
#include "hall/game_fold.h"
#include "hall/pairings.h"
#include "hall/topics.h"

namespace sb::hall {

struct HallOptions {
  std::string event = "default";
  // A gap waits this long for messages that are merely late before it is asked for.
  std::chrono::milliseconds gap_grace{250};
  // Repeated requests for the same gap back off from the grace up to this.
  std::chrono::milliseconds resend_max{4000};
  size_t max_waiting = 50000;  // events held ahead of a gap, per board
  size_t max_errors = 500;     // the error list keeps the newest
  size_t max_latency_samples = 2000000;
};

// A message the hall wants published (resend requests).
struct Outgoing {
  std::string topic;
  std::string payload;
};

// One event the hall accepted: the board, its place in the stream, the event.
struct AcceptedEvent {
  int board = 0;
  int64_t seq = 0;
  nlohmann::json event;
  bool new_stream = false;  // the first of a stream that replaced another: the board starts afresh
};

class HallState {
 public:
  explicit HallState(HallOptions options, Pairings pairings = {});

  const HallOptions& options() const { return options_; }
  const Pairings& pairings() const { return pairings_; }

  // One message from the broker; returns what to publish in answer. Never throws
  // for a bad payload (it becomes an error line).
  std::vector<Outgoing> on_message(const std::string& topic, const std::string& payload, int64_t now_us);
  // Resend requests for gaps that outlasted their grace. Call a few times a second.
  std::vector<Outgoing> tick(int64_t now_us);

  // Called (under the hall's lock, in order) with every accepted event.
  void set_listener(std::function<void(const AcceptedEvent&)> listener);

  // GET /api/boards: one object per board (paired or heard of), by number.
  nlohmann::json boards_json() const;
  // One board with its move list; null when the hall knows no such board.
  nlohmann::json board_json(int board) const;
  // Every event accepted for `board` in the current stream, in order (with "seq").
  std::vector<nlohmann::json> board_events(int board) const;
  // The game and rule options of `board` as far as known ({"game", "rules", "start_fen"}), or null.
  nlohmann::json board_game(int board) const;
  // The round's standings from the pairings and the finished games.
  nlohmann::json standings_json() const;
  // Records: "pdn" (every draughts board in one file), "txt" and "json" (the other boards).
  // `board` > 0: that board's record only (pdn for draughts; txt and json for any game).
  // nullopt when there is nothing of that kind.
  std::optional<std::string> record(const std::string& format, int board = 0) const;
  nlohmann::json errors_json() const;

  struct Counters {
    int64_t accepted = 0;     // events taken (each once)
    int64_t duplicates = 0;   // copies dropped
    int64_t stale = 0;        // messages of a replaced stream
    int64_t refused = 0;      // events taken but refused by the rules (see errors)
    int64_t bad_messages = 0; // payloads that did not parse
    int64_t resend_requests = 0;
  };
  Counters counters() const;
  // Referee→hall latency of the accepted events that carried a send time (µs).
  std::vector<int64_t> latencies_us() const;
  // Every board's events accepted so far and the highest seq heard of.
  std::map<int, std::pair<int64_t, int64_t>> progress() const;

 private:
  struct Board {
    int number = 0;
    std::string stream;
    int64_t next_seq = 1;   // the first seq not taken yet
    int64_t known_seq = 0;  // the highest seq heard of (events, state, record)
    std::map<int64_t, EventMessage> waiting;
    int64_t gap_since_us = 0, next_request_us = 0;
    std::chrono::milliseconds backoff{0};
    std::string game;
    nlohmann::json rules_options;
    std::unique_ptr<GameFold> fold;
    std::vector<nlohmann::json> events;  // taken, with "seq"
    nlohmann::json state;                // the latest state message
    bool status_known = false, online = false;
    std::string status_reason;
    int64_t errors = 0;
    std::string last_error;
  };

  Board& board(int number);
  // Whether a message of `stream` belongs to the board's current stream (switching
  // to it when it is newer). False: a replaced stream's message, dropped.
  bool accept_stream(Board& b, const std::string& stream, std::vector<AcceptedEvent>* note);
  void set_game(Board& b, const std::string& game, const nlohmann::json& rules);
  void offer(Board& b, EventMessage m);
  void drain(Board& b, int64_t now_us);
  void error(Board* b, const std::string& text);
  nlohmann::json summary(const Board& b) const;
  std::string status_of(const Board& b) const;
  arbiter::RecordTags tags_of(const Board& b) const;

  HallOptions options_;
  Pairings pairings_;
  mutable std::mutex mutex_;
  std::map<int, Board> boards_;
  std::function<void(const AcceptedEvent&)> listener_;
  std::deque<std::string> errors_;
  Counters counters_;
  std::vector<int64_t> latencies_;
};

}  // namespace sb::hall
