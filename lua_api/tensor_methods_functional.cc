// The methods of dmlab.system.tensor that call back into Lua (apply,
// applyIndexed) or take a random generator (shuffle).
//
// apply and applyIndexed run a Lua function per element, so they are the
// one place where Lua code runs in the middle of a tensor operation. The
// function is called with lua_pcall: a Lua error in it must not longjmp
// over the C++ frames here, so it comes back as a message and is raised by
// Class::Member after they have closed. The function may do anything,
// including making the tensor invalid (by asking the host to revoke a
// loan), so validity is checked again after every call.
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lua_api/class.h"
#include "lua_api/lua.h"
#include "lua_api/lua_tensor.h"
#include "lua_api/n_results_or.h"
#include "lua_api/native_code.h"
#include "lua_api/random.h"
#include "lua_api/read.h"
#include "lua_api/tensor_methods.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

using tensor::Index;

template <typename T>
lua_Number ToLua(T value) {
  return static_cast<lua_Number>(static_cast<tensor::ComputeType<T>>(value));
}

// REQUIRES: CheckValue(value, DTypeOf<T>()) is "".
template <typename T>
T FromLua(lua_Number value) {
  return static_cast<T>(static_cast<tensor::ComputeType<T>>(value));
}

// "[2, 3]": a 0-based index as the 1-based one Lua sees.
std::string IndexString(const tensor::Shape& index) {
  std::string text = "[";
  for (std::size_t d = 0; d < index.size(); ++d) {
    absl::StrAppend(&text, d == 0 ? "" : ", ", index[d] + 1);
  }
  return text + "]";
}

// [-1, +0, -] Pops the error that lua_pcall left and returns it as the
// message to raise: the function's own message, unchanged.
std::string PopError(lua_State* L) {
  std::string message;
  if (lua_type(L, -1) == LUA_TSTRING) {
    std::size_t length;
    const char* text = lua_tolstring(L, -1, &length);
    message.assign(text, length);
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    char number[32];
    std::snprintf(number, sizeof(number), LUA_NUMBER_FMT, lua_tonumber(L, -1));
    message = number;
  } else {
    // NResultsOr carries text only, so an error object (a table) cannot
    // travel; describe it, as the standalone interpreter does.
    message = absl::StrCat("(error object is a ", luaL_typename(L, -1), " value)");
  }
  lua_pop(L, 1);
  return message;
}

// [-0, +0, -] The error for the function's result at stack index
// `result`, which cannot be written to the element at `index`: that it is
// not a number, or else `why`.
std::string WriteError(lua_State* L, int result, const char* method, const tensor::Shape& index,
                       std::string why) {
  if (const int type = lua_type(L, result); type != LUA_TNUMBER) {
    why = absl::StrCat("the function returned a ", lua_typename(L, type),
                       "; expected a number or nil");
  }
  return absl::StrCat("'", method, "': element ", IndexString(index), ": ", why);
}

// [-(2 + k), +n, e] Called as (fn, value, i1, ..., ik), in protected mode:
// returns fn(value, {i1, ..., ik}). applyIndexed calls fn through this so
// that the index table, new for each element (fn may keep it), is made
// under lua_pcall: a memory error then cannot longjmp over Walk's C++
// frames. This frame holds no C++ objects, so lua_call is safe here.
int CallWithIndexTable(lua_State* L) {
  const int rank = lua_gettop(L) - 2;
  lua_createtable(L, rank, 0);
  for (int d = 1; d <= rank; ++d) {
    lua_pushvalue(L, 2 + d);
    lua_rawseti(L, -2, d);
  }
  lua_replace(L, 3);  // the table in place of i1
  lua_settop(L, 3);
  lua_call(L, 2, LUA_MULTRET);
  return lua_gettop(L);
}

// lua_pcall(L, nargs, LUA_MULTRET, 0) for fn: script code, so allocators
// that cap the script apply again (native_code.h).
int CallScript(lua_State* L, int nargs) {
  InNativeCode script(false);
  return lua_pcall(L, nargs, LUA_MULTRET, 0);
}

constexpr const char kSharedMemory[] =
    "several elements share memory (an expanded view); apply to a clone instead";

// [-0, +0, -] The walk of apply (kIndexed false) and applyIndexed over the
// elements of type T at `origin`, in row-major order of the shape, whatever
// the strides. Stack on entry: self, fn, and for applyIndexed
// CallWithIndexTable; the same on return. Returns 0 when done (or stopped
// early), or the error that ended the walk: fn's own, or one about its
// result.
//
// NB: this loop is the cost of apply, one Lua call per element, so it is
// written for that: rows along the last dimension with a pointer step, the
// outer index advanced once per row, one lua_pcall per element and the
// results taken as they come (LUA_MULTRET) rather than padded with nils.
template <typename T, bool kIndexed>
NResultsOr Walk(lua_State* L, const char* method, const tensor::Tensor& tensor, std::byte* origin) {
  const tensor::Layout& layout = tensor.layout();
  const int rank = layout.rank();
  const int base = lua_gettop(L);
  const Index row_length = layout.shape()[rank - 1];
  const Index step = layout.strides()[rank - 1];
  // Owned storage cannot become invalid; a lent one is checked after every
  // call, before the next element is read or written.
  const tensor::Loan* loan = tensor.storage()->loan().get();
  // An expanded view has elements that share memory; writing one would
  // change others, which the core refuses too. Reading them is fine.
  const bool writable = !layout.MayOverlapItself();
  // The index of the row's first element; the last entry is set to the
  // element's only where it is needed.
  tensor::Shape index(rank, 0);
  T* row = reinterpret_cast<T*>(origin);
  for (Index rows = layout.num_elements() / row_length; rows > 0; --rows) {
    T* element = row;
    for (Index j = 0; j < row_length; ++j, element += step) {
      lua_pushvalue(L, kIndexed ? 3 : 2);  // CallWithIndexTable or fn
      if constexpr (kIndexed) lua_pushvalue(L, 2);
      lua_pushnumber(L, ToLua(*element));
      if constexpr (kIndexed) {
        index[rank - 1] = j;
        for (int d = 0; d < rank; ++d) lua_pushnumber(L, static_cast<lua_Number>(index[d] + 1));
      }
      if (CallScript(L, kIndexed ? 2 + rank : 1) != 0) return PopError(L);
      if (loan != nullptr && !loan->valid()) return LuaTensor(tensor).CheckSelf(method);
      const int results = lua_gettop(L) - base;
      if (results == 0) continue;
      // The new value (or nil) at base + 1; false at base + 2 stops.
      if (const int type = lua_type(L, base + 1); type != LUA_TNIL) {
        const lua_Number value = lua_tonumber(L, base + 1);  // 0 unless a number
        // Floating types hold any number (CheckValue's rule), so only the
        // others pay for the call.
        std::string why = !writable                ? kSharedMemory
                          : tensor::kIsFloating<T> ? std::string()
                                                   : CheckValue(value, tensor.dtype());
        if (type != LUA_TNUMBER || !why.empty()) {
          index[rank - 1] = j;
          std::string error = WriteError(L, base + 1, method, index, std::move(why));
          lua_settop(L, base);
          return error;
        }
        *element = FromLua<T>(value);
      }
      const bool stop =
          results >= 2 && lua_type(L, base + 2) == LUA_TBOOLEAN && !lua_toboolean(L, base + 2);
      lua_settop(L, base);
      if (stop) return 0;
    }
    // The next row: advance the outer index, its address following the
    // strides (which may be negative or zero).
    for (int d = rank - 2; d >= 0; --d) {
      if (++index[d] < layout.shape()[d]) {
        row += layout.strides()[d];
        break;
      }
      row -= (layout.shape()[d] - 1) * layout.strides()[d];
      index[d] = 0;
    }
  }
  return 0;
}

// Nested apply and applyIndexed calls on this thread's C stack. Each level
// holds C frames while fn runs, and LuaJIT does not bound C-to-Lua-to-C
// recursion, so a fn that applies without end would overflow the C stack
// and crash. Lua 5.1 stops nested C calls at 200; the same bound here
// makes that an error under both.
constexpr int kMaxNesting = 200;
thread_local int nesting = 0;

// [-0, +1, e] t:apply(fn) and t:applyIndexed(fn): calls fn(value) or
// fn(value, {i1, ..., ik}) for each element in row-major order. A number
// returned replaces the element; false as second result stops the walk.
// Returns self.
template <bool kIndexed>
NResultsOr ApplyOp(LuaTensor& self, lua_State* L) {
  const char* method = kIndexed ? "applyIndexed" : "apply";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  if (lua_type(L, 2) != LUA_TFUNCTION) return ArgumentError(method, 1, Expected(L, 2, "function"));
  if (nesting >= kMaxNesting) {
    return absl::StrCat("'", method, "': more than ", kMaxNesting,
                        " nested calls of apply and applyIndexed; does fn recurse without end?");
  }
  // The stack Walk expects: self, fn and for applyIndexed its caller, with
  // room for what each call pushes (caller, fn, value, one index entry per
  // dimension). Done before any C++ object here: both may raise a memory
  // error.
  lua_settop(L, 2);
  if constexpr (kIndexed) lua_pushcfunction(L, &CallWithIndexTable);
  if (!lua_checkstack(L, 3 + self.tensor().rank())) {
    return absl::StrCat("'", method, "': the Lua stack has no room for ", self.tensor().rank(),
                        " index entries");
  }
  // A copy shares the storage, so the memory stays alive whatever fn does
  // to the userdata.
  const tensor::Tensor tensor = self.tensor();
  if (tensor.num_elements() > 0) {
    if (!tensor.device().is_cpu()) {
      return absl::StrCat("'", method, "': the tensor is on ", tensor.device().ToString(),
                          "; copy it to the CPU first");
    }
    absl::StatusOr<std::byte*> origin = tensor.data();
    if (!origin.ok()) return StatusError(method, origin.status());
    ++nesting;
    NResultsOr walked = tensor::DispatchDType(tensor.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Walk<T, kIndexed>(L, method, tensor, *origin);
    });
    --nesting;
    if (!walked.ok()) return walked;
  }
  lua_pushvalue(L, 1);
  return 1;
}

// [-0, +1, e] t:shuffle(gen): permutes the elements of a rank-1 tensor in
// place with a uniformly random permutation from generator `gen`
// (dmlab.system.random). Returns self.
NResultsOr Shuffle(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("shuffle"); !e.empty()) return e;
  LuaRandom* random = LuaRandom::Read(L, 2);
  if (random == nullptr) {
    return ArgumentError("shuffle", 1, Expected(L, 2, LuaRandom::kTypeName));
  }
  const tensor::Tensor& tensor = self.tensor();
  if (tensor.rank() != 1) {
    return absl::StrCat("'shuffle': the tensor must have rank 1, got shape ",
                        tensor.layout().ShapeString());
  }
  if (!tensor.device().is_cpu()) {
    return absl::StrCat("'shuffle': the tensor is on ", tensor.device().ToString(),
                        "; copy it to the CPU first");
  }
  if (tensor.layout().MayOverlapItself()) {
    return "'shuffle': the tensor's elements share memory (an expanded view)";
  }
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return StatusError("shuffle", origin.status());
  const Index stride = tensor.layout().strides()[0];
  tensor::DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* first = reinterpret_cast<T*>(*origin);
    // Fisher-Yates, written out rather than std::shuffle: strided and
    // reversed views work, and LuaRandom::UniformInt draws the same on
    // every standard library (std::uniform_int_distribution does not).
    for (Index i = tensor.num_elements() - 1; i > 0; --i) {
      const Index j = random->UniformInt(0, i);
      std::swap(first[i * stride], first[j * stride]);
    }
  });
  lua_pushvalue(L, 1);
  return 1;
}

}  // namespace

void RegisterFunctionalMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"apply", &C::Member<&ApplyOp<false>>},
                  {"applyIndexed", &C::Member<&ApplyOp<true>>},
                  {"shuffle", &C::Member<&Shuffle>},
              });
}

}  // namespace lua_api
