local tensor = require 'dmlab.system.tensor'

local name = os.tmpname()
local f = assert(io.open(name, 'wb'))
f:write('\1\2\3\4\5\6')
f:close()

assert(tensor.ByteTensor{file = {name = name}} == tensor.ByteTensor{1, 2, 3, 4, 5, 6})
assert(tensor.ByteTensor{file = {name = name, byteOffset = 2, numElements = 3}} ==
       tensor.ByteTensor{3, 4, 5})

local ok, err = pcall(tensor.ByteTensor, {file = {name = name, numElements = 10}})
assert(not ok and err:find(name, 1, true) and err:find('numElements', 1, true))
os.remove(name)

ok, err = pcall(tensor.ByteTensor, {file = {name = name}})   -- now missing
assert(not ok and err:find(name, 1, true))
