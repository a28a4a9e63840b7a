// ctest runs every test in a process of its own, two at a time, and on a shared machine several checkouts
// test at once: a fixed file name under /tmp would be written by two tests together. So every test process
// gets a directory of its own for ::testing::TempDir() (GoogleTest reads TEST_TMPDIR), removed at exit.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace {

class PrivateTempDir {
 public:
  PrivateTempDir() {
    std::error_code ec;
    std::string pattern = (std::filesystem::temp_directory_path(ec) / "smartboard-test-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr) return;  // GoogleTest then falls back to the shared /tmp
    // mkdtemp makes it 0700; a broker a test starts as root drops to its own user and must still read its files.
    ::chmod(pattern.c_str(), 0755);
    path_ = pattern;
    owner_ = ::getpid();
    ::setenv("TEST_TMPDIR", path_.c_str(), 1);
  }
  ~PrivateTempDir() {
    if (path_.empty() || ::getpid() != owner_ || std::getenv("SMARTBOARD_KEEP_TEST_FILES") != nullptr) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;

 private:
  std::string path_;
  pid_t owner_ = 0;  // a forked child that exits normally must not remove its parent's files
};

const PrivateTempDir private_temp_dir;

}  // namespace
