-- demo_maze: the default level. A fixed maze (maps/demo_maze.txt) with
-- apples (+1) and a goal (+10, which ends the map and reloads it), episodes
-- of 30 seconds, and two custom observations computed with tensor ops:
--   GRAY_HALF       Doubles, (height/2) x (width/2): the frame in grayscale,
--                   each output pixel the mean of a 2 x 2 block, in [0, 1]
--                   (declared: min = 0, max = 1);
--                   made from the engine's lent frame in observeFrame.
--   GOAL_DIRECTION  Doubles, {2}: the unit vector towards the goal in the
--                   player's own frame (forward, left); zeros without a goal
--                   (declared: min = -1, max = 1).
-- Settings (strings, as every setting): customObservations = 'false' turns
-- both off, for a plain-RGB benchmark of the same map.
-- It also raises an event per pickup ('pickup', type) and answers the
-- property 'demo.pickups' (how many this episode).
local tensor = require 'dmlab.system.tensor'
local game = require 'dmlab.system.game'
local events = require 'dmlab.system.events'

local LUMA = {0.299, 0.587, 0.114}

local api = {}

-- Episodes of 30 seconds, a time limit: the engine ends them with status
-- interrupted (Gymnasium's truncated); the episodeLengthSeconds setting
-- overrides it.
api.episodeLengthSeconds = 30

function api:init(settings)
  self._custom = settings.customObservations ~= 'false'
  -- The engine's settings (width, height) stay with it, as in DeepMind
  -- Lab: the frame size comes from the game module.
  local screen = game:screenShape().window
  local width, height = screen.width, screen.height
  -- Work tensors, made once: observeFrame runs every step.
  self._h2, self._w2 = math.floor(height / 2), math.floor(width / 2)
  -- The even part of the frame in doubles, and its luma scaled so that
  -- the sum of a 2 x 2 block is its mean in [0, 1]: one copy and one
  -- matrix-vector product a step, rather than a pass per channel.
  self._frame = tensor.DoubleTensor(self._h2 * 2 * self._w2 * 2, 3)
  self._luma = tensor.DoubleTensor(self._h2 * 2 * self._w2 * 2)
  self._weights = tensor.DoubleTensor(LUMA):mul(0.25 / 255)
  self._gray = tensor.DoubleTensor(self._h2, self._w2)
  self._direction = tensor.DoubleTensor(2)
end

function api:customObservationSpec()
  if not self._custom then return {} end
  return {
      {name = 'GRAY_HALF', type = 'Doubles', shape = {self._h2, self._w2}, min = 0, max = 1},
      {name = 'GOAL_DIRECTION', type = 'Doubles', shape = {2}, min = -1, max = 1},
  }
end

function api:start(episode, seed)
  self._pickups = 0
  self._classes = {}
end

function api:nextMap()
  return 'demo_maze'
end

-- Each pickup gets an id, so that pickup(spawnId) hears of it (as in
-- DeepMind Lab, the engine scores it, and a goal ends the map).
function api:updateSpawnVars(spawnVars)
  if spawnVars.classname ~= 'info_player_start' then
    self._classes[#self._classes + 1] = spawnVars.classname
    spawnVars.id = tostring(#self._classes)
  end
  return spawnVars
end

function api:pickup(spawnId)
  self._pickups = self._pickups + 1
  events:add('pickup', self._classes[spawnId] == 'goal' and 'goal' or 'apple')
end

-- The sum of each 2 x 2 block of `image` (2h x 2w) into `out` (h x w).
local function halve(image, out)
  local h, w = out:shape()[1], out:shape()[2]
  local blocks = image:reshape{h, 2, w, 2}
  out:copy(blocks:select(2, 1):select(3, 1))
  out:cadd(blocks:select(2, 1):select(3, 2))
  out:cadd(blocks:select(2, 2):select(3, 1))
  out:cadd(blocks:select(2, 2):select(3, 2))
  -- Rounding may carry white a hair past 1: the spec promises [0, 1].
  out:clamp(0, 1)
end

function api:observeFrame(rgb, depth)
  if not self._custom then return end
  local h, w = self._h2 * 2, self._w2 * 2
  self._frame:copy(rgb:narrow(1, 1, h):narrow(2, 1, w))
  self._luma:mv(self._frame, self._weights)
  halve(self._luma:reshape{h, w}, self._gray)
end

local function goalDirection(direction)
  direction:fill(0)
  local goal
  for _, pickup in ipairs(game:pickups()) do
    if pickup.type == 'goal' and pickup.active then goal = pickup end
  end
  if not goal then return direction end
  local info = game:playerInfo()
  local offset = tensor.DoubleTensor(goal.position):csub(
      tensor.DoubleTensor{info.pos[1], info.pos[2]})
  local length = math.sqrt(offset:lengthSquared())
  if length == 0 then return direction end
  -- Rotate the world offset by -yaw into (forward, left).
  local yaw = math.rad(info.angles[2])
  local c, s = math.cos(yaw), math.sin(yaw)
  local rotation = tensor.DoubleTensor{{c, s}, {-s, c}}
  direction:copy(rotation:mmul(offset:reshape{2, 1}):reshape{2}):div(length)
  -- Rounding may carry a component a hair past 1: the spec promises [-1, 1].
  return direction:clamp(-1, 1)
end

function api:customObservation(name)
  if name == 'GRAY_HALF' then return self._gray end
  if name == 'GOAL_DIRECTION' then return goalDirection(self._direction) end
end

function api:readProperty(key)
  if key == 'demo.pickups' then return tostring(self._pickups) end
end

function api:listProperty(key, addProperty)
  if key == '' then addProperty('demo.pickups', 'r') end
end

return api
