// dmlab.system.torch: Torch7's `torch` over the same core tensors as
// dmlab.system.tensor (torch_flavour.h; docs/torch.md).
//
// Any host calls RegisterTorchModule once per lua_State; afterwards
// `require 'dmlab.system.torch'` returns the module table.
#ifndef LUA_API_TORCH_TORCH_MODULE_H_
#define LUA_API_TORCH_TORCH_MODULE_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Registers dmlab.system.tensor (RegisterTensorModule) and
// sets package.preload['dmlab.system.torch'].
void RegisterTorchModule(lua_State* L);

// [-0, +0, m] The same for a sandboxed level's state: torch.save,
// torch.load, CmdLine:log and torch.pointer raise an error naming the
// function (a sandboxed level has no files and sees no addresses).
// `paths` is not registered by either.
void RegisterSandboxedTorchModule(lua_State* L);

}  // namespace lua_api

// [-0, +1, e] The plain entry point: opens dmlab.system.tensor if it is not
// yet, and returns the module table.
extern "C" int luaopen_dmlab_system_torch(lua_State* L);

#endif  // LUA_API_TORCH_TORCH_MODULE_H_
