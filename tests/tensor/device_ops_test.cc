// The core's dispatch of device tensors to a backend's DeviceOps, shown
// with the fake CUDA backend (tests/tensor/fake_cuda_backend.h).
#include "tensor/device_ops.h"

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/blas.h"
#include "tensor/device_transfer.h"
#include "tensor/elementwise.h"
#include "tensor/elementwise_compare.h"
#include "tensor/elementwise_unary.h"
#include "tensor/matmul.h"
#include "tensor/print.h"
#include "tensor/reduce.h"
#include "tensor/reduce_dim.h"
#include "tensor/statistics.h"
#include "tensor/tensor.h"
#include "tests/tensor/fake_cuda_backend.h"
#include "tests/tensor/op_test_support.h"
#include "tests/tensor/status_matchers.h"

namespace tensor {
namespace {

using ::tensor::testing::calls;
using ::tensor::testing::Calls;
using ::tensor::testing::Doubles;
using ::tensor::testing::MakeFakeCudaOps;
using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;
using ::tensor_testing::IsOk;
using ::tensor_testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const DeviceOps kFakeOps = MakeFakeCudaOps();

// The fake without one member, for the "not available" error.
const DeviceOps kFakeWithoutUnary = [] {
  DeviceOps ops = MakeFakeCudaOps();
  ops.apply_unary = nullptr;
  return ops;
}();

const Device kCuda = Device::Cuda(0);

class DeviceOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RegisterDeviceOps(DeviceType::kCuda, &kFakeOps);
    calls = Calls{};
  }
  void TearDown() override { RegisterDeviceOps(DeviceType::kCuda, &kFakeOps); }

  // `values` under `shape` as `dtype` on the fake cuda:0.
  static Tensor OnCuda(DType dtype, absl::Span<const Index> shape,
                       const std::vector<double>& values) {
    Tensor device = Must(ToDevice(Must(TensorOf(dtype, shape, values)), kCuda));
    calls = Calls{};
    return device;
  }

  // The values of a device tensor, read through a copy to the CPU.
  static std::vector<double> HostValues(const Tensor& t) {
    return Doubles(Must(ToDevice(t, Device::Cpu())));
  }
};

TEST_F(DeviceOpsTest, ToDeviceRoundTripsValuesAndRecordsDevices) {
  const Tensor host = Must(TensorOf(DType::kInt16, {2, 2}, {1, -2, 3, -4}));
  ASSERT_OK_AND_ASSIGN(const Tensor on_device, ToDevice(host, kCuda));
  EXPECT_EQ(on_device.device(), kCuda);
  EXPECT_EQ(on_device.dtype(), DType::kInt16);
  EXPECT_EQ(on_device.shape(), (Shape{2, 2}));
  EXPECT_EQ(calls.allocations, 1);
  ASSERT_OK_AND_ASSIGN(const Tensor back, ToDevice(on_device, Device::Cpu()));
  EXPECT_TRUE(back.device().is_cpu());
  EXPECT_THAT(Doubles(back), ElementsAre(1, -2, 3, -4));
  EXPECT_THAT(calls.members, ElementsAre("copy", "copy"));
  EXPECT_THAT(ToDevice(host, Device::Cuda(1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no device 1")));
}

TEST_F(DeviceOpsTest, ApplyScalarsRoutesToTheBackend) {
  const Tensor t = OnCuda(DType::kFloat32, {2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_OK(ApplyScalars(t, ElementOp::kMul, {1, 10, 100}));
  EXPECT_THAT(calls.members, ElementsAre("apply_scalars"));
  EXPECT_EQ(calls.element_op, ElementOp::kMul);
  EXPECT_THAT(calls.values, ElementsAre(1, 10, 100));
  EXPECT_THAT(calls.devices, ElementsAre(kCuda));
  EXPECT_THAT(HostValues(t), ElementsAre(1, 20, 300, 4, 50, 600));
}

TEST_F(DeviceOpsTest, ApplyScalarsChecksBeforeDispatch) {
  const Tensor ints = OnCuda(DType::kInt32, {3}, {1, 2, 3});
  EXPECT_THAT(ApplyScalars(ints, ElementOp::kDiv, {0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("division by zero")));
  EXPECT_THAT(ApplyScalars(ints, ElementOp::kAdd, {0.5}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("0.5 is not a value")));
  EXPECT_THAT(ApplyScalars(ints, ElementOp::kAdd, {1, 2}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("2 values do not match")));
  const Tensor bools = OnCuda(DType::kBool, {2}, {0, 1});
  EXPECT_THAT(ApplyScalars(bools, ElementOp::kAdd, {1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bool")));
  const Tensor expanded = Must(OnCuda(DType::kFloat32, {1}, {1}).Expand({3}));
  EXPECT_THAT(ApplyScalars(expanded, ElementOp::kAdd, {1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("share memory")));
  EXPECT_THAT(calls.members, IsEmpty());
  EXPECT_THAT(HostValues(ints), ElementsAre(1, 2, 3));
}

TEST_F(DeviceOpsTest, RevokedLentDeviceTensorIsRefused) {
  float bytes[2] = {1, 2};
  Tensor lent;
  {
    ScopedLoan loan("the test's device buffer");
    lent = Must(Tensor::Lend(DType::kFloat32, Must(Layout::Contiguous({2})), bytes, sizeof(bytes),
                             loan.token(), kCuda));
    ASSERT_OK(ApplyScalars(lent, ElementOp::kAdd, {1}));
  }
  calls = Calls{};
  EXPECT_THAT(
      ApplyScalars(lent, ElementOp::kAdd, {1}),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("the test's device buffer")));
  EXPECT_THAT(ApplyUnary(lent, UnaryFunction::kExp),
              StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(ToDevice(lent, Device::Cpu()), StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(calls.members, IsEmpty());
  EXPECT_EQ(bytes[0], 2);
}

TEST_F(DeviceOpsTest, CopyGoesBetweenTheCpuAndTheDeviceConvertingDTypes) {
  const Tensor device_bytes = OnCuda(DType::kUInt8, {4}, {0, 0, 0, 0});
  const Tensor device_floats = OnCuda(DType::kFloat32, {2, 2}, {0, 0, 0, 0});
  const Tensor host_ints = Must(TensorOf(DType::kInt32, {4}, {1, 2, 3, 4}));
  ASSERT_OK(ApplyComponents(device_floats, ElementOp::kAssign, host_ints));
  EXPECT_THAT(calls.devices, ElementsAre(kCuda, Device::Cpu()));
  const Tensor host_doubles = Must(TensorOf(DType::kFloat64, {4}, {0, 0, 0, 0}));
  ASSERT_OK(ApplyComponents(host_doubles, ElementOp::kAssign, device_floats));
  EXPECT_THAT(calls.devices, ElementsAre(Device::Cpu(), kCuda));
  ASSERT_OK(ApplyComponents(device_bytes, ElementOp::kAssign, device_floats));
  EXPECT_THAT(calls.members, ElementsAre("copy", "copy", "copy"));
  EXPECT_THAT(Doubles(host_doubles), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(HostValues(device_bytes), ElementsAre(1, 2, 3, 4));
  calls = Calls{};
  EXPECT_THAT(ApplyComponents(device_bytes, ElementOp::kAssign,
                              Must(TensorOf(DType::kInt32, {3}, {1, 2, 3}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("4 and 3 elements")));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, ApplyComponentsRoutesOtherOpsAndChecksFirst) {
  const Tensor a = OnCuda(DType::kInt32, {3}, {10, 20, 30});
  const Tensor b = OnCuda(DType::kInt32, {3}, {1, 2, 3});
  ASSERT_OK(ApplyComponents(a, ElementOp::kSub, b));
  EXPECT_THAT(calls.members, ElementsAre("apply_components"));
  EXPECT_EQ(calls.element_op, ElementOp::kSub);
  EXPECT_THAT(HostValues(a), ElementsAre(9, 18, 27));
  calls = Calls{};
  const Tensor floats = OnCuda(DType::kFloat32, {3}, {1, 2, 3});
  EXPECT_THAT(ApplyComponents(a, ElementOp::kAdd, floats),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("same type")));
  const Tensor bools = OnCuda(DType::kBool, {3}, {1, 0, 1});
  EXPECT_THAT(ApplyComponents(bools, ElementOp::kAdd, bools),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bool")));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, MixedDevicesNameBoth) {
  const Tensor device = OnCuda(DType::kFloat32, {3}, {1, 2, 3});
  const Tensor host = Must(TensorOf(DType::kFloat32, {3}, {1, 2, 3}));
  EXPECT_THAT(ApplyComponents(host, ElementOp::kAdd, device),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cadd: the tensors are on different devices, cpu and cuda:0")));
  EXPECT_THAT(CompareTensor(device, CompareOp::kLt, host),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cuda:0 and cpu")));
  const Tensor matrix = Must(TensorOf(DType::kFloat32, {3, 3}, std::vector<double>(9, 1)));
  EXPECT_THAT(MatMul(matrix, Must(device.Reshape({3, 1}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cpu and cuda:0")));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, ApplyUnaryRoutesAndChecksTheDType) {
  const Tensor t = OnCuda(DType::kFloat64, {2}, {0, 1});
  ASSERT_OK(ApplyUnary(t, UnaryFunction::kNeg));
  EXPECT_THAT(calls.members, ElementsAre("apply_unary"));
  EXPECT_EQ(calls.function, UnaryFunction::kNeg);
  EXPECT_THAT(HostValues(t), ElementsAre(0, -1));
  calls = Calls{};
  const Tensor ints = OnCuda(DType::kInt32, {2}, {0, 1});
  EXPECT_THAT(ApplyUnary(ints, UnaryFunction::kExp),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exp: not defined for")));
  const Tensor bytes = OnCuda(DType::kUInt8, {2}, {0, 1});
  EXPECT_THAT(ApplyUnary(bytes, UnaryFunction::kNeg),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("neg: not defined for")));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, AMissingMemberIsNotAvailable) {
  RegisterDeviceOps(DeviceType::kCuda, &kFakeWithoutUnary);
  const Tensor t = OnCuda(DType::kFloat32, {2}, {0, 1});
  EXPECT_THAT(ApplyUnary(t, UnaryFunction::kExp),
              StatusIs(absl::StatusCode::kUnimplemented, "exp: not available on cuda:0"));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, SumAndExtremeRoute) {
  const Tensor t = OnCuda(DType::kInt16, {2, 2}, {3, -7, 5, 1});
  ASSERT_OK_AND_ASSIGN(const double total, Sum(t));
  EXPECT_EQ(total, 2);
  ASSERT_OK_AND_ASSIGN(const double least, ExtremeOf(t, internal::Extreme::kMin));
  EXPECT_EQ(least, -7);
  EXPECT_THAT(calls.members, ElementsAre("sum", "extreme"));
  EXPECT_EQ(calls.extreme, internal::Extreme::kMin);
  calls = Calls{};
  EXPECT_THAT(ExtremeOf(OnCuda(DType::kInt16, {0}, {}), internal::Extreme::kMax),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no elements")));
  EXPECT_THAT(ExtremeOf(OnCuda(DType::kBool, {1}, {1}), internal::Extreme::kMax),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, SumAlongAllocatesItsResultOnTheDevice) {
  const Tensor t = OnCuda(DType::kFloat32, {2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_OK_AND_ASSIGN(const Tensor sums, SumAlong(t, 1));
  EXPECT_THAT(calls.members, ElementsAre("sum_along"));
  EXPECT_EQ(calls.dim, 1);
  EXPECT_EQ(calls.allocations, 1);
  EXPECT_EQ(sums.device(), kCuda);
  EXPECT_EQ(sums.dtype(), DType::kFloat32);
  EXPECT_EQ(sums.shape(), (Shape{2, 1}));
  EXPECT_THAT(calls.devices, ElementsAre(kCuda, kCuda));
  EXPECT_THAT(HostValues(sums), ElementsAre(6, 15));
  calls = Calls{};
  EXPECT_THAT(SumAlong(t, 2), StatusIs(absl::StatusCode::kOutOfRange));
  EXPECT_THAT(calls.members, IsEmpty());
  EXPECT_EQ(calls.allocations, 0);
}

TEST_F(DeviceOpsTest, ExtremeAlongGivesValuesAndInt64IndicesOnTheDevice) {
  const Tensor t = OnCuda(DType::kInt32, {2, 3}, {1, 9, 3, 7, 5, 7});
  ASSERT_OK_AND_ASSIGN(const ValuesAndIndices found,
                       ExtremeAlong(t, 1, internal::Extreme::kMax, /*first_index=*/1));
  EXPECT_THAT(calls.members, ElementsAre("extreme_along"));
  EXPECT_EQ(calls.first_index, 1);
  EXPECT_EQ(calls.extreme, internal::Extreme::kMax);
  EXPECT_EQ(calls.allocations, 2);
  EXPECT_EQ(found.values.device(), kCuda);
  EXPECT_EQ(found.indices.device(), kCuda);
  EXPECT_EQ(found.values.dtype(), DType::kInt32);
  EXPECT_EQ(found.indices.dtype(), DType::kInt64);
  EXPECT_EQ(found.indices.shape(), (Shape{2, 1}));
  EXPECT_THAT(HostValues(found.values), ElementsAre(9, 7));
  EXPECT_THAT(HostValues(found.indices), ElementsAre(2, 1));
  calls = Calls{};
  EXPECT_THAT(ExtremeAlong(OnCuda(DType::kInt32, {2, 0}, {}), 1, internal::Extreme::kMax, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no elements")));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, ComparisonsGiveByteMasksOnTheDevice) {
  const Tensor x = OnCuda(DType::kFloat64, {3}, {1, 2, 3});
  ASSERT_OK_AND_ASSIGN(const Tensor above, CompareScalar(x, CompareOp::kGt, 1.5));
  EXPECT_THAT(calls.members, ElementsAre("compare_scalar"));
  EXPECT_EQ(calls.compare_op, CompareOp::kGt);
  EXPECT_EQ(calls.value, 1.5);
  EXPECT_EQ(above.device(), kCuda);
  EXPECT_EQ(above.dtype(), DType::kUInt8);
  EXPECT_THAT(HostValues(above), ElementsAre(0, 1, 1));
  const Tensor y = OnCuda(DType::kFloat64, {3}, {3, 2, 1});
  ASSERT_OK_AND_ASSIGN(const Tensor same, CompareTensor(x, CompareOp::kEq, y));
  EXPECT_THAT(calls.members, ElementsAre("compare_tensor"));  // OnCuda forgot the rest
  EXPECT_EQ(same.device(), kCuda);
  EXPECT_THAT(HostValues(same), ElementsAre(0, 1, 0));
  calls = Calls{};
  EXPECT_THAT(CompareTensor(x, CompareOp::kEq, OnCuda(DType::kFloat32, {3}, {1, 2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("same type")));
  EXPECT_THAT(CompareScalar(OnCuda(DType::kBool, {1}, {1}), CompareOp::kEq, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("BoolTensor")));
  EXPECT_THAT(calls.members, IsEmpty());
}

TEST_F(DeviceOpsTest, AddProductAndMatMulRoute) {
  const Tensor m = OnCuda(DType::kFloat32, {2, 2}, {1, 2, 3, 4});
  const Tensor v = OnCuda(DType::kFloat32, {2}, {1, 1});
  const Tensor y = OnCuda(DType::kFloat32, {2}, {10, 20});
  ASSERT_OK(AddProduct(BlasOp::kAddmv, y, 0.5, y, 2, m, v));
  EXPECT_THAT(calls.members, ElementsAre("add_product"));
  EXPECT_EQ(calls.blas_op, BlasOp::kAddmv);
  EXPECT_EQ(calls.beta, 0.5);
  EXPECT_EQ(calls.alpha, 2);
  EXPECT_THAT(HostValues(y), ElementsAre(11, 24));
  calls = Calls{};
  ASSERT_OK_AND_ASSIGN(const Tensor product, MatMul(m, m));
  EXPECT_THAT(calls.members, ElementsAre("add_product"));
  EXPECT_EQ(calls.blas_op, BlasOp::kMm);
  EXPECT_EQ(calls.beta, 0);
  EXPECT_EQ(calls.alpha, 1);
  EXPECT_EQ(calls.allocations, 1);
  EXPECT_EQ(product.device(), kCuda);
  EXPECT_EQ(product.shape(), (Shape{2, 2}));
  EXPECT_THAT(HostValues(product), ElementsAre(7, 10, 15, 22));
  calls = Calls{};
  EXPECT_THAT(AddProduct(BlasOp::kAddmv, v, 1, v, 1, m, OnCuda(DType::kFloat32, {3}, {1, 1, 1})),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(
      Product(BlasOp::kMv, Must(OnCuda(DType::kFloat32, {3}, {0, 0, 0}).Narrow(0, 0, 3)), m, v),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("does not match")));
  EXPECT_THAT(MatMul(m, v),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a matrix")));
  EXPECT_THAT(calls.members, IsEmpty());
  EXPECT_EQ(calls.allocations, 0);
}

TEST_F(DeviceOpsTest, PrintingCopiesToTheHostAndNamesTheDevice) {
  const Tensor t = OnCuda(DType::kFloat32, {2}, {1, 2.5});
  ASSERT_OK_AND_ASSIGN(const std::string text, ToString(t));
  EXPECT_EQ(text, "[dmlab.system.tensor.FloatTensor] device: cuda:0\nShape: [2]\n[  1, 2.5]");
  EXPECT_THAT(calls.members, ElementsAre("copy"));
}

TEST_F(DeviceOpsTest, OperationsWithoutDispatchStillRefuseDeviceTensors) {
  const Tensor t = OnCuda(DType::kFloat32, {2}, {1.5, 2.5});
  EXPECT_THAT(Round(t, Rounding::kFloor),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "round: the tensor is on cuda:0; this operation runs on the CPU, so copy "
                       "the tensor to the CPU first"));
  EXPECT_THAT(calls.members, IsEmpty());
}

}  // namespace
}  // namespace tensor
