// Under LuaJIT, a fast path for t:fill(x), t:add(x), t:sub(x), t:mul(x)
// and t:div(x) with one number x: a Lua wrapper that LuaJIT compiles,
// calling a C function through the FFI.
//
// Why: a classic C function (lua_CFunction) stops LuaJIT's compiler, and
// its stack protocol costs more than the work on a small tensor: add on 4
// doubles was 665 instructions a call, of which 290 were LuaJIT's own. An
// FFI call from compiled code is a plain call.
//
// The wrapper only takes the fast path when it can tell the result: self
// is a userdata with a tensor type's metatable (compared as a table, not
// by the name that getmetatable shows), there is exactly one
// argument, and it is a number. The C side then finds the tensor by its
// tag and asks the core, which checks everything (validity of a lent
// tensor included) before it writes. Anything else, or any failure, goes
// to the classic method, which does the same work or raises its error: so
// the two paths never disagree, and errors are the classic method's.
//
// Without LuaJIT's `ffi`, `jit` and `debug` modules on offer, or with the
// compiler off when the module opens, the methods stay as they are.
#include <exception>
#include <iterator>

#include "absl/status/status.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/elementwise.h"

namespace lua_api {
namespace {

using tensor::ElementOp;

// 0 if the op was done; 1 to ask the classic method instead. Calls no
// Lua function, as the FFI requires, and lets no C++ exception out into
// compiled Lua code: the classic method reports what went wrong.
int ApplyScalarFromFfi(void* block, int op, double value) noexcept {
  if (op < static_cast<int>(ElementOp::kAssign) || op > static_cast<int>(ElementOp::kDiv)) {
    return 1;
  }
  const LuaTensor* self = Class<LuaTensor>::ObjectInBlock(block);
  if (self == nullptr) return 1;
  try {
    const absl::Status done =
        tensor::ApplyScalarsInDouble(self->tensor(), static_cast<ElementOp>(op), {&value, 1});
    return done.ok() ? 0 : 1;
  } catch (const std::exception&) {
    return 1;
  }
}

// Arguments: the address of ApplyScalarFromFfi, the method table, the set
// of tensor metatables, then pairs of method name and op.
// It takes `ffi`, `jit` and `debug` only where the host offers them
// (loaded or preloaded), without searching files as require would. A
// script that could replace them, or the globals used here, could also
// call LuaJIT's FFI itself, which reaches any memory: so the wrapper gives
// no script a power it lacks.
constexpr char kWrapScalarOps[] = R"lua(
local function offered(name)
  if package.loaded[name] ~= nil then return package.loaded[name] end
  if package.preload[name] ~= nil then return require(name) end
end
local ffi, jit, debug = offered('ffi'), offered('jit'), offered('debug')
-- Interpreted, an FFI call costs more than a classic one (210 ns against
-- 80 for add with the compiler off): compiled code is the point.
if not (ffi and jit and jit.status() and debug) then return end
local address, methods, metatables = ...
local apply = ffi.cast('int (*)(void *, int, double)', address)
-- Unlike getmetatable, debug.getmetatable sees through __metatable, so a
-- userdata made in Lua (newproxy) cannot pass for a tensor.
local getmetatable, select, type = debug.getmetatable, select, type
for i = 4, select('#', ...), 2 do
  local name, op = select(i, ...)
  local classic = methods[name]
  methods[name] = function(self, x, ...)
    if type(x) == 'number' and select('#', ...) == 0 and type(self) == 'userdata'
        and metatables[getmetatable(self)] and apply(self, op, x) == 0 then
      return self
    end
    return classic(self, x, ...)
  end
end
)lua";

}  // namespace

void RegisterFfiFastPaths(lua_State* L, const char* metatable) {
  if (luaL_loadbuffer(L, kWrapScalarOps, sizeof(kWrapScalarOps) - 1,
                      "=[dmlab.system.tensor fast path]") != 0) {
    lua_error(L);  // out of memory
  }
  lua_pushlightuserdata(L, reinterpret_cast<void*>(&ApplyScalarFromFfi));
  luaL_getmetatable(L, metatable);
  lua_getfield(L, -1, "__index");
  lua_remove(L, -2);
  lua_createtable(L, 0, static_cast<int>(std::size(kLuaDTypes)));
  for (tensor::DType dtype : kLuaDTypes) {
    luaL_getmetatable(L, LuaTensor::TypeName(dtype));
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
  }
  int arguments = 3;
  for (ElementOp op : {ElementOp::kAssign, ElementOp::kAdd, ElementOp::kSub, ElementOp::kMul,
                       ElementOp::kDiv}) {
    lua_pushstring(L, tensor::ElementOpName(op));
    lua_pushinteger(L, static_cast<lua_Integer>(op));
    arguments += 2;
  }
  // A host without them, or a chunk that fails in an odd host (no
  // `package`), leaves the classic methods.
  if (lua_pcall(L, arguments, 0, 0) != 0) lua_pop(L, 1);
}

}  // namespace lua_api
