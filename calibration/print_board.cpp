#include "calibration/print_board.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "calibration/board_drawing.h"
#include "engines/common/errors.h"

namespace sb::calib {

namespace {

constexpr double kMargin = 7;      // printers leave 4–6 mm unprinted
constexpr double kTitleBand = 12;  // title text above the sheet
constexpr double kScaleBand = 16;  // scale bar and its label below the sheet
constexpr double kScaleBarMm = 100;

Vec2 paper_size(Paper p) {
  return p == Paper::A4 ? Vec2{210, 297} : Vec2{297, 420};
}

// What goes on a page: a sheet of `size_mm` painted by `draw` (in mm, origin at its top-left), its title and
// a note under the scale bar.
struct Printable {
  std::string name;  // "brazilian", "ChArUco sheet": for messages
  std::string title;
  std::string note;
  Vec2 size_mm;
  std::function<void(cairo_t*)> draw;
};

bool fits(Vec2 size_mm, Paper p) {
  Vec2 page = paper_size(p);
  return size_mm.x + 2 * kMargin <= page.x + 1e-9 &&
         size_mm.y + 2 * kMargin + kTitleBand + kScaleBand <= page.y + 1e-9 && kScaleBarMm + 2 * kMargin <= page.x;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

void check(cairo_status_t status, const std::filesystem::path& out) {
  if (status != CAIRO_STATUS_SUCCESS)
    throw InputError("cannot write '" + out.string() + "': " + cairo_status_to_string(status));
}

std::string format_mm(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::round(v * 10) / 10);
  return buf;
}

// The page in millimetres on `cr`: sheet, title, notes and the scale bar.
void draw_page(cairo_t* cr, const Printable& item, const PageLayout& layout) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, layout.page_mm.x, layout.page_mm.y);
  cairo_fill(cr);

  cairo_save(cr);
  cairo_translate(cr, layout.sheet_origin_mm.x, layout.sheet_origin_mm.y);
  item.draw(cr);
  cairo_restore(cr);

  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, 6);
  cairo_move_to(cr, layout.title_mm.x, layout.title_mm.y);
  cairo_show_text(cr, item.title.c_str());

  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 3);
  Vec2 bar = layout.scale_bar_mm;
  cairo_move_to(cr, bar.x + kScaleBarMm + 6, bar.y + 3);
  cairo_show_text(cr, "<- this bar must measure 100 mm");
  cairo_move_to(cr, bar.x, bar.y + 10);
  cairo_show_text(cr, item.note.c_str());

  // The bar: a 100 mm line with a tick every 10 mm, long ticks at 0, 50 and 100.
  cairo_set_line_width(cr, 0.4);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_move_to(cr, bar.x, bar.y + 4);
  cairo_line_to(cr, bar.x + kScaleBarMm, bar.y + 4);
  for (int mm = 0; mm <= kScaleBarMm; mm += 10) {
    double len = (mm % 50 == 0) ? 4 : 2;
    cairo_move_to(cr, bar.x + mm, bar.y + 4);
    cairo_line_to(cr, bar.x + mm, bar.y + 4 - len);
  }
  cairo_stroke(cr);
}

}  // namespace

std::optional<Paper> paper_from_name(std::string_view name) {
  std::string n = lower(name);
  if (n == "a4") return Paper::A4;
  if (n == "a3") return Paper::A3;
  return std::nullopt;
}

const char* paper_name(Paper p) {
  return p == Paper::A4 ? "A4" : "A3";
}

namespace {

PageLayout layout_for(const Printable& item, std::optional<Paper> paper) {
  Paper p;
  if (paper) {
    p = *paper;
    if (!fits(item.size_mm, p)) {
      Vec2 page = paper_size(p);
      throw InputError(item.name + " (" + format_mm(item.size_mm.x) + " x " + format_mm(item.size_mm.y) +
                       " mm) does not fit on " + paper_name(p) + " (" + format_mm(page.x) + " x " + format_mm(page.y) +
                       " mm) with its title and scale bar" + (p == Paper::A4 ? "; use --paper A3" : ""));
    }
  } else if (fits(item.size_mm, Paper::A4)) {
    p = Paper::A4;
  } else if (fits(item.size_mm, Paper::A3)) {
    p = Paper::A3;
  } else {
    throw InputError(item.name + " is larger than A3");
  }
  PageLayout l;
  l.paper = p;
  l.page_mm = paper_size(p);
  double used = kTitleBand + item.size_mm.y + kScaleBand;
  double top = std::max(kMargin, (l.page_mm.y - used) / 2);
  l.sheet_origin_mm = {(l.page_mm.x - item.size_mm.x) / 2, top + kTitleBand};
  l.title_mm = {l.sheet_origin_mm.x, top + 7};
  l.scale_bar_mm = {l.sheet_origin_mm.x, l.sheet_origin_mm.y + item.size_mm.y + 3};
  return l;
}

Printable printable(const BoardModel& model) {
  Printable item;
  item.name = "board '" + model.game + "'";
  item.title = model.title;
  item.note = "smartboard " + model.game + " board, " + format_mm(model.size_mm.x) + " x " +
              format_mm(model.size_mm.y) + " mm, print at 100% (no fit to page); " +
              (model.kind == BoardKind::Squares ? "squares " : "lines ") + format_mm(model.pitch_mm) + " mm apart";
  item.size_mm = model.size_mm;
  item.draw = [&model](cairo_t* cr) { draw_board(cr, model); };
  return item;
}

// Writes the page; for a PNG also returns its scale and size.
PrintedBoard print_page(const Printable& item, const std::filesystem::path& out, const PrintOptions& options) {
  std::string ext = lower(out.extension().string());
  if (ext != ".png" && ext != ".pdf" && ext != ".svg")
    throw InputError("output file '" + out.string() + "': the file name must end in .png, .pdf or .svg");
  if (options.dpi < 50 || options.dpi > 600)
    throw InputError("--dpi " + std::to_string(options.dpi) + " is out of range (50..600)");
  PrintedBoard printed;
  printed.layout = layout_for(item, options.paper);
  const PageLayout& l = printed.layout;
  constexpr double kPointsPerMm = 72.0 / 25.4;

  if (ext == ".png") {
    double px_per_mm = options.dpi / 25.4;
    int w = static_cast<int>(std::lround(l.page_mm.x * px_per_mm));
    int h = static_cast<int>(std::lround(l.page_mm.y * px_per_mm));
    Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h), cairo_surface_destroy);
    check(cairo_surface_status(surface.get()), out);
    Context cr(cairo_create(surface.get()), cairo_destroy);
    cairo_scale(cr.get(), px_per_mm, px_per_mm);
    draw_page(cr.get(), item, l);
    check(cairo_status(cr.get()), out);
    check(cairo_surface_write_to_png(surface.get(), out.c_str()), out);
    printed.image_size = {w, h};
    printed.px_per_mm = px_per_mm;
    return printed;
  }

  Surface surface(nullptr, cairo_surface_destroy);
  double scale = kPointsPerMm;
  if (ext == ".pdf") {
    surface.reset(cairo_pdf_surface_create(out.c_str(), l.page_mm.x * kPointsPerMm, l.page_mm.y * kPointsPerMm));
  } else {
    // Millimetres as the SVG's user unit: width="297mm", one user unit per millimetre.
    surface.reset(cairo_svg_surface_create(out.c_str(), l.page_mm.x, l.page_mm.y));
    cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_MM);
    scale = 1;
  }
  check(cairo_surface_status(surface.get()), out);
  {
    Context cr(cairo_create(surface.get()), cairo_destroy);
    cairo_scale(cr.get(), scale, scale);
    draw_page(cr.get(), item, l);
    check(cairo_status(cr.get()), out);
  }
  cairo_surface_finish(surface.get());
  check(cairo_surface_status(surface.get()), out);
  return printed;
}

}  // namespace

PageLayout layout_page(const BoardModel& model, std::optional<Paper> paper) {
  return layout_for(printable(model), paper);
}

PrintedBoard print_board(const BoardModel& model, const std::filesystem::path& out, const PrintOptions& options) {
  PrintedBoard printed = print_page(printable(model), out, options);
  if (printed.px_per_mm > 0) {
    const PageLayout& l = printed.layout;
    for (const Site& s : model.sites)
      printed.site_pixels[s.name] = {(l.sheet_origin_mm.x + s.centre.x) * printed.px_per_mm - 0.5,
                                     (l.sheet_origin_mm.y + s.centre.y) * printed.px_per_mm - 0.5};
  }
  return printed;
}

PrintedBoard print_lens_sheet(const LensTarget& target, const std::filesystem::path& out, const PrintOptions& options) {
  Printable item;
  item.name = "the ChArUco sheet";
  item.title = "smartboard lens calibration sheet";
  char note[200];
  std::snprintf(note, sizeof note, "ChArUco %dx%d squares of %g mm, markers %g mm, %s; print at 100%%, keep it flat",
                target.squares_x, target.squares_y, target.square_mm, target.marker_mm, target.dictionary.c_str());
  item.note = note;
  item.size_mm = target.size_mm();
  item.draw = [&target](cairo_t* cr) { target.draw(cr); };
  PrintedBoard printed = print_page(item, out, options);
  if (printed.px_per_mm > 0) {
    const PageLayout& l = printed.layout;
    for (const Site& s : target.corners())
      printed.site_pixels[s.name] = {(l.sheet_origin_mm.x + s.centre.x) * printed.px_per_mm - 0.5,
                                     (l.sheet_origin_mm.y + s.centre.y) * printed.px_per_mm - 0.5};
  }
  return printed;
}

}  // namespace sb::calib
