-- uneven_steps: the level of benchmarks/async_bench.py, whose frames cost
-- unevenly, as an environment's do when a step now and then loads,
-- plans or simulates more: each frame turns an empty Lua loop
-- lightLoops times, or heavyLoops times with chance heavyChance, drawn
-- from the episode's seed. Otherwise an empty room.
-- Settings (strings): lightLoops (default 2000, about 15 µs),
-- heavyLoops (200000, about 1.5 ms), heavyChance (0.1).
local random = require 'dmlab.system.random'

local api = {}

function api:init(settings)
  self._light = tonumber(settings.lightLoops) or 2000
  self._heavy = tonumber(settings.heavyLoops) or 200000
  self._chance = tonumber(settings.heavyChance) or 0.1
end

function api:start(episode, seed)
  random:seed(seed)
end

function api:nextMap()
  return '*******\n*     *\n*  P  *\n*     *\n*******\n'
end

function api:hasEpisodeFinished(timeSeconds)
  local loops = random:uniformReal(0, 1) < self._chance and self._heavy or self._light
  for _ = 1, loops do end
  return false
end

return api
