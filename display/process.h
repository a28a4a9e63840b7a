// Runs a helper program (espeak-ng) without a shell: arguments are passed as they
// are, so no text can be taken for a command.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace sb::display {

struct ProcessResult {
  int status = -1;         // exit status; -1 when it could not start or was killed
  std::string out;         // standard output, up to the limit
  bool timed_out = false;
  bool truncated = false;  // more output than the limit
};

// Runs argv[0] (searched on PATH) with `argv`, standard input from /dev/null and
// standard error discarded; collects at most `max_output` bytes of standard
// output and kills it after `timeout`. Never throws for a program that fails.
ProcessResult run_process(const std::vector<std::string>& argv, size_t max_output, std::chrono::milliseconds timeout);

// Whether `program` is an executable file on PATH.
bool on_path(const std::string& program);

}  // namespace sb::display
