#include "hosts/maze/maze_generation_module.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hosts/maze/text_map.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/random.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace hosts::maze {
namespace {

using ::testing::HasSubstr;

// A fresh lua_State with the module as `mg`.
class MazeGenerationModuleTest : public lua_api::LuaStateTest {
 protected:
  MazeGenerationModuleTest() {
    RegisterMazeGenerationModule(L);
    lua_api::RegisterRandomModule(L);
    EXPECT_EQ(Run("mg = require 'dmlab.system.maze_generation'"), "");
  }

  // Runs `code`, which must leave its string result in the global `out`.
  std::string Out(const std::string& code) {
    EXPECT_EQ(Run(code), "") << code;
    lua_getglobal(L, "out");
    std::string out = lua_isstring(L, -1) ? lua_tostring(L, -1) : "(not a string)";
    lua_pop(L, 1);
    return out;
  }
};

TEST_F(MazeGenerationModuleTest, MazeFromTextNormalisesItsLayers) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{entity = '*****\\r\\n*P A\\n***', "
                "variations = '.AB\\n C'}"),
            "");
  EXPECT_EQ(Out("out = maze:entityLayer()"), "*****\n*P A*\n*****\n");
  EXPECT_EQ(Out("out = maze:variationsLayer()"), ".AB..\n.C...\n.....\n");
  EXPECT_EQ(Out("local h, w = maze:size(); out = h .. 'x' .. w"), "3x5");
  EXPECT_EQ(Out("out = tostring(maze)"), "dmlab.system.maze_generation.Maze (3 x 5)");
  EXPECT_EQ(Out("out = mg.mazeGeneration{entity = '* *'}:entityLayer()"), "* *\n")
      << "no spawn needed while a map is being built";
}

TEST_F(MazeGenerationModuleTest, MazeOfWallsIsEditedCellByCell) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{height = 3, width = 4}"), "");
  EXPECT_EQ(Out("out = maze:entityLayer()"), "****\n****\n****\n");
  EXPECT_EQ(Out("out = maze:variationsLayer()"), "....\n....\n....\n");
  ASSERT_EQ(Run("maze:setEntityCell(2, 2, 'P'); maze:setEntityCell(2, 3, 'G')"), "");
  ASSERT_EQ(Run("maze:setVariationsCell(1, 1, 'Z'); maze:setVariationsCell(1, 4, 'Y')"), "");
  ASSERT_EQ(Run("maze:setVariationsCell(1, 4, ' ')"), "") << "' ' clears a variation";
  EXPECT_EQ(Out("out = maze:getEntityCell(2, 2) .. maze:getEntityCell(2, 3) .. "
                "maze:getEntityCell(3, 4)"),
            "PG*");
  EXPECT_EQ(Out("out = maze:getVariationsCell(1, 1) .. maze:getVariationsCell(1, 4)"), "Z.");
  EXPECT_EQ(Out("out = maze:entityLayer()"), "****\n*PG*\n****\n");
  EXPECT_EQ(Out("out = maze:variationsLayer()"), "Z...\n....\n....\n");
}

// The engine reads the maze that nextMap returns, either way.
TEST_F(MazeGenerationModuleTest, TheEngineCanReadAMazeAsAMap) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{entity = '***\\n*P*\\n***'}"), "");
  lua_getglobal(L, "maze");
  const MapLayers* layers = ReadMaze(L, -1);
  ASSERT_NE(layers, nullptr);
  absl::StatusOr<TextMap> map = TextMap::FromLayers(*layers);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->spawns().size(), 1u);
  EXPECT_EQ(ReadMaze(L, LUA_GLOBALSINDEX), nullptr) << "a table is not a maze";
  lua_pop(L, 1);

  const std::string entity =
      Out("out = mg.randomMazeGeneration{seed = 3, height = 15, width = 21, apples = 4, "
          "goal = true, spawns = 1}:entityLayer()");
  const std::string variations =
      Out("out = mg.randomMazeGeneration{seed = 3, height = 15, width = 21, apples = 4, "
          "goal = true, spawns = 1}:variationsLayer()");
  absl::StatusOr<TextMap> random_map = TextMap::Parse(entity, variations);
  ASSERT_TRUE(random_map.ok()) << random_map.status();
  EXPECT_EQ(random_map->rows(), 15);
  EXPECT_EQ(random_map->cols(), 21);
  EXPECT_EQ(random_map->pickups().size(), 5u);
}

TEST_F(MazeGenerationModuleTest, RandomMazesFollowTheirOptions) {
  EXPECT_EQ(Out("out = tostring(mg.randomMazeGeneration{seed = 1})"),
            "dmlab.system.maze_generation.Maze (11 x 11)")
      << "every option but the generator has a default";
  // DeepMind Lab's way: the level's generator, drawn from in place. A
  // generator seeded with n gives the maze of seed = n, and moves on.
  EXPECT_EQ(Run("local random = require 'dmlab.system.random'\n"
                "local gen = random.Generator(8)\n"
                "local a = mg.randomMazeGeneration{random = gen, height = 21, width = 21}\n"
                "local b = mg.randomMazeGeneration{seed = 8, height = 21, width = 21}\n"
                "assert(a:entityLayer() == b:entityLayer(), 'the generator is seeded with 8')\n"
                "local c = mg.randomMazeGeneration{random = gen, height = 21, width = 21}\n"
                "assert(a:entityLayer() ~= c:entityLayer(), 'and has moved on')"),
            "");
  // DeepMind Lab's mixerSeed mixes the seed: seed ^ (mixer << 32).
  const std::string unmixed = Out("out = mg.randomMazeGeneration{seed = 4294967301}:entityLayer()");
  lua_api::SetSeedMixer(L, 1);
  EXPECT_EQ(Out("out = mg.randomMazeGeneration{seed = 5}:entityLayer()"), unmixed);
  lua_api::SetSeedMixer(L, 0);
  EXPECT_NE(Out("out = mg.randomMazeGeneration{seed = 5}:entityLayer()"), unmixed);
  EXPECT_EQ(Run("mg.randomMazeGeneration{random = 8}"),
            "bad argument #1 to 'randomMazeGeneration' (random: dmlab.system.random.Generator "
            "expected, got number 8)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{}"),
            "bad argument #1 to 'randomMazeGeneration' (random (a generator of "
            "dmlab.system.random) or seed expected)");
  EXPECT_EQ(Run("local a = mg.randomMazeGeneration{seed = -5, height = 21, width = 21}\n"
                "local b = mg.randomMazeGeneration{seed = -5, height = 21, width = 21}\n"
                "local c = mg.randomMazeGeneration{seed = -4, height = 21, width = 21}\n"
                "assert(a:entityLayer() == b:entityLayer(), 'same seed, same maze')\n"
                "assert(a:variationsLayer() == b:variationsLayer())\n"
                "assert(a:entityLayer() ~= c:entityLayer(), 'another seed, another maze')"),
            "");
  EXPECT_EQ(Out("local m = mg.randomMazeGeneration{seed = 1, height = 7, width = 9,\n"
                "    simplify = false, maxRooms = 1, retryCount = 1,\n"
                "    roomMinSize = 1, roomMaxSize = 1,\n"
                "    extraConnectionProbability = 0, apples = 3, goal = true, spawns = 2}\n"
                "local _, apples = m:entityLayer():gsub('A', '')\n"
                "local _, goals = m:entityLayer():gsub('G', '')\n"
                "local _, spawns = m:entityLayer():gsub('P', '')\n"
                "local _, letters = m:variationsLayer():gsub('%u', '')\n"
                "out = apples .. goals .. spawns .. letters"),
            "3121");
  // DeepMind Lab's explore factory's options: spawns and goals only in the
  // rooms (the default spawn point goes once roomSpawnCount is given).
  EXPECT_EQ(Out("local m = mg.randomMazeGeneration{seed = 1, height = 11, width = 11,\n"
                "    maxRooms = 1, roomMinSize = 5, roomMaxSize = 5, maxVariations = 1,\n"
                "    hasDoors = false, spawn = 'P', roomSpawnCount = 3, object = 'G',\n"
                "    roomObjectCount = 2}\n"
                "local _, goals = m:entityLayer():gsub('G', '')\n"
                "local _, spawns = m:entityLayer():gsub('P', '')\n"
                "out = goals .. spawns"),
            "23");
}

// DeepMind Lab's game units, 100 a cell, rows counted from the bottom.
TEST_F(MazeGenerationModuleTest, WorldPositionsAreDeepMindLabsGameUnits) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{entity = '*****\\n*P  *\\n*****'}"), "");
  EXPECT_EQ(Out("local x, y = maze:toWorldPos(2, 2); out = x .. ',' .. y"), "150,150");
  EXPECT_EQ(Out("local x, y = maze:toWorldPos(1, 5); out = x .. ',' .. y"), "450,250");
  EXPECT_EQ(Out("local i, j = maze:fromWorldPos(150, 150); out = i .. ',' .. j"), "2,2");
  EXPECT_EQ(Out("local i, j = maze:fromWorldPos(499.9, 200); out = i .. ',' .. j"), "1,5");
  EXPECT_EQ(Run("maze:toWorldPos(1)"),
            "bad argument #2 to 'toWorldPos' (integer expected, got no value)");
  EXPECT_EQ(Run("maze:fromWorldPos(0, 1/0)"),
            "bad argument #2 to 'fromWorldPos' (finite number expected)");
}

// visitRandomPath walks as DeepMind Lab's does (its FindRandomPath): the
// same seed gives the same path there and here (skymaze's levels, whose
// maps are such paths, agree step for step with DeepMind's context:
// docs/dmlab.md). A 4 x 4 room, corner to corner: a walk that wanders,
// as a depth-first one does, and steps onto `to` once it is next to it.
TEST_F(MazeGenerationModuleTest, VisitRandomPathIsDeepMindLabsWalk) {
  ASSERT_EQ(Run("room = mg.mazeGeneration{entity = '******\\n*    *\\n*    *\\n*    *\\n"
                "*    *\\n******'}\n"
                "function walk(seed)\n"
                "  local cells = {}\n"
                "  room:visitRandomPath{seed = seed, from = {2, 2}, to = {5, 5},\n"
                "      func = function(i, j) cells[#cells + 1] = i .. ',' .. j end}\n"
                "  return table.concat(cells, ' ')\n"
                "end"),
            "");
  EXPECT_EQ(Out("out = walk(1)"), "2,2 3,2 4,2 5,2 5,3 4,3 4,4 3,4 2,4 2,5 3,5 4,5 5,5");
  EXPECT_NE(Out("out = walk(2)"), Out("out = walk(1)"));
}

// visitRandomPath: a path of neighbouring floor cells from `from` to `to`,
// the same for the same seed; false where none is.
TEST_F(MazeGenerationModuleTest, VisitRandomPathWalksNeighbouringFloorCells) {
  ASSERT_EQ(Run("maze = mg.randomMazeGeneration{seed = 3, height = 15, width = 15, "
                "simplify = false}\n"
                "function path(seed, wall)\n"
                "  local cells = {}\n"
                "  local found = maze:visitRandomPath{seed = seed, from = {2, 2}, to = {14, 14},\n"
                "      wall = wall, func = function(i, j) cells[#cells + 1] = {i, j} end}\n"
                "  return found, cells\n"
                "end"),
            "");
  EXPECT_EQ(Out("local found, cells = path(5)\n"
                "assert(found and cells[1][1] == 2 and cells[1][2] == 2)\n"
                "assert(cells[#cells][1] == 14 and cells[#cells][2] == 14)\n"
                "local seen = {}\n"
                "for k, c in ipairs(cells) do\n"
                "  assert(maze:getEntityCell(c[1], c[2]) ~= '*', 'through a wall')\n"
                "  assert(not seen[c[1] * 100 + c[2]], 'a cell twice')\n"
                "  seen[c[1] * 100 + c[2]] = true\n"
                "  if k > 1 then\n"
                "    local p = cells[k - 1]\n"
                "    assert(math.abs(p[1] - c[1]) + math.abs(p[2] - c[2]) == 1, 'a jump')\n"
                "  end\n"
                "end\n"
                "local again_found, again = path(5)\n"
                "assert(#again == #cells and again[#again][1] == 14)\n"
                "for k = 1, #cells do assert(again[k][1] == cells[k][1] and again[k][2] == "
                "cells[k][2]) end\n"
                "out = 'ok'"),
            "ok");
  // Walls of every floor character: no path, and func never called.
  EXPECT_EQ(Out("local found, cells = path(5, '* PAG')\n"
                "out = tostring(found) .. #cells"),
            "false0");
  EXPECT_EQ(Run("maze:visitRandomPath{seed = 1, from = {2, 2}, to = {0, 2}, func = print}"),
            "bad argument #1 to 'visitRandomPath' (to: row 0 is outside [1, 15])");
  EXPECT_THAT(Run("maze:visitRandomPath{seed = 1, from = {2, 2}, to = {2, 2}, func = function() "
                  "error('here') end}"),
              HasSubstr("'visitRandomPath': func failed at (2, 2)"));
}

// visitFill: nearest first from the cell, through floor, with distances.
TEST_F(MazeGenerationModuleTest, VisitFillWalksTheFloorNearestFirst) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{entity = '*****\\n*P *\\n** **\\n*A  *\\n*****'}"), "");
  EXPECT_EQ(Out("local seen = {}\n"
                "maze:visitFill{cell = {2, 2}, func = function(i, j, d)\n"
                "  seen[#seen + 1] = i .. j .. ':' .. d end}\n"
                "out = table.concat(seen, ' ')"),
            "22:0 23:1 33:2 43:3 42:4 44:4");
  // Other walls: 'A' blocks too.
  EXPECT_EQ(Out("local n = 0\n"
                "maze:visitFill{cell = {2, 2}, wall = '*A', func = function() n = n + 1 end}\n"
                "out = tostring(n)"),
            "5");
  EXPECT_THAT(Run("maze:visitFill{cell = {2, 2}, func = function(i, j) error('at ' .. i) end}"),
              HasSubstr("'visitFill': func failed at (2, 2)"));
  EXPECT_EQ(Run("maze:visitFill{cell = {9, 2}, func = print}"),
            "bad argument #1 to 'visitFill' (cell: row 9 is outside [1, 5])");
  EXPECT_EQ(Run("maze:visitFill{cell = {2, 2}}"),
            "bad argument #1 to 'visitFill' (func: function expected, got nil)");
}

TEST_F(MazeGenerationModuleTest, FunctionsMayBeCalledWithColonToo) {
  EXPECT_EQ(Out("out = mg:mazeGeneration{height = 2, width = 2}:entityLayer()"), "**\n**\n");
  EXPECT_EQ(Out("out = tostring(mg:randomMazeGeneration{seed = 1, height = 5, width = 5, "
                "roomMaxSize = 3})"),
            "dmlab.system.maze_generation.Maze (5 x 5)");
}

TEST_F(MazeGenerationModuleTest, ConstructorErrorsNameTheFunctionAndTheOption) {
  EXPECT_EQ(Run("mg.mazeGeneration()"),
            "bad argument #1 to 'mazeGeneration' (table expected, got no value)");
  EXPECT_EQ(Run("mg.mazeGeneration{}"),
            "bad argument #1 to 'mazeGeneration' (entity, or height and width, expected)");
  EXPECT_EQ(Run("mg.mazeGeneration{entity = '*P*', height = 3}"),
            "bad argument #1 to 'mazeGeneration' (give either entity or height and width, not "
            "both)");
  EXPECT_EQ(Run("mg.mazeGeneration{height = 3, width = 3, variations = 'A'}"),
            "bad argument #1 to 'mazeGeneration' (variations needs entity)");
  EXPECT_EQ(Run("mg.mazeGeneration{height = 3}"),
            "bad argument #1 to 'mazeGeneration' (width: integer expected, got nil)");
  EXPECT_EQ(Run("mg.mazeGeneration{height = 0, width = 3}"),
            "bad argument #1 to 'mazeGeneration' (a map of 0 x 3 cells; each side must be in "
            "[1, 1024])");
  EXPECT_EQ(Run("mg.mazeGeneration{height = 1/0, width = 3}"),
            "bad argument #1 to 'mazeGeneration' (height: integer expected, got number inf)");
  EXPECT_EQ(Run("mg.mazeGeneration{entity = 7}"),
            "bad argument #1 to 'mazeGeneration' (entity: string expected, got number 7)");
  EXPECT_EQ(Run("mg.mazeGeneration{entity = '*P*\\n*\\t*'}"),
            "bad argument #1 to 'mazeGeneration' (entity layer line 2, column 2: unknown "
            "character '\\t'; expected a printable ASCII character ('*' wall; 'P', 'A', 'G', "
            "'I', 'H' and any other on floor))");
  EXPECT_EQ(Run("mg.mazeGeneration{entity = '*P*', variations = '\\t'}"),
            "bad argument #1 to 'mazeGeneration' (variations layer line 1, column 1: unknown "
            "character '\\t'; expected a printable ASCII character ('A'..'Z' colour a region; "
            "'.', ' ' and the rest do not))");
  EXPECT_EQ(Run("mg.mazeGeneration{entity = '*P*', heigth = 3}"),
            "bad argument #1 to 'mazeGeneration' (unknown option 'heigth')");
  EXPECT_EQ(Run("mg.mazeGeneration{'*P*'}"),
            "bad argument #1 to 'mazeGeneration' (unexpected key of type number)");
}

TEST_F(MazeGenerationModuleTest, RandomMazeErrorsUseTheLuaOptionNames) {
  EXPECT_EQ(Run("mg.randomMazeGeneration(5)"),
            "bad argument #1 to 'randomMazeGeneration' (table expected, got number 5)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{maxrooms = 3}"),
            "bad argument #1 to 'randomMazeGeneration' (unknown option 'maxrooms')");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, height = 12}"),
            "bad argument #1 to 'randomMazeGeneration' (height must be odd and in [3, 1023], "
            "got 12)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, maxRooms = -1}"),
            "bad argument #1 to 'randomMazeGeneration' (maxRooms must be >= 0, got -1)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, roomMinSize = 4}"),
            "bad argument #1 to 'randomMazeGeneration' (roomMinSize must be odd and >= 1, got 4)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, height = 7}"),
            "bad argument #1 to 'randomMazeGeneration' (roomMaxSize and roomMinSize must be at "
            "most height - 2 and width - 2, got 7 for a 7 x 11 maze)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, retryCount = 0}"),
            "bad argument #1 to 'randomMazeGeneration' (retryCount must be in [1, 1000000], got 0)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, extraConnectionProbability = 2}"),
            "bad argument #1 to 'randomMazeGeneration' (extraConnectionProbability must be in "
            "[0, 1], got 2)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, extraConnectionProbability = 'x'}"),
            "bad argument #1 to 'randomMazeGeneration' (extraConnectionProbability: number "
            "expected, got string)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, apples = 1e10}"),
            "bad argument #1 to 'randomMazeGeneration' (apples: 32-bit integer expected, got "
            "number 10000000000)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = -1/0}"),
            "bad argument #1 to 'randomMazeGeneration' (seed: integer expected, got number -inf)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, goal = 1}"),
            "bad argument #1 to 'randomMazeGeneration' (goal: boolean expected, got number 1)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, spawns = -1}"),
            "bad argument #1 to 'randomMazeGeneration' (spawns must be >= 0, got -1)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, hasDoors = 'yes'}"),
            "bad argument #1 to 'randomMazeGeneration' (hasDoors: boolean expected, got string)");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, spawn = 'PP'}"),
            "bad argument #1 to 'randomMazeGeneration' (spawn: one character expected, got "
            "'PP')");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, object = '*', roomObjectCount = 1}"),
            "bad argument #1 to 'randomMazeGeneration' (object '*' must be a printable character "
            "other than ' ', '*', 'I' and 'H' (which are floor, wall and doors))");
  // DeepMind Lab's explore factories place 'O' objects.
  EXPECT_EQ(Run("assert(mg.randomMazeGeneration{seed = 1, maxRooms = 1, object = 'O', "
                "roomObjectCount = 2}:entityLayer():find('O'))"),
            "");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, height = 3, width = 3, roomMinSize = 1, "
                "roomMaxSize = 1, apples = 2, simplify = false}"),
            "bad argument #1 to 'randomMazeGeneration' (spawns + apples + goal = 2 exceed the 1 "
            "floor cells that every 3 x 3 maze has)");
  // Simplified, a tree of corridors and a room of one cell is all dead
  // ends: nothing is left.
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, height = 9, width = 9, maxRooms = 1, "
                "roomMinSize = 1, roomMaxSize = 1, apples = 1, extraConnectionProbability = 0}"),
            "'randomMazeGeneration': spawns + apples + goal = 1 exceed the 0 floor cells that "
            "simplify and the rooms' entities left");
  EXPECT_EQ(Run("mg.randomMazeGeneration{seed = 1, simplify = 1}"),
            "bad argument #1 to 'randomMazeGeneration' (simplify: boolean expected, got number 1)");
}

TEST_F(MazeGenerationModuleTest, MethodErrorsNameTheMethodAndTheArgument) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{height = 3, width = 5}"), "");
  EXPECT_EQ(Run("maze:getEntityCell()"),
            "bad argument #1 to 'getEntityCell' (integer expected, got no value)");
  EXPECT_EQ(Run("maze:getEntityCell(0, 1)"),
            "bad argument #1 to 'getEntityCell' (row 0 is outside [1, 3])");
  EXPECT_EQ(Run("maze:getVariationsCell(3, 6)"),
            "bad argument #2 to 'getVariationsCell' (column 6 is outside [1, 5])");
  EXPECT_EQ(Run("maze:setEntityCell(4, 1, 'P')"),
            "bad argument #1 to 'setEntityCell' (row 4 is outside [1, 3])");
  EXPECT_EQ(Run("maze:setEntityCell(1, 1/0, 'P')"),
            "bad argument #2 to 'setEntityCell' (integer expected, got number inf)");
  EXPECT_EQ(Run("maze:setEntityCell(1, 1, '\\n')"),
            "bad argument #3 to 'setEntityCell' (unknown entity '\\n'; expected a printable "
            "ASCII character ('*' wall; 'P', 'A', 'G', 'I', 'H' and any other on floor))");
  EXPECT_EQ(Run("maze:setEntityCell(1, 1, 'PP')"),
            "bad argument #3 to 'setEntityCell' (one character expected, got a string of "
            "length 2)");
  EXPECT_EQ(Run("maze:setEntityCell(1, 1)"),
            "bad argument #3 to 'setEntityCell' (string expected, got no value)");
  EXPECT_EQ(Run("maze:setVariationsCell(1, 1, '\\0')"),
            "bad argument #3 to 'setVariationsCell' (unknown variation '\\x00'; expected a "
            "printable ASCII character ('A'..'Z' colour a region; '.', ' ' and the rest do not))");
  EXPECT_EQ(Run("maze:setVariationsCell(1, 9, 'A')"),
            "bad argument #2 to 'setVariationsCell' (column 9 is outside [1, 5])");
  EXPECT_EQ(Out("out = maze:entityLayer() .. maze:variationsLayer()"),
            "*****\n*****\n*****\n.....\n.....\n.....\n")
      << "failed edits change nothing";
  // DeepMind Lab's levels mark cells with other characters (skymaze: '#').
  EXPECT_EQ(Run("maze:setVariationsCell(1, 1, '#') assert(maze:getVariationsCell(1, 1) == '#')"),
            "");
}

TEST_F(MazeGenerationModuleTest, MethodsNeedAColon) {
  ASSERT_EQ(Run("maze = mg.mazeGeneration{height = 3, width = 5}"), "");
  EXPECT_THAT(Run("maze.size()"),
              HasSubstr("calling 'size' on bad self (dmlab.system.maze_generation.Maze "
                        "expected, got no value); call methods with ':'"));
  EXPECT_THAT(Run("maze.getEntityCell(1, 1)"),
              HasSubstr("calling 'getEntityCell' on bad self (dmlab.system.maze_generation.Maze "
                        "expected, got number 1)"));
}

TEST_F(MazeGenerationModuleTest, LuaopenWorksWithoutPreload) {
  lua_pushcfunction(L, &luaopen_dmlab_system_maze_generation);
  ASSERT_EQ(lua_pcall(L, 0, 1, 0), 0);
  lua_getfield(L, -1, "randomMazeGeneration");
  EXPECT_TRUE(lua_isfunction(L, -1));
  lua_pop(L, 2);
}

}  // namespace
}  // namespace hosts::maze
