// The hall's MQTT topics and message formats: what a board publishes and what
// the hall reads, with the checks that keep a hostile or broken payload from
// reaching anything else.
//
// Topics, under smartboard/<event>/board/<N>/:
//   events  QoS 1          one referee event: {"board", "stream", "seq", "sent_us", "event": {...}}
//   state   QoS 1 retained the board now: {"board", "stream", "seq", "game", "rules", "phase", "fen", ...}
//   status  QoS 1 retained {"board", "stream", "online": bool, "reason"}; the last will says offline
//   record  QoS 1 retained every event of the stream so far: {"board", "stream", "events": [{"seq", "event"}...]},
//                          published when a game ends and when the referee stops
//   resend  QoS 1          from a hall: {"stream", "from": seq} asks the board to publish its events again
//
// A stream is one referee's run over one journal ("<start ms>-<random>", hex):
// its events are numbered 1, 2, 3 … in journal order, so (board, stream, seq)
// names an event once, however often it is delivered. A referee that restarts on
// the same journal keeps its stream; a newer stream replaces an older one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::hall {

enum class TopicKind { Events, State, Status, Record, Resend };
const char* to_string(TopicKind k);

// Event ids: 1 to 64 of A-Z a-z 0-9 _ . - (they become one topic level).
void check_event_id(const std::string& id);
constexpr int kMaxBoard = 9999;
void check_board_number(int board, const std::string& what);

std::string board_topic(const std::string& event, int board, TopicKind kind);
// The subscription covering `kind` for every board of an event.
std::string all_boards_topic(const std::string& event, TopicKind kind);

struct BoardTopic {
  int board = 0;
  TopicKind kind = TopicKind::Events;
};
// nullopt for a topic outside the event's boards (or with a bad board number).
std::optional<BoardTopic> parse_board_topic(const std::string& event, const std::string& topic);

// Streams: "<ms since 1970, hex>-<random, hex>"; newer starts compare greater.
std::string new_stream_id();
bool valid_stream_id(const std::string& s);
// Whether stream `a` started after stream `b` (ties broken by the random part).
bool stream_newer(const std::string& a, const std::string& b);

// Microseconds on the machine's monotonic clock (shared by every process of one machine).
int64_t monotonic_us();

// --- parsed messages. Each parser throws InputError naming what is wrong.
constexpr size_t kMaxEventBytes = 256 * 1024;
constexpr size_t kMaxStateBytes = 1024 * 1024;
constexpr size_t kMaxRecordBytes = 64 * 1024 * 1024;

struct EventMessage {
  int board = 0;
  std::string stream;
  int64_t seq = 0;       // 1-based
  int64_t sent_us = 0;   // monotonic_us() when the referee published it (0: unknown)
  nlohmann::json event;  // the arbiter's event object (arbiter/event.h), checked
};
EventMessage parse_event_message(const std::string& payload, int topic_board);
std::string event_message(int board, const std::string& stream, int64_t seq, const nlohmann::json& event,
                          int64_t sent_us);

struct StateMessage {
  int board = 0;
  std::string stream;
  int64_t seq = 0;  // events published so far
  nlohmann::json state;  // the whole object
};
StateMessage parse_state_message(const std::string& payload, int topic_board);

struct StatusMessage {
  int board = 0;
  std::string stream;  // may be empty (a last will written before the stream was known)
  bool online = false;
  std::string reason;
};
StatusMessage parse_status_message(const std::string& payload, int topic_board);
std::string status_message(int board, const std::string& stream, bool online, const std::string& reason);

struct RecordMessage {
  int board = 0;
  std::string stream;
  std::vector<EventMessage> events;
};
RecordMessage parse_record_message(const std::string& payload, int topic_board);

struct ResendRequest {
  std::string stream;
  int64_t from = 1;
};
ResendRequest parse_resend_request(const std::string& payload);
std::string resend_request(const std::string& stream, int64_t from);

}  // namespace sb::hall
