// Without a backend linked in (this binary registers none), device
// tensors get an error that says how to build one in.
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/device_ops.h"
#include "tensor/device_transfer.h"
#include "tensor/elementwise_unary.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"
#include "tests/tensor/op_test_support.h"
#include "tests/tensor/status_matchers.h"

namespace tensor {
namespace {

using ::tensor::testing::Must;
using ::tensor::testing::TensorOf;
using ::tensor_testing::StatusIs;
using ::testing::HasSubstr;

constexpr char kNoBackend[] =
    "the tensor is on cuda:0, and this build has no backend for that device (build with "
    "--config=cuda)";

TEST(DeviceOpsUnregisteredTest, DeviceOpsForNamesTheOperationAndTheBuildFlag) {
  EXPECT_THAT(DeviceOpsFor(Device::Cuda(0), "exp"),
              StatusIs(absl::StatusCode::kFailedPrecondition, std::string("exp: ") + kNoBackend));
}

TEST(DeviceOpsUnregisteredTest, ToDeviceFailsBothWays) {
  const Tensor host = Must(TensorOf(DType::kFloat32, {2}, {1, 2}));
  EXPECT_THAT(ToDevice(host, Device::Cuda(0)),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr(kNoBackend)));
  float bytes[2] = {1, 2};
  ScopedLoan loan("a device buffer");
  const Tensor lent = Must(Tensor::Lend(DType::kFloat32, Must(Layout::Contiguous({2})), bytes,
                                        sizeof(bytes), loan.token(), Device::Cuda(0)));
  EXPECT_THAT(ToDevice(lent, Device::Cpu()),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr(kNoBackend)));
  EXPECT_THAT(ApplyUnary(lent, UnaryFunction::kExp),
              StatusIs(absl::StatusCode::kFailedPrecondition, std::string("exp: ") + kNoBackend));
}

}  // namespace
}  // namespace tensor
