-- host: mujoco
-- Cartpole swingup, after the DeepMind Control Suite's published task:
-- the pole starts hanging down; swing it up and keep it upright, for 1000
-- control steps (10 s). The reward is the smooth cartpole reward
-- (hosts/mujoco/lua/tasks/cartpole.lua).
return require('dmlab.system.mujoco.tasks.cartpole').level{swingUp = true}
