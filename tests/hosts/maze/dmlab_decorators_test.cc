// Decorators of our own, written the way DeepMind Lab's are (each wraps
// the api's callbacks and calls what it wrapped) and stacked on one level:
// a time limit that shows the seconds left top right (screenMessages, as
// decorators/timeout.lua) and ends the episode; a floor recolouring
// per variation (modifyTexture, as decorators/custom_floors.lua, on
// DeepMind Lab's own floor image names); a teleporter written
// into the map as common/custom_entities.lua writes it; and a pickup taken
// by the console's dm_pickup. Checks what the agent sees and gets.
#include <cstdint>
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

constexpr char kLevel[] = R"(
local game = require 'dmlab.system.game'
local map_maker = require 'dmlab.system.map_maker'

local api = {}

-- A corridor east to a teleporter 'T'; its destination 't' is in a room
-- beyond a wall, with an apple of id 5; behind the player an apple 'a' of
-- id 6.
local ENTITIES = '***********\n' ..
                 '*aP  T* tA*\n' ..
                 '***********\n'
-- The room is variation A.
local VARIATIONS = '...........\n' ..
                   '........AA.\n' ..
                   '...........\n'

local function teleporter(x, y)
  local face = '( %%d %%d 8 ) ( %%d %%d 8 ) ( %%d %%d 8 ) common/caulk 0 0 0 0 0 0 0 0\n'
  return '{\n  "model" "models/teleport_platform.md3"\n  "origin" "' .. x .. ' ' .. y ..
         ' 0"\n  "classname" "misc_model"\n}\n{\n  "classname" "trigger_teleport"\n' ..
         '  "target" "room"\n  {\n' .. face:format(x + 24, y + 24, x - 24, y + 24, x - 24,
         y - 24) .. '  }\n}\n'
end

function api:init()
  api.map = map_maker:mapFromTextLevel{
    mapName = 'decorated',
    entityLayer = ENTITIES,
    variationsLayer = VARIATIONS,
    callback = function(i, j, c, maker)
      local x, y = (j + 0.5) * 100, (3 - i - 0.5) * 100
      if c == 'T' then return teleporter(x, y) end
      if c == 'A' or c == 'a' then
        return maker:makeEntity{i = i, j = j, classname = 'apple_reward',
                                attributes = {id = c == 'A' and 5 or 6}}
      end
      if c == 't' then
        return '{\n  "classname" "misc_teleporter_dest"\n  "origin" "' .. x .. ' ' .. y ..
               ' 48"\n  "angle" "0"\n  "targetname" "room"\n}\n'
      end
    end,
  }
end

function api:nextMap() return api.map end

-- DeepMind Lab's setting_overrides offers the console as a property.
function api:writeProperty(key, value)
  if key == 'console' then
    game:console(value)
    return true
  end
end

-- decorators/timeout.lua's way: the time left, top right.
local function decorateWithTimeout(api, seconds)
  local left = seconds
  local screenMessages = api.screenMessages
  function api:screenMessages(args)
    local messages = screenMessages and screenMessages(api, args) or {}
    messages[#messages + 1] = {message = string.format('%%d', math.ceil(left)),
                               x = args.width - 10, y = 0, alignment = 1}
    return messages
  end
  local hasEpisodeFinished = api.hasEpisodeFinished
  function api:hasEpisodeFinished(time)
    left = seconds - time
    return left <= 0 or (hasEpisodeFinished and hasEpisodeFinished(api, time)) or false
  end
end

-- decorators/custom_floors.lua's way: each variation's floor (DeepMind
-- Lab's placeholder images; '0' outside any variation) scaled by a colour.
local function decorateWithFloorColours(api, colours)
  local modifyTexture = api.modifyTexture
  function api:modifyTexture(name, texture)
    local modified = modifyTexture and modifyTexture(api, name, texture) or false
    local variation = name:match('lg_floor_placeholder_(.)_d%%.tga')
    local colour = variation and colours[variation]
    if colour then
      for channel = 1, 3 do texture:select(3, channel):mul(colour[channel] / 255) end
      return true
    end
    return modified
  end
end

%s

return api
)";

std::unique_ptr<Engine> Started(const std::string& name, const std::string& decorations) {
  char source[8192];
  std::snprintf(source, sizeof source, kLevel, decorations.c_str());
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel(name, source));
  if (engine == nullptr) return nullptr;
  const absl::Status started = engine->Start(0, 0);
  EXPECT_TRUE(started.ok()) << started;
  return started.ok() ? std::move(engine) : nullptr;
}

const std::uint8_t* Pixel(Engine& engine, int x, int y) {
  return Bytes(*engine.Observation(ObservationIndex(engine, "RGB_INTERLEAVED"))) + (y * 84 + x) * 3;
}

// Pixels near white in the frame's top-right corner (the text).
int WhiteTopRight(Engine& engine) {
  int white = 0;
  for (int y = 0; y < 6; ++y) {
    for (int x = 64; x < 84; ++x) {
      const std::uint8_t* p = Pixel(engine, x, y);
      white += p[0] > 200 && p[1] > 200 && p[2] > 200;
    }
  }
  return white;
}

TEST(DmlabDecoratorsTest, TheTimeLeftShowsTopRightAndEndsTheEpisode) {
  std::unique_ptr<Engine> plain = Started("undecorated", "");
  std::unique_ptr<Engine> timed = Started("timed", "decorateWithTimeout(api, 2)");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(timed, nullptr);
  EXPECT_EQ(WhiteTopRight(*plain), 0);
  EXPECT_GT(WhiteTopRight(*timed), 0);
  timed->Act(std::vector<int>(7, 0));
  double reward = 0;
  absl::StatusOr<EpisodeStatus> status = timed->Advance(119, &reward);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(*status, EpisodeStatus::kRunning);
  status = timed->Advance(1, &reward);  // 2 seconds at 60 frames a second
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(*status, EpisodeStatus::kTerminated);
}

// Walks east into the room beyond the teleporter.
void IntoTheRoom(Engine& engine) {
  engine.Act(Forward());
  double reward = 0;
  for (int frame = 0; frame < 120 && MazeWorldOf(engine)->pose().position.x < 8; ++frame) {
    ASSERT_TRUE(engine.Advance(1, &reward).ok());
  }
  ASSERT_DOUBLE_EQ(MazeWorldOf(engine)->pose().position.x, 8.5);
}

TEST(DmlabDecoratorsTest, EachVariationsFloorIsRecolouredAndTheRestIsNot) {
  const std::string colours =
      "decorateWithFloorColours(api, {A = {255, 0, 0}, ['0'] = {255, 255, 128}})";
  std::unique_ptr<Engine> plain = Started("plain_floor", "");
  std::unique_ptr<Engine> coloured = Started("coloured_floor", colours);
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(coloured, nullptr);
  // The corridor's floor (no variation): less blue, the same red and green.
  const std::uint8_t* before = Pixel(*plain, 42, 83);
  const std::uint8_t* after = Pixel(*coloured, 42, 83);
  EXPECT_EQ(after[0], before[0]);
  EXPECT_EQ(after[1], before[1]);
  EXPECT_LT(after[2], before[2]);
  // The top row is ceiling, untouched.
  EXPECT_EQ(std::memcmp(Pixel(*plain, 0, 0), Pixel(*coloured, 0, 0), 84 * 3), 0);
  // In the room (variation A), its floor is red.
  IntoTheRoom(*plain);
  IntoTheRoom(*coloured);
  const std::uint8_t* grey = Pixel(*plain, 42, 83);
  const std::uint8_t* red = Pixel(*coloured, 42, 83);
  EXPECT_EQ(red[0], grey[0]);
  EXPECT_LT(red[1] + 40, grey[1]);
  EXPECT_GT(red[0], red[1] + 40);
  EXPECT_GT(red[0], red[2] + 40);
}

TEST(DmlabDecoratorsTest, TheTeleporterAndTheConsoleGetThePlayerTheApple) {
  std::unique_ptr<Engine> both =
      Started("all_decorations",
              "decorateWithTimeout(api, 60)\ndecorateWithFloorColours(api, {A = {0, 255, 0}})\n"
              "function api:canPickup(id) api.asked = (api.asked or 0) + 1 return true end\n"
              "function api:readProperty() return tostring(api.asked or 0) end");
  ASSERT_NE(both, nullptr);
  // East into the teleporter: the player lands beyond the wall, facing east
  // (the destination's angle).
  both->Act(Forward());
  double reward = 0, total = 0;
  for (int frame = 0; frame < 120 && MazeWorldOf(*both)->pose().position.x < 8; ++frame) {
    reward = 0;  // Advance adds to it
    ASSERT_TRUE(both->Advance(1, &reward).ok());
    total += reward;
  }
  EXPECT_DOUBLE_EQ(MazeWorldOf(*both)->pose().position.x, 8.5);
  // Walking on east takes the apple in the room.
  for (int frame = 0; frame < 30; ++frame) {
    reward = 0;  // Advance adds to it
    ASSERT_TRUE(both->Advance(1, &reward).ok());
    total += reward;
  }
  EXPECT_EQ(total, 1);
  // The apple behind the wall, by the console: the next frame.
  ASSERT_EQ(*both->WriteProperty("console", "dm_pickup 6"), PropertyResult::kSuccess);
  reward = 0;
  ASSERT_TRUE(both->Advance(1, &reward).ok());
  EXPECT_EQ(reward, 1);
  std::string asked;
  ASSERT_EQ(*both->ReadProperty("asked", &asked), PropertyResult::kSuccess);
  EXPECT_EQ(asked, "2");  // canPickup, for each
}

}  // namespace
}  // namespace engine_plugin
