// The level API: each callback's error paths, dmlab.system.game and
// .events, and properties.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

constexpr char kPrelude[] = R"(
local tensor = require 'dmlab.system.tensor'
local game = require 'dmlab.system.game'
local events = require 'dmlab.system.events'
local api = {}
function api:nextMap() return "*******\n*P A G*\n*******\n" end
function api:readProperty(key) return api[key] ~= nil and tostring(api[key]) or nil end
)";

std::string Level(const std::string& body) {
  return std::string(kPrelude) + body + "\nreturn api\n";
}

absl::StatusOr<std::unique_ptr<Engine>> Create(const std::string& body) {
  return Engine::Create(WriteLevel("level", Level(body)));
}

TEST(EngineLevelApiTest, ScriptErrorsAreReportedAtInit) {
  struct Case {
    std::string source;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"return 1 +", "cannot load the level"},
           {"error('at load')", "at load"},
           {"return 42", "must return its api table, not number"},
           {Level("function api:init(settings) error('in init') end"), "in init"},
       }) {
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel("broken", c.source));
    ASSERT_TRUE(engine.ok());
    absl::Status init = (*engine)->Init();
    EXPECT_FALSE(init.ok()) << c.source;
    EXPECT_THAT(init.message(), HasSubstr(c.message));
  }
}

TEST(EngineLevelApiTest, CallbackErrorsAreStatusesAndStartRecovers) {
  struct Case {
    const char* body;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           // pickup(spawnId) is called for pickups with an id.
           {"function api:updateSpawnVars(v) v.id = '1' return v end "
            "function api:pickup() error('in pickup') end",
            "in pickup"},
           {"function api:updateSpawnVars(v) v.id = '1' return v end "
            "function api:pickup() return 'lots' end",
            "'pickup' returned number expected"},
           {"function api:hasEpisodeFinished() error('in finished') end", "in finished"},
           {"function api:observeFrame() if api.started then error('in frame') end end "
            "function api:start() api.started = false end "
            "function api:hasEpisodeFinished() api.started = true end",
            "in frame"},
       }) {
    absl::StatusOr<std::unique_ptr<Engine>> engine = Create(c.body);
    ASSERT_TRUE((*engine)->Init().ok());
    ASSERT_TRUE((*engine)->Start(0, 0).ok()) << c.body;
    (*engine)->Act(Forward());
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = (*engine)->Advance(60, &reward);
    EXPECT_FALSE(status.ok()) << c.body;
    EXPECT_THAT(status.status().message(), HasSubstr(c.message));
    if (absl::StrContains(c.message, "in ")) {  // raised in Lua
      EXPECT_THAT(status.status().message(), HasSubstr("stack traceback"));
    }
    EXPECT_EQ((*engine)->Advance(1, &reward).status().code(),
              absl::StatusCode::kFailedPrecondition);
    EXPECT_TRUE((*engine)->Start(1, 0).ok());
  }
}

TEST(EngineLevelApiTest, StartErrors) {
  struct Case {
    const char* body;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"function api:start() error('in start') end", "in start"},
           {"api.nextMap = nil", "no nextMap"},
           {"function api:nextMap() return 42 end", "text map, a map name or a maze, not number"},
           {"function api:nextMap() return '../secret' end", "a map name"},
           {"function api:nextMap() return 'no_such_map' end", "no map named 'no_such_map'"},
           {"function api:nextMap() return '***\\n* *\\n***\\n' end", "spawn"},
           {"function api:nextMap() return '*P\\t*\\n' end", "the level's map"},
       }) {
    absl::StatusOr<std::unique_ptr<Engine>> engine = Create(c.body);
    ASSERT_TRUE((*engine)->Init().ok());
    absl::Status started = (*engine)->Start(0, 0);
    EXPECT_FALSE(started.ok()) << c.body;
    EXPECT_THAT(started.message(), HasSubstr(c.message));
    EXPECT_EQ((*engine)->Observation(0).status().code(), absl::StatusCode::kFailedPrecondition);
  }
}

TEST(EngineLevelApiTest, StartGetsEpisodeAndSeedAndSeedsRandom) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
local random = require 'dmlab.system.random'
function api:start(episode, seed)
  api.args = episode .. ',' .. seed
  api.draw = random:uniformInt(1, 1000000)
end
)");
  ASSERT_TRUE((*engine)->Init().ok());
  std::string args, draw, draw_again;
  ASSERT_TRUE((*engine)->Start(3, 1234).ok());
  (*engine)->ReadProperty("args", &args).IgnoreError();
  (*engine)->ReadProperty("draw", &draw).IgnoreError();
  EXPECT_EQ(args, "3,1234");
  ASSERT_TRUE((*engine)->Start(4, 1234).ok());
  (*engine)->ReadProperty("draw", &draw_again).IgnoreError();
  EXPECT_EQ(draw, draw_again);
}

TEST(EngineLevelApiTest, GameModule) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
function api:hasEpisodeFinished(seconds)
  local info = game:playerInfo()
  api.pos = info.pos[1] .. ',' .. info.pos[2]
  api.cell = info.cell[1] .. ',' .. info.cell[2]
  api.yaw = info.angles[2]
  api.motion = table.concat(info.vel, ',') .. ' ' .. table.concat(info.anglesVel, ',') .. ' ' ..
               info.playerId .. ' ' .. info.teamScore .. ' ' .. info.otherTeamScore
  api.time = game:episodeTimeSeconds()
  local shape = game:screenShape()
  api.shape = shape.window.width .. 'x' .. shape.window.height .. ' ' ..
              shape.buffer.width .. 'x' .. shape.buffer.height
  local pickups = game:pickups()
  api.pickups = #pickups .. pickups[1].type .. pickups[2].type .. tostring(pickups[1].active)
  local view = game:renderCustomView{pos = {4.5, 1.5}, look = {0, 180}, width = 8, height = 6}
  api.view = view:type() .. ' ' .. table.concat(view:shape(), 'x') .. ' ' ..
             tostring(view:ownsStorage())
  game:addScore(0.25)
  api.dotCall = select(2, pcall(function() return game.playerInfo() end))
  api.badView = select(2, pcall(function() return game:renderCustomView{width = 0} end))
  api.badScore = select(2, pcall(function() return game:addScore('x') end))
end
)");
  ASSERT_TRUE((*engine)->Init().ok());
  ASSERT_TRUE((*engine)->Start(0, 0).ok());
  double reward = 0;
  ASSERT_TRUE((*engine)->Advance(3, &reward).ok());
  EXPECT_DOUBLE_EQ(reward, 0.75);
  std::map<std::string, std::string> expected = {
      {"pos", "150,150"},  // DeepMind Lab's game units, 100 a cell
      {"cell", "2,2"},
      {"yaw", "0"},
      {"motion", "0,0,0 0,0,0 1 0 0"},  // no action: standing still
      {"time", "0.05"},
      {"shape", "84x84 84x84"},
      {"pickups", "2rewardgoaltrue"},
      {"view", "dmlab.system.tensor.ByteTensor 6x8x3 true"},
  };
  for (const auto& [key, value] : expected) {
    std::string actual;
    ASSERT_EQ(*(*engine)->ReadProperty(key, &actual), PropertyResult::kSuccess) << key;
    EXPECT_EQ(actual, value) << key;
  }
  std::string message;
  (*engine)->ReadProperty("dotCall", &message).IgnoreError();
  EXPECT_THAT(message, HasSubstr("must be called with ':' (game:playerInfo(...))"));
  (*engine)->ReadProperty("badView", &message).IgnoreError();
  EXPECT_THAT(message, HasSubstr("bad argument #1 to 'renderCustomView' (width:"));
  (*engine)->ReadProperty("badScore", &message).IgnoreError();
  EXPECT_THAT(message, HasSubstr("bad argument #1 to 'addScore'"));
}

// dmlab.system.game_entities lists the map's pickups as DeepMind Lab's
// module lists entities, filtered by class name; one collected is no
// longer visible.
TEST(EngineLevelApiTest, GameEntitiesListThePickups) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
local game_entities = require 'dmlab.system.game_entities'
local function describe(list)
  local parts = {}
  for _, e in ipairs(list) do
    parts[#parts + 1] = table.concat({e.entityId, e.id, e.classname, e.type, tostring(e.visible),
                                      table.concat(e.position, ',')}, ' ')
  end
  return table.concat(parts, '; ')
end
function api:hasEpisodeFinished(seconds)
  api.all = describe(game_entities:entities())
  api.goals = describe(game_entities:entities{'goal'})
  api.none = describe(game_entities:entities{})  -- an empty filter lists all, as DeepMind Lab
  api.badFilter = select(2, pcall(function() return game_entities:entities{3} end))
  api.dotCall = select(2, pcall(function() return game_entities.entities() end))
end
)");
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->Init().ok());
  ASSERT_TRUE((*engine)->Start(0, 0).ok());
  double reward = 0;
  ASSERT_TRUE((*engine)->Advance(1, &reward).ok());
  const std::map<std::string, std::string> before = {
      {"all", "1 0 apple_reward reward true 350,150,0; 2 0 goal goal true 550,150,0"},
      {"goals", "2 0 goal goal true 550,150,0"},
      {"none", "1 0 apple_reward reward true 350,150,0; 2 0 goal goal true 550,150,0"},
  };
  for (const auto& [key, value] : before) {
    std::string actual;
    ASSERT_EQ(*(*engine)->ReadProperty(key, &actual), PropertyResult::kSuccess) << key;
    EXPECT_EQ(actual, value) << key;
  }
  std::string message;
  (*engine)->ReadProperty("badFilter", &message).IgnoreError();
  EXPECT_THAT(message, HasSubstr("bad argument #1 to 'entities' (entry 1: string expected"));
  (*engine)->ReadProperty("dotCall", &message).IgnoreError();
  EXPECT_THAT(message, HasSubstr("game_entities:entities(...)"));
  // Two cells forward at 3 cells a second collects the apple.
  (*engine)->Act(std::vector<int>{0, 0, 0, 1, 0, 0, 0});
  ASSERT_TRUE((*engine)->Advance(45, &reward).ok());
  std::string all;
  ASSERT_EQ(*(*engine)->ReadProperty("all", &all), PropertyResult::kSuccess);
  EXPECT_THAT(all, HasSubstr("1 0 apple_reward reward false"));
}

// A map made by dmlab.system.map_maker is what nextMap() may name, in
// DeepMind Lab's factories' way: make it in start, return its name.
TEST(EngineLevelApiTest, NextMapNamesAMapMadeByTheMapMaker) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel("made_map", R"(
local game = require 'dmlab.system.game'
local map_maker = require 'dmlab.system.map_maker'
local api = {}
function api:start(episode, seed)
  api._map = map_maker:mapFromTextLevel{
      mapName = 'made_' .. episode,
      entityLayer = '*******\n*P  X *\n*******\n',
      callback = function(i, j, c, maker)
        if c == 'X' then return maker:makeEntity{i = i, j = j, classname = 'goal'} end
      end}
end
function api:nextMap() return api._map end
function api:readProperty(key)
  local p = game:pickups()[1]
  return p.type .. ' ' .. table.concat(p.position, ',')
end
return api
)"));
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->Init().ok());
  ASSERT_TRUE((*engine)->Start(0, 0).ok());
  std::string pickup;
  ASSERT_EQ(*(*engine)->ReadProperty("any", &pickup), PropertyResult::kSuccess);
  EXPECT_EQ(pickup, "goal 450,150");
  // Walking three cells east reaches the goal and its reward.
  (*engine)->Act(std::vector<int>{0, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  ASSERT_TRUE((*engine)->Advance(70, &reward).ok());
  EXPECT_EQ(reward, 10);
}

// The maze draws no 3D models, but dmlab.system.model is the plugin's
// (DeepMind Lab's decorators require it at load): models build, and a
// host without model files makes loadMD3 and saveMD3 errors.
TEST(EngineLevelApiTest, TheModelModuleBuildsButHasNoFilesOnTheMaze) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
local model = require 'dmlab.system.model'
function api:init()
  local cube = model:cube{size = 2}
  assert(cube.surfaces.cube_surface.vertices:size(1) == 24)
  for _, name in ipairs{'loadMD3', 'saveMD3'} do
    local ok, err = pcall(model[name], model, cube, 'models/cube.md3')
    assert(not ok and err:find("'model:" .. name .. "': this host has no model files", 1,
                               true), tostring(err))
  end
end
)");
  ASSERT_TRUE(engine.ok()) << engine.status();
  const absl::Status init = (*engine)->Init();
  EXPECT_TRUE(init.ok()) << init;
}

// DeepMind Lab's updateSpawnVars sees each spawn point and pickup with its
// class and origin (game units, 100 a cell, rows from the bottom); nil
// leaves it out of the map.
TEST(EngineLevelApiTest, UpdateSpawnVarsFiltersTheMapsEntities) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel("spawn_vars", R"(
local game = require 'dmlab.system.game'
local api = {seen = {}}
function api:nextMap() return "*******\n*P PAG*\n*******\n" end
function api:updateSpawnVars(spawnVars)
  api.seen[#api.seen + 1] = spawnVars.classname .. '@' .. spawnVars.origin
  -- Keep the second spawn point and the goal only.
  if spawnVars.origin:find('^150 ') or spawnVars.classname == 'apple_reward' then return nil end
  return spawnVars
end
function api:readProperty(key)
  if key == 'seen' then return table.concat(api.seen, ' ') end
  local pickups = {}
  for _, p in ipairs(game:pickups()) do pickups[#pickups + 1] = p.type end
  return game:playerInfo().pos[1] .. ' ' .. table.concat(pickups, ',')
end
return api
)"));
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->Init().ok());
  for (int episode = 0; episode < 4; ++episode) {  // whichever spawn the seed draws
    ASSERT_TRUE((*engine)->Start(episode, episode).ok());
    std::string state;
    ASSERT_EQ(*(*engine)->ReadProperty("state", &state), PropertyResult::kSuccess);
    EXPECT_EQ(state, "350 goal");
  }
  std::string seen;
  ASSERT_EQ(*(*engine)->ReadProperty("seen", &seen), PropertyResult::kSuccess);
  EXPECT_THAT(seen, HasSubstr("info_player_start@150 150 0 info_player_start@350 150 0 "
                              "apple_reward@450 150 0 goal@550 150 0"));
}

// A goal ends the map, as in DeepMind Lab, and nextMap's '' plays the same
// map again: a second goal can be reached in the same episode.
TEST(EngineLevelApiTest, AGoalEndsTheMapAndAnEmptyNextMapReplaysIt) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel("replay", R"(
local api = {maps = 0}
function api:nextMap()
  api.maps = api.maps + 1
  if api.maps == 1 then return "******\n*P  G*\n******\n" end
  return ''
end
function api:readProperty() return tostring(api.maps) end
return api
)"));
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->Init().ok());
  ASSERT_TRUE((*engine)->Start(0, 0).ok());
  (*engine)->Act(std::vector<int>{0, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  ASSERT_TRUE((*engine)->Advance(130, &reward).ok());  // 3 cells twice at 3 a second
  EXPECT_EQ(reward, 20);
  std::string maps;
  ASSERT_EQ(*(*engine)->ReadProperty("maps", &maps), PropertyResult::kSuccess);
  EXPECT_EQ(maps, "3");
  absl::StatusOr<std::unique_ptr<Engine>> early =
      Engine::Create(WriteLevel("early", "return {nextMap = function() return '' end}"));
  ASSERT_TRUE(early.ok());
  ASSERT_TRUE((*early)->Init().ok());
  EXPECT_THAT(std::string((*early)->Start(0, 0).message()),
              HasSubstr("nextMap returned '' (the same map again) before any map was loaded"));
}

TEST(EngineLevelApiTest, UpdateSpawnVarsMustReturnATableOrNil) {
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      Create("function api:updateSpawnVars() return 7 end");
  ASSERT_TRUE(engine.ok()) << engine.status();
  ASSERT_TRUE((*engine)->Init().ok());
  const absl::Status start = (*engine)->Start(0, 0);
  EXPECT_THAT(std::string(start.message()), HasSubstr("updateSpawnVars"));
  EXPECT_THAT(std::string(start.message()),
              HasSubstr("must return the spawn variables (a table) or nil, not number"));
  // DeepMind Lab's levels turn apples into other pickups so, which their
  // createPickup describes; without one the class is an error.
  absl::StatusOr<std::unique_ptr<Engine>> renaming = Create(
      "function api:updateSpawnVars(v)\n"
      "  if v.classname == 'apple_reward' then v.classname = 'lemon_reward' end\n"
      "  return v\n"
      "end");
  ASSERT_TRUE(renaming.ok()) << renaming.status();
  ASSERT_TRUE((*renaming)->Init().ok());
  EXPECT_THAT(std::string((*renaming)->Start(0, 0).message()),
              HasSubstr("entity 'lemon_reward' at '350 150 0': not a class the maze has"));
}

TEST(EngineLevelApiTest, EventsCarryStringsAndTensors) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
function api:hasEpisodeFinished(seconds)
  local t = tensor.DoubleTensor{1.5, 2.5}
  events:add('first', 'text', tensor.ByteTensor{7, 8}, t, tensor.Int32Tensor{{1, 2}, {3, 4}})
  t:fill(0)   -- the event holds a copy
  events:add('second')
  events:add('first')
  api.badValue = select(2, pcall(function() events:add('x', 1) end))
  api.badName = select(2, pcall(function() events:add(3) end))
end
)");
  ASSERT_TRUE((*engine)->Init().ok());
  ASSERT_TRUE((*engine)->Start(0, 0).ok());
  double reward = 0;
  ASSERT_TRUE((*engine)->Advance(1, &reward).ok());
  EXPECT_THAT((*engine)->event_type_names(), ::testing::ElementsAre("first", "second"));
  const std::vector<Event>& events = (*engine)->events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].type, 0);
  EXPECT_EQ(events[1].type, 1);
  EXPECT_EQ(events[2].type, 0);
  ASSERT_EQ(events[0].values.size(), 4u);
  EXPECT_EQ(events[0].values[0].text, "text");
  EXPECT_EQ(events[0].values[1].type, ObservationType::kBytes);
  EXPECT_EQ(Bytes(events[0].values[1])[1], 8);
  EXPECT_EQ(events[0].values[2].type, ObservationType::kDoubles);
  EXPECT_EQ(Doubles(events[0].values[2])[1], 2.5);
  EXPECT_EQ(Doubles(events[0].values[3])[3], 4.0);
  std::string message;
  (*engine)->ReadProperty("badValue", &message).IgnoreError();
  EXPECT_THAT(message,
              HasSubstr("bad argument #2 to 'add' (string or tensor expected, got number 1)"));
  (*engine)->ReadProperty("badName", &message).IgnoreError();
  EXPECT_THAT(message, HasSubstr("bad argument #1 to 'add'"));
  ASSERT_TRUE((*engine)->Advance(1, &reward).ok());
  EXPECT_EQ((*engine)->events().size(), 3u);  // this step's, not an accumulation
}

TEST(EngineLevelApiTest, Properties) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
api.values = {speed = '1'}
function api:readProperty(key)
  if key == 'boom' then error('read failed') end
  return api.values[key]
end
function api:writeProperty(key, value)
  if api.values[key] then api.values[key] = value return true end
  return false
end
function api:listProperty(key, add)
  if key == '' then add('speed', 'rw') add('params', 'l') end
  if key == 'params' then add('params.a', 'r') end
  api.keep = add
end
)");
  Engine& e = **engine;
  ASSERT_TRUE(e.SetSetting("fps", "30").ok());
  ASSERT_TRUE(e.Init().ok());
  std::string value;
  EXPECT_EQ(*e.ReadProperty("engine.fps", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "30");
  EXPECT_EQ(*e.WriteProperty("engine.fps", "10"), PropertyResult::kPermissionDenied);
  EXPECT_EQ(*e.ReadProperty("engine.nothing", &value), PropertyResult::kNotFound);
  EXPECT_EQ(*e.WriteProperty("speed", "2"), PropertyResult::kSuccess);
  EXPECT_EQ(*e.ReadProperty("speed", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "2");
  EXPECT_EQ(*e.WriteProperty("other", "2"), PropertyResult::kNotFound);
  EXPECT_EQ(*e.ReadProperty("other", &value), PropertyResult::kNotFound);
  absl::StatusOr<PropertyResult> failed = e.ReadProperty("boom", &value);
  EXPECT_THAT(failed.status().message(), HasSubstr("read failed"));

  std::vector<std::pair<std::string, int>> listed;
  auto collect = [&](absl::string_view key, int attributes) {
    listed.emplace_back(std::string(key), attributes);
  };
  EXPECT_EQ(*e.ListProperty("", collect), PropertyResult::kSuccess);
  EXPECT_THAT(listed,
              ::testing::ElementsAre(std::pair<std::string, int>("engine", kListable),
                                     std::pair<std::string, int>("speed", kReadable | kWritable),
                                     std::pair<std::string, int>("params", kListable)));
  listed.clear();
  EXPECT_EQ(*e.ListProperty("engine", collect), PropertyResult::kSuccess);
  EXPECT_EQ(listed.size(), 8u);
  EXPECT_EQ(*e.ReadProperty("engine.frameBuffersAllocated", &value), PropertyResult::kSuccess);
  EXPECT_EQ(*e.ReadProperty("engine.host", &value), PropertyResult::kSuccess);
  EXPECT_EQ(value, "maze");
  listed.clear();
  EXPECT_EQ(*e.ListProperty("params", collect), PropertyResult::kSuccess);
  EXPECT_THAT(listed, ::testing::ElementsAre(std::pair<std::string, int>("params.a", kReadable)));
}

TEST(EngineLevelApiTest, AKeptListCallbackIsAnErrorNotACrash) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Create(R"(
function api:listProperty(key, add) api.keep = add end
function api:readProperty(key)
  return select(2, pcall(api.keep, 'late', 'r'))
end
)");
  ASSERT_TRUE((*engine)->Init().ok());
  ASSERT_TRUE((*engine)->ListProperty("", [](absl::string_view, int) {}).ok());
  std::string message;
  ASSERT_EQ(*(*engine)->ReadProperty("any", &message), PropertyResult::kSuccess);
  EXPECT_THAT(message, HasSubstr("called after listProperty returned"));
}

}  // namespace
}  // namespace engine_plugin
