// LevelScript's callbacks by name: the engine interns each name it calls
// once, so a call finds the callback by the name's text, whatever buffer
// holds it, and a host with more names than the cache keeps still reaches
// every one.
#include "engine_plugin/level_script.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/observation.h"
#include "gtest/gtest.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin {
namespace {

class NoEvents : public EventSink {
 public:
  absl::Status ReserveEvent(absl::string_view, std::size_t) override {
    return absl::FailedPreconditionError("no events here");
  }
  void AddEvent(std::string, std::vector<ObservationValue>) override {}
};

// A level with callbacks cb1 .. cb<count>, each returning its number.
std::string Level(int count) {
  std::string source = "local api = {}\n";
  for (int i = 1; i <= count; ++i) {
    absl::StrAppend(&source, "function api:cb", i, "() return ", i, " end\n");
  }
  return source + "return api\n";
}

class LevelScriptTest : public ::testing::Test {
 protected:
  void Load(int callbacks) {
    absl::StatusOr<std::unique_ptr<LevelScript>> script = LevelScript::Load(
        Level(callbacks), "=names", LevelPaths{}, LevelLimits{}, [](lua_State*) {}, &events_);
    ASSERT_TRUE(script.ok()) << script.status();
    script_ = *std::move(script);
  }

  // What api:<name>() returned; -1 when the level has no such callback.
  int CallNamed(const char* name) {
    int returned = -1;
    absl::StatusOr<bool> called = script_->Call(
        name, 1, [](lua_State*) { return 0; },
        [&returned](lua_State* L, int first) {
          returned = static_cast<int>(lua_tointeger(L, first));
          return absl::OkStatus();
        });
    EXPECT_TRUE(called.ok()) << called.status();
    return called.ok() && *called ? returned : -1;
  }

  NoEvents events_;
  std::unique_ptr<LevelScript> script_;
};

TEST_F(LevelScriptTest, FindsCallbacksByTheTextOfTheirNames) {
  Load(3);
  // One buffer for every name: the same address holds different names.
  char name[16];
  for (int round = 0; round < 2; ++round) {
    for (int i = 1; i <= 3; ++i) {
      std::snprintf(name, sizeof(name), "cb%d", i);
      EXPECT_EQ(CallNamed(name), i) << name << ", round " << round;
    }
  }
  std::snprintf(name, sizeof(name), "cb%d", 4);
  EXPECT_EQ(CallNamed(name), -1);
  EXPECT_FALSE(script_->Defines(name));
  EXPECT_TRUE(script_->Defines("cb2"));
}

TEST_F(LevelScriptTest, ReachesEveryCallbackBeyondTheNamesItKeeps) {
  constexpr int kCallbacks = 100;  // more than the engine interns
  Load(kCallbacks);
  for (int round = 0; round < 2; ++round) {
    for (int i = 1; i <= kCallbacks; ++i) {
      const std::string name = absl::StrCat("cb", i);
      EXPECT_EQ(CallNamed(name.c_str()), i) << name << ", round " << round;
    }
  }
}

}  // namespace
}  // namespace engine_plugin
