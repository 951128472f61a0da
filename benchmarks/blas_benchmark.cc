// The BLAS products of tensor/blas.h against raw cblas on the same data.
//
//   mm_<type>/ours/N             Product(kMm) into an existing N x N result
//   mm_<type>/cblas/N            cblas_?gemm on the same buffers
//   mm_<type>/ours_transposed/N  the same product with the right operand a
//                                Transpose view (no copy: a BLAS flag)
//   mm_<type>/cblas_transposed/N cblas_?gemm with CblasTrans on that data
//
// OpenBLAS runs single-threaded in every case (set in main), so the ratios
// compare our overhead, not thread scheduling. Read ratios between
// neighbouring lines. Every case is checked against cblas before it is
// timed (small integer operands make every summation order exact).
//
//   bazel run -c opt //benchmarks:blas_benchmark
#include <cblas.h>

#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "tensor/blas.h"
#include "tensor/tensor.h"

namespace {

using tensor::Index;
using tensor::Tensor;

enum class Side { kOurs, kCblas };

// 4 measures the fixed cost of a call (the checks) rather than the product.
constexpr Index kSizes[] = {4, 64, 256, 1024};

void Gemm(CBLAS_TRANSPOSE tb, Index n, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, tb, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
}

void Gemm(CBLAS_TRANSPOSE tb, Index n, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, tb, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
}

template <typename T>
T* Data(const Tensor& t) {
  return reinterpret_cast<T*>(*t.data());
}

// N x N operands: a, b, and bt holding b's transpose, whose Transpose view
// is b again.
template <typename T>
struct Operands {
  Tensor a, b, bt, c, raw_c;

  static Operands Make(Index n) {
    const tensor::DType dtype = tensor::DTypeOf<T>();
    Operands o;
    for (Tensor* t : {&o.a, &o.b, &o.bt, &o.c, &o.raw_c}) {
      *t = *Tensor::Zeros(dtype, {n, n});
    }
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < n; ++j) {
        Data<T>(o.a)[i * n + j] = static_cast<T>((i * 7 + j * 3) % 5) - 2;
        Data<T>(o.b)[i * n + j] = static_cast<T>((i * 2 + j * 5) % 7) - 3;
        Data<T>(o.bt)[j * n + i] = Data<T>(o.b)[i * n + j];
      }
    }
    return o;
  }
};

// The operands for size n, made once per size and type.
template <typename T>
Operands<T>& OperandsFor(Index n) {
  static Index cached_n = -1;
  static Operands<T> cached;
  if (cached_n != n) {
    cached = Operands<T>::Make(n);
    cached_n = n;
  }
  return cached;
}

template <typename T>
void BM_Mm(benchmark::State& state, Side side, bool transposed) {
  const Index n = state.range(0);
  Operands<T>& o = OperandsFor<T>(n);
  const Tensor b = transposed ? *o.bt.Transpose(0, 1) : o.b;
  // Verify: ours and cblas agree exactly.
  Gemm(CblasNoTrans, n, Data<T>(o.a), Data<T>(o.b), Data<T>(o.raw_c));
  if (absl::Status s = tensor::Product(tensor::BlasOp::kMm, o.c, o.a, b); !s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  if (std::memcmp(Data<T>(o.c), Data<T>(o.raw_c), sizeof(T) * n * n) != 0) {
    state.SkipWithError("ours and cblas differ");
    return;
  }
  if (side == Side::kOurs) {
    for (auto _ : state) {
      absl::Status s = tensor::Product(tensor::BlasOp::kMm, o.c, o.a, b);
      benchmark::DoNotOptimize(s);
      benchmark::ClobberMemory();
    }
  } else {
    const T* raw_b = Data<T>(transposed ? o.bt : o.b);
    for (auto _ : state) {
      Gemm(transposed ? CblasTrans : CblasNoTrans, n, Data<T>(o.a), raw_b, Data<T>(o.raw_c));
      benchmark::ClobberMemory();
    }
  }
  state.counters["GFLOP"] =
      benchmark::Counter(2.0 * n * n * n / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

template <typename T>
void Register(const char* type) {
  for (Index n : kSizes) {
    for (bool transposed : {false, true}) {
      for (Side side : {Side::kOurs, Side::kCblas}) {
        const std::string name =
            absl::StrCat("mm_", type, "/", side == Side::kOurs ? "ours" : "cblas",
                         transposed ? "_transposed" : "");
        benchmark::RegisterBenchmark(name.c_str(), BM_Mm<T>, side, transposed)
            ->Arg(n)
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  openblas_set_num_threads(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Register<float>("float");
  Register<double>("double");
  benchmark::AddCustomContext("openblas_threads", std::to_string(openblas_get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
