-- dmlab.system.torch's utilities: torch.CmdLine and paths (lua_run only).
local testing = require 'testing'
local torch = require 'dmlab.system.torch'
local paths = require 'paths'

local expectError = testing.assertErrorContains

local function commandLine()
  local cmd = torch.CmdLine()
  cmd:text('Training')
  cmd:option('-seed', 123, 'initial random seed')
  cmd:option('-verbose', false, 'print more')
  cmd:option('-name', 'run', 'a name')
  return cmd
end

testing.case('CmdLine: defaults, options, flags and the experiment string', function()
  local cmd = commandLine()
  testing.assertEqual(cmd:parse({}), {seed = 123, verbose = false, name = 'run'})
  local params = cmd:parse({'-seed', '7', '-verbose', '-name', 'x'})
  testing.assertEqual(params, {seed = 7, verbose = true, name = 'x'})
  testing.assertEqual(cmd:string('exp', params, {name = true}), 'exp,seed=7,verbose=true')
  testing.assertEqual(cmd:string('exp', cmd:default()), 'exp')
  testing.assertEqual(cmd:parse({'-verbose', 'false'}).verbose, false)
  local withArgument = torch.CmdLine()
  withArgument:argument('file', 'the input')
  testing.assertEqual(withArgument:parse({'data.t7'}).file, 'data.t7')
end)

testing.case('CmdLine: bad command lines are errors', function()
  local cmd = commandLine()
  local write = io.write
  io.write = function() end  -- the help text that goes with each error
  local stderr = io.stderr
  expectError(function() cmd:parse({'-seed', 'x'}) end, "option '-seed' expects a number")
  expectError(function() cmd:parse({'-nope'}) end, "unknown option '-nope'")
  expectError(function() cmd:parse({'-seed'}) end, "option '-seed' needs a value")
  expectError(function() cmd:parse({'extra'}) end, "unexpected argument 'extra'")
  io.write = write
  expectError(function() cmd:option('seed', 1) end, "bad argument #1 to 'option'")
  expectError(function() cmd:option('-seed', 1) end, 'defined twice')
  testing.assertTrue(stderr ~= nil)
end)

testing.case('CmdLine:log copies print to a file', function()
  local name = os.tmpname()
  local cmd = commandLine()
  local screen = print
  cmd:silent()
  cmd:log(name, {seed = 1})
  print('hello', 2)
  print = screen
  local file = assert(io.open(name))
  local text = file:read('*a')
  file:close()
  os.remove(name)
  testing.assertTrue(text:find('%[command line arguments%]\nseed\t1\n') ~= nil, text)
  testing.assertTrue(text:find('hello\t2\n') ~= nil, text)
end)

testing.case('paths', function()
  local root = os.tmpname()
  os.remove(root)
  testing.assertEqual(paths.mkdir(root), true)
  testing.assertEqual(paths.dirp(root), true)
  testing.assertEqual(paths.filep(root), false)
  local file = paths.concat(root, 'a.txt')
  assert(io.open(file, 'w')):close()
  testing.assertEqual(paths.mkdir(paths.concat(root, 'sub')), true)
  testing.assertEqual(paths.filep(file), true)
  local names = {}
  for name in paths.files(root) do names[#names + 1] = name end
  table.sort(names)
  testing.assertEqual(names, {'.', '..', 'a.txt', 'sub'})
  local files, dirs = {}, {}
  for name in paths.iterfiles(root) do files[#files + 1] = name end
  for name in paths.iterdirs(root) do dirs[#dirs + 1] = name end
  testing.assertEqual(files, {'a.txt'})
  testing.assertEqual(dirs, {'sub'})
  testing.assertEqual(paths.basename(file), 'a.txt')
  testing.assertEqual(paths.basename(file, 'txt'), 'a')
  testing.assertEqual(paths.dirname(file), root)
  testing.assertEqual(paths.extname(file), 'txt')
  testing.assertEqual(paths.concat('a', 'b', 'c'), 'a/b/c')
  testing.assertEqual(paths.concat('a', '/b'), '/b')
  testing.assertEqual(paths.dir(paths.concat(root, 'none')), nil)
  expectError(function() paths.rmall(root) end, "pass 'yes'")
  testing.assertEqual(paths.rmdir(root), nil, 'not empty')
  testing.assertEqual(paths.rmall(root, 'yes'), true)
  testing.assertEqual(paths.dirp(root), false)
end)

testing.run()
