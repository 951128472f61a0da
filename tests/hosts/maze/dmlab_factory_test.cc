// A level factory of our own, written the way DeepMind Lab's explore
// factories are: a seeded maze with DeepMind Lab's room options, a map made
// by map_maker through the entity callback, one spawn point and one goal
// kept by updateSpawnVars, the map replayed by nextMap's '' after each goal,
// and a time limit by hasEpisodeFinished. Checks its rewards, respawns and
// episode end through the engine.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

constexpr char kFactoryLevel[] = R"(
local game = require 'dmlab.system.game'
local map_maker = require 'dmlab.system.map_maker'
local maze_generation = require 'dmlab.system.maze_generation'
local random = require 'dmlab.system.random'

local api = {goals = 0, maps = 0}

local function cellsOf(maze, character)
  local cells = {}
  local height, width = maze:size()
  for i = 1, height do
    for j = 1, width do
      if maze:getEntityCell(i, j) == character then cells[#cells + 1] = {i, j} end
    end
  end
  return cells
end

function api:start(episode, seed)
  api.goals, api.maps = 0, 0
  random:seed(seed)
  map_maker:randomGen():seed(seed)
  local maze = maze_generation.randomMazeGeneration{
      seed = seed, height = 7, width = 9, maxRooms = 2, roomMinSize = 3, roomMaxSize = 5,
      maxVariations = 2, spawn = 'P', roomSpawnCount = 2, object = 'G', roomObjectCount = 1}
  api._maze = maze
  -- One goal of all: the updater keeps only it.
  local goals = cellsOf(maze, 'G')
  local goal = goals[random:uniformInt(1, #goals)]
  api._goalX, api._goalY = maze:toWorldPos(goal[1], goal[2])
  api._map = map_maker:mapFromTextLevel{
      mapName = 'factory_maze',
      entityLayer = maze:entityLayer(),
      callback = function(i, j, c, maker)
        if c == 'G' then return maker:makeEntity{i = i, j = j, classname = 'goal'} end
      end}
end

function api:nextMap()
  api.maps = api.maps + 1
  local map = api._map
  api._map = ''  -- after the first map, the same again (a quick restart)
  return map
end

function api:updateSpawnVars(spawnVars)
  if spawnVars.classname == 'goal' then
    local x, y = spawnVars.origin:match('^(%S+) (%S+)')
    if tonumber(x) ~= api._goalX or tonumber(y) ~= api._goalY then return nil end
    spawnVars.id = '1'  -- so that pickup(spawnId) hears of it
  end
  return spawnVars
end

-- nil: DeepMind Lab's own pickup (the goal's 10 and the end of the map).
function api:pickup(spawnId)
  if spawnId == 1 then api.goals = api.goals + 1 end
end

function api:hasEpisodeFinished(seconds)
  return seconds >= 20
end

function api:readProperty(key)
  if key == 'goals' then return tostring(api.goals) end
  if key == 'maps' then return tostring(api.maps) end
  if key == 'turn' then  -- degrees to turn left to face the goal
    local info = game:playerInfo()
    for _, p in ipairs(game:pickups()) do
      if p.type == 'goal' and p.active then
        local want = math.deg(math.atan2(p.position[2] - info.pos[2], p.position[1] - info.pos[1]))
        return tostring((want - info.angles[2] + 540) % 360 - 180)
      end
    end
    return '0'
  end
  local pickups = game:pickups()
  local n = 0
  for _, p in ipairs(pickups) do if p.type == 'goal' then n = n + 1 end end
  return tostring(n)
end

return api
)";

std::string Property(Engine& engine, const std::string& key) {
  std::string value;
  EXPECT_EQ(*engine.ReadProperty(key, &value), PropertyResult::kSuccess) << key;
  return value;
}

TEST(DmlabFactoryTest, ExploreStyleLevelKeepsOneGoalAndReplaysTheMapAfterEachGoal) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("factory", kFactoryLevel));
  ASSERT_NE(engine, nullptr);
  int goals_reached = 0;
  for (int episode = 0; episode < 3; ++episode) {
    ASSERT_TRUE(engine->Start(episode, episode + 1).ok());
    EXPECT_EQ(Property(*engine, "goals on the map"), "1") << "updateSpawnVars kept one goal";
    // Walk at the goal (its rooms are open) until the level's 20 seconds
    // end the episode; a corridor between may block the way, which only
    // costs goals.
    double total = 0;
    EpisodeStatus status = EpisodeStatus::kRunning;
    int steps = 0;
    for (; status == EpisodeStatus::kRunning; ++steps) {
      const double turn = std::stod(Property(*engine, "turn"));
      // Looking right by one unit turns 0.1 degrees clockwise (world.h).
      const int look = static_cast<int>(std::clamp(-turn / 0.1, -512.0, 512.0));
      engine->Act(std::vector<int>{look, 0, 0, std::abs(turn) < 30 ? 1 : 0, 0, 0, 0});
      double reward = 0;
      absl::StatusOr<EpisodeStatus> advanced = engine->Advance(1, &reward);
      ASSERT_TRUE(advanced.ok()) << advanced.status();
      status = *advanced;
      total += reward;
    }
    EXPECT_EQ(status, EpisodeStatus::kTerminated);
    EXPECT_EQ(steps, 20 * 60) << "the level's time limit, at 60 frames a second";
    // Each goal gives 10, ends the map and is back after the replay.
    const int goals = std::stoi(Property(*engine, "goals"));
    EXPECT_EQ(total, 10.0 * goals);
    EXPECT_EQ(std::stoi(Property(*engine, "maps")), 1 + goals);
    EXPECT_EQ(Property(*engine, "goals on the map"), "1");
    goals_reached += goals;
  }
  EXPECT_GT(goals_reached, 3) << "walking at the goal reaches it again after each replay";
}

// DeepMind Lab's lasertag levels add bots; the maze has none, and says so
// at start rather than play without them.
TEST(DmlabFactoryTest, ALevelThatAddsBotsFailsAtStartNamingThem) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("bots", R"(
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:addBots() return {{name = 'Cygni', skill = 4}, {name = 'Leonis', skill = 4}} end
return api
)"));
  ASSERT_NE(engine, nullptr);
  const absl::Status started = engine->Start(0, 0);
  EXPECT_EQ(started.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(started.message()),
              ::testing::HasSubstr("the level adds 2 bots (addBots); the maze engine has no bots"));
  // No bots is no problem.
  std::unique_ptr<Engine> none = InitEngine(WriteLevel("no_bots", R"(
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:addBots() return {} end
return api
)"));
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(none->Start(0, 0).ok());
}

}  // namespace
}  // namespace engine_plugin
