// dmlab.system.map_maker: maps from text levels with DeepMind Lab's entity
// callback, the maker's entities, the generator, and what the maze lacks.
#include "hosts/maze/map_maker_module.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace hosts::maze {
namespace {

using ::testing::HasSubstr;

class MapMakerModuleTest : public lua_api::LuaStateTest {
 protected:
  MapMakerModuleTest() {
    lua_api::SetTensorLimits(L, {.memory_bytes = 1 << 20});
    lua_api::RegisterRandomModule(L);
    RegisterMapMakerModule(L, &maps_);
    EXPECT_EQ(Run("map_maker = require 'dmlab.system.map_maker'"), "");
  }

  // The entity layer of the map `name`, or "(none)".
  std::string Layer(const std::string& name) {
    const MadeMap* map = maps_.Find(name);
    return map == nullptr ? "(none)" : map->entity_layer;
  }

  // The entities the callback made for map `name`: "class@origin k=v",
  // joined by "; ".
  std::string Entities(const std::string& name) {
    const MadeMap* map = maps_.Find(name);
    if (map == nullptr) return "(none)";
    std::string out;
    for (const SpawnEntity& entity : map->entities) {
      if (!out.empty()) out += "; ";
      out += entity.class_name() + "@" + *entity.Find("origin");
      for (const auto& [key, value] : entity.vars) {
        if (key != "classname" && key != "origin") out += " " + key + "=" + value;
      }
    }
    return out;
  }

  MadeMaps maps_;
};

TEST_F(MapMakerModuleTest, TheCallbackPlacesEntitiesAndTheDefaultsDoTheRest) {
  // X is a goal and Y an apple by the callback; P is the default spawn; Q,
  // unhandled, becomes floor; Z is handled with nothing.
  ASSERT_EQ(Run(R"lua(
    calls = {}
    name = map_maker:mapFromTextLevel{
        mapName = 'room',
        entityLayer = '*******\n*PXYQZ*\n*******\n',
        theme = {}, skyboxTextureName = 'sky', allowBots = false,
        callback = function(i, j, c, maker)
          calls[#calls + 1] = i .. ',' .. j .. c
          if c == 'X' then return maker:makeEntity{i = i, j = j, classname = 'goal'} end
          if c == 'Y' then
            return {maker:makeEntity{i = i, j = j, classname = 'apple_reward'}, ''}
          end
          if c == 'Z' then return '' end
        end}
    assert(name == 'room', name)
    assert(table.concat(calls, ' ') == '1,1P 1,2X 1,3Y 1,4Q 1,5Z', table.concat(calls, ' '))
  )lua"),
            "");
  // Spawn points stay in the layer; what the callback made is listed.
  EXPECT_EQ(Layer("room"), "*******\n*P    *\n*******\n");
  EXPECT_EQ(Entities("room"), "goal@250 150 0; apple_reward@350 150 0");
}

TEST_F(MapMakerModuleTest, EntitiesAreDeepMindLabsMapEntitiesAndMayMoveCells) {
  ASSERT_EQ(Run(R"lua(
    map_maker:mapFromTextLevel{
        mapName = 'moved',
        entityLayer = '*****\n*P  *\n*   *\n*****\n',
        callback = function(i, j, c, maker)
          if i == 1 and j == 1 then
            entity = maker:makeEntity{i = 2, j = 3, classname = 'goal'}
            return {maker:makeSpawnPoint{i = 1, j = 1}, entity}
          end
        end}
  )lua"),
            "");
  EXPECT_EQ(Layer("moved"), "*****\n*P  *\n*   *\n*****\n");
  EXPECT_EQ(Entities("moved"), "goal@350 150 0");
  // Row 2 of 4 from the top is 1.5 cells up; column 3 is 3.5 across.
  ASSERT_EQ(Run("assert(entity:find('\"classname\" \"goal\"', 1, true)) "
                "assert(entity:find('\"origin\" \"350 150 0\"', 1, true), entity)"),
            "");
}

// Any class, with its attributes (a pickup's class is the level's
// createPickup's business when the map loads), and DeepMind Lab's default
// doors.
TEST_F(MapMakerModuleTest, AttributesClassesAndDoorsAreKept) {
  ASSERT_EQ(Run(R"lua(
    map_maker:mapFromTextLevel{
        mapName = 'kept',
        entityLayer = '*******\n*PLIDE*\n*******\n',
        callback = function(i, j, c, maker)
          if c == 'L' then
            return maker:makeEntity{i = i, j = j, classname = 'lemon_reward',
                                    attributes = {id = '3', wait = -1}}
          end
          -- DeepMind Lab's fence doors and doors, of either orientation.
          if c == 'D' then return maker:makeFenceDoor{i = i, j = j, isEastWest = false} end
          if c == 'E' then return maker:makeDoor{i = i, j = j, isEastWest = true} end
        end}
  )lua"),
            "");
  // Doors are cells of the map; the map's door entities come of them.
  EXPECT_EQ(Layer("kept"), "*******\n*P IHI*\n*******\n");
  EXPECT_EQ(Entities("kept"), "lemon_reward@250 150 0 id=3 wait=-1");
}

TEST_F(MapMakerModuleTest, WhatTheMazeLacksIsAnErrorNamingIt) {
  const struct {
    std::string call;
    std::string says;
  } cases[] = {
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function(i, j, c, m) if c == 'X' then return m:makeEntity{i = i, j = j, "
       "classname = 'goal', attributes = 3} end end}",
       "attributes: table expected, got number"},
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function(i, j, c, m) if c == 'X' then return m:makeEntity{i = i, j = j, "
       "classname = 'goal', attributes = {id = 'a\"b'}} end end}",
       "cannot be written into a map"},
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function(i, j, c, m) if c == 'X' then m:addPlatform{i = i, j = j, height = 2} end end}",
       "'addPlatform': platforms are not supported by the maze engine (its floor is flat"},
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function(i, j, c, m) if c == 'X' then return m:makeEntity{i = 0, j = 0, "
       "classname = 'goal'} end end}",
       "lies inside a wall"},
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function() return 7 end}",
       "a string, a list of strings or nil expected"},
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function() return 'apple' end}",
       "is not entities as maker:makeEntity writes them"},
      {"map_maker:mapFromTextLevel{entityLayer = '****\\n*PX*\\n****', callback = "
       "function() error('from the callback') end}",
       "from the callback"},
      {"map_maker:mapFromTextLevel{}",
       "bad argument #1 to 'mapFromTextLevel' (entityLayer: string expected, got nil)"},
      {"map_maker:mapFromTextLevel{entityLayer = '***\\n* *\\n***'}", "spawn"},
      {"map_maker:mapFromTextLevel{entityLayer = '*P*', callback = 3}",
       "callback: function expected"},
      {"map_maker.mapFromTextLevel{entityLayer = '*P*'}",
       "bad argument #1 to 'mapFromTextLevel' (table expected, got no value)"},
      {"map_maker.randomGen()", "map_maker:randomGen(...)"},
  };
  for (const auto& [call, says] : cases) {
    SCOPED_TRACE(call);
    EXPECT_THAT(Run(call), HasSubstr(says));
  }
}

TEST_F(MapMakerModuleTest, ALaterMapReplacesOneOfTheSameName) {
  ASSERT_EQ(Run("map_maker:mapFromTextLevel{entityLayer = '***\\n*P*\\n***'}"), "");
  ASSERT_EQ(Run("map_maker:mapFromTextLevel{entityLayer = '****\\n*P *\\n****'}"), "");
  EXPECT_EQ(Layer("luamap"), "****\n*P *\n****\n");  // the default name
}

// Layers are charged to the tensor budget (1 MiB here) while kept, and
// the rows a layer is split into while it is made (twice the layer): two
// maps of 301 KB fit, and a third's rows do not.
TEST_F(MapMakerModuleTest, KeptMapsAreChargedToTheTensorBudget) {
  ASSERT_EQ(Run("row = '*' .. string.rep(' ', 600) .. '*\\n' "
                "layer = string.rep('*', 602) .. '\\n*P' .. string.rep(' ', 599) .. '*\\n' .. "
                "string.rep(row, 498) .. string.rep('*', 602) .. '\\n'"),
            "");
  ASSERT_EQ(Run("map_maker:mapFromTextLevel{mapName = 'a', entityLayer = layer}"), "");
  ASSERT_EQ(Run("map_maker:mapFromTextLevel{mapName = 'a', entityLayer = layer}"), "")
      << "replacing a map releases its charge";
  ASSERT_EQ(Run("map_maker:mapFromTextLevel{mapName = 'b', entityLayer = layer}"), "");
  EXPECT_THAT(Run("map_maker:mapFromTextLevel{mapName = 'c', entityLayer = layer}"),
              HasSubstr("map 'c'"));
  EXPECT_EQ(Layer("c"), "(none)");
}

TEST_F(MapMakerModuleTest, RandomGenIsOneGeneratorOfItsOwn) {
  ASSERT_EQ(Run(R"lua(
    local gen = map_maker:randomGen()
    assert(gen == map_maker:randomGen())
    local random = require 'dmlab.system.random'
    gen:seed(7)
    local first = gen:uniformInt(1, 1000000)
    gen:seed(7)
    random:seed(7)
    random:uniformInt(1, 10)  -- the level's generator is another
    assert(gen:uniformInt(1, 1000000) == first)
  )lua"),
            "");
}

}  // namespace
}  // namespace hosts::maze
