#include "hosts/dmlab/map_writer.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "absl/strings/str_cat.h"

namespace hosts::dmlab::map {

Vec3 Min(Vec3 a, Vec3 b) { return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)}; }
Vec3 Max(Vec3 a, Vec3 b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

Vec3 Cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vec3 Normalized(Vec3 a) {
  const double length = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
  return length == 0 ? a : a * (1 / length);
}

Vec3 Rotated(Vec3 v, Vec3 axis, double degrees) {
  // Rodrigues' formula.
  const double radians = degrees * std::numbers::pi / 180;
  const double c = std::cos(radians), s = std::sin(radians);
  const double along = axis.x * v.x + axis.y * v.y + axis.z * v.z;
  return v * c + Cross(axis, v) * s + axis * (along * (1 - c));
}

namespace {

// The six faces of the box between lo and hi, outward, each with the
// texture `face(axis)` gives (axis 0, 1, 2: the face is across x, y, z).
template <typename Face>
Brush Box(Vec3 a, Vec3 b, Face face) {
  const Vec3 lo = Min(a, b), hi = Max(a, b);
  Brush brush;
  brush.planes = {
      {{lo.x, 0, 0}, {lo.x, 1, 0}, {lo.x, 0, 1}, face(0)},
      {{hi.x, 0, 0}, {hi.x, 0, 1}, {hi.x, 1, 0}, face(0)},
      {{0, lo.y, 0}, {0, lo.y, 1}, {1, lo.y, 0}, face(1)},
      {{0, hi.y, 0}, {1, hi.y, 0}, {0, hi.y, 1}, face(1)},
      {{0, 0, lo.z}, {1, 0, lo.z}, {0, 1, lo.z}, face(2)},
      {{0, 0, hi.z}, {0, 1, hi.z}, {1, 0, hi.z}, face(2)},
  };
  return brush;
}


std::string Point(Vec3 p) {
  // absl::StrCat writes a double as printf's %g does, several times faster.
  return absl::StrCat("( ", p.x * kGameUnits, " ", p.y * kGameUnits, " ", p.z * kGameUnits, " )");
}

std::string TextureText(const Texture& t) {
  return absl::StrCat(absl::string_view(t.path).substr(0, 256), " ", t.offset[0], " ",
                      t.offset[1], " ", t.angle, " ", t.scale[0], " ", t.scale[1], " 0 0 0");
}

std::string BrushText(const Brush& brush) {
  std::string text = "{\n";
  for (const Plane& p : brush.planes) {
    absl::StrAppend(&text, "    ", Point(p.a), " ", Point(p.b), " ", Point(p.c), " ",
                    TextureText(p.texture), "\n");
  }
  absl::StrAppend(&text, "  }");
  return text;
}

std::string PatchText(const Patch& patch) {
  std::string text = absl::StrCat("{\n    patchDef2\n    {\n      ", patch.texture, "\n      ( ",
                                  patch.columns, " ", patch.rows, " 0 0 0 )\n      (\n");
  for (int column = 0; column < patch.columns; ++column) {
    absl::StrAppend(&text, "        (");
    for (int row = 0; row < patch.rows; ++row) {
      const PatchPoint& point = patch.points[column * patch.rows + row];
      const Vec3 p = point.position * kGameUnits;
      absl::StrAppend(&text, " ( ", p.x, " ", p.y, " ", p.z, " ", point.u, " ", point.v, " )");
    }
    absl::StrAppend(&text, " )\n");
  }
  absl::StrAppend(&text, "      )\n    }\n  }");
  return text;
}

}  // namespace

Brush BoxBrush(Vec3 a, Vec3 b, const Texture& texture) {
  return Box(a, b, [&](int) { return texture; });
}

Brush FittedBoxBrush(Vec3 a, Vec3 b, const std::string& texture, int width, int height) {
  const Vec3 lo = Min(a, b), size = Max(a, b) - lo;
  const double unit_x = kGameUnits / width, unit_y = kGameUnits / height;
  // The texture starts where the face's low corner falls in a whole
  // number of box sizes, so neighbouring boxes continue it.
  auto offset = [](double position, double extent, int texels) {
    if (!(extent > 0)) return 0;  // a flat box: no whole number of them
    return static_cast<int>((position / extent - std::floor(position / extent)) * texels);
  };
  auto face = [&](int axis) {
    // The face across `axis` spans the other two: (u, v).
    const double u_lo = axis == 0 ? lo.y : lo.x, u_size = axis == 0 ? size.y : size.x;
    const double v_lo = axis == 2 ? lo.y : lo.z, v_size = axis == 2 ? size.y : size.z;
    Texture t{texture};
    t.offset[0] = offset(u_lo, u_size, width);
    t.offset[1] = offset(v_lo, v_size, height);
    t.scale[0] = -unit_x * u_size;
    t.scale[1] = unit_y * v_size;
    return t;
  };
  return Box(a, b, face);
}

std::vector<Brush> HollowBox(Vec3 a, Vec3 b, double thickness, const Texture& texture) {
  const Vec3 lo = Min(a, b), hi = Max(a, b);
  const Vec3 t{thickness, thickness, thickness};
  return {
      BoxBrush({lo.x - thickness, lo.y - thickness, hi.z}, hi + t, texture),
      BoxBrush(lo - t, {hi.x + thickness, hi.y + thickness, lo.z}, texture),
      BoxBrush(lo - t, {lo.x, hi.y + thickness, hi.z + thickness}, texture),
      BoxBrush({hi.x, lo.y - thickness, lo.z - thickness}, hi + t, texture),
      BoxBrush({lo.x - thickness, hi.y, lo.z - thickness}, hi + t, texture),
      BoxBrush(lo - t, {hi.x + thickness, lo.y, hi.z + thickness}, texture),
  };
}

std::vector<Brush> SkyBox(Vec3 centre, Vec3 size, double thickness, const std::string& texture,
                          int texture_size) {
  const Vec3 lo = centre - size * 0.5, hi = centre + size * 0.5;
  auto side = [&](Vec3 a, Vec3 b, const char* suffix) {
    return FittedBoxBrush(a, b, absl::StrCat(texture, suffix), texture_size, texture_size);
  };
  return {
      side(hi, {lo.x, lo.y, hi.z + thickness}, "_up"),
      side(lo, {hi.x, hi.y, lo.z - thickness}, "_dn"),
      side(lo, {lo.x - thickness, hi.y, hi.z}, "_lf"),
      side(hi, {hi.x + thickness, lo.y, lo.z}, "_rt"),
      side(lo, {hi.x, lo.y - thickness, hi.z}, "_ft"),
      side(hi, {lo.x, hi.y + thickness, lo.z}, "_bk"),
  };
}

Patch GridPatch(Vec3 centre, Vec3 normal, Vec3 up, double width, double height, int columns,
                int rows, const std::string& texture) {
  normal = Normalized(normal);
  up = Normalized(up);
  const Vec3 right = Normalized(Cross(normal, up));
  const Vec3 start = centre - right * (width * 0.5) - up * (height * 0.5);
  Patch patch{texture, columns, rows, {}};
  for (int column = 0; column < columns; ++column) {
    for (int row = 0; row < rows; ++row) {
      const double u = static_cast<double>(column) / (columns - 1);
      const double v = static_cast<double>(row) / (rows - 1);
      patch.points.push_back({start + right * (width * u) + up * (height * v), u, 1 - v});
    }
  }
  return patch;
}

Entity::Entity(std::string classname, Vec3 origin) : classname_(std::move(classname)) {
  const Vec3 p = origin * kGameUnits;
  Set("origin", absl::StrCat(p.x, " ", p.y, " ", p.z));
}

std::string Entity::ToString() const {
  std::string text = absl::StrCat("{\n  \"classname\" \"", classname_, "\"");
  for (const auto& [key, value] : attributes_) {
    absl::StrAppend(&text, "\n  \"", key, "\" \"", value, "\"");
  }
  for (const Brush& brush : brushes_) absl::StrAppend(&text, "\n  ", BrushText(brush));
  for (const Patch& patch : patches_) absl::StrAppend(&text, "\n  ", PatchText(patch));
  absl::StrAppend(&text, "\n}");
  return text;
}

}  // namespace hosts::dmlab::map
