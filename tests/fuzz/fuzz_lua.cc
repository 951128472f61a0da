#include "tests/fuzz/fuzz_lua.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/lua_memory.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/host_test.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_module.h"
#include "tensor/dtype.h"
#include "tensor/layout.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"

namespace fuzz {

// Enough slots for several loans alive at once; few enough that random
// slot numbers often hit a live one.
constexpr int kSlots = 4;
// Lent buffers stay small: the fuzzer is after ownership bugs, not size.
constexpr std::int64_t kMaxLentElements = 4096;

// The harness's lender: one loan and buffer per slot. A revoked buffer is
// freed at once (new[]/delete[], so ASan sees any later read of it).
struct Lender {
  std::shared_ptr<tensor::Loan> loans[kSlots];
  std::unique_ptr<std::byte[]> buffers[kSlots];

  void Revoke(int slot) {
    if (loans[slot] != nullptr) loans[slot]->Revoke();
    loans[slot].reset();
    buffers[slot].reset();
  }
};

namespace {

// How often, in VM instructions, the hook counts and looks at the clock.
constexpr int kHookPeriod = 100;

const char kBudgetKey[] = "fuzz.budget";

int Panic(lua_State* L) {
  const char* message = lua_tostring(L, -1);
  std::fprintf(stderr, "fuzz: unprotected Lua error: %s\n", message ? message : "?");
  std::abort();
}

Lender* LenderOf(lua_State* L) {
  return static_cast<Lender*>(lua_touserdata(L, lua_upvalueindex(1)));
}

// Reads argument 1, a slot number in [1, kSlots]; *slot is 0-based.
std::string ReadSlot(lua_State* L, const char* method, int* slot) {
  std::int64_t value = 0;
  std::string why = lua_api::ReadInteger(L, 1, &value);
  if (why.empty() && (value < 1 || value > kSlots)) {
    why = absl::StrCat("slot in [1, ", kSlots, "] expected, got ", value);
  }
  if (!why.empty()) return lua_api::ArgumentError(method, 1, why);
  *slot = static_cast<int>(value - 1);
  return {};
}

// Pushes the lent tensor, or returns why not; every C++ object is gone
// before the caller raises.
std::string LendAndPush(lua_State* L) {
  Lender& lender = *LenderOf(L);
  int slot = 0;
  if (std::string why = ReadSlot(L, "lend", &slot); !why.empty()) return why;
  std::string type_name;
  if (std::string why = lua_api::ReadString(L, 2, &type_name); !why.empty()) {
    return lua_api::ArgumentError("lend", 2, why);
  }
  std::optional<tensor::DType> dtype;
  for (tensor::DType candidate : lua_api::kLuaDTypes) {
    if (type_name == tensor::DTypeTensorName(candidate)) dtype = candidate;
  }
  if (!dtype) return lua_api::ArgumentError("lend", 2, "unknown tensor type");
  if (!lua_istable(L, 3)) return lua_api::ArgumentError("lend", 3, "table of extents expected");
  tensor::Shape shape;
  std::int64_t elements = 1;
  for (int i = 1; i <= static_cast<int>(lua_objlen(L, 3)); ++i) {
    lua_rawgeti(L, 3, i);
    std::int64_t extent = 0;
    std::string why = lua_api::ReadInteger(L, -1, &extent);
    lua_pop(L, 1);
    if (why.empty() && (extent < 0 || extent > kMaxLentElements)) why = "extent out of range";
    if (!why.empty()) return lua_api::ArgumentError("lend", 3, why);
    elements *= extent;
    if (elements > kMaxLentElements) return lua_api::ArgumentError("lend", 3, "too many elements");
    shape.push_back(extent);
  }
  std::int64_t fill = 0;
  if (std::string why = lua_api::ReadInteger(L, 4, &fill); !why.empty()) {
    return lua_api::ArgumentError("lend", 4, why);
  }
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
  if (!layout.ok()) return lua_api::ArgumentError("lend", 3, layout.status().message());

  lender.Revoke(slot);
  const std::size_t bytes = static_cast<std::size_t>(elements) * tensor::DTypeSize(*dtype);
  // new[] of 0 bytes still gives a distinct pointer, as Lend expects.
  lender.buffers[slot] = std::make_unique<std::byte[]>(bytes);
  std::memset(lender.buffers[slot].get(), static_cast<int>(fill & 0xff), bytes);
  lender.loans[slot] = tensor::Loan::Create(absl::StrCat("fuzz_host slot ", slot + 1));
  absl::StatusOr<tensor::Tensor> lent = tensor::Tensor::Lend(
      *dtype, *std::move(layout), lender.buffers[slot].get(), bytes, lender.loans[slot]);
  if (!lent.ok()) {
    lender.Revoke(slot);
    return absl::StrCat("fuzz_host.lend: ", lent.status().message());
  }
  lua_api::LuaTensor::Push(L, *std::move(lent));
  return {};
}

// [-0, +1, e] fuzz_host.lend(slot, typeName, shape, fillByte)
int Lend(lua_State* L) {
  {
    std::string error = LendAndPush(L);
    if (error.empty()) return 1;
    lua_pushlstring(L, error.data(), error.size());
  }
  return lua_error(L);
}

// [-0, +0, e] fuzz_host.revoke(slot): ends the loan and frees the buffer.
int Revoke(lua_State* L) {
  {
    int slot = 0;
    std::string error = ReadSlot(L, "revoke", &slot);
    if (error.empty()) {
      LenderOf(L)->Revoke(slot);
      return 0;
    }
    lua_pushlstring(L, error.data(), error.size());
  }
  return lua_error(L);
}

// [-0, +0, m] The global fuzz_host = {lend = ..., revoke = ...}, whose
// functions share the Lender as their upvalue.
void RegisterLender(lua_State* L, Lender* lender) {
  lua_newtable(L);
  lua_pushlightuserdata(L, lender);
  lua_pushcclosure(L, &Lend, 1);
  lua_setfield(L, -2, "lend");
  lua_pushlightuserdata(L, lender);
  lua_pushcclosure(L, &Revoke, 1);
  lua_setfield(L, -2, "revoke");
  lua_setglobal(L, "fuzz_host");
}

// What would leave the process or lift a limit, and a loadstring without
// binary chunks. Under LuaJIT (--config=luajit) compiled code skips count
// hooks, so the JIT is turned off for good.
constexpr char kRestrict[] = R"(
  if jit then jit.off() end
  jit, package.loaded.jit = nil, nil
  dofile, loadfile, load = nil, nil, nil
  string.dump, package.loadlib, package.cpath = nil, nil, ''
  package.loaders[3], package.loaders[4] = nil, nil
  local loadstring = loadstring
  _G.loadstring = function(source, name)
    if type(source) == 'string' and source:byte(1) == 27 then
      return nil, 'binary chunks are disabled'
    end
    return loadstring(source, name)
  end
)";

}  // namespace

void FuzzLua::CountInstructions(lua_State* L, lua_Debug*) {
  lua_getfield(L, LUA_REGISTRYINDEX, kBudgetKey);
  Budget& budget = *static_cast<Budget*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  budget.instructions_left -= kHookPeriod;
  if (budget.instructions_left > 0 && std::chrono::steady_clock::now() < budget.deadline) return;
  // From now on every instruction raises, so no pcall can keep a loop alive.
  lua_sethook(L, &CountInstructions, LUA_MASKCOUNT, 1);
  luaL_error(L, "fuzz: instruction budget or time limit exhausted");
}

FuzzLua::FuzzLua(long instruction_budget)
    : lender_(std::make_unique<Lender>()),
      budget_{instruction_budget, std::chrono::steady_clock::now() + kTimeLimit} {
  L_ = lua_api::NewCappedState(&memory_);
  if (L_ == nullptr) {
    std::fprintf(stderr, "fuzz: cannot create a Lua state\n");
    std::abort();
  }
  lua_atpanic(L_, &Panic);
  lua_pushlightuserdata(L_, &budget_);
  lua_setfield(L_, LUA_REGISTRYINDEX, kBudgetKey);
  // Only the libraries the environment keeps: opening io, os and debug
  // just to remove them was a tenth of each input's start-up.
  for (lua_CFunction open : {&luaopen_base, &luaopen_package, &luaopen_table, &luaopen_string,
                             &luaopen_math
#ifdef LUAJIT_VERSION
                             ,
                             &luaopen_jit  // for kRestrict's jit.off()
#endif
       }) {
    lua_pushcfunction(L_, open);
    lua_call(L_, 0, 0);
  }
  lua_api::RegisterTensorModule(L_);
  lua_api::SetTensorLimits(L_, {.memory_bytes = kTensorMemoryCap});
  lua_api::RegisterRandomModule(L_);
  lua_api::RegisterHostTestModule(L_);
  RegisterLender(L_, lender_.get());
  if (std::string error = Run(kRestrict, "=restrict"); !error.empty()) {
    std::fprintf(stderr, "fuzz: cannot restrict the environment: %s\n", error.c_str());
    std::abort();
  }
  lua_sethook(L_, &CountInstructions, LUA_MASKCOUNT, kHookPeriod);
}

FuzzLua::~FuzzLua() {
  lua_close(L_);
  for (int slot = 0; slot < kSlots; ++slot) lender_->Revoke(slot);
}

std::string FuzzLua::Run(absl::string_view source, const char* chunk_name) {
  if (luaL_loadbuffer(L_, source.data(), source.size(), chunk_name) != 0) {
    std::string error = lua_isstring(L_, -1) ? lua_tostring(L_, -1) : "(load error)";
    lua_pop(L_, 1);
    return error;
  }
  lua_api::NResultsOr result = lua_api::Call(L_, 0, 0);
  return result.ok() ? std::string() : std::string(result.error());
}

}  // namespace fuzz
