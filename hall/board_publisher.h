// The referee's side of the hall: publishes one board's events and state to the
// broker (`smartboard referee … --mqtt HOST[:PORT] --board N [--event ID]`).
//
// Every announced event that the journal keeps gets the next number of the
// board's stream and is published with QoS 1. An event counts as delivered only
// when the broker confirms it (PUBACK); until then it stays pending here (and on
// disk in the journal), and every new connection publishes the pending ones again,
// in order. A restart on the same journal numbers the journal's events the same
// way and sends again whatever was not confirmed (the stream and the confirmed
// count are kept beside the journal, in "<journal>.mqtt"). Repeats are harmless:
// the hall keeps one copy of each (board, stream, seq).
//
// The board's state is published retained after every batch of events (a hall
// that starts later sees every board at once), the status "online" on connect
// and "offline" as the last will, and the whole stream as a retained record when
// a game ends and when the referee stops. A hall that missed events (a broker
// restart loses what it had not yet delivered) asks on the board's resend topic
// and gets them again from the journal.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/event.h"
#include "arbiter/referee.h"
#include "hall/mqtt_client.h"

namespace sb::hall {

struct PublisherOptions {
  std::string event = "default";  // the tournament (one topic level)
  int board = 1;
  // "<journal>.mqtt": keeps the stream id and the confirmed count across restarts. Empty: a new stream.
  std::string sidecar_path;
  // The same resend request is served at most this often.
  std::chrono::milliseconds resend_interval{200};
};

// Whether the journal keeps (and so the stream carries) this event: every event
// the referee announces except information notes and refused commands (arbiter::journaled).
bool journaled(const arbiter::Event& e);

// The retained state of a board: the referee's own state (arbiter Referee::state_json)
// and what a hall needs to show it without any event.
nlohmann::json board_state(const arbiter::Referee& referee, int board, const std::string& stream, int64_t seq);

class BoardPublisher {
 public:
  // `recorded`: the events the journal already holds (a restart), oldest first.
  // Throws InputError for bad options or an unreadable sidecar.
  BoardPublisher(MqttOptions mqtt, PublisherOptions options, const std::vector<nlohmann::json>& recorded);
  ~BoardPublisher();
  BoardPublisher(const BoardPublisher&) = delete;
  BoardPublisher& operator=(const BoardPublisher&) = delete;

  // Connects (in the background; a missing broker is retried) with `state` as the first retained state.
  void start(nlohmann::json state);
  // The referee announced `events` (in order, as journaled); `state` is the board after them.
  void publish(const std::vector<arbiter::Event>& events, nlohmann::json state);
  // Waits until the broker confirmed every event (true) or `timeout` passed (false).
  bool wait_confirmed(std::chrono::milliseconds timeout);
  // Publishes the record and the "offline" status, waits up to `linger` for the
  // broker to confirm everything, and disconnects. Returns whether all was confirmed.
  bool stop(std::chrono::milliseconds linger);

  // The referee vanishes (a crash, a pulled cable): no goodbye, the broker sends the last will.
  void abandon() { client_->abandon(); }

  struct Stats {
    int64_t events = 0;            // numbered so far
    int64_t confirmed = 0;         // of them, confirmed by the broker
    int64_t publications = 0;      // event messages handed to the client, repeats included
    int64_t resend_requests = 0;   // served
    uint64_t connects = 0;
  };
  Stats stats() const;
  const std::string& stream() const { return stream_; }
  bool connected() const { return client_ && client_->connected(); }

 private:
  void on_connected();
  void on_disconnected();
  void on_acknowledged(int mid);
  void on_message(const std::string& topic, const std::string& payload);
  // With mutex_ held:
  void send_event_locked(int64_t seq);
  void send_state_locked();
  void send_record_locked();
  void save_sidecar_locked(bool force);

  PublisherOptions options_;
  std::string stream_;
  std::unique_ptr<MqttClient> client_;

  mutable std::mutex mutex_;
  std::condition_variable confirmed_cv_;
  struct Pending {
    nlohmann::json event;
    int64_t announced_us = 0;
    bool confirmed = false;
  };
  std::vector<Pending> events_;      // seq = index + 1
  int64_t confirmed_count_ = 0;
  int64_t confirmed_prefix_ = 0;     // every seq up to this one is confirmed
  std::map<int, int64_t> inflight_;  // message id → seq (0: state, record or status)
  std::string state_payload_;
  bool record_published_ = false;    // a record exists to be published again after a reconnect
  int64_t publications_ = 0, resend_requests_ = 0;
  std::chrono::steady_clock::time_point last_resend_{};
  int64_t last_resend_from_ = 0;
  int64_t saved_prefix_ = -1;
  int sidecar_fd_ = -1;              // the sidecar, open for updates in place after its first write
  std::chrono::steady_clock::time_point last_save_{};
  bool stopping_ = false;
};

}  // namespace sb::hall
