#include "lua_api/tensor/extents_argument.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "lua_api/lua/read.h"

namespace lua_api {
namespace {

// "" if `extent` is allowed, else why not.
std::string CheckExtent(std::int64_t extent, ExtentsAllow allow) {
  if (extent >= 1 || (extent == -1 && allow != ExtentsAllow::kPositive)) return {};
  return absl::StrCat("extent must be at least 1", allow == ExtentsAllow::kPositive ? "" : " (or -1)",
                      ", got ", extent);
}

}  // namespace

std::string ReadExtents(lua_State* L, int first, int first_argument, const char* function,
                        ExtentsAllow allow, std::vector<tensor::Index>* extents) {
  const int top = lua_gettop(L);
  extents->clear();
  if (lua_type(L, first) == LUA_TTABLE) {
    if (top > first) {
      return ArgumentError(function, first_argument + 1,
                           Expected(L, first + 1, "no value after a table of extents"));
    }
    const int length = static_cast<int>(lua_objlen(L, first));
    if (length == 0) return ArgumentError(function, first_argument, "no extents in the table");
    for (int i = 1; i <= length; ++i) {
      lua_rawgeti(L, first, i);
      std::int64_t extent = 0;
      std::string why = ReadInteger(L, -1, &extent);
      lua_pop(L, 1);
      if (why.empty()) why = CheckExtent(extent, allow);
      if (!why.empty()) return ArgumentError(function, first_argument, absl::StrCat("[", i, "]: ", why));
      extents->push_back(extent);
    }
    return {};
  }
  if (top < first) {
    return ArgumentError(function, first_argument,
                         Expected(L, first, "extents or a table of extents"));
  }
  for (int index = first; index <= top; ++index) {
    std::int64_t extent = 0;
    std::string why = ReadInteger(L, index, &extent);
    if (why.empty()) why = CheckExtent(extent, allow);
    if (!why.empty()) return ArgumentError(function, first_argument + index - first, why);
    extents->push_back(extent);
  }
  return {};
}

}  // namespace lua_api
