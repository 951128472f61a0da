// Helpers shared by the tests of the tensor core's operations
// (elementwise, reduce, compare, convert, matmul, blas, conv, print, ...).
//
// Values cross the helpers as doubles so that one test body can run over
// every dtype; every dtype used here holds the small integers the tests use
// exactly.
#ifndef TESTS_TENSOR_OP_TEST_SUPPORT_H_
#define TESTS_TENSOR_OP_TEST_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/dtype.h"
#include "tensor/half.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"
#include "tests/tensor/status_matchers.h"

namespace tensor::testing {

#define TT_CONCAT_INNER_(a, b) a##b
#define TT_CONCAT_(a, b) TT_CONCAT_INNER_(a, b)

#define ASSERT_OK(expr)                                                  \
  do {                                                                   \
    const absl::Status tt_status_ = ::tensor_testing::GetStatus((expr)); \
    ASSERT_TRUE(tt_status_.ok()) << tt_status_;                          \
  } while (0)

#define EXPECT_OK(expr)                                                  \
  do {                                                                   \
    const absl::Status tt_status_ = ::tensor_testing::GetStatus((expr)); \
    EXPECT_TRUE(tt_status_.ok()) << tt_status_;                          \
  } while (0)

#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL_(TT_CONCAT_(tt_status_or_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL_(status_or, lhs, expr) \
  auto status_or = (expr);                               \
  ASSERT_TRUE(status_or.ok()) << status_or.status();     \
  lhs = std::move(status_or).value()

// The value of `status_or`, or (after recording a failure at the caller) a
// default-constructed T. For building fixtures inside helpers that cannot
// use ASSERT_*.
template <typename T>
T Must(absl::StatusOr<T> status_or, std::source_location where = std::source_location::current()) {
  if (!status_or.ok()) {
    ADD_FAILURE_AT(where.file_name(), where.line()) << status_or.status();
    return T{};
  }
  return *std::move(status_or);
}

template <typename T>
inline constexpr bool kIsHalf = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <typename T>
T FromDouble(double value) {
  if constexpr (kIsHalf<T>) {
    return T(static_cast<float>(value));
  } else {
    return static_cast<T>(value);
  }
}

template <typename T>
double ToDouble(T value) {
  if constexpr (kIsHalf<T>) {
    return static_cast<double>(static_cast<float>(value));
  } else {
    return static_cast<double>(value);
  }
}

// A new owned row-major tensor of `dtype` holding `values` (converted with
// FromDouble).
inline absl::StatusOr<Tensor> TensorOf(DType dtype, absl::Span<const Index> shape,
                                       const std::vector<double>& values) {
  return DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Not std::vector<T>: std::vector<bool> has no data().
    std::unique_ptr<T[]> typed(new T[values.size()]);
    for (std::size_t i = 0; i < values.size(); ++i) typed[i] = FromDouble<T>(values[i]);
    return MakeTensor<T>(shape, absl::Span<const T>(typed.get(), values.size()));
  });
}

// Every element of `t` in row-major order of its own shape, as doubles.
inline absl::StatusOr<std::vector<double>> ReadDoubles(const Tensor& t) {
  return DispatchDType(t.dtype(), [&](auto tag) -> absl::StatusOr<std::vector<double>> {
    using T = typename decltype(tag)::type;
    absl::StatusOr<TypedView<T>> view = TypedView<T>::Of(t);
    if (!view.ok()) return view.status();
    absl::StatusOr<std::vector<T>> typed = view->ToVector();
    if (!typed.ok()) return typed.status();
    std::vector<double> values;
    values.reserve(typed->size());
    for (const T& v : *typed) values.push_back(ToDouble(v));
    return values;
  });
}

// ReadDoubles, recording a failure at the caller if it fails.
inline std::vector<double> Doubles(const Tensor& t,
                                   std::source_location where = std::source_location::current()) {
  return Must(ReadDoubles(t), where);
}

// Every element of `t`, which must hold T, in row-major order.
template <typename T>
std::vector<T> ValuesOf(const Tensor& t,
                        std::source_location where = std::source_location::current()) {
  absl::StatusOr<TypedView<T>> view = TypedView<T>::Of(t);
  if (!view.ok()) {
    ADD_FAILURE_AT(where.file_name(), where.line()) << view.status();
    return {};
  }
  return Must(view->ToVector(), where);
}

// 0, 1, ..., n-1 scaled and shifted: start, start + step, ...
inline std::vector<double> Iota(Index n, double start = 1, double step = 1) {
  std::vector<double> values(n);
  for (Index i = 0; i < n; ++i) values[i] = start + step * static_cast<double>(i);
  return values;
}

// Calls fn(index) for every index of `shape` in row-major order.
inline void ForEachIndex(absl::Span<const Index> shape,
                         const std::function<void(const Shape&)>& fn) {
  if (shape.empty()) return;
  for (Index extent : shape) {
    if (extent == 0) return;
  }
  Shape index(shape.size(), 0);
  while (true) {
    fn(index);
    int d = static_cast<int>(shape.size()) - 1;
    while (d >= 0 && ++index[d] == shape[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

// Expects the error a revoked loan gives: FailedPrecondition mentioning
// "invalid" and the lender.
inline void ExpectInvalid(const absl::Status& status, const std::string& lender,
                          std::source_location where = std::source_location::current()) {
  SCOPED_TRACE(::testing::Message() << "called from " << where.file_name() << ":" << where.line());
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(std::string(status.message()), ::testing::HasSubstr("invalid"));
  EXPECT_THAT(std::string(status.message()), ::testing::HasSubstr(lender));
}

// A contiguous tensor over a buffer this object owns and lends under a
// revocable Loan. The buffer stays readable here after the loan ends, so a
// test can check that nothing was written through a revoked tensor.
class LentTensor {
 public:
  LentTensor(DType dtype, absl::Span<const Index> shape, const std::vector<double>& values,
             std::string lender)
      : loan_(Loan::Create(std::move(lender))) {
    Tensor owned = Must(TensorOf(dtype, shape, values));
    const std::size_t bytes = static_cast<std::size_t>(owned.num_elements()) * owned.item_size();
    // At least one byte, so the data pointer is never null.
    buffer_ = std::make_unique<std::byte[]>(bytes + 1);
    if (bytes > 0) std::memcpy(buffer_.get(), Must(owned.data()), bytes);
    bytes_ = bytes;
    tensor_ =
        Must(Tensor::Lend(dtype, Must(Layout::Contiguous(shape)), buffer_.get(), bytes, loan_));
  }

  const Tensor& tensor() const { return tensor_; }
  void Revoke() { loan_->Revoke(); }
  const std::string& lender() const { return loan_->lender(); }

  // The lent bytes as they are now (readable after the loan ended).
  std::vector<std::byte> Bytes() const {
    return std::vector<std::byte>(buffer_.get(), buffer_.get() + bytes_);
  }

 private:
  std::shared_ptr<Loan> loan_;
  std::unique_ptr<std::byte[]> buffer_;
  std::size_t bytes_ = 0;
  Tensor tensor_;
};

// Names typed-test instances after the dtype ("float32", "uint8", ...).
struct DTypeNames {
  template <typename T>
  static std::string GetName(int) {
    return DTypeName(DTypeOf<T>());
  }
};

// Wraps an exact integer result to T as two's complement arithmetic does.
template <typename T>
T WrapTo(std::int64_t value) {
  static_assert(kIsInteger<T>);
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint64_t>(value)));
}

// An exact result as the type T holds it: wrapped for integers, rounded
// once for floating types.
template <typename T>
double AsStored(double exact) {
  if constexpr (kIsInteger<T>) {
    return ToDouble(WrapTo<T>(static_cast<std::int64_t>(exact)));
  } else {
    return ToDouble(FromDouble<T>(exact));
  }
}

// AsStored of each of `exact`.
template <typename T>
std::vector<double> AsStored(const std::vector<double>& exact) {
  std::vector<double> stored;
  stored.reserve(exact.size());
  for (double v : exact) stored.push_back(AsStored<T>(v));
  return stored;
}

// The element types with arithmetic: all but bool.
using NumericTypes = ::testing::Types<std::uint8_t, std::int8_t, std::int16_t, std::int32_t,
                                      std::int64_t, Float16, BFloat16, float, double>;

// A tensor and what it is, for SCOPED_TRACE.
struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// Views of `base` (shape {4, 6}) in every kind of layout the core has:
// transposed, narrowed, reversed, selected, reshaped and permuted,
// expanded (stride 0), unfolded (overlapping windows) and empty. Each test
// picks the values of `base` that suit it.
inline std::vector<NamedTensor> EveryLayoutOf(const Tensor& base) {
  return {
      {"contiguous", base},
      {"transposed", Must(base.Transpose(0, 1))},
      {"narrowed", Must(base.Narrow(1, 1, 4))},
      {"reversed", Must(base.Reverse(0))},
      {"reversed_columns", Must(base.Reverse(1))},
      {"reversed_twice", Must(Must(base.Reverse(0)).Reverse(1))},
      {"narrowed_twice_and_transposed",
       Must(Must(Must(base.Narrow(0, 1, 2)).Narrow(1, 2, 3)).Transpose(0, 1))},
      {"selected_column", Must(base.Select(1, 2))},
      {"reshaped_and_permuted", Must(Must(base.Reshape({2, 2, 6})).Permute({2, 0, 1}))},
      {"expanded", Must(Must(base.Narrow(0, 1, 1)).Expand({3, 6}))},
      {"unfolded", Must(Must(base.Select(0, 0)).Unfold(0, 3, 1))},
      {"empty", Must(base.Narrow(1, 2, 0))},
  };
}

}  // namespace tensor::testing

#endif  // TESTS_TENSOR_OP_TEST_SUPPORT_H_
