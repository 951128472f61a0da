// ReadLevelFile, and the paths that reach it: a level, the modules beside
// it and its maps. A device, a pipe or a directory used to be read without
// bound (/dev/zero ended the process) or misreported. And
// ReadNamedLevelFile: a file a level names, found relative to its
// directory, absolutely, or by DeepMind Lab's runFiles() layout, and only
// inside the level's directory or its gameScriptsDirectory.
#include "engine_plugin/level_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string TempPath(const std::string& name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return std::string(directory ? directory : "/tmp") + "/" + name;
}

TEST(LevelFilesTest, ReadsARegularFile) {
  const std::string path = TempPath("plain.txt");
  std::ofstream(path) << "hello";
  absl::StatusOr<std::string> read = ReadLevelFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, "hello");
  EXPECT_TRUE(absl::IsNotFound(ReadLevelFile(TempPath("missing.txt")).status()));
}

TEST(LevelFilesTest, RefusesAnythingButARegularFile) {
  const std::string fifo = TempPath("pipe.lua");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), TempPath(""), fifo}) {
    SCOPED_TRACE(path);
    absl::StatusOr<std::string> read = ReadLevelFile(path);
    EXPECT_THAT(std::string(read.status().message()), HasSubstr("is not a regular file"));
  }
}

TEST(LevelFilesTest, LevelPathsAreReadThroughIt) {
  for (const std::string& path : {std::string("/dev/zero"), TempPath("") + "/"}) {
    SCOPED_TRACE(path);
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(path);
    EXPECT_THAT(std::string(engine.status().message()), HasSubstr("is not a regular file"));
  }
}

TEST(LevelFilesTest, NeighbourModulesAndMapsAreReadThroughIt) {
  const std::string directory = TempPath("neighbours");
  ASSERT_EQ(mkdir(directory.c_str(), 0700), 0);
  ASSERT_EQ(mkdir((directory + "/maps").c_str(), 0700), 0);
  ASSERT_EQ(mkfifo((directory + "/piped.lua").c_str(), 0600), 0);
  ASSERT_EQ(symlink("/dev/zero", (directory + "/maps/zero.txt").c_str()), 0);
  const std::string level = directory + "/level.lua";
  std::ofstream(level) << "local api = {}\n"
                          "function api:init() assert(not pcall(require, 'piped')) end\n"
                          "function api:nextMap() return 'zero' end\n"
                          "return api\n";
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  // The map file is /dev/zero: not read, and not found among the built-in ones.
  EXPECT_THAT(std::string(engine->Start(0, 1).message()), HasSubstr("zero"));
}

// A map file (or its variations) that links out of the level's folder is
// refused: the outside file's contents never reach the level, which used to
// see them through game:pickups() and in error messages.
TEST(LevelFilesTest, MapFilesDoNotFollowLinksOutOfTheLevelsFolder) {
  const std::string outside = TempPath("outside_maps");
  ASSERT_EQ(mkdir(outside.c_str(), 0700), 0);
  std::ofstream(outside + "/secret.txt") << "*****\n*P A*\n*****\n";
  std::ofstream(outside + "/secret.variations.txt") << "SECRETVAR\n";
  const std::string directory = TempPath("linked_maps");
  ASSERT_EQ(mkdir(directory.c_str(), 0700), 0);
  ASSERT_EQ(mkdir((directory + "/maps").c_str(), 0700), 0);
  ASSERT_EQ(symlink((outside + "/secret.txt").c_str(), (directory + "/maps/out.txt").c_str()), 0);
  // A map of its own, whose variations link out.
  std::ofstream(directory + "/maps/own.txt") << "*****\n*P A*\n*****\n";
  ASSERT_EQ(symlink((outside + "/secret.variations.txt").c_str(),
                    (directory + "/maps/own.variations.txt").c_str()),
            0);
  for (const char* map : {"out", "own"}) {
    SCOPED_TRACE(map);
    const std::string level = absl::StrCat(directory, "/", map, ".lua");
    std::ofstream(level) << "local api = {}\n"
                         << "function api:nextMap() return '" << map << "' end\n"
                         << "return api\n";
    std::unique_ptr<Engine> engine = InitEngine(level);
    ASSERT_NE(engine, nullptr);
    const absl::Status started = engine->Start(0, 1);
    EXPECT_THAT(std::string(started.message()), HasSubstr("link out of the level's folder"));
    EXPECT_THAT(std::string(started.message()), Not(HasSubstr("SECRET")));
    EXPECT_THAT(std::string(started.message()), Not(HasSubstr(outside)));
  }
  // Inside the folder, a link is fine.
  ASSERT_EQ(symlink((directory + "/maps/own.txt").c_str(), (directory + "/maps/alias.txt").c_str()),
            0);
  const std::string level = directory + "/alias.lua";
  std::ofstream(level) << "local api = {}\n"
                          "function api:nextMap() return 'alias' end\n"
                          "return api\n";
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  EXPECT_TRUE(engine->Start(0, 1).ok());
}


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
