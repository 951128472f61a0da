#include "hosts/dmlab/lua_theme.h"

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hosts/dmlab/lua_fields.h"
#include "lua_api/lua/call.h"

namespace hosts::dmlab {
namespace {

// A level's theme table: textures from theme:mazeVariation(name), asked
// once a variation; decals and models from its place* functions.
class TableTheme final : public LuaTheme {
 public:
  TableTheme(lua_State* L, int index) : L_(L) {
    lua_pushvalue(L, index);
    table_ = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  ~TableTheme() override {
    for (const auto& [variation, ref] : variations_) luaL_unref(L_, LUA_REGISTRYINDEX, ref);
    luaL_unref(L_, LUA_REGISTRYINDEX, table_);
  }

  lua_State* Use(lua_State* L) override { return std::exchange(L_, L); }

  absl::StatusOr<ThemeTexture> Floor(int v) override { return Texture("floor", v); }
  absl::StatusOr<ThemeTexture> Ceiling(int v) override { return Texture("ceiling", v); }
  absl::StatusOr<ThemeTexture> Wall(int v, WallSide side) override {
    static constexpr const char* kWalls[] = {"wallN", "wallE", "wallS", "wallW"};
    return Texture(kWalls[static_cast<int>(side)], v);
  }
  absl::StatusOr<ThemeTexture> Riser() override { return Texture("riser", 0); }
  absl::StatusOr<ThemeTexture> Tread() override { return Texture("tread", 0); }

  absl::StatusOr<std::vector<std::pair<int, ThemeTexture>>> WallDecals(
      const std::vector<WallSpot>& spots) override {
    static constexpr const char* kSides[] = {"N", "E", "S", "W"};
    std::vector<std::pair<int, ThemeTexture>> decals;
    absl::Status status = Place(
        "placeWallDecals", spots.size(),
        [&](std::size_t k) {
          SetNumber("i", spots[k].row);
          SetNumber("j", spots[k].col);
          SetNumber("variation", spots[k].variation);
          lua_pushstring(L_, kSides[static_cast<int>(spots[k].side)]);
          lua_setfield(L_, -2, "direction");
        },
        "decal", [&](int index) -> absl::Status {
          absl::StatusOr<ThemeTexture> texture = ReadTexture(lua_gettop(L_), "placeWallDecals");
          if (!texture.ok()) return texture.status();
          decals.emplace_back(index, *texture);
          return absl::OkStatus();
        });
    if (!status.ok()) return status;
    return decals;
  }

  absl::StatusOr<std::vector<std::pair<int, ThemeModel>>> FloorModels(
      const std::vector<FloorSpot>& spots) override {
    std::vector<std::pair<int, ThemeModel>> models;
    absl::Status status = Place(
        "placeFloorModels", spots.size(),
        [&](std::size_t k) {
          SetNumber("i", spots[k].row);
          SetNumber("j", spots[k].col);
          SetNumber("variation", spots[k].variation);
        },
        "model", [&](int index) -> absl::Status {
          ThemeModel model;
          const int t = lua_gettop(L_);
          for (const absl::Status& s :
               {StringField(L_, t, "mod", &model.name, "placeFloorModels", false),
                NumberField(L_, t, "scale", &model.scale, "placeFloorModels", false),
                NumberField(L_, t, "angle", &model.angle, "placeFloorModels", false)}) {
            if (!s.ok()) return s;
          }
          if (!std::isfinite(model.scale) || !std::isfinite(model.angle)) {
            return absl::InvalidArgumentError(
                "[placeFloorModels] - a model's scale and angle must be finite");
          }
          models.emplace_back(index, model);
          return absl::OkStatus();
        });
    if (!status.ok()) return status;
    return models;
  }

 private:
  void SetNumber(const char* key, double value) {
    lua_pushnumber(L_, value);
    lua_setfield(L_, -2, key);
  }

  // [-0, +0, -] Calls theme:<callback>(spots) if the theme has it, and
  // reads each {index = k, <field> = {...}} of its result with `read`
  // (the field's table on top).
  template <typename Fill, typename Read>
  absl::Status Place(const char* callback, std::size_t count, Fill fill, const char* field,
                     Read read) {
    lua_rawgeti(L_, LUA_REGISTRYINDEX, table_);
    const int table = lua_gettop(L_);
    PushRawField(L_, table, callback);
    if (lua_isnil(L_, -1)) {
      lua_settop(L_, table - 1);
      return absl::OkStatus();
    }
    lua_pushvalue(L_, table);
    lua_createtable(L_, static_cast<int>(count), 0);
    for (std::size_t k = 0; k < count; ++k) {
      lua_createtable(L_, 0, 5);
      SetNumber("index", static_cast<double>(k + 1));
      fill(k);
      lua_rawseti(L_, -2, static_cast<int>(k + 1));
    }
    lua_api::NResultsOr called = lua_api::Call(L_, 2, 1);
    if (!called.ok()) {
      lua_settop(L_, table - 1);
      return absl::InvalidArgumentError(absl::StrCat("theme:", callback, ": ", called.error()));
    }
    const int result = lua_gettop(L_);
    absl::Status status;
    if (!lua_isnil(L_, result) && !lua_istable(L_, result)) {
      status = absl::InvalidArgumentError(
          absl::StrCat("theme:", callback, " must return an array of tables"));
    }
    const int size = lua_istable(L_, result) ? static_cast<int>(lua_objlen(L_, result)) : 0;
    for (int k = 1; status.ok() && k <= size; ++k) {
      lua_rawgeti(L_, result, k);
      double index = 0;
      std::string e =
          lua_istable(L_, -1)
              ? std::string(NumberField(L_, -1, "index", &index, callback, true).message())
              : absl::StrCat("[", callback, "] - entry ", k, " is not a table");
      if (e.empty() && !(index >= 1 && index <= static_cast<double>(count))) {
        e = absl::StrCat("[", callback, "] - index ", index, " is out of range 1..", count);
      }
      if (e.empty()) {
        PushRawField(L_, -1, field);
        status = lua_istable(L_, -1) ? read(static_cast<int>(index) - 1)
                                     : absl::InvalidArgumentError(absl::StrCat(
                                           "[", callback, "] - entry ", k, " has no table '",
                                           field, "'"));
        lua_pop(L_, 1);
      } else {
        status = absl::InvalidArgumentError(e);
      }
      lua_pop(L_, 1);
    }
    lua_settop(L_, table - 1);
    return status;
  }

  // {tex, width, height, scale, angle} at `t`.
  absl::StatusOr<ThemeTexture> ReadTexture(int t, const char* what) {
    ThemeTexture texture;
    double width = texture.width, height = texture.height;
    for (const absl::Status& s : {StringField(L_, t, "tex", &texture.name, what, false),
                                  NumberField(L_, t, "width", &width, what, false),
                                  NumberField(L_, t, "height", &height, what, false),
                                  NumberField(L_, t, "scale", &texture.scale, what, false),
                                  NumberField(L_, t, "angle", &texture.angle, what, false)}) {
      if (!s.ok()) return s;
    }
    if (!std::isfinite(texture.scale) || !std::isfinite(texture.angle)) {
      return absl::InvalidArgumentError(
          absl::StrCat("[", what, "] - a texture's scale and angle must be finite"));
    }
    if (!(width >= 1 && width <= 65536 && height >= 1 && height <= 65536)) {
      return absl::InvalidArgumentError(
          absl::StrCat("[", what, "] - a texture's width and height must be 1 to 65536"));
    }
    texture.width = static_cast<int>(width);
    texture.height = static_cast<int>(height);
    return texture;
  }

  // The texture `key` of `variation`'s table, falling back to the
  // default variation's, then to DeepMind Lab's placeholder.
  absl::StatusOr<ThemeTexture> Texture(const char* key, int variation) {
    auto found = variations_.find(variation);
    if (found == variations_.end()) {
      lua_rawgeti(L_, LUA_REGISTRYINDEX, table_);
      PushRawField(L_, -1, "mazeVariation");
      lua_pushvalue(L_, -2);
      if (variation == 0) {
        lua_pushliteral(L_, "default");
      } else {
        const char name = static_cast<char>(variation);
        lua_pushlstring(L_, &name, 1);
      }
      lua_api::NResultsOr called = lua_api::Call(L_, 2, 1);
      if (!called.ok()) {
        lua_pop(L_, 1);  // the table
        return absl::InvalidArgumentError(absl::StrCat("theme:mazeVariation: ", called.error()));
      }
      lua_remove(L_, -2);  // the table: its result stays
      if (!lua_istable(L_, -1)) {
        lua_pop(L_, 1);
        if (variation == 0) {
          return absl::InvalidArgumentError(
              "theme:mazeVariation('default') must return a table of textures");
        }
        variations_.emplace(variation, LUA_NOREF);
        return Texture(key, 0);
      }
      found = variations_.emplace(variation, luaL_ref(L_, LUA_REGISTRYINDEX)).first;
    }
    if (found->second == LUA_NOREF) return Texture(key, 0);
    lua_rawgeti(L_, LUA_REGISTRYINDEX, found->second);
    PushRawField(L_, -1, key);
    absl::StatusOr<ThemeTexture> texture;
    if (lua_istable(L_, -1)) {
      texture = ReadTexture(lua_gettop(L_), "theme:mazeVariation");
    } else if (!lua_isnil(L_, -1)) {
      texture = absl::InvalidArgumentError(
          absl::StrCat("theme:mazeVariation: '", key, "' must be a texture table"));
    } else {
      texture = variation == 0 ? absl::StatusOr<ThemeTexture>(ThemeTexture{"map/poltergeist", 64,
                                                                           64})
                               : Texture(key, 0);
    }
    lua_pop(L_, 2);
    return texture;
  }

  lua_State* L_;  // the thread that calls the theme now (Use)
  int table_;     // the theme table's registry reference
  std::map<int, int> variations_;  // variation -> registry ref (LUA_NOREF: none)
};


}  // namespace

std::unique_ptr<LuaTheme> NewLuaTheme(lua_State* L, int index) {
  return std::make_unique<TableTheme>(L, index);
}

}  // namespace hosts::dmlab
