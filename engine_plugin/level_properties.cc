// LevelScript's property callbacks, answered as DeepMind Lab's levels answer
// them (level_script.h: ReadProperty, WriteProperty, ListProperty).
#include <initializer_list>
#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/level_script.h"
#include "engine_plugin/stack_scope.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"

namespace engine_plugin {
namespace {

// The attributes a listProperty mode string ('r', 'w', 'l' in any mix) means.
int Attributes(absl::string_view mode) {
  int attributes = 0;
  if (absl::StrContains(mode, 'r')) attributes |= kReadable;
  if (absl::StrContains(mode, 'w')) attributes |= kWritable;
  if (absl::StrContains(mode, 'l')) attributes |= kListable;
  return attributes;
}

using Visit = absl::FunctionRef<void(absl::string_view, int)>;

// [-2, +0, e] The callback handed to listProperty: callback(key, mode).
lua_api::NResultsOr VisitProperty(lua_State* L) {
  std::string key;
  std::string mode;
  if (std::string why = lua_api::ReadString(L, 1, &key); !why.empty()) {
    return lua_api::ArgumentError("listProperty callback", 1, why);
  }
  if (std::string why = lua_api::ReadString(L, 2, &mode); !why.empty()) {
    return lua_api::ArgumentError("listProperty callback", 2, why);
  }
  // The box's pointer is cleared when listProperty returns: a script that
  // kept the callback gets an error instead of a dangling call.
  Visit* visit = *static_cast<Visit**>(lua_touserdata(L, lua_upvalueindex(1)));
  if (visit == nullptr) return "the listProperty callback was called after listProperty returned";
  (*visit)(key, Attributes(mode));
  return 0;
}

// [-0, +0, -] The RESULT code (DeepMind Lab's EnvCApi_PropertyResult, as its
// common/property_helpers.lua numbers them) at `index`, if it is one of
// `allowed` (codes from kSuccess = 0 on).
std::optional<PropertyResult> ResultCode(lua_State* L, int index,
                                         std::initializer_list<PropertyResult> allowed) {
  if (lua_type(L, index) != LUA_TNUMBER) return std::nullopt;
  const lua_Number code = lua_tonumber(L, index);
  for (PropertyResult result : allowed) {
    if (code == static_cast<int>(result)) return result;
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<PropertyResult> LevelScript::ReadProperty(absl::string_view key,
                                                         std::string* value) {
  const StackScope stack(L_);
  if (!PushCallback("readProperty")) return PropertyResult::kNotFound;
  lua_pushlstring(L_, key.data(), key.size());
  if (absl::Status status = CallCallback("readProperty", 1, 1); !status.ok()) return status;
  const int result = stack.at(1);
  if (lua_type(L_, result) == LUA_TSTRING) {
    *value = lua_tostring(L_, result);
    return PropertyResult::kSuccess;
  }
  if (lua_isnil(L_, result)) return PropertyResult::kNotFound;
  if (std::optional<PropertyResult> code = ResultCode(
          L_, result, {PropertyResult::kNotFound, PropertyResult::kPermissionDenied})) {
    return *code;
  }
  // A number is a RESULT code, as in DeepMind Lab: a value must be a string.
  std::string got = lua_api::TypeNameAt(L_, result);
  if (lua_type(L_, result) == LUA_TNUMBER) {
    got = absl::StrCat("the number ", lua_tonumber(L_, result), " (a value must be a string)");
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "level callback 'readProperty' must return a string, nil, 1 (RESULT.NOT_FOUND) or 2 "
      "(RESULT.PERMISSION_DENIED), not ", got));
}

absl::StatusOr<PropertyResult> LevelScript::WriteProperty(absl::string_view key,
                                                          absl::string_view value) {
  const StackScope stack(L_);
  if (!PushCallback("writeProperty")) return PropertyResult::kNotFound;
  lua_pushlstring(L_, key.data(), key.size());
  lua_pushlstring(L_, value.data(), value.size());
  if (absl::Status status = CallCallback("writeProperty", 2, 1); !status.ok()) return status;
  const int result = stack.at(1);
  if (lua_isboolean(L_, result) || lua_isnil(L_, result)) {
    return lua_toboolean(L_, result) ? PropertyResult::kSuccess : PropertyResult::kNotFound;
  }
  if (std::optional<PropertyResult> code = ResultCode(
          L_, result, {PropertyResult::kSuccess, PropertyResult::kNotFound,
                       PropertyResult::kPermissionDenied, PropertyResult::kInvalidArgument})) {
    return *code;
  }
  std::string got = lua_api::TypeNameAt(L_, result);
  if (lua_type(L_, result) == LUA_TNUMBER) {
    got = absl::StrCat("the number ", lua_tonumber(L_, result));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "level callback 'writeProperty' must return a RESULT code (0 success, 1 not found, 2 "
      "permission denied, 3 invalid argument), true, false or nil, not ", got));
}

absl::StatusOr<PropertyResult> LevelScript::ListProperty(absl::string_view key, Visit visit) {
  const StackScope stack(L_);
  if (!PushCallback("listProperty")) return PropertyResult::kNotFound;
  // Counts the keys listed, for a level that returns nothing.
  int listed = 0;
  auto counted = [&](absl::string_view child, int attributes) {
    ++listed;
    visit(child, attributes);
  };
  Visit counting = counted;
  // The box stays on the stack below the call, so that it outlives it: a
  // collection after the call (the engine collects a failed callback's
  // garbage) would otherwise free it before it is cleared.
  Visit** box = static_cast<Visit**>(lua_newuserdata(L_, sizeof(Visit*)));
  *box = &counting;
  lua_insert(L_, -3);  // box, function, api
  lua_pushlstring(L_, key.data(), key.size());
  lua_pushvalue(L_, -4);
  lua_pushcclosure(L_, &lua_api::Raising<&VisitProperty>, 1);
  absl::Status status = CallCallback("listProperty", 2, 1);
  // A script that kept the callback gets an error from it from now on.
  *box = nullptr;
  if (!status.ok()) return status;
  // As DeepMind Lab reads it: true listed, false not listable (a value),
  // nil not found; nil after listing keys counts as listed.
  const int result = lua_gettop(L_);
  if (lua_isboolean(L_, result)) {
    return lua_toboolean(L_, result) ? PropertyResult::kSuccess
                                     : PropertyResult::kPermissionDenied;
  }
  if (lua_isnil(L_, result)) {
    return listed > 0 ? PropertyResult::kSuccess : PropertyResult::kNotFound;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("level callback 'listProperty' must return true, false or nil, not ",
                   lua_api::TypeNameAt(L_, result)));
}

}  // namespace engine_plugin
