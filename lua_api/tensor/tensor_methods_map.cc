// map and map2: Torch7's element-wise Lua callbacks over two or three
// tensors.
//
//   x:map(y, function(xv, yv) return xv * yv end)
//   x:map2(y, z, function(xv, yv, zv) return xv + yv * zv end)
//
// The tensors' elements are paired in row-major order of each one's own
// shape: the counts must match, the shapes need not, and the other tensors
// may have any type. A number returned replaces x's element; nil leaves it.
//
// As for apply (tensor_methods_functional.cc), fn runs under lua_pcall, so
// its error comes back as a message and is raised only after the C++
// frames here have closed; and fn may make any tensor invalid (by asking
// the host to revoke a loan), so validity is checked after every call.
// Each pair is read just before fn is called and x's element written just
// after: a y that shares memory with x sees the elements already written.
#include <cstddef>
#include <cstdio>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/native_code.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/work_meter.h"

namespace lua_api {
namespace {

using tensor::Index;

// Walks one tensor's elements in row-major order of its shape, whatever
// its strides, and reads or writes them as Lua numbers.
class RowMajorCursor {
 public:
  // REQUIRES: `origin` is the valid CPU data of `tensor`.
  RowMajorCursor(const tensor::Tensor& tensor, std::byte* origin)
      : layout_(tensor.layout()),
        item_(static_cast<Index>(tensor.item_size())),
        element_(origin),
        position_(tensor.rank(), 0) {
    tensor::DispatchDType(tensor.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      read_ = [](const std::byte* p) {
        return static_cast<lua_Number>(
            static_cast<tensor::ComputeType<T>>(*reinterpret_cast<const T*>(p)));
      };
      write_ = [](std::byte* p, lua_Number value) {
        *reinterpret_cast<T*>(p) = static_cast<T>(static_cast<tensor::ComputeType<T>>(value));
      };
    });
  }

  lua_Number Read() const { return read_(element_); }
  // REQUIRES: CheckValue(value, dtype) is "".
  void Write(lua_Number value) const { write_(element_, value); }

  void Next() {
    for (int d = layout_.rank() - 1; d >= 0; --d) {
      element_ += layout_.strides()[d] * item_;
      if (++position_[d] < layout_.shape()[d]) return;
      element_ -= layout_.strides()[d] * layout_.shape()[d] * item_;
      position_[d] = 0;
    }
  }

  // "[2, 3]": the 1-based position, for messages.
  std::string Position() const {
    std::string text = "[";
    for (std::size_t d = 0; d < position_.size(); ++d) {
      absl::StrAppend(&text, d == 0 ? "" : ", ", position_[d] + 1);
    }
    return text + "]";
  }

 private:
  const tensor::Layout& layout_;
  const Index item_;
  std::byte* element_;
  tensor::Shape position_;
  lua_Number (*read_)(const std::byte*) = nullptr;
  void (*write_)(std::byte*, lua_Number) = nullptr;
};

// [-1, +0, -] Pops the error that lua_pcall left and returns it as the
// message to raise: fn's own message, unchanged.
std::string PopError(lua_State* L) {
  std::string message;
  if (lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER) {
    std::size_t length;
    const char* text = lua_tolstring(L, -1, &length);
    message.assign(text, length);
  } else {
    // NResultsOr carries text only: describe an error object.
    message = absl::StrCat("(error object is a ", luaL_typename(L, -1), " value)");
  }
  lua_pop(L, 1);
  return message;
}

// Nested map calls hold C frames while fn runs, and LuaJIT does not bound
// C-to-Lua-to-C recursion: the bound that apply has, for the same reason.
constexpr int kMaxNesting = 200;
thread_local int nesting = 0;

// The walk of map (kOthers 1) and map2 (kOthers 2). Stack: self, the
// others, fn; the same on return.
template <int kOthers>
NResultsOr Walk(lua_State* L, const char* method, const tensor::Tensor (&tensors)[kOthers + 1],
                std::byte* const (&origins)[kOthers + 1]) {
  const int fn = kOthers + 2;
  const int base = lua_gettop(L);
  const tensor::Tensor& self = tensors[0];
  const bool writable = !self.layout().MayOverlapItself();
  absl::InlinedVector<RowMajorCursor, kOthers + 1> cursors;
  for (int i = 0; i <= kOthers; ++i) cursors.emplace_back(tensors[i], origins[i]);
  for (Index n = self.num_elements(); n > 0; --n) {
    lua_pushvalue(L, fn);
    for (const RowMajorCursor& cursor : cursors) lua_pushnumber(L, cursor.Read());
    int status;
    {
      InNativeCode script(false);  // fn is script code: its allocations are capped
      status = lua_pcall(L, kOthers + 1, 1, 0);
    }
    if (status != 0) return PopError(L);
    // fn may have ended a loan; nothing is read or written after that.
    for (int i = 0; i <= kOthers; ++i) {
      if (absl::Status valid = tensors[i].CheckValid(); !valid.ok()) {
        lua_settop(L, base);
        return i == 0 ? LuaTensor::CheckSelf(self, method)
                      : ArgumentError(method, i,
                                      absl::StrCat(LuaTensor::TypeName(tensors[i].dtype()),
                                                   " is an ", valid.message()));
      }
    }
    if (const int type = lua_type(L, -1); type != LUA_TNIL) {
      const lua_Number value = lua_tonumber(L, -1);
      std::string why = type != LUA_TNUMBER ? absl::StrCat("fn returned a ", lua_typename(L, type),
                                                           "; expected a number or nil")
                        : !writable         ? std::string(
                                                  "several elements share memory (an expanded "
                                                          "view); map into a clone instead")
                                    : CheckValue(value, self.dtype());
      if (!why.empty()) {
        lua_settop(L, base);
        return absl::StrCat("'", method, "': element ", cursors[0].Position(), ": ", why);
      }
      cursors[0].Write(value);
    }
    lua_settop(L, base);
    for (RowMajorCursor& cursor : cursors) cursor.Next();
  }
  return 0;
}

// [-(2 + k), +1, e] x:map(y, fn) and x:map2(y, z, fn): calls fn(xv, yv) or
// fn(xv, yv, zv) for each element in row-major order; a number returned
// replaces xv. Returns self.
template <int kOthers>
NResultsOr MapOp(LuaTensor& self, lua_State* L) {
  const char* method = kOthers == 1 ? "map" : "map2";
  if (std::string e = self.CheckSelf(method); !e.empty()) return e;
  tensor::Tensor tensors[kOthers + 1] = {self.tensor()};
  for (int i = 1; i <= kOthers; ++i) {
    LuaTensor* other = nullptr;
    if (std::string e = ReadTensorArgument(L, i + 1, method, &other); !e.empty()) return e;
    if (other->tensor().num_elements() != self.tensor().num_elements()) {
      return ArgumentError(method, i,
                           absl::StrCat("tensor of ", other->tensor().num_elements(),
                                        " elements, but self has ", self.tensor().num_elements()));
    }
    // Copies share the storage, so the memory stays alive whatever fn does.
    tensors[i] = other->tensor();
  }
  const int fn = kOthers + 2;
  if (lua_type(L, fn) != LUA_TFUNCTION) {
    return ArgumentError(method, kOthers + 1, Expected(L, fn, "function"));
  }
  if (nesting >= kMaxNesting) {
    return absl::StrCat("'", method, "': more than ", kMaxNesting,
                        " nested calls of map and map2; does fn recurse without end?");
  }
  lua_settop(L, fn);
  if (!lua_checkstack(L, kOthers + 2))
    return absl::StrCat("'", method, "': no room on the Lua stack");
  std::byte* origins[kOthers + 1] = {};
  for (int i = 0; i <= kOthers; ++i) {
    if (!tensors[i].device().is_cpu()) {
      return absl::StrCat("'", method, "': a tensor is on ", tensors[i].device().ToString(),
                          "; copy it to the CPU first");
    }
    absl::StatusOr<std::byte*> origin = tensors[i].data();
    if (!origin.ok()) return StatusError(method, origin.status());
    origins[i] = *origin;
  }
  // fn may be a C function, which runs no counted instruction.
  if (absl::Status charged = tensor::ChargeWork(self.tensor().num_elements()); !charged.ok()) {
    return StatusError(method, charged);
  }
  if (self.tensor().num_elements() > 0) {
    ++nesting;
    NResultsOr walked = Walk<kOthers>(L, method, tensors, origins);
    --nesting;
    if (!walked.ok()) return walked;
  }
  return ReturnSelf(L);
}

}  // namespace

void RegisterMapMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"map", &C::Member<&MapOp<1>>},
                  {"map2", &C::Member<&MapOp<2>>},
              });
}

}  // namespace lua_api
