// The core's element-wise kernels at each vector width this processor has
// (tensor/internal/vector_width.h), over the same data: which width is
// fastest for which kind of loop, from the level-1 cache out to memory.
// At the avx512 width, loops over more than 4096 elements that read several
// arrays (cadd, cmul) run on 256-bit vectors; the figures that led to that
// came from this benchmark built on 5d08827, where every loop at that width
// ran on 512-bit vectors.
//
// One command line:
//   bazel run -c opt //benchmarks:width_benchmark --
//       --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "benchmarks/cases.h"
#include "tensor/internal/vector_width.h"

namespace {

using benchmarks::ElementCase;
using benchmarks::ElementKind;
using tensor::internal::VectorWidth;

void BM_Width(benchmark::State& state, ElementKind kind, VectorWidth width, tensor::Index n) {
  absl::StatusOr<std::unique_ptr<ElementCase>> element_case = ElementCase::Contiguous(kind, n);
  if (!element_case.ok()) {
    state.SkipWithError(std::string(element_case.status().message()).c_str());
    return;
  }
  const VectorWidth before = tensor::internal::ActiveVectorWidth();
  tensor::internal::UseVectorWidth(width);
  for (auto _ : state) {
    if (!(*element_case)->RunOurs().ok()) {
      state.SkipWithError("the core failed");
      break;
    }
    benchmark::ClobberMemory();
  }
  tensor::internal::UseVectorWidth(before);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * (*element_case)->bytes()));
}

int RegisterAll() {
  const int widest = static_cast<int>(tensor::internal::SupportedVectorWidth());
  for (ElementKind kind : benchmarks::kAllElementKinds) {
    for (tensor::Index n : {tensor::Index{1} << 12, tensor::Index{1} << 17, tensor::Index{1000000},
                            tensor::Index{1} << 24}) {
      for (int w = 0; w <= widest; ++w) {
        const VectorWidth width = static_cast<VectorWidth>(w);
        benchmark::RegisterBenchmark(absl::StrCat(benchmarks::ElementKindName(kind), "/", n, "/",
                                                  tensor::internal::VectorWidthName(width))
                                         .c_str(),
                                     BM_Width, kind, width, n);
      }
    }
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace

BENCHMARK_MAIN();
