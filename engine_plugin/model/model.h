// Model: a 3-D model as DeepMind Lab's model generation builds it for the
// engine (its deepmind/model_generation/model.h): named surfaces of
// triangles, each drawn with one shader, and named locators, the frames
// where child models attach (an MD3 file's tags).
#ifndef ENGINE_PLUGIN_MODEL_MODEL_H_
#define ENGINE_PLUGIN_MODEL_MODEL_H_

#include <string>
#include <utility>
#include <vector>

#include "engine_plugin/model/affine.h"

namespace engine_plugin::model {

struct Surface {
  std::string name;
  // Per vertex: position x, y, z, normal x, y, z, texture s, t.
  std::vector<float> vertices;
  // Per triangle: three 0-based indices into the vertices.
  std::vector<int> indices;
  std::string shader_name;

  std::size_t vertex_count() const { return vertices.size() / 8; }
  std::size_t face_count() const { return indices.size() / 3; }
};

struct Model {
  std::string name;
  std::vector<Surface> surfaces;
  // Names are unique.
  std::vector<std::pair<std::string, Affine>> locators;

  // The locator named `name`, or null.
  const Affine* Locator(const std::string& name) const;
  // Sets the locator `name`, adding it if new.
  void SetLocator(const std::string& name, const Affine& frame);
};

}  // namespace engine_plugin::model

#endif  // ENGINE_PLUGIN_MODEL_MODEL_H_
