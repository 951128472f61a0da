// Where a level comes from decides whether it is trusted: a built-in level
// is, a level read from a file never is, whatever its folder's name.
#include "engine_plugin/level_source.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

TEST(LevelSourceTest, ABuiltinLevelIsMarkedBuiltin) {
  absl::StatusOr<LevelSource> found = FindLevel("demo_maze");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_TRUE(found->builtin);
  EXPECT_EQ(found->directory, "");
}

TEST(LevelSourceTest, ALevelFromAFileIsNeverBuiltin) {
  const std::string path = WriteLevel("from_a_file", "return {}");
  absl::StatusOr<LevelSource> found = FindLevel(path);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_FALSE(found->builtin);
  EXPECT_EQ(found->directory, path.substr(0, path.rfind('/')));
}

// Its folder would be "" (once the mark of a built-in level, so such a
// level ran with no sandbox) or "/", whose files are all of them: refused
// before the file is read, so whether it exists does not matter.
TEST(LevelSourceTest, ALevelInTheFilesystemsRootIsRefused) {
  for (const char* level : {"/x.lua", "/tmp/../x.lua", "//x.lua", "/tmp/./../y.lua"}) {
    absl::StatusOr<LevelSource> found = FindLevel(level);
    ASSERT_FALSE(found.ok()) << level;
    EXPECT_EQ(found.status().code(), absl::StatusCode::kPermissionDenied) << level;
    EXPECT_THAT(found.status().message(), HasSubstr("filesystem's root")) << level;
  }
  absl::Status init = InitWith("/x.lua", {});
  EXPECT_EQ(init.code(), absl::StatusCode::kPermissionDenied) << init;
}

}  // namespace
}  // namespace engine_plugin
