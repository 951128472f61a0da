// ReadNamedLevelFile: a file a level names, found relative to its
// directory, absolutely, or by DeepMind Lab's runFiles() layout, and only
// inside the level's directory or its gameScriptsDirectory.
#include "engine_plugin/level_paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

// <tmp>/paths/level/a.txt, <tmp>/paths/scripts/sub/b.txt, <tmp>/paths/c.txt
// outside both, and level/out.txt, a link to c.txt.
class LevelPathsTest : public ::testing::Test {
 protected:
  LevelPathsTest() {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = absl::StrCat(tmp ? tmp : "/tmp", "/paths");
    for (const std::string& folder :
         {root_, root_ + "/level", root_ + "/scripts", root_ + "/scripts/sub"}) {
      mkdir(folder.c_str(), 0700);
    }
    std::ofstream(root_ + "/level/a.txt") << "a";
    std::ofstream(root_ + "/scripts/sub/b.txt") << "b";
    std::ofstream(root_ + "/c.txt") << "c";
    symlink((root_ + "/c.txt").c_str(), (root_ + "/level/out.txt").c_str());
    paths_ = {.level_directory = root_ + "/level", .game_scripts_directory = root_ + "/scripts"};
  }

  std::string root_;
  LevelPaths paths_;
};

TEST_F(LevelPathsTest, FindsFilesRelativeAbsoluteAndUnderRunFiles) {
  EXPECT_EQ(*ReadNamedLevelFile(paths_, "a.txt"), "a");
  EXPECT_EQ(*ReadNamedLevelFile(paths_, root_ + "/scripts/sub/b.txt"), "b");
  EXPECT_EQ(
      *ReadNamedLevelFile(paths_, absl::StrCat(kRunFilesRoot, "/baselab/game_scripts/sub/b.txt")),
      "b");
  EXPECT_EQ(paths_.ModuleDirectories(),
            (std::vector<std::string>{root_ + "/level", root_ + "/scripts"}));
}

TEST_F(LevelPathsTest, ReadsNothingOutsideTheTwoDirectories) {
  for (const std::string& name : {std::string("../c.txt"), root_ + "/c.txt", std::string("out.txt"),
                                  absl::StrCat(kRunFilesRoot, "/baselab/game_scripts/../c.txt"),
                                  absl::StrCat(kRunFilesRoot, "/baselab/other/x.txt")}) {
    SCOPED_TRACE(name);
    const absl::Status status = ReadNamedLevelFile(paths_, name).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << status;
    EXPECT_THAT(std::string(status.message()), HasSubstr("outside"));
  }
  EXPECT_EQ(ReadNamedLevelFile(paths_, "missing.txt").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadNamedLevelFile(paths_, "").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(LevelPathsTest, SaysWhichDirectoryIsMissing) {
  const LevelPaths built_in{.game_scripts_directory = root_ + "/scripts"};
  EXPECT_THAT(std::string(ReadNamedLevelFile(built_in, "a.txt").status().message()),
              HasSubstr("no directory"));
  const LevelPaths no_scripts{.level_directory = root_ + "/level"};
  EXPECT_THAT(
      std::string(ReadNamedLevelFile(no_scripts,
                                     absl::StrCat(kRunFilesRoot, "/baselab/game_scripts/sub/b.txt"))
                      .status()
                      .message()),
      HasSubstr("set gameScriptsDirectory"));
}

}  // namespace
}  // namespace engine_plugin
