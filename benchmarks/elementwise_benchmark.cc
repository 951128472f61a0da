// Google Benchmark cases for the element-wise functions of the core
// (tensor/elementwise_unary.h) against plain loops over the same floats in
// the same process: exp against a std::exp loop, sigmoid against a
// 1 / (1 + std::exp(-x)) loop. After the run it prints each core case's
// ratio to its loop (above 1: the core is faster).
//
//   bazel run -c opt //benchmarks:elementwise_benchmark
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "tensor/elementwise_unary.h"
#include "tensor/tensor.h"

namespace {

constexpr tensor::Index kElements = tensor::Index{1} << 20;

// Values in [-4, 4): the range where both functions do real work.
std::vector<float> Inputs() {
  std::vector<float> values(kElements);
  for (tensor::Index i = 0; i < kElements; ++i) {
    values[i] = -4.0f + 8.0f * static_cast<float>(i % 1000) / 1000.0f;
  }
  return values;
}

// The loops the core is held to, as a C program would write them.
void ExpLoop(float* x, tensor::Index n) {
  for (tensor::Index i = 0; i < n; ++i) x[i] = std::exp(x[i]);
}
void SigmoidLoop(float* x, tensor::Index n) {
  for (tensor::Index i = 0; i < n; ++i) x[i] = 1.0f / (1.0f + std::exp(-x[i]));
}

// Each iteration restores the inputs untimed, then applies the function
// to all of them in place.
template <typename Apply>
void Run(benchmark::State& state, float* data, Apply apply) {
  const std::vector<float> inputs = Inputs();
  for (auto _ : state) {
    state.PauseTiming();
    std::memcpy(data, inputs.data(), inputs.size() * sizeof(float));
    state.ResumeTiming();
    if (!apply()) {
      state.SkipWithError("the core failed");
      return;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}

template <tensor::UnaryFunction kFunction>
void BM_Core(benchmark::State& state) {
  absl::StatusOr<tensor::Tensor> t = tensor::Tensor::Zeros(tensor::DType::kFloat32, {kElements});
  if (!t.ok()) return state.SkipWithError(t.status().ToString().c_str());
  float* data = reinterpret_cast<float*>(*t->data());
  Run(state, data, [&] { return tensor::ApplyUnary(*t, kFunction).ok(); });
}

template <void (*kLoop)(float*, tensor::Index)>
void BM_Loop(benchmark::State& state) {
  std::vector<float> data(kElements);
  Run(state, data.data(), [&] {
    kLoop(data.data(), kElements);
    return true;
  });
}

BENCHMARK(BM_Core<tensor::UnaryFunction::kExp>)->Name("exp/core/1M");
BENCHMARK(BM_Loop<&ExpLoop>)->Name("exp/std_exp_loop/1M");
BENCHMARK(BM_Core<tensor::UnaryFunction::kSigmoid>)->Name("sigmoid/core/1M");
BENCHMARK(BM_Loop<&SigmoidLoop>)->Name("sigmoid/std_exp_loop/1M");

// Keeps items/s per benchmark name for the ratios printed at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const auto items = run.counters.find("items_per_second");
      if (items != run.counters.end()) rates_[run.benchmark_name()] = items->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void PrintRatios() const {
    for (const char* function : {"exp", "sigmoid"}) {
      const auto core = rates_.find(std::string(function) + "/core/1M");
      const auto loop = rates_.find(std::string(function) + "/std_exp_loop/1M");
      if (core == rates_.end() || loop == rates_.end()) continue;
      std::printf("%-8s core %.3g elements/s, loop %.3g elements/s, core/loop %.2f\n", function,
                  core->second, loop->second, core->second / loop->second);
    }
  }

 private:
  std::map<std::string, double> rates_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  benchmark::Shutdown();
  return 0;
}
