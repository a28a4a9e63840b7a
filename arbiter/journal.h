// The crash-safe journal: one JSON line per accepted event, each written and
// flushed to the disk (fdatasync) before the referee announces the event, so a
// power cut loses nothing that was announced. The first line is a header naming
// the game and its options; restarting with the same journal replays the events
// and resumes the game exactly where it was.
//
// A torn last line (the write the power cut interrupted: no newline at its end,
// or not JSON) was never announced; it is moved aside to "<journal>.torn-<offset>"
// (kept, never deleted) and the journal is cut back to its last whole line. A bad
// line anywhere else means the file was damaged by something else: the journal
// refuses to open and leaves the file untouched.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::arbiter {

class Journal {
 public:
  // Opens `path`, creating it with `header` when it is missing or empty. When it
  // already holds a game, its header must match `header` (the same game and
  // options): otherwise InputError. Throws InputError naming the file and line for
  // a damaged journal, std::runtime_error when the disk refuses.
  Journal(std::string path, const nlohmann::json& header);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  const std::string& path() const { return path_; }
  // The events the journal held when it was opened, oldest first.
  const std::vector<nlohmann::json>& recorded() const { return recorded_; }
  // What was done about a torn last line, or empty.
  const std::string& repair_note() const { return repair_note_; }

  // Appends events (one line each, in one write) and waits until they are on the disk.
  void append(const std::vector<nlohmann::json>& events);

 private:
  std::string path_;
  int fd_ = -1;
  std::vector<nlohmann::json> recorded_;
  std::string repair_note_;
};

}  // namespace sb::arbiter
