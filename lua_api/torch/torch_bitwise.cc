#include "lua_api/torch/torch_bitwise.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/method_arguments.h"
#include "lua_api/torch/torch_flavour.h"
#include "tensor/bitwise.h"

namespace lua_api {
namespace {

using tensor::BitOp;

// [-2, +1, e] x:bitand(n) ... x:rshift(n): in place, self returned.
template <BitOp kOp, const char* kName>
NResultsOr Scalar(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, kName); !e.empty()) return e;
  std::int64_t value;
  if (std::string why = ReadInteger(L, 2, &value); !why.empty()) return ArgumentAt(kName, 2, why);
  if (absl::Status s = tensor::ApplyBitScalar(self.tensor(), kOp, value); !s.ok()) {
    return StatusError(kName, s);
  }
  lua_settop(L, 1);
  return 1;
}

// [-2, +1, e] x:cbitand(y) ... x:crshift(y): in place, self returned.
template <BitOp kOp, const char* kName>
NResultsOr Components(LuaTensor& self, lua_State* L) {
  if (std::string e = self.CheckSelf(kName); !e.empty()) return e;
  if (std::string e = CheckNoMore(L, 2, kName); !e.empty()) return e;
  LuaTensor* other;
  if (std::string e = ReadTensorArgument(L, 2, kName, &other); !e.empty()) return e;
  if (absl::Status s = tensor::ApplyBitComponents(self.tensor(), kOp, other->tensor()); !s.ok()) {
    return StatusError(kName, s);
  }
  lua_settop(L, 1);
  return 1;
}

constexpr char kBitAnd[] = "bitand";
constexpr char kBitOr[] = "bitor";
constexpr char kBitXor[] = "bitxor";
constexpr char kLeftShift[] = "lshift";
constexpr char kRightShift[] = "rshift";
constexpr char kCBitAnd[] = "cbitand";
constexpr char kCBitOr[] = "cbitor";
constexpr char kCBitXor[] = "cbitxor";
constexpr char kCLeftShift[] = "clshift";
constexpr char kCRightShift[] = "crshift";

}  // namespace

void RegisterTorchBitwiseMethods(lua_State* L) {
  using C = Class<LuaTensor>;
  const MethodEntry methods[] = {
      {kBitAnd, &C::Member<&Scalar<BitOp::kAnd, kBitAnd>>},
      {kBitOr, &C::Member<&Scalar<BitOp::kOr, kBitOr>>},
      {kBitXor, &C::Member<&Scalar<BitOp::kXor, kBitXor>>},
      {kLeftShift, &C::Member<&Scalar<BitOp::kLeftShift, kLeftShift>>},
      {kRightShift, &C::Member<&Scalar<BitOp::kRightShift, kRightShift>>},
      {kCBitAnd, &C::Member<&Components<BitOp::kAnd, kCBitAnd>>},
      {kCBitOr, &C::Member<&Components<BitOp::kOr, kCBitOr>>},
      {kCBitXor, &C::Member<&Components<BitOp::kXor, kCBitXor>>},
      {kCLeftShift, &C::Member<&Components<BitOp::kLeftShift, kCLeftShift>>},
      {kCRightShift, &C::Member<&Components<BitOp::kRightShift, kCRightShift>>},
  };
  AddTorchMethods(L, methods);
}

}  // namespace lua_api
