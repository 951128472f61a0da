local tensor = require 'dmlab.system.tensor'

assert(tostring(tensor.DoubleTensor{{1, -20}, {300, 4.5}}) == [==[
[dmlab.system.tensor.DoubleTensor]
Shape: [2, 2]
[[  1, -20],
 [300, 4.5]]]==])

assert(tostring(tensor.DoubleTensor{1 / 3}) ==
       '[dmlab.system.tensor.DoubleTensor]\nShape: [1]\n[0.333333]')

local long = tensor.Int32Tensor{range = {10}}
assert(long:tostring(9) == [==[
[dmlab.system.tensor.Int32Tensor]
Shape: [10]
[ 1,  2,  3, ...,  8,  9, 10]]==])
assert(long:tostring() == tostring(long))
