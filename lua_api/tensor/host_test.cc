#include "lua_api/tensor/host_test.h"

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/native_code.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/dtype.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

// A test buffer larger than this is a mistake, not a test; refusing it
// keeps a typo from exhausting memory.
constexpr std::size_t kMaxBytes = std::size_t{1} << 30;

// The module's element type called `name` ("DoubleTensor"), if any.
std::optional<tensor::DType> LuaDType(const std::string& name) {
  for (tensor::DType dtype : kLuaDTypes) {
    if (name == tensor::DTypeTensorName(dtype)) return dtype;
  }
  return std::nullopt;
}

// Fills `buffer` with `value` as T, or says why T cannot hold it. Checked
// first because an out-of-range float-to-integer conversion is undefined.
template <typename T>
std::string FillAs(double value, std::vector<std::byte>& buffer) {
  if constexpr (std::is_integral_v<T>) {
    // max + 1 is a power of two, so exact as a double even for int64.
    const double upper = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    const double lower = static_cast<double>(std::numeric_limits<T>::min());
    if (!(std::trunc(value) == value && value >= lower && value < upper)) {
      return absl::StrCat("value ", value, " does not fit the element type");
    }
  } else if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<T>::max()) {
    return absl::StrCat("value ", value, " does not fit the element type");
  }
  const T element = static_cast<T>(value);
  for (std::size_t at = 0; at + sizeof(T) <= buffer.size(); at += sizeof(T)) {
    std::memcpy(buffer.data() + at, &element, sizeof(T));
  }
  return {};
}

std::string Fill(tensor::DType dtype, double value, std::vector<std::byte>& buffer) {
  switch (dtype) {
    case tensor::DType::kUInt8: return FillAs<std::uint8_t>(value, buffer);
    case tensor::DType::kInt8: return FillAs<std::int8_t>(value, buffer);
    case tensor::DType::kInt16: return FillAs<std::int16_t>(value, buffer);
    case tensor::DType::kInt32: return FillAs<std::int32_t>(value, buffer);
    case tensor::DType::kInt64: return FillAs<std::int64_t>(value, buffer);
    case tensor::DType::kFloat32: return FillAs<float>(value, buffer);
    default: return FillAs<double>(value, buffer);  // LuaDType admits only kLuaDTypes.
  }
}

// Reads argument 2, a non-empty table of integer extents >= 0.
std::string ReadShape(lua_State* L, tensor::Shape* shape) {
  if (!lua_istable(L, 2)) return ArgumentError("lend", 2, Expected(L, 2, "table of extents"));
  const std::size_t rank = lua_objlen(L, 2);
  if (rank == 0) return ArgumentError("lend", 2, "the shape has no extents");
  for (std::size_t i = 1; i <= rank; ++i) {
    lua_rawgeti(L, 2, static_cast<int>(i));
    std::int64_t extent = -1;
    std::string why = ReadInteger(L, -1, &extent);
    if (why.empty() && extent < 0) why = Expected(L, -1, "extent >= 0");
    lua_pop(L, 1);
    if (!why.empty()) return ArgumentError("lend", 2, absl::StrCat("extent ", i, ": ", why));
    shape->push_back(extent);
  }
  return {};
}

// [-0, +r, m] All the C++ objects of lend live in this function, so they are gone
// before Lend raises. On success, *status is fn's lua_pcall status, and
// above the original arguments lie fn's results (status 0) or its error
// value (status != 0); the count of those values is returned.
NResultsOr LendAndCall(lua_State* L, int* status) {
  const int top = lua_gettop(L);
  std::string type_name;
  if (std::string why = ReadString(L, 1, &type_name); !why.empty()) {
    return ArgumentError("lend", 1, why);
  }
  const std::optional<tensor::DType> dtype = LuaDType(type_name);
  if (!dtype) {
    return ArgumentError("lend", 1, absl::StrCat("unknown tensor type '", type_name,
                                                 "'; expected e.g. 'DoubleTensor'"));
  }
  tensor::Shape shape;
  if (std::string e = ReadShape(L, &shape); !e.empty()) return e;
  double fill_value;
  if (std::string why = ReadNumber(L, 3, &fill_value); !why.empty()) {
    return ArgumentError("lend", 3, why);
  }
  if (!lua_isfunction(L, 4)) return ArgumentError("lend", 4, Expected(L, 4, "function"));

  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
  if (!layout.ok()) return ArgumentError("lend", 2, layout.status().message());
  const std::size_t item = tensor::DTypeSize(*dtype);
  const auto elements = static_cast<std::size_t>(layout->num_elements());
  if (elements > kMaxBytes / item) {
    return ArgumentError("lend", 2, absl::StrCat(elements, " elements exceed the ", kMaxBytes,
                                                 "-byte limit of a test buffer"));
  }

  // The tensor metatables must exist before LuaTensor::Push can use them.
  lua_getglobal(L, "require");
  lua_pushstring(L, "dmlab.system.tensor");
  if (NResultsOr loaded = Call(L, 1, 0); !loaded.ok()) {
    return absl::StrCat("host_test.lend: cannot load dmlab.system.tensor: ", loaded.error());
  }
  // fn, the tensor, and the top - 4 extra arguments.
  if (!lua_checkstack(L, top - 2)) return "host_test.lend: too many arguments";

  std::vector<std::byte> buffer;  // Declared before the loan: freed after it ends.
  try {
    buffer.resize(elements * item);
  } catch (const std::bad_alloc&) {
    return absl::StrCat("host_test.lend: cannot allocate ", elements * item, " bytes");
  }
  if (std::string why = Fill(*dtype, fill_value, buffer); !why.empty()) {
    return ArgumentError("lend", 3, why);
  }
  tensor::ScopedLoan loan(kHostTestLender);
  absl::StatusOr<tensor::Tensor> lent =
      tensor::Tensor::Lend(*dtype, *std::move(layout), buffer.data(), buffer.size(), loan.token());
  if (!lent.ok()) return absl::StrCat("host_test.lend: ", lent.status().message());

  lua_pushvalue(L, 4);
  LuaTensor::Push(L, *std::move(lent));
  for (int i = 5; i <= top; ++i) lua_pushvalue(L, i);
  {
    InNativeCode script(false);  // fn is script code
    *status = lua_pcall(L, top - 3, LUA_MULTRET, 0);
  }
  return lua_gettop(L) - top;
}  // The loan is revoked, then the buffer freed.

// [-0, +n, e] host_test.lend(typeName, shape, fillValue, fn, ...)
int Lend(lua_State* L) {
  int status = 0;
  int n_results = 0;
  {
    InNativeCode native;
    NResultsOr result = LendAndCall(L, &status);
    if (result.ok()) {
      n_results = result.n_results();
    } else {
      lua_pushlstring(L, result.error().data(), result.error().size());
      status = -1;
    }
  }  // No C++ object is left in this frame when lua_error longjmps.
  // fn's error value is re-raised as it is: a table stays a table.
  if (status != 0) return lua_error(L);
  return n_results;
}

}  // namespace

void RegisterHostTestModule(lua_State* L) {
  SetPreload(L, "dmlab.system.host_test", &luaopen_dmlab_system_host_test);
}

}  // namespace lua_api

extern "C" int luaopen_dmlab_system_host_test(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, &lua_api::Lend);
  lua_setfield(L, -2, "lend");
  return 1;
}
