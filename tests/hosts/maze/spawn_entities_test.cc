// DeepMind Lab's spawn-entity model on the maze host, through the engine:
// pickups of the level's classes (createPickup), canPickup and pickup with
// their overrides and respawns, the spawn variables id, count and wait,
// doors opened or shut by spawn variables, and what is an error.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

// A corridor east: the player at x 1.5 faces five pickups at x 2.5 ... 6.5
// (the last a goal) and walks at 3 cells a second.
constexpr char kCorridor[] = R"(
function api:nextMap()
  api.maps = (api.maps or 0) + 1
  return "*********\n*PAAAAG *\n*********\n"
end
function api:readProperty(key)
  if key == 'maps' then return tostring(api.maps) end
  return api.log[key] and table.concat(api.log[key], ' ') or ''
end
api.log = {}
local function log(key, value)
  api.log[key] = api.log[key] or {}
  table.insert(api.log[key], tostring(value))
end
-- The pickup at x = (n + 1.5) cells is number n.
local function number(spawnVars) return (tonumber(spawnVars.origin:match('^(%S+)')) - 150) / 100 end
)";

// Walks east for `frames` frames and returns each frame's nonzero reward.
std::vector<double> WalkEast(Engine& engine, int frames) {
  engine.Act(Forward());
  std::vector<double> rewards;
  for (int frame = 0; frame < frames; ++frame) {
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine.Advance(1, &reward);
    EXPECT_TRUE(status.ok()) << status.status();
    if (!status.ok()) break;
    if (reward != 0) rewards.push_back(reward);
  }
  return rewards;
}

std::string Property(Engine& engine, const std::string& key) {
  std::string value;
  EXPECT_EQ(*engine.ReadProperty(key, &value), PropertyResult::kSuccess) << key;
  return value;
}

std::unique_ptr<Engine> StartLevel(const std::string& name, const std::string& body) {
  std::unique_ptr<Engine> engine = InitEngine(
      WriteLevel(name, absl::StrCat("local api = {}\n", kCorridor, body, "\nreturn api")));
  if (engine == nullptr) return nullptr;
  const absl::Status started = engine->Start(0, 0);
  EXPECT_TRUE(started.ok()) << started;
  return started.ok() ? std::move(engine) : nullptr;
}

// The level `format` with its %s filled by `fill`, written as `name`.
std::string FilledLevel(const std::string& name, const char* format, const char* fill) {
  char source[4096];
  std::snprintf(source, sizeof source, format, fill);
  return WriteLevel(name, source);
}

// That level, started; null (and a failure) on any error.
std::unique_ptr<Engine> StartFilled(const std::string& name, const char* format, const char* fill) {
  std::unique_ptr<Engine> engine = InitEngine(FilledLevel(name, format, fill));
  if (engine == nullptr) return nullptr;
  const absl::Status started = engine->Start(0, 0);
  EXPECT_TRUE(started.ok()) << started;
  return started.ok() ? std::move(engine) : nullptr;
}

TEST(SpawnEntitiesTest, CreatePickupGivesEachClassItsQuantityAndType) {
  std::unique_ptr<Engine> engine = StartLevel("classes", R"(
local CLASSES = {'lemon_reward', 'strawberry_reward', 'apple_reward', 'apple_reward'}
function api:updateSpawnVars(v)
  if v.classname == 'apple_reward' then v.classname = CLASSES[number(v)] end
  if v.classname == 'goal' then v.classname = 'watermelon_goal' end
  return v
end
local PICKUPS = {
  lemon_reward = {name = 'Lemon', classname = 'lemon_reward', model = 'm', quantity = -1, type = 9},
  strawberry_reward = {name = 'S', classname = 'strawberry_reward', model = 'm', quantity = 2,
                       type = 9},
  watermelon_goal = {name = 'W', classname = 'watermelon_goal', model = 'm', quantity = 20,
                     type = 10},
}
function api:createPickup(className)
  log('created', className)
  return PICKUPS[className]
end
)");
  ASSERT_NE(engine, nullptr);
  // One createPickup per class; apple_reward falls back to the maze's own.
  EXPECT_EQ(Property(*engine, "created"),
            "lemon_reward strawberry_reward apple_reward watermelon_goal");
  // Each keeps its class's model, drawn as that; the maze's own apple has none.
  std::vector<std::string> models;
  for (const Pickup& pickup : MazeWorldOf(*engine)->pickups()) models.push_back(pickup.model);
  EXPECT_THAT(models, ::testing::ElementsAre("m", "m", "", "", "m"));
  // The goal at frame 90 (x 6 is within reach of 6.5) reloads the map.
  EXPECT_THAT(WalkEast(*engine, 95), ::testing::ElementsAre(-1.0, 2.0, 1.0, 1.0, 20.0));
  EXPECT_EQ(Property(*engine, "maps"), "2") << "a GOAL ends the map";
}

TEST(SpawnEntitiesTest, CanPickupAndPickupOverrideWhatATouchDoes) {
  std::unique_ptr<Engine> engine = StartLevel("overrides", R"(
function api:updateSpawnVars(v)
  if v.classname == 'info_player_start' then return v end
  local n = number(v)
  v.id = tostring(n)
  if n == 4 then v.wait = '0.05' end   -- shows again 3 frames after each take
  if n == 5 then v.count = '7' end
  return v
end
function api:canPickup(id, player)
  log('can' .. id, player)
  return id ~= 1                       -- 1 stays where it is
end
function api:pickup(id, player)
  log('took' .. id, player)
  if id == 2 then return 0 end         -- not taken at all
  if id == 3 then return 100 end       -- taken, no reward, back in 100 s
end
)");
  ASSERT_NE(engine, nullptr);
  const std::vector<double> rewards = WalkEast(*engine, 120);
  // 4 is taken, then back while the player still touches it, and again;
  // then the goal's count. 1, 2 and 3 gave nothing.
  ASSERT_GE(rewards.size(), 3u);
  EXPECT_EQ(rewards.back(), 7);
  for (std::size_t i = 0; i + 1 < rewards.size(); ++i) EXPECT_EQ(rewards[i], 1) << i;
  EXPECT_THAT(Property(*engine, "can1"), HasSubstr("1 1 1"));  // every frame it touches
  EXPECT_EQ(Property(*engine, "took1"), "") << "pickup is not called for a refused pickup";
  EXPECT_THAT(Property(*engine, "took2"), HasSubstr("1 1 1"));  // 0: still there each frame
  EXPECT_EQ(Property(*engine, "took3"), "1");
  EXPECT_EQ(Property(*engine, "took5"), "1");
}

TEST(SpawnEntitiesTest, PickupsWithoutAnIdNeverCallTheLevel) {
  std::unique_ptr<Engine> engine = StartLevel("no_ids", R"(
function api:canPickup() error('canPickup without an id') end
function api:pickup() error('pickup without an id') end
)");
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(WalkEast(*engine, 95), ::testing::ElementsAre(1.0, 1.0, 1.0, 1.0, 10.0));
}

TEST(SpawnEntitiesTest, BadEntitiesAreErrorsNamingThem) {
  const struct {
    std::string body;
    std::string says;
  } cases[] = {
      {"function api:updateSpawnVars(v) if v.classname == 'apple_reward' then "
       "v.classname = 'rocket' end return v end",
       "entity 'rocket' at '250 150 0': not a class the maze has"},
      {"function api:createPickup(c) return {quantity = 1, type = 1} end",
       "'createPickup' returned a pickup for 'apple_reward' of type 1; the maze has "
       "pickups.type.REWARD (9) and GOAL (10) only"},
      {"function api:createPickup(c) return {type = 9} end",
       "'createPickup' returned a pickup for 'apple_reward' whose quantity is not a finite number "
       "(number expected, got nil)"},
      {"function api:createPickup(c) return {quantity = 1, type = 9, model = 7} end",
       "'createPickup' returned a pickup for 'apple_reward' whose model is not a name of at most "
       "256 bytes"},
      {"function api:createPickup(c) return {quantity = 1, type = 9, model = string.rep('m', "
       "257)} end",
       "whose model is not a name of at most 256 bytes"},
      {"function api:createPickup(c) return 'apple' end",
       "must return a pickup (a table) or nil, not string"},
      {"function api:updateSpawnVars(v) v.id = 'x' return v end",
       "spawn variable 'id' is 'x', not a finite number"},
      {"function api:updateSpawnVars(v) v.id = '1.5' return v end",
       "spawn variable 'id' must be an integer"},
      {"function api:updateSpawnVars(v) v.wait = {} return v end",
       "spawn variable 'wait' must be a string, not table"},
      {"function api:updateSpawnVars(v) return {origin = v.origin} end",
       "the spawn variables have no classname"},
      {"function api:updateSpawnVars(v) v.origin = '9999 150 0' return v end",
       "lies outside the map"},
      {"function api:updateSpawnVars(v) v.origin = '50 150 0' return v end", "lies inside a wall"},
      {"function api:updateSpawnVars(v) v.origin = 'here' return v end",
       "an origin 'x y z' of three numbers expected"},
      {"function api:updateSpawnVars(v) if v.classname ~= 'info_player_start' then return v end "
       "end",
       "no spawn point (info_player_start) is left in the map"},
  };
  for (const auto& [body, says] : cases) {
    SCOPED_TRACE(body);
    std::unique_ptr<Engine> engine = InitEngine(WriteLevel(
        "bad_entities", absl::StrCat("local api = {}\n", kCorridor, body, "\nreturn api")));
    ASSERT_NE(engine, nullptr);
    const absl::Status started = engine->Start(0, 0);
    EXPECT_FALSE(started.ok());
    EXPECT_THAT(std::string(started.message()), HasSubstr(says));
    EXPECT_THAT(std::string(started.message()), HasSubstr("the level's map"));
  }
}

// A door 'I' between the player and a goal.
constexpr char kDoorLevel[] = R"(
local api = {vars = {}}
function api:nextMap() return "*******\n*P I G*\n*******\n" end
function api:readProperty() return table.concat(api.vars, '; ') end
function api:updateSpawnVars(v)
  if v.classname == 'func_door' or v.classname == 'trigger_multiple' then
    local keys = {}
    for key, value in pairs(v) do keys[#keys + 1] = key .. '=' .. value end
    table.sort(keys)
    api.vars[#api.vars + 1] = table.concat(keys, ',')
  end
  %s
end
return api
)";

TEST(SpawnEntitiesTest, DoorsOpenOrShutAsTheirSpawnVariablesSay) {
  const struct {
    const char* update;  // the rest of updateSpawnVars
    bool passes;
  } cases[] = {
      {"return v", true},  // its triggers open it when the player comes
      {"if v.classname == 'trigger_multiple' then return nil end return v", false},  // shut
      {"if v.classname == 'trigger_multiple' then return nil end "
       "if v.classname == 'func_door' then v.spawnflags = '1' end return v",
       true},                                                                // START_OPEN
      {"if v.classname == 'func_door' then return nil end return v", true},  // no door
  };
  for (const auto& [update, passes] : cases) {
    SCOPED_TRACE(update);
    std::unique_ptr<Engine> engine = StartFilled("door", kDoorLevel, update);
    ASSERT_NE(engine, nullptr);
    // DeepMind Lab's door: named by its column and its row from the bottom,
    // with a trigger on each side.
    EXPECT_EQ(Property(*engine, ""),
              "angle=90,classname=func_door,targetname=door_3_1; "
              "classname=trigger_multiple,target=door_3_1,wait=1; "
              "classname=trigger_multiple,target=door_3_1,wait=1");
    const std::vector<double> rewards = WalkEast(*engine, 90);
    EXPECT_EQ(rewards, passes ? std::vector<double>{10} : std::vector<double>{});
    if (!passes) {
      // Stopped by the door's face at x = 3.
      EXPECT_LE(MazeWorldOf(*engine)->pose().position.x, 3.0 - World::kPlayerRadius + 1e-9);
    }
  }
}

// A door 'I' with triggers (id 7, every half second) before a goal, and
// the level's trigger callbacks.
constexpr char kTriggerLevel[] = R"(
local api = {log = {}}
local function log(k, v) api.log[k] = (api.log[k] and api.log[k] .. ' ' or '') .. v end
function api:nextMap() return "*******\n*P I G*\n*******\n" end
function api:readProperty(k) return api.log[k] or '' end
function api:updateSpawnVars(v)
  if v.classname == 'trigger_multiple' then
    v.wait = '0.5'
    v.id = '7'
  end
  return v
end
%s
return api
)";

std::unique_ptr<Engine> StartTriggerLevel(const char* callbacks) {
  return StartFilled("triggers", kTriggerLevel, callbacks);
}

// A trigger fires while the player presses against its shut door, at most
// every `wait` seconds: canTrigger may refuse, trigger may take over.
TEST(SpawnEntitiesTest, CanTriggerMayRefuseUntilItAllows) {
  std::unique_ptr<Engine> engine = StartTriggerLevel(R"(
function api:canTrigger(id, target, player)
  api.asks = (api.asks or 0) + 1
  log('asked', id .. ' ' .. target .. ' ' .. player)
  return api.asks > 2
end
function api:hasEpisodeFinished(seconds)
  if api.asks and not api.first then api.first = seconds end
  if api.asks == 3 and not api.third then api.third = seconds log('apart', api.third - api.first) end
end
)");
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(WalkEast(*engine, 150), std::vector<double>{10});
  // Two refusals, 0.5 s apart each, then the door opened.
  // (Then again while the player walks through it, which keeps it open.)
  EXPECT_THAT(Property(*engine, "asked"),
              ::testing::StartsWith("7 door_3_1 1 7 door_3_1 1 7 door_3_1 1"));
  EXPECT_NEAR(std::stod(Property(*engine, "apart")), 1.0, 1.0 / 60 + 1e-9);
}

TEST(SpawnEntitiesTest, TriggerMayKeepTheDoorShut) {
  std::unique_ptr<Engine> engine = StartTriggerLevel(R"(
function api:trigger(id, target, player)
  log('fired', target)
  return true
end
)");
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(WalkEast(*engine, 150), std::vector<double>{});
  EXPECT_THAT(Property(*engine, "fired"), HasSubstr("door_3_1 door_3_1"));  // again and again
}

TEST(SpawnEntitiesTest, CanTriggerMustAnswerTrueOrFalse) {
  std::unique_ptr<Engine> engine = StartTriggerLevel("function api:canTrigger() end");
  ASSERT_NE(engine, nullptr);
  engine->Act(Forward());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = engine->Advance(60, &reward);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.status().message()),
              HasSubstr("'canTrigger' must return true or false, not nil"));
}

// A door 'I' in a corridor with nothing beyond it; its func_door's wait
// set (or not) by the level.
constexpr char kClosingDoorLevel[] = R"(
local api = {}
function api:nextMap() return "********\n*P I   *\n********\n" end
function api:updateSpawnVars(v)
  if v.classname == 'func_door' then %s end
  return v
end
return api
)";

bool DoorShut(const Engine& engine) { return MazeWorldOf(engine)->map().IsWall(1, 3); }

void Idle(Engine& engine, int frames) {
  engine.Act(std::vector<int>(7, 0));
  double reward = 0;
  ASSERT_TRUE(engine.Advance(frames, &reward).ok());
}

// Quake III's func_door: open, it closes `wait` seconds later (2 unless
// the door says), never on the player, and never for a negative wait.
TEST(SpawnEntitiesTest, DoorsCloseAfterTheirWaitButNotOnThePlayer) {
  for (const char* wait : {"", "v.wait = '0.5'", "v.wait = '-1'"}) {
    SCOPED_TRACE(wait);
    std::unique_ptr<Engine> engine = StartFilled("closing_door", kClosingDoorLevel, wait);
    ASSERT_NE(engine, nullptr);
    EXPECT_TRUE(DoorShut(*engine));
    // Walk until the player stands in the door's cell (x in [3, 4)), then stop.
    engine->Act(Forward());
    double reward = 0;
    for (int frame = 0; frame < 200 && MazeWorldOf(*engine)->pose().position.x < 3.5; ++frame) {
      ASSERT_TRUE(engine->Advance(1, &reward).ok());
    }
    ASSERT_GE(MazeWorldOf(*engine)->pose().position.x, 3.5);
    EXPECT_FALSE(DoorShut(*engine));
    Idle(*engine, 180);  // 3 seconds in the doorway, longer than any wait: it stays open
    EXPECT_FALSE(DoorShut(*engine));
    // Out of it, east: it closes behind the player once its wait is over.
    engine->Act(Forward());
    for (int frame = 0; frame < 200 && MazeWorldOf(*engine)->pose().position.x < 5.5; ++frame) {
      ASSERT_TRUE(engine->Advance(1, &reward).ok());
    }
    // (Its trigger fired while the player stood in it, starting the wait
    // again each time, as Quake III's does.)
    Idle(*engine, 150);
    EXPECT_EQ(DoorShut(*engine), std::string(wait).find("-1") == std::string::npos);
  }
}

// Standing at a door that closed opens it again (its trigger fires), and
// it then stays open for its whole wait.
TEST(SpawnEntitiesTest, AClosedDoorOpensAgainAndWaitsAgain) {
  std::unique_ptr<Engine> engine = StartFilled("reopening_door", kClosingDoorLevel, "v.wait = '1'");
  ASSERT_NE(engine, nullptr);
  engine->Act(Forward());
  double reward = 0;
  int opened_at = -1;
  for (int frame = 0; frame < 300 && opened_at < 0; ++frame) {
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
    if (!DoorShut(*engine)) opened_at = frame;
  }
  ASSERT_GE(opened_at, 0);
  // Back off west, out of the trigger's reach, and wait: it shuts after 1 s.
  engine->Act({0, 0, 0, -1, 0, 0, 0});
  ASSERT_TRUE(engine->Advance(20, &reward).ok());
  Idle(*engine, 60);
  EXPECT_TRUE(DoorShut(*engine));
  // Forward again: the trigger opens it again.
  engine->Act(Forward());
  for (int frame = 0; frame < 120 && DoorShut(*engine); ++frame) {
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
  }
  EXPECT_FALSE(DoorShut(*engine));
}

// Quake III's teleporters, written into the map as DeepMind Lab's
// custom_entities writes them: a misc_model and a trigger_teleport (a brush
// entity, no origin) at 'T', the misc_teleporter_dest at 't'.
constexpr char kTeleporterLevel[] = R"(
local maker = require 'dmlab.system.map_maker'
local game = require 'dmlab.system.game'
local api = {seen = {}}
local function box(x, y)
  local face = '( %%d %%d 8 ) ( %%d %%d 8 ) ( %%d %%d 8 ) common/caulk 0 0 0 0 0 0 0 0\n'
  return '  {\n' .. face:format(x + 24, y + 24, x - 24, y + 24, x - 24, y - 24) .. '  }\n'
end
function api:init()
  api.map = maker:mapFromTextLevel{
    mapName = 'teleporting',
    entityLayer = '*********\n*P T* t *\n*********\n',
    callback = function(i, j, c, m)
      local x, y = (j + 0.5) * 100, (3 - i - 0.5) * 100
      if c == 'T' then
        return '{\n  "model" "models/teleport_platform.md3"\n  "origin" "' .. x .. ' ' .. y ..
               ' 0"\n  "classname" "misc_model"\n}\n{\n  "classname" "trigger_teleport"\n' ..
               '  "target" "%s"\n' .. box(x, y) .. '}\n'
      elseif c == 't' then
        return '{\n  "classname" "misc_teleporter_dest"\n  "origin" "' .. x .. ' ' .. y ..
               ' 48"\n  "angle" "-90"\n  "targetname" "there"\n}\n'
      end
    end}
end
function api:nextMap() return api.map end
function api:hasEpisodeFinished()
  if game:playerInfo().teleported then api.seen[#api.seen + 1] = game:episodeTimeSeconds() end
  return false
end
function api:readProperty() return tostring(#api.seen) end
return api
)";

TEST(SpawnEntitiesTest, TeleportersSendThePlayerToTheirDestination) {
  std::unique_ptr<Engine> engine = StartFilled("teleporting", kTeleporterLevel, "there");
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(Property(*engine, "seen"), "0");
  // East into the teleporter's cell (column 3, x in [3, 4)): its box is the
  // middle 0.48 of the cell, reached by the player's 0.25 radius at x 3.01.
  engine->Act(Forward());
  double reward = 0;
  int frame = 0;
  for (; frame < 120 && MazeWorldOf(*engine)->pose().position.x < 6; ++frame) {
    ASSERT_TRUE(engine->Advance(1, &reward).ok());
  }
  const hosts::maze::Pose& pose = MazeWorldOf(*engine)->pose();
  EXPECT_DOUBLE_EQ(pose.position.x, 6.5);  // the destination's cell, beyond the wall
  EXPECT_DOUBLE_EQ(pose.position.y, 1.5);
  EXPECT_DOUBLE_EQ(pose.yaw, -90);            // facing south, as the destination's angle says
  EXPECT_EQ(Property(*engine, "seen"), "1");  // playerInfo().teleported, that frame only
  ASSERT_TRUE(engine->Advance(5, &reward).ok());
  EXPECT_EQ(Property(*engine, "seen"), "1");
}

TEST(SpawnEntitiesTest, ATeleporterToNowhereIsAnError) {
  std::unique_ptr<Engine> engine =
      InitEngine(FilledLevel("teleporting_nowhere", kTeleporterLevel, "elsewhere"));
  ASSERT_NE(engine, nullptr);
  const absl::Status started = engine->Start(0, 0);
  EXPECT_FALSE(started.ok());
  EXPECT_THAT(std::string(started.message()),
              HasSubstr("the trigger_teleport at row 2, column 4 targets 'elsewhere', which no "
                        "misc_teleporter_dest is named"));
}

// DeepMind Lab's console command dm_pickup: the player picks up every
// pickup of that id in the next frame, wherever it is, as if touched.
TEST(SpawnEntitiesTest, ConsolePickupTakesEveryPickupOfItsId) {
  std::unique_ptr<Engine> engine = StartLevel("console", R"(
local game = require 'dmlab.system.game'
function api:updateSpawnVars(v)
  if v.classname == 'apple_reward' then v.id = tostring(number(v) % 2 == 1 and 7 or 8) end
  return v
end
function api:canPickup(id) log('asked', id) return true end
function api:modifyControl()
  if not api.done then
    api.done = true
    game:console('dm_pickup 7')
    local ok, why = pcall(game.console, game, 'weapnext')
    log('refused', why)
  end
end
)");
  ASSERT_NE(engine, nullptr);
  engine->Act(std::vector<int>(7, 0));  // standing still, far from most
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_EQ(reward, 2);  // apples 1 and 3 (of id 7)
  EXPECT_EQ(Property(*engine, "asked"), "7 7");
  std::vector<bool> active;
  for (const Pickup& pickup : MazeWorldOf(*engine)->pickups()) active.push_back(pickup.active);
  EXPECT_THAT(active, ::testing::ElementsAre(false, true, false, true, true));
  EXPECT_THAT(Property(*engine, "refused"),
              HasSubstr("the maze's console knows 'dm_pickup <id>' only, not 'weapnext'"));
}

// Marks made on one map mean nothing on the next: a console pickup asked
// for as the goal ends the map is dropped with it.
TEST(SpawnEntitiesTest, ConsolePickupsDoNotOutliveTheirMap) {
  std::unique_ptr<Engine> engine = StartLevel("console_then_goal", R"(
local game = require 'dmlab.system.game'
function api:updateSpawnVars(v)
  if v.classname == 'apple_reward' then v.id = '7' end
  if v.classname == 'goal' then v.id = '9' end
  return v
end
function api:canPickup(id)
  if id == 9 then game:console('dm_pickup 7') end
  return true
end
)");
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(WalkEast(*engine, 95), ::testing::ElementsAre(1.0, 1.0, 1.0, 1.0, 10.0));
  EXPECT_EQ(Property(*engine, "maps"), "2");
  engine->Act(std::vector<int>(7, 0));
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_EQ(reward, 0);
  for (const Pickup& pickup : MazeWorldOf(*engine)->pickups()) EXPECT_TRUE(pickup.active);
}

}  // namespace
}  // namespace engine_plugin
