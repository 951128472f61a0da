// ApplyScalarsInDouble on integer tensors (DeepMind Lab's arithmetic): a
// contiguous tensor takes the vectorised pass of
// tensor/internal/in_double_kernels.h, a strided view the element-by-element
// path. Both must give the same results and the same errors, at every
// vector width this processor has.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/internal/vector_width.h"
#include "tensor/tensor.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using ::tensor::testing::Doubles;
using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;

// Random values of `dtype`, some of them its extremes.
std::vector<double> RandomIntegers(DType dtype, Index n, std::mt19937& random) {
  double lowest = 0, highest = 0;
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      lowest = static_cast<double>(std::numeric_limits<T>::min());
      highest = static_cast<double>(std::numeric_limits<T>::max());
    }
  });
  // Within +-2^40 for the wide types, so that adding and multiplying fit.
  const double span = std::min(highest, 1099511627776.0);
  std::uniform_real_distribution<double> uniform(std::max(lowest, -span), span);
  std::uniform_int_distribution<int> pick(0, 99);
  std::vector<double> values(n);
  for (double& v : values) {
    const int k = pick(random);
    v = k == 0 ? lowest : k == 1 ? highest : std::trunc(uniform(random));
  }
  return values;
}

TEST(ScalarsInDoubleTest, ContiguousTensorsMatchTheElementByElementPath) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const DType kIntegers[] = {DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32,
                             DType::kInt64};
  const ElementOp kOps[] = {ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul, ElementOp::kDiv};
  const double kValues[] = {3, -2.5, 0.5, 7, -1, 1e300, -1e300, kNaN, kInf, -kInf, 0, -0.0};
  const Index kSizes[] = {2, 17, 100, 4097};  // one element would be contiguous either way
  std::mt19937 random(7);
  int fitted = 0, refused = 0;
  for (internal::VectorWidth width :
       {internal::VectorWidth::kBaseline, internal::VectorWidth::kAvx2,
        internal::VectorWidth::kAvx512}) {
    if (!internal::UseVectorWidth(width)) continue;
    for (DType dtype : kIntegers) {
      for (Index n : kSizes) {
        for (ElementOp op : kOps) {
          for (double v : kValues) {
            const std::vector<double> values = RandomIntegers(dtype, n, random);
            std::vector<double> interleaved(2 * n, 0);
            for (Index i = 0; i < n; ++i) interleaved[2 * i] = values[i];
            Tensor dense = Must(TensorOf(dtype, {n}, values));
            Tensor strided = Must(Must(TensorOf(dtype, {n, 2}, interleaved)).Select(1, 0));
            ASSERT_TRUE(dense.layout().IsContiguous());
            ASSERT_FALSE(strided.layout().IsContiguous());
            const absl::Status dense_status = ApplyScalarsInDouble(dense, op, {v});
            const absl::Status strided_status = ApplyScalarsInDouble(strided, op, {v});
            ASSERT_EQ(dense_status, strided_status)
                << DTypeName(dtype) << " op " << static_cast<int>(op) << " " << v << " over " << n
                << " at " << internal::VectorWidthName(width);
            ASSERT_EQ(Doubles(dense), Doubles(strided))
                << DTypeName(dtype) << " op " << static_cast<int>(op) << " " << v << " over " << n
                << " at " << internal::VectorWidthName(width);
            ++(dense_status.ok() ? fitted : refused);
          }
        }
      }
    }
  }
  internal::UseVectorWidth(internal::SupportedVectorWidth());
  EXPECT_GT(fitted, 100);
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace tensor
