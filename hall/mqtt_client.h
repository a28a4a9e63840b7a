// One connection to an MQTT broker (libmosquitto, the client library of the
// Mosquitto project) with a network thread of its own. A lost or refused
// connection is retried with exponential back-off for as long as the client
// runs (a missing broker, a restart, a pulled cable); subscriptions are made
// again after every connect, and what happens is reported through callbacks.
//
// Callbacks run on the network thread: they must be quick and must not call
// stop(). publish() and subscribe() may be called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

struct mosquitto;
struct mosquitto_message;

namespace sb::hall {

// "HOST[:PORT]" (IPv6 as "[::1]:1883"); PORT defaults to 1883 (8883 with TLS).
struct BrokerAddress {
  std::string host;
  int port = 1883;
};
BrokerAddress parse_broker_address(const std::string& text, int default_port = 1883);

struct LastWill {
  std::string topic;
  std::string payload;
  int qos = 1;
  bool retain = true;
};

struct MqttOptions {
  BrokerAddress broker{"127.0.0.1", 1883};
  std::string client_id;         // empty: the library makes a random one (then clean_session must be true)
  bool clean_session = true;     // false: the broker keeps our subscriptions and queues QoS 1 messages meanwhile
  int keepalive_s = 5;           // 5 or more: a dead broker or cable is noticed after about 1.5 × this
  // Reconnect back-off: the first delay, doubling after each failed try up to the maximum.
  int reconnect_min_ms = 250, reconnect_max_ms = 8000;
  int max_inflight = 100;        // QoS 1 messages sent and not yet acknowledged
  std::optional<LastWill> will;
  // Authentication, as Mosquitto supports it.
  std::string username, password;
  // TLS: on when ca_file or ca_path is set.
  std::string ca_file, ca_path, cert_file, key_file;
  bool tls_insecure = false;     // skip the host name check (test brokers with self-made certificates)
  std::string thread_name = "mqtt";  // the network thread's name (top -H, perf), at most 15 characters
};

class MqttClient {
 public:
  struct Callbacks {
    std::function<void(bool session_present)> connected;
    std::function<void(int reason)> disconnected;  // 0: we asked for it
    std::function<void(const std::string& topic, const std::string& payload, bool retained)> message;
    std::function<void(int mid)> acknowledged;     // QoS 1: the broker's PUBACK for message `mid`
    std::function<void(const std::string& line)> log;  // connection problems, in words
  };

  // Throws InputError for options the library refuses (a missing TLS file, ...).
  MqttClient(MqttOptions options, Callbacks callbacks);
  ~MqttClient();
  MqttClient(const MqttClient&) = delete;
  MqttClient& operator=(const MqttClient&) = delete;

  // Subscriptions made again on every connect, at `qos` (0 or 1).
  void add_subscription(const std::string& pattern, int qos = 1);

  // Starts the network thread and the first connection attempt; a broker that is
  // not there yet is retried with back-off.
  void start();
  // Disconnects cleanly (no last will) and joins the network thread. Idempotent.
  void stop();

  // Drops the connection without saying goodbye, as a crash or a pulled cable
  // would: the broker then publishes the last will. Joins the network thread.
  void abandon();

  bool connected() const { return connected_.load(); }
  // The message id, or nullopt when the message was not handed to the library
  // (not connected, or the library refused it).
  std::optional<int> publish(const std::string& topic, const std::string& payload, int qos, bool retain);

  const MqttOptions& options() const { return options_; }
  uint64_t connects() const { return connects_.load(); }

 private:
  static void on_connect(mosquitto*, void* self, int rc, int flags);
  static void on_disconnect(mosquitto*, void* self, int rc);
  static void on_publish(mosquitto*, void* self, int mid);
  static void on_message(mosquitto*, void* self, const mosquitto_message* m);
  void run();
  void say(const std::string& line) const;

  MqttOptions options_;
  Callbacks callbacks_;
  mosquitto* mosq_ = nullptr;
  std::mutex subscriptions_mutex_;
  std::vector<std::pair<std::string, int>> subscriptions_;  // pattern, QoS
  std::atomic<bool> connected_{false};
  std::atomic<uint64_t> connects_{0};
  std::thread thread_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> delay_ms_{0};
  bool started_ = false;
};

}  // namespace sb::hall
