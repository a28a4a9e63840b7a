#include "app/render_setup.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

std::vector<OptionSpec> render_option_specs() { return {{"--seed"}, {"--size"}, {"--look"}}; }

uint64_t seed_option(const Args& args, uint64_t fallback) {
  auto v = args.value("--seed");
  if (!v) return fallback;
  errno = 0;
  char* end = nullptr;
  unsigned long long s = std::strtoull(v->c_str(), &end, 10);
  if (v->empty() || (*v)[0] == '-' || *end != '\0' || errno == ERANGE)
    throw InputError(args.command() + " --seed: expected a non-negative integer, got '" + *v + "'");
  return s;
}

cv::Size size_option(const Args& args) {
  auto v = args.value("--size");
  if (!v) return {1280, 720};
  auto x = v->find('x');
  if (x == std::string::npos) throw InputError(args.command() + " --size: expected WIDTHxHEIGHT, got '" + *v + "'");
  int w = parse_int(v->substr(0, x), args.command() + " --size width", 160, 4096);
  int h = parse_int(v->substr(x + 1), args.command() + " --size height", 120, 4096);
  return {w, h};
}

std::optional<nlohmann::json> look_patch_option(const Args& args) {
  auto v = args.value("--look");
  if (!v) return std::nullopt;
  try {
    return nlohmann::json::parse(*v);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(args.command() + " --look: not valid JSON (" + e.what() + ")");
  }
}

calib::BoardModel board_model_for(const std::string& game) {
  if (!is_game_id(game)) make_rules(game);  // throws the unknown-game error listing the games
  return calib::load_board_model(game);
}

void check_token_fits(const vision::GameArt& art, const std::string& token, const std::string& where) {
  bool side_known = false;
  for (const auto& s : art.pieces.sides) side_known = side_known || (!token.empty() && token[0] == s.side);
  if (!side_known) throw InputError(where + ": '" + token + "' is not a side of " + art.game);
  char kind = token.size() > 1 ? token[1] : 0;
  switch (art.pieces.face) {
    case vision::FaceKind::Plain:
    case vision::FaceKind::Grooves:
      if (kind) throw InputError(where + ": " + art.game + " pieces show only their side, not '" + token + "'");
      break;
    case vision::FaceKind::Dots:
      if (!(kind >= '0' && kind <= '9')) throw InputError(where + ": " + art.game + " pieces need a dot count 0-9, got '" + token + "'");
      break;
    case vision::FaceKind::Symbols:
      if (!kind || !std::isupper(static_cast<unsigned char>(kind)))
        throw InputError(where + ": " + art.game + " pieces need a piece letter, got '" + token + "'");
      break;
  }
}

vision::Scene still_scene(const calib::BoardModel& model, const vision::Look& look, const vision::BoardContents& board,
                          const OffBoard& off, vision::Rng& rng) {
  vision::Scene scene;
  scene.pieces = vision::place_pieces(model, look.pieces, board, rng);
  for (int p = 0; p < 2; ++p) {
    int k = 0;
    for (const std::string& t : off.captured[p])
      scene.pieces.push_back(vision::beside_board(model, look.pieces, look.board, p, k++, {t}, rng));
    k = 0;
    for (const std::string& t : off.reserve[p])
      scene.pieces.push_back(vision::beside_board(model, look.pieces, look.board, p, k++, {t}, rng, true));
  }
  return scene;
}

void check_image_path(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext != ".png" && ext != ".jpg" && ext != ".jpeg" && ext != ".bmp" && ext != ".ppm")
    throw InputError("cannot write image '" + path + "': use .png, .jpg, .bmp or .ppm");
  check_output_path(path);
}

void check_output_path(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent))
    throw InputError("cannot write '" + path + "': no directory '" + parent.string() + "'");
}

void write_image(const std::string& path, const cv::Mat& img, int jpeg_quality) {
  check_image_path(path);
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool ok = false;
  try {
    std::vector<int> params;
    if (ext == ".jpg" || ext == ".jpeg") params = {cv::IMWRITE_JPEG_QUALITY, jpeg_quality};
    if (ext == ".png") params = {cv::IMWRITE_PNG_COMPRESSION, 1};
    ok = cv::imwrite(path, img, params);
  } catch (const cv::Exception&) {
    ok = false;
  }
  if (!ok) throw InputError("cannot write image '" + path + "'");
}

void write_json_file(const std::string& path, const nlohmann::json& j, bool pretty) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write '" + path + "'");
  out << (pretty ? j.dump(1) : j.dump()) << "\n";
  if (!out) throw InputError("error writing '" + path + "'");
}

void progress(const std::string& what, int done, int total) {
  static const bool tty = ::isatty(STDERR_FILENO);
  if (!tty) return;
  std::fprintf(stderr, "\r%s %d/%d", what.c_str(), done, total);
  if (done >= total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

}  // namespace sb::cli
