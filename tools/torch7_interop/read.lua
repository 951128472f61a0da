-- Reads what the other side wrote and checks every value.
require 'torch'
local other, dir, format = arg[1], arg[2], arg[3]
local o = torch.load(dir .. '/from_' .. other .. '_' .. format .. '.t7', format)
local function same(a, b, what) assert(a == b, what .. ': ' .. tostring(a) .. ' vs ' .. tostring(b)) end
same(torch.type(o.d), 'torch.DoubleTensor', 'd type')
same(o.d[2][1], 3, 'd')
same(o.col[2], 3, 'col')
o.d[2][1] = 30
same(o.col[2], 30, 'col shares d')
same(o.t[1][2], 30, 't shares d')
same(o.t:stride(1), 1, 't strides')
same(torch.type(o.f), 'torch.FloatTensor', 'f type')
same(o.f[2], -2.25, 'f')
same(o.l[3], 3, 'l')
same(o.b[1], 200, 'b')
same(o.c[1], -5, 'c')
same(torch.type(o.i), 'torch.IntStorage', 'i type')
same(o.i[2], 8, 'i')
same(o.s, 'hello', 's')
same(o.n, 42.5, 'n')
same(o.nested[3].x, true, 'nested')
same(o.e:dim(), 0, 'e')
print('read ' .. other .. ' (' .. format .. '): all values agree')
