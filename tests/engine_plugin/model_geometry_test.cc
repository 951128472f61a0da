// engine_plugin/model's primitives and transforms are DeepMind Lab's bit
// for bit: each hash below is what DeepMind Lab's own
// deepmind/model_generation code (built apart, with Eigen) gave for the
// same primitive: FNV-1a 64 over the vertices' and indices' bytes, then
// each locator (sorted by name) as its name and its 3 x 4 frame.
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "engine_plugin/model/affine.h"
#include "engine_plugin/model/geometry.h"
#include "engine_plugin/model/model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace engine_plugin::model {
namespace {

using ::testing::HasSubstr;

struct Digest {
  std::size_t vertices, faces, locators;
  std::uint64_t hash;
  bool operator==(const Digest&) const = default;
};

void PrintTo(const Digest& d, std::ostream* os) {
  *os << d.vertices << " vertices, " << d.faces << " faces, " << d.locators << " locators, 0x"
      << std::hex << d.hash;
}

Digest DigestOf(const Surface& s, const Model& locators) {
  std::uint64_t h = 1469598103934665603ull;
  auto add = [&h](const void* data, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  add(s.vertices.data(), s.vertices.size() * 4);
  add(s.indices.data(), s.indices.size() * 4);
  std::map<std::string, Affine> sorted(locators.locators.begin(), locators.locators.end());
  for (const auto& [name, frame] : sorted) {
    add(name.data(), name.size());
    add(frame.m.data(), 48);
  }
  return {s.vertex_count(), s.face_count(), sorted.size(), h};
}

template <typename Shape>
Model Built(const Shape& shape) {
  Model m;
  const std::string why = Build(shape, &m);
  EXPECT_EQ(why, "");
  return m;
}

TEST(ModelGeometryTest, PrimitivesAreDeepMindLabsBitForBit) {
  const Model cube = Built(Cube{2, 3, 4, 1, 2, 3, ""});
  EXPECT_EQ(DigestOf(cube.surfaces[0], cube), (Digest{52, 44, 54, 0x0e145533175ae096}));
  const Model cone = Built(Cone{10, 5, 20, 3, 2, 4, ""});
  EXPECT_EQ(DigestOf(cone.surfaces[0], cone), (Digest{102, 120, 54, 0x9263901b511ad022}));
  const Model cylinder = Built(Cylinder{0.5f, 0.5f, 5, 2, 3, 2, ""});
  EXPECT_EQ(DigestOf(cylinder.surfaces[0], cylinder), (Digest{97, 112, 54, 0xfc45549a6569f806}));
  const Model sphere = Built(Sphere{8, 6, 4, 5, 3, ""});
  EXPECT_EQ(DigestOf(sphere.surfaces[0], sphere), (Digest{166, 200, 54, 0x866c91e0706dd992}));
  EXPECT_EQ(sphere.name, "sphere");
  EXPECT_EQ(sphere.surfaces[0].name, "sphere_surface");
}

// DeepMind Lab's own model tests' figures (its lua_model_test.cc, on its
// tests/model_test level: four segments everywhere).
TEST(ModelGeometryTest, DeepMindLabsModelTestFigures) {
  auto face = [](const Surface& s, std::size_t f) {
    return std::vector<int>(s.indices.begin() + 3 * f, s.indices.begin() + 3 * f + 3);
  };
  const Surface cone = Built(Cone{0.5f, 0.5f, 1, 4, 4, 4, ""}).surfaces[0];
  EXPECT_EQ(cone.vertex_count(), 168u);
  EXPECT_EQ(cone.face_count(), 224u);
  EXPECT_EQ(face(cone, 0), (std::vector<int>{5, 4, 0}));
  EXPECT_EQ(face(cone, 112), (std::vector<int>{89, 88, 84}));
  const Surface cube = Built(Cube{1, 1, 1, 4, 4, 4, ""}).surfaces[0];
  EXPECT_EQ(cube.vertex_count(), 150u);
  EXPECT_EQ(cube.face_count(), 192u);
  EXPECT_EQ(face(cube, 0), (std::vector<int>{0, 5, 6}));
  EXPECT_EQ(face(cube, 1), (std::vector<int>{0, 6, 1}));
  const Surface cylinder = Built(Cylinder{0.5f, 0.5f, 1, 4, 4, 4, ""}).surfaces[0];
  EXPECT_EQ(cylinder.vertex_count(), 253u);
  EXPECT_EQ(cylinder.face_count(), 352u);
  const Surface sphere = Built(Sphere{0.5f, 0.5f, 0.5f, 4, 4, ""}).surfaces[0];
  EXPECT_EQ(sphere.vertex_count(), 168u);
  EXPECT_EQ(sphere.face_count(), 224u);
  EXPECT_EQ(face(sphere, 112), (std::vector<int>{89, 88, 84}));
}

// A hierarchy's step: the sphere moved by scale * translation * a plug *
// a socket's inverse, its normals by the inverse transpose, and the
// default locators of the moved bounding box.
TEST(ModelGeometryTest, TransformsAreDeepMindLabsBitForBit) {
  Model sphere = Built(Sphere{8, 6, 4, 5, 3, ""});
  Affine scale = Affine::Identity();
  scale.at(0, 0) = 2;
  scale.at(1, 1) = 0.5f;
  scale.at(2, 2) = 1.5f;
  Affine f = scale * Affine::Translation({3, -4, 5});
  f = f * *sphere.Locator("front_top_left_p");
  f = f * sphere.Locator("back_centre_right_s")->Inverse();
  const std::array<float, 9> inverse = f.LinearInverse();
  Vec3 low = {1e30f, 1e30f, 1e30f}, high = {-1e30f, -1e30f, -1e30f};
  Surface& s = sphere.surfaces[0];
  for (std::size_t v = 0; v < s.vertices.size(); v += 8) {
    const Vec3 p = f.Apply({s.vertices[v], s.vertices[v + 1], s.vertices[v + 2]});
    const Vec3 n = MoveNormal({s.vertices[v + 3], s.vertices[v + 4], s.vertices[v + 5]}, inverse);
    for (int c = 0; c < 3; ++c) {
      s.vertices[v + c] = p[c];
      s.vertices[v + 3 + c] = n[c];
      low[c] = std::min(low[c], p[c]);
      high[c] = std::max(high[c], p[c]);
    }
  }
  Model box;
  ASSERT_TRUE(AddBoxLocators(high[0] - low[0], high[1] - low[1], high[2] - low[2],
                             {(high[0] + low[0]) * 0.5f, (high[1] + low[1]) * 0.5f,
                              (high[2] + low[2]) * 0.5f},
                             &box));
  EXPECT_EQ(DigestOf(s, box), (Digest{166, 200, 54, 0x334ee7df4310f1f9}));
}

TEST(ModelGeometryTest, AnAffineTimesItsInverseIsTheIdentity) {
  const Affine a = Affine::Frame({0, 1, 0}, {-1, 0, 0}, {0, 0, 1}, {5, 6, 7});
  const Affine i = a * a.Inverse();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) EXPECT_FLOAT_EQ(i.at(r, c), r == c ? 1 : 0) << r << c;
  }
  EXPECT_EQ(a.Apply({1, 0, 0}), (Vec3{5, 7, 7}));
}

TEST(ModelGeometryTest, BadShapesAreErrorsNamingTheField) {
  Model m;
  EXPECT_THAT(Build(Cube{0, 1, 1, 1, 1, 1, ""}, &m), HasSubstr("'width' must be finite"));
  EXPECT_THAT(Build(Cone{1, 1, 1, 0, 1, 1, ""}, &m), HasSubstr("'phiSegments' must be at least 1"));
  EXPECT_THAT(Build(Sphere{1, 1, 1.0f / 0.0f, 4, 4, ""}, &m), HasSubstr("'heightRadius'"));
  EXPECT_THAT(Build(Cylinder{1, 1, 1, 1 << 20, 1 << 20, 1, ""}, &m),
              HasSubstr("vertices is more than the"));
  EXPECT_THAT(CircularLayout(1, 0, &m), HasSubstr("number of samples must be 1 to"));
  EXPECT_THAT(LinearLayout(1, 1ll << 40, &m), HasSubstr("number of samples must be 1 to"));
}

TEST(ModelGeometryTest, LayoutsPlaceTheirLocators) {
  Model m;
  ASSERT_EQ(LinearLayout(10, 3, &m), "");
  ASSERT_EQ(m.locators.size(), 3u);
  EXPECT_EQ(m.Locator("layout_0")->at(0, 3), -5);
  EXPECT_EQ(m.Locator("layout_2")->at(0, 3), 5);
  ASSERT_EQ(CircularLayout(2, 4, &m), "");
  // layout_1 at a quarter turn: (0, -2), its y axis pointing out.
  EXPECT_NEAR(m.Locator("layout_1")->at(1, 3), -2, 1e-6);
  EXPECT_NEAR(m.Locator("layout_1")->at(1, 1), -1, 1e-6);
}

}  // namespace
}  // namespace engine_plugin::model
