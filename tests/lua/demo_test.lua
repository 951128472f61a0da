-- docs/demo.lua, which `./lab run` shows, runs and prints what it says.
local testing = require 'testing'

local function run_demo()
  local lines = {}
  local real_print = print
  print = function(...)
    local parts = {}
    for i = 1, select('#', ...) do parts[#parts + 1] = tostring((select(i, ...))) end
    lines[#lines + 1] = table.concat(parts, '\t')
  end
  local ok, err = pcall(dofile, 'docs/demo.lua')
  print = real_print
  assert(ok, err)
  return table.concat(lines, '\n')
end

local output = run_demo()

testing.case('the demo prints a tensor made from a table', function()
  testing.assertTrue(output:find('[[1, 2],\n [3, 4],\n [5, 6]]', 1, true), output)
end)

testing.case('the demo shows a view writing through to its source', function()
  testing.assertTrue(output:find('[[ 1, 20],\n [ 3, 40],\n [ 5, 60]]', 1, true), output)
end)

testing.case('the demo shows the errors it promises', function()
  testing.assertTrue(output:find('integer division by zero', 1, true), output)
  testing.assertTrue(output:find('invalid tensor', 1, true), output)
  testing.assertTrue(output:find('host_test.lend', 1, true), output)
end)

testing.run()
