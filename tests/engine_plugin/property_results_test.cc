// Properties answered as DeepMind Lab's levels answer them: readProperty's
// string or RESULT code, writeProperty's RESULT code or boolean, anything
// else an error; and the engine's own read-only tree.
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

// DeepMind Lab's common/property_helpers.lua numbers the results so.
constexpr char kLevel[] = R"(
local RESULT = {SUCCESS = 0, NOT_FOUND = 1, PERMISSION_DENIED = 2, INVALID_ARGUMENT = 3}
local api = {}
function api:nextMap() return '*****\n*P  *\n*****\n' end
local answers = {
  value = 'hello', list = RESULT.PERMISSION_DENIED, gone = RESULT.NOT_FOUND,
  count = 7, table = {}, truth = true,
}
function api:readProperty(key) return answers[key] end
local writes = {
  ok = RESULT.SUCCESS, missing = RESULT.NOT_FOUND, list = RESULT.PERMISSION_DENIED,
  bad = RESULT.INVALID_ARGUMENT, yes = true, no = false, seven = 7, text = 'done',
}
function api:writeProperty(key, value) return writes[key] end
function api:listProperty(key, add)
  if key == 'list' then add('list.a', 'r') return true end
  if key == 'empty' then return true end
  if key == 'value' then return false end
  if key == 'quiet' then add('quiet.b', 'rw') return end
  if key == 'odd' then return 'yes' end
end
return api
)";

TEST(PropertyResultsTest, ReadPropertyGivesAStringOrAResultCode) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("properties", kLevel));
  ASSERT_NE(engine, nullptr);
  std::string value;
  EXPECT_EQ(*engine->ReadProperty("value", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "hello");
  EXPECT_EQ(*engine->ReadProperty("list", &value), PropertyResult::kPermissionDenied);
  EXPECT_EQ(*engine->ReadProperty("gone", &value), PropertyResult::kNotFound);
  EXPECT_EQ(*engine->ReadProperty("absent", &value), PropertyResult::kNotFound);  // nil
  EXPECT_EQ(value, "hello");  // untouched by the failed reads
  for (const char* key : {"count", "table", "truth"}) {
    absl::StatusOr<PropertyResult> read = engine->ReadProperty(key, &value);
    ASSERT_FALSE(read.ok()) << key;
    EXPECT_THAT(read.status().message(),
                HasSubstr("'readProperty' must return a string, nil, 1 (RESULT.NOT_FOUND) or 2"));
  }
  EXPECT_THAT(engine->ReadProperty("count", &value).status().message(),
              HasSubstr("not the number 7 (a value must be a string)"));
}

TEST(PropertyResultsTest, WritePropertyGivesAResultCodeOrABoolean) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("properties", kLevel));
  ASSERT_NE(engine, nullptr);
  struct Case {
    const char* key;
    PropertyResult result;
  };
  for (const Case& c : std::vector<Case>{{"ok", PropertyResult::kSuccess},
                                         {"missing", PropertyResult::kNotFound},
                                         {"list", PropertyResult::kPermissionDenied},
                                         {"bad", PropertyResult::kInvalidArgument},
                                         {"yes", PropertyResult::kSuccess},
                                         {"no", PropertyResult::kNotFound},
                                         {"absent", PropertyResult::kNotFound}}) {
    absl::StatusOr<PropertyResult> written = engine->WriteProperty(c.key, "v");
    ASSERT_TRUE(written.ok()) << c.key << ": " << written.status();
    EXPECT_EQ(*written, c.result) << c.key;
  }
  for (const char* key : {"seven", "text"}) {
    absl::StatusOr<PropertyResult> written = engine->WriteProperty(key, "v");
    ASSERT_FALSE(written.ok()) << key;
    EXPECT_THAT(written.status().message(), HasSubstr("'writeProperty' must return a RESULT code"));
  }
}

TEST(PropertyResultsTest, ListPropertyGivesTrueFalseOrNil) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("properties", kLevel));
  ASSERT_NE(engine, nullptr);
  std::vector<std::string> keys;
  auto visit = [&](absl::string_view key, int) { keys.emplace_back(key); };
  EXPECT_EQ(*engine->ListProperty("list", visit), PropertyResult::kSuccess);
  EXPECT_EQ(*engine->ListProperty("empty", visit), PropertyResult::kSuccess);
  EXPECT_EQ(*engine->ListProperty("value", visit), PropertyResult::kPermissionDenied);
  EXPECT_EQ(*engine->ListProperty("quiet", visit), PropertyResult::kSuccess);  // nil, listed
  EXPECT_EQ(*engine->ListProperty("absent", visit), PropertyResult::kNotFound);
  EXPECT_EQ(keys, (std::vector<std::string>{"list.a", "quiet.b"}));
  absl::StatusOr<PropertyResult> odd = engine->ListProperty("odd", visit);
  ASSERT_FALSE(odd.ok());
  EXPECT_THAT(odd.status().message(),
              HasSubstr("'listProperty' must return true, false or nil, not string"));
  // The root lists the engine's tree, whatever the level says.
  keys.clear();
  EXPECT_EQ(*engine->ListProperty("", visit), PropertyResult::kSuccess);
  EXPECT_EQ(keys, (std::vector<std::string>{"engine"}));
  EXPECT_EQ(*engine->ListProperty("engine.fps", visit), PropertyResult::kPermissionDenied);
}

TEST(PropertyResultsTest, TheEngineTreeIsReadOnlyAndItsListUnreadable) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("properties", kLevel));
  ASSERT_NE(engine, nullptr);
  std::string value;
  EXPECT_EQ(*engine->ReadProperty("engine.fps", &value), PropertyResult::kSuccess);
  EXPECT_EQ(*engine->ReadProperty("engine", &value), PropertyResult::kPermissionDenied);
  EXPECT_EQ(*engine->WriteProperty("engine", "x"), PropertyResult::kPermissionDenied);
  EXPECT_EQ(*engine->WriteProperty("engine.fps", "x"), PropertyResult::kPermissionDenied);
  EXPECT_EQ(*engine->WriteProperty("engine.nothing", "x"), PropertyResult::kNotFound);
}

}  // namespace
}  // namespace engine_plugin
