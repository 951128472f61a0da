#include "tensor/blas.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/half.h"
#include "tensor/tensor.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::AsStored;
using ::tensor::testing::Doubles;
using ::tensor::testing::ExpectInvalid;
using ::tensor::testing::LentTensor;
using ::tensor::testing::Must;
using ::tensor::testing::NumericTypes;
using ::tensor::testing::TensorOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr BlasOp kAllOps[] = {BlasOp::kMm,   BlasOp::kMv,      BlasOp::kGer,
                              BlasOp::kBmm,  BlasOp::kAddmm,   BlasOp::kAddmv,
                              BlasOp::kAddr, BlasOp::kBaddbmm, BlasOp::kAddbmm};

bool IsPlain(BlasOp op) {
  return op == BlasOp::kMm || op == BlasOp::kMv || op == BlasOp::kGer || op == BlasOp::kBmm;
}

struct OperandShapes {
  Shape lhs, rhs, result;
};

OperandShapes ShapesFor(BlasOp op) {
  switch (op) {
    case BlasOp::kMm:
    case BlasOp::kAddmm: return {{3, 4}, {4, 2}, {3, 2}};
    case BlasOp::kMv:
    case BlasOp::kAddmv: return {{3, 4}, {4}, {3}};
    case BlasOp::kGer:
    case BlasOp::kAddr: return {{3, 4}, {4}, {3, 4}};  // lhs unused: see below
    case BlasOp::kBmm:
    case BlasOp::kBaddbmm: return {{2, 3, 4}, {2, 4, 2}, {2, 3, 2}};
    case BlasOp::kAddbmm: break;
  }
  return {{2, 3, 4}, {2, 4, 2}, {3, 2}};
}

Shape LhsShape(BlasOp op) {
  return op == BlasOp::kGer || op == BlasOp::kAddr ? Shape{3} : ShapesFor(op).lhs;
}

Index Count(const Shape& shape) {
  Index n = 1;
  for (Index e : shape) n *= e;
  return n;
}

// Small values (0..3 for unsigned types, -3..3 otherwise) that every dtype
// and every sum in these tests holds exactly.
std::vector<double> SmallValues(DType dtype, Index n, int seed) {
  std::vector<double> v(n);
  for (Index i = 0; i < n; ++i) {
    const Index h = (i * 5 + seed) % 7;
    v[i] = dtype == DType::kUInt8 ? static_cast<double>(h % 4) : static_cast<double>(h - 3);
  }
  return v;
}

// beta * add + alpha * (lhs . rhs) in doubles, row-major.
std::vector<double> Reference(BlasOp op, const Shape& ls, const std::vector<double>& a,
                              const Shape& rs, const std::vector<double>& b, double beta,
                              const std::vector<double>& add, double alpha) {
  // As (batch, n, k) . (batch, k, p), summed over the batch for addbmm.
  Index batch = 1, n, k, p;
  if (ls.size() == 3) {
    batch = ls[0], n = ls[1], k = ls[2], p = rs[2];
  } else if (ls.size() == 2) {
    n = ls[0], k = ls[1], p = rs.size() == 2 ? rs[1] : 1;
  } else {
    n = ls[0], k = 1, p = rs[0];
  }
  const bool sum = op == BlasOp::kAddbmm;
  std::vector<double> c((sum ? 1 : batch) * n * p);
  for (Index m = 0; m < batch; ++m) {
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < p; ++j) {
        double s = 0;
        for (Index q = 0; q < k; ++q) s += a[(m * n + i) * k + q] * b[(m * k + q) * p + j];
        c[((sum ? 0 : m) * n + i) * p + j] += alpha * s;
      }
    }
  }
  if (beta != 0) {
    for (size_t i = 0; i < c.size(); ++i) c[i] += beta * add[i];
  }
  return c;
}

enum class Layouts { kContiguous, kTransposed, kNarrowed, kReversed, kStrided };
constexpr Layouts kAllLayouts[] = {Layouts::kContiguous, Layouts::kTransposed, Layouts::kNarrowed,
                                   Layouts::kReversed, Layouts::kStrided};

const char* LayoutName(Layouts layout) {
  switch (layout) {
    case Layouts::kContiguous: return "contiguous";
    case Layouts::kTransposed: return "transposed";
    case Layouts::kNarrowed: return "narrowed";
    case Layouts::kReversed: return "reversed";
    case Layouts::kStrided: return "strided";
  }
  return "?";
}

// A tensor of `shape` holding `values` in row-major order, laid out as
// `layout` asks. Storage outside the view holds 99.
Tensor InLayout(Layouts layout, DType dtype, const Shape& shape,
                const std::vector<double>& values) {
  const Tensor source = Must(TensorOf(dtype, shape, values));
  const int rank = static_cast<int>(shape.size());
  Tensor view;
  switch (layout) {
    case Layouts::kContiguous: return source;
    case Layouts::kTransposed: {
      if (rank == 1) return InLayout(Layouts::kReversed, dtype, shape, values);
      Shape swapped = shape;
      std::swap(swapped[rank - 2], swapped[rank - 1]);
      view = Must(Must(Tensor::Zeros(dtype, swapped)).Transpose(rank - 2, rank - 1));
      break;
    }
    case Layouts::kNarrowed: {
      Shape padded = shape;
      for (Index& e : padded) e += 3;
      view = Must(Tensor::Zeros(dtype, padded));
      EXPECT_OK(ApplyScalars(view, ElementOp::kAssign, {99}));
      for (int d = 0; d < rank; ++d) view = Must(view.Narrow(d, 1, shape[d]));
      break;
    }
    case Layouts::kReversed: view = Must(Must(Tensor::Zeros(dtype, shape)).Reverse(0)); break;
    case Layouts::kStrided: {
      Shape doubled = shape;
      doubled.push_back(2);
      Tensor base = Must(Tensor::Zeros(dtype, doubled));
      EXPECT_OK(ApplyScalars(base, ElementOp::kAssign, {99}));
      view = Must(base.Select(rank, 1));
      break;
    }
  }
  EXPECT_OK(ApplyComponents(view, ElementOp::kAssign, source));
  return view;
}

template <typename T>
class BlasTypedTest : public ::testing::Test {};

TYPED_TEST_SUITE(BlasTypedTest, NumericTypes, ::tensor::testing::DTypeNames);

TYPED_TEST(BlasTypedTest, EveryOpMatchesTheReferenceForEveryLayoutOfEachTensor) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  for (BlasOp op : kAllOps) {
    const OperandShapes shapes = ShapesFor(op);
    const Shape ls = LhsShape(op);
    const std::vector<double> a = SmallValues(dtype, Count(ls), 1);
    const std::vector<double> b = SmallValues(dtype, Count(shapes.rhs), 4);
    const std::vector<double> add = SmallValues(dtype, Count(shapes.result), 2);
    const double beta = IsPlain(op) ? 0 : 2, alpha = IsPlain(op) ? 1 : 3;
    const std::vector<double> expected =
        AsStored<T>(Reference(op, ls, a, shapes.rhs, b, beta, add, alpha));
    for (Layouts lhs_layout : kAllLayouts) {
      for (Layouts rhs_layout : kAllLayouts) {
        for (Layouts out_layout : kAllLayouts) {
          SCOPED_TRACE(::testing::Message()
                       << BlasOpName(op) << ": lhs " << LayoutName(lhs_layout) << ", rhs "
                       << LayoutName(rhs_layout) << ", out " << LayoutName(out_layout));
          const Tensor lhs = InLayout(lhs_layout, dtype, ls, a);
          const Tensor rhs = InLayout(rhs_layout, dtype, shapes.rhs, b);
          // Garbage in out: beta 0 must not read it.
          const Tensor out = InLayout(out_layout, dtype, shapes.result,
                                      std::vector<double>(Count(shapes.result), 1));
          const Tensor addend = InLayout(Layouts::kTransposed, dtype, shapes.result, add);
          ASSERT_OK(AddProduct(op, out, beta, addend, alpha, lhs, rhs));
          EXPECT_THAT(Doubles(out), ElementsAreArray(expected));
          EXPECT_THAT(Doubles(lhs), ElementsAreArray(a));  // operands untouched
          EXPECT_THAT(Doubles(rhs), ElementsAreArray(b));
        }
      }
    }
  }
}

TYPED_TEST(BlasTypedTest, AddTermMayBeTheDestinationItself) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  for (BlasOp op :
       {BlasOp::kAddmm, BlasOp::kAddmv, BlasOp::kAddr, BlasOp::kBaddbmm, BlasOp::kAddbmm}) {
    SCOPED_TRACE(BlasOpName(op));
    const OperandShapes shapes = ShapesFor(op);
    const Shape ls = LhsShape(op);
    const std::vector<double> a = SmallValues(dtype, Count(ls), 3);
    const std::vector<double> b = SmallValues(dtype, Count(shapes.rhs), 5);
    const std::vector<double> m = SmallValues(dtype, Count(shapes.result), 6);
    for (Layouts layout : kAllLayouts) {
      SCOPED_TRACE(LayoutName(layout));
      const Tensor out = InLayout(layout, dtype, shapes.result, m);
      ASSERT_OK(AddProduct(op, out, 1, out, 2, Must(TensorOf(dtype, ls, a)),
                           Must(TensorOf(dtype, shapes.rhs, b))));
      EXPECT_THAT(Doubles(out),
                  ElementsAreArray(AsStored<T>(Reference(op, ls, a, shapes.rhs, b, 1, m, 2))));
    }
  }
}

TYPED_TEST(BlasTypedTest, DestinationOverlappingAnOperandGetsTheRightResult) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  const std::vector<double> values = SmallValues(dtype, 9, 1);
  const Shape square = {3, 3};
  // out = a . a, out = a . a^T (a transposed view of out), out = a^T . a.
  for (int variant = 0; variant < 3; ++variant) {
    SCOPED_TRACE(variant);
    const Tensor a = Must(TensorOf(dtype, square, values));
    const Tensor at = Must(a.Transpose(0, 1));
    const std::vector<double> at_values = Doubles(at);
    const Tensor& lhs = variant == 2 ? at : a;
    const Tensor& rhs = variant == 1 ? at : a;
    const std::vector<double> expected =
        AsStored<T>(Reference(BlasOp::kMm, square, variant == 2 ? at_values : values, square,
                                variant == 1 ? at_values : values, 0, {}, 1));
    ASSERT_OK(Product(BlasOp::kMm, a, lhs, rhs));
    EXPECT_THAT(Doubles(a), ElementsAreArray(expected));
  }
  // y = A . y, and y = A . (row 0 of A) written over row 0 of A.
  const Tensor matrix = Must(TensorOf(dtype, square, values));
  const Tensor y = Must(TensorOf(dtype, {3}, {1, 2, 0}));
  ASSERT_OK(Product(BlasOp::kMv, y, matrix, y));
  EXPECT_THAT(Doubles(y), ElementsAreArray(AsStored<T>(
                              Reference(BlasOp::kMv, square, values, {3}, {1, 2, 0}, 0, {}, 1))));
  const Tensor row = Must(matrix.Select(0, 0));
  const std::vector<double> row_values = Doubles(row);
  ASSERT_OK(Product(BlasOp::kMv, row, matrix, row));
  EXPECT_THAT(Doubles(row), ElementsAreArray(AsStored<T>(Reference(BlasOp::kMv, square, values,
                                                                     {3}, row_values, 0, {}, 1))));
  // M = M + x outer y, with x a column of M.
  const Tensor m = Must(TensorOf(dtype, square, values));
  const Tensor column = Must(m.Select(1, 2));
  const std::vector<double> column_values = Doubles(column);
  const Tensor other = Must(TensorOf(dtype, {3}, {1, 0, 2}));
  ASSERT_OK(AddProduct(BlasOp::kAddr, m, 1, m, 1, column, other));
  EXPECT_THAT(Doubles(m), ElementsAreArray(AsStored<T>(Reference(
                              BlasOp::kAddr, {3}, column_values, {3}, {1, 0, 2}, 1, values, 1))));
}

TYPED_TEST(BlasTypedTest, AddTermOverlappingTheDestinationInAnotherOrderIsReadFirst) {
  using T = TypeParam;
  const DType dtype = DTypeOf<T>();
  const std::vector<double> values = SmallValues(dtype, 9, 2);
  const Tensor out = Must(TensorOf(dtype, {3, 3}, values));
  const Tensor transposed = Must(out.Transpose(0, 1));
  const std::vector<double> add = Doubles(transposed);
  const Tensor eye = Must(TensorOf(dtype, {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1}));
  ASSERT_OK(AddProduct(BlasOp::kAddmm, out, 1, transposed, 1, eye, eye));
  std::vector<double> expected = add;
  for (int i = 0; i < 3; ++i) expected[i * 4] += 1;
  EXPECT_THAT(Doubles(out), ElementsAreArray(AsStored<T>(expected)));
}

TYPED_TEST(BlasTypedTest, EmptyInnerDimensionLeavesBetaTimesTheAddTerm) {
  const DType dtype = DTypeOf<TypeParam>();
  const Tensor m = Must(TensorOf(dtype, {2, 2}, {1, 2, 3, 0}));
  ASSERT_OK(AddProduct(BlasOp::kAddmm, m, 2, m, 3, Must(Tensor::Zeros(dtype, {2, 0})),
                       Must(Tensor::Zeros(dtype, {0, 2}))));
  EXPECT_THAT(Doubles(m), ElementsAre(2, 4, 6, 0));
  ASSERT_OK(Product(BlasOp::kMm, m, Must(Tensor::Zeros(dtype, {2, 0})),
                    Must(Tensor::Zeros(dtype, {0, 2}))));
  EXPECT_THAT(Doubles(m), ElementsAre(0, 0, 0, 0));
  const Tensor v = Must(TensorOf(dtype, {2}, {1, 2}));
  ASSERT_OK(AddProduct(BlasOp::kAddbmm, m, 1, m, 1, Must(Tensor::Zeros(dtype, {0, 2, 3})),
                       Must(Tensor::Zeros(dtype, {0, 3, 2}))));
  EXPECT_THAT(Doubles(m), ElementsAre(0, 0, 0, 0));
  // An empty result is nothing to do.
  const Tensor none = Must(Tensor::Zeros(dtype, {0, 2}));
  EXPECT_OK(Product(BlasOp::kMm, none, Must(Tensor::Zeros(dtype, {0, 3})),
                    Must(Tensor::Zeros(dtype, {3, 2}))));
  EXPECT_OK(Product(BlasOp::kBmm, Must(Tensor::Zeros(dtype, {0, 2, 2})),
                    Must(Tensor::Zeros(dtype, {0, 2, 3})), Must(Tensor::Zeros(dtype, {0, 3, 2}))));
  EXPECT_OK(
      Product(BlasOp::kMv, Must(Tensor::Zeros(dtype, {0})), Must(Tensor::Zeros(dtype, {0, 2})), v));
}

TEST(BlasTest, TorchReferenceExamples) {
  // addmv: x = 0 + M . y, M 3x2 of 3s, y of 2s.
  Tensor x = Must(Tensor::Zeros(DType::kFloat64, {3}));
  Tensor m = Must(TensorOf(DType::kFloat64, {3, 2}, std::vector<double>(6, 3)));
  Tensor y = Must(TensorOf(DType::kFloat64, {2}, {2, 2}));
  ASSERT_OK(AddProduct(BlasOp::kAddmv, x, 1, x, 1, m, y));
  EXPECT_THAT(Doubles(x), ElementsAre(12, 12, 12));
  // addr: M = 0 + x outer y, then 2 * M + x outer y, then 2 * A + x outer y.
  Tensor xr = Must(TensorOf(DType::kFloat64, {3}, {1, 2, 3}));
  Tensor yr = Must(TensorOf(DType::kFloat64, {2}, {1, 2}));
  Tensor outer = Must(Tensor::Zeros(DType::kFloat64, {3, 2}));
  ASSERT_OK(AddProduct(BlasOp::kAddr, outer, 1, outer, 1, xr, yr));
  EXPECT_THAT(Doubles(outer), ElementsAre(1, 2, 2, 4, 3, 6));
  ASSERT_OK(AddProduct(BlasOp::kAddr, outer, 2, outer, 1, xr, yr));
  EXPECT_THAT(Doubles(outer), ElementsAre(3, 6, 6, 12, 9, 18));
  Tensor a = Must(TensorOf(DType::kFloat64, {3, 2}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(AddProduct(BlasOp::kAddr, outer, 2, a, 1, xr, yr));
  EXPECT_THAT(Doubles(outer), ElementsAre(3, 6, 8, 12, 13, 18));
}

TEST(BlasTest, BetaZeroIgnoresNanInTheAddTermAndAlphaZeroInTheOperands) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType dtype : {DType::kFloat32, DType::kFloat64, DType::kFloat16}) {
    SCOPED_TRACE(DTypeName(dtype));
    for (BlasOp op : {BlasOp::kAddmm, BlasOp::kAddr}) {
      const bool outer = op == BlasOp::kAddr;
      Tensor m = Must(TensorOf(dtype, {2, 2}, {nan, nan, nan, nan}));
      Tensor lhs =
          outer ? Must(TensorOf(dtype, {2}, {1, 2})) : Must(TensorOf(dtype, {2, 2}, {1, 2, 3, 4}));
      Tensor rhs =
          outer ? Must(TensorOf(dtype, {2}, {1, 1})) : Must(TensorOf(dtype, {2, 2}, {1, 0, 0, 1}));
      ASSERT_OK(AddProduct(op, m, 0, m, 1, lhs, rhs));
      EXPECT_THAT(Doubles(m), outer ? ElementsAre(1, 1, 2, 2) : ElementsAre(1, 2, 3, 4));
      Tensor poisoned = Must(TensorOf(
          dtype, outer ? Shape{2} : Shape{2, 2},
          outer ? std::vector<double>{nan, nan} : std::vector<double>{nan, nan, nan, nan}));
      ASSERT_OK(AddProduct(op, m, 2, m, 0, poisoned, rhs));
      EXPECT_THAT(Doubles(m), outer ? ElementsAre(2, 2, 4, 4) : ElementsAre(2, 4, 6, 8));
    }
  }
}

TEST(BlasTest, FractionalFloatProductsAreCloseToTheDoubleReference) {
  // Big enough for BLAS's blocked kernels, every tensor a view.
  const Index n = 37, k = 29, p = 23;
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(dtype));
    std::vector<double> av(n * k), bv(k * p), mv(n * p);
    for (size_t i = 0; i < av.size(); ++i) av[i] = std::sin(0.37 * i);
    for (size_t i = 0; i < bv.size(); ++i) bv[i] = std::cos(0.11 * i) / 3;
    for (size_t i = 0; i < mv.size(); ++i) mv[i] = std::sin(0.05 * i);
    const Tensor lhs = InLayout(Layouts::kTransposed, dtype, {n, k}, av);
    const Tensor rhs = InLayout(Layouts::kNarrowed, dtype, {k, p}, bv);
    const Tensor out = InLayout(Layouts::kTransposed, dtype, {n, p}, mv);
    ASSERT_OK(AddProduct(BlasOp::kAddmm, out, 0.5, out, -1.5, lhs, rhs));
    const std::vector<double> expected =
        Reference(BlasOp::kAddmm, {n, k}, Doubles(lhs), {k, p}, Doubles(rhs), 0.5, mv, -1.5);
    const std::vector<double> got = Doubles(out);
    const double tolerance = dtype == DType::kFloat32 ? 1e-4 : 1e-12;
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tolerance) << i;
  }
}

// Matrices of 1 to 8 columns take the library's own loop rather than
// BLAS (an image's pixels times its channels' weights), 9 go to BLAS: the
// same values in every layout, for mv and addmv, and a NaN in the
// destination is not read for beta 0.
TEST(BlasTest, NarrowMatricesTimesVectorsMatchTheReference) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Index n = 53;  // past a vector's width, with a tail
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    for (Index k = 1; k <= 9; ++k) {
      for (Layouts layout : {Layouts::kContiguous, Layouts::kNarrowed, Layouts::kStrided}) {
        SCOPED_TRACE(absl::StrCat(DTypeName(dtype), ", ", k, " columns, ", LayoutName(layout)));
        std::vector<double> av(n * k), xv(k), yv(n);
        for (size_t i = 0; i < av.size(); ++i) av[i] = std::sin(0.37 * i);
        for (size_t i = 0; i < xv.size(); ++i) xv[i] = std::cos(0.11 * i) / 3;
        for (size_t i = 0; i < yv.size(); ++i) yv[i] = std::sin(0.05 * i);
        const Tensor a = InLayout(layout, dtype, {n, k}, av);
        const Tensor x = InLayout(layout, dtype, {k}, xv);
        const double tolerance = dtype == DType::kFloat32 ? 1e-5 : 1e-13;
        const Tensor y = InLayout(layout, dtype, {n}, std::vector<double>(n, nan));
        ASSERT_OK(Product(BlasOp::kMv, y, a, x));
        std::vector<double> expected =
            Reference(BlasOp::kMv, {n, k}, Doubles(a), {k}, Doubles(x), 0, {}, 1);
        std::vector<double> got = Doubles(y);
        for (Index i = 0; i < n; ++i) EXPECT_NEAR(got[i], expected[i], tolerance) << i;
        const Tensor sum = InLayout(layout, dtype, {n}, yv);
        ASSERT_OK(AddProduct(BlasOp::kAddmv, sum, 0.5, sum, -1.5, a, x));
        expected = Reference(BlasOp::kAddmv, {n, k}, Doubles(a), {k}, Doubles(x), 0.5,
                             Doubles(InLayout(layout, dtype, {n}, yv)), -1.5);
        got = Doubles(sum);
        for (Index i = 0; i < n; ++i) EXPECT_NEAR(got[i], expected[i], tolerance) << i;
      }
    }
  }
}

TEST(BlasTest, IntegerSumsWrapToTheType) {
  Tensor out = Must(Tensor::Zeros(DType::kInt8, {1, 1}));
  ASSERT_OK(Product(BlasOp::kMm, out, Must(TensorOf(DType::kInt8, {1, 2}, {100, 100})),
                    Must(TensorOf(DType::kInt8, {2, 1}, {1, 1}))));
  EXPECT_THAT(Doubles(out), ElementsAre(-56));
  Tensor bytes = Must(TensorOf(DType::kUInt8, {2}, {200, 1}));
  ASSERT_OK(AddProduct(BlasOp::kAddmv, bytes, 2, bytes, 1,
                       Must(TensorOf(DType::kUInt8, {2, 1}, {0, 0})),
                       Must(TensorOf(DType::kUInt8, {1}, {5}))));
  EXPECT_THAT(Doubles(bytes), ElementsAre(144, 2));  // 400 mod 256
}

// Counts the blocks it hands out.
class CountingAllocator : public Allocator {
 public:
  Device device() const override { return CpuAllocator().device(); }
  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    ++count;
    return CpuAllocator().Allocate(bytes, zeroed);
  }
  void Deallocate(void* data, std::size_t bytes) override {
    CpuAllocator().Deallocate(data, bytes);
  }
  int count = 0;
};

TEST(BlasTest, TransposedAndNarrowedFloatTensorsGoToBlasWithoutACopy) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(dtype));
    const Tensor a = InLayout(Layouts::kTransposed, dtype, {4, 3}, SmallValues(dtype, 12, 1));
    const Tensor b = InLayout(Layouts::kNarrowed, dtype, {3, 5}, SmallValues(dtype, 15, 2));
    const Tensor c = InLayout(Layouts::kTransposed, dtype, {4, 5}, SmallValues(dtype, 20, 3));
    const Tensor batches =
        InLayout(Layouts::kTransposed, dtype, {2, 4, 3}, SmallValues(dtype, 24, 4));
    const Tensor vector = InLayout(Layouts::kStrided, dtype, {3}, SmallValues(dtype, 3, 5));
    CountingAllocator counting;
    EXPECT_OK(Product(BlasOp::kMm, c, a, b, counting));
    EXPECT_OK(AddProduct(BlasOp::kAddmm, c, 2, c, 1, a, b, counting));
    EXPECT_OK(AddProduct(BlasOp::kAddbmm, Must(Tensor::Zeros(dtype, {4, 5})), 1,
                         Must(Tensor::Zeros(dtype, {4, 5})), 1, batches,
                         Must(Tensor::Zeros(dtype, {2, 3, 5})), counting));
    EXPECT_OK(Product(BlasOp::kMv, Must(Tensor::Zeros(dtype, {4})), a, vector, counting));
    EXPECT_OK(Product(BlasOp::kGer, c, Must(a.Select(1, 0)), Must(b.Select(0, 1)), counting));
    EXPECT_EQ(counting.count, 0);
    // Layouts BLAS cannot take are compacted, once per operand.
    const Tensor reversed = InLayout(Layouts::kReversed, dtype, {4, 3}, SmallValues(dtype, 12, 1));
    EXPECT_OK(Product(BlasOp::kMm, c, reversed, b, counting));
    EXPECT_EQ(counting.count, 1);
    // So is a destination that overlaps an operand: computed in a temporary.
    const Tensor square = InLayout(Layouts::kContiguous, dtype, {3, 3}, SmallValues(dtype, 9, 1));
    EXPECT_OK(Product(BlasOp::kMm, square, square, Must(square.Transpose(0, 1)), counting));
    EXPECT_EQ(counting.count, 2);
  }
}

TEST(BlasErrorTest, OperandShapesAreCheckedAndNamed) {
  const Tensor m23 = Must(Tensor::Zeros(DType::kFloat64, {2, 3}));
  const Tensor m22 = Must(Tensor::Zeros(DType::kFloat64, {2, 2}));
  const Tensor v3 = Must(Tensor::Zeros(DType::kFloat64, {3}));
  const Tensor v2 = Must(Tensor::Zeros(DType::kFloat64, {2}));
  const Tensor b234 = Must(Tensor::Zeros(DType::kFloat64, {2, 3, 4}));
  const Tensor b342 = Must(Tensor::Zeros(DType::kFloat64, {3, 4, 2}));
  const Tensor b232 = Must(Tensor::Zeros(DType::kFloat64, {2, 3, 2}));
  auto message = [](const absl::StatusOr<Shape>& s) { return std::string(s.status().message()); };
  EXPECT_EQ(message(BlasResultShape(BlasOp::kMm, m23, m23)),
            "mm: mat1 [2, 3] and mat2 [2, 3] do not fit: mat1 has 3 columns, mat2 2 rows");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kMm, v3, m23)),
            "mm: mat1 must be a matrix (rank 2), got shape [3]");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kAddmv, m23, v2)),
            "addmv: mat [2, 3] and vec2 [2] do not fit: mat has 3 columns, vec2 2 entries");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kMv, m23, m23)),
            "mv: vec must be a vector (rank 1), got shape [2, 3]");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kGer, m23, v2)),
            "ger: vec1 must be a vector (rank 1), got shape [2, 3]");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kBmm, b234, b342)),
            "bmm: batch1 [2, 3, 4] and batch2 [3, 4, 2] hold 2 and 3 matrices");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kBaddbmm, b234, b232)),
            "baddbmm: batch1 [2, 3, 4] and batch2 [2, 3, 2] do not fit: the matrices of batch1 "
            "have 4 columns, those of batch2 3 rows");
  EXPECT_EQ(message(BlasResultShape(BlasOp::kAddbmm, m23, b232)),
            "addbmm: batch1 must be a batch of matrices (rank 3), got shape [2, 3]");
  EXPECT_THAT(Must(BlasResultShape(BlasOp::kGer, v3, v2)), ElementsAre(3, 2));
  EXPECT_THAT(
      Must(BlasResultShape(BlasOp::kAddbmm, b234, Must(Tensor::Zeros(DType::kFloat64, {2, 4, 5})))),
      ElementsAre(3, 5));
  // The destination and the add term must have the product's shape.
  EXPECT_EQ(AddProduct(BlasOp::kAddmm, m23, 1, m22, 1, m22, m22).message(),
            "addmm: the result [2, 3] does not match the product's shape [2, 2]");
  EXPECT_EQ(AddProduct(BlasOp::kAddmm, m22, 1, m23, 1, m22, m22).message(),
            "addmm: M [2, 3] does not match the product's shape [2, 2]");
  EXPECT_EQ(AddProduct(BlasOp::kAddr, m22, 1, v2, 1, v2, v2).message(),
            "addr: mat [2] does not match the product's shape [2, 2]");
}

TEST(BlasErrorTest, DTypesScalarsAndDestinationsAreChecked) {
  const Tensor d = Must(Tensor::Zeros(DType::kFloat64, {2, 2}));
  const Tensor f = Must(Tensor::Zeros(DType::kFloat32, {2, 2}));
  const Tensor i = Must(Tensor::Zeros(DType::kInt32, {2, 2}));
  const Tensor u = Must(Tensor::Zeros(DType::kUInt8, {2, 2}));
  const Tensor b = Must(Tensor::Zeros(DType::kBool, {2, 2}));
  EXPECT_EQ(Product(BlasOp::kMm, d, d, f).message(),
            "mm: the tensors are float64 and float32; they must have the same type");
  EXPECT_EQ(Product(BlasOp::kMm, f, d, d).message(),
            "mm: the tensors are float32 and float64; they must have the same type");
  EXPECT_THAT(AddProduct(BlasOp::kAddmm, d, 1, f, 1, d, d).message(), HasSubstr("float32"));
  EXPECT_EQ(Product(BlasOp::kMm, b, b, b).message(),
            "mm: matrix products are not defined for bool tensors");
  EXPECT_EQ(AddProduct(BlasOp::kAddmm, i, 0.5, i, 1, i, i).message(),
            "addmm: beta 0.5 is not a value of int32");
  EXPECT_EQ(AddProduct(BlasOp::kAddmm, u, 1, u, -1, u, u).message(),
            "addmm: alpha -1 is not a value of uint8");
  EXPECT_OK(AddProduct(BlasOp::kAddmm, d, 0.5, d, -1, d, d));
  const Tensor expanded = Must(Must(Tensor::Zeros(DType::kFloat64, {1, 2})).Expand({2, 2}));
  EXPECT_THAT(Product(BlasOp::kMm, expanded, d, d).message(), HasSubstr("share memory"));
}

TEST(BlasErrorTest, FailedCallsLeaveTheDestinationUnchanged) {
  const Tensor out = Must(TensorOf(DType::kFloat64, {2, 2}, {1, 2, 3, 4}));
  const Tensor wrong = Must(Tensor::Zeros(DType::kFloat64, {3, 3}));
  EXPECT_FALSE(Product(BlasOp::kMm, out, wrong, wrong).ok());
  EXPECT_FALSE(AddProduct(BlasOp::kAddmm, out, 1, wrong, 1, out, out).ok());
  const Tensor ints = Must(TensorOf(DType::kInt32, {2, 2}, {1, 2, 3, 4}));
  EXPECT_FALSE(AddProduct(BlasOp::kAddmm, ints, 1, ints, 0.25, ints, ints).ok());
  EXPECT_THAT(Doubles(out), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(Doubles(ints), ElementsAre(1, 2, 3, 4));
}

TEST(BlasValidityTest, RevokedTensorInAnyPlaceIsAnErrorAndNothingIsWritten) {
  for (DType dtype : {DType::kFloat64, DType::kInt32}) {
    SCOPED_TRACE(DTypeName(dtype));
    LentTensor lent(dtype, {2, 2}, {1, 2, 3, 4}, "observation 'MAT'");
    const Tensor transposed = Must(lent.tensor().Transpose(0, 1));
    const Tensor owned = Must(TensorOf(dtype, {2, 2}, {5, 6, 7, 8}));
    const auto before = lent.Bytes();
    lent.Revoke();
    for (const Tensor& invalid : {lent.tensor(), transposed}) {
      ExpectInvalid(AddProduct(BlasOp::kAddmm, invalid, 1, owned, 1, owned, owned), lent.lender());
      ExpectInvalid(AddProduct(BlasOp::kAddmm, owned, 1, invalid, 1, owned, owned), lent.lender());
      ExpectInvalid(AddProduct(BlasOp::kAddmm, owned, 1, owned, 1, invalid, owned), lent.lender());
      ExpectInvalid(AddProduct(BlasOp::kAddmm, owned, 1, owned, 1, owned, invalid), lent.lender());
    }
    EXPECT_EQ(lent.Bytes(), before);
    EXPECT_THAT(Doubles(owned), ElementsAre(5, 6, 7, 8));
  }
}

}  // namespace
}  // namespace tensor
