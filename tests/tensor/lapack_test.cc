#include "tensor/lapack.h"

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A row-major matrix of doubles, for checking results independently of
// the core.
struct Matrix {
  Index rows = 0, cols = 0;
  std::vector<double> v;
  double at(Index r, Index c) const { return v[r * cols + c]; }
};

Matrix Read(const Tensor& t) {
  return {t.shape()[0], t.rank() == 2 ? t.shape()[1] : 1, Doubles(t)};
}

Matrix Product(const Matrix& a, const Matrix& b) {
  Matrix c{a.rows, b.cols, std::vector<double>(a.rows * b.cols)};
  for (Index i = 0; i < a.rows; ++i) {
    for (Index k = 0; k < a.cols; ++k) {
      for (Index j = 0; j < b.cols; ++j) c.v[i * b.cols + j] += a.at(i, k) * b.at(k, j);
    }
  }
  return c;
}

Matrix Transposed(const Matrix& a) {
  Matrix t{a.cols, a.rows, std::vector<double>(a.v.size())};
  for (Index i = 0; i < a.rows; ++i) {
    for (Index j = 0; j < a.cols; ++j) t.v[j * a.rows + i] = a.at(i, j);
  }
  return t;
}

Matrix Identity(Index n) {
  Matrix m{n, n, std::vector<double>(n * n)};
  for (Index i = 0; i < n; ++i) m.v[i * n + i] = 1;
  return m;
}

double Tolerance(DType dtype) { return dtype == DType::kFloat32 ? 2e-3 : 1e-9; }

void ExpectNear(const Matrix& actual, const Matrix& expected, DType dtype) {
  ASSERT_EQ(actual.rows, expected.rows);
  ASSERT_EQ(actual.cols, expected.cols);
  for (std::size_t i = 0; i < actual.v.size(); ++i) {
    EXPECT_NEAR(actual.v[i], expected.v[i], Tolerance(dtype)) << "element " << i;
  }
}

// Random entries in [-1, 1] plus `diagonal` on the diagonal (which makes
// square matrices well conditioned).
Matrix RandomMatrix(Index rows, Index cols, unsigned seed, double diagonal = 0) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Matrix m{rows, cols, std::vector<double>(rows * cols)};
  for (Index i = 0; i < rows * cols; ++i) m.v[i] = uniform(engine);
  for (Index i = 0; i < std::min(rows, cols); ++i) m.v[i * cols + i] += diagonal;
  return m;
}

Matrix SymmetricPositiveDefinite(Index n, unsigned seed) {
  const Matrix r = RandomMatrix(n, n, seed);
  Matrix a = Product(Transposed(r), r);
  for (Index i = 0; i < n; ++i) a.v[i * n + i] += n;
  return a;
}

enum class Kind { kContiguous, kTransposed, kReversed };

// `m` as a tensor of `dtype` whose layout is `kind`: row-major, a
// transposed view of column-major storage, or rows reversed (negative
// stride).
Tensor Make(const Matrix& m, DType dtype, Kind kind = Kind::kContiguous) {
  switch (kind) {
    case Kind::kContiguous: return Must(TensorOf(dtype, {m.rows, m.cols}, m.v));
    case Kind::kTransposed:
      return Must(Must(TensorOf(dtype, {m.cols, m.rows}, Transposed(m).v)).Transpose(0, 1));
    case Kind::kReversed: {
      Matrix flipped = m;
      for (Index i = 0; i < m.rows; ++i) {
        for (Index j = 0; j < m.cols; ++j) flipped.v[i * m.cols + j] = m.at(m.rows - 1 - i, j);
      }
      return Must(Must(TensorOf(dtype, {m.rows, m.cols}, flipped.v)).Reverse(0));
    }
  }
  return Tensor();
}

struct Case {
  DType dtype;
  Kind kind;
};

class LapackTest : public ::testing::TestWithParam<Case> {
 protected:
  DType dtype() const { return GetParam().dtype; }
  Tensor Of(const Matrix& m) const { return Make(m, dtype(), GetParam().kind); }
};

TEST_P(LapackTest, GesvSolvesAndLeavesInputs) {
  const Matrix a = RandomMatrix(5, 5, 1, 4), b = RandomMatrix(5, 3, 2);
  const Tensor ta = Of(a), tb = Of(b);
  ASSERT_OK_AND_ASSIGN(LuSolution x, Gesv(tb, ta));
  EXPECT_TRUE(x.solution.layout().IsContiguous());
  ExpectNear(Product(a, Read(x.solution)), b, dtype());
  EXPECT_THAT(x.lu.shape(), ElementsAre(5, 5));
  ExpectNear(Read(ta), a, dtype());
  ExpectNear(Read(tb), b, dtype());
}

TEST_P(LapackTest, TrtrsSolvesEachTriangleAndTranspose) {
  const Matrix a = RandomMatrix(4, 4, 3, 3), b = RandomMatrix(4, 2, 4);
  for (const Triangle triangle : {Triangle::kUpper, Triangle::kLower}) {
    for (const bool transpose : {false, true}) {
      Matrix t = a;  // the triangle that is read; the other is ignored
      for (Index i = 0; i < 4; ++i) {
        for (Index j = 0; j < 4; ++j) {
          if (triangle == Triangle::kUpper ? i > j : i < j) t.v[i * 4 + j] = 0;
        }
      }
      ASSERT_OK_AND_ASSIGN(Tensor x, Trtrs(Of(b), Of(a), {triangle, transpose, false}));
      ExpectNear(Product(transpose ? Transposed(t) : t, Read(x)), b, dtype());
    }
  }
}

TEST_P(LapackTest, GelsFitsLeastSquaresAndLeastNorm) {
  const Matrix tall = RandomMatrix(6, 3, 5, 2), b = RandomMatrix(6, 2, 6);
  ASSERT_OK_AND_ASSIGN(LeastSquares fit, Gels(Of(b), Of(tall)));
  ASSERT_THAT(fit.solution.shape(), ElementsAre(6, 2));
  const Matrix x = Read(Must(fit.solution.Narrow(0, 0, 3)));
  // The residual is orthogonal to A's columns: A^T (A X - B) = 0.
  Matrix residual = Product(tall, x);
  for (std::size_t i = 0; i < residual.v.size(); ++i) residual.v[i] -= b.v[i];
  ExpectNear(Product(Transposed(tall), residual), Matrix{3, 2, std::vector<double>(6)}, dtype());

  const Matrix wide = RandomMatrix(2, 4, 7, 2), c = RandomMatrix(2, 3, 8);
  ASSERT_OK_AND_ASSIGN(LeastSquares exact, Gels(Of(c), Of(wide)));
  ASSERT_THAT(exact.solution.shape(), ElementsAre(4, 3));
  ExpectNear(Product(wide, Read(exact.solution)), c, dtype());
}

TEST_P(LapackTest, InverseTimesMatrixIsIdentity) {
  const Matrix a = RandomMatrix(6, 6, 9, 3);
  ASSERT_OK_AND_ASSIGN(Tensor inverse, Inverse(Of(a)));
  ExpectNear(Product(a, Read(inverse)), Identity(6), dtype());
}

TEST_P(LapackTest, CholeskyFactorsSolvesAndInverts) {
  const Matrix a = SymmetricPositiveDefinite(5, 10), b = RandomMatrix(5, 2, 11);
  ASSERT_OK_AND_ASSIGN(Tensor upper, Potrf(Of(a)));
  const Matrix u = Read(upper);
  ExpectNear(Product(Transposed(u), u), a, dtype());
  ASSERT_OK_AND_ASSIGN(Tensor lower, Potrf(Of(a), Triangle::kLower));
  const Matrix l = Read(lower);
  ExpectNear(Product(l, Transposed(l)), a, dtype());
  for (Index i = 0; i < 5; ++i) {
    for (Index j = i + 1; j < 5; ++j) {
      EXPECT_EQ(u.at(j, i), 0);
      EXPECT_EQ(l.at(i, j), 0);
    }
  }
  ASSERT_OK_AND_ASSIGN(Tensor x, Potrs(Of(b), upper));
  ExpectNear(Product(a, Read(x)), b, dtype());
  ASSERT_OK_AND_ASSIGN(Tensor x_lower, Potrs(Of(b), lower, Triangle::kLower));
  ExpectNear(Product(a, Read(x_lower)), b, dtype());
  ASSERT_OK_AND_ASSIGN(Tensor inverse, Potri(Of(u)));
  ExpectNear(Product(a, Read(inverse)), Identity(5), dtype());
  ASSERT_OK_AND_ASSIGN(Tensor inverse_lower, Potri(Of(l), Triangle::kLower));
  ExpectNear(Product(Read(inverse_lower), a), Identity(5), dtype());
}

TEST_P(LapackTest, SymeigDiagonalises) {
  const Matrix a = SymmetricPositiveDefinite(5, 12);
  for (const Triangle triangle : {Triangle::kUpper, Triangle::kLower}) {
    Matrix half = a;  // garbage in the triangle that must not be read
    for (Index i = 0; i < 5; ++i) {
      for (Index j = 0; j < 5; ++j) {
        if (triangle == Triangle::kUpper ? i > j : i < j) half.v[i * 5 + j] = 1e30;
      }
    }
    ASSERT_OK_AND_ASSIGN(Eigensystem eigen, Symeig(Of(half), true, triangle));
    const Matrix e = Read(eigen.values), v = Read(eigen.vectors);
    for (Index i = 1; i < 5; ++i) EXPECT_LE(e.v[i - 1], e.v[i]);
    Matrix v_diag = v;
    for (Index i = 0; i < 5; ++i) {
      for (Index j = 0; j < 5; ++j) v_diag.v[i * 5 + j] *= e.v[j];
    }
    ExpectNear(Product(a, v), v_diag, dtype());
    ExpectNear(Product(Transposed(v), v), Identity(5), dtype());
  }
  ASSERT_OK_AND_ASSIGN(Eigensystem values_only, Symeig(Of(a)));
  EXPECT_EQ(values_only.vectors.num_elements(), 0);
  EXPECT_EQ(values_only.values.rank(), 1);
}

TEST_P(LapackTest, EigOfRealAndComplexSpectra) {
  const Matrix a = SymmetricPositiveDefinite(4, 13);
  ASSERT_OK_AND_ASSIGN(Eigensystem eigen, Eig(Of(a), true));
  ASSERT_THAT(eigen.values.shape(), ElementsAre(4, 2));
  const Matrix e = Read(eigen.values), v = Read(eigen.vectors);
  Matrix v_diag = v;
  for (Index i = 0; i < 4; ++i) {
    EXPECT_EQ(e.at(i, 1), 0);
    for (Index j = 0; j < 4; ++j) v_diag.v[i * 4 + j] *= e.at(j, 0);
  }
  ExpectNear(Product(a, v), v_diag, dtype());
  // A rotation by 90 degrees: eigenvalues +-i.
  ASSERT_OK_AND_ASSIGN(Eigensystem rotation, Eig(Of(Matrix{2, 2, {0, -1, 1, 0}})));
  ExpectNear(Read(rotation.values), Matrix{2, 2, {0, 1, 0, -1}}, dtype());
  EXPECT_EQ(rotation.vectors.num_elements(), 0);
}

TEST_P(LapackTest, SvdReconstructsReducedAndFull) {
  for (const auto& [rows, cols] : {std::pair<Index, Index>{6, 4}, {3, 5}}) {
    const Matrix a = RandomMatrix(rows, cols, 14);
    const Index p = std::min(rows, cols);
    for (const bool all : {false, true}) {
      ASSERT_OK_AND_ASSIGN(SvdFactors svd, Svd(Of(a), all));
      const Matrix u = Read(svd.u), s = Read(svd.s), v = Read(svd.v);
      ASSERT_EQ(u.cols, all ? rows : p);
      ASSERT_EQ(v.cols, all ? cols : p);
      ExpectNear(Product(Transposed(u), u), Identity(u.cols), dtype());
      ExpectNear(Product(Transposed(v), v), Identity(v.cols), dtype());
      Matrix us{rows, p, std::vector<double>(rows * p)};
      for (Index i = 0; i < rows; ++i) {
        for (Index j = 0; j < p; ++j) us.v[i * p + j] = u.at(i, j) * s.v[j];
      }
      Matrix vp{cols, p, std::vector<double>(cols * p)};
      for (Index i = 0; i < cols; ++i) {
        for (Index j = 0; j < p; ++j) vp.v[i * p + j] = v.at(i, j);
      }
      ExpectNear(Product(us, Transposed(vp)), a, dtype());
      for (Index j = 1; j < p; ++j) EXPECT_GE(s.v[j - 1], s.v[j]);
    }
  }
}

TEST_P(LapackTest, QrIsOrthogonalTimesUpperTriangular) {
  for (const auto& [rows, cols] : {std::pair<Index, Index>{5, 3}, {3, 5}, {4, 4}}) {
    const Matrix a = RandomMatrix(rows, cols, 15);
    ASSERT_OK_AND_ASSIGN(QrFactors qr, Qr(Of(a)));
    const Matrix q = Read(qr.q), r = Read(qr.r);
    const Index k = std::min(rows, cols);
    ASSERT_EQ(q.cols, k);
    ASSERT_EQ(r.rows, k);
    ExpectNear(Product(q, r), a, dtype());
    ExpectNear(Product(Transposed(q), q), Identity(k), dtype());
    for (Index i = 0; i < k; ++i) {
      for (Index j = 0; j < i; ++j) EXPECT_EQ(r.at(i, j), 0);
    }
  }
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  constexpr const char* kKinds[] = {"contiguous", "transposed", "reversed"};
  return std::string(DTypeName(info.param.dtype)) + "_" +
         kKinds[static_cast<int>(info.param.kind)];
}

INSTANTIATE_TEST_SUITE_P(Layouts, LapackTest,
                         ::testing::Values(Case{DType::kFloat64, Kind::kContiguous},
                                           Case{DType::kFloat64, Kind::kTransposed},
                                           Case{DType::kFloat64, Kind::kReversed},
                                           Case{DType::kFloat32, Kind::kContiguous},
                                           Case{DType::kFloat32, Kind::kTransposed}),
                         CaseName);

Tensor Doubles2(Index rows, Index cols, std::vector<double> values) {
  return Must(TensorOf(DType::kFloat64, {rows, cols}, values));
}

std::string ErrorOf(const absl::Status& status) { return std::string(status.message()); }

TEST(LapackErrorTest, VectorRightHandSideIsOneColumn) {
  ASSERT_OK_AND_ASSIGN(LuSolution x, Gesv(Must(TensorOf(DType::kFloat64, {2}, {2, 3})),
                                          Doubles2(2, 2, {2, 0, 0, 3})));
  EXPECT_THAT(x.solution.shape(), ElementsAre(2, 1));
  EXPECT_THAT(Doubles(x.solution), ElementsAre(1, 1));
}

TEST(LapackErrorTest, SingularAndNotPositiveDefinite) {
  const Tensor singular = Doubles2(3, 3, {1, 2, 3, 2, 4, 6, 1, 1, 1});
  const Tensor b = Doubles2(3, 1, {1, 2, 3});
  EXPECT_THAT(ErrorOf(Gesv(b, singular).status()),
              HasSubstr("gesv: the matrix is singular (U("));
  EXPECT_EQ(ErrorOf(Inverse(Doubles2(2, 2, {1, 2, 2, 4})).status()),
            "inverse: the matrix is singular (U(2,2) is exactly zero)");
  EXPECT_EQ(ErrorOf(Trtrs(Doubles2(2, 1, {1, 1}), Doubles2(2, 2, {1, 1, 0, 0})).status()),
            "trtrs: the matrix is singular (A(2,2) is exactly zero)");
  EXPECT_OK(Trtrs(Doubles2(2, 1, {1, 1}), Doubles2(2, 2, {1, 1, 0, 0}),
                  {Triangle::kUpper, false, /*unit_diagonal=*/true}));
  EXPECT_EQ(ErrorOf(Potrf(Doubles2(2, 2, {1, 2, 2, 1})).status()),
            "potrf: the matrix is not positive definite (its leading minor of order 2 is not)");
  EXPECT_EQ(ErrorOf(Potrs(b, Doubles2(3, 3, {1, 0, 0, 0, 0, 0, 0, 0, 1})).status()),
            "potrs: the matrix is singular (chol(2,2) is exactly zero)");
  EXPECT_THAT(ErrorOf(Potri(Doubles2(2, 2, {1, 0, 0, 0})).status()),
              HasSubstr("potri: the matrix is singular (chol(2,2)"));
  EXPECT_THAT(ErrorOf(Gels(b, Doubles2(3, 2, {1, 0, 2, 0, 3, 0})).status()),
              HasSubstr("gels: A does not have full rank"));
}

TEST(LapackErrorTest, ShapesTypesAndValuesAreChecked) {
  const Tensor square = Doubles2(2, 2, {1, 0, 0, 1});
  EXPECT_EQ(ErrorOf(Inverse(Doubles2(2, 3, {1, 2, 3, 4, 5, 6})).status()),
            "inverse: the matrix must be square, got shape [2, 3]");
  EXPECT_THAT(ErrorOf(Gesv(Doubles2(3, 1, {1, 2, 3}), square).status()),
              HasSubstr("gesv: B has 3 rows and A has 2"));
  EXPECT_THAT(ErrorOf(Symeig(Must(TensorOf(DType::kFloat64, {2, 2, 1}, {1, 2, 3, 4}))).status()),
              HasSubstr("symeig: A must be a matrix, got shape"));
  EXPECT_THAT(ErrorOf(Qr(Must(Tensor::Zeros(DType::kFloat64, {0, 3}))).status()),
              HasSubstr("qr: A is empty"));
  EXPECT_THAT(ErrorOf(Gesv(Must(Tensor::Zeros(DType::kFloat64, {2, 0})), square).status()),
              HasSubstr("gesv: B is empty"));
  EXPECT_EQ(ErrorOf(Svd(Must(TensorOf(DType::kInt32, {1, 1}, {1}))).status()),
            "svd: not defined for Int32Tensor (only FloatTensor and DoubleTensor)");
  EXPECT_THAT(ErrorOf(Potrs(Must(TensorOf(DType::kFloat32, {2}, {1, 1})), square).status()),
              HasSubstr("potrs: B is FloatTensor and chol is DoubleTensor"));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(ErrorOf(Eig(Doubles2(2, 2, {1, nan, 0, 1})).status()),
            "eig: A has an element that is NaN or infinite");
  EXPECT_THAT(ErrorOf(Svd(Doubles2(1, 2, {INFINITY, 1})).status()), HasSubstr("NaN or infinite"));
}

TEST(LapackErrorTest, RevokedTensorsAreInvalid) {
  LentTensor lent(DType::kFloat64, {2, 2}, {2, 0, 0, 2}, "engine matrix");
  lent.Revoke();
  const Tensor square = Doubles2(2, 2, {1, 0, 0, 1});
  ExpectInvalid(Inverse(lent.tensor()).status(), "engine matrix");
  ExpectInvalid(Gesv(lent.tensor(), square).status(), "engine matrix");
  ExpectInvalid(Gesv(square, lent.tensor()).status(), "engine matrix");
  ExpectInvalid(Potrs(lent.tensor(), square).status(), "engine matrix");
  ExpectInvalid(Svd(lent.tensor()).status(), "engine matrix");
}

// Hands out `budget` blocks from the CPU allocator, then fails.
class CountingAllocator : public Allocator {
 public:
  explicit CountingAllocator(int budget) : budget_(budget) {}
  Device device() const override { return Device::Cpu(); }
  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    if (budget_-- <= 0) return absl::ResourceExhaustedError("test allocator: out of blocks");
    return CpuAllocator().Allocate(bytes, zeroed);
  }
  void Deallocate(void* data, std::size_t bytes) override {
    CpuAllocator().Deallocate(data, bytes);
  }

 private:
  int budget_;
};

TEST(LapackErrorTest, EveryAllocationFailureIsAnError) {
  const Tensor a = Make(SymmetricPositiveDefinite(3, 16), DType::kFloat64);
  const Tensor b = Make(RandomMatrix(3, 2, 17), DType::kFloat64);
  const std::vector<std::function<absl::Status(Allocator&)>> calls = {
      [&](Allocator& m) { return Gesv(b, a, m).status(); },
      [&](Allocator& m) { return Trtrs(b, a, {}, m).status(); },
      [&](Allocator& m) { return Gels(b, a, m).status(); },
      [&](Allocator& m) { return Inverse(a, m).status(); },
      [&](Allocator& m) { return Potrf(a, Triangle::kUpper, m).status(); },
      [&](Allocator& m) { return Potrs(b, a, Triangle::kUpper, m).status(); },
      [&](Allocator& m) { return Potri(a, Triangle::kUpper, m).status(); },
      [&](Allocator& m) { return Symeig(a, true, Triangle::kUpper, m).status(); },
      [&](Allocator& m) { return Eig(a, true, m).status(); },
      [&](Allocator& m) { return Svd(a, true, m).status(); },
      [&](Allocator& m) { return Qr(a, m).status(); },
  };
  for (std::size_t i = 0; i < calls.size(); ++i) {
    // Fails at each allocation in turn until one budget suffices.
    for (int budget = 0;; ++budget) {
      CountingAllocator allocator(budget);
      const absl::Status status = calls[i](allocator);
      if (status.ok()) break;
      EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << "call " << i << status;
      ASSERT_LT(budget, 20) << "call " << i;
    }
  }
}

}  // namespace
}  // namespace tensor
