-- coop_goals: a cooperative level for two players (the players setting;
-- one plays it alone). Each player has a goal of its own, the first 'G'
-- of maps/two_goals.txt player 1's and the second player 2's; only its
-- owner can take a goal. When every player has reached its goal, each
-- gets +10 and the episode ends: the reward is shared, so neither scores
-- without the other. Apples give +1 to whoever takes them. Episodes last
-- 60 seconds.
local game = require 'dmlab.system.game'

local api = {}

api.episodeLengthSeconds = 60

function api:init(settings)
  self._players = tonumber(settings.players) or 1
  if self._players > 2 then
    error('coop_goals has two goals, for at most two players; players = ' .. self._players)
  end
end

function api:nextMap()
  self._owner = {}  -- spawn id -> the player whose goal it is
  self._goals = 0
  return 'two_goals'
end

-- Gives each goal an id (so that canPickup and pickup hear of it) and an
-- owner, in map order.
function api:updateSpawnVars(spawnVars)
  if spawnVars.classname == 'goal' then
    self._goals = self._goals + 1
    spawnVars.id = tostring(self._goals)
    self._owner[self._goals] = self._goals
  end
  return spawnVars
end

function api:canPickup(spawnId, playerId)
  return self._owner[spawnId] == playerId
end

-- A goal is taken for good and scores nothing by itself (the number
-- replaces DeepMind Lab's reward and end of map: a negative wait never
-- respawns); the shared reward comes once every player is there.
function api:pickup(spawnId, playerId)
  self._reached[playerId] = true
  for player = 1, self._players do
    if not self._reached[player] then return -1 end
  end
  for player = 1, self._players do game:addScore(player, 10) end
  self._done = true
  return -1
end

function api:hasEpisodeFinished(timeSeconds)
  return self._done == true
end

function api:start(episode, seed)
  self._reached = {}
  self._done = false
end

return api
