// Runs with or without a GPU: these pin the errors a CPU-only machine gets.
#include "tensor/cuda/runtime.h"

#include <cuda_runtime_api.h>

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tensor::cuda {
namespace {

using ::testing::HasSubstr;

TEST(CudaStatusTest, SuccessIsOk) { EXPECT_TRUE(CudaStatus(cudaSuccess, "cudaMalloc").ok()); }

TEST(CudaStatusTest, NamesTheCallAndCudasDescription) {
  const absl::Status s = CudaStatus(cudaErrorMemoryAllocation, "cudaMalloc");
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(s.message()), HasSubstr("cudaMalloc"));
  EXPECT_THAT(std::string(s.message()), HasSubstr(cudaGetErrorString(cudaErrorMemoryAllocation)));
}

TEST(CudaStatusTest, ABadDeviceIsInvalidArgument) {
  EXPECT_EQ(CudaStatus(cudaErrorInvalidDevice, "cudaSetDevice").code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CheckDeviceTest, TheFirstMissingIndexNamesTheIndexAndTheCount) {
  const int count = DeviceCount();
  const absl::Status s = CheckDevice(count);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr(absl::StrCat("CUDA device ", count)));
  EXPECT_THAT(std::string(s.message()), HasSubstr(absl::StrCat("sees ", count, " CUDA devices")));
}

TEST(CheckDeviceTest, DeviceZeroExistsExactlyWhenThereIsADevice) {
  const absl::Status s = CheckDevice(0);
  if (DeviceCount() > 0) {
    EXPECT_TRUE(s.ok()) << s;
  } else {
    // Without a device the reason is CUDA's own.
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    cudaGetLastError();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(std::string(s.message()), HasSubstr("CUDA device 0 is not available"));
    if (error != cudaSuccess) {
      EXPECT_THAT(std::string(s.message()), HasSubstr(cudaGetErrorString(error)));
    }
  }
}

TEST(CheckDeviceTest, ANegativeIndexIsInvalid) {
  const absl::Status s = CheckDevice(-1);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("CUDA device -1 does not exist"));
}

TEST(OnDeviceTest, ReturnsTheFunctionsErrorAndRestoresTheDevice) {
  if (DeviceCount() == 0) {
    // Without a device even cudaGetDevice fails, and f must not run.
    bool ran = false;
    const absl::Status s = OnDevice(0, [&] {
      ran = true;
      return absl::OkStatus();
    });
    EXPECT_FALSE(s.ok());
    EXPECT_FALSE(ran);
    return;
  }
  const int last = DeviceCount() - 1;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  int inside = -1;
  const absl::Status s = OnDevice(last, [&] {
    cudaGetDevice(&inside);
    return absl::DataLossError("from f");
  });
  EXPECT_EQ(s, absl::DataLossError("from f"));
  EXPECT_EQ(inside, last);
  int after = -1;
  ASSERT_EQ(cudaGetDevice(&after), cudaSuccess);
  EXPECT_EQ(after, 0);
}

}  // namespace
}  // namespace tensor::cuda
