#include "hall/mqtt_client.h"

#include <mosquitto.h>
#include <pthread.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>

#include "engines/common/errors.h"

namespace sb::hall {

namespace {

void init_library_once() {
  static const int rc = mosquitto_lib_init();
  (void)rc;
}

std::string mosq_error(int rc) {
  if (rc == MOSQ_ERR_ERRNO) return std::strerror(errno);
  return mosquitto_strerror(rc);
}

}  // namespace

BrokerAddress parse_broker_address(const std::string& text, int default_port) {
  BrokerAddress a;
  a.port = default_port;
  std::string port_text;
  if (text.empty()) throw InputError("--mqtt: expected HOST[:PORT], got nothing");
  if (text[0] == '[') {
    auto close = text.find(']');
    if (close == std::string::npos) throw InputError("--mqtt '" + text + "': an IPv6 address needs its closing ']'");
    a.host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') throw InputError("--mqtt '" + text + "': expected ':' after ']'");
      port_text = text.substr(close + 2);
      if (port_text.empty()) throw InputError("--mqtt '" + text + "': the port is empty");
    }
  } else {
    auto colon = text.rfind(':');
    if (colon != std::string::npos && text.find(':') != colon)
      throw InputError("--mqtt '" + text + "': write an IPv6 address in brackets, [::1]:1883");
    a.host = text.substr(0, colon);
    if (colon != std::string::npos) {
      port_text = text.substr(colon + 1);
      if (port_text.empty()) throw InputError("--mqtt '" + text + "': the port is empty");
    }
  }
  if (a.host.empty()) throw InputError("--mqtt '" + text + "': the host is empty");
  for (char c : a.host)
    if (static_cast<unsigned char>(c) <= ' ' || c == '/' || c == '#' || c == '+')
      throw InputError("--mqtt '" + text + "': '" + a.host + "' is not a host name");
  if (!port_text.empty()) {
    if (port_text.size() > 5 || port_text.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("--mqtt '" + text + "': port '" + port_text + "' is not a number");
    a.port = std::stoi(port_text);
    if (a.port < 1 || a.port > 65535) throw InputError("--mqtt '" + text + "': port " + port_text + " is out of 1..65535");
  }
  return a;
}

MqttClient::MqttClient(MqttOptions options, Callbacks callbacks)
    : options_(std::move(options)), callbacks_(std::move(callbacks)) {
  init_library_once();
  if (options_.client_id.empty() && !options_.clean_session)
    throw InputError("mqtt: a persistent session needs a client id");
  if (options_.keepalive_s < 5) throw InputError("mqtt: keep-alive below 5 s (the library's minimum)");
  if (options_.client_id.size() > 200) throw InputError("mqtt: client id longer than 200 characters");
  mosq_ = mosquitto_new(options_.client_id.empty() ? nullptr : options_.client_id.c_str(), options_.clean_session, this);
  if (!mosq_) throw std::runtime_error(std::string("mqtt: cannot create a client: ") + std::strerror(errno));
  auto fail = [&](const std::string& what, int rc) {
    mosquitto_destroy(mosq_);
    mosq_ = nullptr;
    throw InputError("mqtt: " + what + ": " + mosq_error(rc));
  };
  mosquitto_threaded_set(mosq_, true);
  mosquitto_int_option(mosq_, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
  mosquitto_int_option(mosq_, MOSQ_OPT_TCP_NODELAY, 1);
  mosquitto_int_option(mosq_, MOSQ_OPT_SEND_MAXIMUM, std::max(1, options_.max_inflight));
  mosquitto_connect_with_flags_callback_set(mosq_, &MqttClient::on_connect);
  mosquitto_disconnect_callback_set(mosq_, &MqttClient::on_disconnect);
  mosquitto_publish_callback_set(mosq_, &MqttClient::on_publish);
  mosquitto_message_callback_set(mosq_, &MqttClient::on_message);
  if (!options_.username.empty() || !options_.password.empty()) {
    int rc = mosquitto_username_pw_set(mosq_, options_.username.empty() ? nullptr : options_.username.c_str(),
                                       options_.password.empty() ? nullptr : options_.password.c_str());
    if (rc != MOSQ_ERR_SUCCESS) fail("username/password", rc);
  }
  if (!options_.ca_file.empty() || !options_.ca_path.empty()) {
    if (options_.cert_file.empty() != options_.key_file.empty())
      throw InputError("mqtt: a TLS client certificate needs both --mqtt-cert and --mqtt-key");
    auto c = [](const std::string& s) { return s.empty() ? nullptr : s.c_str(); };
    int rc = mosquitto_tls_set(mosq_, c(options_.ca_file), c(options_.ca_path), c(options_.cert_file),
                               c(options_.key_file), nullptr);
    if (rc != MOSQ_ERR_SUCCESS) fail("TLS files (" + options_.ca_file + options_.ca_path + ")", rc);
    if (options_.tls_insecure) mosquitto_tls_insecure_set(mosq_, true);
  } else if (!options_.cert_file.empty() || !options_.key_file.empty()) {
    throw InputError("mqtt: a client certificate needs TLS: give --mqtt-cafile or --mqtt-capath too");
  }
  if (options_.will) {
    const LastWill& w = *options_.will;
    int rc = mosquitto_will_set(mosq_, w.topic.c_str(), static_cast<int>(w.payload.size()), w.payload.data(), w.qos,
                                w.retain);
    if (rc != MOSQ_ERR_SUCCESS) fail("last will on '" + w.topic + "'", rc);
  }
}

MqttClient::~MqttClient() {
  stop();
  if (mosq_) mosquitto_destroy(mosq_);
}

void MqttClient::add_subscription(const std::string& pattern, int qos) {
  if (mosquitto_sub_topic_check(pattern.c_str()) != MOSQ_ERR_SUCCESS)
    throw InputError("mqtt: '" + pattern + "' is not a subscription pattern");
  if (qos != 0 && qos != 1) throw InputError("mqtt: subscription QoS " + std::to_string(qos) + " (0 or 1)");
  std::lock_guard<std::mutex> lock(subscriptions_mutex_);
  subscriptions_.emplace_back(pattern, qos);
  if (connected_) mosquitto_subscribe(mosq_, nullptr, pattern.c_str(), qos);
}

void MqttClient::start() {
  if (started_) return;
  started_ = true;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
  ::pthread_setname_np(thread_.native_handle(), options_.thread_name.substr(0, 15).c_str());
}

void MqttClient::run() {
  const BrokerAddress& b = options_.broker;
  int rc = mosquitto_connect(mosq_, b.host.c_str(), b.port, options_.keepalive_s);
  if (rc == MOSQ_ERR_INVAL) {
    say("cannot connect to " + b.host + ":" + std::to_string(b.port) + ": " + mosq_error(rc));
    return;
  }
  delay_ms_ = options_.reconnect_min_ms;
  std::string last_problem;
  while (!stopping_) {
    if (rc == MOSQ_ERR_SUCCESS) rc = mosquitto_loop(mosq_, 100, 1);
    if (stopping_) break;
    if (rc == MOSQ_ERR_SUCCESS) continue;
    connected_ = false;
    const std::string problem = mosq_error(rc);
    if (problem != last_problem) {
      say("broker " + b.host + ":" + std::to_string(b.port) + ": " + problem + "; retrying");
      last_problem = problem;
    }
    // Back off, unless stop() wakes us.
    {
      std::unique_lock<std::mutex> lock(wake_mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(delay_ms_.load()), [this] { return stopping_.load(); });
    }
    if (stopping_) break;
    delay_ms_ = std::min(delay_ms_.load() * 2, options_.reconnect_max_ms);
    rc = mosquitto_reconnect(mosq_);
    if (rc == MOSQ_ERR_SUCCESS) last_problem.clear();
  }
}

void MqttClient::stop() {
  if (!started_) return;
  started_ = false;
  stopping_ = true;
  mosquitto_disconnect(mosq_);
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  connected_ = false;
}

void MqttClient::abandon() {
  if (!started_) return;
  started_ = false;
  stopping_ = true;
  const int fd = mosquitto_socket(mosq_);
  if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  connected_ = false;
}

std::optional<int> MqttClient::publish(const std::string& topic, const std::string& payload, int qos, bool retain) {
  if (!connected_) return std::nullopt;
  int mid = 0;
  int rc = mosquitto_publish(mosq_, &mid, topic.c_str(), static_cast<int>(payload.size()), payload.data(), qos, retain);
  if (rc != MOSQ_ERR_SUCCESS) return std::nullopt;
  return mid;
}

void MqttClient::say(const std::string& line) const {
  if (callbacks_.log) callbacks_.log(line);
}

void MqttClient::on_connect(mosquitto*, void* obj, int rc, int flags) {
  auto* self = static_cast<MqttClient*>(obj);
  if (rc != 0) {
    self->say("broker refused the connection: " + std::string(mosquitto_connack_string(rc)));
    return;  // the library drops the connection; the loop retries
  }
  self->delay_ms_ = self->options_.reconnect_min_ms;
  {
    std::lock_guard<std::mutex> lock(self->subscriptions_mutex_);
    for (const auto& [pattern, qos] : self->subscriptions_) mosquitto_subscribe(self->mosq_, nullptr, pattern.c_str(), qos);
  }
  self->connected_ = true;
  ++self->connects_;
  if (self->callbacks_.connected) self->callbacks_.connected((flags & 1) != 0);
}

void MqttClient::on_disconnect(mosquitto*, void* obj, int rc) {
  auto* self = static_cast<MqttClient*>(obj);
  self->connected_ = false;
  if (self->callbacks_.disconnected) self->callbacks_.disconnected(rc);
}

void MqttClient::on_publish(mosquitto*, void* obj, int mid) {
  auto* self = static_cast<MqttClient*>(obj);
  if (self->callbacks_.acknowledged) self->callbacks_.acknowledged(mid);
}

void MqttClient::on_message(mosquitto*, void* obj, const mosquitto_message* m) {
  auto* self = static_cast<MqttClient*>(obj);
  if (!self->callbacks_.message || !m->topic) return;
  std::string payload(static_cast<const char*>(m->payload), static_cast<size_t>(std::max(0, m->payloadlen)));
  self->callbacks_.message(m->topic, payload, m->retain);
}

}  // namespace sb::hall
