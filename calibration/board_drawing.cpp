#include "calibration/board_drawing.h"

#include <memory>
#include <opencv2/imgproc.hpp>

#include "calibration/markers.h"
#include "engines/common/errors.h"

namespace sb::calib {

const Rgb& BoardStyle::colour(Paint p) const {
  switch (p) {
    case Paint::Light:
      return light;
    case Paint::Dark:
      return dark;
    case Paint::Ink:
      return ink;
    case Paint::Water:
      return water;
    case Paint::Land:
      return land;
  }
  return ink;
}

namespace {

void set_colour(cairo_t* cr, const Rgb& c) {
  cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

void draw_shape(cairo_t* cr, const Shape& s, const BoardStyle& style) {
  set_colour(cr, style.colour(s.paint));
  switch (s.type) {
    case Shape::Type::Polygon:
      cairo_move_to(cr, s.points[0].x, s.points[0].y);
      for (size_t i = 1; i < s.points.size(); ++i) cairo_line_to(cr, s.points[i].x, s.points[i].y);
      cairo_close_path(cr);
      cairo_fill(cr);
      break;
    case Shape::Type::Polyline: {
      cairo_move_to(cr, s.points[0].x, s.points[0].y);
      for (size_t i = 1; i < s.points.size(); ++i) cairo_line_to(cr, s.points[i].x, s.points[i].y);
      bool closed = s.points.size() > 2 && s.points.front() == s.points.back();
      if (closed) cairo_close_path(cr);  // a clean mitred corner where a frame meets itself
      cairo_set_line_width(cr, s.width_mm);
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
      cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
      cairo_stroke(cr);
      break;
    }
    case Shape::Type::Disc:
      cairo_new_sub_path(cr);
      cairo_arc(cr, s.points[0].x, s.points[0].y, s.radius_mm, 0, 2 * CV_PI);
      cairo_fill(cr);
      break;
  }
}

void draw_markers(cairo_t* cr, const BoardModel& model, const BoardStyle& style) {
  if (model.markers.markers.empty()) return;
  auto dictionary = aruco_dictionary(model.markers.dictionary);
  set_colour(cr, style.marker);
  for (const Marker& m : model.markers.markers) {
    MarkerCells cells = marker_cells(*dictionary, m.id);
    double cell = m.size_mm / cells.cells;
    Vec2 top_left = m.corners()[0];
    // All black cells in one path, filled once: adjacent cells merge without hairline seams.
    for (int r = 0; r < cells.cells; ++r)
      for (int c = 0; c < cells.cells; ++c)
        if (cells.at(r, c)) cairo_rectangle(cr, top_left.x + c * cell, top_left.y + r * cell, cell, cell);
    cairo_fill(cr);
  }
}

}  // namespace

void draw_board(cairo_t* cr, const BoardModel& model, const BoardStyle& style) {
  cairo_save(cr);
  set_colour(cr, style.paper);
  cairo_rectangle(cr, 0, 0, model.size_mm.x, model.size_mm.y);
  cairo_fill(cr);
  for (const Shape& s : model.drawing) draw_shape(cr, s, style);
  if (style.markers) draw_markers(cr, model, style);
  cairo_restore(cr);
}

cv::Mat draw_to_image(Vec2 size_mm, double px_per_mm, const std::function<void(cairo_t*)>& draw) {
  if (!(px_per_mm > 0) || size_mm.x * px_per_mm > 20000 || size_mm.y * px_per_mm > 20000)
    throw InputError("drawing: scale " + std::to_string(px_per_mm) + " px/mm is out of range");
  int w = static_cast<int>(std::ceil(size_mm.x * px_per_mm));
  int h = static_cast<int>(std::ceil(size_mm.y * px_per_mm));
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h), cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()), cairo_destroy);
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  cairo_scale(cr.get(), px_per_mm, px_per_mm);
  draw(cr.get());
  cairo_surface_flush(surface.get());
  // RGB24 is one 32-bit word per pixel, blue in the low byte: BGRA in memory on little-endian machines.
  cv::Mat bgra(h, w, CV_8UC4, cairo_image_surface_get_data(surface.get()),
               cairo_image_surface_get_stride(surface.get()));
  cv::Mat bgr;
  cv::cvtColor(bgra, bgr, cv::COLOR_BGRA2BGR);
  return bgr;
}

cv::Mat board_image(const BoardModel& model, double px_per_mm, const BoardStyle& style) {
  return draw_to_image(model.size_mm, px_per_mm, [&](cairo_t* cr) { draw_board(cr, model, style); });
}

}  // namespace sb::calib
