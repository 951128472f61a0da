#include "engine_plugin/model/geometry.h"

#include <array>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace engine_plugin::model {
namespace {

constexpr float kEpsilon = 1.0e-6f;
constexpr float kPi = 3.14159265358979323846f;

using Vertex = std::array<float, 8>;

// A disk of `sectors` x `tracks` (rings), apex first per sector: vertices
// eval(u, v) for u around and v out, appended to the surface.
template <typename Eval>
void AddDisk(std::size_t sectors, std::size_t tracks, const Eval& eval, Surface* s) {
  std::size_t offset = s->vertex_count();
  auto add = [&](const Vertex& v) {
    s->vertices.insert(s->vertices.end(), v.begin(), v.end());
    ++offset;
  };
  auto face = [&](std::size_t a, std::size_t b, std::size_t c) {
    s->indices.insert(s->indices.end(), {static_cast<int>(a), static_cast<int>(b),
                                         static_cast<int>(c)});
  };
  for (std::size_t i = 1; i <= tracks; ++i) add(eval(0.0f, i / static_cast<float>(tracks)));
  for (std::size_t j = 1; j <= sectors; ++j) {
    add(eval((j - 0.5f) / sectors, 0.0f));
    face(offset, offset - 1, offset - tracks - 1);
    const float u = j / static_cast<float>(sectors);
    for (std::size_t i = 1; i < tracks; ++i) {
      add(eval(u, i / static_cast<float>(tracks)));
      face(offset, offset - 1, offset - tracks - 2);
      face(offset - tracks - 1, offset, offset - tracks - 2);
    }
    add(eval(u, 1.0f));
  }
}

// A grid of `rows` x `cols` cells, column by column.
template <typename Eval>
void AddGrid(std::size_t rows, std::size_t cols, const Eval& eval, Surface* s) {
  std::size_t offset = s->vertex_count();
  auto add = [&](const Vertex& v) {
    s->vertices.insert(s->vertices.end(), v.begin(), v.end());
    ++offset;
  };
  for (std::size_t i = 0; i <= rows; ++i) add(eval(0.0f, i / static_cast<float>(rows)));
  for (std::size_t j = 1; j <= cols; ++j) {
    const float u = j / static_cast<float>(cols);
    for (std::size_t i = 0; i < rows; ++i) {
      add(eval(u, i / static_cast<float>(rows)));
      s->indices.insert(s->indices.end(),
                        {static_cast<int>(offset - rows - 2), static_cast<int>(offset - 1),
                         static_cast<int>(offset), static_cast<int>(offset - rows - 2),
                         static_cast<int>(offset), static_cast<int>(offset - rows - 1)});
    }
    add(eval(u, 1.0f));
  }
}

// A round primitive's flat cap at height `facing` * height / 2, facing up
// (1) or down (-1), its angle running the other way round below.
void AddCap(std::size_t sectors, std::size_t tracks, float width_radius, float depth_radius,
            float height, float facing, Surface* s) {
  AddDisk(sectors, tracks, [&](float u, float v) -> Vertex {
    const float phi = 2.0f * kPi * u;
    return {std::cos(phi) * v * width_radius, -facing * std::sin(phi) * v * depth_radius,
            facing * 0.5f * height, 0, 0, facing, u, v};
  }, s);
}

double DiskVertices(double sectors, double tracks) { return (tracks + 1) * (sectors + 1) - 1; }
double GridVertices(double rows, double cols) { return (rows + 1) * (cols + 1); }

std::string CheckSize(float value, const char* field) {
  if (value > kEpsilon && std::isfinite(value)) return {};
  return absl::StrCat("'", field, "' must be finite and greater than 1e-6, got ", value);
}

std::string CheckSegments(std::int64_t value, const char* field) {
  if (value >= 1) return {};
  return absl::StrCat("'", field, "' must be at least 1, got ", value);
}

std::string CheckVertices(double vertices, const char* primitive) {
  if (vertices <= kMaxVertices) return {};
  return absl::StrCat("a ", primitive, " of ", vertices, " vertices is more than the ",
                      kMaxVertices, " allowed");
}

// A cone's or a cylinder's fields (the same names): "" or the first error.
template <typename Round>
std::string CheckRound(const Round& c) {
  for (const std::string& e :
       {CheckSize(c.width_radius, "widthRadius"), CheckSize(c.depth_radius, "depthRadius"),
        CheckSize(c.height, "height"), CheckSegments(c.phi_segments, "phiSegments"),
        CheckSegments(c.radius_segments, "radiusSegments"),
        CheckSegments(c.height_segments, "heightSegments")}) {
    if (!e.empty()) return e;
  }
  return {};
}

// (u, v, w) with (u, v) made a unit vector (left as is at 0), as Eigen's
// head<2>().normalize(): where a round primitive's locators lie.
Vec3 RadialUnit(float u, float v, float w) {
  Vec3 p = {u, v, w};
  const float squared = u * u + v * v;
  if (squared > 0) {
    const float norm = std::sqrt(squared);
    p[0] /= norm;
    p[1] /= norm;
  }
  return p;
}

// The frame at `origin` whose z axis is along z_dir and whose x axis is
// y_vector x z; false when the two are (nearly) parallel.
bool ZAlignedFrame(const Vec3& origin, const Vec3& z_dir, const Vec3& y_vector, Affine* out) {
  const Vec3 z = Normalized(z_dir);
  Vec3 x = Cross(y_vector, z);
  const float norm = Norm(x);
  if (!(norm > kEpsilon)) return false;
  for (float& c : x) c /= norm;
  *out = Affine::Frame(x, Cross(z, x), z, origin);
  return true;
}

// The 27 socket and plug locators: position(u, v, w) for u, v, w in
// {-1, 0, 1} (width, depth, height), facing along the normal of the
// ellipsoid with reciprocal radii r.
template <typename Position>
bool AddDefaultLocators(const Vec3& r, const Vec3& offset, const Position& position, Model* out) {
  static const char* const kHeight[] = {"bottom_", "centre_", "top_"};
  static const char* const kDepth[] = {"back_", "centre_", "front_"};
  static const char* const kWidth[] = {"left_", "centre_", "right_"};
  for (int k = 0; k < 3; ++k) {
    const float w = k - 1.0f;
    for (int j = 0; j < 3; ++j) {
      const float v = j - 1.0f;
      for (int i = 0; i < 3; ++i) {
        const float u = i - 1.0f;
        Vec3 z_dir = {u * r[0], v * r[1], w * r[2]};
        const float norm = Norm(z_dir);
        if (norm > kEpsilon) {
          for (float& c : z_dir) c /= norm;
        } else {
          z_dir = {0, 0, 1};
        }
        // -UnitZ, UnitY or -UnitY, negated as Eigen does (zeros too).
        Vec3 y_vector = {-0.0f, -0.0f, -1.0f};
        if (u * u + v * v <= kEpsilon) {
          y_vector = w >= 0.0f ? Vec3{0.0f, 1.0f, 0.0f} : Vec3{-0.0f, -1.0f, -0.0f};
        }
        Vec3 origin = position(u, v, w);
        for (int c = 0; c < 3; ++c) origin[c] += offset[c];
        const std::string prefix = absl::StrCat(kDepth[j], kHeight[k], kWidth[i]);
        Affine socket, plug;
        if (!ZAlignedFrame(origin, {-z_dir[0], -z_dir[1], -z_dir[2]},
                           {-y_vector[0], -y_vector[1], -y_vector[2]}, &socket) ||
            !ZAlignedFrame(origin, z_dir, y_vector, &plug)) {
          return false;
        }
        out->locators.emplace_back(prefix + "s", socket);
        out->locators.emplace_back(prefix + "p", plug);
      }
    }
  }
  return true;
}

}  // namespace

std::string Build(const Cube& c, Model* out) {
  for (const std::string& e :
       {CheckSize(c.width, "width"), CheckSize(c.depth, "depth"), CheckSize(c.height, "height"),
        CheckSegments(c.width_segments, "widthSegments"),
        CheckSegments(c.depth_segments, "depthSegments"),
        CheckSegments(c.height_segments, "heightSegments")}) {
    if (!e.empty()) return e;
  }
  const double w = c.width_segments, d = c.depth_segments, h = c.height_segments;
  const double vertices = 2 * (GridVertices(d, h) + GridVertices(h, w) + GridVertices(d, w));
  if (std::string e = CheckVertices(vertices, "cube"); !e.empty()) {
    return e;
  }
  Surface s;
  const auto ds = c.depth_segments, hs = c.height_segments, ws = c.width_segments;
  AddGrid(ds, hs, [&](float u, float v) -> Vertex {
    return {0.5f * c.width, (0.5f - u) * c.depth, (v - 0.5f) * c.height, 1, 0, 0, u, v};
  }, &s);
  AddGrid(ds, hs, [&](float u, float v) -> Vertex {
    return {-0.5f * c.width, (u - 0.5f) * c.depth, (v - 0.5f) * c.height, -1, 0, 0, u, v};
  }, &s);
  AddGrid(hs, ws, [&](float u, float v) -> Vertex {
    return {(u - 0.5f) * c.width, 0.5f * c.depth, (v - 0.5f) * c.height, 0, 1, 0, u, v};
  }, &s);
  AddGrid(hs, ws, [&](float u, float v) -> Vertex {
    return {(0.5f - u) * c.width, -0.5f * c.depth, (v - 0.5f) * c.height, 0, -1, 0, u, v};
  }, &s);
  AddGrid(ds, ws, [&](float u, float v) -> Vertex {
    return {(u - 0.5f) * c.width, (0.5f - v) * c.depth, 0.5f * c.height, 0, 0, 1, u, v};
  }, &s);
  AddGrid(ds, ws, [&](float u, float v) -> Vertex {
    return {(u - 0.5f) * c.width, (v - 0.5f) * c.depth, -0.5f * c.height, 0, 0, -1, u, v};
  }, &s);
  s.name = "cube_surface";
  s.shader_name = c.shader_name;
  *out = Model{"cube", {std::move(s)}, {}};
  AddBoxLocators(c.width, c.depth, c.height, {0, 0, 0}, out);
  return {};
}

bool AddBoxLocators(float width, float depth, float height, const Vec3& centre, Model* out) {
  return AddDefaultLocators({1.0f / width, 1.0f / depth, 1.0f / height}, centre,
                            [&](float u, float v, float w) -> Vec3 {
                              return {u * 0.5f * width, v * 0.5f * depth, w * 0.5f * height};
                            },
                            out);
}

std::string Build(const Cone& c, Model* out) {
  if (std::string e = CheckRound(c); !e.empty()) return e;
  const double sectors = 4.0 * c.phi_segments;
  if (std::string e = CheckVertices(DiskVertices(sectors, c.height_segments) +
                                        DiskVertices(sectors, c.radius_segments),
                                    "cone");
      !e.empty()) {
    return e;
  }
  const std::size_t n = 4 * c.phi_segments;
  const Vec3 r = {1.0f / c.width_radius, 1.0f / c.depth_radius, 1.0f / c.height};
  // The sheet's normals lean 45 degrees up (a cone of height 1, radius 0.5,
  // scaled to its radii and height).
  const float nz = 0.70710678118f, nxy = 0.70710678118f;
  Surface s;
  AddDisk(n, c.height_segments, [&](float u, float v) -> Vertex {
    const float phi = 2.0f * kPi * u;
    const Vec3 normal = Normalized({std::cos(phi) * nxy * r[0], -std::sin(phi) * nxy * r[1], nz * r[2]});
    return {std::cos(phi) * v * c.width_radius, -std::sin(phi) * v * c.depth_radius,
            (0.5f - v) * c.height, normal[0], normal[1], normal[2], u, v};
  }, &s);
  AddCap(n, c.radius_segments, c.width_radius, c.depth_radius, c.height, -1.0f, &s);
  s.name = "cone_surface";
  s.shader_name = c.shader_name;
  *out = Model{"cone", {std::move(s)}, {}};
  AddDefaultLocators(r, {0, 0, 0}, [&](float u, float v, float w) -> Vec3 {
    Vec3 p = RadialUnit(u, v, w);
    p[0] *= 0.5f * (1.0f - w) * c.width_radius;
    p[1] *= 0.5f * (1.0f - w) * c.depth_radius;
    p[2] *= 0.5f * c.height;
    return p;
  }, out);
  return {};
}

std::string Build(const Cylinder& c, Model* out) {
  if (std::string e = CheckRound(c); !e.empty()) return e;
  const double sectors = 4.0 * c.phi_segments;
  if (std::string e = CheckVertices(GridVertices(c.height_segments, sectors) +
                                        2 * DiskVertices(sectors, c.radius_segments),
                                    "cylinder");
      !e.empty()) {
    return e;
  }
  const std::size_t n = 4 * c.phi_segments;
  const float rx = 1.0f / c.width_radius, ry = 1.0f / c.depth_radius;
  Surface s;
  AddGrid(c.height_segments, n, [&](float u, float v) -> Vertex {
    const float phi = 2.0f * kPi * u;
    const float x = std::cos(phi), y = -std::sin(phi), z = v - 0.5f;
    const Vec3 normal = Normalized({rx * x, ry * y, 0.0f});
    return {x * c.width_radius, y * c.depth_radius, z * c.height, normal[0], normal[1], normal[2],
            u, v};
  }, &s);
  AddCap(n, c.radius_segments, c.width_radius, c.depth_radius, c.height, 1.0f, &s);
  AddCap(n, c.radius_segments, c.width_radius, c.depth_radius, c.height, -1.0f, &s);
  s.name = "cylinder_surface";
  s.shader_name = c.shader_name;
  *out = Model{"cylinder", {std::move(s)}, {}};
  AddDefaultLocators({rx, ry, 2.0f / c.height}, {0, 0, 0}, [&](float u, float v, float w) -> Vec3 {
    Vec3 p = RadialUnit(u, v, w);
    p[0] *= c.width_radius;
    p[1] *= c.depth_radius;
    p[2] = static_cast<float>(p[2] * (0.5 * c.height));  // in double, as DeepMind Lab's
    return p;
  }, out);
  return {};
}

std::string Build(const Sphere& c, Model* out) {
  for (const std::string& e :
       {CheckSize(c.width_radius, "widthRadius"), CheckSize(c.depth_radius, "depthRadius"),
        CheckSize(c.height_radius, "heightRadius"), CheckSegments(c.phi_segments, "phiSegments"),
        CheckSegments(c.theta_segments, "thetaSegments")}) {
    if (!e.empty()) return e;
  }
  if (std::string e = CheckVertices(2 * DiskVertices(4.0 * c.phi_segments, c.theta_segments), "sphere");
      !e.empty()) {
    return e;
  }
  const std::size_t n = 4 * c.phi_segments;
  const Vec3 r = {1.0f / c.width_radius, 1.0f / c.depth_radius, 1.0f / c.height_radius};
  Surface s;
  // Two hemispheres, from the poles (v = 0) to the equator (v = 1).
  for (const float side : {1.0f, -1.0f}) {
    AddDisk(n, c.theta_segments, [&](float u, float v) -> Vertex {
      const float phi = 2.0f * kPi * u;
      const float theta = 0.5f * kPi * v;
      const float x = std::cos(phi) * std::sin(theta);
      const float y = side * -std::sin(phi) * std::sin(theta);
      const float z = side * std::cos(theta);
      const Vec3 normal = Normalized({x * r[0], y * r[1], z * r[2]});
      return {x * c.width_radius, y * c.depth_radius, z * c.height_radius, normal[0], normal[1],
              normal[2], u, v};
    }, &s);
  }
  s.name = "sphere_surface";
  s.shader_name = c.shader_name;
  *out = Model{"sphere", {std::move(s)}, {}};
  AddDefaultLocators(r, {0, 0, 0}, [&](float u, float v, float w) -> Vec3 {
    Vec3 p = Normalized({u, v, w});
    p[0] *= c.width_radius;
    p[1] *= c.depth_radius;
    p[2] *= c.height_radius;
    return p;
  }, out);
  return {};
}

std::string CircularLayout(float radius, std::int64_t n, Model* out) {
  if (n < 1 || n > kMaxVertices) {
    return absl::StrCat("the number of samples must be 1 to ", kMaxVertices, ", got ", n);
  }
  *out = Model{"circular_layout", {}, {}};
  for (std::int64_t i = 0; i < n; ++i) {
    const float phi = 2.0f * kPi * i / n;
    const Vec3 y_dir = {std::cos(phi), -std::sin(phi), 0.0f};
    Affine frame;
    ZAlignedFrame({y_dir[0] * radius, y_dir[1] * radius, y_dir[2] * radius}, {0, 0, 1}, y_dir,
                  &frame);
    out->locators.emplace_back(absl::StrCat("layout_", i), frame);
  }
  return {};
}

std::string LinearLayout(float length, std::int64_t n, Model* out) {
  if (n < 1 || n > kMaxVertices) {
    return absl::StrCat("the number of samples must be 1 to ", kMaxVertices, ", got ", n);
  }
  *out = Model{"linear_layout", {}, {}};
  for (std::int64_t i = 0; i < n; ++i) {
    const float x = n == 1 ? 0.0f : i / (n - 1.0f) - 0.5f;
    out->locators.emplace_back(absl::StrCat("layout_", i), Affine::Translation({x * length, 0, 0}));
  }
  return {};
}

}  // namespace engine_plugin::model
