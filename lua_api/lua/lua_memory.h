// LuaMemoryCap: a lua_State whose Lua heap is capped.
//
// The allocator refuses to grow the heap past the cap while `enforcing`
// is set (script code runs), which the script sees as Lua's "not enough
// memory" error. It never refuses:
//   - outside `enforcing` (the host's own small allocations between
//     calls, which must not fail outside a protected call);
//   - inside the modules' C++ functions (InNativeCode::active()), where a
//     refusal would longjmp over their destructors. There the heap may
//     pass the cap, and the script's next allocation is refused instead.
//     So a C++ function that could push a result proportional to its input
//     (val() of a tensor) asks CheckLuaMemory first and refuses with an
//     ordinary error.
// The C++ objects behind Lua values (a tensor view's bookkeeping) are
// charged to the same cap (ChargeLuaMemory), so millions of small views
// cannot hold memory the cap does not see.
//
// Example:
//   LuaMemoryCap cap{.limit = 64 << 20};
//   lua_State* L = NewCappedState(&cap);
//   cap.enforcing = true;   // while script code runs
#ifndef LUA_API_LUA_LUA_MEMORY_H_
#define LUA_API_LUA_LUA_MEMORY_H_

#include <cstddef>
#include <string>

#include "lua_api/lua/lua.h"

namespace lua_api {

struct LuaMemoryCap {
  std::size_t limit = 0;  // 0: none
  std::size_t used = 0;   // the Lua heap plus what ChargeLuaMemory added
  bool enforcing = false;
  bool refused = false;   // set when an allocation was refused
};

// A new state whose allocator is capped by `cap` (which must outlive it),
// or null (64-bit LuaJIT without GC64 takes no allocator of ours).
lua_State* NewCappedState(LuaMemoryCap* cap);

// [-0, +0, -] L's cap, or null when L's allocator is not a capped one.
LuaMemoryCap* CapOf(lua_State* L);

// [-0, +0, -] "" when `bytes` more fit under L's cap (always, without
// one); else an error naming `function` and the cap.
std::string CheckLuaMemory(lua_State* L, std::size_t bytes, const char* function);

// [-0, +0, -] Adds `bytes` to (or, negative, removes them from) what L's
// cap counts as used, for C++ memory that lives as long as a Lua value.
// Never refuses: the script's next allocation is refused instead.
void ChargeLuaMemory(lua_State* L, std::ptrdiff_t bytes);

}  // namespace lua_api

#endif  // LUA_API_LUA_LUA_MEMORY_H_
