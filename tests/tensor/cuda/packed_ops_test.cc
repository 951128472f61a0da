// The packed paths of the CUDA arithmetic kernels (16 bytes per access, for
// contiguous operands that start on 16 bytes) against the CPU, bit for bit:
// every dtype, whole sums too, lengths around each dtype's lanes per pack, starts on and
// off 16 bytes, and nothing written outside the view.
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tensor/device_ops.h"
#include "tensor/device_transfer.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/reduce.h"
#include "tensor/tensor.h"
#include "tests/tensor/cuda/cuda_test_support.h"

namespace tensor::cuda {
namespace {

using testing::CpuTensor;
using testing::CudaTest;
using testing::HostBytes;
using testing::Must;

const DeviceOps& Ops() { return *Must(DeviceOpsFor(Device::Cuda(0), "test")); }

constexpr Index kBase = 4200;
// 0 and 16 start on 16 bytes for every dtype; 1 on none.
constexpr Index kStarts[] = {0, 1, 16};
// Around 16, 8, 4 and 2 lanes per pack, and long enough for the grid loop.
constexpr Index kLengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 1000, 4099};

bool Signed(DType dtype) {
  return IsFloating(dtype) || dtype == DType::kInt8 || dtype == DType::kInt16 ||
         dtype == DType::kInt32 || dtype == DType::kInt64;
}

// 1..97 cycling, negated at every third for the signed types: nonzero, so
// integer division is defined, and products of int8 wrap.
std::vector<double> Values(DType dtype, Index n, int shift) {
  std::vector<double> values(n);
  for (Index i = 0; i < n; ++i) {
    double v = static_cast<double>((i * 7 + shift) % 97 + 1);
    if (dtype == DType::kBool) v = 1;
    if (IsFloating(dtype)) v /= 8;
    if (Signed(dtype) && i % 3 == 0) v = -v;
    values[i] = v;
  }
  return values;
}

class PackedOpsTest : public CudaTest {};

TEST_F(PackedOpsTest, OneValueMatchesTheCpuAtEveryStartAndLength) {
  for (DType dtype : kAllDTypes) {
    for (ElementOp op : {ElementOp::kAssign, ElementOp::kAdd, ElementOp::kMul, ElementOp::kDiv}) {
      if (dtype == DType::kBool && op != ElementOp::kAssign) continue;
      const Tensor cpu_base = CpuTensor(dtype, {kBase}, Values(dtype, kBase, 0));
      const Tensor gpu_base = Must(ToDevice(cpu_base, Device::Cuda(0)));
      for (Index start : kStarts) {
        for (Index length : kLengths) {
          SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", ElementOpName(op), " start ", start,
                                    " length ", length));
          const double value = dtype == DType::kBool ? 1 : IsFloating(dtype) ? 0.37 : 3;
          ASSERT_OK(ApplyScalars(Must(cpu_base.Narrow(0, start, length)), op, {value}));
          ASSERT_OK(Ops().apply_scalars(Must(gpu_base.Narrow(0, start, length)), op, {value}));
          ASSERT_EQ(HostBytes(gpu_base), HostBytes(cpu_base));
        }
      }
    }
  }
}

TEST_F(PackedOpsTest, ComponentsMatchTheCpuAtEveryStartAndLength) {
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::kBool) continue;
    for (ElementOp op : {ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul, ElementOp::kDiv}) {
      const Tensor cpu_dst = CpuTensor(dtype, {kBase}, Values(dtype, kBase, 0));
      const Tensor cpu_src = CpuTensor(dtype, {kBase}, Values(dtype, kBase, 5));
      const Tensor gpu_dst = Must(ToDevice(cpu_dst, Device::Cuda(0)));
      const Tensor gpu_src = Must(ToDevice(cpu_src, Device::Cuda(0)));
      for (Index dst_start : kStarts) {
        for (Index src_start : kStarts) {
          for (Index length : kLengths) {
            SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", ElementOpName(op), " dst start ",
                                      dst_start, " src start ", src_start, " length ", length));
            ASSERT_OK(ApplyComponents(Must(cpu_dst.Narrow(0, dst_start, length)), op,
                                      Must(cpu_src.Narrow(0, src_start, length))));
            ASSERT_OK(Ops().apply_components(Must(gpu_dst.Narrow(0, dst_start, length)), op,
                                             Must(gpu_src.Narrow(0, src_start, length))));
            ASSERT_EQ(HostBytes(gpu_dst), HostBytes(cpu_dst));
          }
        }
      }
    }
  }
}

// Sums of the values here (multiples of 1/8 below 2^20) are exact in
// double in any order, so the packed sum equals the CPU's exactly.
TEST_F(PackedOpsTest, SumsMatchTheCpuAtEveryStartAndLength) {
  for (DType dtype : kAllDTypes) {
    const Tensor cpu_base = CpuTensor(dtype, {kBase}, Values(dtype, kBase, 0));
    const Tensor gpu_base = Must(ToDevice(cpu_base, Device::Cuda(0)));
    for (Index start : kStarts) {
      for (Index length : kLengths) {
        SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " start ", start, " length ", length));
        const Tensor cpu = Must(cpu_base.Narrow(0, start, length));
        EXPECT_EQ(*Ops().sum(Must(gpu_base.Narrow(0, start, length))), *Sum(cpu));
      }
    }
  }
}

// A tensor combined with itself: the packed kernel reads both operands of
// a pack before it writes.
TEST_F(PackedOpsTest, ATensorWithItselfMatchesTheCpu) {
  for (DType dtype : {DType::kUInt8, DType::kInt32, DType::kFloat16, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(dtype));
    const Tensor cpu = CpuTensor(dtype, {kBase}, Values(dtype, kBase, 0));
    const Tensor gpu = Must(ToDevice(cpu, Device::Cuda(0)));
    ASSERT_OK(ApplyComponents(cpu, ElementOp::kAdd, cpu));
    ASSERT_OK(Ops().apply_components(gpu, ElementOp::kAdd, gpu));
    EXPECT_EQ(HostBytes(gpu), HostBytes(cpu));
  }
}

}  // namespace
}  // namespace tensor::cuda
