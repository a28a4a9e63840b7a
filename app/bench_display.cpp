// 100 viewers (by default) hold a WebSocket to one screen server on loopback;
// the bench publishes a game's worth of move events at a steady pace and
// measures, for every viewer and every event, the time from publication to the
// viewer having the whole message. Every viewer must receive every event.
#include "app/bench_display.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "app/display_host.h"
#include "display/beast.h"
#include "display/server.h"
#include "engines/common/errors.h"

namespace sb::cli {

namespace {

using Clock = std::chrono::steady_clock;
namespace beast = display::beast;
namespace net = display::net;
namespace websocket = display::websocket;
using display::tcp;

// One viewer: reads every message and notes when each sequence number arrived.
class BenchViewer : public std::enable_shared_from_this<BenchViewer> {
 public:
  BenchViewer(net::io_context& ioc, size_t events) : ws_(net::make_strand(ioc)), arrived_(events + 1) {}

  void connect(unsigned short port) {
    beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws_.handshake("127.0.0.1", "/ws");
  }
  void start() { read(); }
  const std::vector<Clock::time_point>& arrived() const { return arrived_; }
  size_t received() const { return received_.load(); }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      const auto now = Clock::now();
      std::string_view text(static_cast<const char*>(self->buffer_.data().data()), self->buffer_.size());
      // The sequence number is all this needs; a full parse would measure the client.
      size_t at = text.rfind("\"seq\":");
      if (at != std::string_view::npos) {
        size_t seq = std::strtoull(text.data() + at + 6, nullptr, 10);
        if (seq < self->arrived_.size()) self->arrived_[seq] = now;
      }
      self->received_.fetch_add(1);
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::vector<Clock::time_point> arrived_;
  std::atomic<size_t> received_{0};
};

// The events of the bench: a Cờ toán game's moves as the referee announces them
// (with FEN, score and, from the screen, the position), so messages have their
// real size. Two positions alternate: the screen does not judge legality.
std::vector<nlohmann::json> bench_events(const std::string& start, size_t count) {
  const std::string after = "B:R0e2,1a1,2b1,3c1,4d5,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";
  std::vector<nlohmann::json> events;
  for (size_t i = 0; i < count; ++i) {
    const bool red = i % 2 == 0;
    events.push_back({{"type", "move"}, {"t", static_cast<int64_t>(i) * 1000}, {"ply", static_cast<int>(i) + 1},
                      {"side", red ? "red" : "blue"}, {"notation", red ? "4:d1-d5" : "4:d5-d1"},
                      {"captured", nlohmann::json::array()}, {"points", 0},
                      {"score", {{"red", 0}, {"blue", 0}}}, {"fen", red ? after : start}});
  }
  return events;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t k = static_cast<size_t>(std::min<double>(v.size() - 1, std::ceil(p / 100.0 * v.size()) - 1));
  return v[k];
}

void write_report(const std::string& path, size_t viewers, size_t events, double interval_ms,
                  const std::vector<double>& ms, double p50, double p99, double worst) {
  std::ofstream out(path);
  if (!out) throw InputError("bench display: cannot write report '" + path + "'");
  // A histogram of delivery times, 0.25 ms bins up to the worst.
  const double bin = 0.25;
  std::vector<size_t> bins(static_cast<size_t>(worst / bin) + 1, 0);
  for (double v : ms) ++bins[static_cast<size_t>(v / bin)];
  size_t top = *std::max_element(bins.begin(), bins.end());
  out << "<!doctype html><meta charset=utf-8><title>smartboard bench display</title>"
         "<style>body{font-family:sans-serif;margin:2em}rect{fill:#2f6fd8}.p{stroke:#c62828;stroke-width:2}</style>"
      << "<h1>bench display</h1><p>" << viewers << " WebSocket viewers on loopback, " << events << " events every "
      << interval_ms << " ms: delivery from publication to each viewer.</p>"
      << "<p><b>p50 " << std::round(p50 * 100) / 100 << " ms, p99 " << std::round(p99 * 100) / 100 << " ms</b>, max "
      << std::round(worst * 100) / 100 << " ms (target p99 &le; 50 ms)</p>";
  const double width = 800, height = 240, bar = width / bins.size();
  char buf[256];
  out << "<svg width='" << width + 60 << "' height='" << height + 40 << "'><g transform='translate(50,10)'>";
  for (size_t i = 0; i < bins.size(); ++i) {
    double h = top ? height * bins[i] / top : 0;
    std::snprintf(buf, sizeof buf, "<rect x='%.2f' y='%.2f' width='%.2f' height='%.2f'></rect>", i * bar, height - h,
                  std::max(bar - 0.5, 0.5), h);
    out << buf;
  }
  for (auto [label, v] : {std::pair<const char*, double>{"p50", p50}, {"p99", p99}}) {
    double x = v / bin * bar;
    std::snprintf(buf, sizeof buf, "<line class='p' x1='%.2f' x2='%.2f' y1='0' y2='%.0f'></line><text x='%.2f' y='14'>%s</text>",
                  x, x, height, x + 3, label);
    out << buf;
  }
  std::snprintf(buf, sizeof buf, "<text x='0' y='%.0f'>0 ms</text><text x='%.0f' y='%.0f'>%.1f ms</text></g></svg>\n",
                height + 20, width - 60, height + 20, worst);
  out << buf;
}

}  // namespace

std::vector<OptionSpec> bench_display_specs() { return {{"--viewers"}, {"--events"}, {"--interval-ms"}}; }

int bench_display(const Args& args) {
  const size_t viewers = static_cast<size_t>(args.int_value("--viewers", 100, 1, 1000));
  const size_t count = static_cast<size_t>(args.int_value("--events", 300, 1, 100000));
  const double interval_ms = args.double_value("--interval-ms", 20, 0, 10000);
  const bool progress = ::isatty(2);

  const std::string game = "cotoan";
  // The start position of RULES.md §3; the bench needs no engine.
  const std::string start =
      "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";
  display::ServerOptions options;
  options.port = 0;
  options.www_root = find_www_root();
  options.max_connections = viewers + 16;
  ReplayHost host(game, nullptr, screen_board_model(calib::load_board_model(game)), start);
  display::Server server(options, host);
  server.start();

  // The viewers run on their own thread, as they would on other machines.
  net::io_context client_ioc;
  std::vector<std::shared_ptr<BenchViewer>> clients;
  for (size_t i = 0; i < viewers; ++i) {
    clients.push_back(std::make_shared<BenchViewer>(client_ioc, count));
    clients.back()->connect(server.port());
    clients.back()->start();
  }
  auto guard = net::make_work_guard(client_ioc);
  std::thread client_thread([&] { client_ioc.run(); });
  for (int i = 0; i < 500 && server.viewer_count() < viewers; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (server.viewer_count() < viewers)
    throw std::runtime_error("bench display: only " + std::to_string(server.viewer_count()) + " viewers connected");

  std::vector<Clock::time_point> published(count + 1);
  const std::vector<nlohmann::json> events = bench_events(start, count);
  auto next = Clock::now();
  for (size_t i = 0; i < count; ++i) {
    std::this_thread::sleep_until(next);
    next += std::chrono::microseconds(static_cast<int64_t>(interval_ms * 1000));
    published[i + 1] = Clock::now();
    server.publish(events[i]);
    if (progress && (i + 1) % 50 == 0) std::fprintf(stderr, "\rbench display: %zu/%zu events", i + 1, count);
  }
  // Wait for the last deliveries (bounded).
  auto deadline = Clock::now() + std::chrono::seconds(10);
  auto all_in = [&] {
    for (const auto& c : clients)
      if (c->received() < count) return false;
    return true;
  };
  while (!all_in() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (progress) std::fprintf(stderr, "\n");
  guard.reset();
  client_ioc.stop();
  client_thread.join();
  server.stop();

  std::vector<double> ms;
  size_t missing = 0;
  for (const auto& c : clients)
    for (size_t seq = 1; seq <= count; ++seq) {
      if (c->arrived()[seq] == Clock::time_point{}) {
        ++missing;
        continue;
      }
      ms.push_back(std::chrono::duration<double, std::milli>(c->arrived()[seq] - published[seq]).count());
    }
  const double p50 = percentile(ms, 50), p99 = percentile(ms, 99), worst = ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end());
  std::printf("viewers %zu\nevents %zu\ninterval_ms %.1f\ndeliveries %zu\nmissing %zu\n", viewers, count, interval_ms,
              ms.size(), missing);
  std::printf("p50_ms %.3f\np99_ms %.3f\nmax_ms %.3f\n", p50, p99, worst);
  std::printf("target p99 <= 50 ms: %s\n", missing == 0 && p99 <= 50 ? "met" : "NOT met");
  if (auto report = args.value("--report")) write_report(*report, viewers, count, interval_ms, ms, p50, p99, worst);
  return missing == 0 ? 0 : 1;
}

}  // namespace sb::cli
