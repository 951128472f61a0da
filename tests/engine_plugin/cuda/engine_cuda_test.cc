// The engine's device observations: with observationDevice=cuda:0,
// RGB_INTERLEAVED is a CUDA tensor holding the very bytes the CPU engine
// renders, with and without pinned staging; a retained one keeps them
// through later steps; and the C ABI hands the host a host copy, or with
// retain_observation_on_device the device buffer itself. Those
// skip without a GPU; a missing device's error at Init is checked anywhere.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gtest/gtest.h"
#include "tensor/cuda/runtime.h"
#include "tensor/tensor.h"
#include "tests/engine_plugin/engine_test_support.h"
#include "tests/tensor/cuda/cuda_test_support.h"

namespace engine_plugin {
namespace {

using tensor::cuda::testing::CudaTest;
using tensor::cuda::testing::HostBytes;

// Turning changes every frame, so a buffer overwritten by a later step
// would show.
constexpr Actions kTurn = {20, 0, 0, 1, 0, 0, 0};

std::vector<unsigned char> CpuBytes(const ObservationValue& value) {
  const std::size_t bytes = static_cast<std::size_t>(value.tensor.num_elements());
  return std::vector<unsigned char>(Bytes(value), Bytes(value) + bytes);
}

// `size` bytes at device address `data`, copied to the host.
std::vector<unsigned char> DeviceBytes(const void* data, std::size_t size) {
  std::vector<unsigned char> bytes(size);
  EXPECT_EQ(cudaMemcpy(bytes.data(), data, size, cudaMemcpyDeviceToHost), cudaSuccess);
  return bytes;
}

class EngineCudaTest : public CudaTest, public ::testing::WithParamInterface<bool> {
 protected:
  std::vector<std::pair<std::string, std::string>> DeviceSettings() const {
    return {{"observationDevice", "cuda:0"}, {"pinnedStaging", GetParam() ? "true" : "false"}};
  }
};

TEST_P(EngineCudaTest, DeviceFramesAreTheCpuFrames) {
  std::unique_ptr<Engine> cpu = InitEngine("demo_maze");
  std::unique_ptr<Engine> gpu = InitEngine("demo_maze", DeviceSettings());
  ASSERT_NE(cpu, nullptr);
  ASSERT_NE(gpu, nullptr);
  ASSERT_TRUE(cpu->Start(0, 5).ok());
  ASSERT_TRUE(gpu->Start(0, 5).ok());
  for (int step = 0; step < 8; ++step) {
    absl::StatusOr<ObservationValue> expected = cpu->Observation(0);
    absl::StatusOr<ObservationValue> got = gpu->Observation(0);
    ASSERT_TRUE(expected.ok()) << expected.status();
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->tensor.device(), tensor::Device::Cuda(0));
    EXPECT_EQ(got->tensor.shape(), expected->tensor.shape());
    EXPECT_EQ(HostBytes(got->tensor), CpuBytes(*expected)) << "step " << step;
    // Only RGB_INTERLEAVED moves; the rest stays on the host.
    absl::StatusOr<ObservationValue> rgbd = gpu->Observation(1);
    ASSERT_TRUE(rgbd.ok()) << rgbd.status();
    EXPECT_TRUE(rgbd->tensor.device().is_cpu());
    double reward = 0;
    cpu->Act(kTurn);
    gpu->Act(kTurn);
    ASSERT_TRUE(cpu->Advance(1, &reward).ok());
    ASSERT_TRUE(gpu->Advance(1, &reward).ok());
  }
}

TEST_P(EngineCudaTest, StepsThatKeepNothingAllocateNothing) {
  std::unique_ptr<Engine> gpu = InitEngine("demo_maze", DeviceSettings());
  ASSERT_NE(gpu, nullptr);
  ASSERT_TRUE(gpu->Start(0, 5).ok());
  double reward = 0;
  for (int step = 0; step < 3; ++step) {
    ASSERT_TRUE(gpu->Observation(0).ok());
    ASSERT_TRUE(gpu->Advance(1, &reward).ok());
  }
  const int allocated = gpu->frame_buffers_allocated();
  for (int step = 0; step < 10; ++step) {
    ASSERT_TRUE(gpu->Observation(0).ok());
    gpu->Act(kTurn);
    ASSERT_TRUE(gpu->Advance(1, &reward).ok());
  }
  EXPECT_EQ(gpu->frame_buffers_allocated(), allocated);
}

TEST_P(EngineCudaTest, ARetainedDeviceFrameIsNotOverwritten) {
  std::unique_ptr<Engine> gpu = InitEngine("demo_maze", DeviceSettings());
  ASSERT_NE(gpu, nullptr);
  ASSERT_TRUE(gpu->Start(0, 5).ok());
  absl::StatusOr<ObservationValue> kept = gpu->RetainObservation(0);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->tensor.device(), tensor::Device::Cuda(0));
  const std::vector<unsigned char> first = HostBytes(kept->tensor);
  double reward = 0;
  for (int step = 0; step < 4; ++step) {
    gpu->Act(kTurn);
    ASSERT_TRUE(gpu->Advance(1, &reward).ok());
    absl::StatusOr<ObservationValue> now = gpu->Observation(0);
    ASSERT_TRUE(now.ok()) << now.status();
    EXPECT_NE(HostBytes(now->tensor), first) << "the view did not change: the test shows nothing";
  }
  EXPECT_EQ(HostBytes(kept->tensor), first);
}

TEST_P(EngineCudaTest, TheCApiHandsOutHostCopies) {
  std::unique_ptr<Engine> cpu = InitEngine("demo_maze");
  ASSERT_NE(cpu, nullptr);
  ASSERT_TRUE(cpu->Start(0, 5).ok());
  absl::StatusOr<ObservationValue> expected = cpu->Observation(0);
  ASSERT_TRUE(expected.ok()) << expected.status();

  EnvCApi api;
  void* context = StartContext(api, "demo_maze", DeviceSettings(), 5);
  ASSERT_NE(context, nullptr);
  EnvCApi_Observation observation;
  ASSERT_EQ(api.observation(context, 0, &observation), 0) << api.error_message(context);
  const std::vector<unsigned char> frame = CpuBytes(*expected);
  // Host memory: reading it here would crash on a device pointer.
  EXPECT_EQ(std::memcmp(observation.payload.bytes, frame.data(), frame.size()), 0);
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation(context, 0, &observation, &handle), 0)
      << api.error_message(context);
  EXPECT_EQ(std::memcmp(observation.payload.bytes, frame.data(), frame.size()), 0);
  api.release_context(context);
  EXPECT_EQ(std::memcmp(observation.payload.bytes, frame.data(), frame.size()), 0);
  env_release_observation(handle);
}

TEST_P(EngineCudaTest, TheCApiHandsOutTheDeviceBufferOnDevice) {
  std::unique_ptr<Engine> cpu = InitEngine("demo_maze");
  ASSERT_NE(cpu, nullptr);
  ASSERT_TRUE(cpu->Start(0, 5).ok());
  absl::StatusOr<ObservationValue> expected = cpu->Observation(0);
  ASSERT_TRUE(expected.ok()) << expected.status();
  const std::vector<unsigned char> frame = CpuBytes(*expected);

  EnvCApi api;
  void* context = StartContext(api, "demo_maze", DeviceSettings(), 5);
  ASSERT_NE(context, nullptr);
  EnvCApi_Observation rgb;
  EnvCApi_Device device;
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation_on_device(context, 0, &rgb, &device, &handle), 0)
      << api.error_message(context);
  EXPECT_EQ(device.type, EnvCApi_DeviceCuda);
  EXPECT_EQ(device.index, 0);
  cudaPointerAttributes attributes;
  ASSERT_EQ(cudaPointerGetAttributes(&attributes, rgb.payload.bytes), cudaSuccess);
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, 0);
  EXPECT_EQ(DeviceBytes(rgb.payload.bytes, frame.size()), frame);
  // The handle keeps the device buffer from later frames and the context.
  for (int step = 0; step < 3; ++step) {
    double reward = 0;
    ASSERT_EQ(api.act_discrete(context, kTurn.data()), 0);
    ASSERT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Running);
  }
  api.release_context(context);
  EXPECT_EQ(DeviceBytes(rgb.payload.bytes, frame.size()), frame);
  env_release_observation(handle);
}

// Runs on every machine: one past the last device (cuda:0 without a GPU)
// is refused at Init with CUDA's account of the devices.
TEST(EngineCudaSettingsTest, AMissingDeviceFailsAtInit) {
  const int missing = tensor::cuda::DeviceCount();
  const std::string device = "cuda:" + std::to_string(missing);
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("demo_maze");
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->SetSetting("observationDevice", device).ok());
  ASSERT_TRUE((*engine)->SetSetting("pinnedStaging", "true").ok());
  absl::Status init = (*engine)->Init();
  EXPECT_FALSE(init.ok());
  EXPECT_NE(init.message().find("setting 'observationDevice' is '" + device + "'"),
            absl::string_view::npos)
      << init;
  EXPECT_NE(init.message().find("CUDA device " + std::to_string(missing)),
            absl::string_view::npos)
      << init;
}

INSTANTIATE_TEST_SUITE_P(PageableAndPinned, EngineCudaTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Pinned" : "Pageable";
                         });

}  // namespace
}  // namespace engine_plugin
