#include "lua_api/tensor/lua_tensor.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "lua_api/lua/read.h"
#include "tensor/block_pool.h"
#include "tensor/work_meter.h"

namespace lua_api {
namespace {

// All 17 significant digits: a message must not round 255.9999 to 256.
std::string NumberString(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

template <typename T>
std::string CheckValueOf(double value, tensor::DType dtype) {
  if (HoldsValue<T>(value)) [[likely]] {
    return {};
  }
  return absl::StrCat(tensor::DTypeTensorName(dtype), " cannot hold ", NumberString(value));
}

// REQUIRES: HoldsValue<T>(value).
template <typename T>
T StoredValue(double value) {
  if constexpr (std::is_same_v<T, tensor::Float16> || std::is_same_v<T, tensor::BFloat16>) {
    return T(static_cast<float>(value));
  } else {
    return static_cast<T>(value);
  }
}

// "1 entry", "3 entries".
std::string Entries(tensor::Index n) { return absl::StrCat(n, n == 1 ? " entry" : " entries"); }

// Walks a nested table with lua_next rather than 1..#t, so that stray keys
// and holes are errors instead of being silently skipped.
template <typename T>
class TableReader {
 public:
  TableReader(lua_State* L, const tensor::Tensor& destination, absl::string_view mismatch)
      : L_(L), destination_(destination), mismatch_(mismatch) {}

  // [-0, +0, m] Reads the table at absolute stack `index`, the entries of
  // dimension `dim`, into `out` (element [.., 0, ..] of that dimension).
  std::string Read(int index, int dim, T* out) {
    const tensor::Index extent = destination_.shape()[dim];
    const tensor::Index stride = destination_.layout().strides()[dim];
    const bool leaves = dim + 1 == destination_.rank();
    if (const auto length = static_cast<tensor::Index>(lua_objlen(L_, index)); length != extent) {
      return absl::StrCat(mismatch_, Path(), " has ", Entries(length), ", expected ", extent);
    }
    // Key and value, and the next level's pair.
    if (!lua_checkstack(L_, 4)) return absl::StrCat(Path(), " is nested too deeply");
    tensor::Index count = 0;
    lua_pushnil(L_);
    while (lua_next(L_, index) != 0) {
      std::string error;
      const double key = lua_type(L_, -2) == LUA_TNUMBER ? lua_tonumber(L_, -2) : 0;
      if (!(key >= 1 && key <= extent && std::trunc(key) == key)) {
        error = absl::StrCat(mismatch_, Path(), " has the key ", KeyString(-2), " besides its ",
                             Entries(extent));
      } else {
        ++count;
        path_.push_back(static_cast<tensor::Index>(key));
        T* at = out + (static_cast<tensor::Index>(key) - 1) * stride;
        error = leaves ? ReadLeaf(at) : ReadInner(dim + 1, at);
        path_.pop_back();
      }
      lua_pop(L_, 1);  // the value; lua_next needs the key
      if (!error.empty()) {
        lua_pop(L_, 1);
        return error;
      }
    }
    if (count != extent) {
      return absl::StrCat(mismatch_, Path(), " has holes: ", count, " of its ", Entries(extent),
                          " are set");
    }
    return {};
  }

 private:
  // The value on top of the stack, a leaf.
  std::string ReadLeaf(T* at) {
    if (lua_type(L_, -1) == LUA_TTABLE) {
      return absl::StrCat(mismatch_, Path(), " is a table, expected a number");
    }
    double value;
    if (std::string why = ReadNumber(L_, -1, &value); !why.empty()) {
      return absl::StrCat(Path(), ": ", why);
    }
    if (std::string why = CheckValueOf<T>(value, destination_.dtype()); !why.empty()) {
      return absl::StrCat(Path(), ": ", why);
    }
    *at = StoredValue<T>(value);
    return {};
  }

  // The value on top of the stack, the table of dimension `dim`.
  std::string ReadInner(int dim, T* at) {
    if (lua_type(L_, -1) == LUA_TNUMBER) {
      return absl::StrCat(mismatch_, Path(), " is a number, expected a table of ",
                          Entries(destination_.shape()[dim]));
    }
    if (lua_type(L_, -1) != LUA_TTABLE) {
      return absl::StrCat(Path(), ": ", Expected(L_, -1, "table"));
    }
    return Read(lua_gettop(L_), dim, at);
  }

  // "[2][3]", or "the table" at the top.
  std::string Path() const {
    if (path_.empty()) return "the table";
    std::string path;
    for (tensor::Index key : path_) absl::StrAppend(&path, "[", key, "]");
    return path;
  }

  // Describes a key without converting it in place, which would confuse
  // lua_next.
  std::string KeyString(int index) const {
    switch (lua_type(L_, index)) {
      case LUA_TNUMBER: return NumberString(lua_tonumber(L_, index));
      case LUA_TSTRING: return absl::StrCat("'", lua_tostring(L_, index), "'");
      default: return absl::StrCat("of type ", TypeNameAt(L_, index));
    }
  }

  lua_State* L_;
  const tensor::Tensor& destination_;
  absl::string_view mismatch_;
  std::vector<tensor::Index> path_;
};

void* NewTensorBlock() { return ::operator new(sizeof(LuaTensor)); }
void DeleteTensorBlock(void* block) { ::operator delete(block); }

// 256 blocks of about 160 bytes: enough for a burst of garbage views.
using TensorBlocks = tensor::BlockPool<sizeof(LuaTensor), 256, &NewTensorBlock, &DeleteTensorBlock>;

}  // namespace

void* LuaTensor::operator new(std::size_t size) {
  // Only LuaTensor itself: nothing derives from it, but be exact.
  return size == sizeof(LuaTensor) ? TensorBlocks::Take() : ::operator new(size);
}

void LuaTensor::operator delete(void* block, std::size_t size) {
  if (size == sizeof(LuaTensor)) {
    TensorBlocks::Give(block);
  } else {
    ::operator delete(block);
  }
}

const char* LuaTensor::TypeName(tensor::DType dtype) {
  switch (dtype) {
    case tensor::DType::kBool: return "dmlab.system.tensor.BoolTensor";
    case tensor::DType::kUInt8: return "dmlab.system.tensor.ByteTensor";
    case tensor::DType::kInt8: return "dmlab.system.tensor.CharTensor";
    case tensor::DType::kInt16: return "dmlab.system.tensor.Int16Tensor";
    case tensor::DType::kInt32: return "dmlab.system.tensor.Int32Tensor";
    case tensor::DType::kInt64: return "dmlab.system.tensor.Int64Tensor";
    case tensor::DType::kFloat16: return "dmlab.system.tensor.HalfTensor";
    case tensor::DType::kBFloat16: return "dmlab.system.tensor.BFloat16Tensor";
    case tensor::DType::kFloat32: return "dmlab.system.tensor.FloatTensor";
    case tensor::DType::kFloat64: break;
  }
  return "dmlab.system.tensor.DoubleTensor";
}

void LuaTensor::Push(lua_State* L, tensor::Tensor&& tensor) {
  const char* name = TypeName(tensor.dtype());
  Class<LuaTensor>::CreateObject(L, name, std::move(tensor));
}

std::string LuaTensor::CheckLentSelf(const tensor::Tensor& self, const char* method) {
  absl::Status valid = self.CheckValid();
  if (valid.ok()) [[likely]] {
    return {};
  }
  return absl::StrCat("'", TypeName(self.dtype()), ":", method, "': ", valid.message());
}

std::string ReadTensorArgument(lua_State* L, int index, const char* method, LuaTensor** out) {
  LuaTensor* tensor = LuaTensor::Read(L, index);
  if (tensor == nullptr) return ArgumentError(method, index - 1, Expected(L, index, "tensor"));
  absl::Status valid = tensor->tensor().CheckValid();
  if (!valid.ok()) {
    return ArgumentError(method, index - 1,
                         absl::StrCat(tensor->type_name(), " is an ", valid.message()));
  }
  *out = tensor;
  return {};
}

std::string StatusError(const char* method, const absl::Status& status) {
  // The core's messages often begin with the operation ("clamp: min 2 is
  // greater than max 1"); don't say it twice.
  absl::string_view message = status.message();
  absl::ConsumePrefix(&message, absl::StrCat(method, ": "));
  return absl::StrCat("'", method, "': ", message);
}

std::string CheckValue(double value, tensor::DType dtype) {
  return tensor::DispatchDType(
      dtype, [&](auto tag) { return CheckValueOf<typename decltype(tag)::type>(value, dtype); });
}

std::string ReadTableInto(lua_State* L, int index, const tensor::Tensor& destination,
                          absl::string_view mismatch) {
  if (lua_type(L, index) != LUA_TTABLE) return Expected(L, index, "table");
  if (index < 0 && index > LUA_REGISTRYINDEX) index = lua_gettop(L) + index + 1;
  if (destination.rank() == 0) {
    // The empty tensor: only {} matches.
    lua_pushnil(L);
    if (lua_next(L, index) == 0) return {};
    lua_pop(L, 2);
    return absl::StrCat(mismatch, "the table has entries, expected none for shape []");
  }
  absl::StatusOr<std::byte*> data = destination.data();
  if (!data.ok()) return std::string(data.status().message());
  // One table entry read per element: work the watchdog sees.
  if (absl::Status charged = tensor::ChargeWork(destination.num_elements()); !charged.ok()) {
    return std::string(charged.message());
  }
  return tensor::DispatchDType(destination.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return TableReader<T>(L, destination, mismatch).Read(index, 0, reinterpret_cast<T*>(*data));
  });
}

}  // namespace lua_api
