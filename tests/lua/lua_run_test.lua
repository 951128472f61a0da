-- lua_run (lua_api/lua_run.cc): the script mode's `arg`, `...`, package.path
-- and exit status, and the REPL, each driven in a child process. arg[-1] is
-- the interpreter running this suite, so both twins test themselves.
local testing = require 'testing'

local LUA_RUN = arg[-1]

-- A fresh temporary path; `suffix` (".lua") makes it requirable.
local function tempPath(suffix)
  local path = os.tmpname()
  os.remove(path)
  return path .. (suffix or '')
end

local function writeFile(path, text)
  local file = assert(io.open(path, 'w'))
  file:write(text)
  file:close()
end

local function readFile(path)
  local file = assert(io.open(path))
  local text = file:read('*a')
  file:close()
  return text
end

-- Runs `command` with the shell; returns exit status, stdout, stderr.
local function shell(command, stdin)
  local input, err = tempPath(), tempPath()
  writeFile(input, stdin or '')
  local pipe = assert(io.popen(string.format('%s <%q 2>%q; echo "exit=$?"', command, input, err)))
  local out = pipe:read('*a')
  pipe:close()
  local status = tonumber(out:match('exit=(%d+)\n$'))
  out = out:gsub('exit=%d+\n$', '')
  local errText = readFile(err)
  os.remove(input)
  os.remove(err)
  return status, out, errText
end

local function runScript(source, ...)
  local script = tempPath('.lua')
  writeFile(script, source)
  local args = {}
  for i = 1, select('#', ...) do args[i] = string.format('%q', (select(i, ...))) end
  local status, out, err = shell(string.format('%q %q %s', LUA_RUN, script,
                                               table.concat(args, ' ')))
  os.remove(script)
  return status, out, err, script
end

testing.case('arg and ... are laid out as by the standalone lua', function()
  local status, out, err, script = runScript([[
    print(#arg, arg[0], arg[1], arg[2], arg[3])
    print(arg[-1] ~= nil, select('#', ...), ...)
  ]], 'one', 'two words', '')
  testing.assertEqual(status, 0, err)
  testing.assertEqual(out, '3\t' .. script .. '\tone\ttwo words\t\ntrue\t3\tone\ttwo words\t\n')
end)

testing.case("the script's directory comes first on package.path", function()
  local module = tempPath('.lua')
  local name = module:match('([^/]*)%.lua$')
  writeFile(module, 'return {answer = 42}')
  local status, out, err = runScript(string.format('print(require(%q).answer)', name))
  os.remove(module)
  testing.assertEqual(status, 0, err)
  testing.assertEqual(out, '42\n')
end)

testing.case('the dmlab.system modules are preloaded', function()
  local status, out, err = runScript([[
    local tensor = require 'dmlab.system.tensor'
    local random = require 'dmlab.system.random'
    local host_test = require 'dmlab.system.host_test'
    print(tensor.DoubleTensor(2):size(), random:uniformInt(3, 3), type(host_test.lend))
  ]])
  testing.assertEqual(status, 0, err)
  testing.assertEqual(out, '2\t3\tfunction\n')
end)

testing.case('a Lua error exits 1 with the traceback on stderr', function()
  local status, out, err = runScript([[
    print('before')
    local function fails() error('it broke') end
    fails()
  ]])
  testing.assertEqual(status, 1)
  testing.assertEqual(out, 'before\n')
  testing.assertTrue(err:find('^lua_run: [^\n]*: it broke\nstack traceback:') ~= nil, err)
  testing.assertTrue(err:find('fails', 1, true) ~= nil, err)
end)

testing.case('a syntax error or a missing file exits 1', function()
  local status, _, err = runScript('x = = 1')
  testing.assertEqual(status, 1)
  testing.assertTrue(err:find("^lua_run: .*unexpected symbol near '='") ~= nil, err)
  status, _, err = shell(string.format('%q /no/such/file.lua', LUA_RUN))
  testing.assertEqual(status, 1)
  testing.assertTrue(err:find('cannot open /no/such/file.lua', 1, true) ~= nil, err)
end)

testing.case('os.exit sets the exit status', function()
  testing.assertEqual((runScript('os.exit(3)')), 3)
end)

testing.case('under bazel run, FILE is relative to BUILD_WORKING_DIRECTORY', function()
  local script = tempPath('.lua')
  writeFile(script, 'print("ran")')
  local directory, name = script:match('^(.*)/([^/]*)$')
  local status, out, err = shell(string.format('BUILD_WORKING_DIRECTORY=%q %q %q', directory,
                                               LUA_RUN, name))
  os.remove(script)
  testing.assertEqual(status, 0, err)
  testing.assertEqual(out, 'ran\n')
end)

testing.case('the REPL prints expression values, with tostring', function()
  local status, out, err = shell(string.format('%q', LUA_RUN), table.concat({
    'x = 6 * 7',
    'x',
    "1, 'a', nil",
    '=x + 1',
    'tensor = require "dmlab.system.tensor"',
    'z = tensor.DoubleTensor{{1, 2}, {3, 4}, {5, 6}}',
    'z',
    'z:select(2, 2)',
  }, '\n') .. '\n')
  testing.assertEqual(status, 0, err)
  testing.assertEqual(err, '')
  testing.assertEqual(out, table.concat({
    '42',
    '1\ta\tnil',
    '43',
    '[dmlab.system.tensor.DoubleTensor]',
    'Shape: [3, 2]',
    '[[1, 2],',
    ' [3, 4],',
    ' [5, 6]]',
    '[dmlab.system.tensor.DoubleTensor]',
    'Shape: [3]',
    '[2, 4, 6]',
  }, '\n') .. '\n')
end)

testing.case('the REPL continues incomplete chunks and survives errors', function()
  local status, out, err = shell(string.format('%q', LUA_RUN), table.concat({
    'for i = 1, 2 do',
    '  print(i)',
    'end',
    "error('oops')",
    'x = = 1',
    'print("still here")',
    'function f(',
  }, '\n') .. '\n')
  testing.assertEqual(status, 0, err)
  testing.assertEqual(out, '1\n2\nstill here\n')
  -- "return error('oops')" is a tail call: LuaJIT then has no position.
  testing.assertTrue(err:find('^lua_run: [^\n]*oops\nstack traceback:') ~= nil, err)
  testing.assertTrue(err:find("unexpected symbol near '='", 1, true) ~= nil, err)
  testing.assertTrue(err:find("'<eof>'", 1, true) ~= nil, 'EOF inside a chunk: ' .. err)
end)

testing.case('the REPL exits at EOF at once', function()
  local status, out, err = shell(string.format('%q', LUA_RUN), '')
  testing.assertEqual(status, 0, err)
  testing.assertEqual(out, '')
end)

testing.run()
