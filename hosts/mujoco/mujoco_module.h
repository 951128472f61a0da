// dmlab.system.mujoco: a MuJoCo level's view of its model, by name.
//
//   local mujoco = require 'dmlab.system.mujoco'
//   mujoco:body('pole')        -- 1-based ids, for state.xpos[id] and the like
//   mujoco:joint, :geom, :site, :sensor, :actuator, :camera (name)
//   mujoco:qposIndex('hinge')  -- where a joint's coordinates start in qpos
//   mujoco:qvelIndex('hinge')  -- ... and its velocities in qvel
//   mujoco:sensorIndex('touch') -- where a sensor's values start in
//                                 sensordata, and how many there are
//   mujoco:sizes()             -- {nq =, nv =, nu =, na =, nbody =, ngeom =,
//                                 nsite =, nsensordata =, nmocap =}
//   mujoco:timestep()          -- the physics step, seconds
//   mujoco:controlTimestep()   -- frameSkip physics steps, seconds
//
// Every function needs the model, which loads after init (model()): from
// reset() on. An unknown name is an error naming it and the function.
//
// Also dmlab.system.mujoco.rewards (lua/rewards.lua): tolerance(), the
// Control Suite's shaped-reward building block, for the task levels; and
// dmlab.system.mujoco.tasks.cartpole (lua/tasks/cartpole.lua), what the
// two cartpole levels share.
#ifndef HOSTS_MUJOCO_MUJOCO_MODULE_H_
#define HOSTS_MUJOCO_MUJOCO_MODULE_H_

#include <mujoco/mujoco.h>

#include "lua_api/lua/lua.h"

namespace hosts::mujoco {

// What the module reads of its host.
class ModelHost {
 public:
  virtual ~ModelHost() = default;
  // Null until the model loads.
  virtual const mjModel* model() const = 0;
  virtual int frame_skip() const = 0;
};

// [-0, +0, m] Preloads dmlab.system.mujoco (over `host`, which outlives L)
// and the Lua modules above.
void RegisterMujocoModule(lua_State* L, ModelHost* host);

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_MUJOCO_MODULE_H_
