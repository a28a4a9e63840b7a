// The command-line side of the hall (hall/): the MQTT options every hall command
// takes, and the board publisher of `smartboard referee … --mqtt HOST[:PORT] --board N`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/args.h"
#include "arbiter/journal.h"
#include "arbiter/referee.h"
#include "hall/board_publisher.h"
#include "hall/mqtt_client.h"

namespace sb::cli {

// --mqtt HOST[:PORT], --event ID, --mqtt-user U, --mqtt-password P (or the
// SMARTBOARD_MQTT_PASSWORD environment variable), --mqtt-cafile F, --mqtt-capath D,
// --mqtt-cert F, --mqtt-key F, --mqtt-insecure.
std::vector<OptionSpec> mqtt_option_specs();
hall::MqttOptions mqtt_options(const Args& args);
std::string event_id(const Args& args);

// The referee's extra options: the above plus --board N and --mqtt-linger SECONDS.
std::vector<OptionSpec> board_publisher_specs();
// nullptr without --mqtt. `journal` may be null (then nothing survives a restart of
// the referee; a note says so). Starts connecting at once.
std::unique_ptr<hall::BoardPublisher> start_board_publisher(const Args& args, const arbiter::Referee& referee,
                                                             const arbiter::Journal* journal);
// Publishes the record and "offline", waits up to --mqtt-linger for the broker's
// confirmations; false (and a note on stderr) when some events stayed unconfirmed.
bool finish_board_publisher(const Args& args, hall::BoardPublisher& publisher);

}  // namespace sb::cli
