#include "tensor/cuda/copy.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/cuda/fill.h"
#include "tensor/cuda/runtime.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/tensor.h"
#include "tests/tensor/cuda/cuda_test_support.h"

namespace tensor::cuda {
namespace {

using testing::CpuTensor;
using testing::CudaTest;
using ::testing::HasSubstr;
using testing::HostBytes;
using testing::Iota;
using testing::Must;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Values that probe every conversion: fractions, each integer type's
// edges, half overflow, NaNs of both signs, infinities, signed zero.
const std::vector<double>& Probes() {
  static const std::vector<double> probes = {
      0,     -0.0,  1,     -1,         2.5,          -2.75,         1.0 / 3, 1e-8,   100,
      127,   128,   255,   256,        -128,         -129,          32767,   32768,  -32769,
      65504, 65520, 70000, 2147483647, 2147483648.0, -2147483649.0, 1e10,    9.2e18, -9.3e18,
      1e30,  1e39,  kNaN,  -kNaN,      kInf,         -kInf};
  return probes;
}

// The probes that `dtype` holds, converted by the CPU copy.
Tensor ProbesOf(DType dtype) {
  std::vector<double> kept;
  for (double v : Probes()) {
    Tensor one = Must(Tensor::Uninitialized(dtype, {1}));
    if (ApplyComponents(one, ElementOp::kAssign, CpuTensor(DType::kFloat64, {1}, {v})).ok()) {
      kept.push_back(v);
    }
  }
  return CpuTensor(dtype, {static_cast<Index>(kept.size())}, kept);
}

// The CPU copy's result (or error) for src converted to `to`.
absl::StatusOr<Tensor> CpuConverted(DType to, const Tensor& src) {
  absl::StatusOr<Tensor> dst = Tensor::Zeros(to, src.shape());
  if (!dst.ok()) return dst;
  if (absl::Status s = ApplyComponents(*dst, ElementOp::kAssign, src); !s.ok()) return s;
  return dst;
}

// Every element of a rank-1 tensor as its own tensor.
std::vector<Tensor> Elements(const Tensor& t) {
  std::vector<Tensor> out;
  for (Index i = 0; i < t.num_elements(); ++i) out.push_back(Must(t.Narrow(0, i, 1)));
  return out;
}

class CopyTest : public CudaTest {};

TEST_F(CopyTest, ConvertsEveryDTypePairAsTheCpuDoes) {
  for (DType from : kAllDTypes) {
    const Tensor probes = ProbesOf(from);
    for (DType to : kAllDTypes) {
      SCOPED_TRACE(absl::StrCat(DTypeName(from), " -> ", DTypeName(to)));
      // Each value alone: a value the CPU rejects must be rejected with the
      // same error, and leave the destination as it was.
      for (const Tensor& one : Elements(probes)) {
        const absl::StatusOr<Tensor> expected = CpuConverted(to, one);
        const Tensor gpu_src = Must(ToDevice(one, Device::Cuda(0)));
        const Tensor gpu_dst = Must(Tensor::Zeros(to, {1}, Gpu()));
        const absl::Status s = Copy(gpu_dst, gpu_src);
        if (expected.ok()) {
          ASSERT_TRUE(s.ok()) << s;
          EXPECT_EQ(HostBytes(gpu_dst), HostBytes(*expected));
        } else {
          EXPECT_EQ(s, expected.status());
          EXPECT_EQ(HostBytes(gpu_dst), HostBytes(Must(Tensor::Zeros(to, {1}))));
        }
      }
      // All accepted values together, in every direction across devices.
      std::vector<Tensor> kept;
      for (const Tensor& one : Elements(probes)) {
        if (CpuConverted(to, one).ok()) kept.push_back(one);
      }
      if (kept.empty()) continue;
      const Tensor src = Must(Tensor::Uninitialized(from, {static_cast<Index>(kept.size())}));
      for (std::size_t i = 0; i < kept.size(); ++i) {
        ASSERT_OK(ApplyComponents(Must(src.Narrow(0, i, 1)), ElementOp::kAssign, kept[i]));
      }
      const std::vector<unsigned char> expected = HostBytes(Must(CpuConverted(to, src)));
      const Tensor gpu_src = Must(ToDevice(src, Device::Cuda(0)));
      const Tensor gpu_dst = Must(Tensor::Zeros(to, src.shape(), Gpu()));
      ASSERT_OK(Copy(gpu_dst, gpu_src));  // converted on the device
      EXPECT_EQ(HostBytes(gpu_dst), expected);
      const Tensor uploaded = Must(Tensor::Zeros(to, src.shape(), Gpu()));
      ASSERT_OK(Copy(uploaded, src));  // host to device
      EXPECT_EQ(HostBytes(uploaded), expected);
      const Tensor downloaded = Must(Tensor::Zeros(to, src.shape()));
      ASSERT_OK(Copy(downloaded, gpu_src));  // device to host
      EXPECT_EQ(HostBytes(downloaded), expected);
    }
  }
}

// A view of shape [3, 4, 5] over a fresh base on `device`, filled with
// `fill`, by one of several layouts.
struct LayoutCase {
  const char* name;
  std::vector<Index> base_shape;
  std::function<absl::StatusOr<Tensor>(const Tensor&)> view;
};

const std::vector<LayoutCase>& LayoutCases() {
  static const std::vector<LayoutCase> cases = {
      {"contiguous", {3, 4, 5}, [](const Tensor& t) { return absl::StatusOr<Tensor>(t); }},
      {"transposed",
       {5, 4, 3},
       [](const Tensor& t) {
         return t.Permute({2, 1, 0});
       }},
      {"narrowed",
       {5, 6, 7},
       [](const Tensor& t) -> absl::StatusOr<Tensor> {
         absl::StatusOr<Tensor> a = t.Narrow(0, 1, 3);
         if (!a.ok()) return a;
         absl::StatusOr<Tensor> b = a->Narrow(1, 2, 4);
         if (!b.ok()) return b;
         return b->Narrow(2, 1, 5);
       }},
      {"reversed",
       {3, 4, 5},
       [](const Tensor& t) -> absl::StatusOr<Tensor> {
         absl::StatusOr<Tensor> a = t.Reverse(0);
         if (!a.ok()) return a;
         return a->Reverse(2);
       }},
      {"every other",
       {3, 4, 10},
       [](const Tensor& t) -> absl::StatusOr<Tensor> {
         absl::StatusOr<Layout> layout = Layout::Create({3, 4, 5}, {40, 10, 2}, 1);
         if (!layout.ok()) return layout.status();
         return t.WithLayout(*layout);
       }},
  };
  return cases;
}

Tensor Base(const LayoutCase& c, DType dtype, double fill, Device device) {
  Index n = 1;
  for (Index e : c.base_shape) n *= e;
  const Tensor cpu = CpuTensor(dtype, c.base_shape, Iota(n, fill, 0.5));
  return device.is_cpu() ? cpu : Must(ToDevice(cpu, device));
}

TEST_F(CopyTest, CopiesEveryLayoutPairAcrossDevicesAsTheCpuDoes) {
  struct DTypes {
    DType to, from;
  };
  const DTypes dtype_pairs[] = {{DType::kFloat32, DType::kFloat32},
                                {DType::kFloat16, DType::kFloat64},
                                {DType::kFloat64, DType::kInt32},
                                {DType::kInt16, DType::kInt16}};
  const Device devices[] = {Device::Cpu(), Device::Cuda(0)};
  for (const DTypes& dtypes : dtype_pairs) {
    for (const LayoutCase& dst_case : LayoutCases()) {
      for (const LayoutCase& src_case : LayoutCases()) {
        const Tensor cpu_src_base = Base(src_case, dtypes.from, 1, Device::Cpu());
        const Tensor cpu_dst_base = Base(dst_case, dtypes.to, -60, Device::Cpu());
        const Tensor cpu_expected = Must(ToDevice(cpu_dst_base, Device::Cpu()));
        ASSERT_OK(ApplyComponents(Must(dst_case.view(cpu_expected)), ElementOp::kAssign,
                                  Must(src_case.view(cpu_src_base))));
        for (Device dst_device : devices) {
          for (Device src_device : devices) {
            if (dst_device.is_cpu() && src_device.is_cpu()) continue;
            SCOPED_TRACE(absl::StrCat(DTypeName(dtypes.from), " ", src_case.name, " on ",
                                      src_device.ToString(), " -> ", DTypeName(dtypes.to), " ",
                                      dst_case.name, " on ", dst_device.ToString()));
            const Tensor src_base = Base(src_case, dtypes.from, 1, src_device);
            const Tensor dst_base = Base(dst_case, dtypes.to, -60, dst_device);
            ASSERT_OK(Copy(Must(dst_case.view(dst_base)), Must(src_case.view(src_base))));
            // The whole base: elements outside the view are untouched.
            EXPECT_EQ(HostBytes(dst_base), HostBytes(cpu_expected));
          }
        }
      }
    }
  }
}

TEST_F(CopyTest, CopiesBetweenEveryPairOfDevices) {
  const Tensor cpu_src = CpuTensor(DType::kInt32, {6, 7}, Iota(42, -20));
  const Tensor expected = Must(CpuConverted(DType::kFloat64, Must(cpu_src.Transpose(0, 1))));
  for (int from = 0; from < DeviceCount(); ++from) {
    for (int to = 0; to < DeviceCount(); ++to) {
      SCOPED_TRACE(absl::StrCat("cuda:", from, " -> cuda:", to));
      const Tensor src = Must(ToDevice(cpu_src, Device::Cuda(from)));
      // Same dtype and contiguous: the direct path.
      const Tensor same = Must(Tensor::Zeros(DType::kInt32, {6, 7}, Gpu(to)));
      ASSERT_OK(Copy(same, src));
      EXPECT_EQ(HostBytes(same), HostBytes(cpu_src));
      // Transposed and converted: staged beside the destination.
      const Tensor converted = Must(Tensor::Zeros(DType::kFloat64, {7, 6}, Gpu(to)));
      ASSERT_OK(Copy(converted, Must(src.Transpose(0, 1))));
      EXPECT_EQ(HostBytes(converted), HostBytes(expected));
    }
  }
}

// Transposing copies go through shared-memory tiles (copy_kernels.cu):
// every element size, extents on and around the 32-wide tile, a batch of
// tiles, a destination with a row stride of its own, and layouts just
// outside the tiled shape, each against the CPU over the whole base.
TEST_F(CopyTest, TransposingCopiesMatchTheCpuAtEveryTileEdge) {
  struct Case {
    std::vector<Index> src_base;  // src is a permutation of this
    std::vector<int> permutation;
    Index dst_pad;  // dst rows are this much longer than the view
  };
  const Case cases[] = {{{16, 16}, {1, 0}, 0},       {{31, 33}, {1, 0}, 0},
                        {{32, 32}, {1, 0}, 0},       {{33, 65}, {1, 0}, 0},
                        {{100, 17}, {1, 0}, 7},      {{1000, 24}, {1, 0}, 0},
                        {{15, 300}, {1, 0}, 0},      {{5, 37, 45}, {2, 0, 1}, 3},
                        {{40, 50, 3}, {1, 0, 2}, 0},  // rows of 3 contiguous in both: not tiled
                        {{3, 20, 30}, {1, 2, 0}, 0},  // planar to interleaved: a line of 3
                        {{4, 33, 70}, {0, 2, 1}, 0}};
  for (DType dtype : {DType::kUInt8, DType::kInt16, DType::kFloat32, DType::kFloat64}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " base ", absl::StrJoin(c.src_base, "x"),
                                " permuted ", absl::StrJoin(c.permutation, ","), " pad ",
                                c.dst_pad));
      Index n = 1;
      for (Index e : c.src_base) n *= e;
      std::vector<double> values(n);
      for (Index i = 0; i < n; ++i) values[i] = static_cast<double>((i * 13) % 251);
      const Tensor cpu_src = Must(CpuTensor(dtype, c.src_base, values).Permute(c.permutation));
      Shape dst_base_shape = cpu_src.shape();
      dst_base_shape.back() += c.dst_pad;
      const Tensor cpu_dst_base = Must(Tensor::Zeros(dtype, dst_base_shape));
      const int last = static_cast<int>(dst_base_shape.size()) - 1;
      const Tensor cpu_dst = Must(cpu_dst_base.Narrow(last, 0, cpu_src.shape().back()));
      const Tensor gpu_src =
          Must(Must(ToDevice(CpuTensor(dtype, c.src_base, values), Device::Cuda(0)))
                   .Permute(c.permutation));
      const Tensor gpu_dst_base = Must(Tensor::Zeros(dtype, dst_base_shape, Gpu()));
      ASSERT_OK(ApplyComponents(cpu_dst, ElementOp::kAssign, cpu_src));
      ASSERT_OK(Copy(Must(gpu_dst_base.Narrow(last, 0, cpu_src.shape().back())), gpu_src));
      EXPECT_EQ(HostBytes(gpu_dst_base), HostBytes(cpu_dst_base));
    }
  }
}

TEST_F(CopyTest, OverlappingSourceAndDestinationReadTheSourceFirst) {
  const Tensor cpu = CpuTensor(DType::kFloat32, {10}, Iota(10));
  const Tensor gpu = Must(ToDevice(cpu, Device::Cuda(0)));
  ASSERT_OK(
      ApplyComponents(Must(cpu.Narrow(0, 1, 9)), ElementOp::kAssign, Must(cpu.Narrow(0, 0, 9))));
  ASSERT_OK(Copy(Must(gpu.Narrow(0, 1, 9)), Must(gpu.Narrow(0, 0, 9))));
  EXPECT_EQ(HostBytes(gpu), HostBytes(cpu));
  // Reversed onto itself: every element is both read and written.
  const Tensor reversed_cpu = CpuTensor(DType::kInt64, {9}, Iota(9));
  const Tensor reversed_gpu = Must(ToDevice(reversed_cpu, Device::Cuda(0)));
  ASSERT_OK(ApplyComponents(reversed_cpu, ElementOp::kAssign, Must(reversed_cpu.Reverse(0))));
  ASSERT_OK(Copy(reversed_gpu, Must(reversed_gpu.Reverse(0))));
  EXPECT_EQ(HostBytes(reversed_gpu), HostBytes(reversed_cpu));
}

TEST_F(CopyTest, MismatchedShapesNameBothShapes) {
  const Tensor a = Must(Tensor::Zeros(DType::kFloat32, {2, 3}, Gpu()));
  const Tensor b = Must(Tensor::Zeros(DType::kFloat32, {3, 2}, Gpu()));
  const absl::Status s = Copy(a, b);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("[2, 3] and [3, 2]"));
  const Tensor c = Must(Tensor::Zeros(DType::kFloat32, {4}));
  const absl::Status count = Copy(a, c);
  EXPECT_EQ(count.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(count.message()), HasSubstr("shapes [2, 3] and [4]"));
}

TEST_F(CopyTest, RefusesADestinationWhoseElementsShareMemory) {
  const Tensor row = Must(Tensor::Zeros(DType::kFloat32, {1, 4}, Gpu()));
  const Tensor expanded = Must(row.Expand({3, 4}));
  const Tensor src = CpuTensor(DType::kFloat32, {3, 4}, Iota(12));
  const absl::Status s = Copy(expanded, src);
  const absl::Status cpu = ApplyComponents(
      Must(Must(Tensor::Zeros(DType::kFloat32, {1, 4})).Expand({3, 4})), ElementOp::kAssign, src);
  EXPECT_EQ(s, cpu);
  EXPECT_EQ(HostBytes(row), HostBytes(Must(Tensor::Zeros(DType::kFloat32, {1, 4}))));
}

TEST_F(CopyTest, ARevokedLoanRefusesCopyAndFillWithTheLoansError) {
  testing::LentCudaTensor lent(DType::kFloat32, {2, 3}, "the renderer's depth buffer");
  const Tensor host = CpuTensor(DType::kFloat32, {2, 3}, Iota(6, 1));
  ASSERT_OK(Copy(lent.tensor(), host));  // valid while lent
  EXPECT_EQ(HostBytes(lent.tensor()), HostBytes(host));
  const Tensor view = Must(lent.tensor().Transpose(0, 1));
  lent.loan()->Revoke();
  const absl::Status revoked = lent.loan()->Check();
  ASSERT_FALSE(revoked.ok());
  EXPECT_THAT(std::string(revoked.message()), HasSubstr("the renderer's depth buffer"));
  EXPECT_EQ(Copy(lent.tensor(), host), revoked);
  EXPECT_EQ(Copy(host, lent.tensor()), revoked);
  EXPECT_EQ(Copy(Must(Tensor::Zeros(DType::kFloat32, {3, 2}, Gpu())), view), revoked);
  EXPECT_EQ(Fill(lent.tensor(), 1), revoked);
  EXPECT_EQ(Fill(view, 1), revoked);
  EXPECT_EQ(ToDevice(lent.tensor(), Device::Cpu()).status(), revoked);
}

TEST_F(CopyTest, ToDeviceMakesAContiguousOwnedCopy) {
  const Tensor cpu = CpuTensor(DType::kBFloat16, {4, 6}, Iota(24, -3, 0.25));
  const Tensor view = Must(Must(cpu.Transpose(0, 1)).Narrow(0, 1, 4));
  ASSERT_OK_AND_ASSIGN(Tensor gpu, ToDevice(view, Device::Cuda(0)));
  EXPECT_EQ(gpu.device(), Device::Cuda(0));
  EXPECT_EQ(gpu.dtype(), DType::kBFloat16);
  EXPECT_EQ(gpu.shape(), view.shape());
  EXPECT_TRUE(gpu.layout().IsContiguous());
  EXPECT_TRUE(gpu.owns_storage());
  ASSERT_OK_AND_ASSIGN(Tensor back, ToDevice(gpu, Device::Cpu()));
  EXPECT_EQ(back.device(), Device::Cpu());
  EXPECT_TRUE(back.layout().IsContiguous());
  EXPECT_EQ(HostBytes(back), HostBytes(view));
}

TEST_F(CopyTest, EmptyTensorsCopyWithoutTouchingMemory) {
  const Tensor gpu = Must(Tensor::Zeros(DType::kFloat32, {0, 3}, Gpu()));
  ASSERT_OK(Copy(gpu, Must(Tensor::Zeros(DType::kInt8, {0, 3}))));
  ASSERT_OK_AND_ASSIGN(Tensor back, ToDevice(gpu, Device::Cpu()));
  EXPECT_EQ(back.num_elements(), 0);
}

// These need no device.

TEST(CopyErrorTest, ATensorOnAMissingDeviceIsAnError) {
  const int missing = DeviceCount() + 2;
  // A pointer that must never be touched: the device check comes first.
  static float never_read[4];
  const auto loan = Loan::Create("a test");
  const Tensor ghost = Must(Tensor::Lend(DType::kFloat32, Must(Layout::Contiguous({4})), never_read,
                                         sizeof(never_read), loan, Device::Cuda(missing)));
  const Tensor host = Must(Tensor::Zeros(DType::kFloat32, {4}));
  for (const absl::Status& s : {Copy(host, ghost), Copy(ghost, host), Fill(ghost, 0),
                                ToDevice(host, Device::Cuda(missing)).status()}) {
    EXPECT_FALSE(s.ok());
    EXPECT_THAT(std::string(s.message()), HasSubstr(absl::StrCat("CUDA device ", missing)));
  }
}

TEST(CopyErrorTest, CpuToCpuIsTheCpuCopy) {
  const Tensor src = CpuTensor(DType::kFloat64, {2, 2}, {1.5, -2.5, 300, 4});
  const Tensor dst = Must(Tensor::Zeros(DType::kInt16, {2, 2}));
  ASSERT_OK(Copy(dst, src));
  EXPECT_EQ(HostBytes(dst), HostBytes(CpuTensor(DType::kInt16, {2, 2}, {1, -2, 300, 4})));
  const Tensor bytes = Must(Tensor::Zeros(DType::kUInt8, {2, 2}));
  EXPECT_EQ(Copy(bytes, src), ApplyComponents(bytes, ElementOp::kAssign, src));
}

}  // namespace
}  // namespace tensor::cuda
