-- random_maze: a new generated maze for every map, from the episode's
-- seed (dmlab.system.random is seeded by the engine at start). Apples +1;
-- the goal +10 ends the map, and the next map is a new maze. Episodes last
-- 30 seconds. Settings: mazeSize (odd, at least 7, default 15).
local maze_generation = require 'dmlab.system.maze_generation'
local random = require 'dmlab.system.random'

local api = {}

-- Episodes of 30 seconds, a time limit: the engine ends them with status
-- interrupted (Gymnasium's truncated); the episodeLengthSeconds setting
-- overrides it.
api.episodeLengthSeconds = 30

function api:init(settings)
  self._size = tonumber(settings.mazeSize) or 15
end

function api:nextMap()
  return maze_generation.randomMazeGeneration{
      seed = random:uniformInt(0, 2 ^ 31 - 1),
      height = self._size,
      width = self._size,
      maxRooms = 4,
      roomMaxSize = 5,
      spawns = 1,
      apples = 6,
      goal = true,
  }
end

return api
