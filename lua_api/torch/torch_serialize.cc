#include "lua_api/torch/torch_serialize.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/dtype.h"
#include "tensor/work_meter.h"

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

// The arguments (format, number) of pack and format: a number an integer
// format's type can hold.
std::string ReadNumberToWrite(lua_State* L, char* format, double* value) {
  *format = ReadFormat(L);
  if (*format == 0) return ArgumentError("serialize", 1, "format 'i', 'l' or 'd' expected");
  if (std::string why = ReadNumber(L, 2, value); !why.empty()) {
    return ArgumentError("serialize", 2, why);
  }
  if (*format == 'l' && !(*value >= -0x1p63 && *value < 0x1p63)) {
    return ArgumentError("serialize", 2, "out of int64's range");
  }
  if (*format == 'i' && !(*value >= -0x1p31 && *value < 0x1p31)) {
    return ArgumentError("serialize", 2, "out of int32's range");
  }
  return {};
}

// [-0, +1, e] pack(format, number)
NResultsOr Pack(lua_State* L) {
  char format;
  double value;
  if (std::string e = ReadNumberToWrite(L, &format, &value); !e.empty()) return e;
  char bytes[8];
  if (format == 'd') {
    std::memcpy(bytes, &value, 8);
  } else if (format == 'l') {
    const auto whole = static_cast<std::int64_t>(value);
    std::memcpy(bytes, &whole, 8);
  } else {
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

// [-0, +2, e] unpack(format, s, pos): the number and the position after it.
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

// The contiguous tensor at stack 1 and its first element's address. Its
// elements are about to be written or read: work the watchdog sees
// (tensor/work_meter.h), charged here.
std::string ReadContiguous(lua_State* L, const char* function, const tensor::Tensor** out,
                           std::byte** data) {
  LuaTensor* tensor;
  if (std::string e = ReadTensorArgument(L, 1, function, &tensor); !e.empty()) return e;
  if (!tensor->tensor().layout().IsContiguous()) {
    return ArgumentError(function, 1, "a contiguous tensor expected");
  }
  absl::StatusOr<std::byte*> origin = tensor->tensor().data();
  if (!origin.ok()) return StatusError(function, origin.status());
  if (absl::Status charged = tensor::ChargeWork(tensor->tensor().num_elements()); !charged.ok()) {
    return StatusError(function, charged);
  }
  *out = &tensor->tensor();
  *data = *origin;
  return {};
}

// [-0, +1, e] elementBytes(t)
NResultsOr ElementBytes(lua_State* L) {
  const tensor::Tensor* t;
  std::byte* data;
  if (std::string e = ReadContiguous(L, "serialize", &t, &data); !e.empty()) return e;
  lua_pushlstring(L, reinterpret_cast<const char*>(data),
                  static_cast<std::size_t>(t->num_elements()) * t->item_size());
  return 1;
}

// [-0, +1, e] readElements(t, s, pos): the position after them.
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

// The ascii format is Torch7's DiskFile in ascii mode with autospacing:
// a number is text and a newline; n numbers are texts separated by spaces,
// then a newline; chars and bytes are raw, then a newline (none for zero).
// Each read skips the white space before a number, as fscanf does, and
// one newline after what it read.

// The 1-based position at stack `index` in a string of `length` bytes, as
// a 0-based offset (length itself: at the end).
std::string ReadStart(lua_State* L, int index, std::size_t length, std::size_t* offset) {
  return ReadPosition(L, index, length, 0, offset);
}

std::size_t SkipNewline(const char* s, std::size_t length, std::size_t at) {
  return at < length && s[at] == '\n' ? at + 1 : at;
}

std::string NoNumberAt(std::size_t at, std::size_t length) {
  if (at >= length) return "'deserialize': the data ends early (a number expected)";
  return absl::StrCat("'deserialize': a number expected at byte ", at + 1);
}

bool IsSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The whole number in s (NUL-terminated, as Lua's strings are) at or after
// *at, and *at moved past its text.
std::string ScanWhole(const char* s, std::size_t length, std::size_t* at, std::int64_t* value) {
  while (*at < length && IsSpace(s[*at])) ++*at;
  char* end;
  errno = 0;
  const long long whole = std::strtoll(s + *at, &end, 10);
  if (end == s + *at) return NoNumberAt(*at, length);
  if (errno == ERANGE) return absl::StrCat("'deserialize': out of int64's range at byte ", *at + 1);
  *at = static_cast<std::size_t>(end - s);
  *value = whole;
  return {};
}

// The same for a real number ("inf" and "nan" included).
std::string ScanReal(const char* s, std::size_t length, std::size_t* at, double* value) {
  while (*at < length && IsSpace(s[*at])) ++*at;
  char* end;
  errno = 0;
  const double real = std::strtod(s + *at, &end);
  if (end == s + *at) return NoNumberAt(*at, length);
  // Only overflow is refused: glibc reports underflow (a subnormal) too.
  if (errno == ERANGE && std::isinf(real)) {
    return absl::StrCat("'deserialize': out of double's range at byte ", *at + 1);
  }
  *at = static_cast<std::size_t>(end - s);
  *value = real;
  return {};
}

// [-0, +1, e] format(format, number): Torch7's text for the number ('i': %d, 'l': %ld,
// 'd': %.17g).
NResultsOr Format(lua_State* L) {
  char format;
  double value;
  if (std::string e = ReadNumberToWrite(L, &format, &value); !e.empty()) return e;
  char text[32];
  if (format == 'd') {
    std::snprintf(text, sizeof(text), "%.17g", value);
  } else {
    std::snprintf(text, sizeof(text), "%lld", static_cast<long long>(value));
  }
  lua_pushstring(L, text);
  return 1;
}

// [-0, +2, e] scan(format, s, pos): the number at or after byte pos, and the position
// after it and its newline.
NResultsOr Scan(lua_State* L) {
  const char format = ReadFormat(L);
  if (format == 0) return ArgumentError("deserialize", 1, "format 'i', 'l' or 'd' expected");
  std::size_t length;
  const char* s = lua_tolstring(L, 2, &length);
  if (s == nullptr) return ArgumentError("deserialize", 2, Expected(L, 2, "string"));
  std::size_t at;
  if (std::string e = ReadStart(L, 3, length, &at); !e.empty()) return e;
  double value;
  if (format == 'd') {
    if (std::string e = ScanReal(s, length, &at, &value); !e.empty()) return e;
  } else {
    std::int64_t whole;
    if (std::string e = ScanWhole(s, length, &at, &whole); !e.empty()) return e;
    if (format == 'i' && (whole < INT32_MIN || whole > INT32_MAX)) {
      return "'deserialize': an int out of int32's range";
    }
    value = static_cast<double>(whole);
  }
  lua_pushnumber(L, value);
  lua_pushnumber(L, static_cast<lua_Number>(SkipNewline(s, length, at) + 1));
  return 2;
}

// Torch7 writes and reads bytes and chars raw, in either format.
bool IsRaw(const tensor::Tensor& t) { return t.item_size() == 1; }

// [-0, +1, e] elementText(t): a contiguous tensor's elements in the ascii format: %.17g
// for doubles, %.9g for the narrower reals, %d for integers.
NResultsOr ElementText(lua_State* L) {
  const tensor::Tensor* t;
  std::byte* data;
  if (std::string e = ReadContiguous(L, "serialize", &t, &data); !e.empty()) return e;
  const auto count = static_cast<std::size_t>(t->num_elements());
  std::string text;
  if (count > 0 && IsRaw(*t)) {
    text.assign(reinterpret_cast<const char*>(data), count);
    text += '\n';
  } else if (count > 0) {
    tensor::DispatchDType(t->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* elements = reinterpret_cast<const T*>(data);
      char item[40];
      for (std::size_t i = 0; i < count; ++i) {
        int n;
        if constexpr (std::is_same_v<T, double>) {
          n = std::snprintf(item, sizeof(item), "%.17g", elements[i]);
        } else if constexpr (tensor::kIsFloating<T>) {
          n = std::snprintf(item, sizeof(item), "%.9g",
                            static_cast<double>(static_cast<float>(elements[i])));
        } else {
          n = std::snprintf(item, sizeof(item), "%lld", static_cast<long long>(elements[i]));
        }
        text.append(item, static_cast<std::size_t>(n));
        text += i + 1 < count ? ' ' : '\n';
      }
    });
  }
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// The next element's text, read into *out, or why it cannot be.
template <typename T>
std::string StoreScanned(const char* s, std::size_t length, std::size_t* at, T* out) {
  if constexpr (tensor::kIsFloating<T>) {
    double real;
    if (std::string e = ScanReal(s, length, at, &real); !e.empty()) return e;
    if constexpr (std::is_same_v<T, double>) {
      *out = real;
    } else {
      if (std::isfinite(real) && std::fabs(real) > FLT_MAX) {
        return absl::StrCat("'deserialize': ", real, " is out of float's range");
      }
      *out = T(static_cast<float>(real));
    }
  } else {
    std::int64_t whole;
    if (std::string e = ScanWhole(s, length, at, &whole); !e.empty()) return e;
    if (whole < std::numeric_limits<T>::min() || whole > std::numeric_limits<T>::max()) {
      return absl::StrCat("'deserialize': ", whole, " is out of the storage type's range");
    }
    *out = static_cast<T>(whole);
  }
  return {};
}

// [-0, +1, e] readElementText(t, s, pos): fills contiguous t from the ascii text at
// pos; the position after it.
NResultsOr ReadElementText(lua_State* L) {
  const tensor::Tensor* t;
  std::byte* data;
  if (std::string e = ReadContiguous(L, "deserialize", &t, &data); !e.empty()) return e;
  std::size_t length;
  const char* s = lua_tolstring(L, 2, &length);
  if (s == nullptr) return ArgumentError("deserialize", 2, Expected(L, 2, "string"));
  const auto count = static_cast<std::size_t>(t->num_elements());
  std::size_t at;
  if (IsRaw(*t)) {
    if (std::string e = ReadPosition(L, 3, length, count, &at); !e.empty()) return e;
    if (count > 0) std::memcpy(data, s + at, count);
    at += count;
  } else {
    if (std::string e = ReadStart(L, 3, length, &at); !e.empty()) return e;
    std::string why = tensor::DispatchDType(t->dtype(), [&](auto tag) -> std::string {
      using T = typename decltype(tag)::type;
      T* elements = reinterpret_cast<T*>(data);
      for (std::size_t i = 0; i < count; ++i) {
        if (std::string e = StoreScanned(s, length, &at, &elements[i]); !e.empty()) return e;
      }
      return {};
    });
    if (!why.empty()) return why;
  }
  if (count > 0) at = SkipNewline(s, length, at);
  lua_pushnumber(L, static_cast<lua_Number>(at + 1));
  return 1;
}

// [-0, +1, e] storageKey(t): a light userdata naming t's storage (nil without one), so
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
  lua_pushcfunction(L, &Raising<&Format>);
  lua_setfield(L, -2, "format");
  lua_pushcfunction(L, &Raising<&Scan>);
  lua_setfield(L, -2, "scan");
  lua_pushcfunction(L, &Raising<&ElementText>);
  lua_setfield(L, -2, "elementText");
  lua_pushcfunction(L, &Raising<&ReadElementText>);
  lua_setfield(L, -2, "readElementText");
  lua_pushcfunction(L, &StorageKey);
  lua_setfield(L, -2, "storageKey");
}

}  // namespace lua_api
