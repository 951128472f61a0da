// Google Benchmark cases for the tensor core. Every case runs twice, as
// `ours` (the core) and as its baseline in the same process (a raw loop,
// memcpy, a naive loop or raw cblas), so read ratios between neighbouring
// lines rather than absolute times. Each case is checked against its
// baseline before it is timed; a mismatch fails `ours` with the element
// that differs.
//
//   bazel run -c opt //benchmarks:tensor_benchmark -- --benchmark_min_time=0.05
//   ... -- --benchmark_filter='mmul'
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "benchmarks/baselines.h"
#include "benchmarks/cases.h"

namespace benchmarks {
namespace {

enum class Side { kOurs, kBaseline };

// 4 elements measures the cost of a call rather than of its loop.
constexpr Index kContiguousSizes[] = {4, Index{1} << 10, Index{1} << 16, Index{1} << 20,
                                      Index{1} << 24};
constexpr Index kTransposedSide = 1000;
constexpr Index kMatMulSizes[] = {64, 256, 1024};

// True, after failing the benchmark, unless `status` is OK.
bool Failed(benchmark::State& state, const absl::Status& status) {
  if (status.ok()) return false;
  state.SkipWithError(status.ToString().c_str());
  return true;
}

// A case and the result of verifying it.
template <typename Case>
struct Prepared {
  absl::Status created;
  Case* instance = nullptr;
  absl::Status verified;
};

// The case for `key`, set up and verified once and kept while the key
// stays the same: Google Benchmark calls a benchmark several times while
// it picks an iteration count, and `ours` and its baseline share one case.
// Keeps one case per call site, so the 16M buffers are freed when the next
// case begins.
template <typename Case, typename Key, typename Make>
const Prepared<Case>& Prepare(const Key& key, Make make) {
  static std::optional<Key> cached_key;
  static std::unique_ptr<Case> cached;
  static Prepared<Case> prepared;
  if (cached_key != key) {
    cached.reset();
    cached_key = key;
    prepared = {};
    absl::StatusOr<std::unique_ptr<Case>> made = make();
    prepared.created = made.status();
    if (made.ok()) {
      cached = std::move(*made);
      prepared.instance = cached.get();
      prepared.verified = cached->Verify();
    }
  }
  return prepared;
}

template <typename Case>
bool TimeCase(benchmark::State& state, const Prepared<Case>& prepared, Side side) {
  if (Failed(state, prepared.created)) return false;
  Case& c = *prepared.instance;
  if (side == Side::kOurs) {
    if (Failed(state, prepared.verified)) return false;
    for (auto _ : state) {
      if (Failed(state, c.RunOurs())) return false;
      benchmark::ClobberMemory();
    }
  } else {
    for (auto _ : state) {
      c.RunBaseline();
      benchmark::ClobberMemory();
    }
  }
  return true;
}

void BM_Element(benchmark::State& state, ElementKind kind, bool transposed, Side side) {
  const Index size = state.range(0);
  const Prepared<ElementCase>& prepared = Prepare<ElementCase>(
      std::tuple{kind, transposed, size}, [&] {
        return transposed ? ElementCase::Transposed(kind, size)
                          : ElementCase::Contiguous(kind, size);
      });
  if (!TimeCase(state, prepared, side)) return;
  state.SetItemsProcessed(state.iterations() * prepared.instance->elements());
  state.SetBytesProcessed(state.iterations() * static_cast<Index>(prepared.instance->bytes()));
}

template <typename T>
void BM_MatMul(benchmark::State& state, Side side) {
  const Index n = state.range(0);
  const Prepared<MatMulCase<T>>& prepared =
      Prepare<MatMulCase<T>>(n, [&] { return MatMulCase<T>::Create(n); });
  if (!TimeCase(state, prepared, side)) return;
  state.counters["GFLOP"] = benchmark::Counter(
      prepared.instance->flops() / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

template <typename T>
void RegisterMatMul(const char* dtype) {
  for (Index n : kMatMulSizes) {
    for (Side side : {Side::kOurs, Side::kBaseline}) {
      const std::string name =
          absl::StrCat("mmul_", dtype, "/", side == Side::kOurs ? "ours" : "cblas");
      // OpenBLAS may run several threads: time by the wall clock.
      benchmark::RegisterBenchmark(name.c_str(), BM_MatMul<T>, side)
          ->Arg(n)
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

void RegisterAll() {
  for (ElementKind kind : kAllElementKinds) {
    for (Index size : kContiguousSizes) {
      for (Side side : {Side::kOurs, Side::kBaseline}) {
        const std::string name =
            absl::StrCat(ElementKindName(kind), "/",
                         side == Side::kOurs ? "ours" : BaselineName(kind, false));
        benchmark::RegisterBenchmark(name.c_str(), BM_Element, kind, false, side)->Arg(size);
      }
    }
  }
  for (ElementKind kind : kAllElementKinds) {
    for (Side side : {Side::kOurs, Side::kBaseline}) {
      const std::string name =
          absl::StrCat("transposed_", ElementKindName(kind), "/",
                       side == Side::kOurs ? "ours" : BaselineName(kind, true));
      benchmark::RegisterBenchmark(name.c_str(), BM_Element, kind, true, side)
          ->Arg(kTransposedSide);
    }
  }
  RegisterMatMul<float>("float");
  RegisterMatMul<double>("double");
}

}  // namespace
}  // namespace benchmarks

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmarks::RegisterAll();
  benchmark::AddCustomContext("openblas_threads", std::to_string(benchmarks::BlasThreads()));
  benchmark::AddCustomContext("mmul_ours", "MatMul, including allocating its result");
  benchmark::AddCustomContext("transposed", "1000x1000 float64; cadd, cmul, copy read a "
                                            "transposed source into a row-major destination");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
