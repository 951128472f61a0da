#include "lua_api/tensor/tensor_limits.h"

#include <atomic>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace lua_api {
namespace {

// The registry key of a state's Budget box.
const char kBudgetKey = 0;
// How many times the Lua heap's size in tensor bytes may be allocated
// between two collections (see Budget::PaceCollector).
constexpr std::size_t kCollectionRatio = 4;
constexpr char kBudgetMetatable[] = "dmlab.system.tensor.limits";

std::string Megabytes(std::size_t bytes) {
  return absl::StrCat(bytes >> 20, " MiB");
}

// A state's allocator. It lives while the state or any storage it handed
// out does: one reference for the state's box, one per live block. Storage
// may be freed on another thread (a host releasing an observation), so the
// counts are atomic.
class Budget final : public tensor::Allocator {
 public:
  explicit Budget(const TensorLimits& limits) : limits_(limits) {}

  tensor::Device device() const override { return tensor::Device::Cpu(); }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    PaceCollector(bytes);
    if (!Reserve(bytes) && collector_ != nullptr) {
      // The script's garbage may hold the room.
      Collect(collector_);
      if (!Reserve(bytes)) return Refusal(bytes);
    }
    absl::StatusOr<void*> block = tensor::CpuAllocator().Allocate(bytes, zeroed);
    if (!block.ok()) {
      used_.fetch_sub(bytes, std::memory_order_relaxed);
      return block.status();
    }
    refs_.fetch_add(1, std::memory_order_relaxed);
    return block;
  }

  void Deallocate(void* data, std::size_t bytes) override {
    tensor::CpuAllocator().Deallocate(data, bytes);
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    Unref();
  }

  void Unref() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // A host's memory for the state: counted as a block is, with no block.
  absl::Status Charge(std::size_t bytes) {
    if (!Reserve(bytes)) {
      // The script's garbage may hold the room.
      if (collector_ != nullptr) Collect(collector_);
      if (!Reserve(bytes)) return Refusal(bytes, "the host's memory for this state");
    }
    refs_.fetch_add(1, std::memory_order_relaxed);
    return absl::OkStatus();
  }

  void Discharge(std::size_t bytes) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    Unref();
  }

  const TensorLimits& limits() const { return limits_; }
  void set_limits(const TensorLimits& limits) { limits_ = limits; }
  std::size_t used() const { return used_.load(std::memory_order_relaxed); }
  void set_collector(lua_State* L) { collector_ = L; }

 private:
  // Lua's collector runs on its own heap's schedule and never counts tensor
  // bytes, so garbage tensors keep their storage: a loop that makes large
  // tensors would grow the process by gigabytes, and each of its blocks
  // would be fresh memory, whose page faults on this machine kind cost more
  // than the work (a new zeroed 512 KiB tensor: 400 us; refilling a reused
  // one: 20 us). So once the tensor bytes allocated since the last
  // collection reach kCollectionRatio times the Lua heap, a full collection
  // hands the garbage's blocks back to the CPU allocator, which reuses them.
  // A full collection costs time in proportion to the Lua heap (50 us for
  // the 215 KiB of lua_run's state), so this bounds its cost per tensor
  // byte.
  void PaceCollector(std::size_t bytes) {
    if (collector_ == nullptr) return;
    debt_ += bytes;
    const std::size_t heap = static_cast<std::size_t>(lua_gc(collector_, LUA_GCCOUNT, 0)) << 10;
    if (debt_ / kCollectionRatio < heap) return;
    Collect(collector_);
  }

  // A full collection of L. A __gc metamethod may raise an error (in Lua
  // 5.1 a script can set one with newproxy), which must not unwind through
  // the caller's C++ frames: the collection runs in protected calls. An
  // error stops one after that finalizer; the next goes on with the rest
  // of the cycle. The errors are dropped, as Lua 5.2 and later do. An
  // error can also come before any finalizer runs, every time: "C stack
  // overflow" when the host has nested 200 calls into the state. A call
  // that does nothing tells that case apart, and then Lua's own
  // collection steps finish the cycle later: retrying there cost 10000
  // failed calls for every tensor allocated (seconds, for a level whose
  // host calls nest that deep). The retries are bounded too, far above
  // any finalizer count a test uses.
  void Collect(lua_State* L) {
    debt_ = 0;
    lua_CFunction run = &FullCollection;
    for (int errors = 0; errors < kMaxCollectionErrors; ++errors) {
      const int status = lua_cpcall(L, run, nullptr);
      if (status == 0) return;
      lua_pop(L, 1);
      if (status == LUA_ERRMEM) return;  // the next collection goes on
      if (lua_cpcall(L, &Nothing, nullptr) != 0) {  // no call can run now
        lua_pop(L, 1);
        return;
      }
      run = &FinishCycle;
    }
  }
  static constexpr int kMaxCollectionErrors = 10000;

  static int Nothing(lua_State*) { return 0; }

  // [-0, +0, e]
  static int FullCollection(lua_State* L) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    return 0;
  }

  // [-0, +0, e]
  static int FinishCycle(lua_State* L) {
    while (lua_gc(L, LUA_GCSTEP, 0) == 0) {
    }
    return 0;
  }

  // Counts `bytes` if they fit under the limit.
  bool Reserve(std::size_t bytes) {
    std::size_t used = used_.load(std::memory_order_relaxed);
    do {
      if (bytes > limits_.memory_bytes || used > limits_.memory_bytes - bytes) return false;
    } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
  }

  absl::Status Refusal(std::size_t bytes, absl::string_view what = "a tensor") const {
    return absl::ResourceExhaustedError(absl::StrCat(
        what, " of ", bytes, " bytes would exceed the tensor memory limit of this Lua state, ",
        Megabytes(limits_.memory_bytes), " (", used(), " bytes are in use)"));
  }

  TensorLimits limits_;
  std::atomic<std::size_t> used_{0};
  std::atomic<long> refs_{1};  // the state's box
  lua_State* collector_ = nullptr;  // cleared when the state lets go
  // Tensor bytes allocated since the last collection. Allocation happens
  // only on the state's thread, so no atomic.
  std::size_t debt_ = 0;
};

// What TensorAllocator gives a state that has no Budget: a host error.
class Unconfigured final : public tensor::Allocator {
 public:
  tensor::Device device() const override { return tensor::Device::Cpu(); }
  absl::StatusOr<void*> Allocate(std::size_t, bool) override {
    return absl::FailedPreconditionError(
        "this Lua state has no tensor limits: the host must call RegisterTensorModule");
  }
  void Deallocate(void*, std::size_t) override {}
};

// [-0, +0, -] L's Budget, or null.
Budget* Find(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kBudgetKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  Budget* budget = lua_isuserdata(L, -1) ? *static_cast<Budget**>(lua_touserdata(L, -1)) : nullptr;
  lua_pop(L, 1);
  return budget;
}

// [-1, +0, -] __gc of the box: the state lets go of its Budget.
int ReleaseBudget(lua_State* L) {
  Budget* budget = *static_cast<Budget**>(lua_touserdata(L, 1));
  if (budget == nullptr) return 0;  // SetTensorLimits failed before making it
  budget->set_collector(nullptr);
  budget->Unref();
  return 0;
}

}  // namespace

void SetTensorLimits(lua_State* L, const TensorLimits& limits) {
  if (Budget* budget = Find(L)) {
    budget->set_limits(limits);
    return;
  }
  lua_pushlightuserdata(L, const_cast<char*>(&kBudgetKey));
  auto** box = static_cast<Budget**>(lua_newuserdata(L, sizeof(Budget*)));
  *box = nullptr;
  if (luaL_newmetatable(L, kBudgetMetatable)) {
    lua_pushcfunction(L, &ReleaseBudget);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  // Made only once the box can free it: should the registry write below
  // fail for memory, the box is garbage and its __gc lets go.
  *box = new Budget(limits);
#ifdef __SANITIZE_ADDRESS__
  // LuaJIT allocates its heap with mmap, which LeakSanitizer does not scan:
  // a state that exits without lua_close (os.exit) would make the Budget,
  // whose only pointer is in that heap, look leaked.
  __lsan_ignore_object(*box);
#endif
  lua_rawset(L, LUA_REGISTRYINDEX);
}

TensorLimits GetTensorLimits(lua_State* L) {
  const Budget* budget = Find(L);
  return budget != nullptr ? budget->limits() : TensorLimits{};
}

std::size_t TensorMemoryInUse(lua_State* L) {
  const Budget* budget = Find(L);
  return budget != nullptr ? budget->used() : 0;
}

TensorMemoryCharge::TensorMemoryCharge(TensorMemoryCharge&& other) noexcept
    : budget_(other.budget_), bytes_(other.bytes_) {
  other.budget_ = nullptr;
  other.bytes_ = 0;
}

TensorMemoryCharge& TensorMemoryCharge::operator=(TensorMemoryCharge&& other) noexcept {
  if (this != &other) {
    Release();
    budget_ = other.budget_;
    bytes_ = other.bytes_;
    other.budget_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

TensorMemoryCharge::~TensorMemoryCharge() { Release(); }

void TensorMemoryCharge::Release() {
  if (budget_ != nullptr) static_cast<Budget*>(budget_)->Discharge(bytes_);
  budget_ = nullptr;
  bytes_ = 0;
}

absl::Status TensorMemoryCharge::Add(lua_State* L, std::size_t bytes) {
  absl::StatusOr<TensorMemoryCharge> more = ChargeTensorMemory(L, bytes);
  if (!more.ok()) return more.status();
  if (budget_ == nullptr) {
    *this = *std::move(more);
  } else {
    bytes_ += more->bytes_;
    more->budget_ = nullptr;
    more->bytes_ = 0;
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorMemoryCharge> ChargeTensorMemory(lua_State* L, std::size_t bytes) {
  Budget* budget = Find(L);
  if (budget == nullptr) {
    return absl::FailedPreconditionError(
        "this Lua state has no tensor limits: the host must call RegisterTensorModule");
  }
  budget->set_collector(L);
  if (absl::Status charged = budget->Charge(bytes); !charged.ok()) return charged;
  TensorMemoryCharge charge;
  charge.budget_ = budget;
  charge.bytes_ = bytes;
  return charge;
}

tensor::Allocator& TensorAllocator(lua_State* L) {
  Budget* budget = Find(L);
  if (budget == nullptr) {
    static Unconfigured* const unconfigured = new Unconfigured;
    return *unconfigured;
  }
  budget->set_collector(L);
  return *budget;
}

}  // namespace lua_api
