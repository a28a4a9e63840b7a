// The page's files: a request path mapped to a file under the www root, and never
// to anything outside it (no "..", no hidden files, no symbolic link leading out).
#pragma once

#include <filesystem>
#include <string>

namespace sb::display {

struct StaticFile {
  enum class Status { Found, NotFound, Forbidden } status = Status::NotFound;
  std::filesystem::path path;  // when Found
  std::string content_type;
};

// `path` is the decoded request path ("/", "/screen.js"); "/" and directories
// mean their index.html.
StaticFile resolve_static(const std::filesystem::path& root, const std::string& path);

// "text/html; charset=utf-8", "application/javascript", ... by extension.
std::string content_type_for(const std::filesystem::path& file);

}  // namespace sb::display
