// dmlab_context: hostile levels on the dmlab host, driving the context
// (hosts/dmlab/context.h) through tests/hosts/dmlab/test_engine.so, which
// calls the hooks as DeepMind Lab's engine does and, like it, ends the
// process on a map it cannot load or a restart with none loaded.
//
// The input bytes are decisions (decisions.h) that write a level whose
// hook callbacks (nextMap, updateSpawnVars, extraEntities,
// registerDynamicItems, createPickup, canPickup, pickup, rewardOverride,
// modifyControl, hasEpisodeFinished, mapLoaded, commandLine, gameType,
// addBots, playerMover, createModel, replaceModelName, spawnInventory,
// updateInventory, team, playerModel, gameEvent, newClientInfo) return
// odd values (models of bad tables, tensors or sizes, files outside the
// engine's, inventories of the wrong length or NaN, teams and models that
// are not names) (wrong types, huge or
// NaN numbers, too many or too long spawn variables, missing maps, names
// with paths), raise, or call the engine back (dmlab.system.game and
// .game_entities with odd arguments: huge custom views, addScore of NaN,
// raycasts of non-vectors, finishMap inside any hook, pickups_spawn's
// spawns past the queue's bound; map_maker:
// mapFromTextLevel with odd layers, themes and callbacks, a maker kept
// past its call or used from a coroutine); then the decisions
// drive the host: start, advance with any actions, observations.
//
// Findings: a crash, an abort of the test engine (the host passed it a map
// it cannot load), a sanitizer report, a hang. Errors are normal outcomes.
// FUZZ_PRINT_PROGRAM=1 prints each level.
#include <unistd.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "tests/fuzz/decisions.h"

namespace fuzz {
namespace {

constexpr int kMaxStatements = 3;  // per callback
constexpr int kMaxHostCalls = 10;

// What a callback may do first (GAME and ENTITIES are the modules).
constexpr const char* kStatements[] = {
    "GAME:finishMap()",
    "GAME:addScore(0/0)",
    "GAME:addScore(1e308)",
    "GAME:addScore(65, 1)",
    "V = GAME:playerInfo()",
    "V = GAME:raycast({0, 0, 0}, {1e308, 0, 0})",
    "V = GAME:raycast({}, 'x')",
    "V = GAME:inFov({0, 0, 0}, {1, 0, 0}, {0, 0, 0}, 0/0)",
    "V = GAME:renderCustomView{width = 8, height = 6, pos = {0, 0, 0}, look = {0, 0, 0}}",
    "V = GAME:renderCustomView{width = 1e9, height = -1, pos = {}, look = 'x'}",
    "V = GAME:screenShape()",
    "GAME:console('map_restart')",
    "GAME:console('weapnext')",
    "GAME:console('set cg_redteam_r 0.5')",
    "V = ENTITIES:entities{'apple_reward'}",
    "V = ENTITIES:entities(7)",
    "V = GAME:episodeTimeSeconds()",
    "V = GAME:tempFolder()",
    "error('raised')",
    "local t = {} for i = 1, 100000 do t[i] = i end",
    // The map maker (compiling with the stand-in tools of Folder()).
    "V = MAP:mapFromTextLevel{entityLayer = '*****\\n*PAI*\\n* H *\\n*****', mapName = 'made', "
    "theme = THEME, callback = CALLBACK}",
    "V = MAP:mapFromTextLevel{entityLayer = '***\\n*P*\\n***', mapName = 'made', "
    "skyboxTextureName = 'sky', allowBots = true, callback = CALLBACK}",
    "V = MAP:mapFromTextLevel{entityLayer = 7, mapName = {}}",
    "V = MAP:mapFromTextLevel{entityLayer = string.rep(' ', 300), mapName = '../x', "
    "ceilingHeight = 0/0}",
    "V = MAP:mapFromTextLevel{entityLayer = '*P*', drawDefaultLayout = false, "
    "cellSize = 1e308, callback = CALLBACK}",
    "if KEPT then V = KEPT:addPlatform{i = 1, j = 1, height = 3} end",
    "MAP:randomGen():seed(7)",
    // Dynamic spawns, at the engine's next frame.
    "SPAWN:spawn{classname = 'lemon_reward', origin = '300 0 0', id = 9}",
    "SPAWN:spawn{classname = 'apple_reward', origin = {}}",
    "for i = 1, 2000 do SPAWN:spawn{classname = 'x' .. i} end",
    "SPAWN:spawn{big = string.rep('x', 5000)}",
    "SPAWN.spawn(7)",
    // Models (dmlab.system.model, with the engine's files).
    "V = MODEL:sphere{radius = 0/0}",
    "V = MODEL:hierarchy{model = MODEL:cube{}, children = {centre_top_centre_p = V}}",
    "MODEL:saveMD3(MODEL:cube{size = 3}, 'models/made.md3')",
    "V = MODEL:loadMD3('models/made.md3')",
    "MODEL:saveMD3(MODEL:cube{}, '/tmp/../etc/x')",
    "V = MODEL:circularLayout(1e308, 2 ^ 40)",
};

// The theme and the callback a level's map maker calls get.
constexpr const char* kThemes[] = {
    "nil",
    "{}",
    "{mazeVariation = function() return 7 end}",
    "{mazeVariation = function() error('theme') end}",
    "{mazeVariation = function(s, v) return {floor = {tex = 'map/a', width = 0/0}, "
    "riser = {scale = 1e308}} end}",
    "{mazeVariation = function(s, v) return {} end, placeWallDecals = function(s, l) "
    "return {{index = 1e9, decal = {}}, {index = 1, decal = {tex = 'd', angle = 0/0}}} end}",
    "{mazeVariation = function(s, v) return {} end, placeFloorModels = function(s, l) "
    "table.remove(l) return {{index = #l + 1, model = {mod = 'm', scale = 2}}} end}",
    "setmetatable({}, {__index = function() error('index') end})",
};
constexpr const char* kMakers[] = {
    "nil",
    "7",
    "function(i, j, c, m) KEPT = m return m:makeEntity{i = i, j = j, classname = 'apple_reward', "
    "attributes = {id = 1}} end",
    "function(i, j, c, m) return coroutine.wrap(function() return m:addPlatform{i = i, j = j, "
    "height = 66} end)() end",
    "function() return {7} end",
    "function(i, j, c, m) return m:makeDoor{i = 1e308, j = 0/0, isEastWest = true} end",
    "function(i, j, c, m) return m:makeFenceDoor{i = i, j = j, isEastWest = 'x'} end",
    "function(i, j, c, m) return m:makeSpawnPoint{i = -1e9, j = j, angleRad = 1e308} end",
    "function() return string.rep('x', 1e6) end",
    "function() error('callback') end",
    "function(i, j, c, m) return m.makeEntity(7, {}) end",
    "function(i, j, c, m) return m:addGlassColumn{i = i, j = j, height = 1e308} end",
    "function(i, j, c, m) return MAP:mapFromTextLevel{entityLayer = '*P*'} end",
};

constexpr const char* kCallbacks[] = {"nextMap",       "updateSpawnVars",    "createPickup",
                                      "canPickup",     "pickup",             "rewardOverride",
                                      "modifyControl", "hasEpisodeFinished", "mapLoaded",
                                      "commandLine",   "gameType",           "addBots",
                                      "playerMover",   "extraEntities",      "registerDynamicItems",
                                      "createModel",   "replaceModelName",   "spawnInventory",
                                      "updateInventory", "team",             "playerModel",
                                      "gameEvent",     "newClientInfo"};

// What each callback returns (`a` is its first argument).
constexpr const char* kMaps[] = {"'corridor'", "'corridor_pickups'", "'corridor_apple'", "''", "'made'",
                                 "'nowhere'", "'../corridor'", "7", "nil", "string.rep('x', 5000)"};
constexpr const char* kSpawnVars[] = {
    "a", "nil", "{}", "7", "{classname = {}}", "(function() a.origin = '1e300 0 0' return a end)()",
    "(function() for i = 1, 70 do a['k' .. i] = 'v' end return a end)()",
    "(function() a.big = string.rep('x', 5000) return a end)()",
    "(function() a.id = 1.5 return a end)()"};
constexpr const char* kPickups[] = {
    "nil", "{name = a, classname = a, model = '', quantity = 1, type = 9}",
    "{name = a, classname = a, model = 'fruit', quantity = 1, type = 9}",
    "{name = a, classname = a, model = 'models/box.md3', quantity = 1, type = 9}",
    "{name = a, classname = a, model = '', quantity = 1e308, type = 9}",
    "{name = a, classname = a, model = '', quantity = 0/0, type = 9}",
    "{name = string.rep('n', 300), classname = a, model = '', quantity = 1, type = 9}",
    "{name = a}", "'x'", "{name = a, classname = a, model = '', quantity = 1, type = 9, "
                         "tag = -1e308, moveType = 'x'}"};
constexpr const char* kAnswers[] = {"nil", "true", "false", "0", "1e308", "0/0", "'x'", "{}",
                                    "'terminated'", "-5"};
constexpr const char* kControls[] = {"a", "nil", "7",
                                     "{moveBackForward = 1e308, lookLeftRight = 0/0, "
                                     "buttonsDown = 2 ^ 62, crouchJump = -1e308}"};
constexpr const char* kMoves[] = {"nil", "{1, 2, 3}, {0, 0, 0}", "{0/0, 1e308, 0}", "7, 8",
                                  "{}, {1}"};
constexpr const char* kBots[] = {"nil", "{}", "7", "{{name = 'x'}}", "{{name = 'x', skill = 9}}",
                                 "{{name = 'x', team = 'green'}}", "{{}}"};

constexpr const char* kExtras[] = {"nil", "7", "{}", "{{classname = 'apple_reward', origin = '150 0 0'}}",
                                   "{{}}", "{7}", "{{classname = 'goal', id = 1e308}}",
                                   "(function() local t = {} for i = 1, 2000 do "
                                   "t[i] = {classname = 'apple_reward'} end return t end)()"};
constexpr const char* kDynamicItems[] = {"nil", "{'lemon_reward'}", "{7}", "{''}",
                                         "{string.rep('x', 300)}", "{'a\\0b'}", "'x'",
                                         "{'nowhere_reward', 'goal'}"};

constexpr const char* kModels[] = {
    "nil", "MODEL:cube{size = 2}", "{surfaces = 7}", "{name = 7, surfaces = {}}",
    "MODEL:hierarchy{model = MODEL:cube{}, transform = TRANSFORM.scale{1e30, 0, 0/0}}",
    "MODEL:cube{size = 1, segments = 300}", "MODEL:loadMD3('models/box.md3')",
    "MODEL:loadMD3('../x')",
    "(function() local m = MODEL:cube{} m.surfaces.cube_surface.indices:fill(99) return m end)()",
    "(function() local m = MODEL:cone{} m.surfaces.cone_surface.vertices = 7 return m end)()"};
constexpr const char* kModelNames[] = {"nil", "'models/box.md3'", "'models/box.md3', 'p_'",
                                       "nil, 'x'", "7", "string.rep('m', 500)", "'', ''"};
constexpr const char* kInventories[] = {
    "a", "nil", "7", "(function() a.amounts = {1} return a end)()",
    "(function() a.amounts[1] = 1e308 return a end)()",
    "(function() a.stats[1] = 0/0 return a end)()", "{amounts = {}, stats = {}}"};
constexpr const char* kTeams[] = {"nil", "'r'", "'blue'", "'x'", "''", "7"};
constexpr const char* kPlayerModels[] = {"nil", "'sarge'", "7", "string.rep('m', 1000)", "''"};

const char* ResultFor(Decisions& in, const std::string& callback) {
  if (callback == "createModel") return PickFrom(in, kModels);
  if (callback == "replaceModelName") return PickFrom(in, kModelNames);
  if (callback == "spawnInventory" || callback == "updateInventory") {
    return PickFrom(in, kInventories);
  }
  if (callback == "team") return PickFrom(in, kTeams);
  if (callback == "playerModel") return PickFrom(in, kPlayerModels);
  if (callback == "extraEntities") return PickFrom(in, kExtras);
  if (callback == "registerDynamicItems") return PickFrom(in, kDynamicItems);
  if (callback == "nextMap") return PickFrom(in, kMaps);
  if (callback == "updateSpawnVars") return PickFrom(in, kSpawnVars);
  if (callback == "createPickup") return PickFrom(in, kPickups);
  if (callback == "modifyControl") return PickFrom(in, kControls);
  if (callback == "addBots") return PickFrom(in, kBots);
  if (callback == "playerMover") return PickFrom(in, kMoves);
  if (callback == "commandLine") return in.Pick(2) == 0 ? "a" : "7";
  return PickFrom(in, kAnswers);
}

std::string WriteLevel(Decisions& in) {
  Text level;
  level << "local GAME = require 'dmlab.system.game'\n"
        << "local ENTITIES = require 'dmlab.system.game_entities'\n"
        << "local MAP = require 'dmlab.system.map_maker'\n"
        << "local SPAWN = require 'dmlab.system.pickups_spawn'\n"
        << "local MODEL = require 'dmlab.system.model'\n"
        << "local TRANSFORM = require 'dmlab.system.transform'\n"
        << "local THEME = " << PickFrom(in, kThemes) << "\n"
        << "local CALLBACK = " << PickFrom(in, kMakers) << "\n"
        << "KEPT = nil\n"
        << "local api = {}\n";
  for (const char* callback : kCallbacks) {
    if (in.Pick(4) == 0 && std::string(callback) != "nextMap") continue;  // not defined
    level << "function api:" << callback << "(a, ...)\n";
    for (int i = in.Pick(kMaxStatements + 1); i > 0; --i) {
      level << "  " << PickFrom(in, kStatements) << "\n";
    }
    level << "  return " << ResultFor(in, callback) << "\nend\n";
  }
  level << "return api\n";
  return level.str();
}

// The test engine beside this binary (its runfiles), or in the test's.
std::string TestEngine() {
  const std::string relative = "dmlab_tensor/tests/hosts/dmlab/test_engine.so";
  if (const char* srcdir = std::getenv("TEST_SRCDIR"); srcdir != nullptr) {
    return absl::StrCat(srcdir, "/", relative);
  }
  return absl::StrCat(std::filesystem::read_symlink("/proc/self/exe").string(), ".runfiles/",
                      relative);
}

// A folder for the level and the runfiles (the test engine's maps).
const std::string& Folder() {
  static const std::string folder = [] {
    std::string made =
        (std::filesystem::temp_directory_path() / "dmlab_context_fuzz.XXXXXX").string();
    if (mkdtemp(made.data()) == nullptr) std::abort();
    std::filesystem::create_directories(made + "/run/baselab/maps");
    for (const char* map : {"corridor", "corridor_apple", "corridor_pickups"}) {
      std::ofstream(absl::StrCat(made, "/run/baselab/maps/", map, ".bsp")) << "";
    }
    // Stand-ins for q3map2 and bspc (as tests/hosts/dmlab/map_maker_test's).
    std::filesystem::create_directories(made + "/tools");
    for (const auto& [tool, body] :
         {std::pair{"q3map2", "for base; do :; done\n"
                              "case \" $* \" in *\" -meta \"*) cp \"$base.map\" \"$base.bsp\";; esac\n"},
          std::pair{"bspc", "cp \"$4\" \"${4%.bsp}.aas\"\n"}}) {
      const std::string path = absl::StrCat(made, "/tools/", tool);
      std::ofstream(path) << "#!/bin/sh\n" << body;
      std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    }
    return made;
  }();
  return folder;
}

void Drive(Decisions& in, engine_plugin::Engine& engine) {
  int episode = 0;
  for (int call = 0; call < kMaxHostCalls && !in.done(); ++call) {
    switch (in.Pick(4)) {
      case 0:
        (void)engine.Start(episode++, static_cast<std::uint64_t>(in.Byte()));
        break;
      case 3:
        (void)engine.Observation(in.Pick(3));
        break;
      default: {
        std::vector<int> actions(7);
        for (int& a : actions) a = in.Pick(5) == 0 ? INT_MIN : in.Byte() - 128;
        engine.Act(actions);
        double reward = 0;
        (void)engine.Advance(1 + in.Pick(3), &reward);
        break;
      }
    }
  }
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Decisions in(data, size);
  const std::string source = fuzz::WriteLevel(in);
  if (std::getenv("FUZZ_PRINT_PROGRAM") != nullptr) std::fprintf(stderr, "%s\n", source.c_str());
  const std::string path = fuzz::Folder() + "/level.lua";
  std::ofstream(path) << source;
  absl::StatusOr<std::unique_ptr<engine_plugin::Engine>> engine =
      engine_plugin::Engine::Create(path);
  if (!engine.ok()) return 0;
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"host", "dmlab"},
                                   {"dmlabLibrary", fuzz::TestEngine()},
                                   {"dmlabRunfiles", fuzz::Folder() + "/run"},
                                   {"dmlabTools", fuzz::Folder() + "/tools"},
                                   {"width", "8"},
                                   {"height", "6"},
                                   {"instructionLimit", "1000000"}}) {
    if (!(*engine)->SetSetting(key, value).ok()) return 0;
  }
  if ((*engine)->Init().ok()) fuzz::Drive(in, **engine);
  return 0;
}
