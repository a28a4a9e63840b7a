// The hall's connection to the broker: subscribes to every board of the event,
// feeds each message to the HallState and publishes its resend requests (also
// those a periodic tick finds for gaps that lasted).
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include "hall/hall_state.h"
#include "hall/mqtt_client.h"

namespace sb::hall {

// The hall's client id: stable for one hall (so the broker keeps its session and
// queues its messages across a short disconnection), distinct between halls.
std::string hall_client_id(const std::string& event, const std::string& instance);

class HallClient {
 public:
  // `state` must outlive the client. `mqtt.client_id` should be set (hall_client_id);
  // the session is kept (clean_session false) when it is.
  HallClient(MqttOptions mqtt, HallState& state);
  ~HallClient();

  void start();
  void stop();
  bool connected() const { return client_->connected(); }
  uint64_t connects() const { return client_->connects(); }

 private:
  void send(const std::vector<Outgoing>& out);

  HallState& state_;
  std::unique_ptr<MqttClient> client_;
  std::thread ticker_;
  std::atomic<bool> running_{false};
};

}  // namespace sb::hall
