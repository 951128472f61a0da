#include "lua_api/torch_serialize.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "lua_api/lua_tensor.h"
#include "lua_api/n_results_or.h"
#include "lua_api/read.h"

namespace lua_api {
namespace {

// The host is little-endian (x86-64, AArch64), as Torch7's files are.
static_assert(sizeof(double) == 8);

std::size_t WidthOf(char format) {
  switch (format) {
    case 'i': return 4;
    case 'l':
    case 'd': return 8;
    default: return 0;
  }
}

char ReadFormat(lua_State* L) {
  const char* format = lua_tostring(L, 1);
  if (format == nullptr || WidthOf(format[0]) == 0 || format[1] != '\0') return 0;
  return format[0];
}

// pack(format, number)
NResultsOr Pack(lua_State* L) {
  const char format = ReadFormat(L);
  if (format == 0) return ArgumentError("serialize", 1, "format 'i', 'l' or 'd' expected");
  double value;
  if (std::string why = ReadNumber(L, 2, &value); !why.empty()) {
    return ArgumentError("serialize", 2, why);
  }
  char bytes[8];
  if (format == 'd') {
    std::memcpy(bytes, &value, 8);
  } else if (format == 'l') {
    if (!(value >= -0x1p63 && value < 0x1p63)) return ArgumentError("serialize", 2, "out of int64's range");
    const auto whole = static_cast<std::int64_t>(value);
    std::memcpy(bytes, &whole, 8);
  } else {
    if (!(value >= -0x1p31 && value < 0x1p31)) return ArgumentError("serialize", 2, "out of int32's range");
    const auto whole = static_cast<std::int32_t>(value);
    std::memcpy(bytes, &whole, 4);
  }
  lua_pushlstring(L, bytes, WidthOf(format));
  return 1;
}

// The 0-based offset of 1-based position `index` in string `s` with
// `count` bytes wanted there, or the error for a short string.
std::string ReadPosition(lua_State* L, int index, std::size_t length, std::size_t count,
                         std::size_t* offset) {
  std::int64_t position;
  if (std::string why = ReadInteger(L, index, &position); !why.empty()) {
    return ArgumentError("deserialize", index, why);
  }
  if (position < 1 || static_cast<std::size_t>(position - 1) > length ||
      length - static_cast<std::size_t>(position - 1) < count) {
    return absl::StrCat("'deserialize': the data ends early (", count, " bytes wanted at byte ",
                        position, " of ", length, ")");
  }
  *offset = static_cast<std::size_t>(position - 1);
  return {};
}

// unpack(format, s, pos): the number and the position after it.
NResultsOr Unpack(lua_State* L) {
  const char format = ReadFormat(L);
  if (format == 0) return ArgumentError("deserialize", 1, "format 'i', 'l' or 'd' expected");
  std::size_t length;
  const char* data = lua_tolstring(L, 2, &length);
  if (data == nullptr) return ArgumentError("deserialize", 2, Expected(L, 2, "string"));
  std::size_t offset;
  if (std::string e = ReadPosition(L, 3, length, WidthOf(format), &offset); !e.empty()) return e;
  double value;
  if (format == 'd') {
    std::memcpy(&value, data + offset, 8);
  } else if (format == 'l') {
    std::int64_t whole;
    std::memcpy(&whole, data + offset, 8);
    value = static_cast<double>(whole);
  } else {
    std::int32_t whole;
    std::memcpy(&whole, data + offset, 4);
    value = whole;
  }
  lua_pushnumber(L, value);
  lua_pushnumber(L, static_cast<lua_Number>(offset + WidthOf(format) + 1));
  return 2;
}

// The contiguous tensor at stack 1 and its first element's address.
std::string ReadContiguous(lua_State* L, const char* function, const tensor::Tensor** out,
                           std::byte** data) {
  LuaTensor* tensor;
  if (std::string e = ReadTensorArgument(L, 1, function, &tensor); !e.empty()) return e;
  if (!tensor->tensor().layout().IsContiguous()) {
    return ArgumentError(function, 1, "a contiguous tensor expected");
  }
  absl::StatusOr<std::byte*> origin = tensor->tensor().data();
  if (!origin.ok()) return StatusError(function, origin.status());
  *out = &tensor->tensor();
  *data = *origin;
  return {};
}

// elementBytes(t)
NResultsOr ElementBytes(lua_State* L) {
  const tensor::Tensor* t;
  std::byte* data;
  if (std::string e = ReadContiguous(L, "serialize", &t, &data); !e.empty()) return e;
  lua_pushlstring(L, reinterpret_cast<const char*>(data),
                  static_cast<std::size_t>(t->num_elements()) * t->item_size());
  return 1;
}

// readElements(t, s, pos): the position after them.
NResultsOr ReadElements(lua_State* L) {
  const tensor::Tensor* t;
  std::byte* data;
  if (std::string e = ReadContiguous(L, "deserialize", &t, &data); !e.empty()) return e;
  std::size_t length;
  const char* bytes = lua_tolstring(L, 2, &length);
  if (bytes == nullptr) return ArgumentError("deserialize", 2, Expected(L, 2, "string"));
  const std::size_t count = static_cast<std::size_t>(t->num_elements()) * t->item_size();
  std::size_t offset;
  if (std::string e = ReadPosition(L, 3, length, count, &offset); !e.empty()) return e;
  if (count > 0) std::memcpy(data, bytes + offset, count);
  lua_pushnumber(L, static_cast<lua_Number>(offset + count + 1));
  return 1;
}

// storageKey(t): a light userdata naming t's storage (nil without one), so
// that tensors sharing a storage write it once.
int StorageKey(lua_State* L) {
  LuaTensor* tensor = LuaTensor::Read(L, 1);
  if (tensor == nullptr || tensor->tensor().storage() == nullptr) {
    lua_pushnil(L);
  } else {
    lua_pushlightuserdata(L, tensor->tensor().storage().get());
  }
  return 1;
}

}  // namespace

void PushTorchSerializeInternals(lua_State* L) {
  lua_pushcfunction(L, &Raising<&Pack>);
  lua_setfield(L, -2, "pack");
  lua_pushcfunction(L, &Raising<&Unpack>);
  lua_setfield(L, -2, "unpack");
  lua_pushcfunction(L, &Raising<&ElementBytes>);
  lua_setfield(L, -2, "elementBytes");
  lua_pushcfunction(L, &Raising<&ReadElements>);
  lua_setfield(L, -2, "readElements");
  lua_pushcfunction(L, &StorageKey);
  lua_setfield(L, -2, "storageKey");
}

}  // namespace lua_api
