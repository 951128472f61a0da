// Context's entities added by the level (context.h): api:extraEntities,
// api:registerDynamicItems and pickups_spawn's dynamic spawns.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/spawn_vars.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {
namespace {

// The engine's buffer for an item's class name (its bg_misc.c, g_spawn.c).
constexpr std::size_t kItemNameBytes = 256;
// No more entities than the engine has slots for (its MAX_GENTITIES).
constexpr std::size_t kMaxEntities = 1024;

// [-0, +0, -] The list at `first` (nil: none) of what `read_one` reads from
// each element at the top of the stack, into *out.
template <typename T, typename ReadOne>
absl::Status ReadList(lua_State* L, int first, const char* callback, std::vector<T>* out,
                      ReadOne read_one) {
  out->clear();
  if (lua_isnil(L, first)) return absl::OkStatus();
  if (!lua_istable(L, first)) {
    return absl::InvalidArgumentError(absl::StrCat("[", callback, "] - must return a list or nil, not ",
                                                   luaL_typename(L, first)));
  }
  for (int i = 1;; ++i) {
    lua_rawgeti(L, first, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return absl::OkStatus();
    }
    if (out->size() == kMaxEntities) {
      lua_pop(L, 1);
      return absl::InvalidArgumentError(
          absl::StrCat("[", callback, "] - more than ", kMaxEntities, " entries"));
    }
    T value;
    absl::Status read = read_one(L, &value);
    lua_pop(L, 1);
    if (!read.ok()) {
      out->clear();
      return absl::InvalidArgumentError(absl::StrCat(read.message(), " (entry ", i, ")"));
    }
    out->push_back(std::move(value));
  }
}

// Writes entity `index` of `entities` into the engine's buffers; none, and
// an error naming `what`, for an index out of range.
absl::Status WriteEntity(const std::vector<SpawnVars>& entities, int index, const char* what,
                         char* chars, int* num_chars, int offsets[][2], int* num_vars) {
  *num_chars = *num_vars = 0;
  if (index < 0 || static_cast<std::size_t>(index) >= entities.size()) {
    return absl::InternalError(
        absl::StrCat("the engine read ", what, " ", index, " of ", entities.size()));
  }
  WriteSpawnVars(entities[index], chars, num_chars, offsets, num_vars);
  return absl::OkStatus();
}

}  // namespace

int Context::MakeExtraEntities() {
  extra_entities_.clear();
  CallLevel(
      "extraEntities", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        return ReadList(L, first, "extraEntities", &extra_entities_,
                        [this](lua_State* L, SpawnVars* vars) {
                          absl::Status read = ReadSpawnTable(L, -1, "extraEntities", vars);
                          return read.ok() ? CheckSpawnVars(*vars, brush_models_, "extraEntities")
                                           : read;
                        });
      });
  const int count = static_cast<int>(extra_entities_.size());
  if (map_entities_ + level_entities_ + count > kMaxLevelEntities) {
    Record(absl::ResourceExhaustedError(absl::StrCat(
        "[extraEntities] - ", count, " entities beside the map's ", map_entities_,
        ": the engine holds ", kMaxLevelEntities, " of a map's and a level's")));
    extra_entities_.clear();
  }
  level_entities_ += static_cast<int>(extra_entities_.size());
  return static_cast<int>(extra_entities_.size());
}

void Context::ReadExtraEntity(int index, char* chars, int* num_chars, int offsets[][2],
                              int* num_vars) {
  Record(WriteEntity(extra_entities_, index, "extra entity", chars, num_chars, offsets, num_vars));
}

int Context::RegisterDynamicItems() {
  dynamic_items_.clear();
  CallLevel(
      "registerDynamicItems", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        return ReadList(L, first, "registerDynamicItems", &dynamic_items_,
                        [](lua_State* L, std::string* name) {
                          if (lua_type(L, -1) != LUA_TSTRING) {
                            return absl::InvalidArgumentError(
                                "[registerDynamicItems] - class names must be strings");
                          }
                          std::size_t length;
                          const char* text = lua_tolstring(L, -1, &length);
                          if (length == 0 || length >= kItemNameBytes ||
                              std::memchr(text, '\0', length) != nullptr) {
                            return absl::InvalidArgumentError(absl::StrCat(
                                "[registerDynamicItems] - a class name of 1 to ",
                                kItemNameBytes - 1, " characters, without NUL, expected"));
                          }
                          name->assign(text, length);
                          return absl::OkStatus();
                        });
      });
  return static_cast<int>(dynamic_items_.size());
}

void Context::ReadDynamicItemName(int index, char* name) {
  name[0] = '\0';
  if (index < 0 || static_cast<std::size_t>(index) >= dynamic_items_.size()) {
    Record(absl::InternalError(absl::StrCat("the engine read dynamic item ", index, " of ",
                                            dynamic_items_.size())));
    return;
  }
  const std::string& item = dynamic_items_[index];
  std::memcpy(name, item.c_str(), item.size() + 1);  // fits: RegisterDynamicItems checked
}

absl::Status Context::SpawnDynamicEntity(SpawnVars vars) {
  if (absl::Status fits = CheckSpawnVars(vars, brush_models_, "spawn"); !fits.ok()) return fits;
  if (map_entities_ + level_entities_ >= kMaxLevelEntities) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "[spawn] - the map's ", map_entities_, " entities and the level's ", level_entities_,
        " are all the engine holds of a map's and a level's (", kMaxLevelEntities, ")"));
  }
  ++level_entities_;
  pending_spawns_.push_back(std::move(vars));
  return absl::OkStatus();
}

void Context::ReadDynamicSpawnEntity(int index, char* chars, int* num_chars, int offsets[][2],
                                     int* num_vars) {
  Record(WriteEntity(pending_spawns_, index, "dynamic spawn", chars, num_chars, offsets,
                     num_vars));
}

}  // namespace hosts::dmlab
