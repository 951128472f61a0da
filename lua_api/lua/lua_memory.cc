#include "lua_api/lua/lua_memory.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/native_code.h"

namespace lua_api {
namespace {

void* CappedAllocate(void* ud, void* block, std::size_t old_size, std::size_t new_size) {
  auto* cap = static_cast<LuaMemoryCap*>(ud);
  if (new_size == 0) {
    std::free(block);
    cap->used -= old_size;
    return nullptr;
  }
  // Shrinking must never fail (Lua relies on it), so only growth counts.
  if (cap->enforcing && !InNativeCode::active() && new_size > old_size &&
      cap->used + (new_size - old_size) > cap->limit) {
    cap->refused = true;
    return nullptr;
  }
  void* resized = std::realloc(block, new_size);
  if (resized != nullptr) cap->used = cap->used - old_size + new_size;
  return resized;
}

}  // namespace

lua_State* NewCappedState(LuaMemoryCap* cap) { return lua_newstate(&CappedAllocate, cap); }

LuaMemoryCap* CapOf(lua_State* L) {
  void* ud = nullptr;
  if (lua_getallocf(L, &ud) != &CappedAllocate) return nullptr;
  auto* cap = static_cast<LuaMemoryCap*>(ud);
  return cap->limit != 0 ? cap : nullptr;
}

std::string CheckLuaMemory(lua_State* L, std::size_t bytes, const char* function) {
  const LuaMemoryCap* cap = CapOf(L);
  if (cap == nullptr || !cap->enforcing) return {};
  if (cap->used <= cap->limit && bytes <= cap->limit - cap->used) return {};
  return absl::StrCat("'", function, "': not enough memory: the result needs about ", bytes >> 20,
                      " MiB of the level's Lua memory, which has ",
                      cap->used < cap->limit ? (cap->limit - cap->used) >> 20 : 0, " MiB left of ",
                      cap->limit >> 20, " MiB (setting memoryLimitMegabytes)");
}

void ChargeLuaMemory(lua_State* L, std::ptrdiff_t bytes) {
  LuaMemoryCap* cap = CapOf(L);
  if (cap == nullptr) return;
  cap->used += static_cast<std::size_t>(bytes);  // wraps back on release
}

}  // namespace lua_api
