// The player hooks on the DeepMind Lab host, on test_engine.so
// (test_engine_players.h): game events, inventories the level may change,
// teams, player models, new clients and the alternative cameras' setting
// reach the level's callbacks of DeepMind Lab's names, and bad answers are
// errors naming the callback.
#include <array>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hosts/dmlab/dmlab_testing.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::Engine;
using ::testing::HasSubstr;

struct LevelRun {
  std::unique_ptr<Engine> engine;
  absl::Status start;
};

LevelRun Start(const std::string& name, const std::string& body, bool alt_cameras = false) {
  LevelRun run;
  run.engine = Created(WriteLevel(name, absl::StrCat(R"(
function api:nextMap() return 'corridor' end
api.seen = {}
local function see(text) api.seen[#api.seen + 1] = text end
function api:readProperty(key)
  local out = table.concat(api.seen, ' ')
  api.seen = {}
  return out
end
)", body)));
  if (run.engine == nullptr) return run;
  EXPECT_TRUE(run.engine->SetSetting("width", "8").ok());
  EXPECT_TRUE(run.engine->SetSetting("height", "6").ok());
  if (alt_cameras) EXPECT_TRUE(run.engine->SetSetting("hasAltCameras", "true").ok());
  absl::Status init = run.engine->Init();
  EXPECT_TRUE(init.ok()) << init;
  run.start = run.engine->Start(0, 7);
  return run;
}

std::string Seen(Engine& engine) {
  std::string seen;
  EXPECT_TRUE(engine.ReadProperty("seen", &seen).ok());
  return seen;
}

absl::Status Step(Engine& engine) {
  engine.Act({0, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  return engine.Advance(1, &reward).status();
}

// The frame's bottom-right pixel: has_alt_cameras, the first amount, the team.
std::array<int, 3> Pixel(Engine& engine) {
  absl::StatusOr<engine_plugin::ObservationValue> frame = engine.Observation(0);
  EXPECT_TRUE(frame.ok()) << frame.status();
  const auto* rgb = reinterpret_cast<const unsigned char*>(*frame->tensor.data());
  const unsigned char* pixel = rgb + (8 * 6 - 1) * 3;
  return {pixel[0], pixel[1], pixel[2]};
}

TEST(DmlabPlayersTest, InventoriesGoThroughTheLevel) {
  LevelRun run = Start("inventory", R"(
function api:spawnInventory(inv)
  see(table.concat({'spawn', inv.playerId, tostring(inv.isBot), inv.gadget,
                    table.concat(inv.amounts, ','), table.concat(inv.stats, ','),
                    inv.height}, ' '))
  inv.amounts[1] = 40
  return inv
end
function api:updateInventory(inv)
  see('update ' .. inv.amounts[1] .. ' ' .. inv.position[1])
  inv.amounts[1] = inv.amounts[1] + 1
  return inv
end
)");
  ASSERT_TRUE(run.start.ok()) << run.start;
  EXPECT_EQ(Seen(*run.engine), "spawn 1 false 1 1,2,3 100,0 40");
  EXPECT_EQ(Pixel(*run.engine)[1], 40);
  ASSERT_TRUE(Step(*run.engine).ok());
  ASSERT_TRUE(Step(*run.engine).ok());
  EXPECT_EQ(Seen(*run.engine), "update 40 50 update 41 100");
  EXPECT_EQ(Pixel(*run.engine)[1], 42);
}

TEST(DmlabPlayersTest, GameEventsReachTheLevel) {
  LevelRun run = Start("events", R"(
function api:gameEvent(name, values) see(name .. ':' .. table.concat(values, ',')) end
)");
  ASSERT_TRUE(run.start.ok()) << run.start;
  ASSERT_TRUE(Step(*run.engine).ok());
  ASSERT_TRUE(Step(*run.engine).ok());
  EXPECT_EQ(Seen(*run.engine), "FRAME:1,50 FRAME:2,100");
}

TEST(DmlabPlayersTest, TeamsModelsAndClientsAreTheLevels) {
  LevelRun run = Start("players", R"(
function api:team(playerId, name) see('team ' .. playerId .. ' ' .. name) return 'r' end
function api:playerModel(playerId, name, model)
  see('model ' .. playerId .. ' ' .. name .. ' ' .. model)
  return 'sarge'
end
function api:newClientInfo(playerId, name, model) see('client ' .. name .. ' ' .. model) end
)",
                  /*alt_cameras=*/true);
  ASSERT_TRUE(run.start.ok()) << run.start;
  EXPECT_EQ(Seen(*run.engine), "team 1 player model 1 player crash client player sarge");
  EXPECT_EQ(Pixel(*run.engine)[0], 1);  // has_alt_cameras
  EXPECT_EQ(Pixel(*run.engine)[2], 'r');
}

// playerInfo().teleported is DeepMind Lab's: true once, after the frame
// the engine's teleport bit flips, false before and after. The engine
// reports each frame's state again as it renders it, stamped with the next
// frame's time, so the level sees each frame's state a frame late, as
// DeepMind Lab's levels do when their frame is read every step.
TEST(DmlabPlayersTest, TeleportedIsTheFrameOfTheTeleport) {
  LevelRun run = Start("teleport", R"(
function api:canTrigger() return false end  -- the corridor's door
local frames = 0
function api:hasEpisodeFinished()
  frames = frames + 1
  local p = game:playerInfo()
  if p.teleported then see('teleported@' .. p.pos[1] .. ' in frame ' .. frames) end
  return false
end
)");
  ASSERT_TRUE(run.start.ok()) << run.start;
  for (int i = 0; i < 42; ++i) {
    ASSERT_TRUE(Step(*run.engine).ok());
    ASSERT_TRUE(run.engine->Observation(0).ok());
  }
  EXPECT_EQ(Seen(*run.engine), "teleported@0 in frame 41");
}

TEST(DmlabPlayersTest, WithoutCallbacksTheEnginesDefaultsStand) {
  LevelRun run = Start("defaults", "");
  ASSERT_TRUE(run.start.ok()) << run.start;
  EXPECT_EQ(Pixel(*run.engine), (std::array<int, 3>{0, 1, 0}));
}

TEST(DmlabPlayersTest, BadAnswersAreErrorsNamingTheCallback) {
  const struct {
    const char* callback;
    const char* expected;
  } cases[] = {
      {"function api:team() return 'x' end", "[team] - must return one of 'r', 'b', 'p' and 's'"},
      {"function api:team() return {} end", "[team] - must return one of"},
      {"function api:spawnInventory(inv) inv.amounts = {1} return inv end",
       "[spawnInventory] - the table's 'amounts' must be a list of 3 integers"},
      {"function api:spawnInventory(inv) inv.stats[2] = 0.5 return inv end",
       "[spawnInventory] - 'stats'[2] must be an integer"},
      {"function api:spawnInventory(inv) inv.amounts[1] = 1e308 return inv end",
       "[spawnInventory] - 'amounts'[1] must be an integer"},
      {"function api:spawnInventory(inv) inv.stats[1] = 0/0 return inv end",
       "[spawnInventory] - 'stats'[1] must be an integer"},
      {"function api:spawnInventory(inv) return 7 end",
       "[spawnInventory] - must return a table or nil, not number"},
      {"function api:playerModel() return 3 end",
       "[playerModel] - must return a model name or nil, not number"},
      {"function api:playerModel() return string.rep('m', 300) end",
       "[playerModel] - the player's info with model"},
      {"function api:gameEvent() error('no events') end", "no events"},
      {"function api:newClientInfo() error('no clients') end", "no clients"},
  };
  for (const auto& [callback, expected] : cases) {
    LevelRun run = Start("bad_player", callback);
    absl::Status status = run.start;
    if (status.ok()) status = Step(*run.engine);
    EXPECT_THAT(status.ToString(), HasSubstr(expected)) << callback;
  }
}

}  // namespace
}  // namespace hosts::dmlab
