// Observations: the lent frame, zero-copy reads, compaction, retention and
// the errors of custom observations.
#include <cstring>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

constexpr char kMap[] = R"(function api:nextMap() return "*******\n*P   A*\n*******\n" end)";

std::string Level(const std::string& body) {
  return "local tensor = require 'dmlab.system.tensor'\nlocal api = {}\n" + std::string(kMap) +
         "\n" + body + "\nreturn api\n";
}

TEST(EngineObservationsTest, RgbIsTheRenderedBufferWithoutCopies) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("rgb", Level("")));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  for (int step = 0; step < 50; ++step) {
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
    ObservationValue first = *engine->Observation(0);
    ObservationValue again = *engine->Observation(0);
    EXPECT_EQ(Bytes(first), Bytes(again));  // one buffer per frame
  }
  // Nobody held a frame, so the pool recycled one buffer (plus the one
  // being rendered while the previous frame was still current).
  EXPECT_LE(engine->frame_buffers_allocated(), 2);
}

TEST(EngineObservationsTest, ObserveFrameGetsTheFrameLentAndMayDrawOnIt) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("overlay", Level(R"(
function api:observeFrame(rgb, depth)
  assert(rgb:type() == 'dmlab.system.tensor.ByteTensor' and not rgb:ownsStorage())
  assert(depth:type() == 'dmlab.system.tensor.FloatTensor' and not depth:ownsStorage())
  local shape = rgb:shape()
  assert(shape[1] == 24 and shape[2] == 32 and shape[3] == 3)
  assert(depth:shape()[1] == 24 and depth:shape()[2] == 32)
  rgb(1, 1):fill(200)   -- an overlay: the top-left pixel
end
)")), {{"width", "32"}, {"height", "24"}});
  ASSERT_TRUE(engine->Start(0, 0).ok());
  ObservationValue rgb = *engine->Observation(0);
  EXPECT_EQ(Bytes(rgb)[0], 200);
  EXPECT_EQ(Bytes(rgb)[2], 200);
}

// What a level keeps of a lent frame is an error outside observeFrame,
// naming the lender, and the same frame again in the next observeFrame:
// the host lends one userdata step after step (lent_tensor_slot.h).
constexpr char kStashingLevel[] = R"(
function api:observeFrame(rgb, depth)
  if api.stash then
    api.same = rawequal(api.stash, rgb)
    api.viewValid = pcall(function() return api.depthStash:sum() end)
  end
  api.stash = rgb
  api.depthStash = depth:narrow(1, 1, 2)   -- a view is revoked too
  if api.raise then error('observeFrame failed') end
end
local function failure(f) return select(2, pcall(f)) end
function api:readProperty(key)
  if key == 'rgbError' then return failure(function() return api.stash:sum() end) end
  if key == 'depthError' then return failure(function() return tostring(api.depthStash) end) end
  if key == 'argumentError' then
    return failure(function() return tensor.ByteTensor(1):copy(api.stash) end)
  end
  if key == 'again' then return tostring(api.same) .. ' ' .. tostring(api.viewValid) end
end
function api:writeProperty(key, value) api.raise = value == 'true' return true end
)";

TEST(EngineObservationsTest, AStashedFrameIsInvalidAfterTheCallback) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("stash", Level(kStashingLevel)));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  std::string message;
  ASSERT_EQ(*engine->ReadProperty("rgbError", &message), PropertyResult::kSuccess);
  EXPECT_THAT(message, HasSubstr("invalid"));
  EXPECT_THAT(message, HasSubstr("engine frame buffer"));
  EXPECT_THAT(message, HasSubstr("sum"));
  ASSERT_EQ(*engine->ReadProperty("depthError", &message), PropertyResult::kSuccess);
  EXPECT_THAT(message, HasSubstr("engine depth buffer"));
  ASSERT_EQ(*engine->ReadProperty("argumentError", &message), PropertyResult::kSuccess);
  EXPECT_THAT(message, HasSubstr("bad argument #1 to 'copy'"));
  EXPECT_THAT(message, HasSubstr("engine frame buffer"));
  // Lent again, the kept frame is the frame the callback gets, and the
  // view of the depth buffer reads it again.
  ASSERT_EQ(*engine->ReadProperty("again", &message), PropertyResult::kSuccess);
  EXPECT_EQ(message, "true true");
}

TEST(EngineObservationsTest, AFrameStashedByARaisingCallbackIsInvalidToo) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("raise", Level(kStashingLevel)));
  ASSERT_EQ(*engine->WriteProperty("raise", "true"), PropertyResult::kSuccess);
  absl::Status started = engine->Start(0, 0);
  EXPECT_THAT(started.message(), HasSubstr("observeFrame failed"));
  std::string message;
  ASSERT_EQ(*engine->ReadProperty("rgbError", &message), PropertyResult::kSuccess);
  EXPECT_THAT(message, HasSubstr("engine frame buffer"));
  ASSERT_EQ(*engine->WriteProperty("raise", "false"), PropertyResult::kSuccess);
  ASSERT_TRUE(engine->Start(0, 0).ok());  // usable again
  ASSERT_EQ(*engine->ReadProperty("rgbError", &message), PropertyResult::kSuccess);
  EXPECT_THAT(message, HasSubstr("engine frame buffer"));
}

// A step of a level that only reads its lent frames makes no garbage:
// with the collector stopped, the Lua heap does not grow over 1000 steps
// (each lend is the same userdata, renewed; lent_tensor_slot.h).
TEST(EngineObservationsTest, ReadingLentFramesMakesNoGarbage) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("steady", Level(R"(
local steps, before, after = 0
function api:observeFrame(rgb, depth)
  steps = steps + 1
  if steps == 10 then collectgarbage('stop') before = collectgarbage('count') end
  api.total = rgb:sum() + depth:max()
  if steps == 1010 then after = collectgarbage('count') end
end
function api:readProperty(key)
  if key == 'grown' then return string.format('%.3f', after - before) end
end
)")));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  double reward = 0;
  for (int step = 0; step < 1010; ++step) ASSERT_TRUE(engine->Advance(1, &reward).ok());
  std::string grown;
  ASSERT_EQ(*engine->ReadProperty("grown", &grown), PropertyResult::kSuccess);
  EXPECT_EQ(grown, "0.000") << "KiB the Lua heap grew by in 1000 steps";
}

constexpr char kCustomLevel[] = R"(
function api:customObservationSpec()
  return {
    {name = 'SHARED', type = 'Doubles', shape = {2, 3}},
    {name = 'STRIDED', type = 'Doubles', shape = {3, 2}},
    {name = 'TEXT', type = 'String'},
    {name = 'BYTES', type = 'Bytes', shape = {4}},
  }
end
api.shared = tensor.DoubleTensor{{1, 2, 3}, {4, 5, 6}}
function api:customObservation(name)
  if name == 'SHARED' then return api.shared end
  if name == 'STRIDED' then return api.shared:transpose(1, 2) end
  if name == 'TEXT' then return 'hello' end
  if name == 'BYTES' then return tensor.ByteTensor{1, 2, 3, 4} end
end
function api:writeProperty(key, value)
  if key == 'fill' then api.shared:fill(tonumber(value)) return true end
end
)";

TEST(EngineObservationsTest, AContiguousCustomObservationIsReadWithoutACopy) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("custom", Level(kCustomLevel)));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  const int shared = ObservationIndex(*engine, "SHARED");
  ObservationValue value = *engine->Observation(shared);
  EXPECT_EQ(Doubles(value)[5], 6.0);
  // The same storage as the script's tensor: its writes show through.
  ASSERT_EQ(*engine->WriteProperty("fill", "7"), PropertyResult::kSuccess);
  EXPECT_EQ(Doubles(value)[0], 7.0);
  EXPECT_EQ(Doubles(*engine->Observation(shared))[0], 7.0);
}

TEST(EngineObservationsTest, AStridedCustomObservationIsCompactedOnce) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("strided", Level(kCustomLevel)));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  const int strided = ObservationIndex(*engine, "STRIDED");
  ObservationValue value = *engine->Observation(strided);
  EXPECT_TRUE(value.tensor.layout().IsContiguous());
  EXPECT_THAT(std::vector<double>(Doubles(value), Doubles(value) + 6),
              ::testing::ElementsAre(1, 4, 2, 5, 3, 6));
  // Computed once per frame: the second read is the same compacted buffer.
  EXPECT_EQ(Doubles(*engine->Observation(strided)), Doubles(value));
  ASSERT_EQ(*engine->WriteProperty("fill", "0"), PropertyResult::kSuccess);
  EXPECT_EQ(Doubles(value)[1], 4.0);
}

TEST(EngineObservationsTest, StringsAndBytes) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("strings", Level(kCustomLevel)));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  EXPECT_EQ(engine->Observation(ObservationIndex(*engine, "TEXT"))->text, "hello");
  ObservationValue bytes = *engine->Observation(ObservationIndex(*engine, "BYTES"));
  EXPECT_EQ(bytes.type, ObservationType::kBytes);
  EXPECT_EQ(Bytes(bytes)[3], 4);
}

// A level's observation of a host's name replaces the host's for that
// level, in its place, as DeepMind Lab's debug_observations declares its
// own DEBUG.CAMERA.TOP_DOWN (planar 3 x H x W) and DEBUG.POS.TRANS.
TEST(EngineObservationsTest, ALevelsObservationReplacesTheHostsOfTheSameName) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("replacing", Level(R"(
function api:customObservationSpec()
  return {{name = 'DEBUG.CAMERA.TOP_DOWN', type = 'Bytes', shape = {3, 2, 4}},
          {name = 'DEBUG.POS.TRANS', type = 'Doubles', shape = {3}},
          {name = 'MINE', type = 'Doubles', shape = {1}}}
end
function api:customObservation(name)
  if name == 'DEBUG.CAMERA.TOP_DOWN' then return tensor.ByteTensor(3, 2, 4):fill(7) end
  if name == 'DEBUG.POS.TRANS' then return tensor.DoubleTensor{100, 200, 300} end
  return tensor.DoubleTensor{1}
end
)")));
  ASSERT_NE(engine, nullptr);
  std::vector<std::string> names;
  for (const ObservationSpec& spec : engine->observation_specs()) names.push_back(spec.name);
  EXPECT_THAT(names, ::testing::ElementsAre("RGB_INTERLEAVED", "RGBD_INTERLEAVED",
                                            "DEBUG.POS.TRANS", "DEBUG.POS.ROT",
                                            "DEBUG.CAMERA.TOP_DOWN", "MINE"));
  const int top_down = ObservationIndex(*engine, "DEBUG.CAMERA.TOP_DOWN");
  EXPECT_THAT(engine->observation_specs()[top_down].shape, ::testing::ElementsAre(3, 2, 4));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  EXPECT_EQ(Bytes(*engine->Observation(top_down))[23], 7);
  EXPECT_EQ(Doubles(*engine->Observation(ObservationIndex(*engine, "DEBUG.POS.TRANS")))[1], 200);
  // The host's own observations still come from the host.
  EXPECT_EQ(engine->Observation(ObservationIndex(*engine, "DEBUG.POS.ROT"))->tensor.num_elements(),
            3);
}

// DeepMind Lab's dynamic extents: 0 in the spec takes any extent (its
// DEBUG.PICKUPS is {0, 5}); a fixed one and the rank still must match.
TEST(EngineObservationsTest, AZeroExtentIsDynamic) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("dynamic", Level(R"(
function api:customObservationSpec()
  return {{name = 'ROWS', type = 'Doubles', shape = {0, 2}}}
end
api.rows = 0
function api:customObservation(name)
  api.rows = api.rows + 1
  if api.rows == 3 then return tensor.DoubleTensor(2, 3) end
  if api.rows == 4 then return tensor.DoubleTensor(2) end
  return tensor.DoubleTensor(api.rows, 2):fill(api.rows)
end
)")));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  const int rows = static_cast<int>(engine->observation_specs().size()) - 1;
  ASSERT_EQ(engine->observation_specs()[rows].name, "ROWS");
  EXPECT_EQ(engine->observation_specs()[rows].shape, (std::vector<std::int64_t>{0, 2}));
  double reward = 0;
  for (std::int64_t expected : {1, 2}) {
    absl::StatusOr<ObservationValue> value = engine->Observation(rows);
    ASSERT_TRUE(value.ok()) << value.status();
    const auto& shape = value->tensor.layout().shape();
    EXPECT_EQ(std::vector<std::int64_t>(shape.begin(), shape.end()),
              (std::vector<std::int64_t>{expected, 2}));
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
  }
  EXPECT_THAT(engine->Observation(rows).status().message(),
              HasSubstr("Doubles [0, 2] (dmlab.system.tensor.DoubleTensor) expected, got "
                        "dmlab.system.tensor.DoubleTensor [2, 3]"));
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_THAT(engine->Observation(rows).status().message(), HasSubstr("got dmlab.system.tensor.DoubleTensor [2]"));
}

TEST(EngineObservationsTest, RetainingAScriptTensorCopiesIt) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("retain", Level(kCustomLevel)));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  ObservationValue kept = *engine->RetainObservation(ObservationIndex(*engine, "SHARED"));
  ASSERT_EQ(*engine->WriteProperty("fill", "9"), PropertyResult::kSuccess);
  EXPECT_EQ(Doubles(kept)[0], 1.0);  // the script's write did not reach it
}

TEST(EngineObservationsTest, RetainedFramesAreNeverReused) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("frames", Level("")));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  std::vector<ObservationValue> kept;
  std::vector<std::vector<std::uint8_t>> copies;
  double reward = 0;
  engine->Act({20, 0, 0, 1, 0, 0, 0});
  for (int step = 0; step < 8; ++step) {
    kept.push_back(*engine->RetainObservation(0));
    const std::uint8_t* bytes = Bytes(kept.back());
    copies.emplace_back(bytes, bytes + kept.back().tensor.layout().num_elements());
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    EXPECT_TRUE(std::equal(copies[i].begin(), copies[i].end(), Bytes(kept[i]))) << i;
    EXPECT_NE(Bytes(kept[i]), Bytes(*engine->Observation(0)));
  }
  const int allocated = engine->frame_buffers_allocated();
  kept.clear();
  for (int step = 0; step < 20; ++step) ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_EQ(engine->frame_buffers_allocated(), allocated);  // released ones were recycled
}

TEST(EngineObservationsTest, BadCustomObservationsAreErrors) {
  struct Case {
    const char* returned;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"tensor.FloatTensor(2)",
            "Doubles [2] (dmlab.system.tensor.DoubleTensor) expected, got "
            "dmlab.system.tensor.FloatTensor [2]"},
           {"tensor.DoubleTensor(3)", "got dmlab.system.tensor.DoubleTensor [3]"},
           {"'text'", "DoubleTensor expected, got string"},
           {"nil", "DoubleTensor expected, got nil"},
           {"error('broken')", "broken"},
       }) {
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel("bad", Level(std::string(R"(
function api:customObservationSpec() return {{name = 'X', type = 'Doubles', shape = {2}}} end
function api:customObservation(name) return )") + c.returned + " end")));
    ASSERT_TRUE(engine->Start(0, 0).ok());
    absl::StatusOr<ObservationValue> value = engine->Observation(ObservationIndex(*engine, "X"));
    EXPECT_FALSE(value.ok()) << c.returned;
    EXPECT_THAT(value.status().message(), HasSubstr(c.message));
    EXPECT_TRUE(engine->Observation(0).ok());  // the engine goes on
    double reward = 0;
    EXPECT_TRUE(engine->Advance(1, &reward).ok());
  }
}

TEST(EngineObservationsTest, BadSpecsAreErrorsAtInit) {
  for (const char* spec : {"{{name = 'RGB_INTERLEAVED', type = 'Bytes', shape = {1}}}",
                           "{{name = 'A', type = 'Bytes', shape = {1}}, {name = 'A', type = 'Bytes', shape = {1}}}",
                           "{{name = 'A', type = 'Halves', shape = {1}}}",
                           "{{name = 'A', type = 'Bytes', shape = {-1}}}",
                           "{{name = 'A', type = 'Bytes'}}", "{{type = 'Bytes', shape = {1}}}",
                           "'spec'"}) {
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel(
        "badspec", Level(std::string("function api:customObservationSpec() return ") + spec +
                         " end")));
    ASSERT_TRUE(engine.ok());
    absl::Status init = (*engine)->Init();
    EXPECT_EQ(init.code(), absl::StatusCode::kInvalidArgument) << spec;
    EXPECT_THAT(init.message(), HasSubstr("customObservationSpec")) << spec;
  }
}

// float32 observations: declared 'Floats', a FloatTensor read without a
// copy, and the C ABI's floats payload; a DoubleTensor is refused.
TEST(EngineObservationsTest, FloatsAreFloat32) {
  const std::string level = WriteLevel(
      "floats", Level("function api:customObservationSpec()\n"
                      "  return {{name = 'F', type = 'Floats', shape = {2}},\n"
                      "          {name = 'WRONG', type = 'Floats', shape = {2}}}\nend\n"
                      "function api:customObservation(name)\n"
                      "  if name == 'F' then return tensor.FloatTensor{0.5, -2} end\n"
                      "  return tensor.DoubleTensor{1, 2}\nend"));
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 0).ok());
  const int f = ObservationIndex(*engine, "F");
  absl::StatusOr<ObservationValue> value = engine->Observation(f);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(value->type, ObservationType::kFloats);
  ASSERT_EQ(value->tensor.dtype(), tensor::DType::kFloat32);
  const auto* floats = reinterpret_cast<const float*>(*value->tensor.data());
  EXPECT_EQ(floats[0], 0.5f);
  EXPECT_EQ(floats[1], -2.0f);
  absl::StatusOr<ObservationValue> wrong = engine->Observation(f + 1);
  EXPECT_THAT(wrong.status().message(), HasSubstr("FloatTensor"));

  EnvCApi api;
  void* context = StartContext(api, level);
  ASSERT_NE(context, nullptr);
  EnvCApi_ObservationSpec spec;
  ASSERT_EQ(api.observation_spec(context, f, &spec), 0);
  EXPECT_EQ(spec.type, EnvCApi_ObservationFloats);
  EnvCApi_Observation observation;
  ASSERT_EQ(api.observation(context, f, &observation), 0) << api.error_message(context);
  EXPECT_EQ(observation.payload.floats[0], 0.5f);
  EXPECT_EQ(observation.payload.floats[1], -2.0f);
  api.release_context(context);
}

TEST(EngineObservationsTest, PoseAndTopDown) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("pose", Level("")));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  ObservationValue trans = *engine->Observation(ObservationIndex(*engine, "DEBUG.POS.TRANS"));
  // DeepMind Lab's game units: 100 a cell.
  EXPECT_THAT(std::vector<double>(Doubles(trans), Doubles(trans) + 3),
              ::testing::ElementsAre(150.0, 150.0, 0.0));
  engine->Act({-100, 50, 0, 0, 0, 0, 0});  // look left and down
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  ObservationValue rot = *engine->Observation(ObservationIndex(*engine, "DEBUG.POS.ROT"));
  // DeepMind Lab's pitch grows looking down.
  EXPECT_NEAR(Doubles(rot)[0], 50 * World::kDegreesPerPixel, 1e-9);  // pitch
  EXPECT_NEAR(Doubles(rot)[1], 100 * World::kDegreesPerPixel, 1e-9);  // yaw
  ObservationValue top = *engine->Observation(ObservationIndex(*engine, "DEBUG.CAMERA.TOP_DOWN"));
  ObservationValue rgb = *engine->Observation(0);
  EXPECT_NE(std::memcmp(Bytes(top), Bytes(rgb), 84 * 84 * 3), 0);
  ObservationValue rgbd = *engine->Observation(ObservationIndex(*engine, "RGBD_INTERLEAVED"));
  EXPECT_EQ(Bytes(rgbd)[0], Bytes(rgb)[0]);
  EXPECT_EQ(Bytes(rgbd)[4 * 100 + 2], Bytes(rgb)[3 * 100 + 2]);
}

}  // namespace
}  // namespace engine_plugin
