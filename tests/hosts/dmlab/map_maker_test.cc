// map_maker:mapFromTextLevel on the DeepMind Lab host (hosts/dmlab/
// map_maker_module.h), on test_engine.so with stand-in map tools: shell
// scripts in q3map2's and bspc's places that log their arguments and make
// the files the real ones make (the real ones compile in the session
// checks: docs/dmlab.md). What is pinned: the level's map text reaches the
// tools and the engine loads the pk3 they make; the same map is not
// compiled twice; the theme and callback are the level's; a kept maker,
// bad arguments and a failed compile are errors naming what failed. And
// source maps (.map) the level names, which the engine's make_pk3_from_map
// compiles with the same tools, the same cache and the same checks.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/map_compiler.h"
#include "tests/hosts/dmlab/dmlab_testing.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::Engine;
using ::testing::HasSubstr;

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteScript(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  chmod(path.c_str(), 0755);
}

// Stand-ins for q3map2 and bspc in a folder of their own, logging each
// call to calls.log there. q3map2 -meta "compiles" by copying the .map to
// the .bsp, and fails on a map that names the texture "unusable".
std::string Tools() {
  const std::string tools = absl::StrCat(std::getenv("TEST_TMPDIR"), "/tools");
  std::filesystem::create_directories(tools);
  WriteScript(tools + "/q3map2", R"(
echo "q3map2 $*" >> "$(dirname "$0")/calls.log"
for base; do :; done
if grep -q unusable "$base.map"; then echo "texture unusable not found"; exit 1; fi
if grep -q slow "$base.map"; then sleep 2; fi
case " $* " in *" -meta "*) cp "$base.map" "$base.bsp";; esac
)");
  WriteScript(tools + "/bspc", R"(
echo "bspc $*" >> "$(dirname "$0")/calls.log"
cp "$4" "${4%.bsp}.aas"
)");
  std::filesystem::remove(tools + "/calls.log");
  return tools;
}

int Calls(const std::string& tools, const std::string& tool) {
  std::istringstream log(Read(tools + "/calls.log"));
  int count = 0;
  for (std::string line; std::getline(log, line);) count += line.rfind(tool, 0) == 0;
  return count;
}

// A level whose nextMap makes map 'room' from api.text with the settings
// api.extra adds, and answers the property 'pk3' with the path it got. It
// seeds the map maker's generator first, as DeepMind Lab's levels do
// (make_map.seedRng): the lights' strengths draw from it, so a map made
// again from the same text and seed is the same map.
constexpr char kLevel[] = R"(
local map_maker = require 'dmlab.system.map_maker'
api.text = '*****\n*P A*\n*****\n'
function api:nextMap()
  map_maker:randomGen():seed(1)
  local settings = {entityLayer = api.text, mapName = 'room',
                    callback = function(i, j, c, maker)
                      if c == 'A' then
                        api.kept = maker
                        return maker:makeEntity{i = i, j = j, classname = 'apple_reward'}
                      end
                    end}
  for key, value in pairs(api.extra or {}) do settings[key] = value end
  api.pk3 = map_maker:mapFromTextLevel(settings)
  return 'room'
end
function api:readProperty(key)
  if key == 'pk3' then return api.pk3 end
  if key == 'kept' then
    local ok, why = pcall(api.kept.makeEntity, api.kept, {i = 1, j = 1, classname = 'goal'})
    return tostring(ok) .. ' ' .. why
  end
end
function api:writeProperty(key, value)
  if key == 'text' then api.text = value return true end
  if key == 'bots' then api.extra = {allowBots = true} return true end
end
)";

std::unique_ptr<Engine> Ready(const std::string& level, const std::string& tools) {
  std::unique_ptr<Engine> engine = Created(level);
  if (engine == nullptr) return nullptr;
  EXPECT_TRUE(engine->SetSetting("dmlabTools", tools).ok());
  absl::Status init = engine->Init();
  EXPECT_TRUE(init.ok()) << init;
  return engine;
}

std::string Property(Engine& engine, const std::string& key) {
  std::string value;
  EXPECT_TRUE(engine.ReadProperty(key, &value).ok());
  return value;
}

TEST(MapMakerTest, TheLevelsMapIsCompiledAndLoaded) {
  const std::string tools = Tools();
  std::unique_ptr<Engine> engine = Ready(WriteLevel("room", kLevel), tools);
  absl::Status start = engine->Start(0, 1);
  ASSERT_TRUE(start.ok()) << start;
  const std::string pk3 = Property(*engine, "pk3");
  EXPECT_THAT(pk3, HasSubstr("/baselab/room.pk3"));
  // A zip of maps/room.bsp: the "compiled" map, the level's translated.
  EXPECT_EQ(Read(pk3).substr(0, 2), "PK");
  EXPECT_THAT(Read(pk3), HasSubstr("maps/room.bsp"));
  const std::string map = Read(pk3.substr(0, pk3.size() - 4) + ".map");
  EXPECT_THAT(map, HasSubstr("\"classname\" \"apple_reward\"\n  \"origin\" \"350 150 30\""));
  EXPECT_THAT(map, HasSubstr("\"classname\" \"info_player_start\"\n  \"origin\" \"150 150 30\""));
  // DeepMind Lab's three passes, no bots' navigation unless asked.
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  EXPECT_THAT(Read(tools + "/calls.log"),
              HasSubstr("-light -threads 8 -fast -patchshadows -samples 2 -bounce 3 -gamma 2 "
                        "-compensate 4 -dirty"));
  EXPECT_EQ(Calls(tools, "bspc"), 0);
  // The engine plays it (the test engine: as an empty corridor).
  engine->Act({0, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  EXPECT_TRUE(engine->Advance(1, &reward).ok());
}

TEST(MapMakerTest, TheSameMapIsNotCompiledAgainAndAnotherIs) {
  const std::string tools = Tools();
  std::unique_ptr<Engine> engine = Ready(WriteLevel("again", kLevel), tools);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  ASSERT_TRUE(engine->Start(1, 2).ok());
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  ASSERT_TRUE(engine->WriteProperty("text", "****\n*PA*\n****\n").ok());
  ASSERT_TRUE(engine->Start(2, 3).ok());
  EXPECT_EQ(Calls(tools, "q3map2"), 6);
  // With bots, bspc makes their navigation, and the pk3 carries it.
  ASSERT_TRUE(engine->WriteProperty("bots", "1").ok());
  ASSERT_TRUE(engine->Start(3, 4).ok());
  EXPECT_EQ(Calls(tools, "bspc"), 1);
  EXPECT_THAT(Read(Property(*engine, "pk3")), HasSubstr("maps/room.aas"));
}

// DeepMind Lab's level cache: asked before each compile with DeepMind
// Lab's key (the map's name, "_noaas_" or "_aas_", the md5 of its .map),
// handed each map compiled; a map it has is not compiled.
TEST(MapMakerTest, TheLevelCacheServesCompiledMaps) {
  EXPECT_EQ(LevelCacheKey("m", false, "abc"), "m_noaas_900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(LevelCacheKey("m", true, ""), "m_aas_d41d8cd98f00b204e9800998ecf8427e");
  std::map<std::string, std::string> stored;
  int fetches = 0, hits = 0, writes = 0;
  engine_plugin::LevelCache cache{
      [&](const std::string& key, const std::string& path) -> absl::StatusOr<bool> {
        ++fetches;
        auto found = stored.find(key);
        if (found == stored.end()) return false;
        ++hits;
        std::ofstream(path, std::ios::binary) << found->second;
        return true;
      },
      [&](const std::string& key, const std::string& path) {
        ++writes;
        stored[key] = Read(path);
        return absl::OkStatus();
      }};
  const std::string tools = Tools();
  std::unique_ptr<Engine> first = Created(WriteLevel("cached", kLevel));
  ASSERT_NE(first, nullptr);
  ASSERT_TRUE(first->SetSetting("dmlabTools", tools).ok());
  ASSERT_TRUE(first->SetLevelCache(cache).ok());
  ASSERT_TRUE(first->Init().ok());
  ASSERT_TRUE(first->Start(0, 1).ok());
  EXPECT_EQ(std::tie(fetches, hits, writes), std::make_tuple(1, 0, 1));
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  const std::string pk3 = Property(*first, "pk3");
  const std::string key = LevelCacheKey("room", false, Read(pk3.substr(0, pk3.size() - 4) + ".map"));
  ASSERT_EQ(stored.count(key), 1u);
  EXPECT_EQ(stored[key], Read(pk3));
  // Another instance (its own engine folder) fetches it, compiling nothing;
  // as DeepMind Lab does, every start asks.
  std::unique_ptr<Engine> second = Created(WriteLevel("cached", kLevel));
  ASSERT_TRUE(second->SetSetting("dmlabTools", tools).ok());
  ASSERT_TRUE(second->SetLevelCache(cache).ok());
  ASSERT_TRUE(second->Init().ok());
  ASSERT_TRUE(second->Start(0, 1).ok());
  ASSERT_TRUE(second->Start(1, 1).ok());
  EXPECT_EQ(std::tie(fetches, hits, writes), std::make_tuple(3, 2, 1));
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  EXPECT_EQ(Read(Property(*second, "pk3")), stored[key]);
  // The cache's failures fail the start, naming the cache and the key.
  cache.fetch = [](const std::string&, const std::string&) -> absl::StatusOr<bool> {
    return absl::UnavailableError("the bucket is gone");
  };
  std::unique_ptr<Engine> failing = Created(WriteLevel("cached", kLevel));
  ASSERT_TRUE(failing->SetSetting("dmlabTools", tools).ok());
  ASSERT_TRUE(failing->SetLevelCache(cache).ok());
  ASSERT_TRUE(failing->Init().ok());
  const absl::Status start = failing->Start(0, 1);
  EXPECT_THAT(start.message(), HasSubstr("the level cache, fetching 'room_noaas_"));
  EXPECT_THAT(start.message(), HasSubstr("the bucket is gone"));
  EXPECT_FALSE(failing->SetLevelCache(cache).ok());  // after init
}

TEST(MapMakerTest, AMakerKeptPastItsCallIsRefused) {
  std::unique_ptr<Engine> engine = Ready(WriteLevel("kept", kLevel), Tools());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  EXPECT_THAT(Property(*engine, "kept"),
              HasSubstr("false 'maker:makeEntity': the maker is used after its mapFromTextLevel "
                        "returned"));
}

TEST(MapMakerTest, TheLevelsThemeGivesTheTextures) {
  std::unique_ptr<Engine> engine = Ready(WriteLevel("themed", R"(
local map_maker = require 'dmlab.system.map_maker'
local theme = {}
function theme:mazeVariation(name)
  if name == 'default' then
    return {floor = {tex = 'map/my_floor'}, wallN = {tex = 'map/my_wall', width = 512}}
  end
end
function api:nextMap()
  api.pk3 = map_maker:mapFromTextLevel{entityLayer = '***\n*P*\n***\n', mapName = 'themed',
                                       theme = theme}
  return 'themed'
end
function api:readProperty(key) return api.pk3 end
)"), Tools());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  const std::string pk3 = Property(*engine, "pk3");
  const std::string map = Read(pk3.substr(0, pk3.size() - 4) + ".map");
  EXPECT_THAT(map, HasSubstr("map/my_floor 0 0 0 0.0976562 0.0976562"));
  EXPECT_THAT(map, HasSubstr("map/my_wall 0 0 0 0.195312 0.0976562"));
  // What the theme leaves out is DeepMind Lab's placeholder.
  EXPECT_THAT(map, HasSubstr("map/poltergeist 0 0 0 1.5625 1.5625"));
}

// A maker's method may ask the theme (a platform's textures) from the
// callback, or from a coroutine the callback runs: the theme runs on the
// thread that called (skymaze's levels crashed the host before).
TEST(MapMakerTest, AMakersMethodAsksTheThemeOnItsOwnThread) {
  std::unique_ptr<Engine> engine = Ready(WriteLevel("platforms", R"(
local map_maker = require 'dmlab.system.map_maker'
local theme = {}
function theme:mazeVariation(name)
  local padding = {}
  for k = 1, 50 do padding[k] = k end  -- a deeper stack than the caller's
  return {floor = {tex = 'map/floor_' .. name}, riser = {tex = 'map/my_riser'},
          tread = {tex = 'map/my_tread'}}
end
function api:nextMap()
  api.pk3 = map_maker:mapFromTextLevel{
      entityLayer = '*****\n*Pab*\n*****\n', mapName = 'platforms', theme = theme,
      callback = function(i, j, c, maker)
        if c == 'a' then return maker:addPlatform{i = i, j = j, height = 3} end
        if c == 'b' then
          return coroutine.wrap(function()
            coroutine.yield(maker:addPlatform{i = i, j = j, height = 66})
          end)()
        end
      end}
  return 'platforms'
end
function api:readProperty(key) return api.pk3 end
)"), Tools());
  absl::Status start = engine->Start(0, 1);
  ASSERT_TRUE(start.ok()) << start;
  const std::string pk3 = Property(*engine, "pk3");
  const std::string map = Read(pk3.substr(0, pk3.size() - 4) + ".map");
  EXPECT_THAT(map, HasSubstr("map/my_riser"));
  EXPECT_THAT(map, HasSubstr("map/my_tread"));
  // A platform's top takes the floor of its height, as DeepMind Lab asks
  // it: height 66 is variation 'B'.
  EXPECT_THAT(map, HasSubstr("map/floor_B"));
  EXPECT_THAT(map, HasSubstr("map/floor_default"));
}

// A map costs the level's budgets in proportion to its size, charged
// before it is made: a huge one is an error naming the budget, never a
// host that runs out of memory or time.
TEST(MapMakerTest, AMapIsChargedToTheLevelsBudgets) {
  for (const auto& [setting, value, why] :
       {std::tuple{"tensorMemoryLimitMegabytes", "1", "the tensor memory limit"},
        std::tuple{"instructionLimit", "1000000", "instructionLimit"}}) {
    std::unique_ptr<Engine> engine = Created(WriteLevel("huge", R"(
local map_maker = require 'dmlab.system.map_maker'
function api:nextMap()
  map_maker:mapFromTextLevel{entityLayer = string.rep(string.rep(' ', 99) .. '\n', 99)}
  return 'corridor'
end
)"));
    ASSERT_TRUE(engine->SetSetting("dmlabTools", Tools()).ok());
    ASSERT_TRUE(engine->SetSetting(setting, value).ok());
    absl::Status init = engine->Init();
    ASSERT_TRUE(init.ok()) << init;
    absl::Status start = engine->Start(0, 1);
    EXPECT_THAT(std::string(start.message()), HasSubstr("'map_maker:mapFromTextLevel': ")) << setting;
    EXPECT_THAT(std::string(start.message()), HasSubstr(why)) << setting;
  }
}

// Compiling runs outside the VM: its time (here 6 s, past the watchdog's
// 5 s bound for an instruction limit of 10^6) is no part of the
// callback's time bound, as DeepMind Lab's large mazes need.
TEST(MapMakerTest, CompilingIsOutsideTheWatchdogsClock) {
  std::unique_ptr<Engine> engine = Created(WriteLevel("slow", R"(
local map_maker = require 'dmlab.system.map_maker'
function api:nextMap()
  map_maker:mapFromTextLevel{entityLayer = '***\n*P*\n***\n', mapName = 'slow',
      theme = {mazeVariation = function() return {floor = {tex = 'map/slow'}} end}}
  for k = 1, 10000 do end  -- the watchdog looks at the clock every 1000 instructions
  return 'slow'
end
)"));
  ASSERT_TRUE(engine->SetSetting("dmlabTools", Tools()).ok());
  ASSERT_TRUE(engine->SetSetting("instructionLimit", "1000000").ok());
  ASSERT_TRUE(engine->Init().ok());
  absl::Status start = engine->Start(0, 1);
  EXPECT_TRUE(start.ok()) << start;
}

// The error of a start whose nextMap calls mapFromTextLevel with `call`.
std::string StartError(const std::string& name, const std::string& call,
                       const std::string& tools = Tools()) {
  std::unique_ptr<Engine> engine = Ready(WriteLevel(name, absl::StrCat(R"(
local map_maker = require 'dmlab.system.map_maker'
function api:nextMap()
  )", call, R"(
  return 'corridor'
end
)")), tools);
  absl::Status start = engine->Start(0, 1);
  EXPECT_FALSE(start.ok());
  return std::string(start.message());
}

TEST(MapMakerTest, BadArgumentsAndFailuresAreErrorsNamingThem) {
  EXPECT_THAT(StartError("no_table", "map_maker:mapFromTextLevel('x')"),
              HasSubstr("'map_maker:mapFromTextLevel': expected one table of settings, got string"));
  EXPECT_THAT(StartError("no_layer", "map_maker:mapFromTextLevel{mapName = 'x'}"),
              HasSubstr("the table has no 'entityLayer'"));
  EXPECT_THAT(StartError("bad_name", "map_maker:mapFromTextLevel{entityLayer = '*P*', "
                                     "mapName = '../x'}"),
              HasSubstr("mapName '../x' must be 1 to 64 letters"));
  EXPECT_THAT(StartError("dot", "map_maker.mapFromTextLevel{entityLayer = '*P*'}"),
              HasSubstr("expected one table of settings, got no value"));
  EXPECT_THAT(StartError("callback_fails", R"(map_maker:mapFromTextLevel{
      entityLayer = '*P*', callback = function() error('no cells today') end})"),
              HasSubstr("the callback failed: "));
  EXPECT_THAT(StartError("callback_returns", R"(map_maker:mapFromTextLevel{
      entityLayer = '*P*', callback = function() return 42 end})"),
              HasSubstr("the callback must return a string, an array of strings or nothing, "
                        "not number"));
  EXPECT_THAT(StartError("theme_fails", R"(map_maker:mapFromTextLevel{
      entityLayer = '*P*', theme = {mazeVariation = function() error('no theme') end}})"),
              HasSubstr("theme:mazeVariation: "));
  EXPECT_THAT(StartError("maker_argument", R"(map_maker:mapFromTextLevel{
      entityLayer = '*P*', callback = function(i, j, c, maker) return maker:makeEntity{i = i} end})"),
              HasSubstr("[maker:makeEntity] - the table has no 'j'"));
  EXPECT_THAT(StartError("unusable", R"(map_maker:mapFromTextLevel{entityLayer = '*P*',
      theme = {mazeVariation = function() return {floor = {tex = 'unusable'}} end}})"),
              HasSubstr("q3map2 -meta failed (exit status 1)"));
  EXPECT_THAT(StartError("unusable_log", R"(map_maker:mapFromTextLevel{entityLayer = '*P*',
      theme = {mazeVariation = function() return {floor = {tex = 'unusable'}} end}})"),
              HasSubstr("texture unusable not found"));
  const std::string empty = absl::StrCat(std::getenv("TEST_TMPDIR"), "/no_tools");
  std::filesystem::create_directories(empty);
  EXPECT_THAT(StartError("no_tools", "map_maker:mapFromTextLevel{entityLayer = '*P*'}", empty),
              HasSubstr("the engine's map compiler " + empty + "/q3map2 is missing"));
}

// A level that plays the map its property 'map' names.
constexpr char kSourceLevel[] = R"(
function api:nextMap() return api.map end
function api:writeProperty(key, value) api.map = value return true end
)";

void WriteSource(const std::string& folder, const std::string& name, const std::string& text) {
  const std::string path = absl::StrCat(Runfiles(), "/baselab/", folder);
  std::filesystem::create_directories(path);
  std::ofstream(absl::StrCat(path, "/", name, ".map")) << text;
}

// A map shipped as source in the runfiles' baselab/maps/ is compiled when
// the level names it, with the bots' navigation; in maps_no_ai/ without.
// It is compiled again only when its text changes.
TEST(MapMakerTest, ASourceMapIsCompiledWhenTheLevelNamesIt) {
  WriteSource("maps", "hall", "// hall\n");
  WriteSource("maps_no_ai", "yard", "// yard\n");
  const std::string tools = Tools();
  std::unique_ptr<Engine> engine = Ready(WriteLevel("source", kSourceLevel), tools);
  ASSERT_TRUE(engine->WriteProperty("map", "hall").ok());
  absl::Status start = engine->Start(0, 1);
  ASSERT_TRUE(start.ok()) << start;
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  EXPECT_EQ(Calls(tools, "bspc"), 1);
  EXPECT_THAT(Read(tools + "/calls.log"), HasSubstr("/baselab/hall.bsp -output"));
  double reward = 0;
  EXPECT_TRUE(engine->Advance(1, &reward).ok());
  ASSERT_TRUE(engine->Start(1, 1).ok());
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  WriteSource("maps", "hall", "// hall, rebuilt\n");
  ASSERT_TRUE(engine->Start(2, 1).ok());
  EXPECT_EQ(Calls(tools, "q3map2"), 6);
  ASSERT_TRUE(engine->WriteProperty("map", "yard").ok());
  start = engine->Start(3, 1);
  ASSERT_TRUE(start.ok()) << start;
  EXPECT_EQ(Calls(tools, "q3map2"), 9);
  EXPECT_EQ(Calls(tools, "bspc"), 2);  // hall's two, none for the yard
}

// A source map that does not compile fails the start naming the map, its
// file and the step (never the engine's exit on a map it cannot find); a
// name that is no map name, or a map found nowhere, is an error too.
TEST(MapMakerTest, ASourceMapThatFailsToCompileFailsTheStart) {
  WriteSource("maps", "broken", "// unusable\n");
  std::unique_ptr<Engine> engine = Ready(WriteLevel("broken", kSourceLevel), Tools());
  for (const auto& [map, why] :
       {std::pair{"broken", "map 'broken' (" + Runfiles() + "/baselab/maps/broken.map): "
                                                            "compiling the map: q3map2 -meta failed"},
        std::pair{"no_such", "map 'no_such' is not in " + Runfiles() + "/baselab/maps"},
        std::pair{"../broken", std::string("'../broken' is not a map name")}}) {
    ASSERT_TRUE(engine->WriteProperty("map", map).ok());
    const absl::Status start = engine->Start(0, 1);
    EXPECT_THAT(std::string(start.message()), HasSubstr(why)) << map;
  }
  ASSERT_TRUE(engine->WriteProperty("map", "corridor").ok());
  EXPECT_TRUE(engine->Start(1, 1).ok());
}

// The hook itself, as the engine calls it for a map it finds only as
// source: the path it found, relative to its home or runfiles.
TEST(MapMakerTest, TheEnginesMakePk3FromMapCompilesTheSource) {
  WriteSource("maps_no_ai", "direct", "// direct\n");
  const std::string tools = Tools();
  const std::string home = absl::StrCat(std::getenv("TEST_TMPDIR"), "/direct_home");
  Context context;
  context.set_runfiles(Runfiles());
  context.set_temp_folder(home);
  context.set_tools_folder(tools);
  const DmlabHooks& hooks = Context::Hooks();
  hooks.make_pk3_from_map(&context, "baselab/maps_no_ai/direct.map", "direct", false);
  EXPECT_TRUE(context.TakeError().ok());
  EXPECT_THAT(Read(home + "/baselab/direct.pk3"), HasSubstr("maps/direct.bsp"));
  EXPECT_EQ(Calls(tools, "q3map2"), 3);
  hooks.make_pk3_from_map(&context, "baselab/maps/gone.map", "gone", true);
  EXPECT_THAT(std::string(context.TakeError().message()),
              HasSubstr("map 'gone' (" + Runfiles() + "/baselab/maps/gone.map): cannot be read"));
  hooks.make_pk3_from_map(&context, "/etc/passwd", "direct", false);
  EXPECT_THAT(std::string(context.TakeError().message()),
              HasSubstr("make_pk3_from_map: the engine asked for map 'direct' from '/etc/passwd'"));
}

}  // namespace
}  // namespace hosts::dmlab
