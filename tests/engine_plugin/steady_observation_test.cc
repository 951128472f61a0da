// The C ABI's observation() promise: the payload stays unchanged until the
// next start or advance, even when it came from a tensor the level keeps
// and level code runs in between (a property write, another custom
// observation).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/env_c_api.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

// KEPT is a tensor the level keeps and hands out without a copy; a
// property write and the observation OTHER both write into it.
constexpr char kLevel[] = R"(
local tensor = require 'dmlab.system.tensor'
local kept = tensor.ByteTensor(4):fill(1)
function api:customObservationSpec()
  return {{name = 'KEPT', type = 'Bytes', shape = {4}},
          {name = 'OTHER', type = 'Bytes', shape = {1}}}
end
function api:customObservation(name)
  if name == 'KEPT' then return kept end
  kept:fill(3)
  return tensor.ByteTensor{0}
end
function api:writeProperty(key, value) kept:fill(tonumber(value)) return true end
return api
)";

int IndexOf(EnvCApi& api, void* context, const char* name) {
  for (int i = 0; i < api.observation_count(context); ++i) {
    if (std::string(api.observation_name(context, i)) == name) return i;
  }
  return -1;
}

std::vector<std::uint8_t> Payload(const EnvCApi_Observation& observation) {
  const auto* bytes = observation.payload.bytes;
  return {bytes, bytes + 4};
}

TEST(SteadyObservationTest, LevelCodeBetweenStepsNeverChangesAHeldPayload) {
  EnvCApi api;
  void* context =
      StartContext(api, WriteLevel("steady", absl::StrCat("local api = {}\n", kMap, kLevel)));
  ASSERT_NE(context, nullptr);
  const int kept = IndexOf(api, context, "KEPT");
  const int other = IndexOf(api, context, "OTHER");
  ASSERT_GE(kept, 0);
  EnvCApi_Observation held;
  ASSERT_EQ(api.observation(context, kept, &held), 0) << api.error_message(context);
  const std::vector<std::uint8_t> ones = {1, 1, 1, 1};
  ASSERT_EQ(Payload(held), ones);
  ASSERT_EQ(api.write_property(context, "fill", "2"), EnvCApi_PropertyResult_Success);
  EXPECT_EQ(Payload(held), ones);
  EnvCApi_Observation unused;
  ASSERT_EQ(api.observation(context, other, &unused), 0) << api.error_message(context);
  EXPECT_EQ(Payload(held), ones);
  // The same step still gives the same payload; the next one the new value.
  EnvCApi_Observation again;
  ASSERT_EQ(api.observation(context, kept, &again), 0);
  EXPECT_EQ(again.payload.bytes, held.payload.bytes);
  double reward = 0;
  ASSERT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Running);
  EnvCApi_Observation next;
  ASSERT_EQ(api.observation(context, kept, &next), 0);
  EXPECT_EQ(Payload(next), (std::vector<std::uint8_t>{3, 3, 3, 3}));
  api.release_context(context);
}

}  // namespace
}  // namespace engine_plugin
