-- Runs a Torch7 documentation example as Torch7's REPL would, and compares
-- what it prints with the output the example shows.
--
-- Two layouts, as the seed documents have them:
--   prompted   "> code" runs code, ">> code" continues it; an expression's
--              values are printed, as trepl prints them; lines without a
--              prompt are the output shown for the code above them
--   plain      lines of code, "= expr" prints expr's values; a line that is
--              not Lua (it cannot start or continue a chunk) is output
-- Output is compared after normalising what the documents vary: white
-- space, blank lines, and old Torch7's "of dimension 4x5" for "of size".
-- Comment lines in the output are commentary, not output.
--
--   local transcript = require 'transcript'
--   local session = transcript.session({torch = torch})
--   local ok, why = session:run(text)   -- later examples see its globals
local transcript = {}

local loadstring = loadstring or load
local unpack = unpack or table.unpack

-- Whether `code` is a complete chunk, and if not, whether more lines could
-- complete it (Lua reports a chunk that ends early at '<eof>').
local function completeness(code)
  local fn, err = loadstring(code, '=example')
  if fn then return 'complete' end
  if err:find("<eof>", 1, true) then return 'open' end
  return 'invalid'
end

local function isExpression(code)
  return loadstring('return ' .. code, '=example') ~= nil
end

-- Splits text into steps {code = ..., expected = {lines}}.
local function parse(text)
  local lines = {}
  for line in (text .. '\n'):gmatch('(.-)\r?\n') do lines[#lines + 1] = line end
  local prompted = false
  for _, line in ipairs(lines) do
    if line:match('^>') then prompted = true end
  end
  local steps, pending = {}, nil
  local function expect(line)
    local last = steps[#steps]
    if last and not line:match('^%s*%-%-') then last.expected[#last.expected + 1] = line end
  end
  for _, line in ipairs(lines) do
    if prompted then
      local continued = line:match('^>>%s?(.*)$')
      local code = line:match('^>%s?(.*)$')
      if continued and #steps > 0 then
        steps[#steps].code = steps[#steps].code .. '\n' .. continued
      elseif code then
        steps[#steps + 1] = {code = code, expected = {}}
      elseif line:match('%S') then
        expect(line)
      end
    elseif pending then
      pending = pending .. '\n' .. line
      if completeness(pending) ~= 'open' then
        steps[#steps + 1] = {code = pending, expected = {}}
        pending = nil
      end
    elseif line:match('%S') then
      local kind = completeness((line:gsub('^%s*=', 'return ')))
      if kind == 'complete' then
        steps[#steps + 1] = {code = line, expected = {}}
      elseif kind == 'open' and not line:match('^%s*=') then
        pending = line
      else
        expect(line)
      end
    end
  end
  if pending then steps[#steps + 1] = {code = pending, expected = {}} end
  return steps
end

local function normalise(lines)
  local words = {}
  for _, line in ipairs(lines) do
    line = line:gsub('of dimension (%d)', 'of size %1')
    for word in line:gmatch('%S+') do words[#words + 1] = word end
  end
  return table.concat(words, ' ')
end

-- A REPL session over `globals` (names the examples may use, e.g. torch):
-- its examples share the globals they set, as in one Torch7 session.
function transcript.session(globals)
  local session, printed = {}, {}
  local env = setmetatable({}, {__index = function(_, k)
    if k == 'print' then
      return function(...)
        local parts = {}
        for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
        printed[#printed + 1] = table.concat(parts, '\t')
      end
    end
    if globals[k] ~= nil then return globals[k] end
    return _G[k]
  end})

  -- Runs one example: true, or false and why not.
  function session:run(text)
    for n, step in ipairs(parse(text)) do
      for i = #printed, 1, -1 do printed[i] = nil end
      local code = step.code:gsub('^%s*=', 'return ')
      local shows = code:match('^%s*return%s') ~= nil
      if not shows and isExpression(code) then code, shows = 'return ' .. code, true end
      local fn, err = loadstring(code, '=example')
      if not fn then return false, ('step %d does not compile: %s\n%s'):format(n, err, step.code) end
      setfenv(fn, env)
      local results = {pcall(fn)}
      if not results[1] then
        return false, ('step %d failed: %s\n%s'):format(n, tostring(results[2]), step.code)
      end
      if shows then
        for i = 2, table.maxn(results) do printed[#printed + 1] = tostring(results[i]) end
      end
      if #step.expected > 0 then
        local want, got = normalise(step.expected), normalise(printed)
        if want ~= got then
          return false, ('step %d printed\n%s\nnot\n%s\n(code: %s)'):format(
              n, table.concat(printed, '\n'), table.concat(step.expected, '\n'), step.code)
        end
      end
    end
    return true
  end
  return session
end

transcript.parse = parse
return transcript
