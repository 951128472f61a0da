// Affine: a 4x4 affine transformation in float, stored column-major as
// Eigen stores DeepMind Lab's Transform (an Eigen::Affine3f): m[col * 4 +
// row]. Read row-major, as a Lua {4, 4} FloatTensor is, it is the
// transpose (a translation sits in the fourth row). The operations
// evaluate as Eigen does in float, so models built here match DeepMind
// Lab's to rounding.
#ifndef ENGINE_PLUGIN_MODEL_AFFINE_H_
#define ENGINE_PLUGIN_MODEL_AFFINE_H_

#include <array>

namespace engine_plugin::model {

using Vec3 = std::array<float, 3>;

struct Affine {
  std::array<float, 16> m{};

  static Affine Identity();
  static Affine Translation(const Vec3& t);
  // The frame at `origin` whose columns are the axes x, y, z.
  static Affine Frame(const Vec3& x, const Vec3& y, const Vec3& z, const Vec3& origin);

  float& at(int row, int col) { return m[col * 4 + row]; }
  float at(int row, int col) const { return m[col * 4 + row]; }

  // this * other (apply `other` first), as Eigen's affine product.
  Affine operator*(const Affine& other) const;
  // The inverse of an affine map (the linear part must be invertible).
  Affine Inverse() const;
  // The point p moved by this map.
  Vec3 Apply(const Vec3& p) const;
  // The inverse of the 3 x 3 linear part, column-major: normals move by it.
  std::array<float, 9> LinearInverse() const;
};

// The unit normal n (a row vector) times the 3 x 3 column-major `inverse`,
// normalised: how a normal moves when its surface moves.
Vec3 MoveNormal(const Vec3& n, const std::array<float, 9>& inverse);

// v / |v|, or v itself when |v| is 0 (as Eigen's normalize()).
Vec3 Normalized(const Vec3& v);
float Norm(const Vec3& v);
Vec3 Cross(const Vec3& a, const Vec3& b);

}  // namespace engine_plugin::model

#endif  // ENGINE_PLUGIN_MODEL_AFFINE_H_
