-- torch.CmdLine: Torch7's command-line parser, with its help text, the
-- experiment-name string and the log (outside the level sandbox only).
--
--   local cmd = torch.CmdLine()
--   cmd:text('Training')
--   cmd:option('-seed', 123, 'initial random seed')
--   cmd:option('-verbose', false, 'print more')
--   local params = cmd:parse(arg)          -- {seed = 123, verbose = false}
--   cmd:string('run', params, {})         -- 'run' or 'run,seed=7'
local torch, internal = ...
local argumentError = internal.argumentError

local CmdLine = torch.class('torch.CmdLine')

function CmdLine:__init(argumentSeparator, keySeparator)
  self.argseparator = argumentSeparator or ','
  self.keyseparator = keySeparator or '='
  self.options, self.arguments, self.helplines = {}, {}, {}
  self.dateformat, self.logname = nil, nil
end

-- The type an option or argument holds: its given type, or its default's.
local function kindOf(default, given)
  local kind = given or type(default)
  if kind ~= 'number' and kind ~= 'boolean' and kind ~= 'string' then
    error(("an option's type must be number, boolean or string, not %s"):format(kind), 3)
  end
  return kind
end

function CmdLine:option(key, default, help, kind)
  if type(key) ~= 'string' or key:sub(1, 1) ~= '-' then
    argumentError('option', 1, "an option name starting with '-' expected")
  end
  if self.options[key] then argumentError('option', 1, "option '" .. key .. "' is defined twice") end
  self.options[key] = {key = key, default = default, help = help or '', type = kindOf(default, kind)}
  self.helplines[#self.helplines + 1] = self.options[key]
end

function CmdLine:argument(key, help, kind)
  if type(key) ~= 'string' then argumentError('argument', 1, 'an argument name expected') end
  local argument = {key = key, help = help or '', type = kindOf(nil, kind or 'string')}
  self.arguments[#self.arguments + 1] = argument
  self.helplines[#self.helplines + 1] = argument
end

function CmdLine:text(line)
  self.helplines[#self.helplines + 1] = line or ''
end

function CmdLine:silent()
  self.silentio = true
end

function CmdLine:addTime(name, format)
  self.dateformat = format or '%F %T'
  self.logname = name
end

-- The default values, by option name without its '-'.
function CmdLine:default()
  local params = {}
  for key, option in pairs(self.options) do params[key:sub(2)] = option.default end
  return params
end

local function convert(self, value, kind, name)
  if kind == 'number' then
    local number = tonumber(value)
    if number == nil then self:error("option '" .. name .. "' expects a number, got '" .. tostring(value) .. "'") end
    return number
  end
  if kind == 'boolean' then
    if value == 'true' then return true end
    if value == 'false' then return false end
    self:error("option '" .. name .. "' expects true or false, got '" .. tostring(value) .. "'")
  end
  return value
end

-- parse(arg): the options, by name without '-', and the arguments, by
-- name. A boolean option given alone flips its default; '-h' and
-- '--help' print the help and end the program.
function CmdLine:parse(arg)
  arg = arg or {}
  local params = self:default()
  local nextArgument = 1
  local i = 1
  while i <= #arg do
    local word = arg[i]
    if word == '-h' or word == '--help' then
      self:help()
      if os.exit then os.exit(0) end
      error('help requested', 2)
    end
    local option = self.options[word]
    if option then
      if option.type == 'boolean' and (arg[i + 1] == nil or (arg[i + 1] ~= 'true' and arg[i + 1] ~= 'false')) then
        params[word:sub(2)] = not option.default
        i = i + 1
      else
        if arg[i + 1] == nil then self:error("option '" .. word .. "' needs a value") end
        params[word:sub(2)] = convert(self, arg[i + 1], option.type, word)
        i = i + 2
      end
    elseif word:sub(1, 1) == '-' and tonumber(word) == nil then
      self:error("unknown option '" .. word .. "'")
    else
      local argument = self.arguments[nextArgument]
      if argument == nil then self:error("unexpected argument '" .. word .. "'") end
      params[argument.key] = convert(self, word, argument.type, argument.key)
      nextArgument = nextArgument + 1
      i = i + 1
    end
  end
  if nextArgument <= #self.arguments then
    self:error("missing argument '" .. self.arguments[nextArgument].key .. "'")
  end
  return params
end

-- string(prefix, params, ignore): prefix, then ',key=value' for each
-- option that differs from its default (sorted, ignoring those in ignore).
function CmdLine:string(prefix, params, ignore)
  ignore = ignore or {}
  local keys = {}
  for key, option in pairs(self.options) do
    local name = key:sub(2)
    if not ignore[name] and params[name] ~= nil and params[name] ~= option.default then
      keys[#keys + 1] = name
    end
  end
  table.sort(keys)
  local parts = {prefix}
  for _, name in ipairs(keys) do
    parts[#parts + 1] = self.argseparator .. name .. self.keyseparator .. tostring(params[name])
  end
  return table.concat(parts)
end

local function pad(text, width)
  return text .. string.rep(' ', math.max(0, width - #text))
end

function CmdLine:help()
  local width = 0
  for _, line in ipairs(self.helplines) do
    if type(line) == 'table' then width = math.max(width, #line.key) end
  end
  local out = {'Usage: ' .. (arg and arg[0] or 'script') .. ' [options]'}
  for _, argument in ipairs(self.arguments) do out[1] = out[1] .. ' <' .. argument.key .. '>' end
  for _, line in ipairs(self.helplines) do
    if type(line) == 'table' then
      local default = line.default ~= nil and ' [' .. tostring(line.default) .. ']' or ''
      out[#out + 1] = '  ' .. pad(line.key, width) .. '  ' .. line.help .. default
    else
      out[#out + 1] = line
    end
  end
  io.write(table.concat(out, '\n'), '\n')
end

function CmdLine:error(message)
  io.stderr:write(message, '\n')
  self:help()
  error(message, 0)
end

-- log(file, params): from now on print also writes to `file` (a name or
-- an open file), with the time in front where addTime asked; then prints
-- the parameters. Not in the level sandbox, which has no files.
function CmdLine:log(file, params)
  if not (io and io.open) then error("'log': this Lua state has no files", 2) end
  local handle = type(file) == 'string' and assert(io.open(file, 'w')) or file
  local screen = print
  local cmd = self
  print = function(...)
    local parts = {}
    for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
    local line = table.concat(parts, '\t')
    if not cmd.silentio then screen(line) end
    local stamp = cmd.dateformat and os.date(cmd.dateformat) .. (cmd.logname and '[' .. cmd.logname .. ']: ' or ': ') or ''
    handle:write(stamp, line, '\n')
    handle:flush()
  end
  print('[program started on ' .. os.date() .. ']')
  print('[command line arguments]')
  local keys = {}
  for key in pairs(params or {}) do keys[#keys + 1] = key end
  table.sort(keys)
  for _, key in ipairs(keys) do print(key, params[key]) end
  print('[----------------------]')
end
