// The DeepMind Lab host end to end on test_engine.so (test_engine.cc), a
// stand-in for DeepMind Lab's engine library that calls the hooks as the
// real one does: the level's callbacks answer the engine's hooks, rewards
// travel from pickups and game:addScore through the engine's score,
// errors in a hook come back from the step they happened in, and two
// instances in one process each get their own copy of the engine.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hosts/dmlab/dmlab_testing.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::Engine;
using engine_plugin::EpisodeStatus;
using ::testing::HasSubstr;

TEST(DmlabHostTest, PickupsRewardThroughTheEngine) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("pickups", kPickups));
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->discrete_actions().size(), 7u);
  // The pickups stand at x = 100, 200, 300: six steps reach all three.
  EXPECT_DOUBLE_EQ(Forward(*engine, 2), 1);
  EXPECT_DOUBLE_EQ(Forward(*engine, 4), -1 + 10);
}

TEST(DmlabHostTest, TheFrameIsTheEngines) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("frame", kPickups));
  ASSERT_NE(engine, nullptr);
  Forward(*engine, 3);
  absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(0);
  ASSERT_TRUE(frame.ok()) << frame.status();
  const auto& shape = frame->tensor.layout().shape();
  EXPECT_EQ(std::vector<std::int64_t>(shape.begin(), shape.end()),
            (std::vector<std::int64_t>{6, 8, 3}));
  // The test engine fills its frame with x: 150 after three steps.
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(*frame->tensor.data())[0], 150);
}

// The engine's other observations, as it declares them: DeepMind Lab's
// RGBD_INTERLEAVED, planar RGB, MAP_FRAME_NUMBER; not its deprecated
// spellings.
TEST(DmlabHostTest, TheEnginesOwnObservationsAreServed) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("observations", kPickups));
  ASSERT_NE(engine, nullptr);
  std::vector<std::string> names;
  for (const auto& spec : engine->observation_specs()) names.push_back(spec.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"RGB_INTERLEAVED", "RGBD_INTERLEAVED", "RGB",
                                      "MAP_FRAME_NUMBER"}));
  Forward(*engine, 3);
  const auto bytes = [](const engine_plugin::ObservationValue& v) {
    return reinterpret_cast<const std::uint8_t*>(*v.tensor.data());
  };
  const auto shape = [](const engine_plugin::ObservationValue& v) {
    const auto& s = v.tensor.layout().shape();
    return std::vector<std::int64_t>(s.begin(), s.end());
  };
  absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(0);
  absl::StatusOr<engine_plugin::ObservationValue> rgbd = engine->Observation(1);
  absl::StatusOr<engine_plugin::ObservationValue> planar = engine->Observation(2);
  absl::StatusOr<engine_plugin::ObservationValue> number = engine->Observation(3);
  ASSERT_TRUE(frame.ok() && rgbd.ok() && planar.ok() && number.ok());
  EXPECT_EQ(shape(*rgbd), (std::vector<std::int64_t>{6, 8, 4}));
  EXPECT_EQ(shape(*planar), (std::vector<std::int64_t>{3, 6, 8}));
  EXPECT_EQ(number->type, engine_plugin::ObservationType::kDoubles);
  EXPECT_EQ(reinterpret_cast<const double*>(*number->tensor.data())[0], 3);
  for (int p = 0; p < 6 * 8; ++p) {
    for (int c = 0; c < 3; ++c) {
      ASSERT_EQ(bytes(*rgbd)[4 * p + c], bytes(*frame)[3 * p + c]) << p;
      ASSERT_EQ(bytes(*planar)[c * 48 + p], bytes(*frame)[3 * p + c]) << p;
    }
    ASSERT_EQ(bytes(*rgbd)[4 * p + 3], 150) << "the test engine's depth is x";
  }
}

// DeepMind Lab's temp_folder: the engine's writable folder, made if
// missing and kept (without the setting, a new one goes with the host).
TEST(DmlabHostTest, TheEnginesFolderMayBeGiven) {
  const std::filesystem::path folder =
      std::filesystem::path(std::getenv("TEST_TMPDIR")) / "given" / "engine_home";
  {
    std::unique_ptr<Engine> engine = Created(WriteLevel("home", kPickups));
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->SetSetting("dmlabTempFolder", folder.string()).ok());
    ASSERT_TRUE(engine->Init().ok());
    std::string home;
    ASSERT_TRUE(engine->ReadProperty("engine.dmlabTempFolder", &home).ok());
    EXPECT_EQ(home, folder.string());
    EXPECT_TRUE(std::filesystem::is_directory(folder));
  }
  EXPECT_TRUE(std::filesystem::is_directory(folder)) << "a given folder is kept";
  std::unique_ptr<Engine> engine = Created(WriteLevel("home", kPickups));
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(engine->SetSetting("dmlabTempFolder", "").message(), HasSubstr("dmlabTempFolder"));
}

TEST(DmlabHostTest, TheHudDrawsTheLevelsRectanglesAndMessages) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("hud", std::string(kPickups) + R"(
function api:filledRectangles(args)
  assert(args.width == 8 and args.height == 6)
  return {{x = 1, y = 2, width = 2, height = 1, rgba = {1, 0, 0.5, 1}}}
end
function api:screenMessages(args)
  assert(args.max_string_length == 79)
  return {{message = 'A', x = 1, y = 1}, {message = 'Z', alignment = 2, rgba = {1, 1, 1, 1}}}
end
)"));
  ASSERT_NE(engine, nullptr);
  Forward(*engine, 1);
  absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(0);
  ASSERT_TRUE(frame.ok()) << frame.status();
  const auto* pixels = reinterpret_cast<const std::uint8_t*>(*frame->tensor.data());
  auto at = [&](int row, int col, int c) { return pixels[(row * 8 + col) * 3 + c]; };
  EXPECT_EQ(at(2, 1, 0), 255);
  EXPECT_EQ(at(2, 2, 2), 127);
  EXPECT_EQ(at(0, 0, 0), 50);  // the corridor's x, untouched
  EXPECT_EQ(at(5, 0, 0), 'A');
  EXPECT_EQ(at(5, 1, 0), 'Z');
}

TEST(DmlabHostTest, TexturesGoThroughTheLevel) {
  // The engine's own wall texture (2 x 2 texels of 100), modified.
  std::unique_ptr<Engine> own = Started(WriteLevel("own_texture", std::string(kPickups) + R"(
function api:modifyTexture(name, image)
  assert(name == 'textures/corridor_wall' and image:size(1) == 2)
  image:select(3, 1):fill(42)
  api.kept = image
  return true
end
function api:hasEpisodeFinished() return not pcall(function() return api.kept:sum() end) end
)"));
  ASSERT_NE(own, nullptr);
  EpisodeStatus status = EpisodeStatus::kRunning;
  Forward(*own, 1, &status);
  // The kept image is revoked once the call returned.
  EXPECT_EQ(status, EpisodeStatus::kTerminated);
  absl::StatusOr<engine_plugin::ObservationValue> frame = own->Observation(0);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(*frame->tensor.data())[7 * 3], 42);

  // A replaced name, and an image of the level's in any layout.
  std::unique_ptr<Engine> given = Started(WriteLevel("given_texture", std::string(kPickups) + R"(
local tensor = require 'dmlab.system.tensor'
function api:replaceTextureName(name) return 'mine' end
function api:loadTexture(name)
  assert(name == 'mine')
  return tensor.ByteTensor(4, 3, 2):fill(9):transpose(1, 3)
end
)"));
  ASSERT_NE(given, nullptr);
  Forward(*given, 1);
  frame = given->Observation(0);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(*frame->tensor.data())[7 * 3], 9);
}

TEST(DmlabHostTest, TriggersAndLookingGoThroughTheLevel) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("triggers", R"(
function api:nextMap() return 'corridor' end
api.looked = {}
function api:lookat(id, looked_at, position, player)
  assert(id == 99 and player == 1)
  if looked_at then api.looked[#api.looked + 1] = position[1] end
end
function api:canTrigger(id, target, player) return target == 'door' and id == 98 end
function api:trigger(id, target) api.triggered = target return api.take_over end
function api:hasEpisodeFinished()
  return api.triggered == 'door' and #api.looked == 3 and api.looked[1] == 150
end
)"));
  ASSERT_NE(engine, nullptr);
  EpisodeStatus status = EpisodeStatus::kRunning;
  Forward(*engine, 5, &status);  // x = 250: three frames looking, then the door
  EXPECT_EQ(status, EpisodeStatus::kTerminated);
  // The door's own effect sent the player back (the level did not take over).
  absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(0);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(*frame->tensor.data())[0], 0);
}

TEST(DmlabHostTest, AMoverOfTheLevelsCarriesThePlayer) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("mover", R"(
function api:nextMap() return 'corridor' end
function api:playerMover(args)
  assert(args.moverId == 1 and args.moverPos[1] == 500)
  return {args.moverPos[1] - args.playerPos[1], 0, 0}, {0, 0, 0}
end
)"));
  ASSERT_NE(engine, nullptr);
  Forward(*engine, 1);
  absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(0);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(*frame->tensor.data())[0], 500 % 256);
}

TEST(DmlabHostTest, SpawnVarsAndPickupsAreTheLevels) {
  // The level drops the lemon, moves the apple to x = 500 and refuses the
  // goal's pickup; api:pickup sees each id.
  std::unique_ptr<Engine> engine = Started(WriteLevel("spawn", std::string(kPickups) + R"(
function api:updateSpawnVars(vars)
  if vars.classname == 'lemon_reward' then return nil end
  if vars.classname == 'apple_reward' then vars.origin = '500 0 0' vars.id = '42' end
  return vars
end
function api:canPickup(id) return id ~= 3 end
api.picked = {}
function api:pickup(id) api.picked[#api.picked + 1] = id end
function api:hasEpisodeFinished() return #api.picked == 1 and api.picked[1] == 42 end
)"));
  ASSERT_NE(engine, nullptr);
  EpisodeStatus status = EpisodeStatus::kRunning;
  // The goal at 300 is refused; the apple at 500 gives 1 and ends it.
  EXPECT_DOUBLE_EQ(Forward(*engine, 20, &status), 1);
  EXPECT_EQ(status, EpisodeStatus::kTerminated);
}

TEST(DmlabHostTest, AddScoreReachesTheRewardInWholePoints) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("score", R"(
function api:nextMap() return 'corridor' end
function api:start() api.steps = 0 end
function api:modifyControl(actions)
  game:addScore(0.5)
  return actions
end
)"));
  ASSERT_NE(engine, nullptr);
  // Half a point a frame reaches the engine one whole point every second frame.
  EXPECT_DOUBLE_EQ(Forward(*engine, 4), 2);
}

TEST(DmlabHostTest, TheLevelSeesThePlayerAndTheEngine) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("player", R"(
local entities = require 'dmlab.system.game_entities'
function api:nextMap() return 'corridor_apple' end
function api:createPickup(c)
  return {name = c, classname = c, model = '', quantity = 1, type = 2}
end
function api:hasEpisodeFinished()
  local info = game:playerInfo()
  local shape = game:screenShape()
  assert(shape.window.width == 8 and shape.buffer.height == 6)
  assert(#entities:entities{'apple_reward'} == 1 and #entities:entities{'goal'} == 0)
  -- The test engine's wall across the corridor at x = 1000.
  assert(math.abs(game:raycast({0, 0, 0}, {2000, 0, 0}) - 0.5) < 1e-6)
  assert(not pcall(game.addScore, game, 0/0) and not pcall(game.addScore, game, 1/0))
  -- The test engine has one texture, 'screen'.
  local image = require('dmlab.system.tensor').ByteTensor(2, 3, 4):fill(200)
  game:updateTexture('screen', image)
  assert(not pcall(game.updateTexture, game, 'nothing', image))
  assert(not pcall(game.updateTexture, game, 'screen', image:transpose(1, 2)))
  assert(not pcall(game.updateTexture, game, 'screen', image:narrow(3, 1, 3)))
  -- The test engine fills a custom view with its camera's x.
  local view = game:renderCustomView{width = 4, height = 2, pos = {77, 0, 0}, look = {0, 0, 0}}
  assert(view:size(1) == 2 and view:size(2) == 4 and view(2, 4, 3):val() == 77)
  assert(not pcall(game.renderCustomView, game, {width = 9, height = 2, pos = {0, 0, 0},
                                                 look = {0, 0, 0}}))
  return info.pos[1] >= 200
end
)"));
  ASSERT_NE(engine, nullptr);
  EpisodeStatus status = EpisodeStatus::kRunning;
  Forward(*engine, 10, &status);
  EXPECT_EQ(status, EpisodeStatus::kTerminated);
  // x = 200 after frame 4; the level sees it in frame 5, as DeepMind Lab's
  // levels see each frame's state a frame late when the frame is read
  // (context.h, PlayerStateUpdate).
  EXPECT_DOUBLE_EQ(engine->episode_time_seconds(), 5.0 / 60);
}

TEST(DmlabHostTest, FinishMapLoadsTheNextMap) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("maps", R"(
api.maps = 0
function api:nextMap() api.maps = api.maps + 1 return 'corridor_apple' end
function api:createPickup(c)
  return {name = c, classname = c, model = '', quantity = 1, type = 2}
end
function api:pickup() game:finishMap() end
)"));
  ASSERT_NE(engine, nullptr);
  // Each map's apple at 100 is reached in two steps, then the map reloads
  // with the player back at 0.
  EXPECT_DOUBLE_EQ(Forward(*engine, 6), 3);
}

TEST(DmlabHostTest, AHookThatFailsFailsItsStepAndTheNextStartRecovers) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("raising", std::string(kPickups) + R"(
function api:start(episode) api.raise = episode == 0 end
function api:canPickup() if api.raise then error('no pickups today') end return true end
)"));
  ASSERT_NE(engine, nullptr);
  engine->Act({0, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  absl::StatusOr<EpisodeStatus> failed = engine->Advance(1, &reward);
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.status().message(), HasSubstr("canPickup"));
  EXPECT_THAT(failed.status().message(), HasSubstr("no pickups today"));
  ASSERT_TRUE(engine->Start(1, 8).ok());
  EXPECT_DOUBLE_EQ(Forward(*engine, 2), 1);
}

TEST(DmlabHostTest, BadResultsAreErrorsNamingTheCallback) {
  for (const auto& [body, callback] :
       {std::pair{"function api:nextMap() return 42 end", "nextMap"},
        std::pair{"function api:nextMap() return 'corridor_apple' end\n"
                  "function api:createPickup() return {name = 'a'} end",
                  "createPickup"},
        std::pair{"function api:nextMap() return 'corridor_apple' end\n"
                  "function api:updateSpawnVars(v) return {classname = {}} end",
                  "updateSpawnVars"},
        std::pair{"function api:nextMap() return 'elsewhere' end", "'elsewhere' is not in"},
        std::pair{"function api:nextMap() return '../corridor' end", "not a map name"},
        std::pair{"function api:nextMap() return '' end", "before any map was loaded"},
        std::pair{"function api:nextMap() return 'corridor' end\n"
                  "function api:screenMessages() return {{message = string.rep('x', 80)}} end",
                  "at most 79"},
        std::pair{"function api:nextMap() return 'corridor' end\n"
                  "function api:filledRectangles() return {{x = 1}} end",
                  "filledRectangles"},
        std::pair{"function api:nextMap() return 'corridor' end\n"
                  "function api:loadTexture() return require('dmlab.system.tensor')"
                  ".ByteTensor(2, 2, 3) end",
                  "loadTexture"},
        std::pair{"function api:nextMap() return 'corridor' end\n"
                  "function api:replaceTextureName() return string.rep('x', 100) end",
                  "longer than the engine's 63"},
        std::pair{"function api:nextMap() return 'corridor' end\n"
                  "function api:modifyTexture() return 'yes' end",
                  "modifyTexture"}}) {
    std::unique_ptr<Engine> engine = Created(WriteLevel("bad", body));
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->Init().ok());
    // Again: the engine, which loaded a map of its own to stay sound the
    // first time, restarts that map the second.
    for (int episode = 0; episode < 2; ++episode) {
      absl::Status start = engine->Start(episode, 1);
      EXPECT_FALSE(start.ok()) << body;
      EXPECT_THAT(start.message(), HasSubstr(callback));
    }
  }
}

TEST(DmlabHostTest, TwoInstancesHaveTheirOwnEngines) {
  std::unique_ptr<Engine> a = Started(WriteLevel("a", kPickups));
  std::unique_ptr<Engine> b = Started(WriteLevel("b", kPickups));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  // Were the engine's globals shared, b's start would have moved a's player.
  EXPECT_DOUBLE_EQ(Forward(*a, 2), 1);
  EXPECT_DOUBLE_EQ(Forward(*b, 2), 1);
  EXPECT_DOUBLE_EQ(Forward(*a, 4), 9);
}

TEST(DmlabHostTest, AMissingOrForeignLibraryIsAClearError) {
  const std::string text = absl::StrCat(std::getenv("TEST_TMPDIR"), "/not_a_library.so");
  std::ofstream(text) << "not a shared object";
  for (const auto& [library, expected] :
       {std::pair{std::string("/nonexistent/libdmlab_engine.so"), "cannot read"},
        std::pair{text, "cannot load"},
        std::pair{std::string(), "./lab dmlab"}}) {
    absl::StatusOr<std::unique_ptr<Engine>> engine =
        Engine::Create(WriteLevel("missing", kPickups));
    ASSERT_TRUE(engine.ok());
    ASSERT_TRUE((*engine)->SetSetting("host", "dmlab").ok());
    unsetenv("DMLAB_LIBRARY");
    if (!library.empty()) {
      ASSERT_TRUE((*engine)->SetSetting("dmlabLibrary", library).ok());
    }
    absl::Status init = (*engine)->Init();
    EXPECT_FALSE(init.ok());
    EXPECT_THAT(init.message(), HasSubstr(expected)) << init;
  }
}

// DeepMind Lab's extra entities and dynamic spawns: api:extraEntities adds
// to the map at load, pickups_spawn:spawn during play (at the engine's next
// frame), and api:registerDynamicItems names the pickups the map lacks.
TEST(DmlabHostTest, LevelsAddEntitiesAtLoadAndDuringPlay) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("dynamic", std::string(kPickups) + R"(
local pickups_spawn = require 'dmlab.system.pickups_spawn'
function api:nextMap() return 'corridor_apple' end
function api:extraEntities()
  return {{classname = 'apple_reward', origin = '150 0 0', id = '7'}}
end
function api:registerDynamicItems() return {'lemon_reward'} end
api.picked = {}
function api:pickup(id)
  api.picked[#api.picked + 1] = id
  if id == 7 then pickups_spawn:spawn{classname = 'lemon_reward', origin = '300 0 0', id = 9} end
end
function api:readProperty() return table.concat(api.picked, ' ') end
)"));
  ASSERT_NE(engine, nullptr);
  // The map's apple at x = 100, the extra one at 150, then the lemon the
  // second spawned at 300.
  EXPECT_DOUBLE_EQ(Forward(*engine, 3), 2);
  EXPECT_DOUBLE_EQ(Forward(*engine, 3), -1);
  std::string picked;
  ASSERT_TRUE(engine->ReadProperty("picked", &picked).ok());
  EXPECT_EQ(picked, "1 7 9");
  // A new episode has the map's and the extra apple again, and no lemon.
  ASSERT_TRUE(engine->Start(1, 3).ok());
  EXPECT_DOUBLE_EQ(Forward(*engine, 2), 1);
}

TEST(DmlabHostTest, BadSpawnsAndDynamicItemsAreErrorsNamingTheirFunction) {
  const struct {
    const char* body;
    const char* message;
  } cases[] = {
      {"function api:extraEntities() return 5 end",
       "[extraEntities] - must return a list or nil, not number"},
      {"function api:extraEntities() return {{classname = {}}} end",
       "[extraEntities] - spawn variables must be strings keyed by strings (entry 1)"},
      {"function api:extraEntities() return {{classname = 'func_door', origin = '0 0 0'}} end",
       "[extraEntities] - a func_door needs the model of one of the map's brush entities (\"*1\", "
       "...; the map's entities so far have 0), not '' (entry 1)"},
      {"function api:extraEntities() return {{classname = 'trigger_teleport', model = '*9'}} end",
       "[extraEntities] - a trigger_teleport needs the model of one of the map's brush entities"},
      {"function api:extraEntities() return {{classname = 'target_speaker'}} end",
       "[extraEntities] - a target_speaker needs a noise (entry 1)"},
      {"function api:extraEntities()\n"
       "  local t = {} for i = 1, 800 do t[i] = {classname = 'info_notnull'} end return t end",
       "[extraEntities] - 800 entities beside the map's 3: the engine holds 768 of a map's and a "
       "level's"},
      {"function api:updateSpawnVars(v) v.classname = 'func_bobbing' return v end",
       "[updateSpawnVars] - a func_bobbing needs the model of one of the map's brush entities"},
      {"function api:extraEntities() return {{}, {}} end",
       "[extraEntities] - no spawn variables: an entity needs at least its classname (entry 1)"},
      {"function api:registerDynamicItems() return {'lemon_reward', 3} end",
       "[registerDynamicItems] - class names must be strings (entry 2)"},
      {"function api:registerDynamicItems() return {string.rep('x', 256)} end",
       "[registerDynamicItems] - a class name of 1 to 255 characters, without NUL, expected "
       "(entry 1)"},
      {"function api:modifyControl(a) require('dmlab.system.pickups_spawn'):spawn(1) end",
       "'pickups_spawn:spawn': [spawn] - expected a table of spawn variables, got number"},
      {"function api:modifyControl(a)\n"
       "  require('dmlab.system.pickups_spawn'):spawn{a = string.rep('x', 5000)} end",
       "'pickups_spawn:spawn': [spawn] - 1 spawn variables of 5003 characters: the engine holds "
       "fewer than 64 and 4096"},
      {"function api:modifyControl(a)\n"
       "  local spawn = require('dmlab.system.pickups_spawn')\n"
       "  for i = 1, 1025 do spawn:spawn{classname = 'x'} end end",
       "'pickups_spawn:spawn': [spawn] - the map's 3 entities and the level's 765 are all the "
       "engine holds of a map's and a level's (768)"},
      {"function api:modifyControl(a) require('dmlab.system.pickups_spawn').spawn('x') end",
       "'pickups_spawn.spawn' must be called with ':'"},
  };
  for (const auto& c : cases) {
    std::unique_ptr<Engine> engine =
        Created(WriteLevel("bad_spawns", absl::StrCat(kPickups, c.body)));
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->Init().ok());
    absl::Status failed = engine->Start(0, 1);
    if (failed.ok()) {
      engine->Act({0, 0, 0, 1, 0, 0, 0});
      double reward = 0;
      failed = engine->Advance(1, &reward).status();
    }
    ASSERT_FALSE(failed.ok()) << c.body;
    EXPECT_THAT(failed.message(), HasSubstr(c.message)) << c.body;
  }
}

TEST(DmlabHostTest, TheLevelsOwnActionsFollowTheEngines) {
  std::unique_ptr<Engine> engine = Started(WriteLevel("custom_actions", std::string(kPickups) + R"(
function api:customDiscreteActionSpec() return {{name = 'SWITCH_GADGET', min = -1, max = 1}} end
function api:customDiscreteActions(actions) api.gadget = actions[1] end
function api:hasEpisodeFinished() return api.gadget == -1 end
)"));
  ASSERT_NE(engine, nullptr);
  ASSERT_EQ(engine->discrete_actions().size(), 8u);
  EXPECT_EQ(engine->discrete_actions()[7].name, "SWITCH_GADGET");
  EXPECT_EQ(engine->discrete_actions()[7].min, -1);
  engine->Act({0, 0, 0, 0, 0, 0, 0, -1});
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(*status, EpisodeStatus::kTerminated);
}

TEST(DmlabHostTest, RunfilesWithoutMapsAreRefused) {
  std::unique_ptr<Engine> engine = Created(WriteLevel("nomaps", kPickups));
  ASSERT_NE(engine, nullptr);
  const std::string empty = absl::StrCat(std::getenv("TEST_TMPDIR"), "/empty_run");
  std::filesystem::create_directories(empty + "/baselab/maps");
  ASSERT_TRUE(engine->SetSetting("dmlabRunfiles", empty).ok());
  absl::Status init = engine->Init();
  EXPECT_THAT(init.message(), HasSubstr("has no compiled maps"));
}

TEST(DmlabHostTest, TheEnginesOwnSettingsReachIt) {
  std::unique_ptr<Engine> engine = Created(WriteLevel("engine_settings", kPickups));
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->SetSetting("logToStdErr", "true").ok());
  ::testing::internal::CaptureStderr();
  absl::Status init = engine->Init();
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(init.ok()) << init;
  EXPECT_THAT(log, HasSubstr("test engine: console to stderr"));
}

TEST(DmlabHostTest, BadSettingsAreErrors) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(WriteLevel("settings", kPickups));
  ASSERT_TRUE(engine.ok());
  ASSERT_TRUE((*engine)->SetSetting("host", "dmlab").ok());
  EXPECT_FALSE((*engine)->SetSetting("width", "0").ok());
  EXPECT_FALSE((*engine)->SetSetting("height", "huge").ok());
  EXPECT_FALSE((*engine)->SetSetting("renderer", "vulkan").ok());
  // The host comes first, and must exist.
  absl::Status late = (*engine)->SetSetting("host", "maze");
  EXPECT_THAT(late.message(), HasSubstr("give it first"));
  absl::StatusOr<std::unique_ptr<Engine>> other = Engine::Create(WriteLevel("other", kPickups));
  ASSERT_TRUE(other.ok());
  absl::Status unknown = (*other)->SetSetting("host", "quake5");
  EXPECT_THAT(unknown.message(), HasSubstr("quake5"));
}

}  // namespace
}  // namespace hosts::dmlab
