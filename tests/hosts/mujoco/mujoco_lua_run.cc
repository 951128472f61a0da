// mujoco_lua_run FILE [ARGS...]: the Lua interpreter of the MuJoCo host's
// Lua suites. As lua_run runs FILE (ARGS as its `...`), with
// dmlab.system.tensor, .torch and .random preloaded, and the host's Lua modules as
// the host loads them (dmlab.system.mujoco.rewards with its native
// measure, .tasks.cartpole). There is no simulator: dmlab.system.mujoco is
// preloaded over no model, and a suite replaces it with a stand-in of its
// own before it requires anything that uses it. A Lua error prints
// "mujoco_lua_run: <message>" and exits 1.
#include <cstdio>
#include <string>

#include "hosts/mujoco/mujoco_module.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/tensor/random.h"
#include "lua_api/torch/torch_module.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mujoco_lua_run FILE [ARGS...]\n");
    return 2;
  }
  lua_State* L = luaL_newstate();
  if (L == nullptr) return 1;
  luaL_openlibs(L);
  lua_api::RegisterTorchModule(L);
  lua_api::RegisterRandomModule(L);
  hosts::mujoco::RegisterMujocoModule(L, nullptr);
  int status = 0;
  if (luaL_loadfile(L, argv[1]) != 0) {
    std::fprintf(stderr, "mujoco_lua_run: %s\n", lua_tostring(L, -1));
    status = 1;
  } else {
    for (int i = 2; i < argc; ++i) lua_pushstring(L, argv[i]);
    if (lua_api::NResultsOr result = lua_api::Call(L, argc - 2, 0); !result.ok()) {
      std::fprintf(stderr, "mujoco_lua_run: %s\n", result.error().c_str());
      status = 1;
    }
  }
  lua_close(L);
  return status;
}
