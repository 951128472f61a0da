-- dmlab.system.torch: torch.class, the metatable functions and torch.Tester.
local testing = require 'testing'
local torch = require 'dmlab.system.torch'

testing.case('torch.class with parents', function()
  local Animal = torch.class('torch.TestAnimal')
  function Animal:__init(name) self.name = name end
  function Animal:speak() return self.name .. ' speaks' end
  local Dog, parent = torch.class('torch.TestDog', 'torch.TestAnimal')
  testing.assertEqual(parent, Animal)
  function Dog:__init(name) parent.__init(self, name .. ' the dog') end
  function Dog:__tostring() return 'Dog ' .. self.name end
  local d = torch.TestDog('Rex')
  testing.assertEqual(d:speak(), 'Rex the dog speaks')
  testing.assertEqual(torch.type(d), 'torch.TestDog')
  testing.assertEqual(torch.isTypeOf(d, 'torch.TestAnimal'), true)
  testing.assertEqual(torch.isTypeOf(d, Animal), true)
  testing.assertEqual(torch.isTypeOf(torch.TestAnimal('x'), 'torch.TestDog'), false)
  testing.assertEqual(tostring(d), 'Dog Rex the dog')
  testing.assertEqual(torch.getmetatable('torch.TestDog'), Dog)
  local made = torch.factory('torch.TestDog')()
  testing.assertEqual(torch.type(made), 'torch.TestDog')
  testing.assertEqual(made.name, nil, 'the factory does not run __init')
  local plain = torch.setmetatable({name = 'Fido'}, 'torch.TestAnimal')
  testing.assertEqual(plain:speak(), 'Fido speaks')
  testing.assertErrorContains(function() torch.class('torch.TestDog') end, 'already exists')
  testing.assertErrorContains(function() torch.class('torch.TestCat', 'torch.NoSuch') end,
                              'does not exist')
end)

testing.case('torch.Tester and torch.TestSuite', function()
  local suite = torch.TestSuite()
  function suite.passes(t) end
  local tester = torch.Tester()
  testing.assertErrorContains(function() suite.passes = function() end end, 'already defined')
  function suite.fails() tester:eq(torch.Tensor({1}), torch.Tensor({2}), 'differs') end
  function suite.asserts()
    tester:assert(1 < 2)  -- counted as a pass below
    tester:asserteq(1, 1)
    tester:assertalmosteq(1, 1 + 1e-9, 1e-6)
    tester:assertTensorEq(torch.Tensor({1}), torch.Tensor({1 + 1e-9}), 1e-6)
    tester:assertTableEq({1, {2}}, {1, {2}})
    tester:assertError(function() error('x') end)
    tester:assertErrorPattern(function() error('bad thing') end, 'bad')
    tester:assertNoError(function() end)
    tester:assertlt(1, 2)
    tester:assertge(2, 2)
    tester:ne(torch.Tensor({1}), torch.Tensor({2}))
  end
  tester:add(suite)
  local ok, err = pcall(function() tester:setSummaryOnly(true); return tester:run() end)
  testing.assertEqual(ok, false, 'a failing test fails the run')
  testing.assertTrue(tostring(err):find('An error was found') ~= nil, tostring(err))
  testing.assertEqual(tester.assertionFail.fails, 1)
  testing.assertEqual(tester.assertionFail.asserts, 0)
  testing.assertEqual(tester.assertionPass.asserts, 11)
  testing.assertEqual(tester.assertionFail.passes, 0)
end)

testing.run()
