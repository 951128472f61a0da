-- dmlab.system.torch: the random functions, over dmlab.system.random.
local testing = require 'testing'
local torch = require 'dmlab.system.torch'
local random = require 'dmlab.system.random'

local expectError = testing.assertErrorContains

testing.case('the default generator is dmlab.system.random\'s', function()
  torch.manualSeed(7)
  local a = torch.rand(5)
  random:seed(7)
  local b = torch.rand(5)
  testing.assertEqual(a:totable(), b:totable())
  testing.assertEqual(torch.initialSeed(), 7)
end)

testing.case('getRNGState and setRNGState replay the sequence', function()
  local state = torch.getRNGState()
  local first = torch.randn(4)
  torch.setRNGState(state)
  testing.assertEqual(torch.randn(4):totable(), first:totable())
  local gen = torch.Generator()
  torch.setRNGState(gen, state)
  testing.assertEqual(torch.normal(gen), (torch.setRNGState(state) and torch.normal()))
  expectError(function() torch.setRNGState(torch.ByteTensor({1, 2})) end, 'not a state')
end)

testing.case('scalar draws', function()
  for _ = 1, 100 do
    local r = torch.random(3, 5)
    testing.assertTrue(r >= 3 and r <= 5 and r == math.floor(r))
    local u = torch.uniform(2, 3)
    testing.assertTrue(u >= 2 and u < 3)
    testing.assertTrue(torch.exponential(2) >= 0)
    testing.assertTrue(torch.geometric(0.5) >= 1)
    testing.assertTrue(torch.logNormal(0, 1) > 0)
  end
end)

testing.case('tensor fills', function()
  local b = torch.ByteTensor(1000):random()
  testing.assertTrue(b:min() >= 0 and b:max() <= 255)
  local r = torch.IntTensor(1000):random(-3, 3)
  testing.assertEqual(r:min(), -3)
  testing.assertEqual(r:max(), 3)
  testing.assertTrue(torch.LongTensor(100):random(7):max() <= 7)
  testing.assertTrue(torch.Tensor(100):exponential(1):min() >= 0)
  local c = torch.Tensor(2000):cauchy(0, 1)
  testing.assertTrue(math.abs(c:sort()[1000]) < 0.2, 'the median of Cauchy(0, 1) is 0')
  local l = torch.FloatTensor(2000):logNormal(1, 0.1):log()
  testing.assertTrue(math.abs(l:mean() - 1) < 0.02)
  testing.assertTrue(torch.ShortTensor(100):geometric(0.5):min() >= 1)
  local coins = torch.ByteTensor(2, 500):bernoulli()  -- p = 0.5, as in Torch7
  testing.assertTrue(coins:max() == 1 and coins:min() == 0 and math.abs(coins:double():mean() - 0.5) < 0.1)
  expectError(function() torch.IntTensor(2):exponential() end, 'not defined for')
  expectError(function() torch.Tensor(2):geometric(1.5) end, 'probability must be in (0, 1)')
  expectError(function() torch.ByteTensor(2):random(0, 256) end, 'cannot hold every integer')
  expectError(function() torch.Tensor(2):geometric() end, "bad argument #1 to 'geometric'")
end)

testing.case('multinomial with and without replacement; the alias method', function()
  local p = torch.Tensor({{0.5, 0.5, 0}, {0, 0.1, 0.9}})
  local drawn = torch.multinomial(p, 2, false)
  testing.assertEqual(drawn:type(), 'torch.LongTensor')
  for r = 1, 2 do
    local row = drawn[r]:totable()
    table.sort(row)
    testing.assertEqual(row, ({{1, 2}, {2, 3}})[r], 'without replacement: each index once')
  end
  testing.assertErrorContains(function() torch.multinomial(torch.Tensor({0, 1}), 2) end,
                              'positive, finite sum')
  local with = torch.multinomial(torch.Tensor({0, 1}), 5, true)
  testing.assertEqual(with:totable(), {2, 2, 2, 2, 2})
  local state = torch.multinomialAliasSetup(torch.Tensor({0.2, 0.3, 0.5}))
  local out = torch.multinomialAlias(torch.LongTensor(3000), state)
  testing.assertTrue(out:min() >= 1 and out:max() <= 3)
  local share = out:eq(3):sum() / 3000
  testing.assertTrue(math.abs(share - 0.5) < 0.05, tostring(share))
end)

testing.run()
