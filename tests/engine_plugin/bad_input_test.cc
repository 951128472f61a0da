// The C ABI's half of the bad-input table (tests/lua/bad_input.lua has the
// Lua half): bad settings, bad observation names and indices, bad levels.
// Each case must fail with a message containing its substring, and the
// context must work normally afterwards.
#include <functional>
#include <string>
#include <vector>

#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

constexpr char kLevel[] = R"(
local tensor = require 'dmlab.system.tensor'
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:customObservationSpec()
  return {{name = 'LEVEL', type = 'Doubles', shape = {2}}}
end
function api:customObservation(name) return tensor.DoubleTensor{1, 2} end
return api
)";

enum class Stage { kConnected, kInitialised, kStarted };

struct Case {
  const char* name;
  Stage stage;
  // Makes the bad call; true when the ABI reported the failure.
  std::function<bool(const EnvCApi&, void*)> fails;
  const char* message;
};

bool Set(const EnvCApi& api, void* context, const char* key, const char* value) {
  return api.setting(context, key, value) != 0;
}

std::vector<Case> Cases() {
  auto setting = [](const char* key, const char* bad) {
    return [key, bad](const EnvCApi& api, void* context) { return Set(api, context, key, bad); };
  };
  return {
      // Bad settings.
      {"width 0", Stage::kConnected, setting("width", "0"), "setting 'width'"},
      {"width negative", Stage::kConnected, setting("width", "-84"), "[1, 4096]"},
      {"width too large", Stage::kConnected, setting("width", "4097"), "got '4097'"},
      {"width past 64 bits", Stage::kConnected, setting("width", "99999999999999999999"),
       "setting 'width'"},
      {"width fractional", Stage::kConnected, setting("width", "8.5"), "an integer"},
      {"width not a number", Stage::kConnected, setting("width", "wide"), "got 'wide'"},
      {"height empty", Stage::kConnected, setting("height", ""), "setting 'height'"},
      {"fps 0", Stage::kConnected, setting("fps", "0"), "setting 'fps'"},
      {"fps too large", Stage::kConnected, setting("fps", "1001"), "[1, 1000]"},
      {"fps NaN", Stage::kConnected, setting("fps", "nan"), "setting 'fps'"},
      {"episodeLengthSeconds 0", Stage::kConnected, setting("episodeLengthSeconds", "0"),
       "episodeLengthSeconds"},
      {"episodeLengthSeconds NaN", Stage::kConnected, setting("episodeLengthSeconds", "nan"),
       "a number of seconds > 0"},
      {"episodeLengthSeconds inf", Stage::kConnected, setting("episodeLengthSeconds", "inf"),
       "a number of seconds > 0"},
      {"sandbox yes", Stage::kConnected, setting("sandbox", "yes"),
       "setting 'sandbox': 'true' or 'false' expected, got 'yes'"},
      {"sandbox empty", Stage::kConnected, setting("sandbox", ""), "setting 'sandbox'"},
      {"memoryLimitMegabytes negative", Stage::kConnected,
       setting("memoryLimitMegabytes", "-1"), "setting 'memoryLimitMegabytes'"},
      {"memoryLimitMegabytes past 1 TiB", Stage::kConnected,
       setting("memoryLimitMegabytes", "1048577"), "[0, 1048576]"},
      {"tensorMemoryLimitMegabytes 0", Stage::kConnected,
       setting("tensorMemoryLimitMegabytes", "0"), "[1, 1048576]"},
      {"instructionLimit negative", Stage::kConnected, setting("instructionLimit", "-5"),
       "setting 'instructionLimit'"},
      {"instructionLimit in exponent form", Stage::kConnected, setting("instructionLimit", "1e9"),
       "got '1e9'"},
      {"setting with a null key", Stage::kConnected, setting(nullptr, "1"), "must not be null"},
      {"setting with a null value", Stage::kConnected, setting("width", nullptr),
       "must not be null"},
      {"setting after init", Stage::kInitialised, setting("width", "32"),
       "settings must come before init"},
      // Bad observation names and indices.
      {"observation name -1", Stage::kInitialised,
       [](const EnvCApi& api, void* c) { return api.observation_name(c, -1) == nullptr; },
       "observation index -1 out of range [0, 6)"},
      {"observation name past the end", Stage::kInitialised,
       [](const EnvCApi& api, void* c) { return api.observation_name(c, 6) == nullptr; },
       "observation index 6 out of range"},
      {"observation name before init", Stage::kConnected,
       [](const EnvCApi& api, void* c) { return api.observation_name(c, 0) == nullptr; },
       "call init first"},
      {"observation spec past the end", Stage::kInitialised,
       [](const EnvCApi& api, void* c) {
         EnvCApi_ObservationSpec spec;
         return api.observation_spec(c, 1 << 30, &spec) != 0;
       },
       "out of range"},
      {"observation spec into null", Stage::kInitialised,
       [](const EnvCApi& api, void* c) { return api.observation_spec(c, 0, nullptr) != 0; },
       "spec must not be null"},
      {"observation before start", Stage::kInitialised,
       [](const EnvCApi& api, void* c) {
         EnvCApi_Observation observation;
         return api.observation(c, 0, &observation) != 0;
       },
       "observation"},
      {"observation -1", Stage::kStarted,
       [](const EnvCApi& api, void* c) {
         EnvCApi_Observation observation;
         return api.observation(c, -1, &observation) != 0;
       },
       "out of range"},
      {"retain observation past the end", Stage::kStarted,
       [](const EnvCApi& api, void* c) {
         EnvCApi_Observation observation;
         EnvCApi_RetainedObservation* handle = nullptr;
         return api.retain_observation(c, 6, &observation, &handle) != 0 && handle == nullptr;
       },
       "out of range"},
      {"event type name -1", Stage::kStarted,
       [](const EnvCApi& api, void* c) { return api.event_type_name(c, -1) == nullptr; },
       "event type index -1 out of range"},
      {"event past the end", Stage::kStarted,
       [](const EnvCApi& api, void* c) {
         EnvCApi_Event event;
         return api.event(c, 0, &event) != 0;
       },
       "event index 0 out of range"},
      {"action name 7", Stage::kConnected,
       [](const EnvCApi& api, void* c) { return api.act_discrete_name(c, 7) == nullptr; },
       "action index 7 out of range [0, 7)"},
      {"action bounds -1", Stage::kConnected,
       [](const EnvCApi& api, void* c) {
         int low = 0;
         int high = 0;
         return api.act_discrete_bounds(c, -1, &low, &high) != 0;
       },
       "out of range"},
      {"advance 0 steps", Stage::kStarted,
       [](const EnvCApi& api, void* c) {
         double reward = 0;
         return api.advance(c, 0, &reward) == EnvCApi_EnvironmentStatus_Error;
       },
       "num_steps must be >= 1, got 0"},
      {"write a read-only property", Stage::kInitialised,
       [](const EnvCApi& api, void* c) {
         return api.write_property(c, "engine.fps", "30") ==
                EnvCApi_PropertyResult_PermissionDenied;
       },
       ""},
      {"read a property with a null key", Stage::kInitialised,
       [](const EnvCApi& api, void* c) {
         const char* value = nullptr;
         return api.read_property(c, nullptr, &value) == EnvCApi_PropertyResult_InvalidArgument;
       },
       ""},
  };
}

TEST(BadInputTest, TheCApiRefusesEachBadInputAndCarriesOn) {
  const std::string level = WriteLevel("bad_input_level", kLevel);
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    EnvCApi api;
    void* context = nullptr;
    char error[256];
    ASSERT_EQ(env_connect(level.c_str(), &api, &context, error, sizeof(error)), 0) << error;
    if (c.stage != Stage::kConnected) {
      ASSERT_EQ(api.init(context), 0) << api.error_message(context);
    }
    if (c.stage == Stage::kStarted) {
      ASSERT_EQ(api.start(context, 0, 1), 0) << api.error_message(context);
    }
    EXPECT_TRUE(c.fails(api, context));
    EXPECT_THAT(std::string(api.error_message(context)), HasSubstr(c.message));
    // Still usable: whatever stage it was in, the rest of the lifecycle works.
    if (c.stage == Stage::kConnected) {
      ASSERT_EQ(api.init(context), 0) << api.error_message(context);
    }
    ASSERT_EQ(api.start(context, 1, 2), 0) << api.error_message(context);
    double reward = 0;
    EXPECT_EQ(api.advance(context, 2, &reward), EnvCApi_EnvironmentStatus_Running);
    EnvCApi_Observation custom;
    ASSERT_EQ(api.observation(context, 5, &custom), 0) << api.error_message(context);
    EXPECT_EQ(custom.payload.doubles[1], 2);
    api.release_context(context);
  }
}

TEST(BadInputTest, BadLevelsAreRefusedAtConnect) {
  for (const char* level : {"no_such_level", "", "/nonexistent/level.lua", "../no_such.lua"}) {
    SCOPED_TRACE(level);
    EnvCApi api;
    void* context = &api;
    char error[256] = "";
    EXPECT_NE(env_connect(level, &api, &context, error, sizeof(error)), 0);
    EXPECT_EQ(context, nullptr);
    EXPECT_STRNE(error, "");
  }
  EnvCApi api;
  void* context = nullptr;
  EXPECT_NE(env_connect(nullptr, &api, &context, nullptr, 0), 0);
}

TEST(BadInputTest, BadCustomObservationSpecsFailInit) {
  struct SpecCase {
    const char* spec;
    const char* message;
  };
  for (const SpecCase& c : std::vector<SpecCase>{
           {"{name = '', type = 'Doubles', shape = {1}}", "name: must not be empty"},
           {"{name = 'RGB_INTERLEAVED', type = 'Bytes', shape = {1}}",
            "is the frame the host renders, which a level cannot replace"},
           {"{name = 'A', type = 'Doubles', shape = {1}}, {name = 'A', type = 'Doubles', "
            "shape = {1}}",
            "'A' is declared twice"},
           {"{name = 'A', type = 'Halves', shape = {1}}", "'Bytes', 'Doubles', 'Floats' or 'String'"},
           {"{name = 'A', type = 'Doubles', shape = {-1}}", "extent -1 is negative"},
           {"{name = 'A', type = 'Doubles', shape = {1/0}}", "shape[1]: integer expected"},
           {"{name = 5, type = 'Doubles', shape = {1}}", "name: string expected"},
           {"'A'", "table {name=, type=, shape=} expected"},
       }) {
    SCOPED_TRACE(c.spec);
    const std::string level = WriteLevel(
        "bad_spec", std::string("local api = {}\nfunction api:nextMap() return 'x' end\n"
                                "function api:customObservationSpec() return {") +
                        c.spec + "} end\nreturn api\n");
    EnvCApi api;
    void* context = nullptr;
    char error[256];
    ASSERT_EQ(env_connect(level.c_str(), &api, &context, error, sizeof(error)), 0) << error;
    EXPECT_NE(api.init(context), 0);
    EXPECT_THAT(std::string(api.error_message(context)), HasSubstr(c.message));
    api.release_context(context);
  }
}

}  // namespace
}  // namespace engine_plugin
