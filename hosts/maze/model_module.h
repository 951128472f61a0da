// dmlab.system.model where a host builds no models: DeepMind Lab's 3D
// model module, whose models the maze (a 2.5D raycaster of walls and
// pickups) cannot draw and the dmlab host does not build yet. Levels and
// decorators require it at load (DeepMind Lab's human-recognisable pickups
// do) and call it only from callbacks that build models (createModel,
// which neither host calls); so requiring it works, and each of its
// functions (cone, cube, cylinder, sphere, hierarchy, circularLayout,
// linearLayout, loadMD3, saveMD3) is an error that says why.
#ifndef HOSTS_MAZE_MODEL_MODULE_H_
#define HOSTS_MAZE_MODEL_MODULE_H_

#include "lua_api/lua/lua.h"

namespace hosts::maze {

// [-0, +0, m] Makes require 'dmlab.system.model' load the module, whose
// functions refuse with `why` (a string that outlives L).
void RegisterModelModule(lua_State* L, const char* why);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MODEL_MODULE_H_
