// Every family of dense kernels gives the baseline's bits at every vector
// width this processor runs (tensor/internal/vector_width.h): scalar and
// component arithmetic, copies and conversions, element-wise maths,
// comparisons and reductions, on random inputs of every dtype, at edge
// sizes (0, 1, the vector widths +- 1, where AVX-512 changes vector size
// for loops over several arrays) and unaligned starts.
//
// Each width is forced in turn with UseVectorWidth; the widths this
// processor lacks cannot be forced, and the log says which ran.
#include "tensor/internal/vector_width.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tensor/convert.h"
#include "tensor/elementwise.h"
#include "tensor/elementwise_binary.h"
#include "tensor/elementwise_compare.h"
#include "tensor/elementwise_ternary.h"
#include "tensor/elementwise_unary.h"
#include "tensor/reduce.h"
#include "tensor/reduce_dim.h"
#include "tensor/statistics.h"
#include "tests/tensor/op_test_support.h"

namespace tensor {
namespace {

using internal::ActiveVectorWidth;
using internal::SupportedVectorWidth;
using internal::UseVectorWidth;
using internal::VectorWidth;
using testing::Must;
using testing::TensorOf;

constexpr VectorWidth kAllWidths[] = {VectorWidth::kBaseline, VectorWidth::kAvx2,
                                      VectorWidth::kAvx512};

// The operands of one case: three tensors of one dtype and length, each a
// view that starts `offset` elements (or offset + 1, + 2) into its storage.
struct Operands {
  Tensor x, y, z;
};

bool IsFloatingDType(DType dtype) {
  return dtype == DType::kFloat16 || dtype == DType::kBFloat16 || dtype == DType::kFloat32 ||
         dtype == DType::kFloat64;
}

// Random values that `dtype` holds, with its edge values among them: NaN,
// infinities and signed zeros for floating types; the extremes of integer
// ones (where arithmetic wraps).
std::vector<double> RandomValues(DType dtype, Index n, std::mt19937& random) {
  std::vector<double> values(n);
  std::uniform_int_distribution<int> pick(0, 15);
  std::normal_distribution<double> normal(0, 20);
  for (double& v : values) {
    if (dtype == DType::kBool) {
      v = pick(random) % 2;
    } else if (IsFloatingDType(dtype)) {
      static constexpr double kEdges[] = {std::numeric_limits<double>::quiet_NaN(),
                                          std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity(), -0.0, 0.0,
                                          1e-30};
      const int k = pick(random);
      v = k < static_cast<int>(std::size(kEdges)) && pick(random) < 4 ? kEdges[k] : normal(random);
    } else {
      const auto [lowest, highest] = DispatchDType(dtype, [](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
          return std::pair<double, double>(static_cast<double>(std::numeric_limits<T>::lowest()),
                                           static_cast<double>(std::numeric_limits<T>::max()));
        } else {
          return std::pair<double, double>(0, 0);  // not reached: floating types are above
        }
      });
      const int k = pick(random);
      v = k == 0 ? lowest : k == 1 ? highest : std::round(normal(random));
      v = std::min(highest, std::max(lowest, v));
    }
  }
  return values;
}

// A length-n view starting `offset` elements into a tensor of random values.
Tensor RandomView(DType dtype, Index n, Index offset, std::mt19937& random) {
  Tensor base = Must(TensorOf(dtype, {n + offset}, RandomValues(dtype, n + offset, random)));
  return Must(base.Narrow(0, offset, n));
}

Operands MakeOperands(DType dtype, Index n, Index offset, std::uint32_t seed) {
  std::mt19937 random(seed);
  Tensor x = RandomView(dtype, n, offset, random);
  Tensor y = RandomView(dtype, n, (offset + 1) % 4, random);
  Tensor z = RandomView(dtype, n, (offset + 2) % 4, random);
  return {std::move(x), std::move(y), std::move(z)};
}

// The bytes of a contiguous tensor.
std::string BytesOf(const Tensor& t) {
  const std::byte* data = Must(t.data());
  return std::string(reinterpret_cast<const char*>(data), t.num_elements() * t.item_size());
}

// A reduction's result: its bits, except that every NaN reads the same.
// Which NaN a sum of NaNs and infinities gives (its sign) depends on the
// order of each addition's operands, which the compiler may swap.
std::string ReducedBytesOf(const Tensor& t) {
  std::string bytes = BytesOf(t);
  DispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_integral_v<T>) {
      for (std::size_t at = 0; at + sizeof(T) <= bytes.size(); at += sizeof(T)) {
        T value;
        std::memcpy(&value, bytes.data() + at, sizeof(T));
        if (std::isnan(testing::ToDouble(value))) bytes.replace(at, sizeof(T), sizeof(T), 'N');
      }
    }
  });
  return bytes;
}

std::string ReducedBytesOf(double value) {
  if (std::isnan(value)) return "NaN";
  return std::string(reinterpret_cast<const char*>(&value), sizeof value);
}

// What a case did: its error, or the bytes of its result and of x after it.
std::string Outcome(const absl::Status& status, const Operands& in, const std::string& result = "") {
  if (!status.ok()) return absl::StrCat("error: ", status.message());
  return absl::StrCat(result, "|", BytesOf(in.x));
}

template <typename V>
std::string Outcome(const absl::StatusOr<V>& result, const Operands& in) {
  if (!result.ok()) return Outcome(result.status(), in);
  return Outcome(absl::OkStatus(), in, BytesOf(*result));
}

template <typename V>
std::string ReducedOutcome(const absl::StatusOr<V>& result, const Operands& in) {
  if (!result.ok()) return Outcome(result.status(), in);
  if constexpr (std::is_same_v<V, ValuesAndIndices>) {
    return Outcome(absl::OkStatus(), in,
                   ReducedBytesOf(result->values) + BytesOf(result->indices));
  } else {
    return Outcome(absl::OkStatus(), in, ReducedBytesOf(*result));
  }
}

using Case = std::pair<std::string, std::function<std::string(const Operands&)>>;

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  auto add = [&cases](std::string name, std::function<std::string(const Operands&)> run) {
    cases.emplace_back(std::move(name), std::move(run));
  };
  const std::pair<const char*, ElementOp> ops[] = {
      {"fill", ElementOp::kAssign}, {"add", ElementOp::kAdd}, {"sub", ElementOp::kSub},
      {"mul", ElementOp::kMul},     {"div", ElementOp::kDiv}};
  for (const auto& [name, op] : ops) {
    add(absl::StrCat(name, " 3"),
        [op](const Operands& in) { return Outcome(ApplyScalars(in.x, op, {3.0}), in); });
    add(absl::StrCat(name, " -0.75"),
        [op](const Operands& in) { return Outcome(ApplyScalars(in.x, op, {-0.75}), in); });
    add(absl::StrCat(name, " tensor"),
        [op](const Operands& in) { return Outcome(ApplyComponents(in.x, op, in.y), in); });
  }
  for (DType to : kAllDTypes) {
    add(absl::StrCat("convert to ", DTypeName(to)),
        [to](const Operands& in) { return Outcome(Convert(in.x, to), in); });
  }
  for (int f = 0; f <= static_cast<int>(UnaryFunction::kFrac); ++f) {
    const auto function = static_cast<UnaryFunction>(f);
    add(UnaryFunctionName(function),
        [function](const Operands& in) { return Outcome(ApplyUnary(in.x, function), in); });
  }
  for (int f = 0; f <= static_cast<int>(BinaryFunction::kAtan2); ++f) {
    const auto function = static_cast<BinaryFunction>(f);
    add(absl::StrCat(BinaryScalarName(function), " 3"), [function](const Operands& in) {
      return Outcome(ApplyBinaryScalar(in.x, function, 3), in);
    });
    add(BinaryTensorName(function), [function](const Operands& in) {
      return Outcome(ApplyBinaryTensor(in.x, function, in.y), in);
    });
  }
  const std::pair<const char*, Rounding> roundings[] = {
      {"floor", Rounding::kFloor}, {"ceil", Rounding::kCeil}, {"round", Rounding::kRound}};
  for (const auto& [name, rounding] : roundings) {
    add(name, [rounding](const Operands& in) { return Outcome(Round(in.x, rounding), in); });
  }
  add("clamp -3 5", [](const Operands& in) { return Outcome(Clamp(in.x, -3, 5), in); });
  add("clamp 2", [](const Operands& in) { return Outcome(Clamp(in.x, 2, std::nullopt), in); });
  add("add scaled", [](const Operands& in) { return Outcome(AddScaled(in.x, 2, in.y), in); });
  add("addcmul", [](const Operands& in) { return Outcome(AddCMul(in.x, 2, in.y, in.z), in); });
  add("addcdiv", [](const Operands& in) { return Outcome(AddCDiv(in.x, 2, in.y, in.z), in); });
  add("lerp", [](const Operands& in) { return Outcome(Lerp(in.x, in.y, 0.25), in); });
  for (int c = 0; c <= static_cast<int>(CompareOp::kNe); ++c) {
    const auto op = static_cast<CompareOp>(c);
    add(absl::StrCat(CompareOpName(op), " 1"),
        [op](const Operands& in) { return Outcome(CompareScalar(in.x, op, 1), in); });
    add(absl::StrCat(CompareOpName(op), " tensor"),
        [op](const Operands& in) { return Outcome(CompareTensor(in.x, op, in.y), in); });
  }
  auto add_statistic = [&add](std::string name, std::function<absl::StatusOr<double>(const Operands&)> f) {
    add(std::move(name), [f](const Operands& in) { return ReducedOutcome(f(in), in); });
  };
  add_statistic("sum", [](const Operands& in) { return Sum(in.x); });
  add_statistic("product", [](const Operands& in) { return Product(in.x); });
  add_statistic("lengthSquared", [](const Operands& in) { return LengthSquared(in.x); });
  add_statistic("dot", [](const Operands& in) { return Dot(in.x, in.y); });
  add_statistic("max", [](const Operands& in) { return ExtremeOf(in.x, Extreme::kMax); });
  add_statistic("min", [](const Operands& in) { return ExtremeOf(in.x, Extreme::kMin); });
  add_statistic("mean", [](const Operands& in) { return MeanOf(in.x); });
  for (double p : {0.0, 1.0, 2.0, 3.0, std::numeric_limits<double>::infinity()}) {
    add_statistic(absl::StrCat("norm ", p), [p](const Operands& in) { return NormOf(in.x, p); });
    add(absl::StrCat("norm along 1, p ", p),
        [p](const Operands& in) { return ReducedOutcome(NormAlong(in.x, p, 1), in); });
  }
  add("sum along 1", [](const Operands& in) { return ReducedOutcome(SumAlong(in.x, 1), in); });
  add("mean along 1", [](const Operands& in) { return ReducedOutcome(MeanAlong(in.x, 1), in); });
  add("max along 1",
      [](const Operands& in) { return ReducedOutcome(ExtremeAlong(in.x, 1, Extreme::kMax, 1), in); });
  add("min along 1",
      [](const Operands& in) { return ReducedOutcome(ExtremeAlong(in.x, 1, Extreme::kMin, 1), in); });
  return cases;
}

// Puts back the processor's own width after each test.
class VectorWidthTest : public ::testing::Test {
 protected:
  void TearDown() override { ASSERT_TRUE(UseVectorWidth(SupportedVectorWidth())); }
};

TEST_F(VectorWidthTest, OnlyTheWidthsThisProcessorRunsCanBeForced) {
  for (VectorWidth width : kAllWidths) {
    const bool supported = static_cast<int>(width) <= static_cast<int>(SupportedVectorWidth());
    EXPECT_EQ(UseVectorWidth(width), supported) << internal::VectorWidthName(width);
    if (supported) {
      EXPECT_EQ(ActiveVectorWidth(), width);
    }
  }
  std::cout << "this processor's widest vector width: "
            << internal::VectorWidthName(SupportedVectorWidth()) << "\n";
}

TEST_F(VectorWidthTest, KernelsAtEveryWidthGiveTheBaselinesBits) {
  const std::vector<Case> cases = AllCases();
  // Past kLongestLoopOn512Bits, AVX-512 loops over several arrays use
  // 256-bit vectors: set here whatever this processor's own choice, so that
  // both sides of the switch run on every AVX-512 machine.
  constexpr Index k512 = internal::kLongestLoopOn512Bits;
  struct Restore {
    std::int64_t chosen;
    ~Restore() { internal::SetLongestLoopOn512Bits(chosen); }
  } restore{internal::SetLongestLoopOn512Bits(k512)};
  const Index kSizes[] = {0,  1,  2,  3,  4,  5,  7,   8,    9,    15,      16,
                          17, 31, 32, 33, 63, 64, 65, 129, 1000, k512, k512 + 1};
  std::vector<VectorWidth> wider;
  for (VectorWidth width : kAllWidths) {
    if (width != VectorWidth::kBaseline && UseVectorWidth(width)) wider.push_back(width);
  }
  std::string ran = "baseline";
  for (VectorWidth width : wider) absl::StrAppend(&ran, ", ", internal::VectorWidthName(width));
  std::cout << "vector widths compared: " << ran << "\n";
  RecordProperty("vector_widths", ran);
  int compared = 0;
  std::uint32_t seed = 1;
  for (DType dtype : kAllDTypes) {
    for (Index n : kSizes) {
      for (Index offset : {0, 1, 3}) {
        ++seed;
        for (const auto& [name, run] : cases) {
          ASSERT_TRUE(UseVectorWidth(VectorWidth::kBaseline));
          // The 1-D view as a 1 x n matrix, so that the "along 1" cases
          // reduce one dense line.
          Operands in = MakeOperands(dtype, n, offset, seed);
          auto as_row = [](Operands o) {
            for (Tensor* t : {&o.x, &o.y, &o.z}) *t = Must(t->Reshape({1, t->num_elements()}));
            return o;
          };
          const std::string expected = run(as_row(std::move(in)));
          for (VectorWidth width : wider) {
            ASSERT_TRUE(UseVectorWidth(width));
            const std::string got = run(as_row(MakeOperands(dtype, n, offset, seed)));
            ++compared;
            ASSERT_EQ(got, expected) << name << " on " << DTypeName(dtype) << " of " << n
                                     << " elements from offset " << offset << " at "
                                     << internal::VectorWidthName(width);
          }
        }
      }
    }
  }
  std::cout << compared << " results compared with the baseline's\n";
}

}  // namespace
}  // namespace tensor
