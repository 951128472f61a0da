// gameScriptsDirectory (a tree of Lua modules levels require, as DeepMind
// Lab's game_scripts) and the sandbox's io (stdout and stderr only, a byte
// budget a callback), through the engine.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "engine_plugin/sandbox_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return std::string(directory ? directory : "/tmp") + "/" + name;
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// <tmp>/<name>/scripts/common/greeting.lua and <tmp>/<name>/level/level.lua,
// the level requiring 'common.greeting'.
struct Tree {
  explicit Tree(const std::string& name) : root(TempPath(name)) {
    for (const std::string& folder : {root, scripts(), scripts() + "/common", level_dir()}) {
      mkdir(folder.c_str(), 0700);
    }
    Write(scripts() + "/common/greeting.lua", "return {text = 'from the game scripts'}\n");
  }
  std::string scripts() const { return root + "/scripts"; }
  std::string level_dir() const { return root + "/level"; }
  std::string level(const std::string& body) const {
    const std::string path = level_dir() + "/level.lua";
    Write(path, absl::StrCat("local api = {}\n", body, "\nreturn api\n"));
    return path;
  }
  std::string root;
};

constexpr char kRequiresGreeting[] =
    "assert(require('common.greeting').text == 'from the game scripts')";

TEST(GameScriptsTest, ALevelRequiresModulesOfTheTreeInAndOutOfTheSandbox) {
  const Tree tree("tree_both");
  const std::string level = tree.level(kRequiresGreeting);
  for (const char* sandbox : {"true", "false"}) {
    SCOPED_TRACE(sandbox);
    absl::Status init =
        InitWith(level, {{"gameScriptsDirectory", tree.scripts()}, {"sandbox", sandbox}});
    EXPECT_TRUE(init.ok()) << init;
  }
  // Without the setting the module is not found, and the error says where
  // the sandbox looked.
  EXPECT_THAT(std::string(InitWith(level, {}).message()), HasSubstr("common.greeting"));
}

TEST(GameScriptsTest, TheLevelsOwnDirectoryComesFirst) {
  const Tree tree("tree_order");
  mkdir((tree.level_dir() + "/common").c_str(), 0700);
  Write(tree.level_dir() + "/common/greeting.lua", "return {text = 'beside the level'}\n");
  const std::string level =
      tree.level("assert(require('common.greeting').text == 'beside the level')");
  for (const char* sandbox : {"true", "false"}) {
    SCOPED_TRACE(sandbox);
    absl::Status init =
        InitWith(level, {{"gameScriptsDirectory", tree.scripts()}, {"sandbox", sandbox}});
    EXPECT_TRUE(init.ok()) << init;
  }
}

TEST(GameScriptsTest, TheSandboxReadsNothingOutsideTheTree) {
  const Tree tree("tree_confined");
  Write(tree.root + "/secret.lua", "return {text = 'outside'}\n");
  ASSERT_EQ(symlink((tree.root + "/secret.lua").c_str(),
                    (tree.scripts() + "/common/escape.lua").c_str()),
            0);
  const std::string level = tree.level("require 'common.escape'");
  EXPECT_THAT(std::string(InitWith(level, {{"gameScriptsDirectory", tree.scripts()}}).message()),
              HasSubstr("links outside"));
  // Names are letters, digits and '_' between dots: no '..' either.
  const std::string dotted = tree.level("require '..secret'");
  EXPECT_THAT(std::string(InitWith(dotted, {{"gameScriptsDirectory", tree.scripts()}}).message()),
              HasSubstr("letters, digits"));
}

// DeepMind Lab's datasets read files as
// game:loadFileToString(game:runFiles() .. '/baselab/game_scripts/...').
TEST(GameScriptsTest, LoadFileToStringReadsTheTreeThroughRunFiles) {
  const Tree tree("tree_files");
  Write(tree.scripts() + "/common/data.txt", std::string("bytes\0and more", 14));
  Write(tree.level_dir() + "/beside.txt", "beside");
  Write(tree.root + "/secret.txt", "secret");
  const std::string level = tree.level(R"lua(
    local game = require 'dmlab.system.game'
    local data = game:loadFileToString(game:runFiles() .. '/baselab/game_scripts/common/data.txt')
    assert(data == 'bytes\0and more', data)
    assert(game:loadFileToString('beside.txt') == 'beside')
    local ok, err = pcall(function() return game:loadFileToString('../secret.txt') end)
    assert(not ok and err:find("'game:loadFileToString'", 1, true) and err:find('outside'), err)
    ok, err = pcall(function() return game:loadFileToString() end)
    assert(not ok and err:find("bad argument #1 to 'loadFileToString'", 1, true), err)
    ok, err = pcall(function() return game.runFiles() end)
    assert(not ok and err:find('game:runFiles(...)', 1, true), err)
  )lua");
  for (const char* sandbox : {"true", "false"}) {
    SCOPED_TRACE(sandbox);
    absl::Status init =
        InitWith(level, {{"gameScriptsDirectory", tree.scripts()}, {"sandbox", sandbox}});
    EXPECT_TRUE(init.ok()) << init;
  }
}

// The string lands on the Lua heap: a file larger than the room left under
// the Lua memory cap is an error, not a heap past the cap.
TEST(GameScriptsTest, LoadFileToStringRespectsTheLuaMemoryCap) {
  const Tree tree("tree_big_file");
  Write(tree.level_dir() + "/big.txt", std::string(3 << 20, 'x'));
  const std::string level = tree.level(R"lua(
    local game = require 'dmlab.system.game'
    game:loadFileToString('big.txt')
  )lua");
  const std::string message(InitWith(level, {{"memoryLimitMegabytes", "2"}}).message());
  EXPECT_THAT(message, HasSubstr("game:loadFileToString"));
  EXPECT_TRUE(InitWith(level, {{"memoryLimitMegabytes", "16"}}).ok());
}

TEST(GameScriptsTest, TheSettingMustNameADirectory) {
  const Tree tree("tree_setting");
  const std::string level = tree.level("");
  for (const std::string& bad : {TempPath("no_such_tree"), tree.level_dir() + "/level.lua"}) {
    SCOPED_TRACE(bad);
    absl::Status init = InitWith(level, {{"gameScriptsDirectory", bad}});
    EXPECT_THAT(std::string(init.message()),
                HasSubstr("setting 'gameScriptsDirectory': '" + bad + "' is not a directory"));
  }
}

// Runs `body` as the init of a sandboxed level and returns what it wrote
// to stdout and stderr.
std::pair<std::string, std::string> Output(const std::string& body, absl::Status* init) {
  const std::string level = WriteLevel("io_level", absl::StrCat(
      "local api = {}\nfunction api:init()\n", body, "\nend\nreturn api\n"));
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  *init = InitWith(level, {});
  std::fflush(stdout);
  std::fflush(stderr);
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  return {out, err};
}

TEST(SandboxIoTest, ALevelWritesToStdoutAndStderr) {
  absl::Status init;
  auto [out, err] = Output(R"(
    io.write('a', 1, ' ')
    assert(io.stdout:write('b'):write('c\n') == io.stdout)
    io.stderr:write('to stderr\n'):flush()
    io.flush()
    local helpers_io = require 'io'  -- as DeepMind Lab's common.helpers does
    assert(helpers_io == io)
    assert(io.open('file', 'r') == nil)  -- common.helpers.fileExists: false
  )", &init);
  EXPECT_TRUE(init.ok()) << init;
  EXPECT_EQ(out, "a1 bc\n");
  EXPECT_EQ(err, "to stderr\n");
}

TEST(SandboxIoTest, WritesTakeStringsAndNumbersOnly) {
  absl::Status init;
  Output("io.write('x', {})", &init);
  EXPECT_THAT(std::string(init.message()),
              HasSubstr("bad argument #2 to 'write' (string or number expected, got table)"));
  Output("io.stdout:write(nil)", &init);
  EXPECT_THAT(std::string(init.message()), HasSubstr("bad argument #1 to 'write'"));
}

TEST(SandboxIoTest, EachCallbackHasAByteBudget) {
  absl::Status init;
  // Twice the budget in one callback: the first kOutputBytesPerCall bytes
  // come out, then one note on stderr; nothing fails.
  auto [out, err] = Output(absl::StrCat("local chunk = string.rep('x', 4096)\n",
                                        "for i = 1, ", 2 * kOutputBytesPerCall / 4096,
                                        " do io.write(chunk) end"),
                           &init);
  EXPECT_TRUE(init.ok()) << init;
  EXPECT_EQ(out.size(), kOutputBytesPerCall);
  EXPECT_THAT(err, HasSubstr("rest of its output in this callback is dropped"));
  // print spends the same budget (8 MiB used to come out of one callback),
  // and prints as Lua's does: tostring, tabs, a newline.
  std::tie(out, err) = Output(absl::StrCat("local chunk = string.rep('p', 4095)\n",
                                           "for i = 1, ", 2 * kOutputBytesPerCall / 4096,
                                           " do print(chunk) end"),
                              &init);
  EXPECT_TRUE(init.ok()) << init;
  EXPECT_EQ(out.size(), kOutputBytesPerCall);
  EXPECT_THAT(err, HasSubstr("rest of its output in this callback is dropped"));
  std::tie(out, err) = Output("print(1, nil, true, 'x'); io.write('y')", &init);
  EXPECT_TRUE(init.ok()) << init;
  EXPECT_EQ(out, "1\tnil\ttrue\tx\ny");
  Output("tostring = function() return {} end; print(1)", &init);
  EXPECT_THAT(std::string(init.message()), HasSubstr("'tostring' must return a string"));
  // The budget is per callback: init and start each get a whole one.
  const std::string level = WriteLevel("io_budget", absl::StrCat(
      "local api = {}\n", "local chunk = string.rep('y', ", kOutputBytesPerCall, ")\n",
      "function api:init() io.write(chunk) end\n",
      "function api:nextMap() return '*****\\n*P  *\\n*****\\n' end\n",
      "function api:start() io.write(chunk) end\nreturn api\n"));
  testing::internal::CaptureStdout();
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  EXPECT_TRUE(engine->Start(0, 0).ok());
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout().size(), 2 * kOutputBytesPerCall);
}

}  // namespace
}  // namespace engine_plugin
