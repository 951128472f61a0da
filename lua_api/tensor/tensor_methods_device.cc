// Devices: t:cuda([device]), t:cpu(), t:device(). Moving between devices
// is always an explicit copy (tensor/device_transfer.h); the core's
// operations dispatch device tensors to the backend (tensor/device_ops.h).
#include <climits>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/push.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/device.h"
#include "tensor/device_transfer.h"
#include "tensor/tensor.h"

namespace lua_api {
namespace {

using tensor::Index;

// [-(1|2), +1, m] t:cuda([device]): a new tensor on CUDA device `device`
// (counting from 0, as Torch's), 0 by default.
NResultsOr Cuda(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("cuda"); !e.empty()) return e;
  Index index = 0;
  if (!lua_isnoneornil(L, 2)) {
    if (std::string e = ReadBounded(L, 2, "cuda", "device", 0, INT_MAX, &index); !e.empty()) {
      return e;
    }
  }
  if (std::string e = CheckNoMore(L, 2, "cuda"); !e.empty()) return e;
  return PushResult(L, "cuda",
                    tensor::ToDevice(self.tensor(), tensor::Device::Cuda(static_cast<int>(index)),
                                     TensorAllocator(L)));
}

// [-1, +1, m] t:cpu(): a new tensor on the CPU, even for a CPU tensor.
NResultsOr Cpu(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("cpu"); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 1, "cpu"); !e.empty()) return e;
  return PushResult(L, "cpu",
                    tensor::ToDevice(self.tensor(), tensor::Device::Cpu(), TensorAllocator(L)));
}

// [-1, +1, m] t:device(): "cpu" or "cuda:N".
NResultsOr DeviceName(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf("device"); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 1, "device"); !e.empty()) return e;
  Push(L, self.tensor().device().ToString());
  return 1;
}

}  // namespace

void RegisterDeviceMethods(lua_State* L, const char* metatable) {
  using C = Class<LuaTensor>;
  C::Register(L, metatable,
              {
                  {"cuda", &C::Member<&Cuda>},
                  {"cpu", &C::Member<&Cpu>},
                  {"device", &C::Member<&DeviceName>},
              });
}

}  // namespace lua_api
