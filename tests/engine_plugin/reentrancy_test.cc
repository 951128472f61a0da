// A host calling the engine from inside one of the level's callbacks:
// "list, then read each key" from listProperty's visitor. The nested calls
// run under the outer callback's limits and never reset them, and a
// nested start or advance is refused.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using Settings = std::vector<std::pair<std::string, std::string>>;

// A level listing keys a, b, c, whose values are 'value of <key>'. `before`
// runs in listProperty before the listing, `after` after it, and `read`
// in readProperty.
std::string ListingLevel(const std::string& before, const std::string& after,
                         const std::string& read = "") {
  return absl::StrCat("local api = {}\nlocal SAVED\n", kMap,
                      "\nfunction api:listProperty(key, visit)\n", before,
                      "\n  for _, k in ipairs{'a', 'b', 'c'} do visit(k, 'r') end\n", after,
                      "\nend\n"
                      "function api:readProperty(key)\n", read,
                      "\n  return 'value of ' .. key\nend\n"
                      "return api\n");
}

// Lists "" on `engine`, reading each listed level key from the visitor.
absl::StatusOr<PropertyResult> ListThenRead(Engine& engine,
                                            std::vector<std::pair<std::string, std::string>>* read) {
  return engine.ListProperty("", [&](absl::string_view key, int) {
    if (key == "engine") return;
    std::string value;
    absl::StatusOr<PropertyResult> found = engine.ReadProperty(key, &value);
    read->emplace_back(std::string(key), found.ok() ? value : std::string(found.status().message()));
  });
}

TEST(ReentrancyTest, ListThenReadEachKeyWorks) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("list_read", ListingLevel("", "")),
                                              {{"instructionLimit", "100000"}});
  ASSERT_NE(engine, nullptr);
  std::vector<std::pair<std::string, std::string>> read;
  absl::StatusOr<PropertyResult> listed = ListThenRead(*engine, &read);
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_THAT(read, ElementsAre(Pair("a", "value of a"), Pair("b", "value of b"),
                                Pair("c", "value of c")));
  // The limits are whole again for the next call.
  ASSERT_TRUE(engine->Start(0, 1).ok());
}

// The nested calls used to disarm the watchdog: the rest of listProperty
// then ran without one.
TEST(ReentrancyTest, TheWatchdogStaysArmedAfterANestedCall) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("list_spin", ListingLevel("", "  while true do end")),
      {{"instructionLimit", "100000"}});
  ASSERT_NE(engine, nullptr);
  std::vector<std::pair<std::string, std::string>> read;
  absl::StatusOr<PropertyResult> listed = ListThenRead(*engine, &read);
  EXPECT_THAT(std::string(listed.status().message()),
              HasSubstr("exceeded the instruction limit of 100000"));
}

// A variant: the nested calls used to reset the count, so work split
// between the outer callback and nested ones was never stopped.
TEST(ReentrancyTest, NestedCallsCountTowardsTheOuterCallsLimit) {
  const std::string work = "  local n = 0 for i = 1, 20000 do n = n + i end";
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("list_count", ListingLevel(work, "", work)), {{"instructionLimit", "100000"}});
  ASSERT_NE(engine, nullptr);
  std::vector<std::pair<std::string, std::string>> read;
  absl::StatusOr<PropertyResult> listed = ListThenRead(*engine, &read);
  // Each read alone fits; with the outer call's work the second does not,
  // and the outer call fails at its next instruction.
  ASSERT_GE(read.size(), 2u);
  EXPECT_EQ(read[0].second, "value of a");
  EXPECT_THAT(read[1].second, HasSubstr("exceeded the instruction limit of 100000"));
  EXPECT_THAT(std::string(listed.status().message()),
              HasSubstr("exceeded the instruction limit of 100000"));
}

// The nested calls used to switch the memory cap off for the rest of the
// outer callback.
TEST(ReentrancyTest, TheMemoryCapStaysOnAfterANestedCall) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("list_grow",
                 ListingLevel("", "  local t = {} for i = 1, 4000000 do t[i] = {i} end")),
      {{"memoryLimitMegabytes", "16"}});
  ASSERT_NE(engine, nullptr);
  std::vector<std::pair<std::string, std::string>> read;
  absl::StatusOr<PropertyResult> listed = ListThenRead(*engine, &read);
  EXPECT_THAT(std::string(listed.status().message()), HasSubstr("not enough memory"));
}

// A regression the level_program fuzzer found: the engine collects a
// failed callback's garbage, which freed listProperty's callback box
// before the engine cleared it (a use after free under AddressSanitizer).
TEST(ReentrancyTest, AListingThatHitsTheMemoryCapLeavesNoDanglingCallback) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel("list_cap", ListingLevel("  SAVED = visit",
                                          "  local s = string.rep('x', 2 ^ 30)")),
      {{"memoryLimitMegabytes", "16"}});
  ASSERT_NE(engine, nullptr);
  std::vector<std::pair<std::string, std::string>> read;
  absl::StatusOr<PropertyResult> listed = ListThenRead(*engine, &read);
  EXPECT_THAT(std::string(listed.status().message()), HasSubstr("not enough memory"));
  EXPECT_EQ(read.size(), 3u);
}

TEST(ReentrancyTest, ANestedStartOrAdvanceIsRefused) {
  std::unique_ptr<Engine> engine =
      InitEngine(WriteLevel("list_start", ListingLevel("", "")));
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  std::vector<std::string> refusals;
  absl::StatusOr<PropertyResult> listed = engine->ListProperty("", [&](absl::string_view key, int) {
    if (key == "engine") return;  // listed by the engine, not from a level callback
    refusals.emplace_back(engine->Start(1, 1).message());
    double reward = 0;
    refusals.emplace_back(engine->Advance(1, &reward).status().message());
  });
  ASSERT_TRUE(listed.ok()) << listed.status();
  ASSERT_EQ(refusals.size(), 6u);  // a, b, c
  for (const std::string& refusal : refusals) {
    EXPECT_THAT(refusal, HasSubstr("from inside a level callback"));
  }
  // The episode goes on.
  double reward = 0;
  EXPECT_TRUE(engine->Advance(1, &reward).ok());
}

// The same through the C ABI, where the issue was found.
struct Host {
  EnvCApi* api;
  void* context;
  std::vector<std::string> values;
  int start_status = 0;
};

TEST(ReentrancyTest, TheCApiVisitorMayReadButNotStart) {
  EnvCApi api;
  void* context = StartContext(
      api, WriteLevel("c_list", ListingLevel("", "  while true do end")),
      {{"instructionLimit", "100000"}});
  ASSERT_NE(context, nullptr);
  Host host{&api, context, {}, 0};
  EnvCApi_PropertyResult listed = api.list_property(
      context, &host, "", [](void* userdata, const char* key, EnvCApi_PropertyAttributes) {
        Host& host = *static_cast<Host*>(userdata);
        if (std::string(key) == "engine") return;  // listed by the engine itself
        if (std::string(key) == "a") host.start_status = host.api->start(host.context, 1, 1);
        const char* value = nullptr;
        if (host.api->read_property(host.context, key, &value) == EnvCApi_PropertyResult_Success) {
          host.values.emplace_back(value);
        }
      });
  EXPECT_NE(host.start_status, 0);
  EXPECT_THAT(host.values, ElementsAre("value of a", "value of b", "value of c"));
  EXPECT_NE(listed, EnvCApi_PropertyResult_Success);
  EXPECT_THAT(api.error_message(context), HasSubstr("exceeded the instruction limit of 100000"));
  api.release_context(context);
}

// A level_program finding: a refused start from the visitor dropped the
// step's exported observations (the host's payload was freed) and left the
// context with no frame and no episode. A refused call changes nothing.
TEST(ReentrancyTest, ARefusedStartInTheCApiKeepsTheStep) {
  EnvCApi api;
  void* context = StartContext(api, WriteLevel("c_list_keep", ListingLevel("", "")));
  ASSERT_NE(context, nullptr);
  EnvCApi_Observation before;
  ASSERT_EQ(api.observation(context, 0, &before), 0) << api.error_message(context);
  const auto* held = static_cast<const std::uint8_t*>(before.payload.bytes);
  const std::vector<std::uint8_t> copy(held, held + 3 * before.spec.shape[0] * before.spec.shape[1]);
  Host host{&api, context, {}, 0};
  api.list_property(context, &host, "", [](void* userdata, const char* key,
                                           EnvCApi_PropertyAttributes) {
    Host& host = *static_cast<Host*>(userdata);
    if (std::string(key) != "a") return;  // a level key: inside the level's listProperty
    host.start_status = host.api->start(host.context, 1, 1);
    double reward = 0;
    host.values.emplace_back(std::to_string(host.api->advance(host.context, 1, &reward)));
  });
  EXPECT_NE(host.start_status, 0);
  EXPECT_THAT(host.values, ElementsAre(std::to_string(EnvCApi_EnvironmentStatus_Error)));
  EnvCApi_Observation after;
  ASSERT_EQ(api.observation(context, 0, &after), 0) << api.error_message(context);
  EXPECT_EQ(after.payload.bytes, before.payload.bytes);
  EXPECT_TRUE(std::equal(copy.begin(), copy.end(), held));
  double reward = 0;
  EXPECT_EQ(api.advance(context, 1, &reward), EnvCApi_EnvironmentStatus_Running)
      << api.error_message(context);
  api.release_context(context);
}

// Another: customObservation called a kept visitor, whose host asked for
// the same observation again. The outer call then replaced (and freed) the
// payload the nested call had handed out within the same step.
struct ObservingHost {
  EnvCApi* api;
  void* context;
  int kept;
  int depth = 0;
  std::vector<const void*> payloads;
};

TEST(ReentrancyTest, ANestedObservationCallKeepsTheFirstPayload) {
  const std::string level = absl::StrCat(
      "local tensor = require 'dmlab.system.tensor'\nlocal api = {}\nlocal SAVED\n", kMap,
      "\nfunction api:customObservationSpec()\n"
      "  return {{name = 'KEPT', type = 'Bytes', shape = {4}}}\nend\n"
      "function api:customObservation(name)\n"
      "  if SAVED then SAVED('late', 'r') end\n"
      "  return tensor.ByteTensor(4):fill(7)\nend\n"
      "function api:listProperty(key, visit) SAVED = visit visit('x', 'r') SAVED = nil end\n"
      "return api\n");
  EnvCApi api;
  void* context = StartContext(api, WriteLevel("c_list_observe", level));
  ASSERT_NE(context, nullptr);
  const int kept = api.observation_count(context) - 1;
  ASSERT_STREQ(api.observation_name(context, kept), "KEPT");
  ObservingHost host{&api, context, kept};
  api.list_property(context, &host, "", [](void* userdata, const char* key,
                                           EnvCApi_PropertyAttributes) {
    ObservingHost& host = *static_cast<ObservingHost*>(userdata);
    if (std::string(key) == "engine" || host.depth == 2) return;
    ++host.depth;
    EnvCApi_Observation observation;
    if (host.api->observation(host.context, host.kept, &observation) == 0) {
      host.payloads.push_back(observation.payload.bytes);
    }
    --host.depth;
  });
  // The nested call's payload, then the outer call's: the same one.
  ASSERT_EQ(host.payloads.size(), 2u) << api.error_message(context);
  EXPECT_EQ(host.payloads[0], host.payloads[1]);
  const auto* bytes = static_cast<const std::uint8_t*>(host.payloads[0]);
  EXPECT_THAT(std::vector<std::uint8_t>(bytes, bytes + 4), ElementsAre(7, 7, 7, 7));
  api.release_context(context);
}

}  // namespace
}  // namespace engine_plugin
