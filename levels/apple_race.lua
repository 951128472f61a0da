-- apple_race: a competitive level for up to eight players (the players
-- setting). Twenty-three apples lie in an arena (maps/apple_race.txt);
-- each is +1 to the player who takes it first, and none comes back. The
-- episode ends when the last apple is taken, or after 30 seconds. The
-- players see each other (each in its own colour) and block each other.
local api = {}

api.episodeLengthSeconds = 30

function api:init(settings)
  local players = tonumber(settings.players) or 1
  if players > 8 then
    error('apple_race has eight spawn points, for at most eight players; players = ' .. players)
  end
end

function api:start(episode, seed)
  self._left = 0
end

function api:nextMap()
  return 'apple_race'
end

-- Each apple gets an id, so that pickup hears of it and counts it.
function api:updateSpawnVars(spawnVars)
  if spawnVars.classname == 'apple_reward' then
    self._left = self._left + 1
    spawnVars.id = tostring(self._left)
  end
  return spawnVars
end

function api:pickup(spawnId, playerId)
  self._left = self._left - 1
end

function api:hasEpisodeFinished(timeSeconds)
  return self._left == 0
end

return api
