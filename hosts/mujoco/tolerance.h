// The Control Suite's tolerance, measured natively: the per-call part of
// dmlab.system.mujoco.rewards (hosts/mujoco/lua/rewards.lua), which checks
// the options in Lua once and asks for a measure of them.
//
// A level's reward runs every control step, and in Debian's Lua 5.1 a Lua
// tolerance costs three calls (the measure, its sigmoid, math.exp) of
// about 300 machine instructions each; this is one call of a C closure.
#ifndef HOSTS_MUJOCO_TOLERANCE_H_
#define HOSTS_MUJOCO_TOLERANCE_H_

#include "lua_api/lua/lua.h"

namespace hosts::mujoco {

// [-6, +1, -] The loader's argument to rewards.lua: a function
// measure(lower, upper, margin, sigmoid, scale, fallback) returning a
// function of x that gives tolerance(x) for a number x, as the Lua
// sigmoid of that name with that scale computes it (the same operations,
// in the same order: the same doubles), and fallback(x) for anything else
// (a tensor, or the error a wrong argument raises).
void PushToleranceMaker(lua_State* L);

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_TOLERANCE_H_
