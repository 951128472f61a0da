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
#include <vector>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/native_code.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/work_meter.h"

namespace lua_api {
namespace {

using tensor::Index;

template <typename T>
lua_Number ToLua(T value) {
  return static_cast<lua_Number>(static_cast<tensor::ComputeType<T>>(value));
}

// REQUIRES: HoldsValue<T>(value).
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

constexpr const char kSharedMemory[] =
    "several elements share memory (an expanded view); apply to a clone instead";

// What a walk of apply or applyIndexed works on, and how it ended. It
// lives in ApplyOp's frame; the walk itself runs in protected mode and
// only reads and writes it through a pointer.
struct WalkState {
  const tensor::Layout* layout = nullptr;
  std::byte* origin = nullptr;
  // Owned storage cannot become invalid; a lent one is checked after
  // every call, before the next element is read or written.
  const tensor::Loan* loan = nullptr;
  // An expanded view has elements that share memory; writing one would
  // change others, which the core refuses too. Reading them is fine.
  bool writable = true;
  // rank() entries: the element the walk is at, 0-based.
  Index* index = nullptr;

  enum class Outcome { kDone, kInvalid, kBadResult };
  Outcome outcome = Outcome::kDone;
  // For kBadResult: the Lua type and value fn returned for `index`.
  int result_type = LUA_TNIL;
  lua_Number result_value = 0;
};

// [-2, +0, e] lua_CFunction called as (state, fn) through lua_pcall: the
// walk of apply (kIndexed false) and applyIndexed over the elements of
// type T, in row-major order of the shape, whatever the strides.
//
// NB: this loop is the cost of apply, one Lua call per element, so it is
// written for that: one lua_pcall around the whole walk and a plain
// lua_call per element, rows along the last dimension with a pointer step,
// the outer index advanced once per row. fn's errors longjmp to that
// lua_pcall, so this frame holds no C++ object with a destructor; it
// reports everything else through WalkState.
template <typename T, bool kIndexed>
int WalkElements(lua_State* L) {
  WalkState& state = *static_cast<WalkState*>(lua_touserdata(L, 1));
  const tensor::Layout& layout = *state.layout;
  const int rank = layout.rank();
  constexpr int kFn = 2;
  const Index row_length = layout.shape()[rank - 1];
  const Index step = layout.strides()[rank - 1];
  Index* index = state.index;
  T* row = reinterpret_cast<T*>(state.origin);
  for (Index rows = layout.num_elements() / row_length; rows > 0; --rows) {
    T* element = row;
    for (Index j = 0; j < row_length; ++j, element += step) {
      lua_pushvalue(L, kFn);
      lua_pushnumber(L, ToLua(*element));
      if constexpr (kIndexed) {
        // A new table per element: fn may keep it.
        index[rank - 1] = j;
        lua_createtable(L, rank, 0);
        for (int d = 0; d < rank; ++d) {
          lua_pushnumber(L, static_cast<lua_Number>(index[d] + 1));
          lua_rawseti(L, -2, d + 1);
        }
      }
      lua_call(L, kIndexed ? 2 : 1, LUA_MULTRET);
      if (state.loan != nullptr && !state.loan->valid()) {
        state.outcome = WalkState::Outcome::kInvalid;
        return 0;
      }
      const int results = lua_gettop(L) - kFn;
      if (results == 0) continue;
      // The new value (or nil) at kFn + 1; false at kFn + 2 stops.
      if (const int type = lua_type(L, kFn + 1); type != LUA_TNIL) {
        const lua_Number value = lua_tonumber(L, kFn + 1);  // 0 unless a number
        if (type != LUA_TNUMBER || !state.writable || !HoldsValue<T>(value)) {
          index[rank - 1] = j;
          state.outcome = WalkState::Outcome::kBadResult;
          state.result_type = type;
          state.result_value = value;
          return 0;
        }
        *element = FromLua<T>(value);
      }
      const bool stop =
          results >= 2 && lua_type(L, kFn + 2) == LUA_TBOOLEAN && !lua_toboolean(L, kFn + 2);
      lua_settop(L, kFn);
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

// The error for the result that ended a walk with kBadResult: that it is
// not a number, or that it cannot be written to the element.
std::string WriteError(lua_State* L, const WalkState& state, const char* method,
                       tensor::DType dtype) {
  const tensor::Shape index(state.index, state.index + state.layout->rank());
  std::string why;
  if (state.result_type != LUA_TNUMBER) {
    why = absl::StrCat("the function returned a ", lua_typename(L, state.result_type),
                       "; expected a number or nil");
  } else if (!state.writable) {
    why = kSharedMemory;
  } else {
    why = CheckValue(state.result_value, dtype);
  }
  return absl::StrCat("'", method, "': element ", IndexString(index), ": ", why);
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
  // The stack the walk needs: self, fn, the walk and its arguments, and
  // what each call pushes (fn, value, the index table and an entry, or
  // fn's results). Checked before any C++ object here: a memory error
  // must not longjmp over one.
  lua_settop(L, 2);
  const lua_CFunction walk = tensor::DispatchDType(self.tensor().dtype(), [](auto tag) {
    return &WalkElements<typename decltype(tag)::type, kIndexed>;
  });
  lua_pushcfunction(L, walk);
  if (!lua_checkstack(L, LUA_MINSTACK + 6)) return absl::StrCat("'", method, "': no Lua stack left");
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
    // fn may be a C function, which runs no counted instruction.
    if (absl::Status charged = tensor::ChargeWork(tensor.num_elements()); !charged.ok()) {
      return StatusError(method, charged);
    }
    std::vector<Index> index(tensor.rank(), 0);
    WalkState state;
    state.layout = &tensor.layout();
    state.origin = *origin;
    state.loan = tensor.storage()->loan().get();
    state.writable = !tensor.layout().MayOverlapItself();
    state.index = index.data();
    lua_pushvalue(L, 3);
    lua_pushlightuserdata(L, &state);
    lua_pushvalue(L, 2);
    ++nesting;
    int status;
    {
      // fn is script code: allocators that cap the script apply again
      // (native_code.h).
      InNativeCode script(false);
      status = lua_pcall(L, 2, 0, 0);
    }
    --nesting;
    if (status != 0) return PopError(L);
    switch (state.outcome) {
      case WalkState::Outcome::kDone: break;
      case WalkState::Outcome::kInvalid: return LuaTensor::CheckSelf(tensor, method);
      case WalkState::Outcome::kBadResult: return WriteError(L, state, method, tensor.dtype());
    }
  }
  return ReturnSelf(L);
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
  return ReturnSelf(L);
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
