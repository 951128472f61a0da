-- dmlab.system.mujoco.tasks.cartpole: the cartpole levels' shared code,
-- after the DeepMind Control Suite's published cartpole tasks (one file
-- there too): the model (levels/models/cartpole.xml), the initial states,
-- a 1000-step (10 s) time limit and the smooth reward, in [0, 1]:
--   upright * centred * small control * small velocity:
--   upright = (cos(pole angle) + 1) / 2,
--   centred = (1 + tolerance(cart position, margin 2)) / 2,
--   small control = (4 + tolerance(ctrl, margin 1, value 0 at it,
--                   quadratic)) / 5,
--   small velocity = (1 + tolerance(pole angular velocity, margin 5)) / 2.
--
--   return require('dmlab.system.mujoco.tasks.cartpole').level{swingUp = true}
local rewards = require 'dmlab.system.mujoco.rewards'

local cos = math.cos

local cartpole = {}

local kEpisodeSteps = 1000
local centredness = rewards.makeTolerance{margin = 2}
local smallness = rewards.makeTolerance{margin = 1, valueAtMargin = 0, sigmoid = 'quadratic'}
local stillness = rewards.makeTolerance{margin = 5}

-- The reward of the state lent to a callback. The pole's angle cosine is
-- its xmat's zz, which for a pole hinged on a sliding cart is cos(qpos[2]).
function cartpole.reward(state)
  local qpos, qvel = state.qpos:val(), state.qvel:val()
  local upright = (cos(qpos[2]) + 1) / 2
  local centred = (1 + centredness(qpos[1])) / 2
  local smallControl = (4 + smallness(state.ctrl:val())) / 5
  local smallVelocity = (1 + stillness(qvel[2])) / 2
  return upright * centred * smallControl * smallVelocity
end

-- A level's api table. options.swingUp: the pole starts hanging down
-- (cart and pole within 0.01 of rest, by normal draws); else near upright
-- (cart uniform in [-0.1, 0.1] m, pole in [-0.034, 0.034] rad). Either
-- way qvel starts normal with standard deviation 0.01.
function cartpole.level(options)
  local swingUp = options and options.swingUp
  local api = {}
  local steps = 0

  function api:model()
    return {file = 'models/cartpole.xml', camera = 'fixed'}
  end

  function api:reset(state)
    steps = 0
    if swingUp then
      state.qpos(1):normal(0, 0.01)
      state.qpos(2):normal(math.pi, 0.01)
    else
      state.qpos(1):uniform(-0.1, 0.1)
      state.qpos(2):uniform(-0.034, 0.034)
    end
    state.qvel:normal(0, 0.01)
  end

  function api:afterStep(state)
    steps = steps + 1
    return cartpole.reward(state), steps >= kEpisodeSteps and 'truncated' or nil
  end

  return api
end

return cartpole
