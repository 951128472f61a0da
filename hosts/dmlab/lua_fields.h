// Reading the tables and results of DeepMind Lab's level callbacks for the
// hooks (context.h): fields of a type, or an error naming the callback.
#ifndef HOSTS_DMLAB_LUA_FIELDS_H_
#define HOSTS_DMLAB_LUA_FIELDS_H_

#include <string>

#include "absl/status/status.h"
#include "lua_api/lua/lua.h"

namespace hosts::dmlab {

// [-0, +1, m] t[key] of the table at `index`, raw (no metamethods); the
// field readers below read so.
void PushRawField(lua_State* L, int index, const char* key);

// Copies `value` and its NUL into `out` (`size` bytes); false when it
// does not fit.
bool CopyString(const std::string& value, char* out, int size);

// [-0, +0, -] The string field `key` of the table at `index`: absent leaves
// *out (an error when `required`); another type is an error.
absl::Status StringField(lua_State* L, int index, const char* key, std::string* out,
                         const char* callback, bool required);

// [-0, +0, -] The integer field `key` (a number in the range of int), as
// StringField.
absl::Status IntField(lua_State* L, int index, const char* key, int* out, const char* callback,
                      bool required);

// [-0, +0, -] The number field `key`, as StringField.
absl::Status NumberField(lua_State* L, int index, const char* key, double* out,
                         const char* callback, bool required);

// [-0, +0, -] The boolean field `key`, as StringField.
absl::Status BoolField(lua_State* L, int index, const char* key, bool* out,
                       const char* callback, bool required);

// [-0, +0, -] A boolean result at `index`: nil or none leaves *out.
absl::Status ReadBool(lua_State* L, int index, const char* callback, bool* out);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_LUA_FIELDS_H_
