#include "engine_plugin/env_c_api.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

// tests/engine_plugin/env_c_api_c_client.c
extern "C" int RunDemoMazeFromC(int steps, std::uint64_t* checksum, char* error,
                                std::size_t error_size);

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

// Built-in observation indices, in engine.h's order.
constexpr int kRgb = 0;
constexpr int kRgbd = 1;
constexpr int kPosTrans = 2;
constexpr int kPosRot = 3;
constexpr int kTopDown = 4;

const int kForward[7] = {0, 0, 0, 1, 0, 0, 0};
const int kTurnRight[7] = {40, 0, 0, 0, 0, 0, 0};

// A level for the paths demo_maze does not reach: a corridor with three
// apples straight ahead of the spawn (the player faces +x), events at
// start, a string and an in-place-updated doubles observation, properties
// that round-trip, and failures switched on by settings or properties.
constexpr char kTestLevel[] = R"lua(
local tensor = require 'dmlab.system.tensor'
local events = require 'dmlab.system.events'

local api = {}
local properties = {['test.answer'] = '42', ['test.failStart'] = 'false'}

function api:init(settings)
  if settings.failInit == 'true' then error('init failed on purpose') end
  properties['test.setting'] = settings.custom
  properties['test.failStart'] = settings.failStart or 'false'
  self._endAfter = tonumber(settings.endAfterSeconds)
  self._counter = tensor.DoubleTensor(2)
end

function api:start(episode, seed)
  if properties['test.failStart'] == 'true' then error('start failed on purpose') end
  self._frames = 0
  events:add('started', 'episode ' .. episode, tensor.ByteTensor{1, 2, 3},
             tensor.DoubleTensor{episode, 0.5})
end

function api:nextMap()
  return '*******\n*PAAA *\n*******\n'
end

function api:hasEpisodeFinished(timeSeconds)
  return self._endAfter ~= nil and timeSeconds >= self._endAfter
end

function api:customObservationSpec()
  return {
      {name = 'TEST.TEXT', type = 'String'},
      {name = 'TEST.COUNTER', type = 'Doubles', shape = {2}},
  }
end

-- The counter tensor is written in place every frame: a host that retains
-- it must get a copy, not this storage.
function api:observeFrame(rgb, depth)
  self._frames = self._frames + 1
  self._counter:fill(self._frames)
end

function api:customObservation(name)
  if name == 'TEST.TEXT' then return 'frame ' .. self._frames end
  return self._counter
end

function api:readProperty(key)
  if key == 'test.fail' then error('read failed on purpose') end
  return properties[key]
end

function api:writeProperty(key, value)
  if properties[key] == nil then return false end
  properties[key] = value
  return true
end

function api:listProperty(key, callback)
  if key == '' then callback('test', 'l') end
  if key == 'test' then
    callback('test.answer', 'rw')
    callback('test.setting', 'r')
  end
end

return api
)lua";

constexpr int kTestText = 5;
constexpr int kTestCounter = 6;

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::string WriteLevel(const std::string& name, const std::string& source) {
  const std::string path = TempDir() + "/" + name + ".lua";
  std::ofstream(path) << source;
  return path;
}

std::string TestLevelPath() { return WriteLevel("c_api_test_level", kTestLevel); }

// One connected context, released at the end of the test unless Release()d.
class Env {
 public:
  explicit Env(const std::string& level) {
    connected_ = env_connect(level.c_str(), &api_, &context_, error_, sizeof(error_)) == 0;
  }
  ~Env() { Release(); }

  void Release() {
    if (context_ != nullptr) api_.release_context(context_);
    context_ = nullptr;
  }

  bool connected() const { return connected_; }
  const char* connect_error() const { return error_; }
  const EnvCApi& api() const { return api_; }
  void* context() const { return context_; }
  std::string error() const { return api_.error_message(context_); }

  // Settings, init and start(0, seed), asserting on each.
  void Ready(std::vector<std::pair<std::string, std::string>> settings, std::uint64_t seed = 1) {
    ASSERT_TRUE(connected_) << error_;
    for (const auto& [key, value] : settings) {
      ASSERT_EQ(api_.setting(context_, key.c_str(), value.c_str()), 0) << error();
    }
    ASSERT_EQ(api_.init(context_), 0) << error();
    ASSERT_EQ(api_.start(context_, 0, seed), 0) << error();
  }

  EnvCApi_EnvironmentStatus Step(const int* actions, int frames, double* reward) {
    EXPECT_EQ(api_.act_discrete(context_, actions), 0) << error();
    return api_.advance(context_, frames, reward);
  }

  EnvCApi_Observation Observe(int index) {
    EnvCApi_Observation observation = {};
    EXPECT_EQ(api_.observation(context_, index, &observation), 0) << error();
    return observation;
  }

 private:
  EnvCApi api_ = {};
  void* context_ = nullptr;
  char error_[512] = {};
  bool connected_ = false;
};

std::vector<std::int64_t> Shape(const EnvCApi_ObservationSpec& spec) {
  return std::vector<std::int64_t>(spec.shape, spec.shape + spec.dims);
}

std::vector<std::int64_t> Strides(const EnvCApi_ObservationSpec& spec) {
  return std::vector<std::int64_t>(spec.strides, spec.strides + spec.dims);
}

std::size_t Elements(const EnvCApi_ObservationSpec& spec) {
  std::size_t elements = 1;
  for (int d = 0; d < spec.dims; ++d) elements *= static_cast<std::size_t>(spec.shape[d]);
  return elements;
}

std::vector<std::uint8_t> Bytes(const EnvCApi_Observation& observation) {
  return std::vector<std::uint8_t>(observation.payload.bytes,
                                   observation.payload.bytes + Elements(observation.spec));
}

std::vector<double> Doubles(const EnvCApi_Observation& observation) {
  return std::vector<double>(observation.payload.doubles,
                             observation.payload.doubles + Elements(observation.spec));
}

// Every function of the table is called by the tests below.
TEST(EnvConnectTest, ConnectsWithAnEmptyErrorMessage) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected()) << env.connect_error();
  EXPECT_NE(env.context(), nullptr);
  EXPECT_STREQ(env.api().error_message(env.context()), "");
}

TEST(EnvConnectTest, UnknownLevelFailsWithMessageAndNoContext) {
  EnvCApi api;
  void* context = &api;  // must be overwritten with null
  char error[256] = {};
  EXPECT_NE(env_connect("no_such_level", &api, &context, error, sizeof(error)), 0);
  EXPECT_EQ(context, nullptr);
  EXPECT_THAT(error, HasSubstr("no_such_level"));

  // A missing script path names the path.
  const std::string path = TempDir() + "/missing.lua";
  EXPECT_NE(env_connect(path.c_str(), &api, &context, error, sizeof(error)), 0);
  EXPECT_THAT(error, HasSubstr(path));
}

TEST(EnvConnectTest, NullArgumentsFail) {
  EnvCApi api;
  void* context = nullptr;
  char error[256] = {};
  EXPECT_NE(env_connect(nullptr, &api, &context, error, sizeof(error)), 0);
  EXPECT_THAT(error, HasSubstr("null"));
  EXPECT_NE(env_connect_sized("demo_maze", nullptr, sizeof(EnvCApi), &context, error,
                              sizeof(error)),
            0);
  EXPECT_NE(env_connect("demo_maze", &api, nullptr, error, sizeof(error)), 0);
  // No error buffer is fine too.
  EXPECT_NE(env_connect("no_such_level", &api, &context, nullptr, 0), 0);
}

// A client built against another env_c_api.h passes another size: refused
// before a byte of its struct is written (the struct grew from 25 to 30
// slots, and an older client's was written past).
TEST(EnvConnectTest, AnEnvCApiOfAnotherSizeIsRefusedUntouched) {
  EXPECT_EQ(env_c_api_version(), ENV_C_API_VERSION);
  struct {
    EnvCApi api;
    unsigned char after[64];
  } memory;
  for (const std::size_t size : {sizeof(EnvCApi) - 5 * sizeof(void*), std::size_t{0},
                                 sizeof(EnvCApi) + sizeof(void*)}) {
    SCOPED_TRACE(size);
    std::memset(&memory, 0xAB, sizeof(memory));
    void* context = &memory;
    char error[256] = {};
    EXPECT_NE(env_connect_sized("demo_maze", &memory.api, size, &context, error, sizeof(error)),
              0);
    EXPECT_EQ(context, nullptr);
    EXPECT_THAT(error, HasSubstr(absl::StrCat("the caller's EnvCApi has ", size,
                                              " bytes and this library's ", sizeof(EnvCApi))));
    const auto* bytes = reinterpret_cast<const unsigned char*>(&memory);
    EXPECT_TRUE(std::all_of(bytes, bytes + sizeof(memory), [](unsigned char b) {
      return b == 0xAB;
    }));
  }
}

TEST(EnvConnectTest, ErrorMessageIsTruncatedToTheBuffer) {
  EnvCApi api;
  void* context = nullptr;
  char error[8];
  std::memset(error, 'x', sizeof(error));
  EXPECT_NE(env_connect("no_such_level", &api, &context, error, 5), 0);
  EXPECT_EQ(std::strlen(error), 4u);
  EXPECT_EQ(error[5], 'x');
}

TEST(EnvCApiTest, HostWrittenInCRunsDemoMaze) {
  std::uint64_t checksum = 0;
  char error[256] = {};
  ASSERT_EQ(RunDemoMazeFromC(10, &checksum, error, sizeof(error)), 0) << error;
  EXPECT_GT(checksum, 0u);
}

TEST(EnvCApiTest, ActionsAreDeepMindLabsSeven) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  ASSERT_EQ(api.act_discrete_count(context), 7);
  std::vector<std::pair<std::string, std::pair<int, int>>> actions;
  for (int i = 0; i < 7; ++i) {
    int min = 0, max = 0;
    ASSERT_EQ(api.act_discrete_bounds(context, i, &min, &max), 0);
    actions.push_back({api.act_discrete_name(context, i), {min, max}});
  }
  EXPECT_THAT(actions, ElementsAre(Pair("LOOK_LEFT_RIGHT_PIXELS_PER_FRAME", Pair(-512, 512)),
                                   Pair("LOOK_DOWN_UP_PIXELS_PER_FRAME", Pair(-512, 512)),
                                   Pair("STRAFE_LEFT_RIGHT", Pair(-1, 1)),
                                   Pair("MOVE_BACK_FORWARD", Pair(-1, 1)), Pair("FIRE", Pair(0, 1)),
                                   Pair("JUMP", Pair(0, 1)), Pair("CROUCH", Pair(0, 1))));

  int min = 0, max = 0;
  EXPECT_EQ(api.act_discrete_name(context, 7), nullptr);
  EXPECT_THAT(env.error(), HasSubstr("action index 7 out of range [0, 7)"));
  EXPECT_EQ(api.act_discrete_name(context, -1), nullptr);
  EXPECT_NE(api.act_discrete_bounds(context, 7, &min, &max), 0);
  EXPECT_NE(api.act_discrete_bounds(context, 0, nullptr, &max), 0);
  EXPECT_THAT(env.error(), HasSubstr("must not be null"));
}

TEST(EnvCApiTest, BuiltInAndLevelObservationSpecs) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  ASSERT_EQ(api.setting(context, "width", "32"), 0);
  ASSERT_EQ(api.setting(context, "height", "24"), 0);
  ASSERT_EQ(api.init(context), 0) << env.error();

  ASSERT_EQ(api.observation_count(context), 7);
  std::vector<std::string> names;
  for (int i = 0; i < 7; ++i) names.push_back(api.observation_name(context, i));
  EXPECT_THAT(names,
              ElementsAre("RGB_INTERLEAVED", "RGBD_INTERLEAVED", "DEBUG.POS.TRANS", "DEBUG.POS.ROT",
                          "DEBUG.CAMERA.TOP_DOWN", "GRAY_HALF", "GOAL_DIRECTION"));

  EnvCApi_ObservationSpec spec;
  ASSERT_EQ(api.observation_spec(context, kRgb, &spec), 0);
  EXPECT_EQ(spec.type, EnvCApi_ObservationBytes);
  EXPECT_THAT(Shape(spec), ElementsAre(24, 32, 3));
  EXPECT_THAT(Strides(spec), ElementsAre(96, 3, 1));
  ASSERT_EQ(api.observation_spec(context, kRgbd, &spec), 0);
  EXPECT_THAT(Shape(spec), ElementsAre(24, 32, 4));
  ASSERT_EQ(api.observation_spec(context, kPosTrans, &spec), 0);
  EXPECT_EQ(spec.type, EnvCApi_ObservationDoubles);
  EXPECT_THAT(Shape(spec), ElementsAre(3));
  ASSERT_EQ(api.observation_spec(context, kPosRot, &spec), 0);
  EXPECT_THAT(Shape(spec), ElementsAre(3));
  ASSERT_EQ(api.observation_spec(context, kTopDown, &spec), 0);
  EXPECT_EQ(spec.type, EnvCApi_ObservationBytes);
  EXPECT_THAT(Shape(spec), ElementsAre(24, 32, 3));
  ASSERT_EQ(api.observation_spec(context, 5, &spec), 0);
  EXPECT_EQ(spec.type, EnvCApi_ObservationDoubles);
  EXPECT_THAT(Shape(spec), ElementsAre(12, 16));
  EXPECT_THAT(Strides(spec), ElementsAre(16, 1));
}

TEST(EnvCApiTest, StringSpecHasVariableLength) {
  Env env(TestLevelPath());
  ASSERT_TRUE(env.connected()) << env.connect_error();
  ASSERT_EQ(env.api().init(env.context()), 0) << env.error();
  EnvCApi_ObservationSpec spec;
  ASSERT_EQ(env.api().observation_spec(env.context(), kTestText, &spec), 0);
  EXPECT_EQ(spec.type, EnvCApi_ObservationString);
  EXPECT_THAT(Shape(spec), ElementsAre(-1));
  EXPECT_THAT(Strides(spec), ElementsAre(1));
}

TEST(EnvCApiTest, ObservationsMatchTheirSpecs) {
  Env env("demo_maze");
  env.Ready({{"width", "32"}, {"height", "24"}});
  const EnvCApi& api = env.api();
  for (int i = 0; i < api.observation_count(env.context()); ++i) {
    EnvCApi_ObservationSpec spec;
    ASSERT_EQ(api.observation_spec(env.context(), i, &spec), 0);
    const EnvCApi_Observation observation = env.Observe(i);
    EXPECT_EQ(observation.spec.type, spec.type) << api.observation_name(env.context(), i);
    EXPECT_EQ(Shape(observation.spec), Shape(spec)) << api.observation_name(env.context(), i);
    EXPECT_EQ(Strides(observation.spec), Strides(spec)) << api.observation_name(env.context(), i);
    EXPECT_NE(observation.payload.bytes, nullptr);
  }
  // RGBD's colour bytes are RGB's.
  const std::vector<std::uint8_t> rgb = Bytes(env.Observe(kRgb));
  const std::vector<std::uint8_t> rgbd = Bytes(env.Observe(kRgbd));
  ASSERT_EQ(rgbd.size(), rgb.size() / 3 * 4);
  for (std::size_t pixel = 0; pixel < rgb.size() / 3; ++pixel) {
    ASSERT_EQ(std::memcmp(&rgb[pixel * 3], &rgbd[pixel * 4], 3), 0) << pixel;
  }
}

TEST(EnvCApiTest, ForwardCollectsTheApplesAhead) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}});
  const double start_x = Doubles(env.Observe(kPosTrans))[0];
  double total = 0;
  for (int i = 0; i < 6; ++i) {
    double reward = -1;  // advance sets, not adds
    ASSERT_EQ(env.Step(kForward, 10, &reward), EnvCApi_EnvironmentStatus_Running) << env.error();
    EXPECT_GE(reward, 0);
    total += reward;
  }
  EXPECT_EQ(total, 3);
  // 60 frames at 3 cells (300 game units) per second, short of the wall.
  EXPECT_NEAR(Doubles(env.Observe(kPosTrans))[0] - start_x, 300.0, 1e-9);
}

TEST(EnvCApiTest, ObservationIsCachedWithinAStep) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}});
  const EnvCApi_Observation first = env.Observe(kRgb);
  const EnvCApi_Observation again = env.Observe(kRgb);
  EXPECT_EQ(first.payload.bytes, again.payload.bytes);
  EXPECT_EQ(first.spec.shape, again.spec.shape);

  const EnvCApi_Observation text = env.Observe(kTestText);
  EXPECT_STREQ(text.payload.string, "frame 1");
  EXPECT_THAT(Shape(text.spec), ElementsAre(7));
  EXPECT_EQ(env.Observe(kTestText).payload.string, text.payload.string);
  double reward = 0;
  env.Step(kForward, 2, &reward);
  EXPECT_STREQ(env.Observe(kTestText).payload.string, "frame 2");
}

// Dropping the step's observations before the engine steps lets the pool
// hand the same buffer back at once: one buffer serves every frame.
TEST(EnvCApiTest, UnretainedFrameBufferIsRecycledEveryStep) {
  Env env("demo_maze");
  env.Ready({{"width", "16"}, {"height", "12"}});
  std::set<const std::uint8_t*> buffers;
  for (int i = 0; i < 10; ++i) {
    buffers.insert(env.Observe(kRgb).payload.bytes);
    double reward = 0;
    env.Step(kTurnRight, 1, &reward);
  }
  EXPECT_EQ(buffers.size(), 1u);
}

TEST(EnvCApiTest, RetainedFrameKeepsItsDataAcrossSteps) {
  Env env("demo_maze");
  env.Ready({{"width", "16"}, {"height", "12"}});
  const EnvCApi& api = env.api();
  EnvCApi_Observation retained;
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation(env.context(), kRgb, &retained, &handle), 0) << env.error();
  ASSERT_NE(handle, nullptr);
  const std::uint8_t* retained_pointer = retained.payload.bytes;
  const std::vector<std::uint8_t> copy = Bytes(retained);
  // Same frame, same buffer: retaining copies nothing.
  EXPECT_EQ(env.Observe(kRgb).payload.bytes, retained_pointer);

  bool frame_changed = false;
  for (int i = 0; i < 5; ++i) {
    double reward = 0;
    env.Step(kTurnRight, 1, &reward);
    const EnvCApi_Observation current = env.Observe(kRgb);
    EXPECT_NE(current.payload.bytes, retained_pointer);
    frame_changed = frame_changed || Bytes(current) != copy;
    EXPECT_EQ(retained.payload.bytes, retained_pointer);
    EXPECT_EQ(Bytes(retained), copy);
  }
  EXPECT_TRUE(frame_changed) << "turning should change the view";

  // Released, the buffer goes back to the pool and serves a later frame.
  env_release_observation(handle);
  bool reused = false;
  for (int i = 0; i < 5 && !reused; ++i) {
    double reward = 0;
    env.Step(kTurnRight, 1, &reward);
    reused = env.Observe(kRgb).payload.bytes == retained_pointer;
  }
  EXPECT_TRUE(reused);
}

TEST(EnvCApiTest, RetainedObservationOutlivesTheContext) {
  Env env("demo_maze");
  env.Ready({{"width", "16"}, {"height", "12"}});
  EnvCApi_Observation rgb, position;
  EnvCApi_RetainedObservation* rgb_handle = nullptr;
  EnvCApi_RetainedObservation* position_handle = nullptr;
  ASSERT_EQ(env.api().retain_observation(env.context(), kRgb, &rgb, &rgb_handle), 0);
  ASSERT_EQ(env.api().retain_observation(env.context(), kPosTrans, &position, &position_handle), 0);
  const std::vector<std::uint8_t> rgb_copy = Bytes(rgb);
  const std::vector<double> position_copy = Doubles(position);
  env.Release();
  // Under ASan a freed buffer or spec would fail here.
  EXPECT_EQ(Bytes(rgb), rgb_copy);
  EXPECT_EQ(Doubles(position), position_copy);
  EXPECT_THAT(Shape(rgb.spec), ElementsAre(12, 16, 3));
  env_release_observation(rgb_handle);
  env_release_observation(position_handle);
  env_release_observation(nullptr);
}

// The level writes TEST.COUNTER's tensor in place every frame; a retained
// value must not follow it.
TEST(EnvCApiTest, RetainedLevelObservationDoesNotChangeWithTheLevelsTensor) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}});
  EnvCApi_Observation retained;
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(env.api().retain_observation(env.context(), kTestCounter, &retained, &handle), 0)
      << env.error();
  EXPECT_THAT(Doubles(retained), ElementsAre(1, 1));
  double reward = 0;
  env.Step(kForward, 1, &reward);
  env.Step(kForward, 1, &reward);
  EXPECT_THAT(Doubles(env.Observe(kTestCounter)), ElementsAre(3, 3));
  EXPECT_THAT(Doubles(retained), ElementsAre(1, 1));
  env_release_observation(handle);
}

// Without observationDevice everything is on the CPU, and the call is
// retain_observation's: the frame is the pooled buffer, kept the same way.
TEST(EnvCApiTest, RetainOnDeviceSaysCpuForHostObservations) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}});
  const EnvCApi& api = env.api();
  for (int index : {kRgb, kPosTrans, kTestCounter}) {
    EnvCApi_Observation observation;
    EnvCApi_Device device = {EnvCApi_DeviceCuda, 7};
    EnvCApi_RetainedObservation* handle = nullptr;
    ASSERT_EQ(api.retain_observation_on_device(env.context(), index, &observation, &device,
                                               &handle),
              0)
        << env.error();
    EXPECT_EQ(device.type, EnvCApi_DeviceCpu) << "observation " << index;
    EXPECT_EQ(device.index, 0);
    env_release_observation(handle);
  }
  EnvCApi_Observation rgb;
  EnvCApi_Device device;
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation_on_device(env.context(), kRgb, &rgb, &device, &handle), 0);
  EXPECT_EQ(rgb.payload.bytes, env.Observe(kRgb).payload.bytes) << "retaining copies nothing";
  const std::vector<std::uint8_t> copy = Bytes(rgb);
  for (int i = 0; i < 3; ++i) {
    double reward = 0;
    env.Step(kTurnRight, 1, &reward);
    EXPECT_NE(env.Observe(kRgb).payload.bytes, rgb.payload.bytes);
  }
  env.Release();
  EXPECT_EQ(Bytes(rgb), copy) << "the handle keeps the frame past steps and the context";
  env_release_observation(handle);
}

TEST(EnvCApiTest, BadObservationArgumentsAreErrors) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  EnvCApi_Observation observation;
  EnvCApi_ObservationSpec spec;

  // Before init, there is nothing to describe.
  EXPECT_EQ(api.observation_count(context), -1);
  EXPECT_THAT(env.error(), HasSubstr("call init first"));
  EXPECT_EQ(api.observation_name(context, 0), nullptr);
  EXPECT_NE(api.observation_spec(context, 0, &spec), 0);

  ASSERT_EQ(api.init(context), 0);
  // Before start, there is no frame.
  EXPECT_NE(api.observation(context, kRgb, &observation), 0);
  EXPECT_THAT(env.error(), HasSubstr("call start"));
  ASSERT_EQ(api.start(context, 0, 1), 0);

  for (int index : {-1, 7, 1000}) {
    EXPECT_NE(api.observation(context, index, &observation), 0);
    EXPECT_THAT(env.error(),
                HasSubstr("observation index " + std::to_string(index) + " out of range [0, 7)"));
    EXPECT_EQ(api.observation_name(context, index), nullptr);
    EXPECT_NE(api.observation_spec(context, index, &spec), 0);
    // Any non-null value, to see that a failure clears it.
    auto* handle = reinterpret_cast<EnvCApi_RetainedObservation*>(&spec);
    EXPECT_NE(api.retain_observation(context, index, &observation, &handle), 0);
    EXPECT_EQ(handle, nullptr);
    EnvCApi_Device device;
    handle = reinterpret_cast<EnvCApi_RetainedObservation*>(&spec);
    EXPECT_NE(api.retain_observation_on_device(context, index, &observation, &device, &handle), 0);
    EXPECT_THAT(env.error(), HasSubstr("retain_observation_on_device: observation index"));
    EXPECT_EQ(handle, nullptr);
  }
  EXPECT_NE(api.observation(context, kRgb, nullptr), 0);
  EXPECT_THAT(env.error(), HasSubstr("observation must not be null"));
  EXPECT_NE(api.observation_spec(context, kRgb, nullptr), 0);
  EXPECT_NE(api.retain_observation(context, kRgb, &observation, nullptr), 0);
  EXPECT_THAT(env.error(), HasSubstr("handle must not be null"));
  EnvCApi_Device device;
  EnvCApi_RetainedObservation* handle = nullptr;
  EXPECT_NE(api.retain_observation_on_device(context, kRgb, &observation, nullptr, &handle), 0);
  EXPECT_THAT(env.error(), HasSubstr("retain_observation_on_device: device must not be null"));
  EXPECT_EQ(handle, nullptr);
  EXPECT_NE(api.retain_observation_on_device(context, kRgb, nullptr, &device, &handle), 0);
  EXPECT_THAT(env.error(), HasSubstr("observation must not be null"));
  EXPECT_NE(api.retain_observation_on_device(context, kRgb, &observation, &device, nullptr), 0);
  EXPECT_THAT(env.error(), HasSubstr("handle must not be null"));
}

TEST(EnvCApiTest, BadSettingsAreErrors) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  EXPECT_NE(api.setting(context, "width", "abc"), 0);
  EXPECT_THAT(env.error(), HasSubstr("width"));
  EXPECT_THAT(env.error(), HasSubstr("abc"));
  EXPECT_NE(api.setting(context, "height", "0"), 0);
  EXPECT_NE(api.setting(context, "fps", "-3"), 0);
  EXPECT_NE(api.setting(context, nullptr, "1"), 0);
  EXPECT_THAT(env.error(), HasSubstr("must not be null"));
  EXPECT_NE(api.setting(context, "width", nullptr), 0);

  ASSERT_EQ(api.init(context), 0) << env.error();
  EXPECT_NE(api.setting(context, "width", "32"), 0);
  EXPECT_THAT(env.error(), HasSubstr("before init"));
  EXPECT_NE(api.init(context), 0);
  EXPECT_THAT(env.error(), HasSubstr("twice"));
}

// In a build without a CUDA backend (the default), the setting is taken
// and init reports that the build cannot honour it.
TEST(EnvCApiTest, CudaObservationDeviceFailsInitWithoutABackend) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  EXPECT_NE(api.setting(context, "observationDevice", "gpu0"), 0);
  EXPECT_THAT(env.error(), HasSubstr("'cpu' or 'cuda:N'"));
  EXPECT_NE(api.setting(context, "pinnedStaging", "on"), 0);
  EXPECT_THAT(env.error(), HasSubstr("pinnedStaging"));
  ASSERT_EQ(api.setting(context, "observationDevice", "cuda:0"), 0) << env.error();
  EXPECT_NE(api.init(context), 0);
  EXPECT_THAT(env.error(), HasSubstr("setting 'observationDevice' is 'cuda:0'"));
  EXPECT_THAT(env.error(), HasSubstr("no backend for that device (build with --config=cuda)"));
  EXPECT_NE(api.start(context, 0, 1), 0);
}

TEST(EnvCApiTest, AdvanceNeedsARunningEpisode) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  double reward = 0;
  EXPECT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Error);
  EXPECT_THAT(env.error(), HasSubstr("call init first"));
  EXPECT_NE(api.start(context, 0, 1), 0);
  EXPECT_NE(api.act_discrete(context, kForward), 0);

  ASSERT_EQ(api.init(context), 0);
  EXPECT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Error);
  EXPECT_THAT(env.error(), HasSubstr("call start"));

  ASSERT_EQ(api.start(context, 0, 1), 0);
  EXPECT_EQ(api.advance(context, 0, &reward), EnvCApi_EnvironmentStatus_Error);
  EXPECT_THAT(env.error(), HasSubstr("num_steps must be >= 1, got 0"));
  EXPECT_EQ(api.advance(context, 1, nullptr), EnvCApi_EnvironmentStatus_Error);
  EXPECT_THAT(env.error(), HasSubstr("reward must not be null"));
  EXPECT_NE(api.act_discrete(context, nullptr), 0);
  EXPECT_THAT(env.error(), HasSubstr("actions must not be null"));
  // None of those broke the episode.
  EXPECT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Running) << env.error();
}

TEST(EnvCApiTest, NullContextIsRefusedWithoutCrashing) {
  Env env("demo_maze");
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  double reward = 0;
  EnvCApi_Observation observation;
  EXPECT_STREQ(api.error_message(nullptr), "null context");
  EXPECT_NE(api.setting(nullptr, "width", "1"), 0);
  EXPECT_NE(api.init(nullptr), 0);
  EXPECT_NE(api.start(nullptr, 0, 1), 0);
  EXPECT_EQ(api.observation_count(nullptr), -1);
  EXPECT_NE(api.observation(nullptr, 0, &observation), 0);
  EnvCApi_Device device;
  EnvCApi_RetainedObservation* handle = nullptr;
  EXPECT_NE(api.retain_observation_on_device(nullptr, 0, &observation, &device, &handle), 0);
  EXPECT_EQ(api.advance(nullptr, 1, &reward), EnvCApi_EnvironmentStatus_Error);
  EXPECT_EQ(api.read_property(nullptr, "engine.fps", nullptr),
            EnvCApi_PropertyResult_InvalidArgument);
  api.release_context(nullptr);
}

TEST(EnvCApiTest, EpisodeLengthInterruptsAndStartResumes) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}, {"episodeLengthSeconds", "0.5"}});
  double reward = 0;
  // 0.5 s at 60 fps is 30 frames.
  EXPECT_EQ(env.Step(kForward, 10, &reward), EnvCApi_EnvironmentStatus_Running);
  EXPECT_EQ(env.Step(kForward, 10, &reward), EnvCApi_EnvironmentStatus_Running);
  EXPECT_EQ(env.Step(kForward, 10, &reward), EnvCApi_EnvironmentStatus_Interrupted);
  // The last frame stays observable, but the episode is over.
  EnvCApi_Observation observation;
  EXPECT_EQ(env.api().observation(env.context(), kRgb, &observation), 0);
  EXPECT_EQ(env.api().advance(env.context(), 1, &reward), EnvCApi_EnvironmentStatus_Error);
  EXPECT_THAT(env.error(), HasSubstr("call start"));
  ASSERT_EQ(env.api().start(env.context(), 1, 2), 0);
  EXPECT_EQ(env.Step(kForward, 1, &reward), EnvCApi_EnvironmentStatus_Running);
}

TEST(EnvCApiTest, LevelTerminatesTheEpisode) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}, {"endAfterSeconds", "0.1"}});
  double reward = 0;
  EXPECT_EQ(env.Step(kForward, 5, &reward), EnvCApi_EnvironmentStatus_Running);
  EXPECT_EQ(env.Step(kForward, 5, &reward), EnvCApi_EnvironmentStatus_Terminated);
}

TEST(EnvCApiTest, LevelErrorsReachErrorMessageAndStartRecovers) {
  Env env(TestLevelPath());
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  ASSERT_EQ(api.setting(context, "failStart", "true"), 0);
  ASSERT_EQ(api.init(context), 0) << env.error();
  EXPECT_NE(api.start(context, 0, 1), 0);
  EXPECT_THAT(env.error(), HasSubstr("start failed on purpose"));
  EnvCApi_Observation observation;
  EXPECT_NE(api.observation(context, kRgb, &observation), 0);
  double reward = 0;
  EXPECT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Error);

  ASSERT_EQ(api.write_property(context, "test.failStart", "false"), EnvCApi_PropertyResult_Success);
  ASSERT_EQ(api.start(context, 0, 1), 0) << env.error();
  EXPECT_EQ(env.Step(kForward, 1, &reward), EnvCApi_EnvironmentStatus_Running);
}

TEST(EnvCApiTest, FailedInitIsReportedByLaterCalls) {
  Env env(TestLevelPath());
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  ASSERT_EQ(api.setting(context, "failInit", "true"), 0);
  EXPECT_NE(api.init(context), 0);
  EXPECT_THAT(env.error(), HasSubstr("init failed on purpose"));
  EXPECT_NE(api.start(context, 0, 1), 0);
  EXPECT_THAT(env.error(), HasSubstr("init failed earlier"));
  EXPECT_THAT(env.error(), HasSubstr("init failed on purpose"));
  EXPECT_NE(api.init(context), 0);
  EXPECT_NE(api.setting(context, "width", "32"), 0);
}

TEST(EnvCApiTest, EventsOfTheLastStep) {
  Env env(TestLevelPath());
  env.Ready({{"width", "16"}, {"height", "12"}});
  const EnvCApi& api = env.api();
  void* context = env.context();
  ASSERT_EQ(api.event_count(context), 1);
  EnvCApi_Event event;
  ASSERT_EQ(api.event(context, 0, &event), 0) << env.error();
  ASSERT_EQ(api.event_type_count(context), 1);
  EXPECT_STREQ(api.event_type_name(context, event.id), "started");
  ASSERT_EQ(event.observation_count, 3);
  EXPECT_EQ(event.observations[0].spec.type, EnvCApi_ObservationString);
  EXPECT_STREQ(event.observations[0].payload.string, "episode 0");
  EXPECT_EQ(event.observations[1].spec.type, EnvCApi_ObservationBytes);
  EXPECT_THAT(Bytes(event.observations[1]), ElementsAre(1, 2, 3));
  EXPECT_EQ(event.observations[2].spec.type, EnvCApi_ObservationDoubles);
  EXPECT_THAT(Doubles(event.observations[2]), ElementsAre(0, 0.5));
  // Asking again gives the same exported event.
  EnvCApi_Event again;
  ASSERT_EQ(api.event(context, 0, &again), 0);
  EXPECT_EQ(again.observations, event.observations);

  EXPECT_NE(api.event(context, 1, &event), 0);
  EXPECT_THAT(env.error(), HasSubstr("event index 1 out of range [0, 1)"));
  EXPECT_NE(api.event(context, 0, nullptr), 0);
  EXPECT_EQ(api.event_type_name(context, 1), nullptr);

  double reward = 0;
  env.Step(kForward, 1, &reward);
  EXPECT_EQ(api.event_count(context), 0);
  ASSERT_EQ(api.start(context, 1, 1), 0);
  ASSERT_EQ(api.event_count(context), 1);
  ASSERT_EQ(api.event(context, 0, &event), 0);
  EXPECT_STREQ(event.observations[0].payload.string, "episode 1");
}

TEST(EnvCApiTest, EngineProperties) {
  Env env(TestLevelPath());
  ASSERT_TRUE(env.connected());
  const EnvCApi& api = env.api();
  void* context = env.context();
  ASSERT_EQ(api.setting(context, "fps", "30"), 0);
  ASSERT_EQ(api.setting(context, "width", "16"), 0);
  ASSERT_EQ(api.init(context), 0);
  EXPECT_EQ(api.fps(context), 30);
  const char* value = nullptr;
  ASSERT_EQ(api.read_property(context, "engine.fps", &value), EnvCApi_PropertyResult_Success);
  EXPECT_STREQ(value, "30");
  ASSERT_EQ(api.read_property(context, "engine.width", &value), EnvCApi_PropertyResult_Success);
  EXPECT_STREQ(value, "16");
  ASSERT_EQ(api.start(context, 0, 1), 0);
  double reward = 0;
  env.Step(kForward, 3, &reward);
  ASSERT_EQ(api.read_property(context, "engine.steps", &value), EnvCApi_PropertyResult_Success);
  EXPECT_STREQ(value, "3");

  EXPECT_EQ(api.write_property(context, "engine.fps", "60"),
            EnvCApi_PropertyResult_PermissionDenied);
  EXPECT_THAT(env.error(), HasSubstr("engine.fps"));
  EXPECT_EQ(api.read_property(context, "engine.nothing", &value), EnvCApi_PropertyResult_NotFound);
  EXPECT_THAT(env.error(), HasSubstr("engine.nothing"));
  EXPECT_EQ(value, nullptr);

  std::vector<std::pair<std::string, int>> listed;
  auto collect = [](void* userdata, const char* key, EnvCApi_PropertyAttributes attributes) {
    static_cast<std::vector<std::pair<std::string, int>>*>(userdata)->push_back({key, attributes});
  };
  ASSERT_EQ(api.list_property(context, &listed, "engine", collect), EnvCApi_PropertyResult_Success);
  EXPECT_THAT(listed, UnorderedElementsAre(
                          Pair("engine.host", EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.fps", EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.width", EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.height", EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.episodeTimeSeconds", EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.steps", EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.frameBuffersAllocated",
                               EnvCApi_PropertyAttributes_Readable),
                          Pair("engine.clampedActions", EnvCApi_PropertyAttributes_Readable)));
}

TEST(EnvCApiTest, LevelPropertiesRoundTrip) {
  Env env(TestLevelPath());
  env.Ready({{"custom", "hello"}});
  const EnvCApi& api = env.api();
  void* context = env.context();
  const char* value = nullptr;
  // Every setting reaches the level's init.
  ASSERT_EQ(api.read_property(context, "test.setting", &value), EnvCApi_PropertyResult_Success);
  EXPECT_STREQ(value, "hello");
  ASSERT_EQ(api.read_property(context, "test.answer", &value), EnvCApi_PropertyResult_Success);
  EXPECT_STREQ(value, "42");
  ASSERT_EQ(api.write_property(context, "test.answer", "43"), EnvCApi_PropertyResult_Success);
  ASSERT_EQ(api.read_property(context, "test.answer", &value), EnvCApi_PropertyResult_Success);
  EXPECT_STREQ(value, "43");
  EXPECT_EQ(api.write_property(context, "test.unknown", "1"), EnvCApi_PropertyResult_NotFound);

  EXPECT_EQ(api.read_property(context, "test.fail", &value), EnvCApi_PropertyResult_Error);
  EXPECT_THAT(env.error(), HasSubstr("read failed on purpose"));

  std::vector<std::pair<std::string, int>> listed;
  auto collect = [](void* userdata, const char* key, EnvCApi_PropertyAttributes attributes) {
    static_cast<std::vector<std::pair<std::string, int>>*>(userdata)->push_back({key, attributes});
  };
  ASSERT_EQ(api.list_property(context, &listed, "", collect), EnvCApi_PropertyResult_Success);
  EXPECT_THAT(listed, UnorderedElementsAre(Pair("engine", EnvCApi_PropertyAttributes_Listable),
                                           Pair("test", EnvCApi_PropertyAttributes_Listable)));
  listed.clear();
  ASSERT_EQ(api.list_property(context, &listed, "test", collect), EnvCApi_PropertyResult_Success);
  EXPECT_THAT(listed,
              UnorderedElementsAre(Pair("test.answer", EnvCApi_PropertyAttributes_Readable |
                                                           EnvCApi_PropertyAttributes_Writable),
                                   Pair("test.setting", EnvCApi_PropertyAttributes_Readable)));

  EXPECT_EQ(api.read_property(context, nullptr, &value), EnvCApi_PropertyResult_InvalidArgument);
  EXPECT_EQ(api.read_property(context, "test.answer", nullptr),
            EnvCApi_PropertyResult_InvalidArgument);
  EXPECT_EQ(api.write_property(context, "test.answer", nullptr),
            EnvCApi_PropertyResult_InvalidArgument);
  EXPECT_EQ(api.list_property(context, &listed, "test", nullptr),
            EnvCApi_PropertyResult_InvalidArgument);
  EXPECT_THAT(env.error(), HasSubstr("must not be null"));
}

// What one run of demo_maze produced: every RGB frame and every reward.
struct Trajectory {
  std::vector<std::uint8_t> frames;
  std::vector<double> rewards;
  std::string error;
};

// 200 frames of seeded random actions, starting a new episode whenever one
// ends; the same seed gives the same trajectory.
Trajectory Play(std::uint64_t seed) {
  Trajectory trajectory;
  Env env("demo_maze");
  if (!env.connected()) {
    trajectory.error = env.connect_error();
    return trajectory;
  }
  const EnvCApi& api = env.api();
  void* context = env.context();
  if (api.setting(context, "width", "32") != 0 || api.setting(context, "height", "24") != 0 ||
      api.init(context) != 0 || api.start(context, 0, seed) != 0) {
    trajectory.error = env.error();
    return trajectory;
  }
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> look(-30, 30), move(-1, 1);
  int episode = 0;
  for (int step = 0; step < 200; ++step) {
    const int actions[7] = {look(random), 0, move(random), move(random), 0, 0, 0};
    double reward = 0;
    EnvCApi_EnvironmentStatus status = EnvCApi_EnvironmentStatus_Error;
    if (api.act_discrete(context, actions) == 0) status = api.advance(context, 1, &reward);
    EnvCApi_Observation rgb;
    if (status == EnvCApi_EnvironmentStatus_Error || api.observation(context, kRgb, &rgb) != 0) {
      trajectory.error = env.error();
      return trajectory;
    }
    trajectory.rewards.push_back(reward);
    trajectory.frames.insert(trajectory.frames.end(), rgb.payload.bytes,
                             rgb.payload.bytes + Elements(rgb.spec));
    if (status != EnvCApi_EnvironmentStatus_Running) {
      ++episode;
      if (api.start(context, episode, seed + episode) != 0) {
        trajectory.error = env.error();
        return trajectory;
      }
    }
  }
  return trajectory;
}

TEST(EnvCApiTest, ContextsOnThreadsMatchASingleThreadedRun) {
  const Trajectory expected = Play(7);
  ASSERT_THAT(expected.error, IsEmpty());
  std::vector<Trajectory> results(4);
  std::vector<std::thread> threads;
  for (Trajectory& result : results) {
    threads.emplace_back([&result] { result = Play(7); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const Trajectory& result : results) {
    EXPECT_THAT(result.error, IsEmpty());
    EXPECT_TRUE(result.frames == expected.frames) << "frames differ";
    EXPECT_EQ(result.rewards, expected.rewards);
  }
  // And the run depends on its seed at all.
  EXPECT_FALSE(Play(8).frames == expected.frames);
}

}  // namespace
