#include "vision/eval/eval_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sb::vision {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string label(const std::string& token) { return token.empty() ? "·" : token; }

// Rows: truth; columns: read. The diagonal in green, errors in red, both shaded by log count.
void confusion_html(std::ostream& out, const ReadTally& t) {
  const std::vector<std::string> classes = t.classes();
  int64_t max_cell = 1;
  for (const auto& [pair, n] : t.confusion()) max_cell = std::max(max_cell, n);
  out << "<table class=conf><tr><th>truth ╲ read";
  for (const std::string& c : classes) out << "<th>" << esc(label(c));
  out << "<th>total<th>wrong</tr>";
  for (const std::string& r : classes) {
    int64_t total = 0, wrong = 0;
    for (const std::string& c : classes) {
      auto it = t.confusion().find({r, c});
      if (it == t.confusion().end()) continue;
      total += it->second;
      if (r != c) wrong += it->second;
    }
    if (total == 0) continue;
    out << "<tr><th>" << esc(label(r));
    for (const std::string& c : classes) {
      auto it = t.confusion().find({r, c});
      const int64_t n = it == t.confusion().end() ? 0 : it->second;
      if (n == 0) {
        out << "<td>";
        continue;
      }
      const double a = 0.15 + 0.85 * std::log1p(static_cast<double>(n)) / std::log1p(static_cast<double>(max_cell));
      const char* rgb = r == c ? "40,150,70" : "210,40,40";
      out << "<td style='background:rgba(" << rgb << "," << fmt("%.2f", a) << ")" << (r != c ? ";font-weight:bold" : "")
          << "'>" << n;
    }
    out << "<td>" << total << "<td>" << (wrong ? "<b>" + std::to_string(wrong) + "</b>" : "0") << "</tr>";
  }
  out << "</table>";
}

void figures_html(std::ostream& out, const ReadFigures& f) {
  out << "<table><tr><th>images<td>" << f.images << "<tr><th>sites<td>" << f.sites << "<tr><th>sites read wrong<td>"
      << f.site_errors << " (" << fmt("%.4f", 100.0 * f.site_error_rate()) << " %)"
      << "<tr><th>pieces missed<td>" << f.missed << "<tr><th>pieces seen on empty sites<td>" << f.phantom
      << "<tr><th>side wrong<td>" << f.side_errors << " of " << f.both_occupied
      << "<tr><th>identity wrong (dots / symbol)<td>" << f.identity_errors << " of " << f.identity_checked
      << "<tr><th>errors the reader doubted (conf &lt; 0.8)<td>" << f.errors_doubted << " of " << f.site_errors
      << "<tr><th>right readings doubted<td>" << f.right_doubted << "<tr><th>images read entirely right<td>"
      << f.images_all_right << " of " << f.images << "</table>";
}

// Horizontal bars of the site error rate per bucket, as inline SVG.
void breakdown_svg(std::ostream& out, const Breakdown& b) {
  double max_rate = 0;
  for (const auto& [name, f] : b.buckets) max_rate = std::max(max_rate, f.site_error_rate());
  if (max_rate <= 0) max_rate = 0.001;
  const int row = 20, left = 170, width = 360;
  const int h = row * static_cast<int>(b.buckets.size()) + 10;
  out << "<h3>" << esc(b.title) << "</h3><svg width=" << left + width + 230 << " height=" << h
      << " font-family=sans-serif font-size=12>";
  int y = 0;
  for (const auto& [name, f] : b.buckets) {
    const double w = width * f.site_error_rate() / max_rate;
    out << "<text x=" << left - 6 << " y=" << y + 14 << " text-anchor=end>" << esc(name) << "</text>"
        << "<rect x=" << left << " y=" << y + 3 << " width=" << fmt("%.1f", std::max(0.5, w)) << " height=" << row - 6
        << " fill='" << (f.site_error_rate() <= 0.001 ? "#4a7" : "#c44") << "'/>"
        << "<text x=" << left + static_cast<int>(w) + 6 << " y=" << y + 14 << ">"
        << fmt("%.3f", 100.0 * f.site_error_rate()) << " % (" << f.site_errors << "/" << f.sites << " sites, "
        << f.images << " images)</text>";
    y += row;
  }
  out << "</svg>";
}

void latency_svg(std::ostream& out, const GateFigures& g) {
  if (g.latency_ms.empty()) return;
  const double bin = 33.3;
  const double max_v = *std::max_element(g.latency_ms.begin(), g.latency_ms.end());
  const int bins = std::min(60, static_cast<int>(max_v / bin) + 1);
  std::vector<int> counts(static_cast<size_t>(bins), 0);
  for (double v : g.latency_ms) counts[static_cast<size_t>(std::min(bins - 1, static_cast<int>(v / bin)))]++;
  const int max_c = *std::max_element(counts.begin(), counts.end());
  const int bw = 12, hgt = 140;
  out << "<h3>Settle latency (ms after the hand leaves), " << g.latency_ms.size()
      << " leaves</h3><svg width=" << bins * bw + 80 << " height=" << hgt + 40 << " font-family=sans-serif font-size=11>";
  for (int i = 0; i < bins; ++i) {
    const int h = max_c ? counts[static_cast<size_t>(i)] * hgt / max_c : 0;
    out << "<rect x=" << 40 + i * bw << " y=" << hgt - h + 5 << " width=" << bw - 2 << " height=" << h
        << " fill='" << ((i + 1) * bin <= 300 ? "#4a7" : "#c84") << "'><title>" << static_cast<int>(i * bin) << "–"
        << static_cast<int>((i + 1) * bin) << " ms: " << counts[static_cast<size_t>(i)] << "</title></rect>";
  }
  const double target_x = 40 + 300.0 / bin * bw;
  out << "<line x1=" << fmt("%.0f", target_x) << " x2=" << fmt("%.0f", target_x) << " y1=0 y2=" << hgt + 5
      << " stroke=#c33 stroke-dasharray=4/>"
      << "<text x=" << fmt("%.0f", target_x + 3) << " y=12 fill=#c33>300 ms target</text>";
  for (int ms = 0; ms <= bins * bin; ms += 200)
    out << "<text x=" << fmt("%.0f", 40 + ms / bin * bw) << " y=" << hgt + 22 << " text-anchor=middle>" << ms
        << "</text>";
  out << "</svg><p>median " << fmt("%.0f", g.median_latency_ms()) << " ms, 90th percentile "
      << fmt("%.0f", g.percentile_latency_ms(0.9)) << " ms</p>";
}

void failures_html(std::ostream& out, const ReadTally& t, size_t limit) {
  const auto& fails = t.failures();
  if (fails.empty()) return;
  out << "<h2>Images read wrong</h2><p>" << fails.size() << " images with at least one wrong site"
      << (fails.size() > limit ? "; the first " + std::to_string(limit) + " shown" : "") << ".</p>"
      << "<table class=fail><tr><th>image<th>sites (truth → read, confidence)<th>look</tr>";
  for (size_t i = 0; i < fails.size() && i < limit; ++i) {
    out << "<tr><td>" << esc(fails[i].image) << "<td>";
    for (const SiteComparison& s : fails[i].wrong)
      out << esc(s.site) << ": " << esc(label(s.truth)) << " → " << esc(label(s.read)) << " (" << fmt("%.2f", s.conf)
          << ") ";
    out << "<td class=note>" << esc(fails[i].note) << "</tr>";
  }
  out << "</table>";
}

}  // namespace

std::string eval_report_html(const EvalReport& r) {
  std::ostringstream out;
  out << "<!doctype html><meta charset=utf-8><title>smartboard eval-vision " << esc(r.game) << "</title><style>"
         "body{font-family:sans-serif;margin:20px}td,th{padding:2px 8px;text-align:right}th{text-align:left}"
         "table.conf td,table.conf th{text-align:center;padding:2px 4px;font-size:12px;border:1px solid #ddd}"
         "table.fail td{text-align:left;font-size:12px;vertical-align:top}td.note{color:#666;max-width:480px}"
         ".met{color:#282}.missed{color:#c22;font-weight:bold}code{background:#f4f4f4;padding:2px 4px}</style>"
      << "<h1>Vision evaluation: " << esc(r.game) << "</h1><p>Command: <code>" << esc(r.command) << "</code><br>Data: "
      << esc(r.data) << "</p>";
  if (!r.targets.empty()) {
    out << "<h2>Figures</h2><table><tr><th>figure<th>value<th>target<th></tr>";
    for (const TargetLine& t : r.targets)
      out << "<tr><th>" << esc(t.name) << "<td>" << esc(t.value) << "<td>" << esc(t.target) << "<td>"
          << (t.target.empty() ? "" : t.met ? "<span class=met>met</span>" : "<span class=missed>missed</span>")
          << "</tr>";
    out << "</table>";
  }
  for (const std::string& n : r.notes) out << "<p>" << esc(n) << "</p>";
  if (r.reads) {
    out << "<h2>Settled stills</h2>";
    figures_html(out, r.reads->figures());
    out << "<h3>Confusion table (rows: truth, columns: read; · is an empty site)</h3>";
    confusion_html(out, *r.reads);
    for (const Breakdown& b : r.breakdowns) breakdown_svg(out, b);
  }
  if (r.gate) {
    const GateFigures& g = *r.gate;
    out << "<h2>Motion gate on simulated videos</h2><table><tr><th>videos<td>" << g.videos << "<tr><th>frames<td>"
        << g.frames << "<tr><th>frames with a hand over the board (or a shake)<td>" << g.unstable_frames
        << "<tr><th>... called settled<td>" << g.false_settled << " (" << g.false_settled_spells << " spells)"
        << "<tr><th>hands leaving (still ≥ 1 s after)<td>" << g.leaves << "<tr><th>... never settled<td>"
        << g.never_settled << "</table>";
    latency_svg(out, g);
    if (!r.gate_notes.empty()) {
      out << "<ul>";
      for (const std::string& n : r.gate_notes) out << "<li>" << esc(n);
      out << "</ul>";
    }
  }
  if (r.video_reads) {
    out << "<h2>Settled reads in the videos</h2>";
    figures_html(out, r.video_reads->figures());
    confusion_html(out, *r.video_reads);
  }
  if (!r.games.empty()) {
    out << "<h2>Whole pipeline: referee --source over simulated games</h2><table><tr><th>game<th>faults<th>plies"
           "<th>recorded<th>first wrong ply<th>illegal made<th>illegal announced<th>false illegal<th>unclear"
           "<th>note</tr>";
    for (const GameCheck& c : r.games)
      out << "<tr" << (c.right() ? "" : " style='background:#fdd'") << "><td>" << esc(c.name) << "<td>"
          << esc(c.faults) << "<td>" << c.true_plies << "<td>" << c.recorded_plies << "<td>"
          << (c.first_wrong_ply ? std::to_string(c.first_wrong_ply) : "—") << "<td>" << c.illegal_injected << "<td>"
          << c.illegal_announced << "<td>" << c.false_illegal << "<td>" << c.unclear
          << "<td style=text-align:left>" << esc(c.note) << "</tr>";
    out << "</table>";
  }
  if (r.reads) failures_html(out, *r.reads, 200);
  if (r.video_reads) failures_html(out, *r.video_reads, 100);
  out << "\n";
  return out.str();
}

}  // namespace sb::vision
