// Observations on a device, on any machine: through the fake CUDA backend
// (tests/tensor/fake_cuda_backend.h), whose cuda:0 memory is CPU memory,
// a level's tensor made with t:cuda() and the engine's observationDevice
// frame take the engine's and the C ABI's device paths, and the test can
// read what they hold. tests/engine_plugin/cuda/ runs the same paths on a
// GPU.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/device_ops.h"
#include "tests/engine_plugin/engine_test_support.h"
#include "tests/tensor/fake_cuda_backend.h"

namespace engine_plugin {
namespace {

using ::testing::ElementsAre;

constexpr char kDeviceLevel[] = R"(
local tensor = require 'dmlab.system.tensor'
local api = {}
function api:nextMap() return "*******\n*P   A*\n*******\n" end
function api:customObservationSpec()
  return {
    {name = 'ON_GPU', type = 'Doubles', shape = {2, 3}},
    {name = 'ON_GPU_TRANSPOSED', type = 'Doubles', shape = {3, 2}},
  }
end
api.gpu = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}:cuda()
function api:customObservation(name)
  if name == 'ON_GPU' then return api.gpu end
  return api.gpu:transpose(1, 2)
end
function api:writeProperty(key, value)
  if key == 'fill' then api.gpu:fill(tonumber(value)) return true end
end
return api
)";

class DeviceObservationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static const tensor::DeviceOps kFake = tensor::testing::MakeFakeCudaOps();
    tensor::RegisterDeviceOps(tensor::DeviceType::kCuda, &kFake);
  }

  static std::vector<double> Values(const ObservationValue& value) {
    const double* data = Doubles(value);  // the fake's device memory is readable
    return std::vector<double>(data, data + value.tensor.num_elements());
  }
};

TEST_F(DeviceObservationsTest, ALevelsDeviceTensorIsObservedOnItsDevice) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("device", kDeviceLevel));
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 0).ok());
  const int on_gpu = ObservationIndex(*engine, "ON_GPU");
  absl::StatusOr<ObservationValue> shared = engine->Observation(on_gpu);
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_EQ(shared->tensor.device(), tensor::Device::Cuda(0));
  EXPECT_THAT(Values(*shared), ElementsAre(1, 2, 3, 4, 5, 6));

  // Compacted on the device, not brought to the host.
  absl::StatusOr<ObservationValue> transposed =
      engine->Observation(ObservationIndex(*engine, "ON_GPU_TRANSPOSED"));
  ASSERT_TRUE(transposed.ok()) << transposed.status();
  EXPECT_EQ(transposed->tensor.device(), tensor::Device::Cuda(0));
  EXPECT_THAT(Values(*transposed), ElementsAre(1, 4, 2, 5, 3, 6));

  // A retained one is a device copy: the level's later writes miss it.
  absl::StatusOr<ObservationValue> kept = engine->RetainObservation(on_gpu);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->tensor.device(), tensor::Device::Cuda(0));
  ASSERT_EQ(*engine->WriteProperty("fill", "7"), PropertyResult::kSuccess);
  EXPECT_THAT(Values(*kept), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Values(*engine->Observation(on_gpu)), ElementsAre(7, 7, 7, 7, 7, 7))
      << "unretained, the observation is the level's own tensor";
}

// The C ABI: observation() copies to the host, retain_observation_on_device
// hands out the device copy and says where it is.
TEST_F(DeviceObservationsTest, TheCApiGivesHostCopiesOrTheDeviceBuffer) {
  EnvCApi api;
  void* context = StartContext(api, WriteLevel("device_abi", kDeviceLevel));
  ASSERT_NE(context, nullptr);
  int on_gpu = -1;
  for (int i = 0; i < api.observation_count(context); ++i) {
    if (std::string(api.observation_name(context, i)) == "ON_GPU") on_gpu = i;
  }
  ASSERT_GE(on_gpu, 0);

  EnvCApi_Observation host;
  ASSERT_EQ(api.observation(context, on_gpu, &host), 0) << api.error_message(context);
  EXPECT_THAT(std::vector<double>(host.payload.doubles, host.payload.doubles + 6),
              ElementsAre(1, 2, 3, 4, 5, 6));

  EnvCApi_Observation device_view;
  EnvCApi_Device device = {EnvCApi_DeviceCpu, -1};
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation_on_device(context, on_gpu, &device_view, &device, &handle), 0)
      << api.error_message(context);
  EXPECT_EQ(device.type, EnvCApi_DeviceCuda);
  EXPECT_EQ(device.index, 0);
  EXPECT_NE(device_view.payload.doubles, host.payload.doubles);
  ASSERT_EQ(api.write_property(context, "fill", "9"), EnvCApi_PropertyResult_Success);
  double reward = 0;
  ASSERT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Running);
  api.release_context(context);
  EXPECT_THAT(std::vector<double>(device_view.payload.doubles, device_view.payload.doubles + 6),
              ElementsAre(1, 2, 3, 4, 5, 6))
      << "the handle keeps the device copy past writes, steps and the context";
  env_release_observation(handle);
}

// observationDevice=cuda:0: the engine's own frame, uploaded each step.
TEST_F(DeviceObservationsTest, TheUploadedFrameIsHandedOutOnTheDevice) {
  EnvCApi api;
  void* context = StartContext(
      api, "demo_maze", {{"width", "16"}, {"height", "12"}, {"observationDevice", "cuda:0"}});
  ASSERT_NE(context, nullptr);
  EnvCApi_Observation host;
  ASSERT_EQ(api.observation(context, 0, &host), 0) << api.error_message(context);
  const std::vector<std::uint8_t> frame(host.payload.bytes, host.payload.bytes + 12 * 16 * 3);

  EnvCApi_Observation rgb;
  EnvCApi_Device device;
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation_on_device(context, 0, &rgb, &device, &handle), 0)
      << api.error_message(context);
  EXPECT_EQ(device.type, EnvCApi_DeviceCuda);
  EXPECT_EQ(device.index, 0);
  EXPECT_NE(rgb.payload.bytes, host.payload.bytes) << "the device buffer, not the host copy";
  EXPECT_EQ(std::vector<std::uint8_t>(rgb.payload.bytes, rgb.payload.bytes + frame.size()), frame);
  const int turn[7] = {40, 0, 0, 0, 0, 0, 0};
  for (int step = 0; step < 3; ++step) {
    double reward = 0;
    ASSERT_EQ(api.act_discrete(context, turn), 0);
    ASSERT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Running);
  }
  EXPECT_EQ(std::vector<std::uint8_t>(rgb.payload.bytes, rgb.payload.bytes + frame.size()), frame)
      << "later uploads go to other device buffers";
  // Not a device observation: the same call says CPU.
  EnvCApi_Observation position;
  EnvCApi_RetainedObservation* position_handle = nullptr;
  ASSERT_EQ(api.retain_observation_on_device(context, 1, &position, &device, &position_handle), 0);
  EXPECT_EQ(device.type, EnvCApi_DeviceCpu);
  api.release_context(context);
  env_release_observation(handle);
  env_release_observation(position_handle);
}

}  // namespace
}  // namespace engine_plugin
