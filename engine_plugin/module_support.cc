#include "engine_plugin/module_support.h"

#include <cstdint>

#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/read.h"
#include "tensor/work_meter.h"

namespace engine_plugin {

void StoreNewGenerator(lua_State* L, void* key) {
  lua_pushlightuserdata(L, key);
  lua_getglobal(L, "require");
  lua_pushstring(L, "dmlab.system.random");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "Generator");
  lua_pushinteger(L, 0);
  lua_call(L, 1, 1);
  lua_remove(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
}

std::string PushFileContents(lua_State* L, const absl::StatusOr<std::string>& contents,
                             const char* function) {
  if (!contents.ok()) return absl::StrCat("'", function, "': ", contents.status().message());
  // Reading and copying a byte takes about what a Lua instruction does
  // (16 MiB in 16 ms here): a loop of reads is bounded like any loop.
  if (absl::Status charged = tensor::ChargeWork(static_cast<std::int64_t>(contents->size()));
      !charged.ok()) {
    return absl::StrCat("'", function, "': ", charged.message());
  }
  // The string lands on the Lua heap, which refuses nothing inside C++.
  if (std::string e = lua_api::CheckLuaMemory(L, contents->size(), function); !e.empty()) {
    return e;
  }
  lua_pushlstring(L, contents->data(), contents->size());
  return {};
}

std::string ReadPlayerId(lua_State* L, int index, int players, const char* function,
                         int argument, int* player) {
  std::int64_t id = 0;
  std::string why = lua_api::ReadInteger(L, index, &id);
  if (why.empty() && (id < 1 || id > players)) {
    why = absl::StrCat("a player id in [1, ", players, "] expected, got ", id);
  }
  if (!why.empty()) return lua_api::ArgumentError(function, argument, why);
  *player = static_cast<int>(id) - 1;
  return "";
}

}  // namespace engine_plugin
