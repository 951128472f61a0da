// The primitives of DeepMind Lab's model generation (its
// deepmind/model_generation/geometry_*.cc), vertex for vertex: cubes,
// cones, cylinders and spheres (or cuboids, elliptic cones and cylinders,
// ellipsoids), centred on the origin, each one surface with its default
// locators, and the layouts (frames on a circle or a line).
//
// Default locators: 27 positions evenly spread over the primitive's
// bounding box, each a socket (`_s`, facing in) and a plug (`_p`, facing
// out), named [back|centre|front]_[bottom|centre|top]_[left|centre|right]_
// [s|p].
//
// Each Build* returns an error (naming the field) for sizes not above 1e-6,
// segment counts below 1, and more than kMaxVertices vertices.
#ifndef ENGINE_PLUGIN_MODEL_GEOMETRY_H_
#define ENGINE_PLUGIN_MODEL_GEOMETRY_H_

#include <cstdint>
#include <string>

#include "engine_plugin/model/model.h"

namespace engine_plugin::model {

// A primitive's most vertices: far past what the engine draws (an MD3
// surface holds at most 4096), and a bound on the memory one call takes.
inline constexpr double kMaxVertices = 1 << 20;

struct Cube {
  float width = 1, depth = 1, height = 1;
  std::int64_t width_segments = 1, depth_segments = 1, height_segments = 1;
  std::string shader_name;
};

struct Cone {
  float width_radius = 0.5f, depth_radius = 0.5f, height = 1;
  std::int64_t phi_segments = 4, radius_segments = 1, height_segments = 1;
  std::string shader_name;
};

struct Cylinder {
  float width_radius = 0.5f, depth_radius = 0.5f, height = 1;
  std::int64_t phi_segments = 4, radius_segments = 1, height_segments = 1;
  std::string shader_name;
};

struct Sphere {
  float width_radius = 0.5f, depth_radius = 0.5f, height_radius = 0.5f;
  std::int64_t phi_segments = 4, theta_segments = 4;
  std::string shader_name;
};

// Each: "" and the model in *out (named "cube", ...), or why not.
std::string Build(const Cube& cube, Model* out);
std::string Build(const Cone& cone, Model* out);
std::string Build(const Cylinder& cylinder, Model* out);
std::string Build(const Sphere& sphere, Model* out);

// The default locators of a cuboid of these extents centred on `centre`
// (a hierarchy's, over its bounding box); false for a degenerate box.
bool AddBoxLocators(float width, float depth, float height, const Vec3& centre, Model* out);

// Models of no surface whose locators layout_0 .. layout_{n-1} are frames
// on a circle of `radius` about z, y pointing out; or along x over
// `length`, centred (one: the origin). Errors for n outside 1 to
// kMaxVertices.
std::string CircularLayout(float radius, std::int64_t n, Model* out);
std::string LinearLayout(float length, std::int64_t n, Model* out);

}  // namespace engine_plugin::model

#endif  // ENGINE_PLUGIN_MODEL_GEOMETRY_H_
