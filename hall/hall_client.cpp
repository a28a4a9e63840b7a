#include "hall/hall_client.h"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

#include "hall/topics.h"

namespace sb::hall {

std::string hall_client_id(const std::string& event, const std::string& instance) {
  char host[64] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  std::string id = "sbhall-" + event + "-" + host + "-" + instance;
  if (id.size() > 120) id.resize(120);
  return id;
}

HallClient::HallClient(MqttOptions mqtt, HallState& state) : state_(state) {
  mqtt.clean_session = mqtt.client_id.empty();
  mqtt.thread_name = "hall-mqtt";
  MqttClient::Callbacks callbacks;
  callbacks.message = [this](const std::string& topic, const std::string& payload, bool) {
    send(state_.on_message(topic, payload, monotonic_us()));
  };
  callbacks.log = [](const std::string& line) { std::cerr << "hall: " << line << "\n"; };
  client_ = std::make_unique<MqttClient>(std::move(mqtt), std::move(callbacks));
  const std::string& event = state_.options().event;
  // A board's state is replaced by the next one and kept retained by the broker:
  // QoS 0 is enough, and leaves the broker's window of unacknowledged QoS 1
  // messages to the hall (max_inflight_messages) to the events.
  client_->add_subscription(all_boards_topic(event, TopicKind::State), 0);
  for (TopicKind k : {TopicKind::Status, TopicKind::Record, TopicKind::Events})
    client_->add_subscription(all_boards_topic(event, k), 1);
}

HallClient::~HallClient() { stop(); }

void HallClient::start() {
  if (running_.exchange(true)) return;
  client_->start();
  ticker_ = std::thread([this] {
    while (running_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (client_->connected()) send(state_.tick(monotonic_us()));
    }
  });
  ::pthread_setname_np(ticker_.native_handle(), "hall-resends");
}

void HallClient::stop() {
  if (!running_.exchange(false)) return;
  if (ticker_.joinable()) ticker_.join();
  client_->stop();
}

void HallClient::send(const std::vector<Outgoing>& out) {
  for (const Outgoing& o : out) client_->publish(o.topic, o.payload, 1, false);
}

}  // namespace sb::hall
