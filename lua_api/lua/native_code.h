// InNativeCode: whether a Lua-facing C++ function is running on this
// thread, for allocators that may refuse memory.
//
// Lua reports a refused allocation by longjmp from the allocation. Inside
// a C++ function that would skip its destructors, so a capped allocator
// (the engine's sandbox) asks InNativeCode::active() and is lenient while
// it is true. Every wrapper that runs C++ for Lua (Class<T>::Member,
// Raising) opens an InNativeCode; C++ that calls back into Lua opens an
// InNativeCode(false) around its lua_pcall, so the script's own
// allocations stay capped there.
//
// Example:
//   {
//     InNativeCode native;
//     NResultsOr result = Narrow(L);         // allocations are not refused
//   }
//   ...
//   {
//     InNativeCode script(false);
//     status = lua_pcall(L, 1, 1, 0);        // the callback is capped again
//   }
#ifndef LUA_API_LUA_NATIVE_CODE_H_
#define LUA_API_LUA_NATIVE_CODE_H_

namespace lua_api {

class InNativeCode {
 public:
  explicit InNativeCode(bool native = true) : previous_(active_) { active_ = native; }
  ~InNativeCode() { active_ = previous_; }

  InNativeCode(const InNativeCode&) = delete;
  InNativeCode& operator=(const InNativeCode&) = delete;

  static bool active() { return active_; }

 private:
  // Per thread: a Lua state runs on one thread at a time.
  inline static thread_local bool active_ = false;
  const bool previous_;
};

}  // namespace lua_api

#endif  // LUA_API_LUA_NATIVE_CODE_H_
