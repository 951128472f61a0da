#include "engine_plugin/model/affine.h"

#include <cmath>

namespace engine_plugin::model {

Affine Affine::Identity() {
  Affine a;
  for (int i = 0; i < 4; ++i) a.at(i, i) = 1;
  return a;
}

Affine Affine::Translation(const Vec3& t) {
  Affine a = Identity();
  for (int i = 0; i < 3; ++i) a.at(i, 3) = t[i];
  return a;
}

Affine Affine::Frame(const Vec3& x, const Vec3& y, const Vec3& z, const Vec3& origin) {
  Affine a = Identity();
  for (int i = 0; i < 3; ++i) {
    a.at(i, 0) = x[i];
    a.at(i, 1) = y[i];
    a.at(i, 2) = z[i];
    a.at(i, 3) = origin[i];
  }
  return a;
}

namespace {

// Eigen's small products sum their three terms as a + (b + c) (its
// unrolled reduction halves the range), and four as (a + b) + (c + d).
float Sum3(float a, float b, float c) { return a + (b + c); }

}  // namespace

// Eigen's affine product: linear = A.linear * B.linear, translation =
// A.linear * B.translation + A.translation.
Affine Affine::operator*(const Affine& other) const {
  Affine r = Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      const float sum = Sum3(at(i, 0) * other.at(0, j), at(i, 1) * other.at(1, j),
                             at(i, 2) * other.at(2, j));
      r.at(i, j) = j == 3 ? sum + at(i, 3) : sum;
    }
  }
  return r;
}

// Eigen's 3 x 3 inverse: the cofactors times 1 / det, det from column 0.
std::array<float, 9> Affine::LinearInverse() const {
  auto cofactor = [this](int i, int j) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    return at(i1, j1) * at(i2, j2) - at(i1, j2) * at(i2, j1);
  };
  const float det = Sum3(cofactor(0, 0) * at(0, 0), cofactor(1, 0) * at(1, 0),
                        cofactor(2, 0) * at(2, 0));
  const float inverse_det = 1.0f / det;
  std::array<float, 9> inverse;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) inverse[i * 3 + j] = cofactor(i, j) * inverse_det;  // (j, i)
  }
  return inverse;
}

Affine Affine::Inverse() const {
  const std::array<float, 9> inverse = LinearInverse();
  Affine r = Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r.at(i, j) = inverse[j * 3 + i];
  }
  for (int i = 0; i < 3; ++i) {
    r.at(i, 3) = -Sum3(r.at(i, 0) * at(0, 3), r.at(i, 1) * at(1, 3), r.at(i, 2) * at(2, 3));
  }
  return r;
}

Vec3 Affine::Apply(const Vec3& p) const {
  Vec3 r;
  for (int i = 0; i < 3; ++i) {
    r[i] = (at(i, 0) * p[0] + at(i, 1) * p[1]) + (at(i, 2) * p[2] + at(i, 3));
  }
  return r;
}

Vec3 MoveNormal(const Vec3& n, const std::array<float, 9>& inverse) {
  Vec3 r;
  for (int j = 0; j < 3; ++j) {
    r[j] = Sum3(n[0] * inverse[j * 3 + 0], n[1] * inverse[j * 3 + 1], n[2] * inverse[j * 3 + 2]);
  }
  return Normalized(r);
}

// Eigen sums a 3-vector's squares as x^2 + (y^2 + z^2): its unrolled
// reduction halves the range.
float SquaredNorm(const Vec3& v) { return v[0] * v[0] + (v[1] * v[1] + v[2] * v[2]); }

float Norm(const Vec3& v) { return std::sqrt(SquaredNorm(v)); }

Vec3 Normalized(const Vec3& v) {
  const float squared = SquaredNorm(v);
  if (!(squared > 0)) return v;
  const float norm = std::sqrt(squared);
  return {v[0] / norm, v[1] / norm, v[2] / norm};
}

Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

}  // namespace engine_plugin::model
