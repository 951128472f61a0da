// Class<T>: a C++ type exposed to Lua as a full userdata with methods.
//
// One C++ type may have several metatables (the tensor module has one per
// element type, sharing one method table through Share). Each userdata
// starts with T's tag, so ReadObject recognises a T by two loads, without
// touching its metatable: method calls are the hot path of level scripts.
// Methods are `NResultsOr T::Method(lua_State*)`; Member<&T::Method> wraps
// one as a lua_CFunction that checks self, runs it, and raises its error
// only after the C++ scope has closed.
//
// Example:
//   Class<Counter>::Register(L, "demo.Counter",
//                            {{"add", &Class<Counter>::Member<&Counter::Add>}});
//   Class<Counter>::CreateObject(L, "demo.Counter", 0);   // [-0, +1, m]
//   // In Lua: c:add(1); c.add(1) -> "calling 'add' on bad self (...use ':')"
#ifndef LUA_API_LUA_CLASS_H_
#define LUA_API_LUA_CLASS_H_

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/native_code.h"
#include "lua_api/lua/read.h"

namespace lua_api {

struct MethodEntry {
  const char* name;
  lua_CFunction function;
};

template <typename T>
class Class {
 public:
  // [-0, +0, m] Creates (or extends) the metatable registered as `name`:
  // __index is its method table, __gc destroys the object, and `methods`
  // (metamethods such as __tostring included) are added with their name
  // and the metatable's name as upvalues 1 and 2, for error messages.
  // REQUIRES: `name` has static storage (a literal); CreateObject finds the
  // metatable by its address.
  static void Register(lua_State* L, const char* name, std::initializer_list<MethodEntry> methods) {
    PushMetatable(L, name);
    lua_getfield(L, -1, "__index");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, "__index");
    }
    // Stack: metatable, method table, name. Each string is interned once
    // and then copied by pushvalue: hashing each name three times was two
    // thirds of a state's start-up.
    lua_pushstring(L, name);
    for (const MethodEntry& method : methods) {
      const bool meta = method.name[0] == '_' && method.name[1] == '_';
      lua_pushstring(L, method.name);
      lua_pushvalue(L, -1);
      lua_pushvalue(L, -3);
      lua_pushcclosure(L, method.function, 2);
      lua_rawset(L, meta ? -5 : -4);
    }
    lua_pop(L, 3);
  }

  // [-0, +0, m] Creates the metatable registered as `name` with the very
  // method table and metamethods of `family`, registered before: the types
  // of a family (one per tensor element type) share one set of closures,
  // so a state makes each method once, not once per type, and Lua 5.1
  // sees one __eq across the family. A shared method's bad-self error
  // names `family`. REQUIRES: as Register's, for both names.
  static void Share(lua_State* L, const char* family, const char* name) {
    PushMetatable(L, name);
    luaL_getmetatable(L, family);
    for (lua_pushnil(L); lua_next(L, -2) != 0; lua_pop(L, 1)) {
      // Stack: metatable, family's, key, value. Keeps name's own labels.
      const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
      if (std::strcmp(key, "__name") == 0 || std::strcmp(key, "__metatable") == 0) continue;
      lua_pushvalue(L, -2);
      lua_pushvalue(L, -2);
      lua_rawset(L, -6);
    }
    lua_pop(L, 2);
  }

  // [-0, +1, m] A new object of T, constructed from `args`, with the
  // metatable registered as `name` (the same pointer as given to Register).
  // The object's C++ memory (T::NativeBytes() if T says, else sizeof(T))
  // counts against L's Lua memory cap (lua_memory.h) until __gc.
  template <typename... Args>
  static T* CreateObject(lua_State* L, const char* name, Args&&... args) {
    Box* box = static_cast<Box*>(lua_newuserdata(L, sizeof(Box)));
    box->tag = nullptr;  // not a T until constructed: a throw leaves it inert
    T* object = new T(std::forward<Args>(args)...);
    box->object = object;
    box->charged = NativeBytes(*object);
    ChargeLuaMemory(L, static_cast<std::ptrdiff_t>(box->charged));
    box->tag = Tag();
    lua_pushlightuserdata(L, const_cast<char*>(name));
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_isnil(L, -1)) {  // an equal name at another address
      lua_pop(L, 1);
      luaL_getmetatable(L, name);
    }
    lua_setmetatable(L, -2);
    return object;
  }

  // [-0, +0, -] The T at `index`, or null if the value there is not one.
  // NB: only C code can forge a userdata of Box's size that starts with
  // the tag (a private address); Lua code cannot.
  static T* ReadObject(lua_State* L, int index) {
    if (lua_type(L, index) != LUA_TUSERDATA || lua_objlen(L, index) != sizeof(Box)) {
      return nullptr;
    }
    return ObjectInBlock(lua_touserdata(L, index));
  }

  // [-0, +0, -] The T in `block`, the block of a userdata that has T's
  // metatable, or null once __gc destroyed it. For callers that see the
  // block without the Lua value (LuaJIT's FFI passes a userdata as its
  // block); REQUIRES: the block is at least as large as a Box.
  static T* ObjectInBlock(void* block) {
    Box* box = static_cast<Box*>(block);
    return box->tag == Tag() ? box->object : nullptr;
  }

  // [-0, +r, e] A lua_CFunction for `Method`, registered through Register (which
  // supplies the upvalues). `Method` is a member `NResultsOr
  // (T::*)(lua_State*)` or a function `NResultsOr (*)(T&, lua_State*)`.
  template <auto Method>
  static int Member(lua_State* L) {
    {
      InNativeCode native;
      NResultsOr result = Catching([L] { return Invoke<Method>(L); });
      if (result.ok()) return result.n_results();
      lua_pushlstring(L, result.error().data(), result.error().size());
    }  // `result` and its message are gone before the longjmp.
    return lua_error(L);
  }

 private:
  // [-0, +1, m] The metatable registered as `name`, created if new with
  // its labels and __gc; also reachable by the address of `name`.
  static void PushMetatable(lua_State* L, const char* name) {
    luaL_newmetatable(L, name);
    lua_pushlightuserdata(L, const_cast<char*>(name));
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    lua_pushcfunction(L, &Gc);
    lua_setfield(L, -2, "__gc");
    // Hides the metatable from Lua (getmetatable returns this string), so a
    // script cannot call __gc by hand and destroy an object still in use.
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__metatable");
  }

  static const void* Tag() {
    static const char tag = 0;
    return &tag;
  }

  // The userdata's block: the tag and the object, which lives on the C++
  // heap. Lua's collector paces itself by the bytes of its own blocks, so
  // a small block means fewer collection steps per object: a 160-byte
  // tensor view cost 1600 instructions of GC work per select.
  struct Box {
    const void* tag;
    T* object;
    std::size_t charged;  // what CreateObject charged to the Lua memory cap
  };

  static std::size_t NativeBytes(const T& object) {
    if constexpr (requires { object.NativeBytes(); }) {
      return object.NativeBytes();
    } else {
      return sizeof(T);
    }
  }

  // [-0, +r, m]
  template <auto Method>
  static NResultsOr Invoke(lua_State* L) {
    T* self = ReadObject(L, 1);
    if (self == nullptr) {
      const char* name = lua_tostring(L, lua_upvalueindex(1));
      const char* type = lua_tostring(L, lua_upvalueindex(2));
      return absl::StrCat("calling '", name, "' on bad self (", Expected(L, 1, type),
                          "); call methods with ':', as in x:", name, "(...)");
    }
    if constexpr (std::is_member_function_pointer_v<decltype(Method)>) {
      return (self->*Method)(L);
    } else {
      return Method(*self, L);
    }
  }

  // [-0, +0, -] Also reachable by hand through debug.getmetatable. Clearing the tag
  // makes the object unrecognisable afterwards, so it is never used or
  // destroyed again.
  static int Gc(lua_State* L) {
    if (T* self = ReadObject(L, 1)) {
      Box* box = static_cast<Box*>(lua_touserdata(L, 1));
      box->tag = nullptr;
      ChargeLuaMemory(L, -static_cast<std::ptrdiff_t>(box->charged));
      delete self;
    }
    return 0;
  }
};

}  // namespace lua_api

#endif  // LUA_API_LUA_CLASS_H_
