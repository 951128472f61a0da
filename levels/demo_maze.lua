-- demo_maze: the default level. A fixed maze (maps/demo_maze.txt) with
-- apples (+1) and a goal (+10, which ends the map and reloads it), episodes
-- of 30 seconds, and two custom observations:
--   GRAY_HALF       Doubles, (height/2) x (width/2): the frame in grayscale,
--                   each output pixel the mean of a 2 x 2 block, in [0, 1]
--                   (declared: min = 0, max = 1);
--                   made from the engine's lent frame in observeFrame
--                   with tensor ops.
--   GOAL_DIRECTION  Doubles, {2}: the unit vector towards the goal in the
--                   player's own frame (forward, left); zeros without a goal
--                   (declared: min = -1, max = 1).
-- Settings (strings, as every setting): customObservations = 'false' turns
-- both off, for a plain-RGB benchmark of the same map (and several
-- players: the observations are one player's).
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
  local players = tonumber(settings.players) or 1
  if self._custom and players > 1 then
    error("demo_maze's GRAY_HALF and GOAL_DIRECTION are one player's; with players = " ..
          players .. ", set customObservations = 'false' (or play apple_race or coop_goals)")
  end
  -- The engine's settings (width, height) stay with it, as in DeepMind
  -- Lab: the frame size comes from the game module.
  local screen = game:screenShape().window
  local width, height = screen.width, screen.height
  -- Work tensors and their views, made once: observeFrame runs every step.
  self._h2, self._w2 = math.floor(height / 2), math.floor(width / 2)
  local h, w = self._h2 * 2, self._w2 * 2
  self._whole = h == height and w == width  -- else the odd last row or column is left out
  -- The even part of the frame in doubles, a row of pixels a row; then
  -- each pair of rows summed, which makes a row of 2 x 2 blocks' six
  -- values (red, green, blue; red, green, blue); then one matrix-vector
  -- product of those with luma weights scaled so that a block's sum is
  -- its mean in [0, 1]. Three passes over the frame in all.
  self._frame = tensor.DoubleTensor(h, w * 3)
  local rows = self._frame:reshape{self._h2, 2, w * 3}
  self._top, self._bottom = rows:select(2, 1), rows:select(2, 2)
  self._pairs = tensor.DoubleTensor(self._h2, w * 3)
  self._blocks = self._pairs:reshape{self._h2 * self._w2, 6}
  self._weights = tensor.DoubleTensor{LUMA[1], LUMA[2], LUMA[3], LUMA[1], LUMA[2], LUMA[3]}
      :mul(0.25 / 255)
  self._gray = tensor.DoubleTensor(self._h2, self._w2)
  self._grayRow = self._gray:reshape{self._h2 * self._w2}
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
  self._goal = nil
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
  local goal = self._classes[spawnId] == 'goal'
  if goal then self._goal = false end
  events:add('pickup', goal and 'goal' or 'apple')
end

function api:observeFrame(rgb, depth)
  if not self._custom then return end
  if not self._whole then rgb = rgb:narrow(1, 1, self._h2 * 2):narrow(2, 1, self._w2 * 2) end
  self._frame:copy(rgb)
  self._pairs:copy(self._top):cadd(self._bottom)
  self._grayRow:mv(self._blocks, self._weights)
  -- Rounding may carry white a hair past 1: the spec promises [0, 1].
  self._gray:clamp(0, 1)
end

-- The goal's position on this map: looked up once a map, and false once
-- it is taken (which ends the map).
local function goalPosition(self)
  if self._goal == nil then
    self._goal = false
    for _, pickup in ipairs(game:pickups()) do
      if pickup.type == 'goal' and pickup.active then self._goal = pickup.position end
    end
  end
  return self._goal
end

-- A 2-vector is plain arithmetic: a tensor op costs more than it computes.
local function goalDirection(self)
  local direction = self._direction
  local goal = goalPosition(self)
  if not goal then return direction:fill(0) end
  local info = game:playerInfo()
  local x, y = goal[1] - info.pos[1], goal[2] - info.pos[2]
  local length = math.sqrt(x * x + y * y)
  if length == 0 then return direction:fill(0) end
  -- Rotate the world offset by -yaw into (forward, left).
  local yaw = math.rad(info.angles[2])
  local c, s = math.cos(yaw), math.sin(yaw)
  direction:val{(c * x + s * y) / length, (c * y - s * x) / length}
  -- Rounding may carry a component a hair past 1: the spec promises [-1, 1].
  return direction:clamp(-1, 1)
end

function api:customObservation(name)
  if name == 'GRAY_HALF' then return self._gray end
  if name == 'GOAL_DIRECTION' then return goalDirection(self) end
end

function api:readProperty(key)
  if key == 'demo.pickups' then return tostring(self._pickups) end
end

function api:listProperty(key, addProperty)
  if key == '' then addProperty('demo.pickups', 'r') end
end

return api
