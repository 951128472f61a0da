// dmlab.system.model through a level: DeepMind Lab's primitives, layouts
// and hierarchies as model tables, and errors naming the function and the
// field. (The dmlab host's own use of models, with the engine's files:
// tests/hosts/dmlab/dmlab_models_test.cc; the vertices bit for bit:
// model_geometry_test.cc.)
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

absl::Status InitLevel(const std::string& name, const std::string& body) {
  const std::string level = WriteLevel(
      name, absl::StrCat("local model = require 'dmlab.system.model'\n",
                         "local transform = require 'dmlab.system.transform'\n",
                         "local tensor = require 'dmlab.system.tensor'\nlocal api = {}\n",
                         "function api:init()\n", body, "\nend\nreturn api\n"));
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  if (!engine.ok()) return engine.status();
  return (*engine)->Init();
}

TEST(ModelModuleTest, PrimitivesAreModelTables) {
  const absl::Status init = InitLevel("primitives", R"lua(
    local cube = model:cube{width = 2, height = 4, depth = 6, segments = 2,
                            shaderName = 'textures/model/beam'}
    assert(cube.name == 'cube')
    local s = cube.surfaces.cube_surface
    assert(s.name == 'cube_surface' and s.shaderName == 'textures/model/beam')
    assert(s.vertices:type() == 'dmlab.system.tensor.FloatTensor')
    assert(s.vertices:size(1) == 54 and s.vertices:size(2) == 8)
    assert(s.indices:type() == 'dmlab.system.tensor.Int32Tensor')
    assert(s.indices:size(1) == 48 and s.indices:size(2) == 3)
    -- 1-based indices, within the vertices.
    assert(s.indices:min() == 1 and s.indices:max() == 54)
    -- The first vertex: the +x face's corner, normal +x.
    assert(s.vertices(1, 1):val() == 1 and s.vertices(1, 2):val() == 3)
    assert(s.vertices(1, 3):val() == -2 and s.vertices(1, 4):val() == 1)
    local n = 0
    for name, frame in pairs(cube.locators) do
      n = n + 1
      assert(frame:type() == 'dmlab.system.tensor.FloatTensor' and frame:size(1) == 4)
    end
    assert(n == 54)
    -- The top plug sits on the top face, facing up (its z column).
    local top = cube.locators.centre_top_centre_p
    assert(top(4, 3):val() == 2 and top(3, 3):val() == 1)
    -- '.' calls too, as DeepMind Lab reads the last argument.
    assert(model.sphere{radius = 2}.surfaces.sphere_surface.vertices:size(1) == 168)
    assert(model:cone{}.surfaces.cone_surface.vertices:size(1) == 33 + 33)
    assert(model:cylinder{phiSegments = 1}.surfaces.cylinder_surface.vertices:size(1) == 10 + 9 + 9)
    local ring = model:circularLayout(10, 6)
    assert(ring.name == 'circular_layout' and next(ring.surfaces) == nil)
    assert(ring.locators.layout_5 ~= nil and ring.locators.layout_6 == nil)
    assert(model:linearLayout(10, 1).locators.layout_0(4, 1):val() == 0)
  )lua");
  EXPECT_TRUE(init.ok()) << init;
}

// DeepMind Lab's own tests/model_test hierarchy: a cone, upside down, with
// a sphere at its bottom, a stalk on the sphere and a cone on the stalk.
TEST(ModelModuleTest, HierarchiesFlattenDepthFirst) {
  const absl::Status init = InitLevel("hierarchy", R"lua(
    local h = model:hierarchy{
        transform = transform.rotate(180, {1, 0, 0}),
        model = model:cone{radius = 10, height = 20, shaderName = 'a'},
        children = {centre_bottom_centre_p = {
            model = model:sphere{radius = 8, shaderName = 'b'},
            children = {centre_top_left_p = {
                locator = 'centre_bottom_centre_s',
                model = model:cylinder{radius = 0.5, height = 5, shaderName = 'c'},
                children = {centre_top_centre_p = {
                    locator = 'centre_bottom_centre_s',
                    model = model:cone{radius = 3, height = 2, shaderName = 'd'}}}}}}}}
    assert(h.name == 'hierarchy')
    local shaders = {}
    for name, surface in pairs(h.surfaces) do shaders[name] = surface.shaderName end
    assert(shaders['root_cone_surface'] == 'a')
    assert(shaders['root_c0:sphere_surface'] == 'b')
    assert(shaders['root_c0:c0:cylinder_surface'] == 'c')
    assert(shaders['root_c0:c0:c0:cone_surface'] == 'd')
    -- Upside down: the cone's apex (z = +10 before) is at z = -10.
    local cone = h.surfaces.root_cone_surface.vertices
    assert(math.abs(cone:select(2, 3):min() + 10) < 1e-5)
    -- Its locators are its bounding box's.
    assert(h.locators.centre_top_centre_p ~= nil)
    -- A model read back is the model written.
    local again = model:hierarchy{model = h}
    assert(again.surfaces['root_root_cone_surface'].vertices:size(1) == cone:size(1))
  )lua");
  EXPECT_TRUE(init.ok()) << init;
}

TEST(ModelModuleTest, BadArgumentsNameTheFunctionAndField) {
  const struct {
    const char* call;
    const char* says;
  } cases[] = {
      {"model:cube(3)", "bad argument #1 to 'model:cube' (table expected, got number"},
      {"model:cube{size = 'big'}", "bad argument #1 to 'model:cube' ('size': number expected"},
      {"model:cone{phiSegments = 1.5e300}", "'phiSegments': integer expected"},
      {"model:sphere{radius = 0}", "'model:sphere': 'widthRadius' must be finite"},
      {"model:cylinder{heightSegments = 0}", "'model:cylinder': 'heightSegments' must be at least 1"},
      {"model:cube{segments = 100000}", "'model:cube': a cube of"},
      {"model:circularLayout(1)", "bad argument #1 to 'model:circularLayout' (number expected"},
      {"model:linearLayout(1, 0)", "'model:linearLayout': the number of samples must be 1 to"},
      {"model:hierarchy{}", "'model:hierarchy': failed to load the model at root_: "
                            "model table expected, got nil"},
      {"model:hierarchy{model = model:cube{}, locator = 'nope'}",
       "'model:hierarchy': failed to find nope amongst model locators at root_"},
      {"model:hierarchy{model = model:cube{}, children = {nope = {model = model:cube{}}}}",
       "failed to find nope amongst model locators at root_"},
      {"model:hierarchy{model = model:cube{}, transform = 3}",
       "the transform at root_: FloatTensor 4 x 4 expected, got number"},
      {"model:hierarchy{model = {surfaces = {s = {shaderName = 'x', vertices = "
       "tensor.FloatTensor(2, 8), indices = tensor.Int32Tensor{{1, 2, 3}}}}}}",
       "surfaces.s.indices: vertex 3 is outside 1 to 2"},
      {"model:hierarchy{model = {surfaces = {s = {shaderName = 'x', vertices = "
       "tensor.FloatTensor(2, 7), indices = tensor.Int32Tensor{{1, 1, 1}}}}}}",
       "surfaces.s.vertices: dmlab.system.tensor.FloatTensor N x 8 expected, got one of 2 "
       "dimensions 2 x 7"},
      {"model:hierarchy{model = {surfaces = {[1] = {}}}}",
       "surfaces: names must be strings, got number"},
      {"model:loadMD3(3)", "bad argument #1 to 'model:loadMD3' (string expected, got number"},
      {"model:saveMD3(3, 'x.md3')", "bad argument #1 to 'model:saveMD3' (model table expected"},
  };
  for (const auto& [call, says] : cases) {
    SCOPED_TRACE(call);
    const absl::Status init =
        InitLevel("bad_model", absl::StrCat("local ok, err = pcall(function() return ", call,
                                            " end)\nassert(not ok)\nerror(err, 0)"));
    EXPECT_THAT(std::string(init.message()), HasSubstr(says));
  }
}

// A hierarchy whose node is its own child ends at the depth limit, and a
// wide one at the node limit, rather than run (nearly) forever.
TEST(ModelModuleTest, CyclicAndHugeHierarchiesAreRefused) {
  absl::Status init = InitLevel("cyclic", R"lua(
    local node = {model = model:linearLayout(1, 1)}
    node.children = {layout_0 = node}
    local ok, err = pcall(model.hierarchy, model, node)
    assert(not ok and err:find('more than 64 levels', 1, true), err)
    -- 1 + 300 + 300 * 300 nodes, 3 levels deep.
    local leaf = {model = model:linearLayout(1, 1)}
    local mid = {model = model:linearLayout(1, 300), children = {}}
    local top = {model = mid.model, children = {}}
    for i = 0, 299 do
      mid.children['layout_' .. i] = leaf
      top.children['layout_' .. i] = mid
    end
    ok, err = pcall(model.hierarchy, model, top)
    assert(not ok and err:find('more than 65536 nodes', 1, true), err)
  )lua");
  EXPECT_TRUE(init.ok()) << init;
}

}  // namespace
}  // namespace engine_plugin
