#include "lua_api/torch/paths_module.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "lua_api/lua/preload.h"
#include "lua_api/torch/torch_sources.h"

namespace lua_api {
namespace {

// stat's file type of the path at stack 1, or 0 if there is none.
mode_t FileType(lua_State* L) {
  struct stat info;
  if (stat(luaL_checkstring(L, 1), &info) != 0) return 0;
  return info.st_mode & S_IFMT;
}

// [-0, +1, e]
int IsDirectory(lua_State* L) {
  lua_pushboolean(L, FileType(L) == S_IFDIR);
  return 1;
}

// [-0, +1, e]
int IsFile(lua_State* L) {
  lua_pushboolean(L, FileType(L) == S_IFREG);
  return 1;
}

// [-1, +(1|2), m] The result of a system call: true, or nil and why.
int Result(lua_State* L, bool ok) {
  if (ok) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, std::strerror(errno));
  return 2;
}

int MakeDirectory(lua_State* L) { return Result(L, mkdir(luaL_checkstring(L, 1), 0777) == 0); }
int RemoveDirectory(lua_State* L) { return Result(L, rmdir(luaL_checkstring(L, 1)) == 0); }
int RemoveFile(lua_State* L) { return Result(L, unlink(luaL_checkstring(L, 1)) == 0); }

// Fills the table at registry[ref] with the names readdir gives; run by
// lua_cpcall, so that an out-of-memory error leaves Directory free to
// close the directory.
struct Listing {
  DIR* directory;
  int table;
};

// [-0, +1, e]
int ListNames(lua_State* L) {
  const Listing* listing = static_cast<const Listing*>(lua_touserdata(L, 1));
  lua_rawgeti(L, LUA_REGISTRYINDEX, listing->table);
  int n = 0;
  for (struct dirent* entry = readdir(listing->directory); entry != nullptr;
       entry = readdir(listing->directory)) {
    lua_pushstring(L, entry->d_name);
    lua_rawseti(L, -2, ++n);
  }
  return 0;
}

// [-0, +1, e] dir(path): the names in a directory ('.' and '..' too), or nil and why.
int Directory(lua_State* L) {
  const char* path = luaL_checkstring(L, 1);
  lua_newtable(L);
  const int table = luaL_ref(L, LUA_REGISTRYINDEX);  // before opendir: it may raise
  DIR* directory = opendir(path);
  if (directory == nullptr) {
    luaL_unref(L, LUA_REGISTRYINDEX, table);
    return Result(L, false);
  }
  Listing listing{directory, table};
  const int failed = lua_cpcall(L, &ListNames, &listing);
  closedir(directory);
  lua_rawgeti(L, LUA_REGISTRYINDEX, listing.table);
  luaL_unref(L, LUA_REGISTRYINDEX, listing.table);
  if (failed) {
    lua_pop(L, 1);
    return lua_error(L);  // the message lua_cpcall left
  }
  return 1;
}

// [-0, +1, e]
int WorkingDirectory(lua_State* L) {
  char buffer[4096];
  if (getcwd(buffer, sizeof(buffer)) == nullptr) return Result(L, false);
  lua_pushstring(L, buffer);
  return 1;
}

// [-0, +1, e]
int Open(lua_State* L) {
  const luaL_Reg system[] = {{"dirp", &IsDirectory}, {"filep", &IsFile}, {"mkdir", &MakeDirectory},
                             {"rmdir", &RemoveDirectory}, {"remove", &RemoveFile},
                             {"dir", &Directory}, {"cwd", &WorkingDirectory}, {nullptr, nullptr}};
  std::optional<absl::string_view> source = FindTorchSource("paths.lua");
  if (!source.has_value() ||
      luaL_loadbuffer(L, source->data(), source->size(), "=paths") != 0) {
    return luaL_error(L, "paths: cannot load its Lua half");
  }
  lua_newtable(L);
  for (const luaL_Reg* f = system; f->name != nullptr; ++f) {
    lua_pushcfunction(L, f->func);
    lua_setfield(L, -2, f->name);
  }
  lua_call(L, 1, 1);
  return 1;
}

}  // namespace

void RegisterPathsModule(lua_State* L) { SetPreload(L, "paths", &Open); }

}  // namespace lua_api
