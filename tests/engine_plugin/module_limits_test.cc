// The red team's levels against the limits (issue 53): work that grows with
// a module function's input is charged to the watchdog before it is done,
// memory a level can cause is charged before it is made, and work that
// Lua itself counts as one instruction meets the watchdog's clock. Before
// each fix, each case here ran for minutes (the test's timeout failed it)
// or took hundreds of MB past its cap and succeeded.
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

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;
using Settings = std::vector<std::pair<std::string, std::string>>;
using ::engine_plugin::EpisodeStatus;

std::string TempPath(const std::string& name) {
  const char* directory = std::getenv("TEST_TMPDIR");
  return std::string(directory ? directory : "/tmp") + "/" + name;
}

// A map of `side` x `side` apples with a spawn point in its corner.
std::string ApplesMap(int side) {
  std::string map = std::string(side + 2, '*') + "\\n";
  for (int row = 0; row < side; ++row) {
    map += "*" + std::string(row == 0 ? "P" : "A") + std::string(side - 1, 'A') + "*\\n";
  }
  return map + std::string(side + 2, '*') + "\\n";
}

// A level on ApplesMap(side) whose hasEpisodeFinished runs `body` once,
// in the first step (the map is loaded then).
std::string FailingStepOnApples(int side, const std::string& body) {
  return absl::StrCat("local api = {}\nfunction api:nextMap() return '", ApplesMap(side),
                      "' end\nlocal ran = false\nfunction api:hasEpisodeFinished()\n",
                      "  if ran then return false end\n  ran = true\n", body,
                      "\nend\nreturn api\n");
}

// Init and Start, a step that must fail with every one of `messages`,
// then a new episode and a step that must succeed.
void ExpectStepFailsThenRecovers(const std::string& name, const std::string& source,
                                 const Settings& settings,
                                 const std::vector<std::string>& messages) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel(name, source), settings);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  const absl::StatusOr<EpisodeStatus> failed = engine->Advance(1, &reward);
  ASSERT_FALSE(failed.ok());
  for (const std::string& message : messages) {
    EXPECT_THAT(std::string(failed.status().message()), HasSubstr(message));
  }
  const absl::Status started = engine->Start(1, 1);
  ASSERT_TRUE(started.ok()) << started;
  EXPECT_TRUE(engine->Advance(5, &reward).ok());
}

constexpr char kStopped[] = "exceeded the instruction limit of 10000000 instructions";
const Settings kLimit = {{"instructionLimit", "10000000"}};

// Each call is bounded, but a loop of them escaped the watchdog: each
// function now charges what its work costs, measured against a Lua
// instruction's time.
TEST(ModuleLimitsTest, ModuleWorkThatGrowsWithItsInputIsCharged) {
  std::ofstream(TempPath("big.txt")) << std::string(std::size_t{16} << 20, 'x');
  {
    std::ofstream module(TempPath("bigmodule.lua"));
    for (int i = 0; i < (2 << 20) / 10; ++i) module << "x = x + 1\n";
  }
  const std::string kMaps = "local map_maker = require 'dmlab.system.map_maker'\n";
  const std::string kMazes = "local mazes = require 'dmlab.system.maze_generation'\n";
  for (const std::string& body : {
           std::string("while true do game:loadFileToString('big.txt') end"),
           std::string("x = 0\nwhile true do package.loaded.bigmodule = nil require 'bigmodule' end"),
           kMaps + "local text = 'P' .. string.rep(' ', 1023) .. "
                   "string.rep('\\n' .. string.rep(' ', 1024), 1023)\n"
                   "while true do map_maker:mapFromTextLevel{entityLayer = text} end",
           kMazes + "while true do mazes.randomMazeGeneration{seed = 1, height = 101, "
                    "width = 101, retryCount = 1000000} end",
           kMazes + "local m = mazes.mazeGeneration{height = 1001, width = 1001}\n"
                    "while true do m:visitFill{cell = {2, 2}, func = function() end} end",
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers(
        "module_work",
        FailingStart("local game = require 'dmlab.system.game'\n" + body), kLimit, {kStopped});
  }
  // A 1023 x 1023 maze takes about 10 s to simplify: more than the
  // default limit of 10^9 instructions (it was charged 16.7 million).
  ExpectStartFailsThenRecovers(
      "big_maze",
      FailingStart(kMazes + "mazes.randomMazeGeneration{seed = 1, height = 1023, width = 1023}"),
      {{"instructionLimit", "1000000000"}}, {"exceeded the instruction limit of 1000000000"});
  // game:pickups() on a map of 10,000 apples.
  ExpectStepFailsThenRecovers(
      "pickups_work",
      FailingStepOnApples(100, "local game = require 'dmlab.system.game'\n"
                                "while true do local p = game:pickups() end"),
      kLimit, {kStopped});
}

// Walls and filters given as long lists cost one lookup per cell or
// pickup: a 1 MiB wall string was searched at every cell (20 s), a list of
// 200,000 names at every pickup. The loops after each call give the
// watchdog's clock (10 s at this limit) a chance to see a slow one.
TEST(ModuleLimitsTest, LongWallStringsAndFiltersCostOneLookupEach) {
  const std::string level = WriteLevel("long_lists", FailingStepOnApples(100, R"(
    local mazes = require 'dmlab.system.maze_generation'
    local game_entities = require 'dmlab.system.game_entities'
    local row = '*' .. string.rep(' ', 999) .. '*\n'
    local m = mazes.mazeGeneration{entity = string.rep('*', 1001) .. '\n' ..
                                             string.rep(row, 999) .. string.rep('*', 1001)}
    m:setEntityCell(3, 2, 'A')
    local visited = 0
    m:visitFill{cell = {2, 2}, wall = string.rep('#', 2 ^ 20) .. '*A',
                func = function() visited = visited + 1 end}
    assert(visited == 999 * 999 - 1, visited)
    local names = {}
    for i = 1, 200000 do names[i] = 'name' .. i end
    names[#names + 1] = 'apple_reward'
    assert(#game_entities:entities(names) == 100 * 100 - 1)
    for i = 1, 10000 do end
  )"));
  std::unique_ptr<Engine> engine = InitEngine(level, {{"instructionLimit", "1000000000"}});
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  const absl::StatusOr<EpisodeStatus> stepped = engine->Advance(1, &reward);
  EXPECT_TRUE(stepped.ok()) << stepped.status();
}

// A module function's results land on the Lua heap, which nothing refuses
// inside C++: each checks the room first, and what the host keeps for the
// level (rows being split, parsed entities, spawn variables) is charged to
// its tensor memory before it is made.
TEST(ModuleLimitsTest, WhatAModuleFunctionMakesIsChargedBeforeItIsMade) {
  const struct {
    int side;
    std::string body;
    Settings settings;
    std::string says;
  } cases[] = {
      // 90,000 pickups' tables, about 50 MB, under a 16 MiB Lua heap.
      {300,
       "local game = require 'dmlab.system.game'\n"
       "local ok, err = pcall(game.pickups, game)\nassert(not ok)\nerror(err)",
       {{"memoryLimitMegabytes", "16"}},
       "'game:pickups'"},
      {300,
       "local ge = require 'dmlab.system.game_entities'\n"
       "local ok, err = pcall(ge.entities, ge)\nassert(not ok)\nerror(err)",
       {{"memoryLimitMegabytes", "16"}},
       "'game_entities:entities'"},
      // A filter of a million names (a 64 MB set of C++ strings) under
      // 16 MiB of tensor memory.
      {2,
       "local ge = require 'dmlab.system.game_entities'\n"
       "local names = {}\nfor i = 1, 1e6 do names[i] = 'n' .. i end\n"
       "local ok, err = pcall(ge.entities, ge, names)\nassert(not ok)\nerror(err)",
       {{"tensorMemoryLimitMegabytes", "16"}},
       "the filter's names"},
      // 12 MB of newlines: 12 million rows, twice.
      {2,
       "local map_maker = require 'dmlab.system.map_maker'\n"
       "local ok, err = pcall(map_maker.mapFromTextLevel, map_maker,\n"
       "                      {entityLayer = 'P' .. string.rep('\\n', 12e6)})\n"
       "assert(not ok)\nerror(err)",
       {{"tensorMemoryLimitMegabytes", "64"}},
       "tensor memory limit"},
      // A callback that returns 4 MB of entities for every cell.
      {2,
       "local map_maker = require 'dmlab.system.map_maker'\n"
       "local entity = string.rep('{\\n\"classname\" \"apple_reward\"\\n}\\n', 4e6 / 32)\n"
       "local ok, err = pcall(map_maker.mapFromTextLevel, map_maker, {\n"
       "    entityLayer = 'P' .. string.rep(' ', 63),\n"
       "    callback = function(i, j, c) if c ~= 'P' then return entity end end})\n"
       "assert(not ok)\nerror(err)",
       {{"tensorMemoryLimitMegabytes", "64"}},
       "tensor memory limit"},
      // An entity's text holding a 20 MB string three times, under a
      // 64 MiB heap.
      {2,
       "local map_maker = require 'dmlab.system.map_maker'\n"
       "local big = string.rep('x', 20e6)\n"
       "local ok, err = pcall(map_maker.mapFromTextLevel, map_maker, {\n"
       "    entityLayer = 'P ',\n"
       "    callback = function(i, j, c, maker)\n"
       "      if c == ' ' then\n"
       "        return maker:makeEntity{i = i, j = j, classname = 'x', attributes = {a = big, b = big, c = big}}\n"
       "      end\n"
       "    end})\n"
       "assert(not ok)\nerror(err)",
       {{"memoryLimitMegabytes", "64"}},
       "makeEntity"},
  };
  for (const auto& [side, body, settings, says] : cases) {
    SCOPED_TRACE(body);
    ExpectStepFailsThenRecovers("module_memory", FailingStepOnApples(side, body), settings,
                                {says});
  }
}

// One 1 MiB string shared by the spawn variables of 400 apples was copied
// for each (1005 MB for 1000): each copy is charged first.
TEST(ModuleLimitsTest, SpawnVariablesAreChargedBeforeTheyAreCopied) {
  const std::string level = WriteLevel("shared_spawn_vars", absl::StrCat(R"(
local api = {}
local big = string.rep('x', 2 ^ 20)
function api:nextMap() return ')", ApplesMap(20), R"(' end
function api:updateSpawnVars(vars)
  vars.big = big
  return vars
end
return api
)"));
  std::unique_ptr<Engine> engine = InitEngine(level, {{"tensorMemoryLimitMegabytes", "64"}});
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(std::string(engine->Start(0, 1).message()), HasSubstr("tensor memory limit"));
}

// Lua 5.1 hashes a long string by every 33rd byte, so strings that differ
// only between those share one chain, and interning each compares it with
// all before it, inside one instruction. 200,000 of them would run for
// minutes (60,000 ran 51 s); the watchdog's clock (5 s at this limit)
// stops them.
TEST(ModuleLimitsTest, CollidingStringsMeetTheWatchdogsClock) {
  ExpectStartFailsThenRecovers("colliding_strings", FailingStart(R"(
    local head, tail = string.rep('x', 1000), string.rep('y', 22)
    local kept = {}
    for i = 1, 200000 do
      kept[i] = head .. string.char(i % 256, math.floor(i / 256) % 256) .. tail
    end
  )"), {{"instructionLimit", "100000000"}}, {"ran longer than 5 s in one callback"});
}

}  // namespace
}  // namespace engine_plugin
