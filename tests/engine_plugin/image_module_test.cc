// dmlab.system.image as levels use it, through the engine: files read only
// inside the level's directories, bytes from a string, the operations, the
// tensor budget, errors that name the function and argument, and a lent
// frame kept past its callback.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"
#include "tests/engine_plugin/png_test_support.h"

namespace engine_plugin {
namespace {

using testing::EncodePng;
using ::testing::HasSubstr;
using testing::WithClaimedSize;

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A Lua string literal of any bytes.
std::string LuaBytes(const std::string& bytes) {
  std::string literal = "'";
  for (unsigned char byte : bytes) absl::StrAppend(&literal, "\\", static_cast<int>(byte));
  return literal + "'";
}

// <tmp>/<name>/level (the level, art/red.png, a link out of it) and
// <tmp>/<name>/scripts (gameScriptsDirectory, textures/blue.png), with
// <tmp>/<name>/secret.png outside both.
struct Tree {
  explicit Tree(const std::string& name) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root = absl::StrCat(tmp ? tmp : "/tmp", "/", name);
    for (const std::string& folder :
         {root, level_dir(), level_dir() + "/art", scripts(), scripts() + "/textures"}) {
      mkdir(folder.c_str(), 0700);
    }
    Write(level_dir() + "/art/red.png",
          EncodePng(2, 2, 3, {255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0}));
    Write(scripts() + "/textures/blue.png", EncodePng(1, 1, 4, {0, 0, 255, 128}));
    Write(root + "/secret.png", EncodePng(1, 1, 1, {42}));
    Write(level_dir() + "/art/broken.png", "this is not a png");
    symlink((root + "/secret.png").c_str(), (level_dir() + "/art/link.png").c_str());
  }
  std::string level_dir() const { return root + "/level"; }
  std::string scripts() const { return root + "/scripts"; }
  // The level whose init runs `body` (asserts), with `image` required.
  std::string level(const std::string& body) const {
    const std::string path = level_dir() + "/level.lua";
    Write(path, absl::StrCat("local image = require 'dmlab.system.image'\nlocal api = {}\n",
                             "function api:init(params)\n", body, "\nend\nreturn api\n"));
    return path;
  }
  std::string root;
};

TEST(ImageModuleTest, LoadsFilesOfTheLevelAndTheGameScriptsInAndOutOfTheSandbox) {
  const Tree tree("image_load");
  const std::string level = tree.level(absl::StrCat(R"lua(
    local red = image.load('art/red.png')
    assert(red:type() == 'dmlab.system.tensor.ByteTensor')
    local shape = red:shape()
    assert(shape[1] == 2 and shape[2] == 2 and shape[3] == 3)
    assert(red(1, 2, 1):val() == 255 and red(2, 2, 3):val() == 0)
    local blue = image.load(')lua",
                                                    tree.scripts(), R"lua(/textures/blue.png')
    assert(blue(1, 1, 3):val() == 255 and blue(1, 1, 4):val() == 128)
    -- DeepMind Lab's levels name their game_scripts through runFiles().
    local game = require 'dmlab.system.game'
    local same = image.load(game:runFiles() .. '/baselab/game_scripts/textures/blue.png')
    assert(same(1, 1, 4):val() == 128)
  )lua"));
  for (const char* sandbox : {"true", "false"}) {
    SCOPED_TRACE(sandbox);
    absl::Status init =
        InitWith(level, {{"gameScriptsDirectory", tree.scripts()}, {"sandbox", sandbox}});
    EXPECT_TRUE(init.ok()) << init;
  }
}

TEST(ImageModuleTest, LoadsBytesFromAString) {
  const Tree tree("image_content");
  const std::string level = tree.level(absl::StrCat("local grey = image.load('content:.png', ",
                                                    LuaBytes(EncodePng(1, 3, 1, {10, 20, 30})),
                                                    ")\n", "assert(grey(1, 3, 1):val() == 30)\n"));
  absl::Status init = InitWith(level, {});
  EXPECT_TRUE(init.ok()) << init;
}

// Each bad load is an error that names image.load and says why.
TEST(ImageModuleTest, RefusesFilesOutsideTheTreesAndBadImages) {
  const Tree tree("image_refused");
  const struct {
    std::string call;
    std::string says;
  } cases[] = {
      {"image.load('../secret.png')", "lies outside the level's directory and gameScriptsDirectory"},
      {absl::StrCat("image.load('", tree.root, "/secret.png')"), "lies outside the level's directory and gameScriptsDirectory"},
      {"image.load('art/link.png')", "lies outside the level's directory and gameScriptsDirectory"},
      {"image.load('art/missing.png')", "missing.png"},
      {"image.load('art/broken.png')", "not a PNG"},
      {"image.load('art/red.jpg')", "unsupported file type"},
      {"image.load('content:.png')", "bad argument #2 to 'image.load'"},
      {"image.load(7)", "bad argument #1 to 'image.load' (string expected, got number"},
      {"image.load('content:.png', 'not a png')", "not a PNG"},
  };
  for (const auto& [call, says] : cases) {
    SCOPED_TRACE(call);
    const std::string level =
        tree.level(absl::StrCat("local ok, err = pcall(function() return ", call, " end)\n",
                                "assert(not ok)\nerror(err, 0)\n"));
    const std::string message(
        InitWith(level, {{"gameScriptsDirectory", tree.scripts()}}).message());
    EXPECT_THAT(message, HasSubstr("image.load"));
    EXPECT_THAT(message, HasSubstr(says));
  }
}

// A PNG whose header claims 40000 x 40000 pixels is refused by the tensor
// budget before anything is decoded.
TEST(ImageModuleTest, ImagesAreChargedToTheTensorBudget) {
  const Tree tree("image_budget");
  Write(tree.level_dir() + "/art/bomb.png",
        WithClaimedSize(EncodePng(1, 1, 3, {1, 2, 3}), 40000, 40000));
  const std::string level = tree.level("image.load('art/bomb.png')");
  const std::string message(InitWith(level, {{"tensorMemoryLimitMegabytes", "16"}}).message());
  EXPECT_THAT(message, HasSubstr("image.load"));
  const std::string scaled = tree.level("image.scale(image.load('art/red.png'), 5000, 5000)");
  EXPECT_FALSE(InitWith(scaled, {{"tensorMemoryLimitMegabytes", "16"}}).ok());
}

// Under a watchdog too, the budget refuses first, with its own error,
// which pcall catches: the work was charged before the memory, and a
// 100000^2 header ended the callback with the watchdog's error instead.
TEST(ImageModuleTest, TheBudgetRefusesBeforeTheWatchdogIsCharged) {
  const Tree tree("image_budget_first");
  Write(tree.level_dir() + "/art/huge.png",
        WithClaimedSize(EncodePng(1, 1, 3, {1, 2, 3}), 100000, 100000));
  const std::string level = tree.level(
      "local ok, err = pcall(image.load, 'art/huge.png')\n"
      "assert(not ok and err:find('tensor memory limit'), err)\n"
      "local red = image.load('art/red.png')\n"
      "ok, err = pcall(image.scale, red, 100000, 100000)\n"
      "assert(not ok and err:find('tensor memory limit'), err)\n");
  const absl::Status init = InitWith(
      level, {{"tensorMemoryLimitMegabytes", "16"}, {"instructionLimit", "1000000"}});
  EXPECT_TRUE(init.ok()) << init;
}

TEST(ImageModuleTest, ScalesSetsHueAndOverlaysPatterns) {
  const Tree tree("image_ops");
  const std::string level = tree.level(R"lua(
    local tensor = require 'dmlab.system.tensor'
    local red = image.load('art/red.png')
    local big = image.scale(red, 3, 5)
    assert(big:shape()[1] == 3 and big:shape()[2] == 5 and big(3, 5, 1):val() == 255)
    local near = image.scale(tensor.ByteTensor{{{10}, {20}}}, 1, 4, 'nearest')
    assert(near(1, 1, 1):val() == 10 and near(1, 4, 1):val() == 20)
    assert(image.setHue(red, 120) == red)
    assert(red(1, 1, 1):val() == 0 and red(1, 1, 2):val() == 255)
    local rgba = tensor.ByteTensor{{{9, 9, 9, 255}, {40, 50, 60, 0}}}
    local mask = tensor.ByteTensor{{{255}, {255}}}
    assert(image.setMaskedPattern(rgba, mask, {200, 100, 0}, {0, 0, 0}) == rgba)
    assert(rgba(1, 1, 1):val() == 200 and rgba(1, 2, 1):val() == 40 and rgba(1, 2, 4):val() == 255)
  )lua");
  absl::Status init = InitWith(level, {});
  EXPECT_TRUE(init.ok()) << init;
}

TEST(ImageModuleTest, BadArgumentsNameTheFunctionAndArgument) {
  const Tree tree("image_arguments");
  const struct {
    std::string call;
    std::string says;
  } cases[] = {
      {"image.scale(5, 2, 2)", "bad argument #1 to 'image.scale' (ByteTensor expected, got number"},
      {"image.scale(image.load('art/red.png'), 'x', 2)", "bad argument #2 to 'image.scale'"},
      {"image.scale(image.load('art/red.png'), 2, 2, 'cubic')",
       "bad argument #4 to 'image.scale' ('bilinear' or 'nearest' expected, got 'cubic')"},
      {"image.scale(image.load('art/red.png'), -2, 2)", "'image.scale': the size -2x2 is negative"},
      {"image.setHue(image.load('art/red.png'))", "bad argument #2 to 'image.setHue'"},
      {"image.setHue(require('dmlab.system.tensor').ByteTensor(2, 2), 9)", "3 or 4 channels"},
      {"image.setMaskedPattern(image.load('art/red.png'))", "4 arguments expected"},
      {"local i = image.load('" + tree.scripts() +
           "/textures/blue.png') "
           "image.setMaskedPattern(i, i, {1, 2}, {0, 0, 0})",
       "bad argument #3 to 'image.setMaskedPattern' ({R, G, B} of integers from 0 to 255"},
      {"local i = image.load('" + tree.scripts() +
           "/textures/blue.png') "
           "image.setMaskedPattern(i, i, {0, 0, 0}, {0, 0, 256})",
       "bad argument #4 to 'image.setMaskedPattern'"},
  };
  for (const auto& [call, says] : cases) {
    SCOPED_TRACE(call);
    const std::string level = tree.level(absl::StrCat(
        "local ok, err = pcall(function() ", call, " end)\n", "assert(not ok)\nerror(err, 0)\n"));
    const std::string message(
        InitWith(level, {{"gameScriptsDirectory", tree.scripts()}}).message());
    EXPECT_THAT(message, HasSubstr(says));
  }
}

// A frame lent to observeFrame and kept is refused by every image function
// after the callback: its memory belongs to the engine.
TEST(ImageModuleTest, AKeptLentFrameIsRefused) {
  const Tree tree("image_lent");
  const std::string path = tree.level_dir() + "/lent.lua";
  Write(path, R"lua(
    local image = require 'dmlab.system.image'
    local api = {}
    function api:nextMap() return "*****\n*P  *\n*****\n" end
    function api:observeFrame(rgb) api.kept = rgb end
    function api:hasEpisodeFinished()
      if api.kept then
        for _, call in ipairs{
            function() image.setHue(api.kept, 10) end,
            function() image.scale(api.kept, 2, 2) end,
            function() image.setMaskedPattern(api.kept, api.kept, {0, 0, 0}, {0, 0, 0}) end} do
          local ok, err = pcall(call)
          assert(not ok and err:find('invalid', 1, true), tostring(err))
        end
      end
      return false
    end
    return api
  )lua");
  std::unique_ptr<Engine> engine = InitEngine(path);
  ASSERT_NE(engine, nullptr);
  absl::Status started = engine->Start(0, 1);
  ASSERT_TRUE(started.ok()) << started;
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = engine->Advance(2, &reward);
  EXPECT_TRUE(status.ok()) << status.status();
}

}  // namespace
}  // namespace engine_plugin
