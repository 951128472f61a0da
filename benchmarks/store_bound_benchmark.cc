// How fast one core can write a million doubles (8 MB: in the level-3
// cache, not the level-2) by every way x86-64 has to store them: the
// core's fill and scalar add against plain loops on 256-bit and 512-bit
// vectors, `rep stosq`, and non-temporal stores that bypass the caches.
// It shows the floor under ops_bench.lua's fill_1M and add_scalar_1M:
// every way that stores into the caches takes the same time, the rate at
// which one core's level-2 cache writes lines back to the level-3, and
// non-temporal stores, which go to memory, are slower (docs/core.md).
//
// One command line:
//   bazel run -c opt //benchmarks:store_bound_benchmark --
//       --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <memory>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "benchmarks/baselines.h"
#include "benchmarks/cases.h"
#include "tensor/internal/vector_width.h"

namespace {

using benchmarks::Index;
using tensor::internal::VectorWidth;

constexpr Index kElements = 1000000;
constexpr double kValue = 3;

[[gnu::target("avx2")]] void FillOn256Bits(double* a, Index n) {
  const __m256d value = _mm256_set1_pd(kValue);
  for (Index i = 0; i + 4 <= n; i += 4) _mm256_storeu_pd(a + i, value);
}

[[gnu::target("avx512f")]] void FillOn512Bits(double* a, Index n) {
  const __m512d value = _mm512_set1_pd(kValue);
  for (Index i = 0; i + 8 <= n; i += 8) _mm512_storeu_pd(a + i, value);
}

// Non-temporal stores write whole lines to memory without reading them
// first, and leave nothing in the caches. `a` is 64-byte aligned.
[[gnu::target("avx2")]] void FillNonTemporal(double* a, Index n) {
  const __m256d value = _mm256_set1_pd(kValue);
  for (Index i = 0; i + 4 <= n; i += 4) _mm256_stream_pd(a + i, value);
  _mm_sfence();
}

// The string store, which the processor may carry out a line at a time.
void FillRepStos(double* a, Index n) {
  std::uint64_t bits;
  std::memcpy(&bits, &kValue, sizeof bits);
  asm volatile("rep stosq" : "+D"(a), "+c"(n) : "a"(bits) : "memory");
}

[[gnu::target("avx2")]] void AddOn256Bits(double* a, Index n) {
  const __m256d value = _mm256_set1_pd(kValue);
  for (Index i = 0; i + 4 <= n; i += 4) {
    _mm256_storeu_pd(a + i, _mm256_add_pd(_mm256_loadu_pd(a + i), value));
  }
}

[[gnu::target("avx512f")]] void AddOn512Bits(double* a, Index n) {
  const __m512d value = _mm512_set1_pd(kValue);
  for (Index i = 0; i + 8 <= n; i += 8) {
    _mm512_storeu_pd(a + i, _mm512_add_pd(_mm512_loadu_pd(a + i), value));
  }
}

void BM_Raw(benchmark::State& state, void (*loop)(double*, Index), VectorWidth needs) {
  if (static_cast<int>(tensor::internal::SupportedVectorWidth()) < static_cast<int>(needs)) {
    state.SkipWithError("this processor lacks the instructions");
    return;
  }
  benchmarks::AlignedBuffer<double> a(kElements);
  benchmarks::FillPattern(a.data(), kElements, 7);
  for (auto _ : state) {
    loop(a.data(), kElements);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kElements * static_cast<Index>(sizeof(double)));
}

void BM_Core(benchmark::State& state, benchmarks::ElementKind kind) {
  absl::StatusOr<std::unique_ptr<benchmarks::ElementCase>> element_case =
      benchmarks::ElementCase::Contiguous(kind, kElements);
  if (!element_case.ok()) {
    state.SkipWithError("the case could not be set up");
    return;
  }
  for (auto _ : state) {
    if (!(*element_case)->RunOurs().ok()) {
      state.SkipWithError("the core failed");
      break;
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kElements * static_cast<Index>(sizeof(double)));
}

BENCHMARK_CAPTURE(BM_Core, fill_core, benchmarks::ElementKind::kFill);
BENCHMARK_CAPTURE(BM_Raw, fill_256_bits, FillOn256Bits, VectorWidth::kAvx2);
BENCHMARK_CAPTURE(BM_Raw, fill_512_bits, FillOn512Bits, VectorWidth::kAvx512);
BENCHMARK_CAPTURE(BM_Raw, fill_rep_stosq, FillRepStos, VectorWidth::kBaseline);
BENCHMARK_CAPTURE(BM_Raw, fill_non_temporal, FillNonTemporal, VectorWidth::kAvx2);
BENCHMARK_CAPTURE(BM_Core, add_core, benchmarks::ElementKind::kAddScalar);
BENCHMARK_CAPTURE(BM_Raw, add_256_bits, AddOn256Bits, VectorWidth::kAvx2);
BENCHMARK_CAPTURE(BM_Raw, add_512_bits, AddOn512Bits, VectorWidth::kAvx512);

}  // namespace

BENCHMARK_MAIN();
