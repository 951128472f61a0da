// The per-call cost of dmlab.system.tensor from Lua, beside its floor: the
// least any binding can do for the same call through the Lua C API. The
// floor class below checks its self with luaL_checkudata, reads numbers
// with luaL_check*, makes a view as a userdata with a metatable and a __gc,
// and calls the function of an apply once per element with lua_call; it
// keeps no reference counts, validity tokens or error messages. The same
// Lua loops, shaped like ../shared/bench/ops_bench.lua's, run over both in
// one process, so their ratio holds on a noisy machine where absolute
// times do not. Under LuaJIT, add takes the compiled FFI path of
// lua_api/tensor/tensor_methods_ffi.cc, which no C API binding can follow, so
// there it runs below the floor. ops_bench's streaming cases and matrix products run both
// from Lua and as direct calls of the core on tensors of the same shapes,
// for the same kind of ratio. Built twice: lua_call_benchmark (Lua 5.1)
// and lua_call_benchmark_luajit.
//
//   bazel run -c opt //benchmarks:lua_call_benchmark
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/tensor_module.h"
#include "tensor/elementwise.h"
#include "tensor/matmul.h"
#include "tensor/reduce.h"
#include "tensor/tensor.h"

namespace benchmarks {
namespace {

constexpr char kFloorClass[] = "floor.Vector";

// A vector of doubles, or a view into one (which does not own `data`).
struct FloorVector {
  double* data;
  int size;
  bool owner;
};

FloorVector* CheckFloor(lua_State* L) {
  return static_cast<FloorVector*>(luaL_checkudata(L, 1, kFloorClass));
}

FloorVector* PushFloor(lua_State* L, double* data, int size, bool owner) {
  auto* v = static_cast<FloorVector*>(lua_newuserdata(L, sizeof(FloorVector)));
  *v = {data, size, owner};
  luaL_getmetatable(L, kFloorClass);
  lua_setmetatable(L, -2);
  return v;
}

int FloorNew(lua_State* L) {
  const int size = luaL_checkint(L, 1);
  PushFloor(L, static_cast<double*>(std::calloc(size, sizeof(double))), size, true);
  return 1;
}

int FloorGc(lua_State* L) {
  FloorVector* v = CheckFloor(L);
  if (v->owner) std::free(v->data);
  return 0;
}

int FloorAdd(lua_State* L) {
  FloorVector* v = CheckFloor(L);
  const double value = luaL_checknumber(L, 2);
  for (int i = 0; i < v->size; ++i) v->data[i] += value;
  lua_settop(L, 1);
  return 1;
}

// select(dim, index) and narrow(dim, start, length) on a matrix stored as
// rows of 100, as ops_bench's 100 x 100 tensor.
int FloorSelect(lua_State* L) {
  FloorVector* v = CheckFloor(L);
  luaL_checkint(L, 2);
  const int index = luaL_checkint(L, 3);
  PushFloor(L, v->data + (index - 1) * 100, 100, false);
  return 1;
}

int FloorNarrow(lua_State* L) {
  FloorVector* v = CheckFloor(L);
  luaL_checkint(L, 2);
  const int start = luaL_checkint(L, 3);
  const int length = luaL_checkint(L, 4);
  PushFloor(L, v->data + start - 1, length, false);
  return 1;
}

int FloorApply(lua_State* L) {
  FloorVector* v = CheckFloor(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  for (int i = 0; i < v->size; ++i) {
    lua_pushvalue(L, 2);
    lua_pushnumber(L, v->data[i]);
    lua_call(L, 1, 1);
    if (lua_isnumber(L, -1)) v->data[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_settop(L, 1);
  return 1;
}

int OpenFloor(lua_State* L) {
  luaL_newmetatable(L, kFloorClass);
  static const luaL_Reg kMethods[] = {{"add", &FloorAdd},       {"select", &FloorSelect},
                                      {"narrow", &FloorNarrow}, {"apply", &FloorApply},
                                      {nullptr, nullptr}};
  lua_newtable(L);
  luaL_register(L, nullptr, kMethods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, &FloorGc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushcfunction(L, &FloorNew);
  lua_setfield(L, -2, "new");
  return 1;
}

// Each case: made once per state by `setup` (which gets a constructor for
// a vector of n doubles and returns a function of the iteration count),
// then run for `calls` calls or elements per benchmark iteration.
struct Case {
  const char* setup;
  int calls;
};

constexpr Case kAddSmall = {
    "local new = ...\n"
    "local small = new(4)\n"
    "local add = function(t, v) t:add(v) end\n"
    "return function(n) for _ = 1, n do add(small, 1) end end",
    10000};
constexpr Case kSelect = {
    "local new = ...\n"
    "local m = new(100 * 100)\n"
    "local select = function(t, d, i) return t:select(d, i) end\n"
    "return function(n) for i = 1, n do select(m, 1, (i % 100) + 1) end end",
    10000};
constexpr Case kNarrow = {
    "local new = ...\n"
    "local m = new(100 * 100)\n"
    "local narrow = function(t, d, i, k) return t:narrow(d, i, k) end\n"
    "return function(n) for i = 1, n do narrow(m, 2, 1, 50) end end",
    10000};
constexpr Case kApply = {
    "local new = ...\n"
    "local v = new(10000)\n"
    "local f = function(x) return x + 1 end\n"
    "return function() v:apply(f) end",
    10000};

// The Lua source of the constructor `new(n)` for each binding. The tensor
// module's matrix cases need a 100 x 100 tensor, not a vector, for select
// and narrow to mean the same as the floor's.
constexpr char kTensorNew[] =
    "local tensor = require 'dmlab.system.tensor'\n"
    "return function(n)\n"
    "  if n == 100 * 100 then return tensor.DoubleTensor(100, 100) end\n"
    "  return tensor.DoubleTensor(n)\n"
    "end";
constexpr char kFloorNew[] = "return require('floor').new";

void Fail(lua_State* L, const char* what) {
  std::fprintf(stderr, "lua_call_benchmark: %s: %s\n", what, lua_tostring(L, -1));
  std::abort();
}

void RunCase(benchmark::State& state, const Case& c, bool floor) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_api::RegisterTensorModule(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, &OpenFloor);
  lua_setfield(L, -2, "floor");
  lua_pop(L, 2);
  if (luaL_loadstring(L, c.setup) != 0) Fail(L, "setup");
  if (luaL_dostring(L, floor ? kFloorNew : kTensorNew) != 0) Fail(L, "new");
  if (lua_pcall(L, 1, 1, 0) != 0) Fail(L, "setup");
  for (auto _ : state) {
    lua_pushvalue(L, -1);
    lua_pushinteger(L, c.calls);
    if (lua_pcall(L, 1, 0, 0) != 0) Fail(L, "run");
  }
  state.counters["per_call"] = benchmark::Counter(
      c.calls, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  lua_close(L);
}

// --- The core from Lua and from C++ -----------------------------------------

using tensor::ElementOp;
using tensor::Tensor;

// Lua: `setup` makes the tensors, `body` is one call; C++: the same call.
struct CoreCase {
  const char* setup;
  const char* body;
  std::function<absl::Status(const Tensor& a, const Tensor& b)> core;
  tensor::Index rows, columns;  // of a and b
  double elements;  // per call, for the per-element time (0: GFLOP/s)
};

constexpr char kVectors[] =
    "local a, b = tensor.DoubleTensor(1000000), tensor.DoubleTensor(1000000)\n"
    "a:fill(1.5) b:fill(2)\n";

absl::Status StatusOf(const absl::StatusOr<double>& s) { return s.status(); }
absl::Status StatusOf(const absl::StatusOr<Tensor>& s) { return s.status(); }

const CoreCase kFill1M = {kVectors, "a:fill(3)",
                          [](const Tensor& a, const Tensor&) {
                            return tensor::ApplyScalars(a, ElementOp::kAssign, {3.0});
                          },
                          1, 1000000, 1e6};
const CoreCase kAddScalar1M = {kVectors, "a:add(1)",
                               [](const Tensor& a, const Tensor&) {
                                 return tensor::ApplyScalars(a, ElementOp::kAdd, {1.0});
                               },
                               1, 1000000, 1e6};
const CoreCase kCadd1M = {kVectors, "a:cadd(b)",
                          [](const Tensor& a, const Tensor& b) {
                            return tensor::ApplyComponents(a, ElementOp::kAdd, b);
                          },
                          1, 1000000, 1e6};
const CoreCase kCmul1M = {kVectors, "a:cmul(b)",
                          [](const Tensor& a, const Tensor& b) {
                            return tensor::ApplyComponents(a, ElementOp::kMul, b);
                          },
                          1, 1000000, 1e6};
const CoreCase kSum1M = {kVectors, "a:sum()",
                         [](const Tensor& a, const Tensor&) { return StatusOf(tensor::Sum(a)); },
                         1, 1000000, 1e6};
const CoreCase kCopyTransposed = {
    "local a, b = tensor.DoubleTensor(1000, 1000), tensor.DoubleTensor(1000, 1000)\n"
    "b:fill(1)\n",
    "a:copy(b:transpose(1, 2))",
    [](const Tensor& a, const Tensor& b) {
      return tensor::ApplyComponents(a, ElementOp::kAssign, *b.Transpose(0, 1));
    },
    1000, 1000, 1e6};
const CoreCase kMmul64 = {
    "local a, b = tensor.DoubleTensor(64, 64), tensor.DoubleTensor(64, 64)\n"
    "a:fill(0.5) b:fill(0.25)\n",
    "a:mmul(b)",
    [](const Tensor& a, const Tensor& b) { return StatusOf(tensor::MatMul(a, b)); },
    64, 64, 0};
const CoreCase kMmul256 = {
    "local a, b = tensor.DoubleTensor(256, 256), tensor.DoubleTensor(256, 256)\n"
    "a:fill(0.5) b:fill(0.25)\n",
    "a:mmul(b)",
    [](const Tensor& a, const Tensor& b) { return StatusOf(tensor::MatMul(a, b)); },
    256, 256, 0};

void SetRate(benchmark::State& state, const CoreCase& c) {
  if (c.elements > 0) {
    state.counters["per_element"] = benchmark::Counter(
        c.elements, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  } else {
    const double n = static_cast<double>(c.rows);
    state.counters["GFLOPs"] = benchmark::Counter(
        2 * n * n * n / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  }
}

void BM_FromLua(benchmark::State& state, const CoreCase& c) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_api::RegisterTensorModule(L);
  const std::string chunk = std::string("local tensor = require 'dmlab.system.tensor'\n") +
                            c.setup + "return function() " + c.body + " end";
  if (luaL_dostring(L, chunk.c_str()) != 0) Fail(L, "setup");
  for (auto _ : state) {
    lua_pushvalue(L, -1);
    if (lua_pcall(L, 0, 0, 0) != 0) Fail(L, "run");
  }
  SetRate(state, c);
  lua_close(L);
}

void BM_FromCpp(benchmark::State& state, const CoreCase& c) {
  const Tensor a = *Tensor::Zeros(tensor::DType::kFloat64, {c.rows, c.columns});
  const Tensor b = *Tensor::Zeros(tensor::DType::kFloat64, {c.rows, c.columns});
  for (const Tensor* t : {&a, &b}) {
    if (!tensor::ApplyScalars(*t, ElementOp::kAssign, {0.5}).ok()) std::abort();
  }
  for (auto _ : state) {
    if (!c.core(a, b).ok()) std::abort();
  }
  SetRate(state, c);
}

BENCHMARK_CAPTURE(BM_FromLua, fill_1M, kFill1M);
BENCHMARK_CAPTURE(BM_FromCpp, fill_1M, kFill1M);
BENCHMARK_CAPTURE(BM_FromLua, add_scalar_1M, kAddScalar1M);
BENCHMARK_CAPTURE(BM_FromCpp, add_scalar_1M, kAddScalar1M);
BENCHMARK_CAPTURE(BM_FromLua, cadd_1M, kCadd1M);
BENCHMARK_CAPTURE(BM_FromCpp, cadd_1M, kCadd1M);
BENCHMARK_CAPTURE(BM_FromLua, cmul_1M, kCmul1M);
BENCHMARK_CAPTURE(BM_FromCpp, cmul_1M, kCmul1M);
BENCHMARK_CAPTURE(BM_FromLua, sum_1M, kSum1M);
BENCHMARK_CAPTURE(BM_FromCpp, sum_1M, kSum1M);
BENCHMARK_CAPTURE(BM_FromLua, copy_transposed_1000x1000, kCopyTransposed);
BENCHMARK_CAPTURE(BM_FromCpp, copy_transposed_1000x1000, kCopyTransposed);
BENCHMARK_CAPTURE(BM_FromLua, mmul_64, kMmul64);
BENCHMARK_CAPTURE(BM_FromCpp, mmul_64, kMmul64);
BENCHMARK_CAPTURE(BM_FromLua, mmul_256, kMmul256);
BENCHMARK_CAPTURE(BM_FromCpp, mmul_256, kMmul256);

// --- Per-call cost against the floor ----------------------------------------

void BM_AddSmallCall(benchmark::State& state) { RunCase(state, kAddSmall, false); }
void BM_AddSmallCallFloor(benchmark::State& state) { RunCase(state, kAddSmall, true); }
void BM_Select(benchmark::State& state) { RunCase(state, kSelect, false); }
void BM_SelectFloor(benchmark::State& state) { RunCase(state, kSelect, true); }
void BM_Narrow(benchmark::State& state) { RunCase(state, kNarrow, false); }
void BM_NarrowFloor(benchmark::State& state) { RunCase(state, kNarrow, true); }
void BM_ApplyPerElement(benchmark::State& state) { RunCase(state, kApply, false); }
void BM_ApplyPerElementFloor(benchmark::State& state) { RunCase(state, kApply, true); }

BENCHMARK(BM_AddSmallCall);
BENCHMARK(BM_AddSmallCallFloor);
BENCHMARK(BM_Select);
BENCHMARK(BM_SelectFloor);
BENCHMARK(BM_Narrow);
BENCHMARK(BM_NarrowFloor);
BENCHMARK(BM_ApplyPerElement);
BENCHMARK(BM_ApplyPerElementFloor);

}  // namespace
}  // namespace benchmarks

BENCHMARK_MAIN();
