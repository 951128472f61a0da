-- Not a suite of its own: testing_test.lua runs this script in a child
-- lua_run to check what testing.run() does when cases fail. Its case names
-- and messages hold the characters that JUnit XML must escape.
local testing = require 'testing'

testing.case('passes', function() end)

testing.skip('is skipped', 'not run <here> & why')

testing.case('fails <&> "quoted"', function()
  testing.assertEqual({1, {2, 3}}, {1, {2, 4}}, 'nested <table> & "stuff"')
end)

testing.case('raises a table', function()
  error({code = 7})
end)

testing.case('control \1 chars and bad \255 UTF-8', function()
  error('bell \7 and \255 end')
end)

testing.run()
