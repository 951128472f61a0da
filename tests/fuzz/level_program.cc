// level_program: hostile level scripts run through the real plugin.
//
// lua_program drives the tensor module under the harness's own hook; this
// target drives what a host embeds: a level file loaded by the C ABI, in
// the sandbox, under the engine's limits and call path. The input bytes
// are decisions (decisions.h) that write a level whose callbacks (init,
// start, nextMap, hasEpisodeFinished, observeFrame, customObservation,
// readProperty, writeProperty, updateSpawnVars, createPickup, canPickup,
// pickup, canTrigger, trigger, modifyControl, screenMessages,
// filledRectangles, replaceTextureName, loadTexture, modifyTexture,
// listProperty) run
// statements aimed at the limits: loops, message handlers that loop
// (xpcall), a replaced debug.traceback, huge ranks and expands in
// printing, events and observations, tensor work over expanded views,
// memory growth, val() of huge views, option tables whose __index errors,
// and DeepMind Lab's modules (image files and scaling, made maps and
// their callbacks, doors and their triggers, pickups of any class, files
// by name, entities, matrices, visitFill, visitRandomPath, teleporters,
// the console, simplified mazes), with one to three players (ids out of
// range, frames of every player kept). Then the decisions
// drive the host: start, advance, observation, retain, events, properties,
// and listProperty visitors that call the engine back (read, write,
// start, advance, observation).
//
// Findings: a crash or sanitizer report; a hang or a run past libFuzzer's
// -timeout (every limit must stop its callback); RSS past -rss_limit_mb
// (memory outside the caps); and a broken promise of the C ABI, checked
// here: an observation() payload must not change before the next start
// or advance, whatever level code runs in between. Lua errors and refused
// calls are normal outcomes. FUZZ_PRINT_PROGRAM=1 prints each level.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/env_c_api.h"
#include "tests/fuzz/decisions.h"

namespace fuzz {
namespace {

constexpr int kMaxStatements = 4;  // per callback
constexpr int kMaxHostCalls = 12;

// Statements a hostile level runs. `SPIN` loops for ever; `ONES(n)` is a
// table of n ones; `BIG(n)` a string of 2^n bytes, made by doubling (a
// string.rep that size loops once per byte, inside one C call); `K` is a
// tensor the level keeps (and hands out as the observation KEPT without a
// copy).
constexpr const char* kStatements[] = {
    "SPIN()",
    "xpcall(SPIN, SPIN)",
    "GAME:updateTexture('textures/map/lab_games/lg_floor_placeholder_B_d.tga', tensor.ByteTensor(1, 1, 4):expand(1024, 1024, 4))",
    "V = pcall(GAME.updateTexture, GAME, a, K)",
    "for i = 1, 1e9 do GAME:updateTexture('maze/wall_Q', tensor.ByteTensor(64, 64, 4)) end",
    "debug.traceback = SPIN SPIN()",
    "debug = setmetatable({}, {__index = SPIN}) error('x')",
    "for i = 1, 1e9 do pcall(error) end",
    "coroutine.wrap(function() xpcall(SPIN, SPIN) end)()",
    "V = tostring(tensor.DoubleTensor(1):view(ONES(3)))",
    "V = tostring(tensor.DoubleTensor(1):view(ONES(65)))",
    "V = tostring(tensor.DoubleTensor(1):view(ONES(30000)))",
    "V = tostring(tensor.ByteTensor{1}:expand(SIXES(12)))",
    "V = tostring(tensor.ByteTensor{1}:expand(SIXES(30)))",
    // Bounded work per call, repeated: the watchdog must count it (l16).
    "for i = 1, 1e9 do V = tostring(tensor.ByteTensor{1}:expand(SIXES(8))) end",
    "for i = 1, 1e9 do V = tensor.ByteTensor(4000):split(1) end",
    "for i = 1, 1e9 do V = tensor.ByteTensor(2 ^ 16) end",
    "for i = 1, 1e9 do V = maze_generation.randomMazeGeneration{seed = i, height = 63,"
    " width = 63} end",
    "events:add('e', tensor.ByteTensor{1}:expand(2 ^ 30))",
    "events:add('e', tensor.DoubleTensor(3):fill(1), 'text')",
    "events:add(BIG(11))",
    "events:add('s', BIG(20))",
    "for i = 1, 5000 do events:add('e' .. i) end",
    "V = tensor.ByteTensor{1}:expand(2 ^ 50):sum()",
    "V = tensor.ByteTensor{1}:expand(2 ^ 40) == tensor.ByteTensor{1}:expand(2 ^ 40)",
    "tensor.ByteTensor{1}:expand(2 ^ 40):apply(select)",
    "V = tensor.DoubleTensor(2 ^ 12):mv(tensor.DoubleTensor(1, 1):expand(2 ^ 12, 2 ^ 30),"
    " tensor.DoubleTensor{1}:expand(2 ^ 30))",
    "local t = {} for i = 1, 2 ^ 24 do t[i] = {} end",
    "V = BIG(30)",
    "V = tensor.DoubleTensor{1}:expand(2 ^ 26):val()",
    "V = tensor.ByteTensor{1}:expand(2 ^ 24):split(1)",
    "for i = 1, 1000 do KEEP[i] = tensor.DoubleTensor(1):view(ONES(3000)) end",
    "V = tensor.ByteTensor(2 ^ 30)",
    "for i = 1, 100 do KEEP[i] = tensor.ByteTensor(2 ^ 20) end",
    "V = maze_generation.randomMazeGeneration(setmetatable({seed = 1, height = 11, width = 11},"
    " {__index = function() error('boom') end}))",
    "V = maze_generation.mazeGeneration{entity = BIG(16)}",
    // Torch7's flavour: damaged serialisations, refused files, indexing.
    "V = require('dmlab.system.torch').deserialize(BIG(10))",
    "V = require('dmlab.system.torch').deserialize('4\\n1\\n3\\nV 1\\n19\\ntorch.DoubleStorage\\n"
    "999999999\\n1', 'ascii')",
    "require('dmlab.system.torch').save('/tmp/level_program.t7', K)",
    "V = K:torch()[{{1, 2}}]:fill(3)",
    "K:fill(9)",
    "K = tensor.ByteTensor(4):fill(5)",
    "error(setmetatable({}, {__tostring = SPIN}))",
    "error({})",
    "V = require('..x')",
    "V = loadstring(string.dump(function() end))",
    "collectgarbage()",
    "if SAVED then SAVED('late', 'r') end",
    "V = K:clone()",
    // DeepMind Lab's modules: files, images, made maps, entities, matrices.
    "V = IMAGE.load('content:.png', BIG(12))",
    "V = IMAGE.load('../../../etc/passwd.png')",
    "V = IMAGE.load('/dev/zero.png')",
    "V = IMAGE.scale(tensor.ByteTensor(1, 1, 3), 2 ^ 20, 2 ^ 20)",
    "for i = 1, 1e9 do V = IMAGE.scale(tensor.ByteTensor(2, 2, 4), 64, 64, 'nearest') end",
    "V = IMAGE.setHue(tensor.ByteTensor{1}:expand(2 ^ 30):view(2 ^ 28, 4), 90)",
    "V = IMAGE.setMaskedPattern(K:view(1, 1, 4), K:view(1, 1, 4), {0, 0, 0}, {255, 255, 255})",
    "V = GAME:loadFileToString(GAME:runFiles() .. '/baselab/game_scripts/x')",
    "V = GAME:loadFileToString('/proc/self/mem')",
    "V = MAKER:mapFromTextLevel{mapName = 'm', entityLayer = '*****\\n*PXG*\\n*****', "
    "callback = function(i, j, c, m) return m:makeEntity{i = i, j = j, classname = 'goal'} end}",
    "V = MAKER:mapFromTextLevel{entityLayer = '*****\\n*PX *\\n*****', callback = SPIN}",
    "V = MAKER:mapFromTextLevel{entityLayer = BIG(12), callback = function() "
    "return setmetatable({}, {__len = SPIN}) end}",
    "for i = 1, 1e9 do MAKER:mapFromTextLevel{mapName = 'm' .. i, entityLayer = '*P*\\n' .. "
    "BIG(16)} end",
    "V = MAKER:randomGen():uniformInt(1, 2 ^ 52)",
    // Several players: ids out of range, odd ones, kept frames of each.
    "V = GAME:playerInfo(3)",
    "V = GAME:playerInfo(0/0)",
    "GAME:addScore(2, 1)",
    "GAME:addScore(2 ^ 62, 0/0)",
    "V = GAME:playerInfo(2).pos",
    "require('dmlab.system.players'):finish(2)",
    "require('dmlab.system.players'):finish(1, 'truncated')",
    "V = require('dmlab.system.players'):status(0/0)",
    "if a and type(a) == 'userdata' and a:dim() == 4 then K = a:select(1, 2) end",
    "V = ENTITIES:entities(ONES(100000))",
    "for i = 1, 1e9 do V = TRANSFORM.rotate(i, {0, 0, 1}) end",
    "V = maze_generation.randomMazeGeneration{seed = 1, height = 63, width = 63, "
    "roomSpawnCount = 2 ^ 30, roomObjectCount = 3, maxRooms = 26, maxVariations = 2}",
    "V = maze_generation.mazeGeneration{height = 63, width = 63} "
    "V:visitFill{cell = {2, 2}, wall = '', func = SPIN}",
    "V = maze_generation.mazeGeneration{height = 63, width = 63} V:visitFill{cell = {2, 2}, "
    "wall = '', func = function(i, j) V:setEntityCell(i, j, '*') KEEP[#KEEP + 1] = {i, j} end}",
    "V = maze_generation.mazeGeneration{height = 3, width = 3}:toWorldPos(2 ^ 62, -2 ^ 62)",
    "for i = 1, 1e9 do V = debug.getinfo(i) end",
    "V = debug.getinfo(1, 'f')",
    "V = maze_generation.mazeGeneration{height = 63, width = 63} "
    "V:visitRandomPath{seed = 1, from = {2, 2}, to = {62, 62}, wall = '', func = SPIN}",
    "V = maze_generation.randomMazeGeneration{seed = 2, height = 63, width = 63, hasDoors = "
    "true, object = '~', roomObjectCount = 2 ^ 30}",
    "MADE = MAKER:mapFromTextLevel{mapName = 'm', entityLayer = '******\\n*PIDx*\\n******\\n', "
    "callback = function(i, j, c, m) if c == 'D' then return m:makeFenceDoor{i = i, j = j} end "
    "if c == 'x' then return {m:makeEntity{i = i, j = j, classname = 'x', attributes = {id = "
    "'1', wait = '0.01', count = BIG(20)}}, m:makeDoor{i = i, j = j}} end end}",
    // Teleporters as DeepMind Lab's custom_entities writes them: brushes
    // (nested), two entities in one string, an angle that is no number.
    "MADE = MAKER:mapFromTextLevel{mapName = 't', entityLayer = '*******\\n*PT*t *\\n*******\\n', "
    "callback = function(i, j, c) if c == 'T' then return '{ \"classname\" \"misc_model\" "
    "\"origin\" \"350 150 0\" } { \"classname\" \"trigger_teleport\" \"target\" \"d\" "
    "{ ( 1 2 3 ) { } } }' end if c == 't' then return '{ \"classname\" "
    "\"misc_teleporter_dest\" \"targetname\" \"d\" \"origin\" \"450 150 48\" \"angle\" "
    "\"' .. BIG(4) .. '\" }' end end}",
    "GAME:console('dm_pickup 1') GAME:console('dm_pickup ' .. BIG(8))",
    "GAME:console('dm_pickup 0') GAME:finishMap()",
    "for i = 1, 1e9 do GAME:console('dm_pickup ' .. i) end",
    "V = maze_generation.randomMazeGeneration{seed = 5, height = 63, width = 63, simplify = true, "
    "maxRooms = 0, extraConnectionProbability = 1}",
    // Issue 53's limits: output through print, module work in loops, what
    // modules return onto the heap, colliding strings, long wall strings.
    "for i = 1, 1e9 do print(BIG(12)) end",
    "for i = 1, 1e9 do V = GAME:pickups() end",
    "for i = 1, 1e9 do V = ENTITIES:entities() end",
    "for i = 1, 1e9 do V = maze_generation.randomMazeGeneration{seed = i, height = 21, "
    "width = 21, retryCount = 1000000} end",
    "V = MAKER:mapFromTextLevel{entityLayer = 'P' .. string.rep('\\n', 2 ^ 20)}",
    "V = MAKER:mapFromTextLevel{entityLayer = 'P  ', callback = function(i, j, c) "
    "if c ~= 'P' then return string.rep('{\\n\"classname\" \"apple_reward\"\\n}\\n', 2 ^ 14) end end}",
    "V = MAKER:mapFromTextLevel{entityLayer = 'P ', callback = function(i, j, c, m) "
    "if c == ' ' then return m:makeEntity{i = i, j = j, classname = 'x', attributes = "
    "{a = BIG(20), b = BIG(20), c = BIG(20)}} end end}",
    "SPAWN_BIG = BIG(20)",
    "local head = BIG(10) for i = 1, 1e9 do KEEP[i] = head .. string.char(i % 256, "
    "math.floor(i / 256) % 256) .. 'tail' end",
    "V = maze_generation.mazeGeneration{height = 63, width = 63} V:visitFill{cell = {2, 2}, "
    "wall = BIG(20), func = function() end}",
};

constexpr const char* kCallbacks[] = {"init",
                                      "start",
                                      "hasEpisodeFinished",
                                      "observeFrame",
                                      "readProperty",
                                      "writeProperty",
                                      "customObservation",
                                      "updateSpawnVars",
                                      "createPickup",
                                      "canPickup",
                                      "pickup",
                                      "canTrigger",
                                      "trigger",
                                      "modifyControl",
                                      "screenMessages",
                                      "filledRectangles",
                                      "replaceTextureName",
                                      "loadTexture",
                                      "modifyTexture"};

// What updateSpawnVars does with the spawn variables `a`.
constexpr const char* kSpawnVarResults[] = {"a",
                                            "nil",
                                            "a.id = '1' a.wait = '0.01' return a",
                                            "a.classname = 'x' return a",
                                            "a.spawnflags = '1' return a",
                                            "a.origin = '1e300 0 0' return a",
                                            "a.count = '-1e308' return a",
                                            "a.big = SPAWN_BIG or BIG(16) return a",
                                            "{}"};

// What the pickup and trigger callbacks return.
constexpr const char* kCreatePickupResults[] = {"nil",
                                                "{quantity = 1, type = 9}",
                                                "{quantity = -1e308, type = 10}",
                                                "{quantity = 0/0, type = 9}",
                                                "{type = 1}",
                                                "'x'",
                                                "K"};
constexpr const char* kAnswers[] = {"nil", "true", "false", "0", "0.01", "1e308", "0/0", "'x'"};
constexpr const char* kControls[] = {
    "a", "nil", "{moveBackForward = 1e308, lookLeftRight = -1e308, buttonsDown = 2 ^ 62}",
    "{lookDownUp = 0/0}", "7"};
constexpr const char* kRectangles[] = {
    "{{x = -1e308, y = 0, width = 1e308, height = 1e308, rgba = {1, 0, 0, 0.5}}}",
    "{{x = 0, y = 0, width = 640, height = 480, rgba = {0/0, 2, -1, 1}}}", "ONES(2000)", "{{}}",
    "7"};

constexpr const char* kMessages[] = {
    "{{message = BIG(6), x = 1e308, y = -1e308, alignment = 2, rgba = {0/0, 1, 1, 1}}}",
    "{{message = '^1^^^' .. string.char(0, 200, 255) .. '^', x = 320, y = 240, alignment = 1}}",
    "{{message = 'x', shadow = 1}}",
    "{{message = 'x', alignment = 0.5}}",
    "MESSAGES(1024)",
    "ONES(3)",
    "7"};

// The texture callbacks' answers (`a` is the name they were given).
constexpr const char* kTextureNames[] = {"nil", "a", "'maze/door'", "BIG(10)", "'x'", "7"};
constexpr const char* kTextureImages[] = {"nil",
                                          "tensor.ByteTensor(2, 3, 4):fill(9)",
                                          "tensor.ByteTensor(1, 1, 4):expand(1024, 1024, 4)",
                                          "tensor.ByteTensor(1025, 1, 4)",
                                          "K",
                                          "tensor.ByteTensor(4, 4, 4):transpose(1, 2)"};

// What nextMap returns: corridors with pickups, doors and other
// characters, or the map a statement made.
constexpr const char* kMaps[] = {"'*******\\n*PAIG *\\n*******\\n'",
                                 "'*****\\n*P~H*\\n*A G*\\n*****\\n'", "MADE or ''"};

// What customObservation returns for KEPT.
constexpr const char* kObservationResults[] = {"K",
                                               "K",
                                               "K:clone()",
                                               "tensor.ByteTensor(1):expand(4)",
                                               "tensor.DoubleTensor(4)",
                                               "nil",
                                               "'text'",
                                               "tensor.ByteTensor(4, 1):select(2, 1)"};

// listProperty's listing.
constexpr const char* kListings[] = {
    "visit('a', 'rw') visit('b', 'r')", "for i = 1, 3 do visit('k' .. i, 'rwl') end",
    "SAVED = visit visit('x', 'r')",    "visit(1, 2)",
    "visit('a', 'r') SPIN()",
};

class LevelWriter {
 public:
  explicit LevelWriter(Decisions& in) : in_(in) {}

  std::string Write() {
    out_ << "local tensor = require 'dmlab.system.tensor'\n"
            "local events = require 'dmlab.system.events'\n"
            "local maze_generation = require 'dmlab.system.maze_generation'\n"
            "local IMAGE = require 'dmlab.system.image'\n"
            "local MAKER = require 'dmlab.system.map_maker'\n"
            "local GAME = require 'dmlab.system.game'\n"
            "local ENTITIES = require 'dmlab.system.game_entities'\n"
            "local TRANSFORM = require 'dmlab.system.transform'\n"
            "local function SPIN() while true do end end\n"
            "local function ONES(n) local t = {} for i = 1, n do t[i] = 1 end return t end\n"
            "local function SIXES(n) local t = {} for i = 1, n do t[i] = 6 end return t end\n"
            "local function BIG(n) local s = 'x' for i = 1, n do s = s .. s end return s end\n"
            "local function MESSAGES(n) local t = {} for i = 1, n do\n"
            "  t[i] = {message = string.rep('W', 79), x = i, y = i} end return t end\n"
            "local V, KEEP, SAVED, MADE, K = nil, {}, nil, nil, tensor.ByteTensor(4):fill(1)\n"
            "local api = {}\n";
    out_ << "function api:nextMap() return " << PickFrom(in_, kMaps)
         << " end\n"
            "function api:customObservationSpec()\n"
            "  return {{name = 'KEPT', type = 'Bytes', shape = {4}}}\n"
            "end\n";
    for (const char* callback : kCallbacks) {
      if (in_.Pick(3) == 0) continue;
      out_ << "function api:" << callback << "(a, b)\n";
      Statements();
      if (std::strcmp(callback, "customObservation") == 0) {
        out_ << "  return " << PickFrom(in_, kObservationResults) << "\n";
      } else if (std::strcmp(callback, "hasEpisodeFinished") == 0) {
        out_ << "  return " << (in_.Pick(4) == 0 ? "true" : "false") << "\n";
      } else if (std::strcmp(callback, "readProperty") == 0) {
        out_ << "  return " << (in_.Pick(2) ? "'v'" : "K") << "\n";
      } else if (std::strcmp(callback, "writeProperty") == 0) {
        out_ << "  K:fill(tonumber(b) or 0) return true\n";
      } else if (std::strcmp(callback, "updateSpawnVars") == 0) {
        const std::string result = PickFrom(in_, kSpawnVarResults);
        out_ << "  " << (result.find("return") == std::string::npos ? "return " : "") << result
             << "\n";
      } else if (std::strcmp(callback, "createPickup") == 0) {
        out_ << "  return " << PickFrom(in_, kCreatePickupResults) << "\n";
      } else if (std::strcmp(callback, "modifyControl") == 0) {
        out_ << "  return " << PickFrom(in_, kControls) << "\n";
      } else if (std::strcmp(callback, "filledRectangles") == 0) {
        out_ << "  return " << PickFrom(in_, kRectangles) << "\n";
      } else if (std::strcmp(callback, "screenMessages") == 0) {
        out_ << "  return " << PickFrom(in_, kMessages) << "\n";
      } else if (std::strcmp(callback, "replaceTextureName") == 0) {
        out_ << "  return " << PickFrom(in_, kTextureNames) << "\n";
      } else if (std::strcmp(callback, "loadTexture") == 0) {
        out_ << "  return " << PickFrom(in_, kTextureImages) << "\n";
      } else if (std::strcmp(callback, "modifyTexture") == 0) {
        // The lent image, changed and kept past the call.
        out_ << "  if b then b:narrow(1, 1, 1):fill(255) KEEP[#KEEP + 1] = b end\n";
        out_ << "  return " << PickFrom(in_, kAnswers) << "\n";
      } else if (std::strcmp(callback, "start") != 0 && std::strcmp(callback, "init") != 0 &&
                 std::strcmp(callback, "observeFrame") != 0) {
        out_ << "  return " << PickFrom(in_, kAnswers) << "\n";
      }
      out_ << "end\n";
    }
    if (in_.Pick(4) != 0) {
      out_ << "function api:listProperty(key, visit)\n  " << PickFrom(in_, kListings) << "\n";
      Statements();
      out_ << "end\n";
    }
    out_ << "return api\n";
    return out_.str();
  }

 private:
  void Statements() {
    for (int n = in_.Pick(kMaxStatements + 1); n > 0; --n) {
      const char* statement = PickFrom(in_, kStatements);
      if (in_.Pick(4) != 0) {
        out_ << "  pcall(function() " << statement << " end)\n";
      } else {
        out_ << "  " << statement << "\n";
      }
    }
  }

  Decisions& in_;
  Text out_;
};

// The host: a C ABI context and the payload it holds from observation()
// in the current step, with a copy of its bytes to compare against.
struct Host {
  Decisions* in;
  EnvCApi api;
  void* context = nullptr;
  int kept = -1;  // the index of KEPT
  const void* held = nullptr;
  std::vector<std::uint8_t> held_bytes;

  void NewStep() { held = nullptr; }

  void Hold() {
    EnvCApi_Observation observation;
    if (kept < 0 || api.observation(context, kept, &observation) != 0) return;
    const std::uint8_t* bytes = observation.payload.bytes;
    held = bytes;
    held_bytes.assign(bytes, bytes + 4);
  }

  // The C ABI's promise: observation() stays unchanged within a step.
  void CheckHeld() const {
    if (held == nullptr) return;
    if (std::memcmp(held, held_bytes.data(), held_bytes.size()) != 0) {
      std::fputs("level_program: an observation() payload changed within a step\n", stderr);
      std::abort();
    }
  }

  void Call(int depth);
};

// One visit of listProperty's callback: the host calls the engine back.
void Visit(void* userdata, const char*, EnvCApi_PropertyAttributes) {
  auto* host = static_cast<Host*>(userdata);
  host->Call(/*depth=*/1);
}

void Host::Call(int depth) {
  double reward = 0;
  const char* value = nullptr;
  switch (in->Pick(depth == 0 ? 10 : 6)) {
    case 0:
      Hold();
      break;
    case 1:
      api.read_property(context, "k", &value);
      break;
    case 2:
      api.write_property(context, "k", in->Pick(2) ? "7" : "x");
      break;
    case 3:
      if (depth < 2) api.list_property(context, this, "", &Visit);
      break;
    case 4: {
      EnvCApi_Event event;
      if (api.event_count(context) > 0) api.event(context, 0, &event);
      break;
    }
    case 5: {
      // Refused when nested; when it runs, a new step begins.
      EnvCApi_RetainedObservation* handle = nullptr;
      EnvCApi_Observation observation;
      if (kept >= 0 && api.retain_observation(context, kept, &observation, &handle) == 0) {
        env_release_observation(handle);
      }
      break;
    }
    case 6:
      NewStep();
      api.start(context, in->Pick(3), in->Byte());
      break;
    case 7: {
      // Walk east along the corridors, or turn: pickups, doors and their
      // triggers are reached within a few steps of 60 frames.
      // Every player alike (7 actions each).
      const int count = api.act_discrete_count(context);
      std::vector<int> actions(count > 0 ? count : 0, 0);
      const int look = in->Pick(4) == 0 ? 512 : 0;
      for (int first = 0; first + 7 <= count; first += 7) {
        actions[first] = look;
        actions[first + 3] = 1;
      }
      if (count >= 7) api.act_discrete(context, actions.data());
      break;
    }
    default:
      NewStep();
      if (api.advance(context, 1 + in->Pick(3) * 30, &reward) == EnvCApi_EnvironmentStatus_Error) {
        api.start(context, 0, 1);
      }
      break;
  }
  if (depth == 1 && in->Pick(2) == 0) {
    // From inside the level's listProperty, a start or advance must be
    // refused and change nothing. (The engine lists its own key before it
    // calls the level: from that visit they run, and a new step begins.)
    const bool failed = in->Pick(2)
                            ? api.start(context, 0, 1) != 0
                            : api.advance(context, 1, &reward) == EnvCApi_EnvironmentStatus_Error;
    if (!failed ||
        std::strstr(api.error_message(context), "from inside a level callback") == nullptr) {
      NewStep();
    }
  }
  CheckHeld();
}

std::string LevelPath() {
  const char* directory = std::getenv("TEST_TMPDIR");
  return absl::StrCat(directory ? directory : "/tmp", "/level_program_", getpid(), ".lua");
}

// The level's file, for one input: written here, removed when the input
// is done, so that a campaign's many worker processes leave none behind.
class LevelFile {
 public:
  LevelFile(const std::string& path, const std::string& level) : path_(path) {
    std::ofstream(path_, std::ios::trunc) << level;
  }
  ~LevelFile() { std::remove(path_.c_str()); }
  LevelFile(const LevelFile&) = delete;
  LevelFile& operator=(const LevelFile&) = delete;

 private:
  const std::string& path_;
};

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Decisions in(data, size);
  const std::string level = fuzz::LevelWriter(in).Write();
  if (std::getenv("FUZZ_PRINT_PROGRAM") != nullptr) std::fputs(level.c_str(), stderr);
  static const std::string path = fuzz::LevelPath();
  const fuzz::LevelFile file(path, level);

  fuzz::Host host;
  host.in = &in;
  char error[256];
  if (env_connect(path.c_str(), &host.api, &host.context, error, sizeof(error)) != 0) return 0;
  // Small limits, so that each one is reached within milliseconds.
  const char* settings[][2] = {{"width", "8"},
                               {"players", in.Pick(2) ? "1" : in.Pick(2) ? "2" : "3"},
                               {"height", "8"},
                               {"instructionLimit", in.Pick(2) ? "5000" : "50000"},
                               {"memoryLimitMegabytes", in.Pick(2) ? "1" : "4"},
                               {"tensorMemoryLimitMegabytes", in.Pick(2) ? "1" : "4"}};
  for (const auto& [key, value] : settings) host.api.setting(host.context, key, value);
  if (host.api.init(host.context) == 0) {
    for (int i = 0; i < host.api.observation_count(host.context); ++i) {
      if (std::strcmp(host.api.observation_name(host.context, i), "KEPT") == 0) host.kept = i;
    }
    host.api.start(host.context, 0, 1);
    for (int call = 0; call < fuzz::kMaxHostCalls && !in.done(); ++call) host.Call(/*depth=*/0);
  }
  host.api.release_context(host.context);
  return 0;
}
