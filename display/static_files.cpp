#include "display/static_files.h"

#include <algorithm>
#include <system_error>

namespace sb::display {

namespace fs = std::filesystem;

std::string content_type_for(const fs::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "application/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".wav") return "audio/wav";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

StaticFile resolve_static(const fs::path& root, const std::string& path) {
  StaticFile out;
  if (path.empty() || path[0] != '/' || path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
    out.status = StaticFile::Status::Forbidden;
    return out;
  }
  fs::path relative;
  size_t start = 1;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string segment = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!segment.empty()) {
      // ".", ".." and hidden files are never served.
      if (segment[0] == '.') {
        out.status = StaticFile::Status::Forbidden;
        return out;
      }
      relative /= segment;
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::error_code ec;
  const fs::path base = fs::canonical(root, ec);
  if (ec) return out;
  fs::path candidate = base / relative;
  if (fs::is_directory(candidate, ec)) candidate /= "index.html";
  const fs::path real = fs::canonical(candidate, ec);
  if (ec) return out;  // does not exist
  // A symbolic link may point anywhere: what counts is where the file really is.
  auto [root_end, _] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  if (root_end != base.end()) {
    out.status = StaticFile::Status::Forbidden;
    return out;
  }
  if (!fs::is_regular_file(real, ec)) return out;
  out.status = StaticFile::Status::Found;
  out.path = real;
  out.content_type = content_type_for(real);
  return out;
}

}  // namespace sb::display
