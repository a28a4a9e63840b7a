// `smartboard bench display`: event delivery to many WebSocket viewers on loopback.
#pragma once

#include "app/args.h"

namespace sb::cli {

// The options it adds to `smartboard bench`.
std::vector<OptionSpec> bench_display_specs();
int bench_display(const Args& args);

}  // namespace sb::cli
