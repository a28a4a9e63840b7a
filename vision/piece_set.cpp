#include "vision/piece_set.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engines/common/errors.h"

namespace sb::vision {

using json = nlohmann::json;

cv::Vec3f colour_features(const cv::Vec3f& c) {
  const float y = (c[0] + c[1] + c[2]) / 3.f;
  const float k = 1.f / (y + 0.05f);
  return {std::log(std::max(0.f, y) + 0.03f), (c[2] - c[1]) * k, (c[1] - c[0]) * k};
}

cv::Vec3f mark_hue(const Face& face, const cv::Vec3f& white, const cv::Vec3f& body_rel, float* strength) {
  *strength = 0;
  const float blen = static_cast<float>(cv::norm(body_rel));
  if (face.patch.empty() || blen < 0.02f) return {0, 0, 0};
  const cv::Vec3f along = body_rel / blen;
  const cv::Vec3f inv(1.f / std::max(1.f, white[0]), 1.f / std::max(1.f, white[1]), 1.f / std::max(1.f, white[2]));
  const auto& radii = face_radii();
  float sum[3] = {0, 0, 0};
  float total = 0;
  const float min2 = kHueMin * kHueMin;
  // Ink absorbs: on a body this light every mark is darker than it, and whatever is lighter is the light's
  // highlight, whiter than a tinted body and so of another hue beside it (a lamp's highlight on an ivory face
  // outweighed a single red dot and made it blue). On a darker body light ink is a mark and is kept.
  const bool light_body = (body_rel[0] + body_rel[1] + body_rel[2]) / 3.f >= kHueLightBody;
  for (int v = 0; v < kFaceSize; ++v) {
    const auto* row = face.patch.ptr<cv::Vec3f>(v);
    const float* rr = radii.data() + v * kFaceSize;
    for (int u = 0; u < kFaceSize; ++u) {
      if (rr[u] > 0.85f) continue;
      const float d0 = row[u][0] * inv[0] - body_rel[0], d1 = row[u][1] * inv[1] - body_rel[1],
                  d2 = row[u][2] * inv[2] - body_rel[2];
      const float t = d0 * along[0] + d1 * along[1] + d2 * along[2];
      if (light_body && t > 0) continue;
      const float a0 = d0 - along[0] * t, a1 = d1 - along[1] * t, a2 = d2 - along[2] * t;
      const float len2 = a0 * a0 + a1 * a1 + a2 * a2;
      if (len2 <= min2) continue;
      sum[0] += a0, sum[1] += a1, sum[2] += a2;
      total += std::sqrt(len2);
    }
  }
  const float n = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
  if (n <= 1e-6f) return {0, 0, 0};
  *strength = total;
  return cv::Vec3f(sum[0], sum[1], sum[2]) / n;
}

const SideModel* PieceSet::side(char s) const {
  for (const SideModel& m : sides)
    if (m.side == s) return &m;
  return nullptr;
}

const KindModel* PieceSet::kind(const std::string& token) const {
  for (const KindModel& k : kinds)
    if (k.token == token) return &k;
  return nullptr;
}

namespace {

json vec_json(const cv::Vec3f& v) {
  auto r = [](float x) { return std::round(x * 10000.f) / 10000.f; };
  return json::array({r(v[0]), r(v[1]), r(v[2])});
}

[[noreturn]] void bad(const std::string& where, const std::string& what) { throw InputError(where + ": " + what); }

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) bad(where, std::string("missing \"") + key + "\"");
  return j.at(key);
}

double number(const json& j, const char* key, const std::string& where, double lo, double hi) {
  const json& v = field(j, key, where);
  if (!v.is_number()) bad(where, std::string("\"") + key + "\" must be a number");
  double d = v.get<double>();
  if (!(d >= lo && d <= hi)) bad(where, std::string("\"") + key + "\" out of range");
  return d;
}

cv::Vec3f colour(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_array() || v.size() != 3) bad(where, std::string("\"") + key + "\" must be three numbers");
  cv::Vec3f c;
  for (int i = 0; i < 3; ++i) {
    if (!v[static_cast<size_t>(i)].is_number()) bad(where, std::string("\"") + key + "\" must be three numbers");
    c[i] = v[static_cast<size_t>(i)].get<float>();
    if (!(c[i] >= 0 && c[i] <= 10)) bad(where, std::string("\"") + key + "\" out of range");
  }
  return c;
}

// A symbol's polar picture saved as its kRings × kAngles numbers; `what` names the field in the message.
Polar polar_of(const json& values, const std::string& where, const std::string& what) {
  if (!values.is_array() || values.size() != static_cast<size_t>(kRings * kAngles))
    bad(where, what + "must hold " + std::to_string(kRings * kAngles) + " numbers");
  std::vector<float> v;
  for (const json& x : values) {
    if (!x.is_number()) bad(where, what + "must hold numbers");
    v.push_back(x.get<float>());
  }
  return polar_from_values(std::move(v));
}

}  // namespace

json PieceSet::to_json() const {
  json j;
  j["version"] = kPieceSetVersion;
  j["kind"] = "smartboard-piece-set";
  j["game"] = game;
  j["learnt"] = learnt;
  j["radius_mm"] = radius_mm;
  j["top_height_mm"] = top_height_mm;
  j["occupancy"] = {occupancy[0], occupancy[1], occupancy[2]};
  if (occupancy_body != 0) j["occupancy_body"] = occupancy_body;
  if (occupancy_texture != 0) j["occupancy_texture"] = occupancy_texture;
  if (occupancy_texture != 0) j["texture_empty"] = texture_empty;
  if (piece_disc > 0) j["piece_disc"] = piece_disc;
  if (count_temperature > 0) j["count_temperature"] = count_temperature;
  if (count_blob_weight > 0) j["count_blob_weight"] = count_blob_weight;
  if (count_search) j["count_search"] = true;
  json s = json::array();
  for (const SideModel& m : sides) {
    s.push_back({{"side", std::string(1, m.side)},
                 {"body", vec_json(m.body)},
                 {"mark", vec_json(m.mark)},
                 {"body_sd", vec_json(m.body_sd)},
                 {"mark_sd", vec_json(m.mark_sd)},
                 {"exemplars", m.exemplars}});
    if (m.hue != cv::Vec3f(0, 0, 0)) {
      auto r = [](float x) { return std::round(x * 1e4f) / 1e4f; };
      s.back()["mark_hue"] = json::array({r(m.hue[0]), r(m.hue[1]), r(m.hue[2])});
      s.back()["mark_hue_sd"] = r(m.hue_sd);
    }
  }
  j["sides"] = s;
  json k = json::array();
  for (const KindModel& m : kinds) {
    json polar = json::array();
    for (float v : m.polar.values) polar.push_back(std::round(v * 1000.f) / 1000.f);
    json kind = {{"token", m.token}, {"dots", m.dots}, {"exemplars", m.exemplars}, {"polar", polar}};
    if (!m.exemplar_pictures.empty()) {
      json pictures = json::array();
      for (const Polar& e : m.exemplar_pictures) {
        json values = json::array();
        for (float v : e.values) values.push_back(std::round(v * 1000.f) / 1000.f);
        pictures.push_back(std::move(values));
      }
      kind["exemplar_polars"] = std::move(pictures);
    }
    if (m.marks_centred) kind["centre"] = "marks";
    k.push_back(std::move(kind));
  }
  j["kinds"] = k;
  return j;
}

PieceSet PieceSet::from_json(const json& j, const std::string& where) {
  if (!j.is_object()) bad(where, "expected a JSON object");
  if (!j.contains("version") || !j["version"].is_number_integer()) bad(where, "missing \"version\"");
  if (j["version"].get<int>() != kPieceSetVersion)
    bad(where, "piece set version " + std::to_string(j["version"].get<int>()) + " (this program reads " +
                   std::to_string(kPieceSetVersion) + ")");
  PieceSet p;
  const json& game = field(j, "game", where);
  if (!game.is_string()) bad(where, "\"game\" must be a string");
  p.game = game.get<std::string>();
  p.learnt = j.value("learnt", false);
  p.radius_mm = number(j, "radius_mm", where, 0, 100);
  p.top_height_mm = number(j, "top_height_mm", where, 0.5, 60);
  const json& occ = field(j, "occupancy", where);
  if (!occ.is_array() || occ.size() != 3) bad(where, "\"occupancy\" must be three numbers");
  for (size_t i = 0; i < 3; ++i) {
    if (!occ[i].is_number()) bad(where, "\"occupancy\" must be three numbers");
    p.occupancy[i] = occ[i].get<float>();
    if (!(std::abs(p.occupancy[i]) < 1000)) bad(where, "\"occupancy\" out of range");
  }
  if (j.contains("occupancy_body")) p.occupancy_body = static_cast<float>(number(j, "occupancy_body", where, -1000, 1000));
  if (j.contains("occupancy_texture"))
    p.occupancy_texture = static_cast<float>(number(j, "occupancy_texture", where, -1000, 1000));
  if (j.contains("texture_empty")) p.texture_empty = static_cast<float>(number(j, "texture_empty", where, 0, 1000));
  if (j.contains("piece_disc")) p.piece_disc = static_cast<float>(number(j, "piece_disc", where, 0, 1));
  if (j.contains("count_temperature")) p.count_temperature = static_cast<float>(number(j, "count_temperature", where, 0, 10));
  if (j.contains("count_blob_weight")) p.count_blob_weight = static_cast<float>(number(j, "count_blob_weight", where, 0, 1));
  if (j.contains("count_search")) {
    if (!j["count_search"].is_boolean()) bad(where, "\"count_search\" must be true or false");
    p.count_search = j["count_search"].get<bool>();
  }
  const json& sides = field(j, "sides", where);
  if (!sides.is_array()) bad(where, "\"sides\" must be an array");
  for (size_t i = 0; i < sides.size(); ++i) {
    const std::string w = where + " sides[" + std::to_string(i) + "]";
    const json& s = sides[i];
    const json& name = field(s, "side", w);
    if (!name.is_string() || name.get<std::string>().size() != 1) bad(w, "\"side\" must be one letter");
    SideModel m;
    m.side = name.get<std::string>()[0];
    m.body = colour(s, "body", w);
    m.mark = colour(s, "mark", w);
    m.body_sd = colour(s, "body_sd", w);
    m.mark_sd = colour(s, "mark_sd", w);
    m.exemplars = static_cast<int>(number(s, "exemplars", w, 0, 1e6));
    if (s.contains("mark_hue")) {
      const json& h = s["mark_hue"];
      if (!h.is_array() || h.size() != 3) bad(w, "\"mark_hue\" must be three numbers");
      for (int c = 0; c < 3; ++c) {
        if (!h[static_cast<size_t>(c)].is_number()) bad(w, "\"mark_hue\" must be three numbers");
        m.hue[c] = h[static_cast<size_t>(c)].get<float>();
        if (!(std::abs(m.hue[c]) <= 1.01f)) bad(w, "\"mark_hue\" out of range");
      }
      m.hue_sd = static_cast<float>(number(s, "mark_hue_sd", w, 0.01, 2));
    }
    p.sides.push_back(m);
  }
  const json& kinds = field(j, "kinds", where);
  if (!kinds.is_array()) bad(where, "\"kinds\" must be an array");
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string w = where + " kinds[" + std::to_string(i) + "]";
    const json& k = kinds[i];
    const json& token = field(k, "token", w);
    if (!token.is_string() || token.get<std::string>().empty()) bad(w, "\"token\" must be a string");
    KindModel m;
    m.token = token.get<std::string>();
    m.dots = static_cast<int>(number(k, "dots", w, -1, 99));
    m.exemplars = static_cast<int>(number(k, "exemplars", w, 0, 1e6));
    m.polar = polar_of(field(k, "polar", w), w, "\"polar\" ");
    if (k.contains("exemplar_polars")) {
      const json& pictures = k["exemplar_polars"];
      if (!pictures.is_array()) bad(w, "\"exemplar_polars\" must be an array");
      for (size_t e = 0; e < pictures.size(); ++e) {
        m.exemplar_pictures.push_back(polar_of(pictures[e], w + " exemplar_polars[" + std::to_string(e) + "]", ""));
      }
    }
    if (k.contains("centre")) {
      if (k["centre"] != "marks" && k["centre"] != "face") bad(w, "\"centre\" must be \"marks\" or \"face\"");
      m.marks_centred = k["centre"] == "marks";
    }
    p.kinds.push_back(std::move(m));
  }
  return p;
}

void save_piece_set(const PieceSet& set, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out || !(out << set.to_json().dump() << "\n")) throw InputError("cannot write piece set '" + path.string() + "'");
}

PieceSet load_piece_set(const std::filesystem::path& path, const std::string& game) {
  std::ifstream in(path);
  if (!in) throw InputError("piece set '" + path.string() + "' cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  json j;
  try {
    j = json::parse(ss.str());
  } catch (const json::exception& e) {
    throw InputError("piece set '" + path.string() + "' is not JSON: " + e.what());
  }
  PieceSet p = PieceSet::from_json(j, "piece set '" + path.string() + "'");
  if (!game.empty() && p.game != game)
    throw InputError("piece set '" + path.string() + "' is for " + p.game + ", not " + game);
  return p;
}

}  // namespace sb::vision
