#include "hosts/dmlab/map_maker_module.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/module_support.h"
#include "engine_plugin/sandbox.h"
#include "hosts/dmlab/lua_fields.h"
#include "hosts/dmlab/lua_theme.h"
#include "hosts/dmlab/map_compiler.h"
#include "hosts/dmlab/text_level.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/work_meter.h"

namespace hosts::dmlab {
namespace {

using lua_api::NResultsOr;

constexpr char kMapFromTextLevel[] = "map_maker:mapFromTextLevel";

// The map maker's generator, in the registry under this key's address.
char generator_key;

Context& ContextOf(lua_State* L) { return *engine_plugin::HostOf<Context>(L); }

// lua_fields.h's readers, their errors as strings (NResultsOr's); numbers
// must be finite. An optional field that is false counts as absent, as
// DeepMind Lab reads it: levels write `cellSize = kwargs.cellSize or false`.
std::string Message(const absl::Status& status) { return std::string(status.message()); }

bool IsFalse(lua_State* L, int index, const char* key) {
  PushRawField(L, index, key);
  const bool is_false = lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1);
  lua_pop(L, 1);
  return is_false;
}

std::string StringOf(lua_State* L, int index, const char* key, std::string* out,
                     const char* function, bool required = false) {
  if (!required && IsFalse(L, index, key)) return {};
  return Message(StringField(L, index, key, out, function, required));
}

std::string NumberOf(lua_State* L, int index, const char* key, double* out,
                     const char* function, bool required = false) {
  if (!required && IsFalse(L, index, key)) return {};
  const double before = *out;
  if (absl::Status s = NumberField(L, index, key, out, function, required); !s.ok()) {
    return Message(s);
  }
  if (std::isfinite(*out)) return {};
  *out = before;
  return absl::StrCat("[", function, "] - '", key, "' must be finite");
}

std::string BoolOf(lua_State* L, int index, const char* key, bool* out, const char* function,
                   bool required = false) {
  return Message(BoolField(L, index, key, out, function, required));
}

// -- The maker a level's callback gets ----------------------------------

// The userdata: the translation's MapMaker (null once its call is over)
// and the level's theme (null for the default one).
struct MakerBox {
  MapMaker* maker;
  LuaTheme* theme;
};
constexpr char kMakerType[] = "dmlab.map_maker.Maker";

// A maker method's call: the translation's MapMaker, with the level's
// theme calling on the method's Lua thread (a coroutine of the callback
// may call it) until the call ends.
class MakerCall {
 public:
  MakerCall() = default;
  MakerCall(const MakerCall&) = delete;
  MakerCall& operator=(const MakerCall&) = delete;
  ~MakerCall() {
    if (theme_ != nullptr) theme_->Use(before_);
  }

  MapMaker* operator->() const { return maker_; }

  // Opens the call on the maker at 1, with the cell {i, j} read from the
  // table at 2; "" or the error, naming `function`.
  std::string Open(lua_State* L, const char* function, double* i, double* j) {
    // Checked by hand: luaL_checkudata would raise through this frame.
    auto* box = static_cast<MakerBox*>(lua_touserdata(L, 1));
    bool is_maker = false;
    if (box != nullptr && lua_getmetatable(L, 1)) {
      luaL_getmetatable(L, kMakerType);
      is_maker = lua_rawequal(L, -1, -2);
      lua_pop(L, 2);
    }
    if (!is_maker) {
      return absl::StrCat("'", function, "' must be called on the maker with ':' (maker:",
                          absl::string_view(function).substr(6), "{...})");
    }
    if (box->maker == nullptr) {
      return absl::StrCat("'", function,
                          "': the maker is used after its mapFromTextLevel returned");
    }
    maker_ = box->maker;
    theme_ = box->theme;
    if (theme_ != nullptr) before_ = theme_->Use(L);
    if (!lua_istable(L, 2)) {
      return absl::StrCat("'", function, "': expected a table {i = ..., j = ..., ...}, got ",
                          luaL_typename(L, 2));
    }
    if (std::string e = NumberOf(L, 2, "i", i, function, true); !e.empty()) return e;
    return NumberOf(L, 2, "j", j, function, true);
  }

 private:
  MapMaker* maker_ = nullptr;
  LuaTheme* theme_ = nullptr;
  lua_State* before_ = nullptr;
};

NResultsOr MakeEntity(lua_State* L) {
  constexpr char kName[] = "maker:makeEntity";
  MakerCall maker;
  double i, j, height = 0;
  std::string classname;
  if (std::string e = maker.Open(L, kName, &i, &j); !e.empty()) return e;
  if (std::string e = StringOf(L, 2, "classname", &classname, kName, true); !e.empty()) return e;
  if (std::string e = NumberOf(L, 2, "height", &height, kName); !e.empty()) return e;
  std::vector<std::pair<std::string, std::string>> attributes;
  PushRawField(L, 2, "attributes");
  if (lua_istable(L, -1)) {
    for (lua_pushnil(L); lua_next(L, -2) != 0; lua_pop(L, 1)) {
      // Keys and values as strings; numbers are converted on copies, so
      // lua_next's key stays as it was.
      if (lua_type(L, -2) != LUA_TSTRING || !lua_isstring(L, -1)) {
        lua_pop(L, 3);
        return absl::StrCat("'", kName, "': 'attributes' must map strings to strings");
      }
      lua_pushvalue(L, -1);
      attributes.emplace_back(lua_tostring(L, -3), lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return absl::StrCat("'", kName, "': 'attributes' must be a table");
  }
  lua_pop(L, 1);
  const std::string text = maker->Entity(i, j, height, classname, attributes);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

NResultsOr MakeSpawnPoint(lua_State* L) {
  constexpr char kName[] = "maker:makeSpawnPoint";
  MakerCall maker;
  double i, j, height = 0, angle = 0;
  if (std::string e = maker.Open(L, kName, &i, &j); !e.empty()) return e;
  if (std::string e = NumberOf(L, 2, "height", &height, kName); !e.empty()) return e;
  if (std::string e = NumberOf(L, 2, "angleRad", &angle, kName); !e.empty()) return e;
  const std::string text = maker->SpawnPoint(i, j, height, angle);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

template <bool kFence>
NResultsOr MakeDoor(lua_State* L) {
  const char* name = kFence ? "maker:makeFenceDoor" : "maker:makeDoor";
  MakerCall maker;
  double i, j;
  bool east_west = false;
  if (std::string e = maker.Open(L, name, &i, &j); !e.empty()) return e;
  if (std::string e = BoolOf(L, 2, "isEastWest", &east_west, name, true); !e.empty()) return e;
  const char direction = east_west ? 'I' : 'H';
  const std::string text = kFence ? maker->FenceDoor(i, j, direction) : maker->Door(i, j, direction);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

template <bool kGlass>
NResultsOr AddBlock(lua_State* L) {
  const char* name = kGlass ? "maker:addGlassColumn" : "maker:addPlatform";
  MakerCall maker;
  double i, j, height;
  if (std::string e = maker.Open(L, name, &i, &j); !e.empty()) return e;
  if (std::string e = NumberOf(L, 2, "height", &height, name, true); !e.empty()) return e;
  if (!(std::abs(height) <= 1000)) return absl::StrCat("'", name, "': 'height' is out of range");
  kGlass ? maker->GlassColumn(i, j, height) : maker->Platform(i, j, height);
  lua_pushliteral(L, "");
  return 1;
}

constexpr lua_api::MethodEntry kMakerMethods[] = {
    {"makeEntity", &lua_api::Raising<&MakeEntity>},
    {"makeSpawnPoint", &lua_api::Raising<&MakeSpawnPoint>},
    {"makeDoor", &lua_api::Raising<&MakeDoor<false>>},
    {"makeFenceDoor", &lua_api::Raising<&MakeDoor<true>>},
    {"addPlatform", &lua_api::Raising<&AddBlock<false>>},
    {"addGlassColumn", &lua_api::Raising<&AddBlock<true>>},
};

// [-0, +1, m] A new maker, for the translation to point at its MapMaker.
MakerBox* PushMaker(lua_State* L, LuaTheme* theme) {
  auto* box = static_cast<MakerBox*>(lua_newuserdata(L, sizeof(MakerBox)));
  box->maker = nullptr;
  box->theme = theme;
  if (luaL_newmetatable(L, kMakerType)) {
    lua_createtable(L, 0, std::size(kMakerMethods));
    for (const lua_api::MethodEntry& method : kMakerMethods) {
      lua_pushcfunction(L, method.function);
      lua_setfield(L, -2, method.name);
    }
    lua_setfield(L, -2, "__index");
  }
  lua_setmetatable(L, -2);
  return box;
}

// -- map_maker:mapFromTextLevel -----------------------------------------

// What a map costs the level's budgets (docs/levels.md), charged before it
// is made: translating a floor cell took 9.3 us here (an open 99 x 99
// map), about 8,000 Lua instructions' time; a call of the callback and a
// byte of the text it returns cost as on the maze host
// (maze/map_maker_module.cc). A floor cell's brushes, patches and light
// take up to 16 KB while the map is made, a byte of returned text itself.
// Compiling runs in q3map2, outside the sandbox's count, in time bounded
// by the map's size (kMaxTextLevelCells).
constexpr std::int64_t kWorkPerLayerByte = 8000;
constexpr std::int64_t kWorkPerCallback = 36;
constexpr std::int64_t kWorkPerEntityByte = 8;
constexpr std::size_t kMapBytesPerLayerByte = 16 << 10;

// "" if `units` of work are charged to the watchdog, else the error.
std::string ChargeWork(std::int64_t units) {
  absl::Status charged = tensor::ChargeWork(units);
  return charged.ok() ? std::string() : absl::StrCat("'", kMapFromTextLevel, "': ",
                                                     charged.message());
}

// The level's callback at stack `function` as a CellCallback; the maker it
// passes is the userdata at `maker` (its box pointed at the translation's
// MapMaker for each call). The text it returns is charged to `kept`.
CellCallback LuaCellCallback(lua_State* L, int function, int maker,
                             lua_api::TensorMemoryCharge* kept) {
  return [L, function, maker, kept](int i, int j, char c, MapMaker& map_maker)
             -> absl::StatusOr<std::optional<std::vector<std::string>>> {
    if (std::string e = ChargeWork(kWorkPerCallback); !e.empty()) {
      return absl::ResourceExhaustedError(e);
    }
    static_cast<MakerBox*>(lua_touserdata(L, maker))->maker = &map_maker;
    lua_pushvalue(L, function);
    lua_pushinteger(L, i);
    lua_pushinteger(L, j);
    lua_pushlstring(L, &c, 1);
    lua_pushvalue(L, maker);
    const int top = lua_gettop(L) - 5;
    NResultsOr called = lua_api::Call(L, 4, 1);
    if (!called.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", kMapFromTextLevel, "': the callback failed: ", called.error()));
    }
    std::optional<std::vector<std::string>> snippets;
    absl::Status status;
    auto take = [&](int index) {
      std::size_t length = 0;
      const char* chars = lua_tolstring(L, index, &length);
      if (std::string e = ChargeWork(kWorkPerEntityByte * static_cast<std::int64_t>(length));
          !e.empty()) {
        status = absl::ResourceExhaustedError(e);
        return;
      }
      if (absl::Status added = kept->Add(L, length); !added.ok()) {
        status = absl::ResourceExhaustedError(absl::StrCat(
            "'", kMapFromTextLevel, "': the callback's map text: ", added.message()));
        return;
      }
      snippets->emplace_back(chars, length);
    };
    if (lua_type(L, -1) == LUA_TSTRING) {
      snippets.emplace();
      take(-1);
    } else if (lua_istable(L, -1)) {
      snippets.emplace();
      const int size = static_cast<int>(lua_objlen(L, -1));
      for (int k = 1; status.ok() && k <= size; ++k) {
        lua_rawgeti(L, -1, k);
        if (lua_type(L, -1) == LUA_TSTRING) {
          take(-1);
        } else {
          status = absl::InvalidArgumentError(absl::StrCat(
              "'", kMapFromTextLevel, "': the callback's result ", k, " is not a string"));
        }
        lua_pop(L, 1);
      }
    } else if (!lua_isnil(L, -1)) {
      status = absl::InvalidArgumentError(
          absl::StrCat("'", kMapFromTextLevel, "': the callback must return a string, an array "
                       "of strings or nothing, not ", luaL_typename(L, -1)));
    }
    lua_settop(L, top);
    if (!status.ok()) return status;
    return snippets;
  };
}

bool IsMapName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

// The settings of mapFromTextLevel's table (at 2); "" or the error.
std::string ReadSettings(lua_State* L, TextLevelSettings* settings, std::string* map_name,
                         bool* bots) {
  const char* f = kMapFromTextLevel;
  for (std::string e : {StringOf(L, 2, "mapName", map_name, f),
                        StringOf(L, 2, "skyboxTextureName", &settings->skybox, f),
                        NumberOf(L, 2, "ceilingHeight", &settings->ceiling_height, f),
                        NumberOf(L, 2, "cellSize", &settings->cell_size, f),
                        BoolOf(L, 2, "drawDefaultLayout", &settings->draw_default_layout, f),
                        BoolOf(L, 2, "allowBots", bots, f)}) {
    if (!e.empty()) return e;
  }
  if (!IsMapName(*map_name)) {
    return absl::StrCat("'", f, "': mapName '", *map_name,
                        "' must be 1 to 64 letters, digits, '_' or '-'");
  }
  if (!(settings->ceiling_height > 0 && settings->ceiling_height <= 100)) {
    return absl::StrCat("'", f, "': ceilingHeight must be in (0, 100]");
  }
  if (!(settings->cell_size >= 1 && settings->cell_size <= 10000)) {
    return absl::StrCat("'", f, "': cellSize must be in [1, 10000]");
  }
  return {};
}

// [-0, +1, e]
NResultsOr MapFromTextLevel(lua_State* L) {
  if (std::string e = engine_plugin::CheckModuleSelf(L, "map_maker", "mapFromTextLevel");
      !e.empty()) {
    return e;
  }
  if (!lua_istable(L, 2)) {
    return absl::StrCat("'", kMapFromTextLevel, "': expected one table of settings, got ",
                        luaL_typename(L, 2));
  }
  lua_settop(L, 2);
  std::string entity_layer, variations_layer, map_name = "luamap";
  if (std::string e = StringOf(L, 2, "entityLayer", &entity_layer, kMapFromTextLevel, true);
      !e.empty()) {
    return e;
  }
  if (std::string e = StringOf(L, 2, "variationsLayer", &variations_layer, kMapFromTextLevel);
      !e.empty()) {
    return e;
  }
  TextLevelSettings settings;
  bool bots = false;
  if (std::string e = ReadSettings(L, &settings, &map_name, &bots); !e.empty()) return e;

  const Context& context = ContextOf(L);
  const MapTools tools = context.map_tools();
  if (absl::Status present = MapToolsPresent(tools); !present.ok()) {
    return absl::StrCat("'", kMapFromTextLevel, "': ", present.message());
  }

  PushRawField(L, 2, "theme");                   // 3
  PushRawField(L, 2, "callback");                // 4
  if (!lua_isnil(L, 3) && !lua_istable(L, 3)) {
    return absl::StrCat("'", kMapFromTextLevel, "': 'theme' must be a table");
  }
  if (!lua_isnil(L, 4) && !lua_isfunction(L, 4)) {
    return absl::StrCat("'", kMapFromTextLevel, "': 'callback' must be a function");
  }
  if (std::string e = ChargeWork(kWorkPerLayerByte * static_cast<std::int64_t>(
                                     std::min(entity_layer.size(), std::size_t{1} << 30)));
      !e.empty()) {
    return e;
  }
  absl::StatusOr<lua_api::TensorMemoryCharge> making =
      lua_api::ChargeTensorMemory(L, std::min(entity_layer.size(), std::size_t{1} << 30) *
                                         kMapBytesPerLayerByte);
  if (!making.ok()) {
    return absl::StrCat("'", kMapFromTextLevel, "': map '", map_name, "' from a layer of ",
                        entity_layer.size(), " bytes: ", making.status().message());
  }
  lua_api::TensorMemoryCharge kept;  // the callback's text
  std::unique_ptr<LuaTheme> lua_theme = lua_istable(L, 3) ? NewLuaTheme(L, 3) : nullptr;
  DefaultTheme default_theme;
  Theme& theme = lua_theme != nullptr ? static_cast<Theme&>(*lua_theme) : default_theme;
  MakerBox* box = PushMaker(L, lua_theme.get());  // 5
  lua_pushlightuserdata(L, &generator_key);       // 6
  lua_rawget(L, LUA_REGISTRYINDEX);
  lua_api::LuaRandom* random = lua_api::LuaRandom::Read(L, 6);
  if (random == nullptr) return "'map_maker:mapFromTextLevel': the map maker has no generator";
  const CellCallback callback =
      lua_isnil(L, 4) ? CellCallback([](int, int, char, MapMaker&) {
        return absl::StatusOr<std::optional<std::vector<std::string>>>(std::nullopt);
      })
                      : LuaCellCallback(L, 4, 5, &kept);
  absl::StatusOr<std::string> map =
      TranslateTextLevel(entity_layer, variations_layer, settings,
                         theme, random,
                         callback);
  *box = {nullptr, nullptr};  // a kept maker is refused from now on
  if (!map.ok()) return absl::StrCat("'", kMapFromTextLevel, "': ", map.status().message());

  const std::string folder = context.temp_folder() + "/baselab";
  // The cache, the compile and their copies run outside the VM: their time
  // is no part of the callback's time bound (DeepMind Lab's own large
  // mazes take over 10 s here to compile).
  const auto began = std::chrono::steady_clock::now();
  const absl::Status status = MakePk3(tools, context.level_cache(), folder, map_name, bots, *map);
  engine_plugin::ExcludeFromWatchdogClock(
      L, std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - began)
             .count());
  if (!status.ok()) {
    return absl::StrCat("'", kMapFromTextLevel, "': map '", map_name, "': ", status.message());
  }
  lua_settop(L, 0);
  lua_pushstring(L, (folder + "/" + map_name + ".pk3").c_str());
  return 1;
}

// [-0, +1, e]
NResultsOr RandomGen(lua_State* L) {
  if (std::string e = engine_plugin::CheckModuleSelf(L, "map_maker", "randomGen"); !e.empty()) {
    return e;
  }
  lua_pushlightuserdata(L, &generator_key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  return 1;
}

constexpr lua_api::MethodEntry kMapMakerFunctions[] = {
    {"randomGen", &lua_api::Raising<&RandomGen>},
    {"mapFromTextLevel", &lua_api::Raising<&MapFromTextLevel>},
};

// [-0, +1, e] Makes the generator (random.Generator(0)) randomGen returns.
int OpenMapMaker(lua_State* L) {
  engine_plugin::StoreNewGenerator(L, &generator_key);
  engine_plugin::PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kMapMakerFunctions);
  return 1;
}

}  // namespace

void RegisterMapMakerModule(lua_State* L, Context* context) {
  lua_api::SetPreload(L, "dmlab.system.map_maker", &OpenMapMaker, context);
}

}  // namespace hosts::dmlab
