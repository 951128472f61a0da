-- A level for labenv's tests: a corridor with apples straight ahead of the
-- spawn (the player faces +x), a string, a doubles and a floats observation, events,
-- properties, episodes that end on cue, and Lua errors on cue.
--
-- Settings:
--   endAfterFrames  the level ends the episode (terminated) after this many
--   timeLimitFrames the level's own time limit (truncated) after this many
--   failIn          'init': init raises
--   failAtFrame     hasEpisodeFinished raises at this frame
--   failSeed        start raises when started with this seed
--   busySeed        an episode started with this seed runs busyLoops
--   busyLoops       turns of an empty Lua loop every frame (a slow env)
local tensor = require 'dmlab.system.tensor'
local events = require 'dmlab.system.events'
local random = require 'dmlab.system.random'

local api = {}
local properties = {['test.answer'] = '42'}

function api:init(settings)
  if settings.failIn == 'init' then error('init failed on purpose') end
  self._endAfter = tonumber(settings.endAfterFrames)
  self._timeLimit = tonumber(settings.timeLimitFrames)
  self._failAt = tonumber(settings.failAtFrame)
  self._failSeed = tonumber(settings.failSeed)
  self._busySeed = tonumber(settings.busySeed)
  self._busyLoops = tonumber(settings.busyLoops) or 0
  self._counter = tensor.DoubleTensor(2)
end

function api:start(episode, seed)
  if seed == self._failSeed then error('start failed on purpose, seed ' .. seed) end
  -- As DeepMind Lab's levels do: random:seed takes only an integer, so this
  -- fails on a drawn seed that a Lua number cannot hold exactly.
  random:seed(seed)
  self._busy = seed == self._busySeed
  self._frames = 0
  events:add('started', 'episode ' .. episode, tensor.ByteTensor{1, 2, 3},
             tensor.DoubleTensor{episode, 0.5})
end

function api:nextMap()
  return '*********\n*PAAAA  *\n*********\n'
end

-- Each apple gets an id, so that pickup(spawnId) hears of it.
function api:updateSpawnVars(spawnVars)
  if spawnVars.classname == 'apple_reward' then spawnVars.id = '1' end
  return spawnVars
end

function api:pickup(spawnId)
  events:add('pickup', 'apple')
end

function api:hasEpisodeFinished(timeSeconds)
  self._frames = self._frames + 1
  if self._busy then
    for _ = 1, self._busyLoops do end
  end
  if self._frames == self._failAt then error('step failed on purpose') end
  if self._endAfter ~= nil and self._frames >= self._endAfter then return true end
  return self._timeLimit ~= nil and self._frames >= self._timeLimit and 'truncated'
end

function api:customObservationSpec()
  return {
      {name = 'TEST.TEXT', type = 'String'},
      {name = 'TEST.COUNTER', type = 'Doubles', shape = {2}},
      {name = 'TEST.HALF', type = 'Floats', shape = {2}},
  }
end

-- Written in place every frame: retaining it must give a copy.
function api:observeFrame(rgb, depth)
  self._counter:fill(self._frames)
end

function api:customObservation(name)
  if name == 'TEST.TEXT' then return 'frame ' .. self._frames end
  if name == 'TEST.HALF' then return tensor.FloatTensor{self._frames / 2, 0.25} end
  return self._counter
end

-- As DeepMind Lab's common/property_helpers.lua answers: 'test' is a list
-- (RESULT.PERMISSION_DENIED = 2), and 'test.answer' takes only digits
-- (RESULT.INVALID_ARGUMENT = 3).
function api:readProperty(key)
  if key == 'test.fail' then error('read failed on purpose') end
  if key == 'test' then return 2 end
  return properties[key]
end

function api:writeProperty(key, value)
  if key == 'test.fail' then error('write failed on purpose') end
  if key == 'test' then return 2 end
  if properties[key] == nil then return false end
  if not value:match('^%d+$') then return 3 end
  properties[key] = value
  return true
end

function api:listProperty(key, callback)
  if key == '' then callback('test', 'l') end
  if key == 'test' then callback('test.answer', 'rw') end
end

return api
