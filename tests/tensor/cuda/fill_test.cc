#include "tensor/cuda/fill.h"

#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/cuda/copy.h"
#include "tensor/dtype.h"
#include "tensor/elementwise.h"
#include "tensor/tensor.h"
#include "tests/tensor/cuda/cuda_test_support.h"

namespace tensor::cuda {
namespace {

using testing::CpuTensor;
using testing::CudaTest;
using testing::HostBytes;
using testing::Iota;
using testing::Must;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

class FillTest : public CudaTest {};

TEST_F(FillTest, FillsEveryDTypeAsTheCpuDoes) {
  const double values[] = {0,     -0.0,  1,    -1,  2.5, 1.0 / 3, 127, 255, 300, -129,
                           65504, 65520, 1e10, 1e39, -kNaN, kNaN, kInf, -kInf, 1e-8};
  for (DType dtype : kAllDTypes) {
    for (double value : values) {
      SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", value));
      const Tensor cpu = CpuTensor(dtype, {2, 3}, {0, 1, 0, 1, 1, 0});
      const Tensor gpu = Must(ToDevice(cpu, Device::Cuda(0)));
      const absl::Status expected = ApplyScalars(cpu, ElementOp::kAssign, {value});
      EXPECT_EQ(Fill(gpu, value), expected);
      // Filled alike, or left alike on an error.
      EXPECT_EQ(HostBytes(gpu), HostBytes(cpu));
    }
  }
}

TEST_F(FillTest, FillsStridedViewsAndNothingElse) {
  struct View {
    const char* name;
    std::vector<Index> base_shape;
    absl::StatusOr<Tensor> (*make)(const Tensor&);
  };
  const View views[] = {
      {"transposed", {4, 5}, [](const Tensor& t) { return t.Transpose(0, 1); }},
      {"column", {4, 5}, [](const Tensor& t) { return t.Select(1, 2); }},
      {"narrowed", {6, 7},
       [](const Tensor& t) -> absl::StatusOr<Tensor> {
         absl::StatusOr<Tensor> rows = t.Narrow(0, 1, 4);
         if (!rows.ok()) return rows;
         return rows->Narrow(1, 2, 3);
       }},
      {"reversed", {4, 5}, [](const Tensor& t) { return t.Reverse(1); }},
      {"every other", {4, 6},
       [](const Tensor& t) -> absl::StatusOr<Tensor> {
         absl::StatusOr<Layout> layout = Layout::Create({4, 3}, {6, 2}, 1);
         if (!layout.ok()) return layout.status();
         return t.WithLayout(*layout);
       }},
  };
  for (DType dtype : {DType::kUInt8, DType::kFloat16, DType::kInt32, DType::kFloat64}) {
    for (const View& view : views) {
      SCOPED_TRACE(absl::StrCat(DTypeName(dtype), " ", view.name));
      Index n = 1;
      for (Index e : view.base_shape) n *= e;
      const Tensor cpu = CpuTensor(dtype, view.base_shape, Iota(n));
      const Tensor gpu = Must(ToDevice(cpu, Device::Cuda(0)));
      ASSERT_OK(ApplyScalars(Must(view.make(cpu)), ElementOp::kAssign, {7}));
      ASSERT_OK(Fill(Must(view.make(gpu)), 7));
      EXPECT_EQ(HostBytes(gpu), HostBytes(cpu));
    }
  }
}

// One value written to every element cannot depend on the order of the
// writes, so an expanded view may be filled, on the CPU as Torch7 lets it
// be, and on a device alike.
TEST_F(FillTest, FillsAnExpandedViewAsTheCpuDoes) {
  const Tensor row = CpuTensor(DType::kFloat32, {1, 4}, Iota(4));
  const Tensor gpu_row = Must(ToDevice(row, Device::Cuda(0)));
  ASSERT_OK(ApplyScalars(Must(row.Expand({3, 4})), ElementOp::kAssign, {1}));
  ASSERT_OK(Fill(Must(gpu_row.Expand({3, 4})), 1));
  EXPECT_EQ(HostBytes(gpu_row), HostBytes(row));
}

TEST_F(FillTest, FillsAnEmptyTensorAndStillChecksTheValue) {
  const Tensor empty = Must(Tensor::Zeros(DType::kInt8, {0, 4}, Gpu()));
  EXPECT_TRUE(Fill(empty, 3).ok());
  const Tensor cpu_empty = Must(Tensor::Zeros(DType::kInt8, {0, 4}));
  EXPECT_EQ(Fill(empty, 0.5), ApplyScalars(cpu_empty, ElementOp::kAssign, {0.5}));
  EXPECT_FALSE(Fill(empty, 0.5).ok());
}

TEST_F(FillTest, FillsALargeTensorEverywhere) {
  // More elements than one launch's threads, so the grid-stride loop wraps.
  const Index n = Index{1} << 24;
  const Tensor gpu = Must(Tensor::Uninitialized(DType::kInt16, {n}, Gpu()));
  ASSERT_OK(Fill(gpu, -3));
  const Tensor expected = Must(Tensor::Uninitialized(DType::kInt16, {n}));
  ASSERT_OK(ApplyScalars(expected, ElementOp::kAssign, {-3}));
  EXPECT_EQ(HostBytes(gpu), HostBytes(expected));
}

// Needs no device: a CPU tensor is the CPU fill's.
TEST(FillCpuTest, ACpuTensorIsFilledByTheCpu) {
  const Tensor cpu = Must(Tensor::Zeros(DType::kInt32, {3}));
  ASSERT_OK(Fill(cpu, 5));
  EXPECT_EQ(HostBytes(cpu), HostBytes(CpuTensor(DType::kInt32, {3}, {5, 5, 5})));
  EXPECT_EQ(Fill(cpu, 0.5), ApplyScalars(cpu, ElementOp::kAssign, {0.5}));
}

}  // namespace
}  // namespace tensor::cuda
