// The CUDA DeviceOps against the CPU core: the same random inputs, every
// dtype, and several layouts (contiguous, transposed, narrowed, reversed).
//
// NB: the members are called through DeviceOpsFor(Device::Cuda(0)), the
// table that backend.cc registers, rather than through the core's entry
// points, whose device dispatch was being written alongside this backend.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/blas.h"
#include "tensor/cuda/runtime.h"
#include "tensor/device_ops.h"
#include "tensor/device_transfer.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/elementwise_compare.h"
#include "tensor/elementwise_unary.h"
#include "tensor/reduce.h"
#include "tensor/reduce_dim.h"
#include "tensor/statistics.h"
#include "tensor/tensor.h"
#include "tests/tensor/cuda/cuda_test_support.h"

namespace tensor::cuda {
namespace {

using ::testing::HasSubstr;
using testing::CpuTensor;
using testing::CudaTest;
using testing::Must;

const DeviceOps& Ops() { return *Must(DeviceOpsFor(Device::Cuda(0), "test")); }

// Random values that `dtype` holds: small nonzero integers (large enough
// that int8 and uint8 products wrap), 0 and 1 for bool, floats in
// [lo, hi).
std::vector<double> RandomValues(DType dtype, Index n, unsigned seed, double lo = -3,
                                 double hi = 3) {
  std::mt19937 rng(seed);
  std::vector<double> values(n);
  for (double& v : values) {
    if (dtype == DType::kBool) {
      v = static_cast<double>(rng() % 2);
    } else if (IsFloating(dtype)) {
      v = std::uniform_real_distribution<double>(lo, hi)(rng);
    } else {
      const int low = dtype == DType::kUInt8 ? 1 : -100;
      v = std::uniform_int_distribution<int>(low, 100)(rng);
      if (v == 0) v = 7;
    }
  }
  return values;
}

struct View {
  const char* name;
  Tensor (*of)(const Tensor&);
};

// Views of a {6, 10} base.
const View kViews[] = {
    {"contiguous", [](const Tensor& t) { return t; }},
    {"transposed", [](const Tensor& t) { return Must(t.Transpose(0, 1)); }},
    {"narrowed", [](const Tensor& t) { return Must(t.Narrow(1, 2, 5)); }},
    {"reversed", [](const Tensor& t) { return Must(t.Reverse(0)); }},
};

// The same {6, 10} random base on the CPU and on cuda:0.
std::pair<Tensor, Tensor> Bases(DType dtype, unsigned seed, double lo = -3, double hi = 3) {
  const Tensor cpu = CpuTensor(dtype, {6, 10}, RandomValues(dtype, 60, seed, lo, hi));
  return {cpu, Must(ToDevice(cpu, Device::Cuda(0)))};
}

// t's elements in row-major order, as doubles.
std::vector<double> Doubles(const Tensor& t) {
  const Tensor host = Must(ToDevice(t, Device::Cpu()));
  const Tensor wide = Must(Tensor::Uninitialized(DType::kFloat64, host.shape()));
  EXPECT_TRUE(ApplyComponents(wide, ElementOp::kAssign, host).ok());
  std::vector<double> out(wide.num_elements());
  if (!out.empty()) std::memcpy(out.data(), Must(wide.data()), out.size() * sizeof(double));
  return out;
}

// gpu == cpu element by element: NaN where cpu has NaN, else within
// `tolerance` relative to the larger of 1 and |cpu| (0: exactly, signed
// zeros included).
void ExpectMatches(const Tensor& gpu, const Tensor& cpu, double tolerance = 0) {
  ASSERT_EQ(gpu.shape(), cpu.shape());
  const std::vector<double> g = Doubles(gpu), c = Doubles(cpu);
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (std::isnan(c[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << "element " << i << ": " << g[i];
    } else if (tolerance == 0) {
      EXPECT_EQ(g[i], c[i]) << "element " << i;
      EXPECT_EQ(std::signbit(g[i]), std::signbit(c[i])) << "element " << i;
    } else {
      EXPECT_NEAR(g[i], c[i], tolerance * std::max(1.0, std::abs(c[i]))) << "element " << i;
    }
  }
}

// How far float results of `dtype` may differ between CUDA's and the
// host's math functions (a few ulps, one ulp of the half types).
double MathTolerance(DType dtype) {
  switch (dtype) {
    case DType::kFloat16: return 2e-3;
    case DType::kBFloat16: return 1.6e-2;
    case DType::kFloat32: return 1e-5;
    default: return 1e-12;
  }
}

class OpsTest : public CudaTest {};

TEST_F(OpsTest, ApplyScalarsMatchesTheCpu) {
  for (DType dtype : kAllDTypes) {
    for (ElementOp op : {ElementOp::kAssign, ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul,
                         ElementOp::kDiv}) {
      if (dtype == DType::kBool && op != ElementOp::kAssign) continue;
      for (const View& view : kViews) {
        for (bool per_entry : {false, true}) {
          SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", ElementOpName(op), " ", view.name,
                                    per_entry ? " per entry" : " one value"));
          auto [cpu_base, gpu_base] = Bases(dtype, 1);
          const Tensor cpu = view.of(cpu_base), gpu = view.of(gpu_base);
          std::vector<double> values = {IsFloating(dtype) ? 0.37 : 3.0};
          if (per_entry) values = RandomValues(dtype, cpu.shape().back(), 2);
          if (dtype == DType::kBool) values.assign(values.size(), 1);
          if (dtype == DType::kUInt8 && op == ElementOp::kSub) values.assign(values.size(), 200);
          ASSERT_OK(ApplyScalars(cpu, op, values));
          ASSERT_OK(Ops().apply_scalars(gpu, op, values));
          ExpectMatches(gpu_base, cpu_base);
        }
      }
    }
  }
}

TEST_F(OpsTest, ApplyComponentsMatchesTheCpuAcrossLayoutsAndShapes) {
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::kBool) continue;
    for (ElementOp op : {ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul, ElementOp::kDiv}) {
      for (const View& dst_view : kViews) {
        for (const View& src_view : kViews) {
          SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", ElementOpName(op), " dst ",
                                    dst_view.name, " src ", src_view.name));
          auto [cpu_dst_base, gpu_dst_base] = Bases(dtype, 3);
          auto [cpu_src_base, gpu_src_base] = Bases(dtype, 4);
          const Tensor cpu_dst = dst_view.of(cpu_dst_base), gpu_dst = dst_view.of(gpu_dst_base);
          Tensor cpu_src = src_view.of(cpu_src_base), gpu_src = src_view.of(gpu_src_base);
          if (cpu_src.num_elements() != cpu_dst.num_elements()) {
            // Pair the narrowed view with another narrowing of the same
            // count but a different shape.
            cpu_src = Must(Must(cpu_src_base.Narrow(0, 1, 5)).Narrow(1, 0, 6));
            gpu_src = Must(Must(gpu_src_base.Narrow(0, 1, 5)).Narrow(1, 0, 6));
            if (cpu_src.num_elements() != cpu_dst.num_elements()) continue;
          }
          ASSERT_OK(ApplyComponents(cpu_dst, op, cpu_src));
          ASSERT_OK(Ops().apply_components(gpu_dst, op, gpu_src));
          ExpectMatches(gpu_dst_base, cpu_dst_base);
        }
      }
    }
  }
}

TEST_F(OpsTest, ApplyComponentsReadsAnOverlappingSourceFirst) {
  for (DType dtype : {DType::kInt32, DType::kFloat32, DType::kBFloat16}) {
    SCOPED_TRACE(DTypeName(dtype));
    auto [cpu, gpu] = Bases(dtype, 5);
    ASSERT_OK(ApplyComponents(cpu, ElementOp::kAdd, Must(cpu.Reverse(1))));
    ASSERT_OK(Ops().apply_components(gpu, ElementOp::kAdd, Must(gpu.Reverse(1))));
    ExpectMatches(gpu, cpu);
    ASSERT_OK(ApplyComponents(cpu, ElementOp::kMul, Must(cpu.Transpose(0, 1))));
    ASSERT_OK(Ops().apply_components(gpu, ElementOp::kMul, Must(gpu.Transpose(0, 1))));
    ExpectMatches(gpu, cpu);
  }
}

TEST_F(OpsTest, IntegerDivisionByAZeroElementChangesNothing) {
  const Tensor dst = Must(ToDevice(CpuTensor(DType::kInt16, {3}, {6, 8, 10}), Device::Cuda(0)));
  const Tensor src = Must(ToDevice(CpuTensor(DType::kInt16, {3}, {2, 0, 5}), Device::Cuda(0)));
  const absl::Status s = Ops().apply_components(dst, ElementOp::kDiv, src);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("division by zero"));
  ExpectMatches(dst, CpuTensor(DType::kInt16, {3}, {6, 8, 10}));
  // INT_MIN / -1 wraps, as on the CPU.
  const Tensor low = Must(ToDevice(CpuTensor(DType::kInt8, {2}, {-128, 9}), Device::Cuda(0)));
  ASSERT_OK(Ops().apply_scalars(low, ElementOp::kDiv, {-1}));
  ExpectMatches(low, CpuTensor(DType::kInt8, {2}, {-128, -9}));
}

TEST_F(OpsTest, ApplyUnaryMatchesTheCpuWhereTheCpuDefinesIt) {
  for (int f = 0; f <= static_cast<int>(UnaryFunction::kFrac); ++f) {
    const auto function = static_cast<UnaryFunction>(f);
    for (DType dtype : kAllDTypes) {
      for (const View& view : kViews) {
        SCOPED_TRACE(absl::StrCat(UnaryFunctionName(function), " ", DTypeName(dtype), " ",
                                  view.name));
        // Inside (-1, 1) acos and asin are defined; negatives give log and
        // sqrt their NaNs.
        auto [cpu_base, gpu_base] = Bases(dtype, 6, -0.99, 0.99);
        const Tensor cpu = view.of(cpu_base), gpu = view.of(gpu_base);
        // The core refuses what the CPU refuses before dispatch.
        if (!ApplyUnary(cpu, function).ok()) continue;
        ASSERT_OK(Ops().apply_unary(gpu, function));
        ExpectMatches(gpu_base, cpu_base, IsFloating(dtype) ? MathTolerance(dtype) : 0);
      }
    }
  }
}

TEST_F(OpsTest, SumAndExtremesMatchTheCpu) {
  for (DType dtype : kAllDTypes) {
    for (const View& view : kViews) {
      SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", view.name));
      auto [cpu_base, gpu_base] = Bases(dtype, 7);
      const Tensor cpu = view.of(cpu_base), gpu = view.of(gpu_base);
      ASSERT_OK_AND_ASSIGN(const double expected, Sum(cpu));
      ASSERT_OK_AND_ASSIGN(const double sum, Ops().sum(gpu));
      EXPECT_NEAR(sum, expected, 1e-12 * std::max(1.0, std::abs(expected)));
      if (dtype == DType::kBool) continue;
      for (Extreme extreme : {Extreme::kMax, Extreme::kMin}) {
        EXPECT_EQ(*Ops().extreme(gpu, extreme), *ExtremeOf(cpu, extreme));
      }
    }
  }
}

TEST_F(OpsTest, ExtremesPropagateNaNAndSumsCoverManyBlocks) {
  std::vector<double> values = RandomValues(DType::kFloat32, 1 << 20, 8);
  const Tensor cpu = CpuTensor(DType::kFloat32, {1024, 1024}, values);
  const Tensor gpu = Must(ToDevice(cpu, Device::Cuda(0)));
  EXPECT_NEAR(*Ops().sum(gpu), *Sum(cpu), 1e-9 * std::abs(*Sum(cpu)) + 1e-9);
  EXPECT_EQ(*Ops().extreme(Must(gpu.Transpose(0, 1)), Extreme::kMax), *ExtremeOf(cpu, Extreme::kMax));
  values[777777] = std::nan("");
  const Tensor with_nan = Must(ToDevice(CpuTensor(DType::kFloat32, {1024, 1024}, values),
                                        Device::Cuda(0)));
  EXPECT_TRUE(std::isnan(*Ops().extreme(with_nan, Extreme::kMin)));
  EXPECT_TRUE(std::isnan(*Ops().sum(with_nan)));
}

TEST_F(OpsTest, SumAndExtremeAlongMatchTheCpu) {
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::kBool) continue;
    for (const View& view : kViews) {
      for (int dim : {0, 1}) {
        SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", view.name, " dim ", dim));
        auto [cpu_base, gpu_base] = Bases(dtype, 9);
        const Tensor cpu = view.of(cpu_base), gpu = view.of(gpu_base);
        ASSERT_OK_AND_ASSIGN(const Tensor expected, SumAlong(cpu, dim));
        const Tensor sums = Must(Tensor::Uninitialized(dtype, expected.shape(), Gpu()));
        ASSERT_OK(Ops().sum_along(gpu, dim, sums));
        ExpectMatches(sums, expected, IsFloating(dtype) ? MathTolerance(dtype) : 0);
        for (Extreme extreme : {Extreme::kMax, Extreme::kMin}) {
          ASSERT_OK_AND_ASSIGN(const ValuesAndIndices best, ExtremeAlong(cpu, dim, extreme, 1));
          const Tensor values = Must(Tensor::Uninitialized(dtype, expected.shape(), Gpu()));
          const Tensor indices =
              Must(Tensor::Uninitialized(DType::kInt64, expected.shape(), Gpu()));
          ASSERT_OK(Ops().extreme_along(gpu, dim, extreme, 1, values, indices));
          ExpectMatches(values, best.values);
          ExpectMatches(indices, best.indices);
        }
      }
    }
  }
}

TEST_F(OpsTest, AlongLongLinesTiesAndNaNs) {
  // 300 entries per line takes the warp-per-line sum; int8 values in a
  // small range tie often, so the first among equals decides.
  std::vector<double> values(900);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i * 7 % 5);
  const Tensor ints = CpuTensor(DType::kInt8, {3, 300}, values);
  const Tensor gpu_ints = Must(ToDevice(ints, Device::Cuda(0)));
  const Tensor sums = Must(Tensor::Uninitialized(DType::kInt8, {3, 1}, Gpu()));
  ASSERT_OK(Ops().sum_along(gpu_ints, 1, sums));
  ExpectMatches(sums, *SumAlong(ints, 1));  // wraps, as on the CPU
  // And the warp-per-line extremes: the first of equals, the first NaN
  // (line 1 has two, at 150 and 160: lanes 22 and 0 of its warp), and of
  // 0 and -0 the first.
  for (const Extreme extreme : {Extreme::kMax, Extreme::kMin}) {
    const Tensor best = Must(Tensor::Uninitialized(DType::kInt8, {3, 1}, Gpu()));
    const Tensor at = Must(Tensor::Uninitialized(DType::kInt64, {3, 1}, Gpu()));
    ASSERT_OK(Ops().extreme_along(gpu_ints, 1, extreme, 1, best, at));
    const ValuesAndIndices expected = *ExtremeAlong(ints, 1, extreme, 1);
    ExpectMatches(best, expected.values);
    ExpectMatches(at, expected.indices);
  }
  values[450] = std::nan("");
  values[460] = std::nan("");
  values[1] = -0.0;  // line 0's smallest: 0 at 0, then -0 at 1
  for (DType dtype : {DType::kFloat64, DType::kFloat16}) {
    const Tensor floats = CpuTensor(dtype, {3, 300}, values);
    const Tensor gpu_floats = Must(ToDevice(floats, Device::Cuda(0)));
    for (const Extreme extreme : {Extreme::kMax, Extreme::kMin}) {
      SCOPED_TRACE(absl::StrCat(DTypeName(dtype), extreme == Extreme::kMax ? " max" : " min"));
      const Tensor best = Must(Tensor::Uninitialized(dtype, {3, 1}, Gpu()));
      const Tensor at = Must(Tensor::Uninitialized(DType::kInt64, {3, 1}, Gpu()));
      ASSERT_OK(Ops().extreme_along(gpu_floats, 1, extreme, 0, best, at));
      const ValuesAndIndices expected = *ExtremeAlong(floats, 1, extreme, 0);
      ExpectMatches(best, expected.values);
      ExpectMatches(at, expected.indices);
    }
  }
}

TEST_F(OpsTest, ComparisonsMatchTheCpu) {
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::kBool) continue;
    for (int o = 0; o <= static_cast<int>(CompareOp::kNe); ++o) {
      const auto op = static_cast<CompareOp>(o);
      for (const View& view : kViews) {
        SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", CompareOpName(op), " ", view.name));
        auto [cpu_base, gpu_base] = Bases(dtype, 10);
        const Tensor cpu = view.of(cpu_base), gpu = view.of(gpu_base);
        for (double value : {2.5, 7.0, -1e30, 1e30, std::nan("")}) {
          const Tensor mask = Must(Tensor::Uninitialized(DType::kUInt8, cpu.shape(), Gpu()));
          ASSERT_OK(Ops().compare_scalar(gpu, op, value, mask));
          ExpectMatches(mask, *CompareScalar(cpu, op, value));
        }
        auto [cpu_other, gpu_other] = Bases(dtype, 11);
        for (const View& other : kViews) {
          const Tensor y = other.of(cpu_other), gpu_y = other.of(gpu_other);
          if (y.num_elements() != cpu.num_elements()) continue;
          const Tensor mask = Must(Tensor::Uninitialized(DType::kUInt8, cpu.shape(), Gpu()));
          ASSERT_OK(Ops().compare_tensor(gpu, op, gpu_y, mask));
          ExpectMatches(mask, *CompareTensor(cpu, op, y));
        }
      }
    }
  }
}

TEST_F(OpsTest, MatrixProductsMatchTheCpu) {
  for (DType dtype : {DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64}) {
    for (const View& lhs_view : kViews) {
      for (bool transposed_rhs : {false, true}) {
        SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " lhs ", lhs_view.name,
                                  transposed_rhs ? " rhs transposed" : ""));
        auto [cpu_a, gpu_a] = Bases(dtype, 12, -1, 1);
        const Tensor lhs = lhs_view.of(cpu_a), gpu_lhs = lhs_view.of(gpu_a);
        const Index k = lhs.shape()[1];
        // A transposed rhs is a {7, k} tensor viewed as {k, 7}.
        const Tensor rhs_base =
            transposed_rhs ? CpuTensor(dtype, {7, k}, RandomValues(dtype, k * 7, 13, -1, 1))
                           : CpuTensor(dtype, {k, 7}, RandomValues(dtype, k * 7, 13, -1, 1));
        const Tensor gpu_rhs_base = Must(ToDevice(rhs_base, Device::Cuda(0)));
        const Tensor rhs = transposed_rhs ? Must(rhs_base.Transpose(0, 1)) : rhs_base;
        const Tensor gpu_rhs = transposed_rhs ? Must(gpu_rhs_base.Transpose(0, 1)) : gpu_rhs_base;
        const Index n = lhs.shape()[0];
        const Tensor add = CpuTensor(dtype, {n, 7}, RandomValues(dtype, n * 7, 14, -1, 1));
        const Tensor gpu_add = Must(ToDevice(add, Device::Cuda(0)));
        const Tensor out = Must(Tensor::Zeros(dtype, {n, 7}));
        const Tensor gpu_out = Must(Tensor::Zeros(dtype, {n, 7}, Gpu()));
        ASSERT_OK(AddProduct(BlasOp::kAddmm, out, 0.5, add, 2, lhs, rhs));
        ASSERT_OK(Ops().add_product(BlasOp::kAddmm, gpu_out, 0.5, gpu_add, 2, gpu_lhs, gpu_rhs));
        ExpectMatches(gpu_out, out, 5 * MathTolerance(dtype));
        ASSERT_OK(AddProduct(BlasOp::kMm, out, 0, out, 1, lhs, rhs));
        ASSERT_OK(Ops().add_product(BlasOp::kMm, gpu_out, 0, gpu_out, 1, gpu_lhs, gpu_rhs));
        ExpectMatches(gpu_out, out, 5 * MathTolerance(dtype));
      }
    }
    SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " baddbmm"));
    const Tensor a = CpuTensor(dtype, {3, 4, 5}, RandomValues(dtype, 60, 15, -1, 1));
    const Tensor b = CpuTensor(dtype, {3, 5, 2}, RandomValues(dtype, 30, 16, -1, 1));
    const Tensor c = CpuTensor(dtype, {3, 4, 2}, RandomValues(dtype, 24, 17, -1, 1));
    const Tensor gpu_c = Must(ToDevice(c, Device::Cuda(0)));
    // Reversed batches (a negative batch stride) are compacted first.
    ASSERT_OK(AddProduct(BlasOp::kBaddbmm, c, 1, c, -1, Must(a.Reverse(0)), b));
    ASSERT_OK(Ops().add_product(BlasOp::kBaddbmm, gpu_c, 1, gpu_c, -1,
                                Must(Must(ToDevice(a, Device::Cuda(0))).Reverse(0)),
                                Must(ToDevice(b, Device::Cuda(0)))));
    ExpectMatches(gpu_c, c, 5 * MathTolerance(dtype));
  }
}

// mv, addmv, ger, addr and addbmm against the CPU, with strided and
// reversed vectors, and with the result overlapping an operand.
TEST_F(OpsTest, VectorProductsAndAddbmmMatchTheCpu) {
  const Device gpu = Device::Cuda(0);
  for (DType dtype : {DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(dtype));
    const double tolerance = 5 * MathTolerance(dtype);
    auto [cpu_m, gpu_m] = Bases(dtype, 21, -1, 1);  // {6, 10}
    const Tensor x_base = CpuTensor(dtype, {20}, RandomValues(dtype, 20, 22, -1, 1));
    const Tensor gpu_x_base = Must(ToDevice(x_base, gpu));
    // Every other element, reversed: stride -2.
    const auto strided = [](const Tensor& t) {
      return Must(Must(Must(t.Reverse(0)).Unfold(0, 1, 2)).Squeeze());
    };
    const Tensor x = strided(x_base), gpu_x = strided(gpu_x_base);
    ASSERT_EQ(x.shape(), Shape({10}));
    const Tensor y = CpuTensor(dtype, {6}, RandomValues(dtype, 6, 23, -1, 1));
    const Tensor gpu_y = Must(ToDevice(y, gpu));

    for (const View& view : kViews) {
      SCOPED_TRACE(view.name);
      const Tensor m = view.of(cpu_m), gm = view.of(gpu_m);
      const Index rows = m.shape()[0], cols = m.shape()[1];
      const Tensor v = CpuTensor(dtype, {cols}, RandomValues(dtype, cols, 24, -1, 1));
      const Tensor gv = Must(ToDevice(v, gpu));
      const Tensor add = CpuTensor(dtype, {rows}, RandomValues(dtype, rows, 25, -1, 1));
      const Tensor out = Must(Tensor::Zeros(dtype, {rows}));
      const Tensor gout = Must(ToDevice(out, gpu));
      ASSERT_OK(AddProduct(BlasOp::kAddmv, out, 0.5, add, 2, m, v));
      ASSERT_OK(Ops().add_product(BlasOp::kAddmv, gout, 0.5, Must(ToDevice(add, gpu)), 2, gm, gv));
      ExpectMatches(gout, out, tolerance);
      ASSERT_OK(AddProduct(BlasOp::kMv, out, 0, out, 1, m, v));
      ASSERT_OK(Ops().add_product(BlasOp::kMv, gout, 0, gout, 1, gm, gv));
      ExpectMatches(gout, out, tolerance);
    }
    // A strided, reversed vector operand.
    const Tensor out = Must(Tensor::Zeros(dtype, {6}));
    const Tensor gout = Must(ToDevice(out, gpu));
    ASSERT_OK(AddProduct(BlasOp::kMv, out, 0, out, 1, cpu_m, x));
    ASSERT_OK(Ops().add_product(BlasOp::kMv, gout, 0, gout, 1, gpu_m, gpu_x));
    ExpectMatches(gout, out, tolerance);

    // addr: out {6, 10} += y (x) x, then into out transposed, reversed.
    for (const View& view : kViews) {
      if (std::string(view.name) == "narrowed") continue;
      SCOPED_TRACE(absl::StrCat("addr into ", view.name));
      auto [cpu_out, gpu_out] = Bases(dtype, 26, -1, 1);
      const Tensor target = view.of(cpu_out), gtarget = view.of(gpu_out);
      const bool flipped = target.shape()[0] == 10;
      const Tensor& left = flipped ? x : y;
      const Tensor& gleft = flipped ? gpu_x : gpu_y;
      const Tensor& right = flipped ? y : x;
      const Tensor& gright = flipped ? gpu_y : gpu_x;
      ASSERT_OK(AddProduct(BlasOp::kAddr, target, 1, target, 3, left, right));
      ASSERT_OK(Ops().add_product(BlasOp::kAddr, gtarget, 1, gtarget, 3, gleft, gright));
      ExpectMatches(gtarget, target, tolerance);
      ASSERT_OK(AddProduct(BlasOp::kGer, target, 0, target, 1, left, right));
      ASSERT_OK(Ops().add_product(BlasOp::kGer, gtarget, 0, gtarget, 1, gleft, gright));
      ExpectMatches(gtarget, target, tolerance);
    }

    // addbmm, and addbmm whose result is the first batch of its lhs.
    const Tensor a = CpuTensor(dtype, {3, 4, 4}, RandomValues(dtype, 48, 27, -1, 1));
    const Tensor b = CpuTensor(dtype, {3, 4, 4}, RandomValues(dtype, 48, 28, -1, 1));
    const Tensor ga = Must(ToDevice(a, gpu)), gb = Must(ToDevice(b, gpu));
    const Tensor c = CpuTensor(dtype, {4, 4}, RandomValues(dtype, 16, 29, -1, 1));
    const Tensor gc = Must(ToDevice(c, gpu));
    ASSERT_OK(AddProduct(BlasOp::kAddbmm, c, 0.5, c, 2, Must(a.Reverse(0)), b));
    ASSERT_OK(Ops().add_product(BlasOp::kAddbmm, gc, 0.5, gc, 2, Must(ga.Reverse(0)), gb));
    ExpectMatches(gc, c, tolerance);
    const Tensor first = Must(a.Select(0, 0)), gfirst = Must(ga.Select(0, 0));
    ASSERT_OK(AddProduct(BlasOp::kAddbmm, first, 1, first, 1, a, b));
    ASSERT_OK(Ops().add_product(BlasOp::kAddbmm, gfirst, 1, gfirst, 1, ga, gb));
    ExpectMatches(ga, a, tolerance);
  }
}

// Integer products run on our kernel (cuBLAS has none) and wrap exactly
// as the CPU's: the random values reach 100, so int8 and uint8 sums wrap.
TEST_F(OpsTest, IntegerProductsMatchTheCpuExactly) {
  const Device gpu = Device::Cuda(0);
  for (DType dtype :
       {DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64}) {
    SCOPED_TRACE(DTypeName(dtype));
    auto [cpu_m, gpu_m] = Bases(dtype, 31);  // {6, 10}
    for (const View& view : kViews) {
      SCOPED_TRACE(view.name);
      const Tensor m = view.of(cpu_m), gm = view.of(gpu_m);
      const Index rows = m.shape()[0], cols = m.shape()[1];
      // m . m^T: a product with a transposed operand of the same storage.
      const Tensor mt = Must(m.Transpose(0, 1)), gmt = Must(gm.Transpose(0, 1));
      const Tensor add = CpuTensor(dtype, {rows, rows}, RandomValues(dtype, rows * rows, 32));
      const Tensor out = Must(Tensor::Zeros(dtype, {rows, rows}));
      const Tensor gout = Must(ToDevice(out, gpu));
      ASSERT_OK(AddProduct(BlasOp::kAddmm, out, 2, add, 3, m, mt));
      ASSERT_OK(Ops().add_product(BlasOp::kAddmm, gout, 2, Must(ToDevice(add, gpu)), 3, gm, gmt));
      ExpectMatches(gout, out);
      const Tensor v = CpuTensor(dtype, {cols}, RandomValues(dtype, cols, 33));
      const Tensor vout = Must(Tensor::Zeros(dtype, {rows}));
      const Tensor gvout = Must(ToDevice(vout, gpu));
      ASSERT_OK(AddProduct(BlasOp::kMv, vout, 0, vout, 1, m, v));
      ASSERT_OK(Ops().add_product(BlasOp::kMv, gvout, 0, gvout, 1, gm, Must(ToDevice(v, gpu))));
      ExpectMatches(gvout, vout);
    }
    // ger into a reversed view, and batches summed (addbmm) and kept (bmm).
    const Tensor x = CpuTensor(dtype, {6}, RandomValues(dtype, 6, 34));
    const Tensor y = CpuTensor(dtype, {10}, RandomValues(dtype, 10, 35));
    const Tensor target = Must(cpu_m.Reverse(1)), gtarget = Must(gpu_m.Reverse(1));
    ASSERT_OK(AddProduct(BlasOp::kAddr, target, 1, target, 1, x, y));
    ASSERT_OK(Ops().add_product(BlasOp::kAddr, gtarget, 1, gtarget, 1, Must(ToDevice(x, gpu)),
                                Must(ToDevice(y, gpu))));
    ExpectMatches(gtarget, target);
    const Tensor a = CpuTensor(dtype, {3, 4, 5}, RandomValues(dtype, 60, 36));
    const Tensor b = CpuTensor(dtype, {3, 5, 2}, RandomValues(dtype, 30, 37));
    const Tensor ga = Must(ToDevice(a, gpu)), gb = Must(ToDevice(b, gpu));
    const Tensor sum = Must(Tensor::Zeros(dtype, {4, 2}));
    const Tensor gsum = Must(ToDevice(sum, gpu));
    ASSERT_OK(AddProduct(BlasOp::kAddbmm, sum, 0, sum, 1, a, b));
    ASSERT_OK(Ops().add_product(BlasOp::kAddbmm, gsum, 0, gsum, 1, ga, gb));
    ExpectMatches(gsum, sum);
    const Tensor batches = Must(Tensor::Zeros(dtype, {3, 4, 2}));
    const Tensor gbatches = Must(ToDevice(batches, gpu));
    ASSERT_OK(AddProduct(BlasOp::kBmm, batches, 0, batches, 1, Must(a.Reverse(0)), b));
    ASSERT_OK(Ops().add_product(BlasOp::kBmm, gbatches, 0, gbatches, 1, Must(ga.Reverse(0)), gb));
    ExpectMatches(gbatches, batches);
  }
}

TEST_F(OpsTest, ARevokedLoanIsRefusedWithTheLoansError) {
  testing::LentCudaTensor lent(DType::kFloat32, {2, 3}, "the renderer's depth buffer");
  lent.loan()->Revoke();
  const absl::Status revoked = lent.loan()->Check();
  const Tensor& t = lent.tensor();
  EXPECT_EQ(Ops().apply_scalars(t, ElementOp::kAdd, {1}), revoked);
  EXPECT_EQ(Ops().apply_unary(t, UnaryFunction::kExp), revoked);
  EXPECT_EQ(Ops().sum(t).status(), revoked);
  const Tensor mask = Must(Tensor::Zeros(DType::kUInt8, {2, 3}, Gpu()));
  EXPECT_EQ(Ops().compare_scalar(t, CompareOp::kLt, 0, mask), revoked);
}

// These need no device: every check before the first CUDA call.

TEST(OpsErrorTest, TheBackendRegistersEveryMember) {
  ASSERT_OK_AND_ASSIGN(const DeviceOps* ops, DeviceOpsFor(Device::Cuda(0), "test"));
  for (bool present : {ops->allocator != nullptr, ops->copy != nullptr,
                       ops->apply_scalars != nullptr, ops->apply_components != nullptr,
                       ops->apply_unary != nullptr, ops->sum != nullptr, ops->extreme != nullptr,
                       ops->sum_along != nullptr, ops->extreme_along != nullptr,
                       ops->compare_scalar != nullptr, ops->compare_tensor != nullptr,
                       ops->add_product != nullptr}) {
    EXPECT_TRUE(present);
  }
}

// A tensor on CUDA device `index` over memory that must never be touched.
Tensor Ghost(int index, const std::shared_ptr<Loan>& loan) {
  static float never_read[6];
  return Must(Tensor::Lend(DType::kFloat32, Must(Layout::Contiguous({2, 3})), never_read,
                           sizeof(never_read), loan, Device::Cuda(index)));
}

TEST(OpsErrorTest, MixedDevicesAreNamed) {
  const int missing = DeviceCount() + 2;
  const auto loan = Loan::Create("a test");
  const Tensor a = Ghost(missing, loan), b = Ghost(missing + 1, loan);
  const std::string devices = absl::StrCat("cuda:", missing, " and cuda:", missing + 1);
  for (const absl::Status& s :
       {Ops().apply_components(a, ElementOp::kAdd, b), Ops().compare_tensor(a, CompareOp::kEq, a, b),
        Ops().add_product(BlasOp::kMm, a, 0, a, 1, a, b)}) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), HasSubstr(devices));
  }
  const Tensor host = Must(Tensor::Zeros(DType::kFloat32, {2, 3}));
  EXPECT_THAT(std::string(Ops().apply_components(a, ElementOp::kSub, host).message()),
              HasSubstr(absl::StrCat("cuda:", missing, " and cpu")));
}

TEST(OpsErrorTest, AMissingDeviceOrARevokedLoanIsRefusedBeforeAnyCudaCall) {
  const int missing = DeviceCount() + 2;
  const auto loan = Loan::Create("the renderer's frame");
  const Tensor ghost = Ghost(missing, loan);
  for (const absl::Status& s : {Ops().apply_scalars(ghost, ElementOp::kMul, {2}),
                                Ops().apply_unary(ghost, UnaryFunction::kTanh),
                                Ops().sum(ghost).status(),
                                Ops().extreme(ghost, Extreme::kMax).status()}) {
    EXPECT_THAT(std::string(s.message()), HasSubstr(absl::StrCat("CUDA device ", missing)));
  }
  loan->Revoke();
  EXPECT_EQ(Ops().sum(ghost).status(), loan->Check());
  EXPECT_EQ(Ops().sum_along(ghost, 0, ghost), loan->Check());
}

}  // namespace
}  // namespace tensor::cuda
