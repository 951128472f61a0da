#include "lua_api/tensor/method_arguments.h"

#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"

namespace lua_api {

using tensor::Index;

std::string ArgumentAt(const char* method, int index, absl::string_view why) {
  return ArgumentError(method, index - 1, why);
}

std::string OutOfRange(const char* method, int index, const char* what, Index value, Index low,
                       Index high) {
  return ArgumentAt(method, index,
                    absl::StrCat(what, " ", value, " out of range [", low, ", ", high, "]"));
}

std::string DimensionOfEmpty(lua_State* L, int index, const char* method) {
  std::int64_t value;
  if (std::string why = ReadInteger(L, index, &value); !why.empty()) {
    return ArgumentAt(method, index, why);
  }
  return ArgumentAt(method, index,
                    absl::StrCat("dimension ", value, " out of range: the tensor is empty"));
}

std::string ReadOptionalNumber(lua_State* L, int index, const char* method, double* value) {
  if (lua_isnoneornil(L, index)) return {};
  if (std::string why = ReadNumber(L, index, value); !why.empty()) {
    return ArgumentAt(method, index, why);
  }
  return {};
}

std::string CheckNoMore(lua_State* L, int last, const char* method) {
  if (lua_gettop(L) <= last) return {};
  return ArgumentAt(method, last + 1, Expected(L, last + 1, "no value"));
}

NResultsOr PushResult(lua_State* L, const char* method, absl::StatusOr<tensor::Tensor> result) {
  if (!result.ok()) return StatusError(method, result.status());
  LuaTensor::Push(L, *std::move(result));
  return 1;
}

}  // namespace lua_api
