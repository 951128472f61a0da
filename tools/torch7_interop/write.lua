-- Run under Torch7's th or our lua_run (tools/torch7_interop/run.sh): writes
-- objects for the other side to read, and the bytes of single objects, in
-- `format` ('binary' or 'ascii').
require 'torch'
local who, dir, format = arg[1], arg[2], arg[3]
local d = torch.DoubleTensor({{1, 2}, {3, 4}})
local objects = {
  d = d, col = d:select(2, 1), f = torch.FloatTensor({1.5, -2.25}), l = torch.LongTensor({1, 2, 3}),
  b = torch.ByteTensor({200, 7}), c = torch.CharTensor({-5}), i = torch.IntStorage({7, 8}),
  s = 'hello', n = 42.5, nested = {1, 2, {x = true}}, e = torch.DoubleTensor(),
  t = d:t(),
}
torch.save(dir .. '/from_' .. who .. '_' .. format .. '.t7', objects, format)
-- Byte-exact comparisons of single objects.
local f = io.open(dir .. '/bytes_' .. who .. '_' .. format .. '.txt', 'w')
for _, x in ipairs({d, d:t(), torch.LongTensor({1, 2, 3}), torch.FloatStorage({1.5, 0.1}),
                    torch.ByteStorage({10, 0, 255}), 'a\nbc', 1 / 3, true, objects.nested}) do
  local s = torch.serialize(x, format)
  f:write((s:gsub('.', function(c) return string.format('%02x', c:byte()) end)), '\n')
end
f:close()
print(who .. ' wrote ' .. format)
