-- host: mujoco
-- Cartpole balance, after the DeepMind Control Suite's published task:
-- the pole starts near upright and the cart near the centre; keep it so
-- for 1000 control steps (10 s). The reward is the smooth cartpole reward
-- (hosts/mujoco/lua/tasks/cartpole.lua).
return require('dmlab.system.mujoco.tasks.cartpole').level{swingUp = false}
