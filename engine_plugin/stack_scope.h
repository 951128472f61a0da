// StackScope: the part of a Lua stack one method of LevelScript uses.
// Internal to the level runtime (level_script.cc, level_properties.cc).
#ifndef ENGINE_PLUGIN_STACK_SCOPE_H_
#define ENGINE_PLUGIN_STACK_SCOPE_H_

#include "lua_api/lua/lua.h"

namespace engine_plugin {

// The part of the stack a method of LevelScript uses: everything above
// what was there when it began, which it leaves as it found. A host may
// call the level again from inside a callback (listProperty's visitor
// reading each key), so a method must not touch what lies below.
class StackScope {
 public:
  explicit StackScope(lua_State* L) : L_(L), base_(lua_gettop(L)) {}
  ~StackScope() { lua_settop(L_, base_); }
  StackScope(const StackScope&) = delete;
  StackScope& operator=(const StackScope&) = delete;

  // The absolute index of the method's `i`th slot (1-based).
  int at(int i) const { return base_ + i; }

 private:
  lua_State* const L_;
  const int base_;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_STACK_SCOPE_H_
