-- Runs a Torch7 documentation example as Torch7's REPL would, and compares
-- what it prints with the output the example shows.
--
-- The seed documents write examples as REPL sessions, in two dialects:
--   "> code" runs code (">> code" continues it); its values are printed,
--   as trepl prints an expression's
--   "= expr" prints expr's values (the older REPL)
--   a line of Lua without a prompt is run, printing nothing
-- Any other line is output, expected of the code above it. Output is
-- compared word by word (below), after normalising what the documents
-- vary: white space, blank lines, comments, and old Torch7's "of dimension
-- 4x5" for "of size". The documents' Markdown escapes (\{ \} \_ \[ \]) are
-- read as the characters.
--
--   local transcript = require 'transcript'
--   local session = transcript.session({torch = torch})
--   local ok, why = session:run(text)   -- later examples see its globals
local transcript = {}

local loadstring = loadstring or load

local function compiles(code) return loadstring(code, '=example') ~= nil end

-- 'complete', 'open' (more lines could complete it: Lua reports such a
-- chunk ending at '<eof>') or 'invalid'. After a prompt an expression is
-- complete too.
local function completeness(code, prompted)
  if compiles(code) or (prompted and compiles('return ' .. code)) then return 'complete' end
  local _, err = loadstring(code, '=example')
  -- (A bare expression, which only lacks '= value', is not code.)
  if err:find('<eof>', 1, true) and not err:find("'=' expected", 1, true) then return 'open' end
  return 'invalid'
end

-- Splits text into steps {code = ..., prompted = ..., expected = {lines}}.
local function parse(text)
  text = text:gsub('\\([{}_%[%]])', '%1')
  local steps, open = {}, nil  -- open: the step whose code is not yet complete
  local function expect(line)
    local last = steps[#steps]
    if last and not line:match('^%s*%-%-') then last.expected[#last.expected + 1] = line end
  end
  local function add(code, prompted)
    code = code:gsub('^%s*=', 'return ', 1)
    local step = {code = code, prompted = prompted, expected = {}}
    steps[#steps + 1] = step
    open = completeness(code, prompted) == 'open' and step or nil
  end
  for line in (text .. '\n'):gmatch('(.-)\r?\n') do
    local continued = line:match('^>>%s?(.*)$')
    local prompt = not continued and line:match('^>%s?(.*)$')
    if continued or (open and not prompt) then
      local step = steps[#steps]
      if step then
        step.code = step.code .. '\n' .. (continued or line)
        open = completeness(step.code, step.prompted) == 'open' and step or nil
      end
    elseif prompt then
      add(prompt, true)
    elseif line:match('^%s*=') then
      add(line, false)
    elseif line:match('%S') and not line:match('^%s*%-%-') then
      if completeness(line, false) == 'invalid' then expect(line) else add(line, false) end
    end
  end
  return steps
end

-- What trepl prints for a value: a table as "{", "key : value" per entry,
-- "}", with a tensor in it as "DoubleTensor - size: 2x4x5".
local function describe(value, torch, depth)
  if torch.isTensor(value) and depth > 0 then
    local sizes = {}
    for d = 1, value:dim() do sizes[d] = value:size(d) end
    return torch.type(value):gsub('^torch%.', '') .. ' - size: ' .. table.concat(sizes, 'x')
  end
  if type(value) ~= 'table' or torch.typename(value) or depth > 3 then return tostring(value) end
  local keys = {}
  for k in pairs(value) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local lines = {'{'}
  for _, k in ipairs(keys) do
    lines[#lines + 1] = tostring(k) .. ' : ' .. describe(value[k], torch, depth + 1)
  end
  lines[#lines + 1] = '}'
  return table.concat(lines, '\n')
end

local function words(lines)
  local list = {}
  for _, line in ipairs(lines) do
    line = line:gsub('of dimension (%d)', 'of size %1'):gsub('%s+%-%-.*$', '')
    for word in line:gmatch('%S+') do list[#list + 1] = word end
  end
  return list
end

local function isNumber(word) return tonumber(word) ~= nil end

-- How the output shown is compared with the output printed:
--   exact        the same words
--   subsequence  the words shown appear in order among those printed (the
--                document lost some of its output)
--   shapes       the same words but the numbers (the output is random)
--   runs         not compared (the example only has to run)
local compare = {
  exact = function(want, got) return table.concat(want, ' ') == table.concat(got, ' ') end,
  subsequence = function(want, got)
    local j = 1
    for _, word in ipairs(want) do
      while got[j] ~= nil and got[j] ~= word do j = j + 1 end
      if got[j] == nil then return false end
      j = j + 1
    end
    return true
  end,
  shapes = function(want, got)
    local a, b = {}, {}
    for _, w in ipairs(want) do if not isNumber(w) then a[#a + 1] = w end end
    for _, w in ipairs(got) do if not isNumber(w) then b[#b + 1] = w end end
    return table.concat(a, ' ') == table.concat(b, ' ')
  end,
  runs = function() return true end,
}

-- A REPL session over `globals` (names the examples may use; torch is
-- one): its examples share the globals they set, as in one Torch7 session.
function transcript.session(globals)
  local session, printed = {}, {}
  local env = setmetatable({}, {__index = function(_, k)
    if k == 'print' then
      -- trepl's print: tables as trepl shows them.
      return function(...)
        local parts = {}
        for i = 1, select('#', ...) do parts[i] = describe((select(i, ...)), globals.torch, 0) end
        printed[#printed + 1] = table.concat(parts, '\t')
      end
    end
    if globals[k] ~= nil then return globals[k] end
    return _G[k]
  end})

  -- Runs one example, comparing as `how` says (default 'exact'): true, or
  -- false and why not.
  function session:run(text, how)
    local matches = compare[how or 'exact']
    assert(matches, 'no comparison ' .. tostring(how))
    local mismatch
    for n, step in ipairs(parse(text)) do
      for i = #printed, 1, -1 do printed[i] = nil end
      local code = step.code
      local shows = code:match('^%s*return%s') ~= nil
      if not shows and step.prompted and compiles('return ' .. code) then
        code, shows = 'return ' .. code, true
      end
      local fn, err = loadstring(code, '=example')
      if not fn then return false, ('step %d does not compile: %s\n%s'):format(n, err, step.code) end
      setfenv(fn, env)
      local results = {pcall(fn)}
      if not results[1] then
        return false, ('step %d failed: %s\n%s'):format(n, tostring(results[2]), step.code)
      end
      if shows then
        for i = 2, table.maxn(results) do
          printed[#printed + 1] = describe(results[i], globals.torch, 0)
        end
      end
      -- A mismatch is remembered, and the example runs on: the session's
      -- globals then do not depend on how it was compared.
      if #step.expected > 0 and mismatch == nil and
         not matches(words(step.expected), words(printed)) then
        mismatch = ('step %d printed\n%s\nnot\n%s\n(code: %s)'):format(
            n, table.concat(printed, '\n'), table.concat(step.expected, '\n'), step.code)
      end
    end
    if mismatch then return false, mismatch end
    return true
  end
  return session
end

transcript.parse = parse
transcript.words = words
transcript.compare = compare
return transcript
