// Reductions along a dimension and sorting, beside baselines measured in
// the same run: sum(dim) and max(dim) of a 1000 x 1000 double matrix for
// both dimensions as GB/s of input read, beside memcpy and a plain
// streaming read of the same bytes; sort of 1M random doubles beside
// std::sort of a copy of the same data (and std::stable_sort of an index
// array, the other way to a stable sort with positions).
//
//   bazel run -c opt //benchmarks:reduce_benchmark
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "benchmarks/baselines.h"
#include "tensor/reduce_dim.h"
#include "tensor/sort.h"
#include "tensor/tensor.h"
#include "tensor/typed_view.h"

namespace benchmarks {
namespace {

constexpr Index kSide = 1000;
constexpr Index kSortCount = 1 << 20;

// A kSide x kSide matrix of small integers.
const tensor::Tensor& Matrix() {
  static const tensor::Tensor* matrix = [] {
    auto* t = new tensor::Tensor(*tensor::Tensor::Uninitialized(tensor::DType::kFloat64,
                                                                {kSide, kSide}));
    FillPattern(reinterpret_cast<double*>(*t->data()), kSide * kSide, 7);
    return t;
  }();
  return *matrix;
}

void SetMatrixBytes(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * kSide * kSide * static_cast<Index>(sizeof(double)));
}

void BM_SumDim(benchmark::State& state) {
  const int dim = static_cast<int>(state.range(0)) - 1;
  for (auto _ : state) {
    absl::StatusOr<tensor::Tensor> sum = tensor::SumAlong(Matrix(), dim);
    if (!sum.ok()) return state.SkipWithError(sum.status().ToString().c_str());
    benchmark::DoNotOptimize(*sum->data());
  }
  SetMatrixBytes(state);
}

void BM_MaxDim(benchmark::State& state) {
  const int dim = static_cast<int>(state.range(0)) - 1;
  for (auto _ : state) {
    absl::StatusOr<tensor::ValuesAndIndices> max =
        tensor::ExtremeAlong(Matrix(), dim, tensor::Extreme::kMax, 1);
    if (!max.ok()) return state.SkipWithError(max.status().ToString().c_str());
    benchmark::DoNotOptimize(*max->values.data());
  }
  SetMatrixBytes(state);
}

// memcpy of the matrix: the bytes it reads are counted, as for the
// reductions, though it also writes as many.
void BM_Memcpy(benchmark::State& state) {
  AlignedBuffer<double> copy(kSide * kSide);
  const double* source = reinterpret_cast<const double*>(*Matrix().data());
  for (auto _ : state) {
    RawCopy(copy.data(), source, kSide * kSide);
    benchmark::ClobberMemory();
  }
  SetMatrixBytes(state);
}

// The fastest plain read of the matrix: independent partial sums, which
// the compiler vectorises. The bar for a reduction that reads it once.
void BM_StreamingRead(benchmark::State& state) {
  const double* x = reinterpret_cast<const double*>(*Matrix().data());
  for (auto _ : state) {
    double partial[8] = {};
    for (Index i = 0; i < kSide * kSide; i += 8) {
      for (int k = 0; k < 8; ++k) partial[k] += x[i + k];
    }
    benchmark::DoNotOptimize(partial);
  }
  SetMatrixBytes(state);
}

const std::vector<double>& SortInput() {
  static const std::vector<double>* values = [] {
    auto* v = new std::vector<double>(kSortCount);
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (double& x : *v) x = uniform(random);
    return v;
  }();
  return *values;
}

void BM_Sort(benchmark::State& state) {
  const std::vector<double>& input = SortInput();
  const tensor::Tensor t =
      *tensor::MakeTensor<double>({kSortCount}, absl::MakeConstSpan(input));
  for (auto _ : state) {
    absl::StatusOr<tensor::ValuesAndIndices> sorted =
        tensor::SortAlong(t, 0, tensor::SortOrder::kAscending, 1);
    if (!sorted.ok()) return state.SkipWithError(sorted.status().ToString().c_str());
    benchmark::DoNotOptimize(*sorted->values.data());
  }
  state.SetItemsProcessed(state.iterations() * kSortCount);
}

void BM_StdSort(benchmark::State& state) {
  const std::vector<double>& input = SortInput();
  std::vector<double> copy(kSortCount);
  for (auto _ : state) {
    std::memcpy(copy.data(), input.data(), kSortCount * sizeof(double));
    std::sort(copy.begin(), copy.end());
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetItemsProcessed(state.iterations() * kSortCount);
}

// The alternative to sorting (value, position) pairs: a stable sort of
// positions by value, then a gather of the values.
void BM_StableSortIndexArray(benchmark::State& state) {
  const std::vector<double>& input = SortInput();
  std::vector<std::int64_t> order(kSortCount);
  std::vector<double> values(kSortCount);
  for (auto _ : state) {
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b) { return input[a] < input[b]; });
    for (Index i = 0; i < kSortCount; ++i) values[i] = input[order[i]];
    benchmark::DoNotOptimize(values.data());
  }
  state.SetItemsProcessed(state.iterations() * kSortCount);
}

BENCHMARK(BM_SumDim)->Arg(1)->Arg(2);
BENCHMARK(BM_MaxDim)->Arg(1)->Arg(2);
BENCHMARK(BM_Memcpy);
BENCHMARK(BM_StreamingRead);
BENCHMARK(BM_Sort)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StdSort)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StableSortIndexArray)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace benchmarks

BENCHMARK_MAIN();
