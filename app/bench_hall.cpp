// `smartboard bench hall [--count N] [--speed X] [--plies P] [--games G,...] [--report FILE.html]`:
// N referees (default 200; threads of this process, each with its own MQTT
// connection and journal), each reading an observation file of a random legal
// game at X times a player's pace (default 10), publish through one Mosquitto
// (started here on a loopback port) to one hall. Round 1 runs undisturbed; in
// round 2 the broker is killed (SIGKILL) a third of the way in and started again
// two seconds later. Each round checks that the hall took every event exactly
// once and that /api/boards shows every referee's final position, and reports
// the referee→hall latency (median, p99).
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <utility>  // before Boost.Asio 1.74, which uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "app/args.h"
#include "arbiter/frame.h"
#include "arbiter/journal.h"
#include "arbiter/referee.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "hall/board_publisher.h"
#include "hall/broker_process.h"
#include "hall/hall_client.h"
#include "hall/hall_server.h"
#include "hall/observed_game.h"
#include "hall/topics.h"

namespace sb::cli {

namespace {

struct RoundResult {
  std::string name;
  int boards = 0;
  int64_t events = 0, accepted = 0, duplicates_dropped = 0, resend_requests = 0;
  int boards_exact = 0;      // the hall's copy equals what the referee journaled
  int positions_right = 0;   // /api/boards shows the referee's final position
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  double seconds = 0;
  bool broker_restarted = false;
};

std::string http_get(unsigned short port, const std::string& target) {
  namespace http = boost::beast::http;
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket socket(ioc);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  http::request<http::string_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(socket, req);
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  http::read(socket, buffer, parser);
  return parser.get().body();
}

double percentile(std::vector<int64_t> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return static_cast<double>(v[std::min(i, v.size() - 1)]) / 1000.0;
}

RoundResult run_round(const std::string& name, const std::string& event, hall::BrokerProcess& broker,
                      const std::vector<std::string>& games, int count, double speed, int plies, uint64_t seed,
                      bool restart, const std::string& dir) {
  RoundResult result;
  result.name = name;
  result.boards = count;
  result.broker_restarted = restart;
  hall::HallOptions ho;
  ho.event = event;
  hall::HallState hall(ho);
  hall::MqttOptions mqtt;
  mqtt.broker = {"127.0.0.1", broker.port()};
  mqtt.reconnect_min_ms = 100;
  mqtt.reconnect_max_ms = 1000;
  hall::MqttOptions hall_mqtt = mqtt;
  hall_mqtt.client_id = "bench-hall-" + event;
  hall::HallClient client(hall_mqtt, hall);
  hall::HallServerOptions so;
  so.port = 0;
  so.www_root = dir;
  hall::HallServer server(so, hall);
  server.start();
  client.start();

  struct Board {
    std::shared_ptr<const Rules> rules;
    hall::ObservedGame game;
    std::string observations;  // the observation file (JSON lines) the referee reads
    std::unique_ptr<arbiter::Journal> journal;
    std::unique_ptr<arbiter::Referee> referee;
    std::unique_ptr<hall::BoardPublisher> publisher;
    std::vector<nlohmann::json> published;
  };
  std::vector<Board> boards(static_cast<size_t>(count));
  int64_t longest_ms = 0;
  for (int i = 0; i < count; ++i) {
    Board& b = boards[static_cast<size_t>(i)];
    b.rules = make_rules(games[static_cast<size_t>(i) % games.size()]);
    hall::ObservedGameOptions go;
    go.max_plies = plies;
    go.seed = seed * 100003 + static_cast<uint64_t>(i);
    b.game = hall::random_observed_game(*b.rules, go);
    // The referee reads its board's observation file, as `smartboard referee --observations` does.
    b.observations = dir + "/" + event + "-board" + std::to_string(i + 1) + ".jsonl";
    {
      std::ofstream out(b.observations);
      for (const std::string& line : b.game.lines) out << line << '\n';
      if (!out) throw InputError("bench hall: cannot write '" + b.observations + "'");
    }
    arbiter::RefereeOptions ro;
    const std::string journal = dir + "/" + event + "-board" + std::to_string(i + 1) + ".journal";
    std::filesystem::remove(journal);
    std::filesystem::remove(journal + ".mqtt");
    b.journal = std::make_unique<arbiter::Journal>(journal, arbiter::Referee::journal_header(*b.rules, ro));
    b.referee = std::make_unique<arbiter::Referee>(b.rules, ro, b.journal.get());
    hall::PublisherOptions po;
    po.event = event;
    po.board = i + 1;
    po.sidecar_path = journal + ".mqtt";
    hall::MqttOptions m = mqtt;
    m.client_id = "bench-" + event + "-" + std::to_string(i + 1);
    b.publisher = std::make_unique<hall::BoardPublisher>(m, po, std::vector<nlohmann::json>{});
    b.publisher->start(hall::board_state(*b.referee, i + 1, b.publisher->stream(), 0));
    auto last = nlohmann::json::parse(b.game.lines.back());
    longest_ms = std::max(longest_ms, last["t"].get<int64_t>());
  }
  // The round starts a second from now, once every referee is ready.
  const auto t0 = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&, i] {
      Board& b = boards[static_cast<size_t>(i)];
      std::optional<int64_t> previous;
      std::ifstream in(b.observations);
      std::string text;
      for (int64_t k = 1; std::getline(in, text); ++k) {
        arbiter::Frame f = arbiter::parse_frame(*b.rules, text, b.observations + " line " + std::to_string(k), previous);
        previous = f.t;
        f.line = k;
        // The referee's own work on the frame (rules, journal) is done ahead of the
        // frame's instant, and the events are announced at that instant: 200 referees
        // on as many machines work in parallel, while here they share two cores with
        // the broker and the hall, and all at once would be measured as delivery time.
        std::vector<arbiter::Event> events = b.referee->on_frame(f);
        nlohmann::json state = hall::board_state(*b.referee, i + 1, b.publisher->stream(), 0);
        std::this_thread::sleep_until(t0 + std::chrono::microseconds(static_cast<int64_t>(f.t * 1000 / speed)));
        for (const arbiter::Event& e : events)
          if (hall::journaled(e)) b.published.push_back(arbiter::to_json(e));
        b.publisher->publish(events, std::move(state));
      }
      std::vector<arbiter::Event> events = b.referee->finish(b.referee->last_t());
      for (const arbiter::Event& e : events)
        if (hall::journaled(e)) b.published.push_back(arbiter::to_json(e));
      b.publisher->publish(events, hall::board_state(*b.referee, i + 1, b.publisher->stream(), 0));
      ++done;
    });
    ::pthread_setname_np(threads.back().native_handle(), "referee");
  }
  if (restart) {
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(longest_ms * 1000 / speed / 3)));
    std::cerr << "bench hall: " << name << ": killing the broker\n";
    broker.kill(SIGKILL);
    std::this_thread::sleep_for(std::chrono::seconds(2));
    broker.start();
    std::cerr << "bench hall: " << name << ": broker started again\n";
  }
  while (done < count) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (isatty(2)) {
      auto p = hall.progress();
      int64_t taken = 0;
      for (auto& [n, v] : p) taken += v.first;
      std::fprintf(stderr, "\rbench hall: %s: %d/%d referees done, %lld events in the hall   ", name.c_str(),
                   done.load(), count, static_cast<long long>(taken));
    }
  }
  for (std::thread& t : threads) t.join();
  for (Board& b : boards) b.publisher->wait_confirmed(std::chrono::seconds(30));
  // Let the hall catch up (resends after the restart).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    auto p = hall.progress();
    bool all = true;
    for (int i = 0; i < count; ++i)
      if (p[i + 1].first != static_cast<int64_t>(boards[static_cast<size_t>(i)].published.size())) all = false;
    if (all || std::chrono::steady_clock::now() > until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (isatty(2)) std::fprintf(stderr, "\n");
  nlohmann::json rows = nlohmann::json::parse(http_get(server.port(), "/api/boards"));
  std::map<int, nlohmann::json> by_board;
  for (const nlohmann::json& r : rows) by_board[r["board"].get<int>()] = r;
  for (int i = 0; i < count; ++i) {
    Board& b = boards[static_cast<size_t>(i)];
    result.events += static_cast<int64_t>(b.published.size());
    std::vector<nlohmann::json> copy;
    for (nlohmann::json e : hall.board_events(i + 1)) {
      e.erase("seq");
      copy.push_back(e);
    }
    if (copy == b.published) ++result.boards_exact;
    auto it = by_board.find(i + 1);
    if (it != by_board.end() && it->second["fen"] == b.rules->fen(b.referee->state()) &&
        it->second["moves"] == b.referee->ply())
      ++result.positions_right;
  }
  hall::HallState::Counters c = hall.counters();
  result.accepted = c.accepted;
  result.duplicates_dropped = c.duplicates;
  result.resend_requests = c.resend_requests;
  std::vector<int64_t> lat = hall.latencies_us();
  result.p50_ms = percentile(lat, 0.5);
  result.p99_ms = percentile(lat, 0.99);
  result.max_ms = percentile(lat, 1.0);
  for (Board& b : boards) b.publisher->stop(std::chrono::seconds(2));
  client.stop();
  server.stop();
  return result;
}

}  // namespace

int bench_hall(const Args& args) {
  const int count = args.int_value("--count", 200, 1, 2000);
  const double speed = args.double_value("--speed", 10, 0.1, 1000);
  const int plies = args.int_value("--plies", 60, 1, 1000);
  const uint64_t seed = static_cast<uint64_t>(args.int_value("--seed", 1, 0, 1 << 30));
  const std::vector<std::string> games = args.list_value(
      "--games", {"brazilian", "international", "english", "morris9", "cotoan", "cotulenh"});
  for (const std::string& g : games)
    if (!is_game_id(g)) throw InputError("bench hall: unknown game '" + g + "'");
  const std::string dir = std::filesystem::temp_directory_path().string() + "/smartboard-bench-hall-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  hall::BrokerProcessOptions bo;
  bo.work_dir = dir + "/broker";
  hall::BrokerProcess broker(bo);
  broker.start();
  std::vector<RoundResult> results;
  results.push_back(run_round("round 1", "bench-r1", broker, games, count, speed, plies, seed, false, dir));
  if (!args.has("--no-restart"))
    results.push_back(run_round("round 2 (broker killed)", "bench-r2", broker, games, count, speed, plies, seed + 1, true, dir));
  std::printf("%-24s %6s %8s %8s %8s %8s %8s %8s %9s %9s %9s %8s\n", "round", "boards", "events", "taken", "dropped",
              "resends", "exact", "fen ok", "p50 ms", "p99 ms", "max ms", "seconds");
  bool ok = true;
  for (const RoundResult& r : results) {
    std::printf("%-24s %6d %8lld %8lld %8lld %8lld %8d %8d %9.2f %9.2f %9.2f %8.1f\n", r.name.c_str(), r.boards,
                static_cast<long long>(r.events), static_cast<long long>(r.accepted),
                static_cast<long long>(r.duplicates_dropped), static_cast<long long>(r.resend_requests), r.boards_exact,
                r.positions_right, r.p50_ms, r.p99_ms, r.max_ms, r.seconds);
    ok = ok && r.accepted == r.events && r.boards_exact == r.boards && r.positions_right == r.boards;
  }
  std::printf("%s\n", ok ? "every event reached the hall exactly once; every final position right"
                          : "FAILED: the hall lost, doubled or misplaced something");
  if (auto report = args.value("--report")) {
    std::ofstream out(*report);
    if (!out) throw InputError("bench hall: cannot write report '" + *report + "'");
    out << "<!doctype html><meta charset=utf-8><title>smartboard bench hall</title><style>body{font-family:sans-serif}"
           "td,th{padding:2px 10px;text-align:right}</style><h1>bench hall</h1><p>"
        << count << " referees at " << speed << "× a player's pace, " << plies
        << " plies at most, one Mosquitto on loopback</p><table><tr><th>round<th>boards<th>events<th>taken<th>copies "
           "dropped<th>resend requests<th>boards exact<th>final FEN right<th>p50 ms<th>p99 ms<th>max ms<th>s</tr>";
    for (const RoundResult& r : results) {
      char row[512];
      std::snprintf(row, sizeof row,
                    "<tr><td>%s<td>%d<td>%lld<td>%lld<td>%lld<td>%lld<td>%d<td>%d<td>%.2f<td>%.2f<td>%.2f<td>%.1f</tr>",
                    r.name.c_str(), r.boards, static_cast<long long>(r.events), static_cast<long long>(r.accepted),
                    static_cast<long long>(r.duplicates_dropped), static_cast<long long>(r.resend_requests),
                    r.boards_exact, r.positions_right, r.p50_ms, r.p99_ms, r.max_ms, r.seconds);
      out << row;
    }
    out << "</table>\n";
  }
  std::filesystem::remove_all(dir);
  return ok ? 0 : 1;
}

}  // namespace sb::cli
