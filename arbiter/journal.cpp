#include "arbiter/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "engines/common/errors.h"

namespace sb::arbiter {

namespace {

[[noreturn]] void disk_error(const std::string& what, const std::string& path) {
  throw std::runtime_error("journal '" + path + "': " + what + ": " + std::strerror(errno));
}

void write_all(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      disk_error("cannot write", path);
    }
    done += static_cast<size_t>(n);
  }
}

std::string read_all(int fd, const std::string& path) {
  std::string data;
  char buf[65536];
  off_t offset = 0;
  for (;;) {
    ssize_t n = ::pread(fd, buf, sizeof buf, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      disk_error("cannot read", path);
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
    offset += n;
  }
  return data;
}

// Makes a new file's name durable too, not only its contents.
void sync_directory_of(const std::string& path) {
  std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
  if (dir.empty()) dir = "/";
  int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d < 0) return;  // best effort: the file's own data is synced regardless
  ::fsync(d);
  ::close(d);
}

std::optional<nlohmann::json> parse_object(const std::string& line) {
  try {
    nlohmann::json j = nlohmann::json::parse(line);
    if (j.is_object()) return j;
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;
}

std::string set_aside(const std::string& path, const std::string& bytes, size_t offset) {
  std::string aside = path + ".torn-" + std::to_string(offset);
  for (int k = 1;; ++k) {
    int fd = ::open(aside.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      write_all(fd, bytes, aside);
      if (::fsync(fd) != 0) disk_error("cannot sync", aside);
      ::close(fd);
      sync_directory_of(aside);
      return aside;
    }
    if (errno != EEXIST) disk_error("cannot create", aside);
    aside = path + ".torn-" + std::to_string(offset) + "." + std::to_string(k);
  }
}

}  // namespace

Journal::Journal(std::string path, const nlohmann::json& header) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    if (errno == ENOENT || errno == EACCES || errno == EISDIR || errno == ENOTDIR)
      throw InputError("journal '" + path_ + "': cannot open: " + std::strerror(errno));
    disk_error("cannot open", path_);
  }
  try {
    const std::string data = read_all(fd_, path_);
    // Whole lines and where each starts.
    std::vector<std::pair<size_t, std::string>> lines;
    size_t start = 0;
    while (start < data.size()) {
      size_t nl = data.find('\n', start);
      if (nl == std::string::npos) break;
      lines.push_back({start, data.substr(start, nl - start)});
      start = nl + 1;
    }
    const size_t whole_end = start;  // bytes after this have no newline: torn
    std::vector<std::optional<nlohmann::json>> parsed;
    for (auto& [offset, text] : lines) parsed.push_back(parse_object(text));
    // Trailing bad lines are the torn tail; a bad line before a good one is damage.
    size_t good = parsed.size();
    while (good > 0 && !parsed[good - 1]) --good;
    for (size_t i = 0; i < good; ++i)
      if (!parsed[i])
        throw InputError("journal '" + path_ + "' line " + std::to_string(i + 1) +
                         ": damaged (not a JSON object) before later good lines; refusing to resume (file left as is)");
    size_t keep = good < lines.size() ? lines[good].first : whole_end;
    if (keep < data.size()) {
      std::string aside = set_aside(path_, data.substr(keep), keep);
      if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0) disk_error("cannot cut back", path_);
      if (::fsync(fd_) != 0) disk_error("cannot sync", path_);
      repair_note_ = "journal '" + path_ + "': a torn last write of " + std::to_string(data.size() - keep) +
                     " bytes was set aside in '" + aside + "'";
    }
    if (good == 0) {
      write_all(fd_, header.dump() + "\n", path_);
      if (::fsync(fd_) != 0) disk_error("cannot sync", path_);
      sync_directory_of(path_);
      return;
    }
    const nlohmann::json& found = *parsed[0];
    if (!found.contains("journal"))
      throw InputError("journal '" + path_ + "' line 1: not a referee journal header");
    for (const char* key : {"journal", "game", "rules", "referee"}) {
      if (found.value(key, nlohmann::json()) != header.value(key, nlohmann::json()))
        throw InputError("journal '" + path_ + "' holds a game with another " + std::string(key) + " (" +
                         found.value(key, nlohmann::json()).dump() + "); use a new journal file for this game");
    }
    for (size_t i = 1; i < good; ++i) recorded_.push_back(std::move(*parsed[i]));
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const std::vector<nlohmann::json>& events) {
  std::string text;
  for (const nlohmann::json& e : events) text += e.dump() + "\n";
  if (text.empty()) return;
  write_all(fd_, text, path_);
  if (::fdatasync(fd_) != 0) disk_error("cannot sync", path_);
}

}  // namespace sb::arbiter
