-- dmlab.system.random: determinism, ranges and errors.
local testing = require 'testing'
local random = require 'dmlab.system.random'

-- Drawn before anything reseeds the module's default generator.
local FIRST_DRAWS = {random:uniformInt(1, 1000000), random:uniformReal(0, 1)}

-- fn must raise an error containing every given substring.
local expectError = testing.assertErrorContains

local function draws(gen, n)
  local out = {}
  for i = 1, n do
    out[#out + 1] = gen:uniformInt(1, 1000000)
    out[#out + 1] = gen:uniformReal(0, 1)
    out[#out + 1] = gen:normalDistribution(0, 1)
    out[#out + 1] = gen:discreteDistribution{1, 2, 3}
  end
  return out
end

testing.case('the same seed gives the same sequence', function()
  random:seed(123)
  local a = draws(random, 50)
  random:seed(123)
  local b = draws(random, 50)
  testing.assertEqual(a, b)
  random:seed(124)
  local c = draws(random, 50)
  testing.assertTrue(a[1] ~= c[1] or a[5] ~= c[5] or a[9] ~= c[9], 'another seed, another sequence')
end)

testing.case('generators are independent and seeded deterministically', function()
  local g1 = random.Generator(7)
  local g2 = random:Generator(7)
  testing.assertEqual(draws(g1, 20), draws(g2, 20))
  local d1 = random.Generator()
  local d2 = random.Generator(0)
  testing.assertEqual(draws(d1, 5), draws(d2, 5), 'the default seed is 0')
  -- Drawing from one generator does not disturb another.
  local a = random.Generator(3)
  local b = random.Generator(3)
  random:seed(99)
  local x = a:uniformInt(1, 100)
  draws(random, 10)
  testing.assertEqual(b:uniformInt(1, 100), x)
end)

testing.case('the module generator starts seeded with 0', function()
  local fresh = random.Generator(0)
  testing.assertEqual(FIRST_DRAWS, {fresh:uniformInt(1, 1000000), fresh:uniformReal(0, 1)})
  random:seed(0)
  testing.assertEqual(draws(random, 5), draws(random.Generator(0), 5))
end)

testing.case('seeds are any integer', function()
  for _, s in ipairs({0, 1, -1, 2 ^ 40, -2 ^ 53}) do
    random:seed(s)
    local a = random:uniformInt(1, 6)
    random:seed(s)
    testing.assertEqual(random:uniformInt(1, 6), a)
  end
  testing.assertEqual(random:seed(5), nil, 'seed returns nothing')
end)

testing.case('uniformInt(a, b): integers in [a, b], every value reached', function()
  local gen = random.Generator(1)
  local seen = {}
  for _ = 1, 2000 do
    local v = gen:uniformInt(-3, 3)
    testing.assertTrue(v >= -3 and v <= 3 and v == math.floor(v), tostring(v))
    seen[v] = (seen[v] or 0) + 1
  end
  for v = -3, 3 do testing.assertTrue((seen[v] or 0) > 200, 'value ' .. v .. ' is reached') end
  testing.assertEqual(gen:uniformInt(5, 5), 5)
  local big = gen:uniformInt(-2 ^ 53, 2 ^ 53)
  testing.assertTrue(big >= -2 ^ 53 and big <= 2 ^ 53)
end)

testing.case('uniformReal(a, b): numbers in [a, b)', function()
  local gen = random.Generator(2)
  local sum = 0
  for _ = 1, 2000 do
    local v = gen:uniformReal(-1, 3)
    testing.assertTrue(v >= -1 and v < 3, tostring(v))
    sum = sum + v
  end
  testing.assertTrue(math.abs(sum / 2000 - 1) < 0.1, 'mean near 1: ' .. sum / 2000)
  testing.assertEqual(gen:uniformReal(2.5, 2.5), 2.5)
end)

testing.case('normalDistribution(mean, sd)', function()
  local gen = random.Generator(3)
  local n, sum, sumSq = 4000, 0, 0
  for _ = 1, n do
    local v = gen:normalDistribution(10, 2)
    sum = sum + v
    sumSq = sumSq + v * v
  end
  local mean = sum / n
  local sd = math.sqrt(sumSq / n - mean * mean)
  testing.assertTrue(math.abs(mean - 10) < 0.2, 'mean ' .. mean)
  testing.assertTrue(math.abs(sd - 2) < 0.2, 'sd ' .. sd)
  testing.assertEqual(gen:normalDistribution(4, 0), 4)
end)

testing.case('discreteDistribution{weights}: a 1-based index', function()
  local gen = random.Generator(4)
  local counts = {0, 0, 0, 0}
  for _ = 1, 4000 do
    local i = gen:discreteDistribution{1, 0, 3, 0}
    counts[i] = counts[i] + 1
  end
  testing.assertEqual(counts[2], 0, 'weight 0 is never drawn')
  testing.assertEqual(counts[4], 0, 'weight 0 is never drawn')
  testing.assertTrue(counts[1] > 800 and counts[1] < 1200, 'counts[1] = ' .. counts[1])
  testing.assertEqual(counts[1] + counts[3], 4000)
  testing.assertEqual(gen:discreteDistribution{5}, 1)
  testing.assertEqual(gen:discreteDistribution{0, 0, 2}, 3)
end)

testing.case('errors', function()
  expectError(function() random:seed() end, "bad argument #1 to 'seed'")
  expectError(function() random:seed('x') end, "bad argument #1 to 'seed'")
  expectError(function() random:seed(0/0) end, "bad argument #1 to 'seed'")
  expectError(function() random:seed(0 / 0) end, "bad argument #1 to 'seed'")
  expectError(function() random:uniformInt(5, 1) end, 'uniformInt')
  expectError(function() random:uniformInt(1) end, "bad argument #2 to 'uniformInt'")
  expectError(function() random:uniformInt(1/0, 2) end, "bad argument #1 to 'uniformInt'")
  expectError(function() random:uniformInt(1, 1 / 0) end, "bad argument #2 to 'uniformInt'")
  expectError(function() random:uniformReal(1, 0) end, 'uniformReal')
  expectError(function() random:uniformReal(0, 1 / 0) end, "bad argument #2 to 'uniformReal'")
  expectError(function() random:uniformReal(0 / 0, 1) end, "bad argument #1 to 'uniformReal'")
  expectError(function() random:uniformReal('a', 1) end, "bad argument #1 to 'uniformReal'")
  expectError(function() random:normalDistribution(0, -1) end, 'normalDistribution')
  expectError(function() random:normalDistribution(0) end,
              "bad argument #2 to 'normalDistribution'")
  expectError(function() random:normalDistribution(0 / 0, 1) end,
              "bad argument #1 to 'normalDistribution'")
  expectError(function() random:discreteDistribution{} end, 'discreteDistribution')
  expectError(function() random:discreteDistribution{0, 0} end, 'discreteDistribution')
  expectError(function() random:discreteDistribution{1, -1} end, 'discreteDistribution')
  expectError(function() random:discreteDistribution{1, 'x'} end, 'discreteDistribution')
  expectError(function() random:discreteDistribution{1, 0 / 0} end, 'discreteDistribution')
  expectError(function() random:discreteDistribution(1) end,
              "bad argument #1 to 'discreteDistribution'")
  expectError(function() random.Generator('x') end, 'Generator')
  expectError(function() random.uniformInt(1, 2) end,
              "calling 'uniformInt' on bad self", "call methods with ':'")
  expectError(function() random.seed(1) end, "calling 'seed' on bad self")
  local gen = random.Generator(1)
  expectError(function() gen.uniformReal(0, 1) end, "calling 'uniformReal' on bad self")
end)

testing.run()
